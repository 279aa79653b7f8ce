//! The last finished game, for the result screen and the replay viewer.

use bevy::prelude::*;
use junqi_game::{GameResult, Side};

use super::LanGame;
use crate::{game_match::GameFile, profile::WinLossDraw, storage::StoreError};

/// The last finished game, for the result screen and the replay viewer.
#[derive(Resource, Clone, Debug)]
pub struct LastGame {
    /// The record (for a LAN game only once the audit has rebuilt it from both sides' opened
    /// setups).
    pub game: Option<GameFile>,
    /// When the game started (seconds since 1970).
    pub started: u64,
    /// The result.
    pub result: Option<GameResult>,
    /// The player's side.
    pub me: Side,
    /// Plies played.
    pub plies: u16,
    /// The opponent key (`ai-N`, `lan:NAME`).
    pub opponent: String,
    /// Where it was saved (or why it was not).
    pub saved: Result<std::path::PathBuf, NotSaved>,
    /// The LAN game's state, with the audit's verdict once it is in.
    pub lan: Option<LanGame>,
    /// A four-player game: the result is the team's.
    pub four: bool,
    /// The room score the game earned the player (RULES.md §8).
    pub score: i8,
    /// Moves the player took back (悔棋): such a game is not scored.
    pub undos: u32,
}

impl LastGame {
    /// Why the game scored nothing, as an i18n key (none when it scored, or when a loss or a
    /// win says enough): takebacks, a quick win (RULES.md §8), a draw.
    pub fn unscored_key(&self) -> Option<&'static str> {
        if self.score != 0 {
            return None;
        }
        if self.undos > 0 {
            return Some("over.unscored_undo");
        }
        match self.result.map(|r| WinLossDraw::of(r, self.me, self.four)) {
            Some(WinLossDraw::Win) => Some("over.unscored_quick"),
            Some(WinLossDraw::Draw) => Some("over.unscored_draw"),
            Some(WinLossDraw::Loss) | None => None,
        }
    }

    /// Whether the player (or, round a four-player table, the player's team) won.
    pub fn won(&self) -> bool {
        self.result
            .is_some_and(|r| WinLossDraw::of(r, self.me, self.four) == WinLossDraw::Win)
    }
}

/// Why a finished game's record is not saved.
#[derive(Clone, Debug, PartialEq)]
pub enum NotSaved {
    /// A LAN game: saved once the audit has rebuilt its whole record.
    AwaitingAudit,
    /// The file could not be written.
    Store(StoreError),
}
