//! The phone's life cycle for games against the computer: the game on screen is kept in
//! `unfinished.json` after every move, when the app is sent to the background and when it is
//! closed, and the title screen offers it on the next start (继续上局), its move clock where it
//! stood. Finishing the game, or leaving it through 主菜单 (which says it will not be kept),
//! deletes it. LAN games resume from their own journal ([`crate::lan`]).

use bevy::{prelude::*, window::AppLifecycle};
use serde::{Deserialize, Serialize};

use crate::{
    game_match::{GameFile, Match},
    model::{ActiveGame, Opponent},
    nav::{Navigate, Screen},
    storage::{self, DataDir, StoreError},
};

/// The file's format version.
const VERSION: u32 = 1;

/// Seconds of the move clock between two writes of a running game.
const CLOCK_STEP: f32 = 5.0;

/// What the last write saw: the game (when it started), its actions, whether it ended, the
/// clock in [`CLOCK_STEP`]s and the number of markers.
type Written = (u64, usize, bool, i32, usize);

/// Who the player faced, enough to start the computer seats again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Computer {
    /// One computer opponent at a level.
    Ai {
        /// The level, 1…4.
        level: u8,
    },
    /// A four-player table: the computer's level in each seat (by `Side::index`).
    Table {
        /// The levels.
        levels: [u8; 4],
    },
}

/// A game against the computer left unfinished.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SuspendedGame {
    /// Format version.
    pub version: u32,
    /// The game so far.
    pub game: GameFile,
    /// The computer seats.
    pub computer: Computer,
    /// Seconds left on the move clock.
    pub clock: f32,
    /// Takebacks allowed in the game.
    pub undo_limit: u8,
    /// The player's private markers on enemy pieces (older files have none).
    #[serde(default)]
    pub markers: Vec<(junqi_game::PieceId, String)>,
}

impl SuspendedGame {
    /// The game on screen, if it is one against the computer that is still being played.
    pub fn of(g: &ActiveGame) -> Option<Self> {
        if g.game_match.result().is_some() {
            return None;
        }
        let computer = match g.opponent {
            Opponent::Ai { level } => Computer::Ai { level },
            Opponent::Table { levels } => Computer::Table { levels },
            Opponent::Lan(_) => return None,
        };
        Some(Self {
            version: VERSION,
            game: g.game_match.saved()?,
            computer,
            clock: g.game_match.clock,
            undo_limit: g.undo_limit,
            markers: {
                let mut m: Vec<_> = g
                    .game_match
                    .markers
                    .iter()
                    .map(|(id, label)| (*id, label.clone()))
                    .collect();
                m.sort();
                m
            },
        })
    }

    /// The game to play on, replayed from its record.
    pub fn resume(&self) -> Result<ActiveGame, junqi_game::SetupError> {
        let mut game_match = Match::from_saved(&self.game, None)?;
        game_match.clock = self
            .clock
            .clamp(0.0, game_match.rules().move_seconds as f32);
        let mut g = match self.computer {
            Computer::Ai { level } => ActiveGame::new(game_match, level),
            Computer::Table { levels } => ActiveGame::table(game_match, levels),
        };
        g.undo_limit = self.undo_limit;
        g.game_match.markers = self.markers.iter().cloned().collect();
        Ok(g)
    }
}

/// The unfinished game found at start, offered on the title screen until played or a new game
/// replaces it.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct Resumable(pub Option<SuspendedGame>);

/// The player chose 继续上局.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResumeGame;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Resumable>()
        .add_message::<ResumeGame>()
        .add_message::<AppLifecycle>()
        .add_systems(Startup, find)
        .add_systems(Update, (keep, resume))
        .add_systems(OnExit(Screen::Game), forget_left)
        // A game on screen replaces the one offered (the file now follows it).
        .add_systems(OnEnter(Screen::Game), |mut found: ResMut<Resumable>| {
            found.0 = None
        })
        .add_systems(Last, keep_on_exit);
}

fn file(dir: &DataDir) -> std::path::PathBuf {
    dir.0.join("unfinished.json")
}

fn find(dir: Res<DataDir>, mut found: ResMut<Resumable>) {
    found.0 = match storage::load_or_move_aside::<SuspendedGame>(&file(&dir)) {
        Ok(u) if u.version == VERSION && u.resume().is_ok() => Some(u),
        Ok(_) => None,
        Err(StoreError::Missing(_)) => None,
        Err(e) => {
            warn!("unfinished game not offered: {e}");
            None
        }
    };
}

fn write(dir: &DataDir, g: &ActiveGame) {
    let path = file(dir);
    let result = match SuspendedGame::of(g) {
        Some(u) => storage::save_json(&path, &u),
        None => match std::fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(StoreError::Io {
                path: path.clone(),
                detail: e.to_string(),
            }),
            _ => Ok(()),
        },
    };
    if let Err(e) = result {
        warn!("could not keep the unfinished game: {e}");
    }
}

/// After every move (and when the game ends: the file goes), and when the app is sent to the
/// background, whose process a phone may kill without another word.
fn keep(
    dir: Res<DataDir>,
    game: Option<Res<ActiveGame>>,
    screen: Res<State<Screen>>,
    mut life: MessageReader<AppLifecycle>,
    mut last: Local<Option<Written>>,
) {
    let suspending = life
        .read()
        .any(|l| matches!(l, AppLifecycle::WillSuspend | AppLifecycle::Suspended));
    let Some(g) = game.filter(|_| *screen.get() == Screen::Game) else {
        return;
    };
    let actions = g.game_match.game().map_or(0, |r| r.record().actions.len());
    // Also every few seconds of the clock, and when a marker is set: a game killed between two
    // moves comes back with its clock where it stood and its markers.
    let now = (
        g.game_match.started,
        actions,
        g.game_match.result().is_some(),
        (g.game_match.clock / CLOCK_STEP).ceil() as i32,
        g.game_match.markers.len(),
    );
    if suspending || *last != Some(now) {
        *last = Some(now);
        write(&dir, &g);
    }
}

/// Closing the window in the middle of a game keeps it, with its clock.
fn keep_on_exit(
    dir: Res<DataDir>,
    game: Option<Res<ActiveGame>>,
    screen: Res<State<Screen>>,
    mut exit: MessageReader<AppExit>,
) {
    if exit.read().next().is_some()
        && let Some(g) = game.filter(|_| *screen.get() == Screen::Game)
    {
        write(&dir, &g);
    }
}

/// Leaving a running game through the menu gives it up (the player was told so).
fn forget_left(dir: Res<DataDir>, game: Option<Res<ActiveGame>>) {
    if game.is_some_and(|g| g.game_match.result().is_none() && !g.game_match.is_remote()) {
        let _ = std::fs::remove_file(file(&dir));
    }
}

fn resume(
    mut commands: Commands,
    mut asked: MessageReader<ResumeGame>,
    mut found: ResMut<Resumable>,
    mut nav: MessageWriter<Navigate>,
) {
    if asked.read().next().is_none() {
        return;
    }
    if let Some(g) = found.0.take().and_then(|u| u.resume().ok()) {
        commands.insert_resource(g);
        nav.write(Navigate(Screen::Game));
    }
}
