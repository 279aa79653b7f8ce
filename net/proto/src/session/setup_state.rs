//! Where the setup stage stands ([`Setup`]): the pairing, both commitments and an open game's
//! reveal; and the part of the peer's commitment kept to the audit ([`PeerCommit`]).

use junqi_game::Layout;

use crate::commit::SetupCommitment;
use crate::crypto::Digest;
use crate::flip::{FlipLayer, FlipVerifier};
use crate::ot::PeerKey;
use crate::rank::WireRank;

#[derive(Clone)]
pub(super) struct Setup {
    pub(super) layout: Layout,
    pub(super) step: Step,
}

#[derive(Clone)]
pub(super) enum Step {
    /// Waiting for the player to confirm the code (the peer's commitment may
    /// already be in).
    Pairing {
        peer: Option<(PeerCommit, PeerLayer)>,
    },
    /// Confirmed and committed; waiting for the peer's commitment.
    Commit { mine: MyCommit },
    /// Open games: both committed; the host has opened its setup and waits
    /// for the guest's, the guest waits for the host's and opens its own
    /// once the host's checks out (`revealed`).
    OpenReveal {
        mine: SetupCommitment,
        peer: PeerCommit,
        peer_pieces: Vec<Digest>,
        revealed: bool,
    },
}

/// What the session waits for in a handshake step.
pub(super) enum HandshakeWait {
    /// The other player (comparing the codes): a person's time.
    Person,
    /// The other program.
    Program,
}

/// This side's commitment.
#[derive(Clone)]
pub(super) enum MyCommit {
    /// The setup, square by square.
    Dark(SetupCommitment),
    /// The same; opened once both are in.
    Open(SetupCommitment),
    /// This side's layer of the double shuffle.
    Flip(FlipLayer),
}

/// The peer's layer of its commitment.
#[derive(Clone)]
pub(super) enum PeerLayer {
    Army(Vec<Digest>),
    Flip(FlipVerifier),
}

/// The part of the peer's commitment every mode has, kept to the audit.
#[derive(Clone, Debug)]
pub(super) struct PeerCommit {
    pub(super) seed: Digest,
    pub(super) ot: PeerKey,
    pub(super) ot_bytes: [u8; 32],
}

impl Setup {
    pub(super) fn new(layout: Layout) -> Setup {
        Setup {
            layout,
            step: Step::Pairing { peer: None },
        }
    }

    pub(super) fn name(&self) -> &'static str {
        match self.step {
            Step::Pairing { .. } => "pairing",
            Step::Commit { .. } => "commit",
            Step::OpenReveal { .. } => "open reveal",
        }
    }

    /// Whether the player has not confirmed the code yet.
    pub(super) fn unconfirmed(&self) -> bool {
        matches!(self.step, Step::Pairing { .. })
    }

    /// Whether both players have yet to confirm (the pairing timer runs).
    pub(super) fn awaits_pairing(&self) -> bool {
        matches!(self.step, Step::Pairing { .. } | Step::Commit { .. })
    }

    /// Whether this side opened its setup (an open game's reveal).
    pub(super) fn revealed(&self) -> bool {
        matches!(self.step, Step::OpenReveal { revealed: true, .. })
    }

    pub(super) fn handshake_wait(&self) -> Option<HandshakeWait> {
        match self.step {
            Step::Pairing { .. } => None,
            Step::Commit { .. } => Some(HandshakeWait::Person),
            Step::OpenReveal { .. } => Some(HandshakeWait::Program),
        }
    }
}

pub(super) fn ranks_of(c: &SetupCommitment) -> Vec<WireRank> {
    c.placement.iter().map(|&(_, r)| r).collect()
}
