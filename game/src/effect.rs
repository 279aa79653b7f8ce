//! [`Effect`]: what playing a move did, as the referee saw it.

use crate::board::Point;
use crate::piece::Piece;
use crate::rules::Clash;

/// What playing a move did, as the referee saw it (ranks included).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Effect {
    /// A move to an empty point.
    Moved {
        /// From.
        from: Point,
        /// To.
        to: Point,
    },
    /// An attack.
    Battle {
        /// From.
        from: Point,
        /// To.
        to: Point,
        /// The attacking piece.
        attacker: Piece,
        /// The defending piece (face up afterwards in flip games).
        defender: Piece,
        /// The verdict.
        clash: Clash,
        /// Flip games: the defender was face down and got turned over.
        defender_was_face_down: bool,
    },
    /// Flip games: a face-up piece attacked a face-down piece of its own
    /// colour, or a flag still guarded by mines: the piece is turned over and
    /// nothing else happens.
    VoidAttack {
        /// From.
        from: Point,
        /// To.
        to: Point,
        /// The piece turned over.
        revealed: Piece,
    },
    /// Flip games: a piece was turned over.
    Flipped {
        /// Where.
        at: Point,
        /// What it is.
        piece: Piece,
    },
}
