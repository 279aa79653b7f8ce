//! The window's form, chosen from its size and never a setting: wide (a desktop window, a tablet,
//! a phone held sideways: panels beside the board) or portrait (a phone held upright: the board
//! across the full width, bars above and below it), and the UI zoom that keeps text readable at
//! every size.

use bevy::{prelude::*, window::PrimaryWindow};

/// How the screens lay themselves out.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Form {
    /// Panels beside the board.
    #[default]
    Wide,
    /// The board across the width, a bar above it and tabs below it.
    Portrait,
}

/// The width, in UI points, a portrait screen is laid out for: a phone's logical width (about
/// 400 dp). A wider portrait window (a phone reporting its physical pixels, as under Xvfb) is
/// zoomed so that text keeps its size relative to the screen.
const PORTRAIT_POINTS: f32 = 430.0;
/// The height a wide window is laid out for (the desktop window's).
const WIDE_POINTS: f32 = 800.0;

impl Form {
    /// The form for a window of `size` logical pixels: portrait once it is clearly taller than
    /// wide.
    pub fn of(size: Vec2) -> Form {
        if size.y > size.x * 1.15 {
            Form::Portrait
        } else {
            Form::Wide
        }
    }

    /// Logical pixels per UI point for a window of `size`: 1 at the desktop size, more on a
    /// large or high-resolution screen, never so little that text drops below about 13 px.
    pub fn zoom(self, size: Vec2) -> f32 {
        match self {
            Form::Portrait => (size.x / PORTRAIT_POINTS).clamp(0.8, 3.0),
            Form::Wide => (size.y / WIDE_POINTS).min(size.x / 1280.0).clamp(0.8, 2.5),
        }
    }
}

/// The zoom in force (logical pixels per UI point), kept with [`Form`].
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct UiZoom(pub f32);

impl Default for UiZoom {
    fn default() -> Self {
        UiZoom(1.0)
    }
}

/// Registers the form (headless too: screens' logic may ask it) and, when egui is present,
/// applies the zoom to it.
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Form>()
        .init_resource::<UiZoom>()
        .add_systems(PreUpdate, follow_window);
    if app.is_plugin_added::<bevy_egui::EguiPlugin>() {
        app.add_systems(bevy_egui::EguiPrimaryContextPass, apply_zoom);
    }
}

fn follow_window(
    window: Option<Single<&Window, With<PrimaryWindow>>>,
    mut form: ResMut<Form>,
    mut zoom: ResMut<UiZoom>,
) {
    let Some(window) = window else { return };
    let size = window.size();
    if size.x < 1.0 || size.y < 1.0 {
        return;
    }
    let f = Form::of(size);
    form.set_if_neq(f);
    zoom.set_if_neq(UiZoom(f.zoom(size)));
}

fn apply_zoom(mut contexts: bevy_egui::EguiContexts, zoom: Res<UiZoom>) -> Result {
    let ctx = contexts.ctx_mut()?;
    if (ctx.zoom_factor() - zoom.0).abs() > 1e-3 {
        ctx.set_zoom_factor(zoom.0);
    }
    Ok(())
}

/// The board's area in logical window pixels from the rectangle egui left free (in points).
pub fn board_area(free: bevy_egui::egui::Rect, ctx: &bevy_egui::egui::Context) -> Rect {
    let z = ctx.zoom_factor();
    Rect::new(
        free.min.x * z,
        free.min.y * z,
        free.max.x * z,
        free.max.y * z,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phones_upright_are_portrait_and_text_keeps_its_size() {
        for (w, h) in [(720.0, 1600.0), (1080.0, 2400.0), (412.0, 915.0)] {
            let size = Vec2::new(w, h);
            assert_eq!(Form::of(size), Form::Portrait);
            let points = w / Form::Portrait.zoom(size);
            assert!(
                (400.0..=520.0).contains(&points),
                "{w}: {points} points wide"
            );
        }
        for (w, h) in [
            (1280.0, 800.0),
            (1600.0, 720.0),
            (2560.0, 1600.0),
            (1024.0, 1100.0),
        ] {
            assert_eq!(Form::of(Vec2::new(w, h)), Form::Wide, "{w}×{h}");
        }
        assert_eq!(Form::Wide.zoom(Vec2::new(1280.0, 800.0)), 1.0);
    }
}
