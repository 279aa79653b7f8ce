//! Signed, hash-chained, versioned message envelopes.
//!
//! Every protocol message travels in an [`Envelope`]: a [`Header`] (protocol
//! version, game id, sender, per-sender sequence number, hash of the sender's
//! previous message, and the count and hash of the last message it received
//! from the peer), the body, and an ed25519 signature over
//! `H("junqi v1 msg", header, body)`. The two per-sender chains cross-linked by
//! the acknowledgements form the game log both sides hold: a replayed,
//! duplicated, reordered or foreign message breaks a link and is refused by the
//! [`Transcript`], and the signed log is evidence a third party can check.

use ed25519_dalek::{Signature, Signer, SigningKey, VerifyingKey};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::crypto::{Digest, ZERO_DIGEST, byte_array, ctx, h};
use crate::frame::{FrameError, encode_payload};
use crate::rank::Seat;

/// The protocol version this crate speaks.
pub const PROTOCOL_VERSION: u16 = 4;

/// The signed part of an envelope besides the body.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// Protocol version.
    pub version: u16,
    /// The game id; all zeros for the hellos that define it.
    pub game: Digest,
    /// Who sent it.
    pub sender: Seat,
    /// Per-sender sequence number, from 0.
    pub seq: u64,
    /// Hash of the sender's message `seq - 1` (zeros for the first).
    pub prev: Digest,
    /// How many of the peer's messages the sender had received.
    pub ack_seq: u64,
    /// Hash of the last of those (zeros if none).
    pub ack: Digest,
    /// The sender's own move clock when it sent this, in milliseconds: how
    /// much of its turn it had used (a draw offer's wait not counted); zero
    /// off its turn. Signed, so that a timeout claim that crossed a move is
    /// judged on the mover's word ([`crate::session::LATENCY_BOUND`]).
    pub turn_ms: u32,
}

/// A signed message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Envelope<B> {
    /// The header.
    pub header: Header,
    /// The protocol message.
    pub body: B,
    /// ed25519 signature over [`Envelope::digest`].
    #[serde(with = "byte_array")]
    pub sig: [u8; 64],
}

/// Hash of a header and body: what is signed and what the next message links to.
///
/// # Errors
/// If the body cannot be encoded within the frame limit.
pub fn message_digest<B: Serialize>(header: &Header, body: &B) -> Result<Digest, FrameError> {
    let hb = encode_payload(header)?;
    let bb = encode_payload(body)?;
    Ok(h(ctx::MSG, &[&hb, &bb]))
}

impl<B: Serialize> Envelope<B> {
    /// The message hash.
    ///
    /// # Errors
    /// If the body cannot be encoded.
    pub fn digest(&self) -> Result<Digest, FrameError> {
        message_digest(&self.header, &self.body)
    }

    /// Checks the signature against `key` and returns the digest.
    ///
    /// # Errors
    /// [`ChainError::BadSignature`].
    pub fn verify(&self, key: &VerifyingKey) -> Result<Digest, ChainError> {
        let d = self
            .digest()
            .map_err(|e| ChainError::Encoding(e.to_string()))?;
        key.verify_strict(&d, &Signature::from_bytes(&self.sig))
            .map_err(|_| ChainError::BadSignature)?;
        Ok(d)
    }
}

/// Why a received envelope is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChainError {
    /// Another protocol version.
    #[error("protocol version {got}, this side speaks {PROTOCOL_VERSION}")]
    Version {
        /// Received.
        got: u16,
    },
    /// The message belongs to another game.
    #[error("message from another game")]
    WrongGame,
    /// The sender field names this side.
    #[error("message claims to come from {0:?}")]
    WrongSender(Seat),
    /// The signature does not verify.
    #[error("bad signature")]
    BadSignature,
    /// No key to verify with yet.
    #[error("no peer key yet")]
    NoPeerKey,
    /// A message already received (replayed or duplicated).
    #[error("message {seq} replayed or duplicated (expected {expected})")]
    Replayed {
        /// Its sequence number.
        seq: u64,
        /// The one expected.
        expected: u64,
    },
    /// A message ahead of the next expected one (reordered or one dropped).
    #[error("message {seq} out of order (expected {expected})")]
    OutOfOrder {
        /// Its sequence number.
        seq: u64,
        /// The one expected.
        expected: u64,
    },
    /// `prev` does not link to the sender's previous message.
    #[error("message {seq} does not link to the sender's previous message")]
    BrokenChain {
        /// Its sequence number.
        seq: u64,
    },
    /// `ack` names a message this side never sent or goes backwards.
    #[error("message acknowledges a message this side never sent")]
    BadAck,
    /// The body cannot be encoded.
    #[error("encoding: {0}")]
    Encoding(String),
}

/// One side's view of the two cross-linked chains. After a crash it is rebuilt
/// by replaying the saved log.
#[derive(Clone, Debug)]
pub struct Transcript {
    me: Seat,
    game: Digest,
    signing: MessageSigner,
    peer: Option<VerifyingKey>,
    sent: Vec<Digest>,
    received: Vec<Digest>,
    peer_ack: u64,
}

/// Who signs this side's messages.
#[derive(Clone, Debug)]
enum MessageSigner {
    /// This side itself.
    Key(SigningKey),
    /// Nobody: a third party rebuilding one side from a signed log takes
    /// that side's signatures from the log (by sequence number), each
    /// checked against its public key; a message that differs from the
    /// logged one then gets an invalid signature and shows as different.
    Witness {
        public: VerifyingKey,
        signatures: Vec<[u8; 64]>,
    },
}

impl Transcript {
    /// A fresh transcript for seat `me` signing with `key`.
    #[must_use]
    pub fn new(me: Seat, key: &SigningKey) -> Self {
        Transcript::with_signer(me, MessageSigner::Key(key.clone()))
    }

    /// A transcript for rebuilding seat `me` from a log: its messages carry
    /// the logged `signatures` (by sequence number) when they verify.
    #[must_use]
    pub fn witness(me: Seat, public: VerifyingKey, signatures: Vec<[u8; 64]>) -> Self {
        Transcript::with_signer(me, MessageSigner::Witness { public, signatures })
    }

    fn with_signer(me: Seat, signing: MessageSigner) -> Self {
        Transcript {
            me,
            game: ZERO_DIGEST,
            signing,
            peer: None,
            sent: Vec::new(),
            received: Vec::new(),
            peer_ack: 0,
        }
    }

    /// This side's seat.
    #[must_use]
    pub fn me(&self) -> Seat {
        self.me
    }

    /// This side's public key.
    #[must_use]
    pub fn public_key(&self) -> VerifyingKey {
        match &self.signing {
            MessageSigner::Key(k) => k.verifying_key(),
            MessageSigner::Witness { public, .. } => *public,
        }
    }

    /// Sets the peer's key (from its hello).
    pub fn set_peer_key(&mut self, key: VerifyingKey) {
        self.peer = Some(key);
    }

    /// Sets the game id once both hellos are known; later messages must carry it.
    pub fn set_game(&mut self, game: Digest) {
        self.game = game;
    }

    /// The current game id.
    #[must_use]
    pub fn game(&self) -> Digest {
        self.game
    }

    /// Number of messages sent and received.
    #[must_use]
    pub fn counts(&self) -> (u64, u64) {
        (self.sent.len() as u64, self.received.len() as u64)
    }

    /// Hash of the last message of either chain that this side has seen
    /// most recently: its own last message if it sent after receiving.
    #[must_use]
    pub fn last_sent(&self) -> Digest {
        self.sent.last().copied().unwrap_or(ZERO_DIGEST)
    }

    /// The digest of this side's message `seq`, if it sent it.
    #[must_use]
    pub fn sent_digest(&self, seq: u64) -> Option<Digest> {
        usize::try_from(seq)
            .ok()
            .and_then(|i| self.sent.get(i))
            .copied()
    }

    /// Signs a digest outside the chain (a stream start) with this side's
    /// key; `None` for a witness, which has no key.
    #[must_use]
    pub fn sign_aside(&self, digest: &Digest) -> Option<[u8; 64]> {
        match &self.signing {
            MessageSigner::Key(k) => Some(k.sign(digest).to_bytes()),
            MessageSigner::Witness { .. } => None,
        }
    }

    /// Hash of the peer's last message.
    #[must_use]
    pub fn last_received(&self) -> Digest {
        self.received.last().copied().unwrap_or(ZERO_DIGEST)
    }

    /// Signs `body` as the next message, with a zero turn clock.
    ///
    /// # Errors
    /// If the body cannot be encoded within the frame limit.
    pub fn seal<B: Serialize>(&mut self, body: B) -> Result<Envelope<B>, FrameError> {
        self.seal_at(body, 0)
    }

    /// Signs `body` as the next message, sent `turn_ms` into the sender's turn.
    ///
    /// # Errors
    /// If the body cannot be encoded within the frame limit.
    pub fn seal_at<B: Serialize>(
        &mut self,
        body: B,
        turn_ms: u32,
    ) -> Result<Envelope<B>, FrameError> {
        let header = Header {
            version: PROTOCOL_VERSION,
            game: self.game,
            sender: self.me,
            seq: self.sent.len() as u64,
            prev: self.last_sent(),
            ack_seq: self.received.len() as u64,
            ack: self.last_received(),
            turn_ms,
        };
        let d = message_digest(&header, &body)?;
        let sig = match &self.signing {
            MessageSigner::Key(k) => k.sign(&d).to_bytes(),
            MessageSigner::Witness { public, signatures } => signatures
                .get(self.sent.len())
                .filter(|s| public.verify_strict(&d, &Signature::from_bytes(s)).is_ok())
                .copied()
                .unwrap_or([0; 64]),
        };
        self.sent.push(d);
        Ok(Envelope { header, body, sig })
    }

    /// Signs `body` as the next message but acknowledging only the first
    /// `ack_seq` of the peer's messages received (a hostile sender's choice;
    /// capped at what it received). Scripted adversaries only.
    ///
    /// # Errors
    /// If the body cannot be encoded within the frame limit.
    #[cfg(feature = "testing")]
    pub fn seal_acking<B: Serialize>(
        &mut self,
        body: B,
        ack_seq: u64,
    ) -> Result<Envelope<B>, FrameError> {
        let ack_seq = ack_seq.min(self.received.len() as u64);
        let header = Header {
            version: PROTOCOL_VERSION,
            game: self.game,
            sender: self.me,
            seq: self.sent.len() as u64,
            prev: self.last_sent(),
            ack_seq,
            ack: if ack_seq == 0 {
                ZERO_DIGEST
            } else {
                self.received[ack_seq as usize - 1]
            },
            turn_ms: 0,
        };
        let d = message_digest(&header, &body)?;
        let sig = match &self.signing {
            MessageSigner::Key(k) => k.sign(&d).to_bytes(),
            MessageSigner::Witness { .. } => [0; 64],
        };
        self.sent.push(d);
        Ok(Envelope { header, body, sig })
    }

    /// Checks a received envelope (version, game, sender, signature, sequence,
    /// chain link, acknowledgement) and records it.
    ///
    /// # Errors
    /// The first check that fails; nothing is recorded then.
    pub fn accept<B: Serialize + DeserializeOwned>(
        &mut self,
        env: &Envelope<B>,
    ) -> Result<Digest, ChainError> {
        let hd = &env.header;
        if hd.version != PROTOCOL_VERSION {
            return Err(ChainError::Version { got: hd.version });
        }
        if hd.sender != self.me.other() {
            return Err(ChainError::WrongSender(hd.sender));
        }
        if hd.game != self.game {
            return Err(ChainError::WrongGame);
        }
        let key = self.peer.ok_or(ChainError::NoPeerKey)?;
        let d = env.verify(&key)?;
        let expected = self.received.len() as u64;
        if hd.seq < expected {
            return Err(ChainError::Replayed {
                seq: hd.seq,
                expected,
            });
        }
        if hd.seq > expected {
            return Err(ChainError::OutOfOrder {
                seq: hd.seq,
                expected,
            });
        }
        if hd.prev != self.last_received() {
            return Err(ChainError::BrokenChain { seq: hd.seq });
        }
        let sent = self.sent.len() as u64;
        let ack_ok = hd.ack_seq >= self.peer_ack
            && hd.ack_seq <= sent
            && hd.ack
                == if hd.ack_seq == 0 {
                    ZERO_DIGEST
                } else {
                    self.sent[hd.ack_seq as usize - 1]
                };
        if !ack_ok {
            return Err(ChainError::BadAck);
        }
        self.peer_ack = hd.ack_seq;
        self.received.push(d);
        Ok(d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair() -> (Transcript, Transcript) {
        let ka = SigningKey::from_bytes(&[1; 32]);
        let kb = SigningKey::from_bytes(&[2; 32]);
        let mut a = Transcript::new(Seat::Host, &ka);
        let mut b = Transcript::new(Seat::Guest, &kb);
        a.set_peer_key(kb.verifying_key());
        b.set_peer_key(ka.verifying_key());
        (a, b)
    }

    #[test]
    fn chain_accepts_in_order_and_concurrent_messages() {
        let (mut a, mut b) = pair();
        let m1 = a.seal(1u32).unwrap();
        let n1 = b.seal(100u32).unwrap(); // concurrent
        b.accept(&m1).unwrap();
        a.accept(&n1).unwrap();
        let m2 = a.seal(2u32).unwrap();
        b.accept(&m2).unwrap();
        let n2 = b.seal(101u32).unwrap();
        a.accept(&n2).unwrap();
        assert_eq!(a.counts(), (2, 2));
    }

    #[test]
    fn replay_reorder_duplicate_and_forgery_refused() {
        let (mut a, mut b) = pair();
        let m0 = a.seal(0u32).unwrap();
        let m1 = a.seal(1u32).unwrap();
        let m2 = a.seal(2u32).unwrap();
        assert_eq!(
            b.accept(&m1),
            Err(ChainError::OutOfOrder {
                seq: 1,
                expected: 0
            })
        );
        b.accept(&m0).unwrap();
        assert_eq!(
            b.accept(&m0),
            Err(ChainError::Replayed {
                seq: 0,
                expected: 1
            })
        );
        let mut forged = m1.clone();
        forged.body = 9;
        assert_eq!(b.accept(&forged), Err(ChainError::BadSignature));
        b.accept(&m1).unwrap();
        b.accept(&m2).unwrap();
        // A message for another game.
        let (mut c, _) = pair();
        c.set_game([5; 32]);
        let other = c.seal(3u32).unwrap();
        assert_eq!(b.accept(&other), Err(ChainError::WrongGame));
        // Own message reflected back.
        let mine = b.seal(7u32).unwrap();
        assert_eq!(b.accept(&mine), Err(ChainError::WrongSender(Seat::Guest)));
    }

    #[test]
    fn bad_ack_refused() {
        let (mut a, mut b) = pair();
        let n0 = b.seal(0u32).unwrap();
        a.accept(&n0).unwrap();
        // a acknowledges b's message 0; b forges nothing, but a second transcript
        // of a that never received n0 acks nothing; and an ack of an unsent message fails.
        let (mut a2, _) = pair();
        let x = a2.seal(1u32).unwrap();
        b.accept(&x).unwrap(); // acks 0 messages: fine
        let m = a.seal(2u32).unwrap(); // seq 0 in a's chain, but b already has a2's seq 0
        assert!(matches!(b.accept(&m), Err(ChainError::Replayed { .. })));
    }

    #[test]
    fn envelope_round_trips_through_frames() {
        let (mut a, mut b) = pair();
        let m = a.seal(vec![1u8, 2, 3]).unwrap();
        let bytes = crate::frame::encode_frame(&m).unwrap();
        let mut d = crate::frame::FrameDecoder::new();
        d.push(&bytes);
        let back: Envelope<Vec<u8>> = d.next_frame().unwrap().unwrap();
        assert_eq!(back, m);
        b.accept(&back).unwrap();
    }
}
