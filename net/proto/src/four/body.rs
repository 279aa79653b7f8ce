//! The messages of a four-seat table.

use junqi_game::Rules;
use serde::{Deserialize, Serialize};

use super::partner::Sealed;
use super::seat::FourSeat;
use crate::commit::PieceOpening;
use crate::crypto::{Digest, Seed, byte_array};
use crate::ot::{OtResponse, OtReveal};
use crate::rank::WireRank;
use crate::wire::MAX_NAME;

/// One message of a table's log. Rounds 0 and 1 (hello, nonce), the
/// confirmations, the commitments, the 双明 partner reveals and the final
/// reveals are rounds where every seat sends one; every other round is one
/// message by the seat that owes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Body4 {
    /// Round 0: the seat's key, name and nonce commitment; the host's rules
    /// (another seat names none, or the same, to accept them).
    Hello {
        /// The seat's ed25519 public key (this message is signed with it).
        key: [u8; 32],
        /// `H("junqi v1 nonce", nonce)`.
        nonce_commit: Digest,
        /// The player's name (at most [`MAX_NAME`] bytes).
        name: String,
        /// The table's rules (the host's; `None` from a seat that takes them).
        rules: Option<Rules>,
    },
    /// Round 1, once the seat held all four hellos: its nonce.
    Nonce {
        /// The nonce its hello committed to.
        nonce: [u8; 32],
    },
    /// The player compared the pairing code: the code this seat shows.
    Confirm {
        /// The pairing code ([`crate::session::pairing_code`] of the game id).
        code: String,
    },
    /// The setup commitment, sent only once all four seats confirmed.
    Commit {
        /// `C_s` for the 25 slots, in slot order.
        pieces: Vec<Digest>,
        /// `H("junqi v1 seed", game_id, seat, seed)`.
        seed: Digest,
        /// The oblivious-transfer key `S = y·B`.
        ot_key: [u8; 32],
        /// The partner key `P = p·B` (双明 reveals are encrypted under it).
        partner_key: [u8; 32],
    },
    /// 全明: the seat's 25 openings for everyone, once every commitment is in.
    OpenArmy {
        /// The openings in slot order.
        openings: Vec<PieceOpening>,
    },
    /// 双明: the seat's 25 openings encrypted to its partner.
    PartnerReveal {
        /// Whom it is encrypted to (the partner).
        to: FourSeat,
        /// The ciphertext and its tag.
        sealed: Sealed,
    },
    /// A step to an empty point.
    Move {
        /// From (a point of the four-player board).
        from: u8,
        /// To.
        to: u8,
    },
    /// A step onto an enemy piece: the oblivious transfer's `R`.
    Attack {
        /// From.
        from: u8,
        /// To.
        to: u8,
        /// `R = c·S_D + x·B`.
        #[serde(with = "byte_array")]
        r: [u8; 32],
    },
    /// The defender's table.
    Table(OtResponse),
    /// The attacker's label: the announcement every seat reads.
    Label(OtReveal),
    /// A commander died: its owner opens its flag's commitment.
    FlagOpen(PieceOpening),
    /// The seat on turn has no legal move (无棋可走): it is out.
    NoMoves,
    /// The seat on turn resigns (not in the first plies): it is out.
    Resign,
    /// The seat that owes the next message leaves the table (逃跑).
    Leave,
    /// The seat on move offers a draw (once a turn); every other seat
    /// still in answers in turn order.
    OfferDraw,
    /// A seat asked accepts the standing offer.
    AcceptDraw,
    /// A seat asked declines it: the offerer moves on.
    DeclineDraw,
    /// The seat on move let its clock run out (a pass; the fifth puts it
    /// out). The host claims it for every other seat, since its order of
    /// the messages is the table's; the host's keeper claims the host's.
    Timeout,
    /// The attacker's entry opened to no label: the audit settles it.
    Dispute,
    /// The end: the seat's seed and its 25 ranks by slot.
    Reveal {
        /// The game seed.
        seed: Seed,
        /// The ranks by slot.
        ranks: Vec<WireRank>,
    },
    /// Round 0 from a seat whose player agreed beforehand that, if it
    /// leaves, its partner's device plays the seat on (a computer player):
    /// [`Body4::Hello`]'s fields. A variant of its own, so that the logs
    /// and journals written before it decode unchanged.
    HelloHandOver {
        /// As in [`Body4::Hello`].
        key: [u8; 32],
        /// As in [`Body4::Hello`].
        nonce_commit: Digest,
        /// As in [`Body4::Hello`].
        name: String,
        /// As in [`Body4::Hello`].
        rules: Option<Rules>,
    },
    /// The seat on move leaves and hands its seat to its partner's device
    /// (only after a [`Body4::HelloHandOver`]): its seed and ranks
    /// ([`super::partner::HandOverSecret`]) encrypted to the partner. From
    /// the next round on, the partner's key signs for this seat.
    HandOver {
        /// The ciphertext and its tag.
        sealed: Sealed,
    },
}

/// What kind of message a [`Body4`] is (a fault names it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Kind4 {
    /// A hello (with or without the hand-over agreement).
    Hello,
    /// A nonce.
    Nonce,
    /// A confirmation of the pairing code.
    Confirm,
    /// A setup commitment.
    Commit,
    /// A 双明 partner reveal.
    PartnerReveal,
    /// A 全明 army.
    OpenArmy,
    /// A move.
    Move,
    /// An attack.
    Attack,
    /// A defender's table.
    Table,
    /// An attacker's label.
    Label,
    /// A flag opening.
    FlagOpening,
    /// A no-moves claim.
    NoMoves,
    /// A resignation.
    Resign,
    /// A leave.
    Leave,
    /// A hand-over.
    HandOver,
    /// A timeout claim.
    Timeout,
    /// A draw offer.
    DrawOffer,
    /// An answer to a draw offer.
    DrawAnswer,
    /// A dispute.
    Dispute,
    /// The end-of-game reveal.
    Reveal,
}

impl std::fmt::Display for Kind4 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Kind4::Hello => "hello",
            Kind4::Nonce => "nonce",
            Kind4::Confirm => "confirm",
            Kind4::Commit => "commit",
            Kind4::PartnerReveal => "partner reveal",
            Kind4::OpenArmy => "open army",
            Kind4::Move => "move",
            Kind4::Attack => "attack",
            Kind4::Table => "table",
            Kind4::Label => "label",
            Kind4::FlagOpening => "flag opening",
            Kind4::NoMoves => "no-moves",
            Kind4::Resign => "resign",
            Kind4::Leave => "leave",
            Kind4::HandOver => "hand-over",
            Kind4::Timeout => "timeout",
            Kind4::DrawOffer => "draw offer",
            Kind4::DrawAnswer => "draw answer",
            Kind4::Dispute => "dispute",
            Kind4::Reveal => "reveal",
        })
    }
}

/// Longest pairing code in a confirmation.
pub const MAX_CODE: usize = 16;

/// Why a signed message's content is out of bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoundsError {
    /// A name longer than [`MAX_NAME`] or a code longer than [`MAX_CODE`].
    #[error("name or code too long")]
    Name,
    /// Not 25 commitments or ranks.
    #[error("not one entry per slot")]
    Army,
}

impl Body4 {
    /// The message's kind.
    #[must_use]
    pub fn kind(&self) -> Kind4 {
        match self {
            Body4::Hello { .. } | Body4::HelloHandOver { .. } => Kind4::Hello,
            Body4::Nonce { .. } => Kind4::Nonce,
            Body4::Confirm { .. } => Kind4::Confirm,
            Body4::Commit { .. } => Kind4::Commit,
            Body4::PartnerReveal { .. } => Kind4::PartnerReveal,
            Body4::OpenArmy { .. } => Kind4::OpenArmy,
            Body4::Move { .. } => Kind4::Move,
            Body4::Attack { .. } => Kind4::Attack,
            Body4::Table(_) => Kind4::Table,
            Body4::Label(_) => Kind4::Label,
            Body4::FlagOpen(_) => Kind4::FlagOpening,
            Body4::NoMoves => Kind4::NoMoves,
            Body4::Resign => Kind4::Resign,
            Body4::Leave => Kind4::Leave,
            Body4::HandOver { .. } => Kind4::HandOver,
            Body4::Timeout => Kind4::Timeout,
            Body4::OfferDraw => Kind4::DrawOffer,
            Body4::AcceptDraw | Body4::DeclineDraw => Kind4::DrawAnswer,
            Body4::Dispute => Kind4::Dispute,
            Body4::Reveal { .. } => Kind4::Reveal,
        }
    }

    /// Checks the sizes a peer controls.
    ///
    /// # Errors
    /// The bound broken.
    pub fn check_bounds(&self) -> Result<(), BoundsError> {
        match self {
            Body4::Hello { name, .. } | Body4::HelloHandOver { name, .. }
                if name.len() > MAX_NAME =>
            {
                Err(BoundsError::Name)
            }
            Body4::Confirm { code } if code.len() > MAX_CODE => Err(BoundsError::Name),
            Body4::Commit { pieces, .. } if pieces.len() != crate::commit::ARMY_SIZE => {
                Err(BoundsError::Army)
            }
            Body4::Reveal { ranks, .. } if ranks.len() != crate::commit::ARMY_SIZE => {
                Err(BoundsError::Army)
            }
            Body4::OpenArmy { openings } if openings.len() != crate::commit::ARMY_SIZE => {
                Err(BoundsError::Army)
            }
            _ => Ok(()),
        }
    }
}
