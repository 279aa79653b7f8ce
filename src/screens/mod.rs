//! The app's screens as a [`Screen`] state, one plugin per screen.

pub mod game;
pub mod game_hud;
pub mod game_over;
#[cfg(test)]
mod layout_check;
pub mod lobby;
pub mod profile;
pub mod replay;
pub mod review;
pub mod rules;
pub mod rules_text;
pub mod settings;
pub mod setup;
pub mod title;

use bevy::{ecs::schedule::ScheduleConfigs, ecs::system::ScheduleSystem, prelude::*};

/// Which screen is showing.
#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Screen {
    /// The main menu.
    #[default]
    Title,
    /// 布阵: arranging one's pieces (also the new-game options).
    Setup,
    /// A game in progress.
    Game,
    /// The result of the last game.
    GameOver,
    /// LAN lobby.
    Lobby,
    /// Replay viewer.
    Replay,
    /// 复盘: the post-game review.
    Review,
    /// Results and rating level.
    Profile,
    /// Settings.
    Settings,
    /// 规则说明.
    Rules,
}

impl Screen {
    /// Every screen.
    pub const ALL: [Screen; 10] = [
        Screen::Title,
        Screen::Setup,
        Screen::Game,
        Screen::GameOver,
        Screen::Lobby,
        Screen::Replay,
        Screen::Review,
        Screen::Profile,
        Screen::Settings,
        Screen::Rules,
    ];

    /// The screen's name for `JUNQI_DEMO` and file names.
    pub fn slug(self) -> &'static str {
        match self {
            Screen::Title => "title",
            Screen::Setup => "setup",
            Screen::Game => "game",
            Screen::GameOver => "gameover",
            Screen::Lobby => "lobby",
            Screen::Replay => "replay",
            Screen::Review => "review",
            Screen::Profile => "profile",
            Screen::Settings => "settings",
            Screen::Rules => "rules",
        }
    }

    /// The screen with this slug.
    pub fn from_slug(slug: &str) -> Option<Screen> {
        Screen::ALL.into_iter().find(|s| s.slug() == slug)
    }
}

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

/// A request to change screen (from a button, a test or the demo driver).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Navigate(pub Screen);

/// Registers the state and every screen.
pub(super) fn plugin(app: &mut App) {
    app.init_state::<Screen>()
        .add_message::<Navigate>()
        .add_systems(PreUpdate, navigate);
    app.add_plugins((
        title::plugin,
        setup::plugin,
        game::plugin,
        game_over::plugin,
        lobby::plugin,
        replay::plugin,
        review::plugin,
        profile::plugin,
        settings::plugin,
        rules::plugin,
    ));
}

fn navigate(mut reader: MessageReader<Navigate>, mut next: ResMut<NextState<Screen>>) {
    if let Some(Navigate(screen)) = reader.read().last() {
        next.set(*screen);
    }
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
