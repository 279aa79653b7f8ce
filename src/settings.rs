//! The player's settings (language, board colours, default clock, sound), kept in
//! `settings.json`.

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::{
    i18n::Lang,
    storage::{self, DataDir},
};

/// Board colour themes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum BoardTheme {
    /// Light wood with dark lines.
    #[default]
    Classic,
    /// Army green.
    Green,
    /// Plain paper.
    Paper,
}

impl BoardTheme {
    /// All themes, in menu order.
    pub const ALL: [BoardTheme; 3] = [BoardTheme::Classic, BoardTheme::Green, BoardTheme::Paper];

    /// The i18n key of the theme's name.
    pub fn key(self) -> &'static str {
        match self {
            BoardTheme::Classic => "settings.theme.classic",
            BoardTheme::Green => "settings.theme.green",
            BoardTheme::Paper => "settings.theme.paper",
        }
    }

    /// `(background, board, lines)` colours as sRGB bytes.
    pub fn colours(self) -> ([u8; 3], [u8; 3], [u8; 3]) {
        match self {
            BoardTheme::Classic => ([58, 44, 32], [226, 196, 140], [60, 40, 20]),
            BoardTheme::Green => ([30, 44, 30], [170, 196, 140], [30, 50, 25]),
            BoardTheme::Paper => ([70, 70, 74], [240, 236, 224], [50, 50, 50]),
        }
    }
}

/// Which colour the player's pieces have.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum PieceColour {
    /// Red (the usual first player's colour).
    #[default]
    Red,
    /// Blue.
    Blue,
}

/// Everything on the settings screen.
#[derive(Resource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// The language.
    pub lang: Lang,
    /// The board's colours.
    pub theme: BoardTheme,
    /// The player's piece colour.
    pub my_colour: PieceColour,
    /// Default seconds per move for new games.
    pub clock_secs: u32,
    /// Show ranks as 40…32 instead of their names.
    pub nicknames: bool,
    /// Show each point's name (S53, E11, C5: the move log's notation) on the board.
    pub coordinates: bool,
    /// Sound effects on (`crate::audio`); off is the mute switch. On in a settings file that
    /// predates it.
    pub sound: bool,
    /// Pieces slide and battles have effects (`crate::board`); off, pieces jump and only the
    /// caption shows.
    pub animations: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            lang: Lang::Zh,
            theme: BoardTheme::Classic,
            my_colour: PieceColour::Red,
            clock_secs: 60,
            nicknames: false,
            coordinates: false,
            sound: true,
            animations: true,
        }
    }
}

/// A request to save the settings (sent by the settings screen).
#[derive(Message, Clone, Debug)]
pub struct SaveSettings;

/// What the player should hear of the settings file: shown on the settings screen, and a load
/// problem on the title screen too.
#[derive(Resource, Default, Debug)]
pub struct SettingsStatus {
    /// The settings file could not be read at start (a damaged one is moved aside; the
    /// defaults are in use).
    pub loaded: Option<storage::StoreError>,
    /// The last save: done, or why it failed.
    pub saved: Option<Result<(), storage::StoreError>>,
}

/// Loads settings at startup; keeps [`Lang`] in step with [`Settings::lang`]; saves on request.
pub(super) fn plugin(app: &mut App) {
    app.add_message::<SaveSettings>()
        .init_resource::<SettingsStatus>()
        .add_systems(PreStartup, load_settings)
        .add_systems(Update, (sync_lang, save_settings));
}

fn load_settings(mut commands: Commands, dir: Res<DataDir>, mut status: ResMut<SettingsStatus>) {
    let settings = match storage::load_or_move_aside::<Settings>(&dir.settings_file()) {
        Ok(s) => s,
        Err(storage::StoreError::Missing(_)) => Settings::default(),
        Err(e) => {
            warn!("{e}");
            status.loaded = Some(e);
            Settings::default()
        }
    };
    if let Ok(lang) = std::env::var("JUNQI_LANG") {
        let lang = if lang.starts_with("en") {
            Lang::En
        } else {
            Lang::Zh
        };
        commands.insert_resource(lang);
        commands.insert_resource(Settings { lang, ..settings });
    } else {
        commands.insert_resource(settings.lang);
        commands.insert_resource(settings);
    }
}

fn sync_lang(settings: Res<Settings>, mut lang: ResMut<Lang>) {
    if settings.is_changed() && *lang != settings.lang {
        *lang = settings.lang;
    }
}

fn save_settings(
    mut reader: MessageReader<SaveSettings>,
    settings: Res<Settings>,
    dir: Res<DataDir>,
    mut status: ResMut<SettingsStatus>,
) {
    if reader.read().count() == 0 {
        return;
    }
    let saved = storage::save_json(&dir.settings_file(), &*settings);
    if let Err(e) = &saved {
        warn!("{e}");
    }
    status.saved = Some(saved);
}
