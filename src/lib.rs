//! Junqi (军棋): the Bevy app.
//!
//! [`AppPlugin`] is the whole rendering app; [`LogicPlugin`] is everything that runs without a
//! window (states, screens' logic, settings, storage), used by the headless tests through
//! `headless_app`. [`run`] starts the desktop app; on Android the same [`AppPlugin`] is started
//! from `android_main` (see the README).
//!
//! # The `dev` feature
//!
//! The tools only tests, screenshots and measurements use compile only with the `dev` cargo
//! feature: the demo driver (`demo`: `JUNQI_DEMO`, `JUNQI_SCREENSHOT`), the diagnostics
//! (`diag`: `JUNQI_DIAG`), `headless_app` and the lobby's test feed of discoveries. A
//! release build leaves them out (`JUNQI_DEMO` does nothing in it); `cargo test` turns the
//! feature on by itself (the package is its own dev-dependency with `dev`), and the scripts
//! that take screenshots build with `--features dev`. See `docs/development.md`.

pub mod ai;
pub mod audio;
pub mod back;
pub mod battle;
pub mod board;
#[cfg(feature = "dev")]
pub mod demo;
#[cfg(feature = "dev")]
pub mod demo_lan;
#[cfg(feature = "dev")]
pub mod demo_table;
#[cfg(feature = "dev")]
pub mod diag;
pub mod form;
pub mod game_match;
pub mod game_text;
pub mod i18n;
pub mod lan;
pub mod lan_text;
pub mod log_filter;
pub mod model;
pub mod nav;
pub mod profile;
pub mod redraw;
pub mod screens;
pub mod settings;
pub mod storage;
pub mod suspend;
pub mod table_text;
pub mod theme;
pub mod version;
pub mod window_fit;
pub mod window_icon;

use bevy::prelude::*;

/// The full app: window, rendering, egui, every screen.
pub struct AppPlugin;

/// The window's size: 1280 × 800 (made smaller on a smaller screen: [`window_fit`]), or
/// `JUNQI_WINDOW=WxH` (e.g. `720x1600` to look at a phone held upright).
fn window_size() -> (u32, u32) {
    std::env::var("JUNQI_WINDOW")
        .ok()
        .and_then(|s| {
            let (w, h) = s.split_once('x')?;
            Some((w.parse().ok()?, h.parse().ok()?))
        })
        .filter(|&(w, h): &(u32, u32)| (200..=8000).contains(&w) && (200..=8000).contains(&h))
        .unwrap_or((1280, 800))
}

impl Plugin for AppPlugin {
    fn build(&self, app: &mut App) {
        let sound = audio::output_present();
        let mut plugins = DefaultPlugins.build();
        if !sound {
            plugins = plugins.disable::<bevy::audio::AudioPlugin>();
        }
        app.add_plugins(
            plugins
                .set(log_filter::log_plugin())
                .set(WindowPlugin {
                    primary_window: Some(Window {
                        title: "军棋 Junqi".into(),
                        resolution: window_size().into(),
                        ..default()
                    }),
                    ..default()
                })
                .set(AssetPlugin {
                    meta_check: bevy::asset::AssetMetaCheck::Never,
                    ..default()
                }),
        );
        app.add_plugins(bevy_egui::EguiPlugin::default());
        app.add_plugins((
            theme::plugin,
            LogicPlugin,
            window_icon::plugin,
            window_fit::plugin,
            redraw::winit_plugin,
        ));
        if sound {
            app.add_plugins(audio::playback_plugin);
        }
        #[cfg(feature = "dev")]
        app.add_plugins((
            demo::plugin,
            demo_lan::plugin,
            demo_table::plugin,
            diag::plugin,
        ));
    }
}

/// Everything that runs without a window: add it after `MinimalPlugins` + `StatesPlugin` to test.
pub struct LogicPlugin;

impl Plugin for LogicPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins((
            storage::plugin,
            form::plugin,
            i18n::plugin,
            settings::plugin,
            profile::plugin,
            board::plugin,
            lan::plugin,
            screens::plugin,
            audio::cues_plugin,
            suspend::plugin,
            redraw::plugin,
            back::plugin,
        ));
    }
}

/// A windowless app for tests: `MinimalPlugins`, states and [`LogicPlugin`], keeping its files
/// in `data_dir` (feature `dev`).
#[cfg(feature = "dev")]
pub fn headless_app(data_dir: std::path::PathBuf) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, bevy::state::app::StatesPlugin));
    app.insert_resource(storage::DataDir(data_dir));
    app.add_plugins(LogicPlugin);
    app
}

/// Runs the desktop app.
pub fn run() -> AppExit {
    if cfg!(all(
        unix,
        not(target_os = "android"),
        not(target_os = "macos")
    )) && no_display(|v| std::env::var_os(v))
    {
        // Winit would panic with a backtrace; the settings (the player's language) are not
        // read yet, so the sentence is in both languages.
        eprintln!(
            "军棋无法启动：没有图形显示（DISPLAY 或 WAYLAND_DISPLAY 未设置）。\n\
             junqi needs a graphical desktop to open its window: neither DISPLAY nor \
             WAYLAND_DISPLAY is set."
        );
        return AppExit::error();
    }
    App::new().add_plugins(AppPlugin).run()
}

/// The Android entry point (NativeActivity, feature `android`): `#[bevy_main]` exports
/// `android_main`, which runs the same app as the desktop.
#[cfg(target_os = "android")]
#[allow(unsafe_code)] // `bevy_main` exports `android_main` with `#[unsafe(no_mangle)]`.
#[bevy::prelude::bevy_main]
fn main() {
    run();
}

/// Whether no X11 or Wayland display is named (`var` reads the environment), so no window
/// can open on Linux and the BSDs.
fn no_display(var: impl Fn(&str) -> Option<std::ffi::OsString>) -> bool {
    ["DISPLAY", "WAYLAND_DISPLAY", "WAYLAND_SOCKET"]
        .iter()
        .all(|v| var(v).is_none_or(|s| s.is_empty()))
}

#[cfg(test)]
mod display_tests {
    use super::no_display;
    use std::ffi::OsString;

    #[test]
    fn a_display_is_found_under_any_of_its_names() {
        assert!(no_display(|_| None));
        assert!(no_display(|_| Some(OsString::new())));
        for name in ["DISPLAY", "WAYLAND_DISPLAY", "WAYLAND_SOCKET"] {
            assert!(!no_display(|v| (v == name).then(|| OsString::from(":0"))));
        }
    }
}
