//! Why a seat is blamed, and the blame itself: the seat, the reason, and
//! the round of the table's log that is the evidence.

use serde::{Deserialize, Serialize};

use super::battle::WatchError;
use super::body::{BoundsError, Kind4};
use super::log::{Envelope4, Equivocation};
use super::partner::OpenError;
use super::seat::FourSeat;
use crate::commit::RevealError;
use crate::ot::BattleCheat;

/// What a seat did wrong. Typed: the app translates each variant.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FourFault {
    /// It signed two versions of one message (showed different messages,
    /// e.g. different announcements, to different seats).
    #[error("signed two versions of one message")]
    Equivocation(Box<Equivocation>),
    /// Its signed `prev` does not hash its own witness.
    #[error("a message whose witness does not match its link")]
    BadWitness,
    /// A message out of bounds.
    #[error("malformed message: {0}")]
    Malformed(BoundsError),
    /// A hello whose key is not a valid key.
    #[error("invalid key in hello")]
    BadKey,
    /// A nonce that does not open its commitment.
    #[error("the nonce does not open its commitment")]
    NonceMismatch,
    /// A message nothing asked of this seat (out of turn, out of place, or a
    /// claim the four-seat protocol does not have).
    #[error("a {0} message it did not owe")]
    Unexpected(Kind4),
    /// A move or an attack the view refuses (the wrong pieces, a blocked path).
    #[error("an illegal move from point {from} to {to}")]
    IllegalMove {
        /// From.
        from: u8,
        /// To.
        to: u8,
    },
    /// A setup commitment with an invalid key.
    #[error("a commitment with an invalid key")]
    BadCommitment,
    /// A 双明 reveal sent to a seat other than the partner.
    #[error("a partner reveal addressed to {0}, not the partner")]
    RevealToEnemy(FourSeat),
    /// A 双明 reveal that does not decrypt or does not open the commitments.
    #[error("a partner reveal that does not open its commitments")]
    BadPartnerReveal(Option<OpenError>),
    /// A 全明 army that does not open the commitments or breaks the setup rules.
    #[error("an open army that does not open its commitments")]
    BadOpenArmy,
    /// A battle's announcement that does not stand.
    #[error("a battle announcement that does not stand: {0}")]
    Announcement(WatchError),
    /// What the audit of a battle found.
    #[error("battle: {0}")]
    Battle(BattleCheat),
    /// A dispute over a table the audit finds correct.
    #[error("disputed a correct table")]
    FalseDispute,
    /// A wrong or missing flag opening after a commander's death.
    #[error("a wrong flag opening")]
    BadFlagOpening,
    /// A resignation in the first plies.
    #[error("resigned too early")]
    ResignTooEarly,
    /// A no-moves claim by a seat that had a move.
    #[error("claimed to have no legal move but had one")]
    FalseNoMoves,
    /// The end-of-game reveal does not open the commitments.
    #[error("the reveal does not open the commitments: {0}")]
    RevealMismatch(RevealError),
    /// The opened setup breaks the setup rules.
    #[error("an illegal setup")]
    IllegalSetup,
    /// A timeout claimed over a move its signed clock puts long before its
    /// deadline (the claim could not have crossed it within the latency bound).
    #[error("timeout claimed over a move sent {turn_ms} ms into the turn")]
    ClaimCrossedEarlyMove {
        /// The move's signed turn clock.
        turn_ms: u32,
    },
    /// A message signed by this seat's key in another seat's name (the
    /// one in the parentheses), which the log did not hand to it: a
    /// partner playing a seat that was not handed over, or an enemy
    /// answering for a seat.
    #[error("signed a message as {0}, a seat not handed to it")]
    SignedForAnother(FourSeat),
    /// A hand-over whose seed and ranks do not open the seat's commitments.
    #[error("a hand-over that does not open its commitments")]
    BadHandOver,
    /// A move the engine refuses once the real ranks are known (a mine or
    /// flag moved, a corner only an engineer may turn…).
    #[error("a move the rules do not allow for the real pieces")]
    IllegalForRanks,
}

/// A fault, its seat and the evidence's place in the log.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{seat} cheated (round {round}): {fault}")]
pub struct Blame {
    /// The seat blamed.
    pub seat: FourSeat,
    /// What it did.
    pub fault: FourFault,
    /// The round of the table's log holding the evidence.
    pub round: u64,
    /// The seat's signed message that is the evidence, when the fault is
    /// in one message (a fault the audit finds is in the log itself).
    pub evidence: Option<Box<Envelope4>>,
}

/// How a table ended without a fault.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub enum Unplayed {
    /// The hellos carried other rules than this seat accepted.
    OtherRules,
    /// A seat showed another pairing code: a device in the middle.
    CodeMismatch,
    /// Seats hold different hellos or nonces (a relay showed some of them
    /// another seat): the log forked before anything was committed.
    Split,
    /// Not every seat confirmed the code in time, or a seat went silent
    /// before play: nothing was committed, nobody is blamed.
    NoHandshake,
    /// The host's hello offers rules no table can be played under
    /// ([`Rules::four_player_problem`](junqi_game::Rules::four_player_problem)).
    UnplayableRules,
}
