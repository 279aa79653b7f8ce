//! What one side keeps of a game in progress, so that it can resume after a
//! crash or a dropped connection (the file I/O is `junqi-net`'s `resume`).

use serde::{Deserialize, Serialize};

use crate::crypto::{Digest, Seed};
use crate::envelope::Envelope;
use crate::rank::Seat;
use crate::wire::Body;

/// What is saved of a game in progress: enough to rebuild the session by
/// replaying the log ([`crate::session::Session::restore`]).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SavedGame {
    /// Host or guest.
    pub seat: Seat,
    /// The rules (the host's; the guest's come from the log).
    pub rules: junqi_game::Rules,
    /// This side's layout.
    pub layout: Option<junqi_game::Layout>,
    /// Display name.
    pub name: String,
    /// The game seed (secret until the audit).
    pub seed: Seed,
    /// This side's hello nonce.
    pub nonce: [u8; 32],
    /// Every message sent and received, in processing order.
    pub log: Vec<Envelope<Body>>,
}

/// The first frame on every stream, before any protocol message: which game
/// and how many of the peer's messages this side already has, so that after
/// a reconnection each side resends exactly what the other missed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StreamStart {
    /// The game id (zeros for a new game).
    pub game: Digest,
    /// Messages received from the peer so far.
    pub have: u64,
}
