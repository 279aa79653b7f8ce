//! The precise findings inside a [`crate::FaultKind`]: what exactly was wrong
//! with a move, a message or a commitment, as data (the points, the engine's
//! error), so that whoever checks a game (`junqi-audit`, a log) reads the
//! evidence itself and not a sentence about it. `Display` gives the English.

use junqi_game::{ActionError, IllegalMove, Move, Point, ViewError};

use crate::flip::FlipError;
use crate::ot::OtError;

/// What a side did out of turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TurnAct {
    /// A move (a step or a flip game's move).
    Move,
    /// A dark game's attack.
    Attack,
    /// A flip game's flip.
    Flip,
    /// A claim of having no legal move.
    NoMovesClaim,
    /// A draw offer.
    DrawOffer,
}

impl std::fmt::Display for TurnAct {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            TurnAct::Move => "move",
            TurnAct::Attack => "attack",
            TurnAct::Flip => "flip",
            TurnAct::NoMovesClaim => "no-moves claim",
            TurnAct::DrawOffer => "draw offer",
        })
    }
}

/// Why a move is illegal: the engine's error where the engine judged it,
/// otherwise the points and what the protocol found there.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MoveFault {
    /// A point index beyond the board (it never reaches the engine).
    #[error("point {point} is off the board")]
    OffBoard {
        /// The index sent.
        point: u8,
    },
    /// A dark game's plain step onto a point that is not empty (an attack
    /// must say so).
    #[error("a step from {} onto the occupied point {}", .from.0, .to.0)]
    OntoOccupied {
        /// From.
        from: Point,
        /// To.
        to: Point,
    },
    /// A dark game's attack on a point without a piece of the defender.
    #[error("attack on point {}, where the defender has no piece", .to.0)]
    NoDefender {
        /// The attacked point.
        to: Point,
    },
    /// A dark game's attack that does not start from a piece of the attacker.
    #[error("attack from point {} on {} between the wrong pieces", .from.0, .to.0)]
    WrongPieces {
        /// From.
        from: Point,
        /// To.
        to: Point,
    },
    /// A dark game's attack on a piece in a camp.
    #[error("attack on the camp at point {}", .to.0)]
    AttackOnCamp {
        /// The camp.
        to: Point,
    },
    /// A battle in the log between points that do not both hold a piece.
    #[error("a battle from point {} on {} without two pieces", .from.0, .to.0)]
    NoBattle {
        /// From.
        from: Point,
        /// To.
        to: Point,
    },
    /// The engine refuses the move (`Position::check`).
    #[error("{}: {error}", move_text(.mv))]
    Refused {
        /// The move.
        mv: Move,
        /// The engine's reason.
        error: IllegalMove,
    },
    /// The engine's referee refuses the action.
    #[error("{0}")]
    Action(ActionError),
    /// The event the move makes does not fit what this side has seen.
    #[error("{0}")]
    View(ViewError),
}

/// A move by point indices, as the wire carries it.
fn move_text(m: &Move) -> String {
    match *m {
        Move::Step { from, to } => format!("{}->{}", from.0, to.0),
        Move::Flip { at } => format!("flip {}", at.0),
    }
}

/// The game phase a message came in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Phase {
    /// The hello exchange.
    Handshake,
    /// Commitments and the pairing confirmation.
    Setup,
    /// Play.
    Play,
}

impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Phase::Handshake => "the handshake",
            Phase::Setup => "the setup",
            Phase::Play => "play",
        })
    }
}

/// A message nothing asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Unexpected {
    /// A message of a kind the phase has no place for.
    #[error("unexpected {kind} during {phase}")]
    Message {
        /// The message's kind ([`crate::wire::Body::kind`]).
        kind: &'static str,
        /// When it came.
        phase: Phase,
    },
    /// A proceed with no move waiting to be opened.
    #[error("proceed without a move to open")]
    ProceedWithoutMove,
    /// A flip opening nobody asked for.
    #[error("flip opening not asked for")]
    FlipOpeningNotAsked,
    /// A flip opening before the one it must follow.
    #[error("flip opening out of order")]
    FlipOpeningOutOfOrder,
    /// A flip in a dark or open game.
    #[error("flip outside a flip game")]
    FlipOutsideFlipGame,
    /// An answer to a no-moves claim nobody made.
    #[error("no-moves reply without a claim")]
    NoMovesReplyWithoutClaim,
    /// Accepting a draw nobody offered.
    #[error("accepting a draw never offered")]
    AcceptWithoutOffer,
    /// Declining a draw nobody offered.
    #[error("declining a draw never offered")]
    DeclineWithoutOffer,
    /// A defender's table with no attack to answer.
    #[error("table without an attack")]
    TableWithoutAttack,
    /// An attacker's label with no battle.
    #[error("label without a battle")]
    LabelWithoutBattle,
    /// A flag opening nobody asked for.
    #[error("flag opening not asked for")]
    FlagOpeningNotAsked,
}

/// Why the peer's setup commitments cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CommitmentFault {
    /// The wrong number of piece or flip commitments for the mode.
    #[error("commitment of the wrong shape: {pieces} piece and {flip} flip commitments")]
    WrongShape {
        /// Piece commitments sent.
        pieces: usize,
        /// Flip-layer commitments sent.
        flip: usize,
    },
    /// The flip layer's commitments cannot be used.
    #[error("flip layer: {0}")]
    FlipLayer(FlipError),
    /// The oblivious-transfer key is not a valid key.
    #[error("oblivious-transfer key: {0}")]
    OtKey(OtError),
}
