//! The outcome of the end-of-game audit: [`Verdict`].

use junqi_game::{GameResult, Record, Side};

use crate::evidence::Evidence;
use crate::fault::FaultKind;

/// The outcome of the end-of-game audit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The game result as played.
    pub result: Option<GameResult>,
    /// The cheater, if any.
    pub cheater: Option<Side>,
    /// Why (`None` for a clean game; [`FaultKind::NoHandshake`] with no cheater when the
    /// game never began).
    pub reason: Option<FaultKind>,
    /// Where the evidence is: which signed message or commitment (`None`
    /// for a clean game or one that never began).
    pub evidence: Option<Evidence>,
    /// A clean game's whole record as the audit rebuilt it (both setups, every action): the
    /// full board for a replay. `None` when the audit found a cheat or did not run.
    pub record: Option<Box<Record>>,
}

impl Verdict {
    /// Whether the audit found nothing wrong.
    #[must_use]
    pub fn is_clean(&self) -> bool {
        self.cheater.is_none()
    }
}

impl Verdict {
    /// A game that ended before it began: nobody is blamed.
    pub(super) fn not_begun(reason: FaultKind) -> Verdict {
        Verdict {
            result: None,
            cheater: None,
            reason: Some(reason),
            evidence: None,
            record: None,
        }
    }
}
