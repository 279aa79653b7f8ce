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
pub struct SavedSession {
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
/// a reconnection each side resends exactly what the other missed. Once the
/// sender knows its peer's key it signs the start with its own paired key,
/// bound to the connection (`binding`, e.g. a TLS exporter both ends of
/// that one connection derive): a stranger cannot make one, and one
/// captured on another connection does not verify.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StreamStart {
    /// The game id (zeros for a new game).
    pub game: Digest,
    /// Messages received from the peer so far.
    pub have: u64,
    /// The digest of the last of them (zeros if none): the peer checks that it
    /// is the message it remembers sending.
    pub have_last: Digest,
    /// ed25519 signature over `H("junqi v1 stream", binding, seat, game,
    /// have, have_last)` with the sender's signing key (zeros when the sender
    /// knows no peer yet).
    #[serde(with = "crate::crypto::byte_array")]
    pub sig: [u8; 64],
}

/// Why a stream start is refused before anything is taken or sent
/// ([`crate::session::Session::accept_stream_start`]): the other end is not
/// the paired peer. Nobody is blamed; the connection is dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StreamRefused {
    /// A zero game id where this side's game has one.
    #[error("a stream start with no game id for a game in progress")]
    ZeroGame,
    /// Another game's id.
    #[error("a stream start for another game")]
    OtherGame,
    /// Not signed by the paired peer's key over this connection.
    #[error("a stream start not signed by the paired peer for this connection")]
    Unauthenticated,
}
