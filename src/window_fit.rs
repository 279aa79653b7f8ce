//! The window fits the screen it opens on: the desktop window is 1280 × 800, but on a smaller
//! screen (a laptop's, a phone-shaped one) it is made smaller, in the screen's own shape, and
//! centred, once the screen is known (the first frames). `JUNQI_WINDOW=WxH` keeps its size.

use bevy::prelude::*;
use bevy::window::{Monitor, MonitorSelection, PrimaryMonitor, PrimaryWindow, WindowPosition};

/// Share of the screen's width and height the window may take (room for a title bar and a
/// panel).
const SHARE: Vec2 = Vec2::new(0.95, 0.9);

/// Registers the fitting (rendering app only).
pub(super) fn plugin(app: &mut App) {
    if std::env::var_os("JUNQI_WINDOW").is_none() {
        app.add_systems(Update, fit_once);
    }
}

/// The window's new logical size for a window of `window` logical pixels on a screen of
/// `screen` logical pixels, if it does not fit: the largest that fits, in the screen's shape
/// when the screen is upright (the game then lays itself out for a phone).
pub fn fitted(window: Vec2, screen: Vec2) -> Option<Vec2> {
    let room = screen * SHARE;
    if window.x <= room.x && window.y <= room.y {
        return None;
    }
    let upright = screen.y > screen.x;
    Some(if upright {
        room.floor()
    } else {
        window.min(room).floor()
    })
}

fn fit_once(
    mut done: Local<bool>,
    monitors: Query<&Monitor, With<PrimaryMonitor>>,
    mut windows: Query<&mut Window, With<PrimaryWindow>>,
) {
    if *done {
        return;
    }
    let (Ok(monitor), Ok(mut window)) = (monitors.single(), windows.single_mut()) else {
        return;
    };
    *done = true;
    let scale = monitor.scale_factor.max(0.1) as f32;
    let screen = Vec2::new(
        monitor.physical_width as f32,
        monitor.physical_height as f32,
    ) / scale;
    if let Some(size) = fitted(window.resolution.size(), screen) {
        window.resolution.set(size.x, size.y);
        window.position = WindowPosition::Centered(MonitorSelection::Primary);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_fits_the_screen_in_its_shape() {
        let desk = Vec2::new(1280.0, 800.0);
        // A large screen keeps the desktop window.
        assert_eq!(fitted(desk, Vec2::new(1920.0, 1080.0)), None);
        // A phone-shaped screen gets an upright window inside it.
        let phone = fitted(desk, Vec2::new(720.0, 1600.0)).unwrap();
        assert!(phone.x <= 720.0 && phone.y <= 1600.0 && phone.y > phone.x * 1.15);
        // A small landscape screen gets a smaller window, no larger than the desktop one.
        let small = fitted(desk, Vec2::new(1024.0, 600.0)).unwrap();
        assert!(
            small.x <= 1024.0 * 0.95 && small.y <= 600.0 * 0.9,
            "{small}"
        );
        assert!(small.x <= 1280.0 && small.y <= 800.0);
    }
}
