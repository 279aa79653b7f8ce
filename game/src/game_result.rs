//! [`GameResult`]: how a game ended, with why a side won ([`WinReason`])
//! or why it was drawn ([`DrawReason`]).

use crate::piece::Side;
use serde::{Deserialize, Serialize};
use std::fmt;

/// How a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameResult {
    /// One side won.
    Win {
        /// The winner; in a four-player game a player of the winning team
        /// who is still in (South before North, East before West), the team
        /// being [`Side::team`].
        winner: Side,
        /// Why.
        reason: WinReason,
    },
    /// Nobody won.
    Draw {
        /// Why.
        reason: DrawReason,
    },
}

/// Why a side won.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WinReason {
    /// The loser's flag was captured.
    FlagCaptured,
    /// The loser could not move on its turn (无棋可走).
    NoLegalMove,
    /// Flip games: the loser has no movable piece left; also the last-pieces
    /// rule (RULES.md §9), where the loser's last movable piece died trading
    /// with the winner's.
    NoMovablePieces,
    /// The loser ran out of time too often.
    Timeouts,
    /// The loser resigned.
    Resignation,
    /// The loser broke the fair-play protocol or left the game.
    Forfeit,
}

/// Why a game was drawn.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DrawReason {
    /// Neither side can move.
    NoMovesEither,
    /// Too many plies without an attack.
    QuietMoves,
    /// Both players agreed.
    Agreed,
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameResult::Win { winner, reason } => write!(f, "{winner} wins ({reason:?})"),
            GameResult::Draw { reason } => write!(f, "draw ({reason:?})"),
        }
    }
}
