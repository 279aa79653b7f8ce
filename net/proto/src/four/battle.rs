//! A battle between two seats as the two other seats watch it: they learn
//! the referee's announcement from the signed messages alone.

use crate::announced::{Announced, AnnouncementTable};
use crate::crypto::Digest;
use crate::ot::{OtResponse, OtReveal, label_hash};

/// Why a battle's announcement does not stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WatchError {
    /// The defender's table has not one label hash per outcome.
    #[error("the table has not one label hash per outcome")]
    TableShape,
    /// The attacker named an outcome outside the alphabet.
    #[error("an outcome outside the alphabet")]
    UnknownOutcome,
    /// The attacker's label is not the one the defender committed to for
    /// that outcome: it could not have opened it.
    #[error("the label does not match the defender's hash for its outcome")]
    WrongLabel,
}

/// The announcement a watching seat reads from a battle: the outcome the
/// attacker's signed label opens among the defender's signed label hashes.
/// The defender fixed every hash before the attacker answered, and only the
/// attacker could open its entry, so the announcement is bound to the
/// battle's messages; the watcher holds no key that opens an entry.
///
/// # Errors
/// A malformed table (the defender's fault) or a label that opens nothing
/// (the attacker's).
pub fn watch(
    ctx: &Digest,
    response: &OtResponse,
    reveal: &OtReveal,
    table: &AnnouncementTable,
) -> Result<Announced, WatchError> {
    let alphabet = table.alphabet();
    if response.label_hashes.len() != alphabet.len() {
        return Err(WatchError::TableShape);
    }
    let o = Announced::from_code(reveal.outcome).ok_or(WatchError::UnknownOutcome)?;
    let i = table.index_of(&o).ok_or(WatchError::UnknownOutcome)?;
    if label_hash(ctx, &o, &reveal.label) != response.label_hashes[i] {
        return Err(WatchError::WrongLabel);
    }
    Ok(o)
}
