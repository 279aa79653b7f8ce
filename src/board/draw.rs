//! Drawing the board with sprites, meshes and `Text2d`: railways as thick black-and-white dashed
//! lines, roads as thin lines, camps as circles, headquarters marked, the mountain line between
//! the halves; piece tiles in two colours; highlights; short battle effects.

use bevy::{prelude::*, sprite_render::AlphaMode2d};
use junqi_game::{Point, PointKind, Side};

use super::{
    cache::{BoardCache, CACHED},
    scene::{BoardScene, Colour, Face, TileAt},
    view::{BoardView, CurrentView, GAP},
};
use crate::{settings::Settings, theme::Fonts};

/// How many times the board has been redrawn (for the diagnostics, feature `dev`).
#[cfg(feature = "dev")]
pub static REDRAWS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

/// Marks every entity of the drawn board (despawned and redrawn when the scene changes).
#[derive(Component)]
struct BoardPart;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<BoardCache>()
        // Before transforms and visibility are computed: a board spawned after them is not
        // rendered until something else changes (seen in LAN games, whose scene changes rarely).
        .add_systems(
            PostUpdate,
            (redraw, super::cache::keep)
                .chain()
                .after(super::view::track_view)
                .before(bevy::transform::TransformSystems::Propagate)
                .before(bevy::camera::visibility::VisibilitySystems::CalculateBounds),
        );
}

fn srgb(c: [u8; 3]) -> Color {
    Color::srgb_u8(c[0], c[1], c[2])
}

/// Parts drawn at this height or above lie over the moving tile (point names, the selection,
/// targets): they are drawn live, over the cached board, not into it.
const LIVE_Z: f32 = 4.85;

/// Redraws the board when the scene, the view or the settings change.
#[allow(clippy::too_many_arguments)]
fn redraw(
    mut commands: Commands,
    scene: Res<BoardScene>,
    current: Res<CurrentView>,
    settings: Res<Settings>,
    fonts: Option<Res<Fonts>>,
    parts: Query<Entity, With<BoardPart>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    mut last: Local<Option<(BoardScene, Option<BoardView>, Settings)>>,
    mut batch_materials: Local<Option<[Handle<ColorMaterial>; 2]>>,
    mut cache: ResMut<BoardCache>,
    mut caching: Local<Option<bool>>,
    area: Res<super::view::BoardArea>,
    window: Option<Single<&Window, With<bevy::window::PrimaryWindow>>>,
) {
    let Some(fonts) = fonts else { return };
    let view = current.0;
    // Compared in place (the scene is rebuilt by the screens every frame): cloned only when it
    // changed.
    if last
        .as_ref()
        .is_some_and(|(s, v, st)| *s == *scene && *v == view && *st == *settings)
    {
        return;
    }
    *last = Some((scene.clone(), view, settings.clone()));
    #[cfg(feature = "dev")]
    REDRAWS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    for e in &parts {
        commands.entity(e).despawn();
    }
    let Some(view) = view else {
        cache.redrawn(None);
        return;
    };
    let [opaque, blended] = batch_materials
        .get_or_insert_with(|| {
            [AlphaMode2d::Opaque, AlphaMode2d::Blend].map(|alpha_mode| {
                materials.add(ColorMaterial {
                    alpha_mode,
                    ..ColorMaterial::from_color(Color::WHITE)
                })
            })
        })
        .clone();
    // The part of the world the screen shows the board in (a zoomed board is larger).
    let visible = window.map_or(Rect::new(-1e6, -1e6, 1e6, 1e6), |w| area.in_world(w.size()));
    let mut drawer = Drawer {
        visible,
        commands: &mut commands,
        fonts: &fonts,
        view,
        settings: &settings,
        shapes: Vec::new(),
        text_z: Vec::new(),
        moved: scene.last_move.get(1).copied(),
        tile_at: None,
        moving: Vec::new(),
        cache: *caching
            .get_or_insert_with(|| std::env::var_os("JUNQI_BOARD_CACHE").is_none_or(|v| v != "0")),
    };
    drawer.draw(&scene);
    let bounds = drawer.finish(&mut meshes, opaque, blended);
    cache.redrawn(bounds);
}

/// A flat-coloured shape of the board, drawn as triangles in one of a few meshes.
struct Shape {
    z: f32,
    colour: [f32; 4],
    /// Triangles, three corners each.
    corners: Vec<Vec2>,
}

/// Segments of an ellipse (as many as Bevy's `Circle` mesh has).
const ELLIPSE_STEPS: usize = 32;

/// Draws the board: texts as `Text2d` entities, every flat-coloured shape into [`Shape`]s that
/// [`Drawer::finish`] turns into a few meshes with vertex colours. A board is well over a
/// thousand rectangles; as entities, each was extracted, sorted and batched by the renderer every
/// frame.
struct Drawer<'a, 'w, 's> {
    /// The world rectangle the board is shown in: live parts (drawn over the board's image, not
    /// clipped with it) outside it are left out.
    visible: Rect,
    commands: &'a mut Commands<'w, 's>,
    fonts: &'a Fonts,
    view: BoardView,
    settings: &'a Settings,
    shapes: Vec<Shape>,
    /// The heights of the texts drawn, which translucent shapes must keep their order with.
    text_z: Vec<f32>,
    /// The last move's destination: its tile is drawn apart, tagged [`TileAt`], so that the
    /// move can slide it in (`super::motion`).
    moved: Option<Point>,
    /// Set while that tile is being drawn.
    tile_at: Option<Point>,
    /// That tile's shapes.
    moving: Vec<Shape>,
    /// Whether the board is drawn into its image ([`super::cache`]); `JUNQI_BOARD_CACHE=0` draws
    /// every part on the window's camera each frame instead (to compare).
    cache: bool,
}

impl Drawer<'_, '_, '_> {
    /// Whether point `p`'s tile lies wholly where the board is shown.
    fn shows(&self, p: Point) -> bool {
        let r = Rect::from_center_size(self.view.world(p), self.view.tile_size() + 8.0);
        self.visible.contains(r.min) && self.visible.contains(r.max)
    }

    fn shape(&mut self, z: f32, color: Color, corners: Vec<Vec2>) {
        let shape = Shape {
            z,
            colour: color.to_linear().to_f32_array(),
            corners,
        };
        if self.tile_at.is_some() {
            self.moving.push(shape);
        } else {
            self.shapes.push(shape);
        }
    }

    /// A quadrilateral from its corners in order round it.
    fn quad(&mut self, c: [Vec2; 4], z: f32, color: Color) {
        self.shape(z, color, vec![c[0], c[1], c[2], c[0], c[2], c[3]]);
    }

    fn rect(&mut self, at: Vec2, size: Vec2, z: f32, color: Color) {
        let h = size / 2.0;
        self.quad(
            [
                at + Vec2::new(-h.x, -h.y),
                at + Vec2::new(h.x, -h.y),
                at + Vec2::new(h.x, h.y),
                at + Vec2::new(-h.x, h.y),
            ],
            z,
            color,
        );
    }

    fn line(&mut self, a: Vec2, b: Vec2, width: f32, z: f32, color: Color) {
        let along = (b - a).normalize_or_zero();
        let across = along.perp() * (width / 2.0);
        self.quad([a - across, b - across, b + across, a + across], z, color);
    }

    fn ellipse(&mut self, at: Vec2, radii: Vec2, z: f32, color: Color) {
        let rim: Vec<Vec2> = (0..ELLIPSE_STEPS)
            .map(|i| {
                let t = std::f32::consts::TAU * i as f32 / ELLIPSE_STEPS as f32;
                at + Vec2::from_angle(t) * radii
            })
            .collect();
        let corners = (0..ELLIPSE_STEPS)
            .flat_map(|i| [at, rim[i], rim[(i + 1) % ELLIPSE_STEPS]])
            .collect();
        self.shape(z, color, corners);
    }

    /// Spawns the shapes as meshes. Opaque shapes go into one depth-tested mesh, each at its
    /// height, drawn from the top layer down so that covered pixels (the ground under the
    /// stations and pieces) fail the depth test instead of being shaded; translucent ones are
    /// blended in height order, one mesh for each run of them between two texts' heights, so
    /// that they keep their order with the texts. The picture is the one that drawing every
    /// shape in height order gives. Returns the world rectangle of the cached shapes.
    fn finish(
        self,
        meshes: &mut Assets<Mesh>,
        opaque: Handle<ColorMaterial>,
        blended: Handle<ColorMaterial>,
    ) -> Option<Rect> {
        let Drawer {
            commands,
            shapes,
            mut text_z,
            moved,
            moving,
            cache,
            ..
        } = self;
        // The moved tile: its own two meshes, which a slide moves.
        if let Some(point) = moved.filter(|_| !moving.is_empty()) {
            let tag = TileAt {
                point,
                base: Vec2::ZERO,
            };
            let (mut solid, mut clear): (Vec<Shape>, Vec<Shape>) =
                moving.into_iter().partition(|s| s.colour[3] >= 1.0);
            solid.sort_by(|a, b| b.z.total_cmp(&a.z));
            clear.sort_by(|a, b| a.z.total_cmp(&b.z));
            for (part, material) in [(solid, opaque.clone()), (clear, blended.clone())] {
                if let Some(z) = part.first().map(|s| s.z) {
                    commands.spawn((
                        BoardPart,
                        tag,
                        Mesh2d(meshes.add(mesh_of(&part, z))),
                        MeshMaterial2d(material),
                        Transform::from_xyz(0.0, 0.0, z),
                    ));
                }
            }
        }
        text_z.sort_by(f32::total_cmp);
        text_z.dedup();
        let (live, cached): (Vec<Shape>, Vec<Shape>) =
            shapes.into_iter().partition(|s| s.z >= LIVE_Z);
        let bounds = cache
            .then_some(&cached)
            .into_iter()
            .flatten()
            .flat_map(|s| s.corners.iter().copied())
            .fold(None, |r: Option<Rect>, c| {
                Some(r.map_or(Rect::from_center_size(c, Vec2::ZERO), |r| r.union_point(c)))
            });
        spawn_layer(
            commands,
            meshes,
            cached,
            &text_z,
            [&opaque, &blended],
            cache,
        );
        spawn_layer(commands, meshes, live, &text_z, [&opaque, &blended], false);
        bounds
    }

    fn text(&mut self, at: Vec2, z: f32, text: &str, size: f32, color: Color, bold: bool) {
        self.text_z.push(z);
        let font = if bold {
            &self.fonts.bold
        } else {
            &self.fonts.regular
        };
        let mut e = self.commands.spawn((
            BoardPart,
            Text2d::new(text),
            TextFont {
                font: font.clone().into(),
                font_size: FontSize::Px(size),
                ..default()
            },
            TextColor(color),
            Transform::from_translation(at.extend(z)),
        ));
        if let Some(point) = self.tile_at {
            e.insert(TileAt { point, base: at });
        } else if self.cache && z < LIVE_Z {
            e.insert(CACHED);
        }
    }

    /// A rectangle outline.
    fn frame(&mut self, at: Vec2, size: Vec2, width: f32, z: f32, color: Color) {
        let (hx, hy) = (size.x / 2.0, size.y / 2.0);
        self.rect(
            at + Vec2::new(0.0, hy),
            Vec2::new(size.x + width, width),
            z,
            color,
        );
        self.rect(
            at - Vec2::new(0.0, hy),
            Vec2::new(size.x + width, width),
            z,
            color,
        );
        self.rect(
            at + Vec2::new(hx, 0.0),
            Vec2::new(width, size.y + width),
            z,
            color,
        );
        self.rect(
            at - Vec2::new(hx, 0.0),
            Vec2::new(width, size.y + width),
            z,
            color,
        );
    }

    /// The classic board's ground: one board with the mountain line between the halves.
    fn classic_ground(&mut self, scene: &BoardScene, board_col: Color, line_col: Color) {
        let v = self.view;
        let s = v.sy;
        let top = v.grid_to_world(Vec2::new(4.0, BoardView::ROWS));
        let bottom = v.grid_to_world(Vec2::new(0.0, 0.0));
        let size = (top - bottom).abs() + Vec2::new(v.sx * 1.2, s * 1.1);
        let mid = (top + bottom) / 2.0;
        // Outlines are drawn as strips, not as a filled rectangle under the fill: a software
        // renderer pays for every pixel of overdraw.
        self.frame(mid, size + Vec2::splat(s * 0.08), s * 0.08, 0.0, line_col);
        self.rect(mid, size, 0.1, board_col);
        if scene.dim_enemy_half {
            let enemy_mid = v.grid_to_world(Vec2::new(2.0, 8.5 + GAP));
            let h = 6.0 * s;
            self.rect(
                enemy_mid,
                Vec2::new(size.x, h),
                0.15,
                Color::srgba(0.0, 0.0, 0.0, 0.28),
            );
        }

        // The mountain line: a band between the halves, labelled.
        let band_y = v.grid_to_world(Vec2::new(2.0, 5.0 + (1.0 + GAP) / 2.0)).y;
        self.rect(
            Vec2::new(mid.x, band_y),
            Vec2::new(size.x, s * GAP * 0.9),
            0.2,
            board_col.darker(0.08),
        );
        for gx in [1.0, 3.0] {
            let x = v.grid_to_world(Vec2::new(gx, 0.0)).x;
            self.text(Vec2::new(x, band_y), 0.3, "山 界", s * 0.34, line_col, true);
        }
    }

    /// The four-player board's ground: a cross of four halves, each tinted in its seat's
    /// colour (dimmed when nobody plays it or its player is out), and the 九宫 centre.
    fn four_ground(&mut self, scene: &BoardScene, board_col: Color, line_col: Color) {
        let v = self.view;
        let s = v.sy;
        let board = v.board();
        for side in Side::FOUR {
            let pts: Vec<Vec2> = board
                .setup_points(side)
                .iter()
                .map(|&p| v.world(p))
                .collect();
            let (min, max) = pts.iter().fold(
                (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN)),
                |(a, b), &p| (a.min(p), b.max(p)),
            );
            let mid = (min + max) / 2.0;
            let size = max - min + Vec2::splat(s * 0.95);
            let tint = srgb(Colour::of_seat(side).rgb());
            let ground = board_col.mix(&tint, 0.12);
            self.frame(mid, size, s * 0.06, 0.0, line_col);
            self.rect(mid, size - Vec2::splat(s * 0.06), 0.1, ground);
            let dim = scene.dim_halves.contains(&side)
                || (scene.dim_enemy_half && Some(side) != scene.bottom);
            if dim {
                // Over the stations too (they are drawn at z 2), under the pieces (z 4).
                self.rect(mid, size, 3.5, Color::srgba(0.1, 0.08, 0.06, 0.45));
            }
        }
        // The centre: the square between the halves' front rows.
        let c = v.grid_to_world(Vec2::splat(BoardView::FOUR / 2.0));
        let size = Vec2::splat(s * 5.0);
        self.frame(c, size, s * 0.06, 0.0, line_col);
        self.rect(c, size - Vec2::splat(s * 0.06), 0.1, board_col.darker(0.04));
    }

    fn draw(&mut self, scene: &BoardScene) {
        let v = self.view;
        let board = v.board();
        let (_, board_rgb, line_rgb) = self.settings.theme.colours();
        let (board_col, line_col) = (srgb(board_rgb), srgb(line_rgb));
        let s = v.sy;

        if v.four {
            self.four_ground(scene, board_col, line_col);
        } else {
            self.classic_ground(scene, board_col, line_col);
        }

        // Roads: thin lines.
        let road_w = (s * 0.04).max(1.5);
        for &(a, b) in board.road_edges() {
            self.line(v.world(a), v.world(b), road_w, 1.0, line_col);
        }
        // Railways: thick black lines with white dashes.
        let rail_w = (s * 0.13).max(4.0);
        let mut drawn = std::collections::HashSet::new();
        for line in board.rail_lines() {
            for w in line.windows(2) {
                // Lines through the centre share edges: draw each once.
                if !drawn.insert((w[0].min(w[1]), w[0].max(w[1]))) {
                    continue;
                }
                let path = self.view.edge_path(w[0], w[1]);
                let curved = path.len() > 2;
                for seg in path.windows(2) {
                    let (a, b) = (seg[0], seg[1]);
                    // Arc segments overlap a little so the curve has no gaps.
                    let (a, b) = if curved {
                        let e = (b - a).normalize_or_zero() * rail_w * 0.25;
                        (a - e, b + e)
                    } else {
                        (a, b)
                    };
                    self.line(a, b, rail_w, 1.1, Color::srgb(0.08, 0.08, 0.08));
                }
                for (i, seg) in path.windows(2).enumerate() {
                    let (a, b) = (seg[0], seg[1]);
                    if curved {
                        // Every other arc segment white: the same dashes as a straight rail.
                        if i % 2 == 1 {
                            self.line(a, b, rail_w * 0.5, 1.2, Color::srgb(0.95, 0.95, 0.95));
                        }
                        continue;
                    }
                    let d = b - a;
                    let n = ((d.length() / (s * 0.45)).round() as i32).max(2);
                    for i in 0..n {
                        if i % 2 == 1 {
                            let p0 = a + d * (i as f32 / n as f32);
                            let p1 = a + d * ((i as f32 + 1.0) / n as f32);
                            self.line(p0, p1, rail_w * 0.5, 1.2, Color::srgb(0.95, 0.95, 0.95));
                        }
                    }
                }
            }
        }

        // Points: stations as boxes, camps as circles, headquarters as rounded marked boxes.
        let tile = v.tile_size();
        for p in board.points() {
            let at = v.world(p);
            match board.kind(p) {
                // A piece's tile hides the whole station box under it.
                PointKind::Station if scene.tile(p).is_some() => {}
                PointKind::Station => {
                    let edge = road_w * 0.8;
                    self.frame(at, tile * 0.86 - Vec2::splat(edge), edge, 2.0, line_col);
                    self.rect(
                        at,
                        tile * 0.86 - Vec2::splat(edge * 2.0),
                        2.1,
                        board_col.lighter(0.06),
                    );
                }
                PointKind::Camp => {
                    let r = Vec2::new(tile.x * 0.5, tile.y * 0.62);
                    self.ellipse(at, r, 1.8, line_col);
                    self.ellipse(
                        at,
                        r - Vec2::splat(road_w * 1.3),
                        1.9,
                        board_col.lighter(0.1),
                    );
                }
                PointKind::Headquarters => {
                    let r = Vec2::new(tile.x * 0.56, tile.y * 0.62);
                    self.ellipse(at, r + Vec2::splat(road_w), 1.8, line_col);
                    self.ellipse(at, r - Vec2::splat(road_w * 0.6), 1.9, srgb([200, 150, 90]));
                    self.text(at, 2.2, "大本营", s * 0.26, line_col, true);
                }
            }
        }

        // Each seat's latest move in its colour (four players), under the other highlights.
        for &(a, b, colour) in &scene.seat_moves {
            let c = srgb(colour.rgb()).lighter(0.15);
            self.frame(v.world(a), tile + Vec2::splat(3.0), 3.0, 2.9, c);
            self.frame(v.world(b), tile + Vec2::splat(3.0), 3.0, 2.9, c);
        }
        // Highlights under the pieces: the last move, a hint, a refused swap.
        for (points, grow, width, z, colour) in [
            (&scene.last_move, 6.0, 4.0, 3.0, Color::srgb(1.0, 0.55, 0.1)),
            (&scene.hint, 10.0, 4.0, 3.1, Color::srgb(0.2, 0.85, 0.95)),
            (&scene.warn, 8.0, 5.0, 3.2, Color::srgb(0.95, 0.1, 0.1)),
        ] {
            for &p in points {
                self.frame(v.world(p), tile + Vec2::splat(grow), width, z, colour);
            }
        }

        // Pieces.
        for (p, t) in &scene.pieces {
            self.tile_at = self.moved.filter(|m| m == p && self.shows(*m));
            let at = v.world(*p);
            let (fill, ink) = (srgb(t.colour.rgb()), Color::WHITE);
            // Shadow (only where it shows: right and below), edge, face.
            let shadow = Color::srgba(0.0, 0.0, 0.0, 0.35);
            self.rect(
                at + Vec2::new(tile.x / 2.0 + 1.0, -3.0),
                Vec2::new(2.0, tile.y),
                4.0,
                shadow,
            );
            self.rect(
                at + Vec2::new(1.0, -tile.y / 2.0 - 1.5),
                Vec2::new(tile.x - 2.0, 3.0),
                4.0,
                shadow,
            );
            let edge = s * 0.04;
            self.frame(at, tile - Vec2::splat(edge), edge, 4.1, fill.darker(0.18));
            self.rect(at, tile - Vec2::splat(edge * 2.0), 4.2, fill);
            match t.face {
                Face::Rank(rank) => {
                    let label = if scene.show_nicknames {
                        rank.nickname()
                    } else {
                        crate::game_text::piece_face(rank)
                    };
                    self.text(at, 4.3, label, s * 0.38, ink, true);
                }
                Face::Back => {
                    self.rect(at, tile * Vec2::new(0.62, 0.5), 4.25, fill.lighter(0.08));
                    self.frame(
                        at,
                        tile * Vec2::new(0.62, 0.5),
                        1.5,
                        4.28,
                        ink.with_alpha(0.5),
                    );
                }
                Face::FaceDown => {
                    self.frame(
                        at,
                        tile * Vec2::new(0.7, 0.56),
                        1.5,
                        4.28,
                        ink.with_alpha(0.6),
                    );
                    self.text(at, 4.35, "军", s * 0.3, ink.with_alpha(0.55), true);
                }
            }
            if let Some(m) = &t.marker {
                // Readable at a glance: about 18 px on the desktop board, never under 14.
                let size = (s * 0.32).max(14.0);
                let badge = at + Vec2::new(tile.x * 0.42, tile.y * 0.42);
                self.ellipse(badge, Vec2::splat(size), 4.6, srgb([250, 220, 90]));
                self.text(badge, 4.7, m, size, Color::BLACK, true);
            }
        }
        self.tile_at = None;

        // Point names, as the move log writes them, in a corner of each point (settings).
        if self.settings.coordinates {
            let ink = line_col.with_alpha(0.85);
            let shown: Vec<Point> = board.points().filter(|&p| self.shows(p)).collect();
            for p in shown {
                let at = v.world(p) + Vec2::new(-tile.x * 0.3, -tile.y * 0.62);
                let name = board.name_of(p).to_string();
                self.text(at, 4.9, &name, (s * 0.2).max(8.0), ink, false);
            }
        }

        // Selection and targets on top.
        if let Some(p) = scene.selected.filter(|&p| self.shows(p)) {
            self.frame(
                v.world(p),
                tile + Vec2::splat(4.0),
                4.0,
                5.0,
                Color::srgb(1.0, 0.9, 0.1),
            );
        }
        let targets: Vec<Point> = scene
            .targets
            .iter()
            .copied()
            .filter(|&p| self.shows(p))
            .collect();
        for p in targets {
            let at = v.world(p);
            if scene.tile(p).is_some() {
                self.frame(
                    at,
                    tile + Vec2::splat(2.0),
                    4.0,
                    5.0,
                    Color::srgb(0.95, 0.2, 0.2),
                );
            } else {
                self.ellipse(
                    at,
                    Vec2::splat(s * 0.16),
                    5.0,
                    Color::srgba(0.1, 0.7, 0.2, 0.9),
                );
            }
        }
    }
}

/// Spawns `shapes` as one opaque depth-tested mesh (top layer first) and translucent meshes in
/// height order, one per run between two of the texts' heights `text_z`; into the board's image
/// when `cached`, else on the window's camera.
fn spawn_layer(
    commands: &mut Commands,
    meshes: &mut Assets<Mesh>,
    shapes: Vec<Shape>,
    text_z: &[f32],
    [opaque, blended]: [&Handle<ColorMaterial>; 2],
    cached: bool,
) {
    let mut spawn = |mesh: Mesh, material: &Handle<ColorMaterial>, z: f32| {
        let mut e = commands.spawn((
            BoardPart,
            Mesh2d(meshes.add(mesh)),
            MeshMaterial2d(material.clone()),
            Transform::from_xyz(0.0, 0.0, z),
        ));
        if cached {
            e.insert(CACHED);
        }
    };
    let (mut solid, translucent): (Vec<Shape>, Vec<Shape>) =
        shapes.into_iter().partition(|s| s.colour[3] >= 1.0);
    // The top layer first; within a layer, in the order drawn (the later one wins a tie).
    solid.sort_by(|a, b| b.z.total_cmp(&a.z));
    if !solid.is_empty() {
        spawn(mesh_of(&solid, 0.0), opaque, 0.0);
    }
    let mut runs: std::collections::BTreeMap<usize, Vec<Shape>> = Default::default();
    for s in translucent {
        let run = text_z.partition_point(|&t| t <= s.z);
        runs.entry(run).or_default().push(s);
    }
    for mut run in runs.into_values() {
        run.sort_by(|a, b| a.z.total_cmp(&b.z));
        let z = run[0].z;
        spawn(mesh_of(&run, z), blended, z);
    }
}

/// A triangle-list mesh of `shapes` with vertex colours, each vertex at its shape's height less
/// `base` (the height of the mesh's entity, by which translucent meshes are sorted with the
/// texts): shapes are depth-tested against the opaque ones at their own heights.
fn mesh_of(shapes: &[Shape], base: f32) -> Mesh {
    let n: usize = shapes.iter().map(|s| s.corners.len()).sum();
    let (mut positions, mut colours) = (Vec::with_capacity(n), Vec::with_capacity(n));
    for s in shapes {
        let z = s.z - base;
        for c in &s.corners {
            positions.push([c.x, c.y, z]);
            colours.push(s.colour);
        }
    }
    Mesh::new(
        bevy::mesh::PrimitiveTopology::TriangleList,
        bevy::asset::RenderAssetUsages::RENDER_WORLD,
    )
    .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
    .with_inserted_attribute(Mesh::ATTRIBUTE_COLOR, colours)
}
