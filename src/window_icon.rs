//! The desktop window's icon (title bar, task bar): the 军 piece of `assets/icon/`, drawn by
//! `scripts/make-icon.py`.
//!
//! Bevy 0.19 has no window-icon setting, so it is set on the winit window itself, once the
//! window exists. Built into the binary, like the fonts, so the lone `.exe` has it too. Android
//! and the Windows `.exe`'s file icon take theirs from the packaging (Cargo.toml, `build.rs`).

use bevy::{
    asset::RenderAssetUsages,
    ecs::system::NonSendMarker,
    image::{CompressedImageFormats, ImageSampler, ImageType},
    prelude::*,
    window::PrimaryWindow,
    winit::WINIT_WINDOWS,
};

/// The 256 × 256 icon.
pub const ICON_PNG: &[u8] = include_bytes!("../assets/icon/junqi-256.png");

/// Why an icon could not be made from a PNG.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IconError {
    /// The bytes are not a PNG the decoder understands.
    Decode(String),
    /// The decoded image cannot be turned into RGBA pixels.
    Pixels(String),
    /// winit refused the pixels.
    Winit(String),
}

impl std::fmt::Display for IconError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IconError::Decode(e) => write!(f, "window icon: not a PNG: {e}"),
            IconError::Pixels(e) => write!(f, "window icon: no RGBA pixels: {e}"),
            IconError::Winit(e) => write!(f, "window icon refused: {e}"),
        }
    }
}

impl std::error::Error for IconError {}

/// Decodes a PNG into `(rgba, width, height)`, the form winit takes.
pub fn rgba_from_png(png: &[u8]) -> Result<(Vec<u8>, u32, u32), IconError> {
    let image = Image::from_buffer(
        png,
        ImageType::Extension("png"),
        CompressedImageFormats::NONE,
        true,
        ImageSampler::Default,
        RenderAssetUsages::MAIN_WORLD,
    )
    .map_err(|e| IconError::Decode(e.to_string()))?;
    let rgba = image
        .try_into_dynamic()
        .map_err(|e| IconError::Pixels(e.to_string()))?
        .into_rgba8();
    let (w, h) = rgba.dimensions();
    Ok((rgba.into_raw(), w, h))
}

/// Sets the primary window's icon once its winit window exists.
pub(crate) fn plugin(app: &mut App) {
    app.add_systems(Update, set_icon.run_if(|done: Local<bool>| !*done));
}

fn set_icon(
    // winit windows live in a thread-local of the main thread.
    _main_thread: NonSendMarker,
    primary: Query<Entity, With<PrimaryWindow>>,
    mut done: Local<bool>,
) {
    let Ok(entity) = primary.single() else {
        return;
    };
    let icon = rgba_from_png(ICON_PNG).and_then(|(rgba, w, h)| {
        winit::window::Icon::from_rgba(rgba, w, h).map_err(|e| IconError::Winit(e.to_string()))
    });
    WINIT_WINDOWS.with_borrow(|windows| {
        let Some(window) = windows.get_window(entity) else {
            return; // not created yet: try again next frame
        };
        match &icon {
            Ok(icon) => window.set_window_icon(Some(icon.clone())),
            Err(e) => warn!("{e}"),
        }
        *done = true;
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bundled_icon_decodes_to_a_red_piece_on_green() {
        let (rgba, w, h) = rgba_from_png(ICON_PNG).unwrap();
        assert_eq!((w, h), (256, 256));
        assert_eq!(rgba.len(), 256 * 256 * 4);
        let px = |x: usize, y: usize| &rgba[(y * 256 + x) * 4..(y * 256 + x) * 4 + 4];
        // A corner of the rounded square is transparent; its edge is opaque army green.
        assert_eq!(px(0, 0)[3], 0);
        let edge = px(128, 12);
        assert!(edge[1] > edge[0] && edge[3] == 255, "{edge:?}");
        // The piece's red ring crosses the vertical centre line.
        assert!(
            (20..128).any(|y| {
                let p = px(128, y);
                p[0] > 150 && p[1] < 80
            }),
            "no red ring"
        );
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        assert!(matches!(
            rgba_from_png(b"not a png"),
            Err(IconError::Decode(_))
        ));
    }
}
