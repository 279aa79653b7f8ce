//! The drawn board kept in a texture. A software renderer (Mesa's llvmpipe on a machine without
//! a GPU) pays for every pixel of every layer of the board each frame, but the board changes only
//! when its scene does: a second camera renders the board's parts into an image when they are
//! redrawn, and the window's camera draws that image as one opaque rectangle. What moves between
//! redraws (the sliding tile, battle effects, a dragged piece) and what lies over it (selection,
//! targets, point names) stays on the window's camera.

use bevy::{
    asset::RenderAssetUsages,
    camera::{RenderTarget, visibility::RenderLayers},
    image::ImageSampler,
    prelude::*,
    render::render_resource::TextureFormat,
    sprite_render::AlphaMode2d,
    text::TextLayoutInfo,
    window::PrimaryWindow,
};

/// The layer of the parts rendered into the image (the window's camera sees layer 0 only).
pub(super) const CACHED: RenderLayers = RenderLayers::layer(1);

/// Frames the board camera renders after a redraw, at least.
const ACTIVE_FRAMES: u8 = 2;

/// At most this many more frames waiting for the texts (a text that never lays out, e.g. an empty
/// one, must not keep the camera on).
const MAX_WAIT_FRAMES: u8 = 30;

/// What the board last drew, and the camera, image and rectangle that show it.
#[derive(Resource, Default)]
pub(super) struct BoardCache {
    /// The world rectangle covering the cached parts (`None`: nothing to show).
    bounds: Option<Rect>,
    /// Frames left to render.
    pending: u8,
    /// Frames rendered waiting for texts to be laid out.
    waited: u8,
    camera: Option<Entity>,
    shown: Option<Entity>,
    image: Option<(Handle<Image>, UVec2)>,
}

impl BoardCache {
    /// The cached parts were despawned and drawn again covering `bounds` (`None`: no board).
    pub(super) fn redrawn(&mut self, bounds: Option<Rect>) {
        self.bounds = bounds;
        self.pending = ACTIVE_FRAMES;
    }
}

/// Physical pixel rectangle (min inclusive, max exclusive) of the window covering world rectangle
/// `r`, for a 2D camera at the origin with `scale` physical pixels per world unit.
pub(super) fn pixel_rect(r: Rect, window: UVec2, scale: f32) -> URect {
    let half = window.as_vec2() / 2.0;
    let x0 = (r.min.x * scale + half.x)
        .floor()
        .clamp(0.0, window.x as f32);
    let x1 = (r.max.x * scale + half.x)
        .ceil()
        .clamp(0.0, window.x as f32);
    let y0 = (half.y - r.max.y * scale)
        .floor()
        .clamp(0.0, window.y as f32);
    let y1 = (half.y - r.min.y * scale)
        .ceil()
        .clamp(0.0, window.y as f32);
    URect::new(x0 as u32, y0 as u32, x1 as u32, y1 as u32)
}

/// The world rectangle of the window's pixel rectangle `px` (the inverse of [`pixel_rect`] on
/// pixel boundaries).
pub(super) fn world_rect(px: URect, window: UVec2, scale: f32) -> Rect {
    let half = window.as_vec2() / 2.0;
    Rect::new(
        (px.min.x as f32 - half.x) / scale,
        (half.y - px.max.y as f32) / scale,
        (px.max.x as f32 - half.x) / scale,
        (half.y - px.min.y as f32) / scale,
    )
}

/// After a redraw: sizes the image to the board's pixels, points the board camera at them and
/// renders for a frame or two; the rest of the time the camera is off and the image is shown.
#[allow(clippy::too_many_arguments)]
pub(super) fn keep(
    mut commands: Commands,
    mut cache: ResMut<BoardCache>,
    window: Option<Single<&Window, With<PrimaryWindow>>>,
    mut cameras: Query<&mut Camera>,
    mut images: ResMut<Assets<Image>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    clear: Res<ClearColor>,
    texts: Query<(&TextLayoutInfo, &RenderLayers), With<Text2d>>,
    area: Res<super::view::BoardArea>,
) {
    let cache = &mut *cache;
    if cache.pending == 0 {
        if let Some(mut camera) = cache.camera.and_then(|c| cameras.get_mut(c).ok())
            && camera.is_active
        {
            camera.is_active = false;
        }
        return;
    }
    let first = cache.pending == ACTIVE_FRAMES;
    if !first {
        // Bevy lays a `Text2d` out only once a camera that sees it has been seen to see sprites:
        // a frame or more after the board camera turned on. Render until every cached text has
        // its glyphs, then once more.
        let waiting = texts
            .iter()
            .any(|(info, layers)| *layers == CACHED && info.glyphs.is_empty());
        if waiting && cache.waited < MAX_WAIT_FRAMES {
            cache.waited += 1;
        } else {
            cache.pending -= 1;
        }
        return;
    }
    cache.pending -= 1;
    cache.waited = 0;
    // The first frame after a redraw: place the camera, the image and the rectangle.
    if let Some(shown) = cache.shown.take() {
        commands.entity(shown).despawn();
    }
    let (Some(bounds), Some(window)) = (cache.bounds, window) else {
        return;
    };
    let size = UVec2::new(window.physical_width(), window.physical_height());
    let scale = window.scale_factor();
    // Clipped to the area the screen left for the board: a board larger than it (the setup
    // screen's own half fitted to a phone's width) must not show through the unfilled panels.
    let bounds = bounds.intersect(area.in_world(window.size()));
    let px = pixel_rect(bounds, size, scale);
    if px.is_empty() {
        return;
    }
    let world = world_rect(px, size, scale);
    let image = match &cache.image {
        Some((image, at)) if *at == px.size() => image.clone(),
        _ => {
            let mut image = Image::new_target_texture(
                px.width(),
                px.height(),
                // The format of the window's main texture: the image is copied, not converted.
                TextureFormat::Rgba8UnormSrgb,
                None,
            );
            image.asset_usage = RenderAssetUsages::RENDER_WORLD;
            image.sampler = ImageSampler::nearest();
            let handle = images.add(image);
            cache.image = Some((handle.clone(), px.size()));
            handle
        }
    };
    let at = Transform::from_translation(world.center().extend(0.0));
    let projection = Projection::Orthographic(OrthographicProjection {
        scale: 1.0 / scale,
        ..OrthographicProjection::default_2d()
    });
    let camera = Camera {
        order: -1,
        is_active: true,
        clear_color: ClearColorConfig::Custom(clear.0),
        ..default()
    };
    let target = RenderTarget::Image(image.clone().into());
    match cache.camera {
        Some(e) => {
            commands.entity(e).insert((camera, target, projection, at));
        }
        None => {
            cache.camera = Some(
                commands
                    .spawn((
                        Name::new("Board camera"),
                        Camera2d,
                        camera,
                        target,
                        projection,
                        at,
                        Msaa::Off,
                        CACHED,
                    ))
                    .id(),
            );
        }
    }
    // Under everything else on the window's camera (the board is drawn from height 0 up).
    let material = materials.add(ColorMaterial {
        texture: Some(image),
        alpha_mode: AlphaMode2d::Opaque,
        ..ColorMaterial::from_color(Color::WHITE)
    });
    cache.shown = Some(
        commands
            .spawn((
                Name::new("Board image"),
                Mesh2d(meshes.add(Rectangle::from_size(world.size()))),
                MeshMaterial2d(material),
                Transform::from_translation(world.center().extend(-1.0)),
            ))
            .id(),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_image_covers_whole_pixels_round_the_board() {
        let window = UVec2::new(1280, 800);
        // A board from x -300.4 to 299.6, y -390.2 to 380.7 in world units, at scale 1 and 2.
        let r = Rect::new(-300.4, -390.2, 299.6, 380.7);
        let px = pixel_rect(r, window, 1.0);
        assert_eq!(px, URect::new(339, 19, 940, 791));
        let w = world_rect(px, window, 1.0);
        assert!(w.contains(r.min) && w.contains(r.max));
        assert_eq!(
            pixel_rect(w, window, 1.0),
            px,
            "pixel boundaries map back to themselves"
        );
        let px2 = pixel_rect(r, window * 2, 2.0);
        assert_eq!(px2, URect::new(679, 38, 1880, 1581));
        // Clamped to the window.
        let big = Rect::new(-2000.0, -2000.0, 2000.0, 2000.0);
        assert_eq!(pixel_rect(big, window, 1.0), URect::new(0, 0, 1280, 800));
    }
}
