//! Which screen is showing ([`Screen`], a Bevy state) and the one way to change it
//! ([`Navigate`]): a module of its own, so that what is not a screen (the sound, suspending, the
//! demo driver) can follow or change the screen without depending on the screens.

use bevy::prelude::*;

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

/// A request to change screen (from a button, a test or the demo driver).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Navigate(pub Screen);

/// Registers the state and the navigation.
pub(crate) fn plugin(app: &mut App) {
    app.init_state::<Screen>()
        .add_message::<Navigate>()
        .add_systems(PreUpdate, navigate);
}

fn navigate(mut reader: MessageReader<Navigate>, mut next: ResMut<NextState<Screen>>) {
    if let Some(Navigate(screen)) = reader.read().last() {
        next.set(*screen);
    }
}
