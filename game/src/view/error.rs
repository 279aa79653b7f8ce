//! [`ViewError`]: why an event does not fit a player's view (a corrupt or
//! hostile event stream). The data of each variant is the evidence: the
//! fair-play protocol reports it as the precise finding of a fault.

use crate::board::{Point, PointName};
use crate::layout::LayoutErrors;
use crate::piece::{PieceId, Rank, Side};
use crate::rules::{Announcement, Mode};

/// Why an event does not fit the game so far.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ViewError {
    /// The game is already over.
    #[error("the game is over")]
    GameOver,
    /// A point index beyond the board.
    #[error("point {} is off the board", .0.0)]
    OffBoard(Point),
    /// A piece id this view never saw.
    #[error("unknown piece {}", .0.0)]
    UnknownPiece(PieceId),
    /// A piece id beyond the army.
    #[error("piece id {} is out of range", .0.0)]
    PieceIdOutOfRange(PieceId),
    /// A face-down piece turned over a second time.
    #[error("piece {} turned over twice", .0.0)]
    TurnedOverTwice(PieceId),
    /// An action by a side whose turn it is not.
    #[error("{side} moved out of turn ({turn} is to move)")]
    OutOfTurn {
        /// Who acted.
        side: Side,
        /// Who was to move.
        turn: Side,
    },
    /// No piece of `side` stands where the event says.
    #[error("no piece of {side} on {at}")]
    NoPieceOf {
        /// Whose piece the event names.
        side: Side,
        /// The point.
        at: PointName,
    },
    /// An attack on a point with no enemy piece (team games).
    #[error("no enemy piece of {side} on {at}")]
    NoEnemyPiece {
        /// The attacker.
        side: Side,
        /// The point.
        at: PointName,
    },
    /// A plain move onto an occupied point.
    #[error("move onto the occupied point {0}")]
    Occupied(PointName),
    /// A piece moved in a way no rank it may have can.
    #[error("piece {} cannot have made that move", .0.0)]
    ImpossibleMove(PieceId),
    /// A battle whose announcement no pair of possible ranks gives.
    #[error("announced outcome {announcement:?} is impossible for pieces {} and {}", .attacker.0, .defender.0)]
    ImpossibleAnnouncement {
        /// The attacking piece.
        attacker: PieceId,
        /// The defending piece.
        defender: PieceId,
        /// What was announced.
        announcement: Announcement,
    },
    /// A revealed layout that breaks the setup rules.
    #[error("{side}'s revealed layout: {errors}")]
    IllegalReveal {
        /// Whose layout.
        side: Side,
        /// What it breaks.
        errors: LayoutErrors,
    },
    /// A revealed layout that gives a piece a rank it cannot have.
    #[error("the revealed layout makes piece {} a {rank}, which the game rules out", .id.0)]
    RevealContradicts {
        /// The piece.
        id: PieceId,
        /// The rank the layout gives it.
        rank: Rank,
    },
    /// A revealed flag on a piece that cannot be the flag.
    #[error("piece {} is revealed as the flag but cannot be it", .0.0)]
    NotTheFlag(PieceId),
    /// A face-down piece turned over by an attack without its rank.
    #[error("a piece turned over on {0} without its rank")]
    TurnedWithoutRank(PointName),
    /// A flip or an attack on a face-down piece where there is none.
    #[error("no face-down piece on {0}")]
    NotFaceDown(PointName),
    /// The first flip of a flip game gives the flipper the other colour.
    #[error("the first flip decides the flipper's colour: {side} turned over a piece of {owner}")]
    FirstFlipColour {
        /// Who flipped.
        side: Side,
        /// The owner the event gives the piece.
        owner: Side,
    },
    /// A player going out who cannot (not a team game, already out, or the game is over).
    #[error("{0} cannot go out now")]
    CannotGoOut(Side),
    /// A draw accepted with no standing offer from another player.
    #[error("{0} accepts no standing offer")]
    NoOfferToAccept(Side),
    /// A view of a position is asked for a game whose position hides something.
    #[error("only an open game's position hides nothing, not a {0:?} game's")]
    NotOpen(Mode),
    /// A dark game's view of a position is asked for another mode.
    #[error("a dark game's view of a {0:?} game's position")]
    NotDark(Mode),
    /// What a dark game's view is told a piece may be leaves out its rank.
    #[error("the knowledge given of piece {} rules out its rank", .0.0)]
    TruthRuledOut(PieceId),
    /// A view of a position is asked for a team game or a seat not in a two-player game.
    #[error("a two-player view of a two-player game only")]
    NotTwoPlayer,
    /// The position's board is not its rules' board.
    #[error("the position is not on its rules' board")]
    WrongBoard,
    /// A piece id that is not a two-player id.
    #[error("piece id {} is not a two-player id", .0.0)]
    NotTwoPlayerId(PieceId),
    /// A piece id on two points.
    #[error("piece id {} stands twice", .0.0)]
    StandsTwice(PieceId),
}
