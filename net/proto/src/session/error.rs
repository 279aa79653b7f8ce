//! Why a local request was refused: [`SessionError`].

use junqi_game::LayoutErrors;

/// Why a local request was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    /// Not in a phase where this is possible.
    #[error("not possible now")]
    WrongPhase,
    /// Not this side's turn.
    #[error("not your turn")]
    NotYourTurn,
    /// The move is not legal.
    #[error("illegal move")]
    Illegal,
    /// No game can be played under these rules.
    #[error("unplayable rules: {0}")]
    Unplayable(junqi_game::RulesProblem),
    /// The layout breaks the setup rules.
    #[error("illegal layout: {0}")]
    BadLayout(LayoutErrors),
    /// Resigning is not allowed yet.
    #[error("resigning is not allowed yet")]
    ResignTooEarly,
    /// The move clock ran out.
    #[error("the move clock ran out")]
    TimeExpired,
    /// A draw was already offered this turn.
    #[error("a draw was already offered this turn")]
    AlreadyOffered,
}
