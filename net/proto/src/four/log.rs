//! A four-seat table's signed log: one hash chain of rounds signed by four
//! keys, each message carrying the signed headers of the round before it
//! (its witness), so that a seat that shows two versions of a message to
//! different seats is caught by the next message with two of its signatures.

use ed25519_dalek::{Signature, Signer, SigningKey, VerifyingKey};
use serde::{Deserialize, Serialize};

use super::body::Body4;
use super::seat::FourSeat;
use crate::crypto::{Digest, ZERO_DIGEST, byte_array, ctx, h};
use crate::envelope::PROTOCOL_VERSION;
use crate::frame::{FrameError, encode_payload};

/// The signed part of a message. The body is signed through its digest, so
/// a header alone (with its signature) is evidence of what its sender said.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header4 {
    /// Protocol version.
    pub version: u16,
    /// The game id; all zeros in rounds 0 and 1 (hellos and nonces), which define it.
    pub game: Digest,
    /// Who sent it.
    pub sender: FourSeat,
    /// The round: its position in the table's log.
    pub round: u64,
    /// The digest of round `round − 1` ([`round_digest`]; zeros for round 0).
    pub prev: Digest,
    /// The sender's signed turn clock in milliseconds (zero off its turn).
    pub turn_ms: u32,
    /// `H` of the encoded body.
    pub body: Digest,
}

/// A header and its sender's signature over [`SignedHeader::digest`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SignedHeader {
    /// The header.
    pub header: Header4,
    /// ed25519 signature.
    #[serde(with = "byte_array")]
    pub sig: [u8; 64],
}

impl SignedHeader {
    /// The message digest: what is signed and what the next round links to.
    ///
    /// # Errors
    /// If the header cannot be encoded (it always can).
    pub fn digest(&self) -> Result<Digest, FrameError> {
        header_digest(&self.header)
    }

    /// Whether `key` signed this header.
    #[must_use]
    pub fn verify(&self, key: &VerifyingKey) -> bool {
        self.digest().is_ok_and(|d| {
            key.verify_strict(&d, &Signature::from_bytes(&self.sig))
                .is_ok()
        })
    }
}

/// A message of the table: the signed header, the body, and the witness
/// (the signed headers of the round before, in seat order). The witness is
/// not signed by the sender but bound by `prev`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Envelope4 {
    /// The signed header.
    pub signed: SignedHeader,
    /// The message.
    pub body: Body4,
    /// The signed headers of round `round − 1`.
    pub witness: Vec<SignedHeader>,
}

/// `H("junqi v1 msg", "four", header)`.
///
/// # Errors
/// If the header cannot be encoded.
pub fn header_digest(header: &Header4) -> Result<Digest, FrameError> {
    Ok(h(ctx::MSG, &[b"four", &encode_payload(header)?]))
}

/// `H` of an encoded body.
///
/// # Errors
/// If the body does not fit a frame.
pub fn body_digest(body: &Body4) -> Result<Digest, FrameError> {
    Ok(h(ctx::MSG, &[b"four body", &encode_payload(body)?]))
}

/// `H("junqi v1 round", round, digests…)`: the digest of a whole round, its
/// messages in seat order.
#[must_use]
pub fn round_digest(round: u64, digests: &[Digest]) -> Digest {
    let mut parts: Vec<&[u8]> = Vec::with_capacity(digests.len() + 1);
    let r = round.to_le_bytes();
    parts.push(&r);
    parts.extend(digests.iter().map(<[u8; 32]>::as_slice));
    h(ctx::ROUND, &parts)
}

/// Signs a message for `round` after `prev_round` (the signed headers of the
/// round before, in seat order).
///
/// # Errors
/// If the body does not fit a frame.
pub fn seal(
    key: &SigningKey,
    game: Digest,
    sender: FourSeat,
    round: u64,
    prev_round: &[SignedHeader],
    turn_ms: u32,
    body: Body4,
) -> Result<Envelope4, FrameError> {
    let digests = prev_round
        .iter()
        .map(SignedHeader::digest)
        .collect::<Result<Vec<_>, _>>()?;
    let prev = if round == 0 {
        ZERO_DIGEST
    } else {
        round_digest(round - 1, &digests)
    };
    let header = Header4 {
        version: PROTOCOL_VERSION,
        game,
        sender,
        round,
        prev,
        turn_ms,
        body: body_digest(&body)?,
    };
    let d = header_digest(&header)?;
    Ok(Envelope4 {
        signed: SignedHeader {
            header,
            sig: key.sign(&d).to_bytes(),
        },
        body,
        witness: prev_round.to_vec(),
    })
}

/// Two headers signed by one seat for one round with different contents:
/// the evidence that it showed different messages to different seats. A
/// third party checks it with the seat's key alone ([`Equivocation::check`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Equivocation {
    /// The seat that signed both.
    pub seat: FourSeat,
    /// The version this side holds.
    pub held: SignedHeader,
    /// The other version.
    pub other: SignedHeader,
}

impl Equivocation {
    /// Whether this is real evidence against `seat` holding `key`: both
    /// signed by it, for the same round and game, different.
    #[must_use]
    pub fn check(&self, key: &VerifyingKey) -> bool {
        let (a, b) = (&self.held.header, &self.other.header);
        a.sender == self.seat
            && b.sender == self.seat
            && a.round == b.round
            && a.game == b.game
            && a != b
            && self.held.verify(key)
            && self.other.verify(key)
    }
}

/// What the log makes of a received message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Link {
    /// It is the next message of the round under way: the session may take it.
    Next,
    /// A round not reached yet: keep it until its round comes.
    Ahead,
    /// The same message again: ignore it.
    Duplicate,
}

/// Why a received message cannot be linked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LinkError {
    /// Not signed by its sender's key, another version or another game:
    /// bytes anyone (the relay) could make; nobody is blamed, they are dropped.
    #[error("not a message of this table (unsigned, another game or version)")]
    Stranger,
    /// A seat signed two versions of one message.
    #[error("{} signed two versions of round {}", .0.seat, .0.held.header.round)]
    Equivocation(Box<Equivocation>),
    /// The sender's signed `prev` does not hash its own witness: its fault.
    #[error("the witness does not hash to the signed prev")]
    BadWitness,
    /// The sender links to a round this side holds differently and the
    /// witness names nobody (a message this side never received): the
    /// relay split the table; nobody can be blamed from the log.
    #[error("the table's log forked without evidence against a seat")]
    Fork,
}

/// The rounds this side holds, each a message per seat that sent one.
#[derive(Clone, Debug, Default)]
pub struct TableLog {
    rounds: Vec<[Option<Envelope4>; 4]>,
    closed: usize,
}

impl TableLog {
    /// An empty log.
    #[must_use]
    pub fn new() -> TableLog {
        TableLog {
            rounds: vec![Default::default()],
            closed: 0,
        }
    }

    /// The round under way.
    #[must_use]
    pub fn round(&self) -> u64 {
        self.closed as u64
    }

    /// The messages of a round, in seat order.
    #[must_use]
    pub fn messages(&self, round: u64) -> Option<&[Option<Envelope4>; 4]> {
        self.rounds.get(usize::try_from(round).ok()?)
    }

    /// Every closed round.
    pub fn closed_rounds(&self) -> impl Iterator<Item = &[Option<Envelope4>; 4]> {
        self.rounds[..self.closed].iter()
    }

    /// The signed headers of the last closed round (the witness of the next).
    #[must_use]
    pub fn last_headers(&self) -> Vec<SignedHeader> {
        self.closed
            .checked_sub(1)
            .map(|i| self.rounds[i].iter().flatten().map(|e| e.signed).collect())
            .unwrap_or_default()
    }

    /// The digest the next round links to.
    #[must_use]
    pub fn prev(&self) -> Digest {
        match self.closed.checked_sub(1) {
            None => ZERO_DIGEST,
            Some(i) => round_digest(
                i as u64,
                &self.rounds[i]
                    .iter()
                    .flatten()
                    .map(|e| e.signed.digest().unwrap_or(ZERO_DIGEST))
                    .collect::<Vec<_>>(),
            ),
        }
    }

    /// Places `env` against the log: its signature by `key` (the sender's),
    /// its game, its round, its link and its witness (whose headers are
    /// checked against `keys`, the seats' keys known so far). Takes nothing in.
    ///
    /// # Errors
    /// See [`LinkError`].
    pub fn link(
        &self,
        env: &Envelope4,
        key: &VerifyingKey,
        keys: &[Option<VerifyingKey>; 4],
        game: &Digest,
    ) -> Result<Link, LinkError> {
        let hd = &env.signed.header;
        let body_ok = body_digest(&env.body).is_ok_and(|d| d == hd.body);
        if hd.version != PROTOCOL_VERSION || !body_ok || !env.signed.verify(key) {
            return Err(LinkError::Stranger);
        }
        // A later round is checked against the game id when its round
        // comes (the id may not be known yet).
        if hd.round > self.closed as u64 {
            return Ok(Link::Ahead);
        }
        if hd.round >= 2 && hd.game != *game || hd.round < 2 && hd.game != ZERO_DIGEST {
            return Err(LinkError::Stranger);
        }
        let sender = hd.sender.index();
        match hd.round.cmp(&(self.closed as u64)) {
            std::cmp::Ordering::Greater => return Ok(Link::Ahead),
            std::cmp::Ordering::Less => {
                let held = self.rounds[hd.round as usize][sender].as_ref();
                return match held {
                    Some(h) if h.signed == env.signed => Ok(Link::Duplicate),
                    Some(h) => Err(LinkError::Equivocation(Box::new(Equivocation {
                        seat: hd.sender,
                        held: h.signed,
                        other: env.signed,
                    }))),
                    // A message of a round closed without it: the round was
                    // closed by a leave or the end; nothing more is taken.
                    None => Ok(Link::Duplicate),
                };
            }
            std::cmp::Ordering::Equal => {}
        }
        if let Some(h) = &self.rounds[self.closed][sender] {
            return if h.signed == env.signed {
                Ok(Link::Duplicate)
            } else {
                Err(LinkError::Equivocation(Box::new(Equivocation {
                    seat: hd.sender,
                    held: h.signed,
                    other: env.signed,
                })))
            };
        }
        if hd.prev == self.prev() {
            return Ok(Link::Next);
        }
        // A different link: the witness says which round it saw.
        let digests = env
            .witness
            .iter()
            .map(SignedHeader::digest)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|_| LinkError::BadWitness)?;
        if hd.round == 0 || round_digest(hd.round - 1, &digests) != hd.prev {
            return Err(LinkError::BadWitness);
        }
        let mine = &self.rounds[self.closed - 1];
        for w in &env.witness {
            let s = w.header.sender;
            if let Some(h) = &mine[s.index()]
                && h.signed != *w
                && w.header.round == h.signed.header.round
                && keys[s.index()].is_some_and(|k| w.verify(&k))
            {
                return Err(LinkError::Equivocation(Box::new(Equivocation {
                    seat: s,
                    held: h.signed,
                    other: *w,
                })));
            }
        }
        Err(LinkError::Fork)
    }

    /// Takes a message [`TableLog::link`] said is [`Link::Next`] into the round under way.
    pub fn push(&mut self, env: Envelope4) {
        let s = env.signed.header.sender.index();
        self.rounds[self.closed][s] = Some(env);
    }

    /// Closes the round under way and opens the next.
    pub fn close_round(&mut self) {
        self.closed += 1;
        self.rounds.push(Default::default());
    }

    /// Reopens the last closed round without its messages (a move voided
    /// by a timeout claim that crossed it).
    pub fn drop_last_round(&mut self) {
        if self.closed > 0 {
            self.rounds.pop();
            self.closed -= 1;
            self.rounds[self.closed] = Default::default();
        }
    }

    /// Every message of the closed rounds, round by round in seat order
    /// (what a game file keeps).
    pub fn envelopes(&self) -> impl Iterator<Item = &Envelope4> {
        self.closed_rounds().flat_map(|r| r.iter().flatten())
    }

    /// A log from a game file's messages in [`TableLog::envelopes`] order,
    /// every round closed. Only the shape is checked here; signatures and
    /// links are the audit's ([`crate::four::audit_table`]).
    ///
    /// # Errors
    /// Rounds out of order or a seat twice in a round.
    pub fn from_envelopes(
        envelopes: impl IntoIterator<Item = Envelope4>,
    ) -> Result<TableLog, ShapeError> {
        let mut log = TableLog::new();
        let mut any = false;
        for e in envelopes {
            let r = e.signed.header.round;
            if any && r == log.closed as u64 + 1 {
                log.close_round();
            } else if r != log.closed as u64 {
                return Err(ShapeError::RoundOrder { round: r });
            }
            let s = e.signed.header.sender.index();
            if log.rounds[log.closed][s].is_some() {
                return Err(ShapeError::Twice { round: r });
            }
            log.rounds[log.closed][s] = Some(e);
            any = true;
        }
        if any {
            log.close_round();
        }
        Ok(log)
    }
}

/// Why a game file's messages are not a log.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShapeError {
    /// A round out of order.
    #[error("round {round} out of order")]
    RoundOrder {
        /// The round.
        round: u64,
    },
    /// One seat twice in one round.
    #[error("a seat twice in round {round}")]
    Twice {
        /// The round.
        round: u64,
    },
}
