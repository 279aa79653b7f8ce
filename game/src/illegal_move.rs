//! [`IllegalMove`]: why the rules engine refused a move.

/// Why a move was refused.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
pub enum IllegalMove {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// There is no piece of the side to move there (or it is face down).
    #[error("no piece of the side to move on the starting point")]
    NotYourPiece,
    /// Landmines and the flag never move; pieces in a headquarters stay.
    #[error("this piece cannot move")]
    Immovable,
    /// The target is not reachable or not attackable.
    #[error("the piece cannot reach that point")]
    Unreachable,
    /// Flip is only for face-down pieces in flip games.
    #[error("nothing face down to flip there")]
    NotFlippable,
}
