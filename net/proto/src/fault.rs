//! Why a side is blamed: the typed reason of a [`crate::session::Verdict`], an
//! [`crate::session::AppEvent::Fault`] and an [`crate::audit::Fault`].
//!
//! A variant is what the player is told (the app translates each one); the
//! data inside it is the precise finding for whoever checks the game (the
//! engine's error, the battle, the flip entry). `Display` gives the English
//! sentence for logs, `junqi-peer` and `junqi-audit`. Which signed message is
//! the evidence is said separately, next to the kind.

use junqi_game::SetupError;

use crate::commit::RevealError;
use crate::envelope::ChainError;
use crate::findings::{CommitmentFault, MoveFault, TurnAct, Unexpected};
use crate::flip::FlipError;
use crate::frame::FrameError;
use crate::ot::{BattleCheat, OtError};
use crate::session::ReplayFault;
use crate::wire::BoundsError;

/// Why a side is blamed (or, for [`FaultKind::NoHandshake`] and
/// [`FaultKind::PairingTimeout`], why a game never began).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FaultKind {
    // ----- the stream and the handshake ------------------------------------------
    /// The peer's bytes are not a frame, or its stream ended inside one.
    #[error("bad frame from the peer: {0}")]
    BadFrame(FrameError),
    /// The public key in the peer's hello is not a valid key.
    #[error("invalid public key in hello")]
    BadKey,
    /// The signed chain refuses the message (bad signature, replayed, out of order…).
    #[error("refused message: {0}")]
    RefusedMessage(ChainError),
    /// A signed message whose content is out of bounds.
    #[error("malformed {kind}: {bound}")]
    Malformed {
        /// The message's kind.
        kind: &'static str,
        /// Which bound it breaks.
        bound: BoundsError,
    },
    /// A reconnection to a different game.
    #[error("reconnected to another game")]
    OtherGame,
    /// The peer holds more of this side's messages than this side remembers
    /// (or other ones): this side was restored from an older copy of its
    /// journal (a backup, a snapshot, a write lost before it reached the
    /// disk). It stops before sending anything, since what it would send
    /// next reuses sequence numbers and secrets the peer has already seen.
    /// Nobody is blamed; the game cannot go on from this copy.
    #[error(
        "this side's saved game is older than the game: the peer holds {peer_has} of its messages, it remembers {remembered}"
    )]
    StaleJournal {
        /// This side's messages in its journal.
        remembered: u64,
        /// This side's messages the peer says it holds.
        peer_has: u64,
    },
    /// The peer went away before the game began (nobody is blamed).
    #[error("the peer did not complete the handshake")]
    NoHandshake,
    /// The pairing codes were not confirmed on both sides in time
    /// ([`crate::session::PAIRING_TIMEOUT`]): the game never began, nobody is blamed.
    #[error("the pairing code was not confirmed in time")]
    PairingTimeout,
    /// The guest's hello proposes other rules than the host's.
    #[error("guest hello with other rules")]
    OtherRules,
    /// The host's hello offers rules no game can be played under (an honest host never
    /// offers them: [`Rules::two_player_problem`](junqi_game::Rules::two_player_problem)).
    #[error("host hello with unplayable rules: {0}")]
    UnplayableRules(junqi_game::RulesProblem),
    /// The host's nonce does not open the commitment it sent first.
    #[error("the nonce does not open its commitment")]
    NonceMismatch,
    /// The setup commitments cannot be used (wrong shape, a bad key, a bad flip layer).
    #[error("bad commitment: {0}")]
    BadCommitment(CommitmentFault),

    // ----- play ---------------------------------------------------------------------
    /// A move (an attack, a flip, a draw offer, a no-moves claim) when it was not the sender's turn.
    #[error("{0} out of turn")]
    OutOfTurn(TurnAct),
    /// A message nothing asked for (a table without an attack, a label without a battle…).
    #[error("protocol violation: {0}")]
    Unexpected(Unexpected),
    /// A move the rules do not allow.
    #[error("illegal move: {0}")]
    IllegalMove(MoveFault),
    /// A second draw offer in the same turn.
    #[error("a second draw offer in one turn")]
    RepeatedDrawOffer,
    /// A timeout claim this side's clock does not support.
    #[error("timeout claimed {}", timeout_claim_text(.on_move))]
    EarlyTimeoutClaim {
        /// Whether this side was on move at all (then the claim was only early).
        on_move: bool,
    },
    /// A timeout claim that did not see this side's move although the move
    /// was sent long before its deadline (`turn_ms` into the turn, by its
    /// signed clock): under the latency bound it cannot have crossed the claim.
    #[error(
        "timeout claimed over a move sent {turn_ms} ms into the turn, long before its deadline"
    )]
    ClaimCrossedEarlyMove {
        /// The move's signed turn clock.
        turn_ms: u32,
    },
    /// A move that arrived after this side's timeout claim, which it had not
    /// seen, although its signed clock says it was sent long before its
    /// deadline: within the latency bound it would have arrived first.
    #[error("a move signed as sent {turn_ms} ms into the turn arrived after the timeout claim")]
    MoveClockContradicted {
        /// The move's signed turn clock.
        turn_ms: u32,
    },
    /// A forfeit claim while this side owed nothing overdue.
    #[error("forfeit claimed while this side owed nothing overdue")]
    BaselessForfeitClaim,
    /// A claim of no legal move by a side that had one.
    #[error("claimed to have no legal move but had one")]
    FalseNoMoves,
    /// A false answer to a no-moves claim.
    #[error("answered a no-moves claim with can_move = {0}, which is false")]
    FalseNoMovesReply(bool),

    // ----- battles ------------------------------------------------------------------
    /// The attacker's oblivious-transfer request is invalid.
    #[error("oblivious-transfer request: {0}")]
    BadRequest(OtError),
    /// The defender's table cannot be used (an entry opens to no outcome, the wrong size…).
    #[error("the defender's oblivious-transfer table is corrupt: {0}")]
    CorruptTable(OtError),
    /// The attacker's label does not prove the outcome it announced.
    #[error("the attacker announced a false outcome: {0}")]
    FalseOutcome(OtError),
    /// The audit of battle `k` against both opened seeds.
    #[error("battle {k}: {cheat}")]
    Battle {
        /// The battle counter (the attack's sequence number).
        k: u64,
        /// What the audit found.
        cheat: BattleCheat,
    },
    /// The flag opening is not the committed flag in a headquarters.
    #[error("the flag opening does not match the committed flag in a headquarters")]
    BadFlagOpening,

    // ----- flip games ---------------------------------------------------------------
    /// A flip opening that does not match its commitment or was not the one asked for.
    #[error("bad flip opening: {0}")]
    BadFlipOpening(FlipError),
    /// The same piece came out of two openings.
    #[error("piece {0} opened twice")]
    PieceOpenedTwice(u8),
    /// A point was opened to a piece other than the one the two seeds give.
    #[error("point {point} was opened to piece {placed}, the seeds give {truth}")]
    WrongPiece {
        /// The shuffle index of the point.
        point: usize,
        /// The piece opened there.
        placed: u8,
        /// The piece the seeds put there.
        truth: u8,
    },
    /// The committed shuffle layer is not the permutation of the opened seed.
    #[error("its committed shuffle layer is not the permutation of its seed")]
    BadShuffle,
    /// Ranks revealed in a flip game, where there is no setup to reveal.
    #[error("revealed ranks in a flip game")]
    RanksInFlipGame,

    // ----- setups and the audit -----------------------------------------------------
    /// The opened seed or setup is not the committed one.
    #[error("the opened setup does not match its commitments: {0}")]
    SetupMismatch(RevealError),
    /// The oblivious-transfer key `S` does not derive from the opened seed.
    #[error("oblivious-transfer key S does not derive from the seed")]
    KeyMismatch,
    /// The opened setup breaks the setup rules.
    #[error("illegal setup: {0}")]
    IllegalSetup(SetupError),
    /// The side never opened its seed and setup at the audit.
    #[error("refused to open its seed and setup at the audit")]
    RefusedToOpen,
    /// A stream of messages after the end of the game instead of the opening.
    #[error("sent more than {0} messages after the end of the game instead of opening its setup")]
    Flooding(u32),
    /// The side's messages in the log do not follow from its opened seed and setup.
    #[error("did not follow the protocol: {0}")]
    Unreplayable(ReplayFault),

    // ----- disputes -----------------------------------------------------------------
    /// The peer says this side cheated (its words, capped, as data: never shown as such).
    #[error("the peer disputes: {0}")]
    PeerDisputes(String),
    /// A dispute this side sent before a restart, which rebuilding from the log did not
    /// reproduce (its own words).
    #[error("{0}")]
    OwnDispute(String),
    /// A dispute the audit does not support.
    #[error("raised a dispute the audit does not support")]
    UnsupportedDispute,
}

/// Why a timeout claim was refused, in the words of [`FaultKind::EarlyTimeoutClaim`].
fn timeout_claim_text(on_move: &bool) -> &'static str {
    if *on_move {
        "before this side's move clock ran out"
    } else {
        "while this side was not on move"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_english_sentences_keep_the_precise_finding() {
        assert_eq!(
            FaultKind::EarlyTimeoutClaim { on_move: false }.to_string(),
            "timeout claimed while this side was not on move"
        );
        assert_eq!(
            FaultKind::Battle {
                k: 4,
                cheat: BattleCheat::WrongRank
            }
            .to_string(),
            "battle 4: R does not encode the committed rank of the moving piece"
        );
        assert_eq!(
            FaultKind::RefusedMessage(ChainError::BadSignature).to_string(),
            "refused message: bad signature"
        );
    }
}
