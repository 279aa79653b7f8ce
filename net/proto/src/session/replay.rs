//! Saving and resuming: a side is rebuilt from its signed log (after a
//! crash, or by a third party from a finished game's log), and a new stream
//! resends what the other side missed.

use std::time::Instant;

use ed25519_dalek::{Signature, SigningKey, VerifyingKey};
use junqi_game::{Layout, Move, Point};

use super::play::Due;
use super::replay_error::{ReplayError, ReplayFault};
use super::{AppEvent, Session, SessionError, Stage, Verdict, pairing_code};
use crate::crypto::{Digest, ZERO_DIGEST, ctx, h};
use crate::envelope::{Envelope, Transcript};
use crate::evidence::Evidence;
use crate::fault::FaultKind;
use crate::frame::{FrameDecoder, encode_frame};
use crate::rank::Seat;
use crate::saved::StreamRefused;
use crate::wire::Body;

impl Session {
    /// What to save after every message (see [`crate::saved`]).
    #[must_use]
    pub fn saved(&self) -> crate::saved::SavedSession {
        crate::saved::SavedSession {
            seat: self.core.seat,
            rules: self.core.rules,
            layout: self.core.layout,
            name: self.core.name.clone(),
            seed: self.core.seed.clone(),
            nonce: self.core.nonce,
            log: self.core.log.clone(),
        }
    }

    /// Rebuilds a session after a crash by replaying its saved log: received
    /// messages are handled again and this side's own decisions are taken
    /// again from its signed messages, which must come out byte-identical
    /// (the protocol is deterministic given the seed). Nothing is queued for
    /// sending; exchange [`Session::stream_start`] frames on the new
    /// connection ([`Session::handle_stream_start`]) to resend what each side missed.
    ///
    /// # Errors
    /// A log that does not replay to the same messages: where and why.
    pub fn restore(
        now: Instant,
        key: &SigningKey,
        saved: &crate::saved::SavedSession,
    ) -> Result<Session, ReplayError> {
        let t = Transcript::new(saved.seat, key);
        let mut s = Session::rebuild(now, t, saved, &saved.log)?;
        s.core.out.clear();
        s.core.events.clear();
        if matches!(&s.stage, Stage::Setup(setup) if setup.unconfirmed()) {
            // Not confirmed before the crash: ask again.
            s.core.events.push_back(AppEvent::PairingCode {
                code: pairing_code(&s.core.game_id),
            });
        }
        s.rearm(now);
        // Nothing new until the peer says what it holds (`accept_stream_start`).
        s.core.resync_pending = !s.is_done();
        Ok(s)
    }

    /// Rebuilds one side of a finished game from a signed log, as a third
    /// party can: with no signing key (its signatures come from the log,
    /// checked against its public key), from the seed and setup it opened
    /// at the end. The peer's messages are handled as that side received
    /// them (its acknowledgements say when); its own messages must come out
    /// exactly as logged, or it did not follow the protocol there.
    ///
    /// # Errors
    /// Where the side's logged messages leave the protocol.
    pub fn witness(
        now: Instant,
        public: VerifyingKey,
        saved: &crate::saved::SavedSession,
    ) -> Result<Session, ReplayError> {
        let own: Vec<[u8; 64]> = {
            let mut mine: Vec<&Envelope<Body>> = saved
                .log
                .iter()
                .filter(|e| e.header.sender == saved.seat)
                .collect();
            mine.sort_by_key(|e| e.header.seq);
            mine.iter().map(|e| e.sig).collect()
        };
        let order = processing_order(&saved.log, saved.seat);
        let t = Transcript::witness(saved.seat, public, own);
        // `now` only stamps the rebuilt debts: a third party has no clock,
        // and the side's own logged answers show which claims it refused.
        Session::rebuild(now, t, saved, &order)
    }

    /// Replays `log` (in this side's processing order) into a new session.
    fn rebuild(
        now: Instant,
        transcript: Transcript,
        saved: &crate::saved::SavedSession,
        log: &[Envelope<Body>],
    ) -> Result<Session, ReplayError> {
        let seat = saved.seat;
        let fail = |index: usize, what: ReplayFault| ReplayError { seat, index, what };
        let layout = saved.layout.ok_or_else(|| fail(0, ReplayFault::NoLayout))?;
        let mut s = match seat {
            Seat::Host => Session::host_with(
                now,
                saved.rules,
                layout,
                transcript,
                saved.seed.clone(),
                saved.nonce,
                &saved.name,
            )
            .map_err(|e| fail(0, ReplayFault::Refused(e)))?,
            Seat::Guest => Session::join_with(
                now,
                transcript,
                saved.seed.clone(),
                saved.nonce,
                &saved.name,
            ),
        };
        s.core.replaying = true;
        let mut own: Vec<&Envelope<Body>> =
            log.iter().filter(|e| e.header.sender == seat).collect();
        own.sort_by_key(|e| e.header.seq);
        s.core.replay_clocks = own.iter().map(|e| e.header.turn_ms).collect();
        for (i, env) in log.iter().enumerate() {
            if s.is_done() {
                // What the other side sent after this side's verdict was
                // not read by it (a third party's log may hold it).
                break;
            }
            if env.header.sender != s.core.seat {
                // Whether this side refused what comes now: its next own
                // message is a dispute.
                s.core.replay_refuses = log[i + 1..]
                    .iter()
                    .find(|e| e.header.sender == seat)
                    .is_some_and(|e| matches!(e.body, Body::Dispute { .. }));
                s.handle_envelope(now, env.clone());
            } else if s.core.log.len() <= i {
                s.replay_decision(now, &env.body, &layout)
                    .map_err(|e| fail(i, e))?;
            }
            if s.core.log.get(i) != Some(env) {
                return Err(fail(
                    i,
                    ReplayFault::Diverged {
                        kind: env.body.kind(),
                    },
                ));
            }
        }
        s.core.replaying = false;
        s.core.replay_refuses = false;
        Ok(s)
    }

    fn replay_decision(
        &mut self,
        now: Instant,
        body: &Body,
        layout: &Layout,
    ) -> Result<(), ReplayFault> {
        let r = match *body {
            Body::Hello { .. } => self.accept(now, *layout),
            Body::Commit { .. } => self.confirm_pairing(now),
            // Checked as a live move is: a log may come from a cheater.
            Body::Step { from, to } | Body::Attack { from, to, .. } => {
                let mv = Move::Step {
                    from: Point(from),
                    to: Point(to),
                };
                return self
                    .play(now, mv)
                    .map_err(|error| ReplayFault::Move { mv, error });
            }
            Body::Flip { at } => {
                let mv = Move::Flip { at: Point(at) };
                return self
                    .play(now, mv)
                    .map_err(|error| ReplayFault::Move { mv, error });
            }
            Body::OfferDraw => self.offer_draw(now),
            Body::AcceptDraw => self.accept_draw(now),
            Body::DeclineDraw => self.decline_draw(now),
            Body::Resign => self.resign(now),
            // Only what the peer owed can have been claimed (when, only the
            // claimant's clock knew).
            Body::ClaimTimeout { .. } => self
                .in_play(now, |p, c| {
                    if p.debt.by == c.me || p.debt.due != Due::Move {
                        return Err(SessionError::WrongPhase);
                    }
                    p.claim_timeout(c, now);
                    Ok(())
                })
                .unwrap_or(Err(SessionError::WrongPhase)),
            Body::ClaimForfeit => self
                .in_play(now, |p, c| {
                    if p.debt.by == c.me || p.debt.due == Due::Move {
                        return Err(SessionError::WrongPhase);
                    }
                    p.claim_forfeit(c);
                    Ok(())
                })
                .unwrap_or(Err(SessionError::WrongPhase)),
            Body::Dispute { ref reason } => {
                let peer = self.core.peer();
                self.core.fault_unsupported |= self.core.fault.is_none();
                self.fault(
                    now,
                    peer,
                    FaultKind::OwnDispute(reason.clone()),
                    Evidence::ReplayedDispute,
                );
                Ok(())
            }
            ref other => return Err(ReplayFault::CannotReplay { kind: other.kind() }),
        };
        r.map_err(ReplayFault::Refused)
    }

    /// The first frame to write on a new stream (bound to no connection:
    /// transports that can, use [`Session::stream_start_bound`]).
    #[must_use]
    pub fn stream_start(&self) -> Vec<u8> {
        self.stream_start_bound(&ZERO_DIGEST)
    }

    /// The first frame to write on a new stream, signed with this side's key
    /// over `binding` (a value both ends of this one connection derive, such
    /// as a TLS exporter) once the peer's key is known.
    #[must_use]
    pub fn stream_start_bound(&self, binding: &[u8; 32]) -> Vec<u8> {
        let t = &self.core.transcript;
        let mut s = crate::saved::StreamStart {
            game: self.core.game_id,
            have: t.counts().1,
            have_last: t.last_received(),
            sig: [0; 64],
        };
        if self.core.peer_key != [0; 32]
            && let Some(sig) = t.sign_aside(&stream_digest(binding, self.core.seat, &s))
        {
            s.sig = sig;
        }
        encode_frame(&s).expect("small")
    }

    /// Handles the peer's first frame on a new stream with no connection
    /// binding (tests, in-memory transports); see [`Session::accept_stream_start`].
    /// A refused start is ignored.
    pub fn handle_stream_start(&mut self, now: Instant, start: crate::saved::StreamStart) {
        let _ = self.accept_stream_start(now, start, &ZERO_DIGEST);
    }

    /// Handles the other end's first frame on a new stream. Before a byte of
    /// it is taken as protocol it must come from the paired peer: once this
    /// side knows the peer's key, the start must carry this game's id and
    /// be signed with that key over this connection's `binding`; before
    /// (a new game), it must name no game. A refused start changes nothing,
    /// blames nobody and queues nothing: drop the connection.
    ///
    /// An accepted start queues every own message the peer has not received
    /// and starts a fresh frame decoder; but if the peer holds more of this
    /// side's messages than it remembers, or other ones, this side was
    /// restored from an older journal: it stops at once, sending nothing
    /// (what it would send next reuses sequence numbers, battle counters and
    /// labels the peer has seen), with [`FaultKind::StaleJournal`] and nobody
    /// blamed.
    ///
    /// # Errors
    /// The start does not come from the paired peer.
    pub fn accept_stream_start(
        &mut self,
        now: Instant,
        start: crate::saved::StreamStart,
        binding: &[u8; 32],
    ) -> Result<(), StreamRefused> {
        let _ = now;
        let own = self.core.game_id;
        if own != ZERO_DIGEST && start.game != ZERO_DIGEST && start.game != own {
            return Err(StreamRefused::OtherGame);
        }
        if self.core.peer_key == [0; 32] {
            // A new game: whoever comes first is the guest, and pairs.
            if start.game != ZERO_DIGEST {
                return Err(StreamRefused::OtherGame);
            }
        } else {
            // Signed by the paired peer for this connection (a peer that has
            // not learnt the game id yet signs a zero one).
            let signed = VerifyingKey::from_bytes(&self.core.peer_key).is_ok_and(|key| {
                let d = stream_digest(binding, self.core.peer_seat(), &start);
                key.verify_strict(&d, &Signature::from_bytes(&start.sig))
                    .is_ok()
            });
            if !signed {
                return Err(if own != ZERO_DIGEST && start.game == ZERO_DIGEST {
                    StreamRefused::ZeroGame
                } else {
                    StreamRefused::Unauthenticated
                });
            }
        }
        if self.is_done() {
            // Checked like any other: a finished game has nothing to resend.
            return Ok(());
        }
        self.decoder = FrameDecoder::new();
        self.core.out.clear();
        let t = &self.core.transcript;
        let sent = t.counts().0;
        let same = start.have == 0 || t.sent_digest(start.have - 1) == Some(start.have_last);
        if start.have > sent || !same {
            self.core.events.clear();
            self.conclude(Verdict {
                result: None,
                cheater: None,
                reason: Some(FaultKind::StaleJournal {
                    remembered: sent,
                    peer_has: start.have,
                }),
                evidence: None,
                record: None,
            });
            return Ok(());
        }
        if std::mem::take(&mut self.core.resync_pending) && self.my_turn() {
            self.core.events.push_back(AppEvent::YourTurn);
        }
        let resend: Vec<Vec<u8>> = self
            .core
            .log
            .iter()
            .filter(|e| e.header.sender == self.core.seat && e.header.seq >= start.have)
            .filter_map(|e| encode_frame(e).ok())
            .collect();
        self.core.out.extend(resend);
        Ok(())
    }
}

/// What a stream start's signature covers.
fn stream_digest(binding: &[u8; 32], sender: Seat, s: &crate::saved::StreamStart) -> Digest {
    h(
        ctx::STREAM,
        &[
            binding,
            &[sender as u8],
            &s.game,
            &s.have.to_le_bytes(),
            &s.have_last,
        ],
    )
}

/// `seat`'s processing order of a log: each of its own messages comes after
/// exactly the peer messages it acknowledges, in sequence order.
fn processing_order(log: &[Envelope<Body>], seat: Seat) -> Vec<Envelope<Body>> {
    let mut own: Vec<&Envelope<Body>> = log.iter().filter(|e| e.header.sender == seat).collect();
    let mut peer: Vec<&Envelope<Body>> = log.iter().filter(|e| e.header.sender != seat).collect();
    own.sort_by_key(|e| e.header.seq);
    peer.sort_by_key(|e| e.header.seq);
    let mut out = Vec::with_capacity(log.len());
    let mut p = peer.into_iter().peekable();
    for m in own {
        while let Some(e) = p.next_if(|e| e.header.seq < m.header.ack_seq) {
            out.push(e.clone());
        }
        out.push(m.clone());
    }
    out.extend(p.cloned());
    out
}
