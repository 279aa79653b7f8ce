//! What the terminal shows at a start: the game's own messages and real errors, not the
//! libraries' reports on a machine that is working as intended (a software renderer, no X
//! settings daemon, the window's scale factor guessed). `RUST_LOG` still overrides it
//! (`RUST_LOG=info ./scripts/run.sh` shows everything Bevy reports).

use bevy::log::{Level, LogPlugin};

/// The filter: warnings and errors by default, the game's own information, and the libraries
/// whose warnings a player cannot act on raised to errors only.
pub const FILTER: &str = concat!(
    // Bevy's defaults (wgpu's and naga's chatter).
    "wgpu=error,naga=warn,",
    // The game's own information (e.g. where a screenshot went, the `diag` figures).
    "junqi=info,",
    // "error setting XSETTINGS", "XRandR reported that the display's 0mm in size": a bare X
    // server or a virtual display, nothing the player can change.
    "winit=error,",
    // "The selected adapter is using a driver that only supports software rendering": the
    // game runs on a software renderer at about 40 frames a second (docs/performance.md).
    "bevy_render::renderer=error,",
    // "Feature TEXTURE_BINDING_ARRAY is not supported on this device": egui falls back to one
    // texture per draw, which the game does not notice.
    "bevy_egui::render=error,",
    // "No audio device found": the game plays silently, as it should without speakers.
    "bevy_audio=error",
);

/// Bevy's log plugin with [`FILTER`].
pub fn log_plugin() -> LogPlugin {
    LogPlugin {
        level: Level::WARN,
        filter: FILTER.to_string(),
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::log::tracing_subscriber::EnvFilter;

    /// Every directive parses (Bevy's lossy parser would silently drop a typo), and no library
    /// is quietened below its errors.
    #[test]
    fn every_directive_parses_and_keeps_errors() {
        assert!(EnvFilter::builder().parse(FILTER).is_ok(), "{FILTER}");
        for directive in FILTER.split(',') {
            let level = directive.rsplit('=').next().unwrap();
            assert!(
                ["error", "warn", "info"].contains(&level),
                "{directive} would hide errors"
            );
        }
    }
}
