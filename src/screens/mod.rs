//! The app's screens, one plugin per [`Screen`] (the state itself is [`crate::nav`]'s).

pub mod game;
pub mod game_hud;
pub mod game_over;
#[cfg(test)]
mod layout_check;
pub mod lobby;
pub mod lobby_state;
pub mod lobby_table;
pub mod profile;
pub mod replay;
pub mod review;
pub mod rules;
pub mod rules_text;
pub mod seat_table;
pub mod settings;
pub mod setup;
pub mod setup_memory;
pub mod stepping;
pub mod title;

use bevy::{ecs::schedule::ScheduleConfigs, ecs::system::ScheduleSystem, prelude::*};

// The screen state lives in `crate::nav`, which the model, LAN play, the sound and suspending
// may use without depending on any screen.
pub use crate::nav::{Navigate, Screen};

/// What a screen's panels asked for in a frame, laid out without a window (so that a test can
/// lay them out at any size): the rectangle left for the board, the buttons pressed, a screen
/// to go to.
#[derive(Debug)]
pub struct PanelsOut<A> {
    /// The rectangle left for the board (UI points).
    pub board: bevy_egui::egui::Rect,
    /// Buttons pressed, as the screen's actions.
    pub actions: Vec<A>,
    /// A screen to go to.
    pub nav: Option<Screen>,
}

impl<A> Default for PanelsOut<A> {
    fn default() -> Self {
        Self {
            board: bevy_egui::egui::Rect::NOTHING,
            actions: Vec::new(),
            nav: None,
        }
    }
}

/// Registers the state and every screen.
pub(super) fn plugin(app: &mut App) {
    app.add_plugins(crate::nav::plugin);
    app.add_plugins((
        title::plugin,
        setup::plugin,
        game::plugin,
        game_over::plugin,
        lobby::plugin,
        lobby_table::plugin,
        replay::plugin,
        review::plugin,
        profile::plugin,
        settings::plugin,
        rules::plugin,
    ));
}

/// Adds an egui UI system for `screen`, only when the app renders (egui is present).
pub(crate) fn add_ui<M>(
    app: &mut App,
    screen: Screen,
    system: impl IntoScheduleConfigs<ScheduleSystem, M>,
) {
    if app.is_plugin_added::<bevy_egui::EguiPlugin>() {
        let configs: ScheduleConfigs<ScheduleSystem> = system
            .into_configs()
            .run_if(in_state(screen).and_then(resource_exists::<crate::theme::EguiReady>));
        app.add_systems(bevy_egui::EguiPrimaryContextPass, configs);
    }
}
