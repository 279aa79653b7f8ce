//! A seat's device coming back after its connection dropped: it proves it
//! holds the seat's key over the new connection (a signed [`Rejoin`] bound
//! to that connection's TLS exporter, as the two-player stream start is),
//! says how many rounds it holds, and both ends resend what the other may
//! have missed (a message held twice is a duplicate, dropped). The host
//! answers first with a signed [`Welcome`]: how many rounds it held at the
//! return, which a seat resumed from its journal waits for before it sends
//! again ([`FourSession::take_welcome`]).

use ed25519_dalek::{Signature, Signer, SigningKey, VerifyingKey};
use serde::{Deserialize, Serialize};

use super::seat::FourSeat;
use super::session::FourSession;
use crate::crypto::{Digest, byte_array, ctx, h};
use crate::frame::encode_payload;

/// The first frame on every connection to the host.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LinkStart {
    /// A device joining the table (its hello follows).
    New,
    /// A seat's device coming back.
    Rejoin(Rejoin),
}

/// A seat's signed return over one connection.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rejoin {
    /// The game.
    pub game: Digest,
    /// The seat.
    pub seat: FourSeat,
    /// The rounds this seat holds.
    pub rounds: u64,
    /// `H("junqi v1 stream", "four", game, seat, rounds, binding)` signed by the seat's key.
    #[serde(with = "byte_array")]
    pub sig: [u8; 64],
}

/// The host's answer to a seat's return, the first frame it sends back
/// over that connection: the rounds its log held then, signed by the host's
/// key over the connection (so it cannot be shown on another one).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Welcome {
    /// The game.
    pub game: Digest,
    /// The seat that returned.
    pub seat: FourSeat,
    /// The rounds the host held.
    pub rounds: u64,
    /// `H("junqi v1 stream", "four welcome", game, seat, rounds, binding)`
    /// signed by the host's key.
    #[serde(with = "byte_array")]
    pub sig: [u8; 64],
}

impl Welcome {
    /// The welcome of `seat` to game `game` with `rounds`, signed by `key`
    /// over the connection `binding`.
    #[must_use]
    pub fn sign(
        key: &SigningKey,
        game: Digest,
        seat: FourSeat,
        rounds: u64,
        binding: &[u8; 32],
    ) -> Welcome {
        let d = welcome_part(&game, seat, rounds, binding);
        Welcome {
            game,
            seat,
            rounds,
            sig: key.sign(&d).to_bytes(),
        }
    }
}

/// Why a return is refused (the connection is closed, nobody blamed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RejoinRefused {
    /// Another game, or a table that has not started.
    #[error("another game")]
    OtherGame,
    /// Not signed by the seat's key over this connection.
    #[error("not signed by the seat over this connection")]
    BadSignature,
}

fn welcome_part(game: &Digest, seat: FourSeat, rounds: u64, binding: &[u8; 32]) -> Digest {
    h(
        ctx::STREAM,
        &[
            b"four welcome",
            game,
            &[seat.code()],
            &rounds.to_le_bytes(),
            binding,
        ],
    )
}

fn signed_part(game: &Digest, seat: FourSeat, rounds: u64, binding: &[u8; 32]) -> Digest {
    h(
        ctx::STREAM,
        &[
            b"four",
            game,
            &[seat.code()],
            &rounds.to_le_bytes(),
            binding,
        ],
    )
}

impl FourSession {
    /// This seat's return over the connection whose TLS exporter is `binding`.
    #[must_use]
    pub fn rejoin(&self, binding: &[u8; 32]) -> Rejoin {
        let rounds = self.log.round();
        let d = signed_part(&self.game_id, self.me, rounds, binding);
        Rejoin {
            game: self.game_id,
            seat: self.me,
            rounds,
            sig: self.cfg.key.sign(&d).to_bytes(),
        }
    }

    /// Checks a seat's return over the connection `binding`.
    ///
    /// # Errors
    /// See [`RejoinRefused`].
    pub fn check_rejoin(&self, r: &Rejoin, binding: &[u8; 32]) -> Result<(), RejoinRefused> {
        if r.game != self.game_id || self.log.round() < 2 {
            return Err(RejoinRefused::OtherGame);
        }
        let key: VerifyingKey = self.keys[r.seat.index()].ok_or(RejoinRefused::OtherGame)?;
        let d = signed_part(&r.game, r.seat, r.rounds, binding);
        key.verify_strict(&d, &Signature::from_bytes(&r.sig))
            .map_err(|_| RejoinRefused::BadSignature)
    }

    /// The host: its answer to `seat`'s return over the connection `binding`
    /// (after [`FourSession::check_rejoin`] took it).
    #[must_use]
    pub fn welcome(&self, seat: FourSeat, binding: &[u8; 32]) -> Welcome {
        Welcome::sign(&self.cfg.key, self.game_id, seat, self.log.round(), binding)
    }

    /// A returning seat: the host's answer over the connection `binding`.
    /// A seat resumed from its journal is released as soon as its log holds
    /// the rounds the host held ([`FourSession::release_after`]), instead of
    /// after a fixed wait.
    ///
    /// # Errors
    /// Another game or seat, or not signed by the host over this connection.
    pub fn take_welcome(&mut self, w: &Welcome, binding: &[u8; 32]) -> Result<(), RejoinRefused> {
        if w.game != self.game_id || w.seat != self.me {
            return Err(RejoinRefused::OtherGame);
        }
        let key = self.keys[self.cfg.host.index()].ok_or(RejoinRefused::OtherGame)?;
        let d = welcome_part(&w.game, w.seat, w.rounds, binding);
        key.verify_strict(&d, &Signature::from_bytes(&w.sig))
            .map_err(|_| RejoinRefused::BadSignature)?;
        if self.resuming() {
            self.release_after(w.rounds);
        }
        Ok(())
    }

    /// Every message this seat holds from round `from` on (the round under
    /// way included), as frame payloads: what a returning device may lack.
    #[must_use]
    pub fn resend_from(&self, from: u64) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        for r in from..=self.log.round() {
            let Some(m) = self.log.messages(r) else {
                continue;
            };
            for e in m.iter().flatten() {
                if let Ok(p) = encode_payload(e) {
                    out.push(p);
                }
            }
        }
        out
    }
}
