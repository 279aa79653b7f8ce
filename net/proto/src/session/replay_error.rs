//! Why a saved game does not replay: [`ReplayError`], [`ReplayFault`].

use junqi_game::Move;

use super::error::SessionError;
use crate::rank::Seat;

/// Where rebuilding a side from a log failed: its message at `index` of the
/// log is not what the protocol gives.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{seat:?} message {index} of the log: {what}")]
pub struct ReplayError {
    /// The side whose message it is.
    pub seat: Seat,
    /// Its place in the log.
    pub index: usize,
    /// What differs.
    pub what: ReplayFault,
}

/// Why a side's logged message does not replay.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReplayFault {
    /// The saved game holds no layout for this side.
    #[error("no layout saved")]
    NoLayout,
    /// The session refuses the decision the message records (or, for the
    /// first message, to start at all).
    #[error("the session refuses it: {0}")]
    Refused(SessionError),
    /// The session refuses the move the message records.
    #[error("the session refuses its move {mv:?}: {error}")]
    Move {
        /// The move.
        mv: Move,
        /// Why.
        error: SessionError,
    },
    /// Replaying gives another message than the logged one.
    #[error("its {kind} does not follow from the log")]
    Diverged {
        /// The logged message's kind.
        kind: &'static str,
    },
    /// A message of a kind a side never sends by its own decision.
    #[error("cannot replay a {kind}")]
    CannotReplay {
        /// Its kind.
        kind: &'static str,
    },
}
