//! [`Move`]: one move of a player, as the rules engine takes it.

use crate::board::Point;
use serde::{Deserialize, Serialize};

/// One move: a step (a move or an attack along road or railway) or, in flip
/// games, turning a face-down piece over.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Move {
    /// Move the piece on `from` to `to` (an attack if `to` holds an enemy or face-down piece).
    Step {
        /// Where the piece stands.
        from: Point,
        /// Where it goes.
        to: Point,
    },
    /// Flip games: turn the face-down piece on `at` face up.
    Flip {
        /// The face-down piece.
        at: Point,
    },
}
