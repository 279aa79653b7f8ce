//! The sans-IO protocol state machine of one side of a two-player game.
//!
//! Like quinn-proto's `Connection`, a [`Session`] does no I/O and reads no
//! clock: the caller feeds it received bytes ([`Session::handle_bytes`]), the
//! current time ([`Session::handle_timeout`]) and the player's decisions
//! ([`Session::play`], [`Session::offer_draw`], …), and pulls bytes to send
//! ([`Session::poll_transmit`]), events for the app ([`Session::poll_event`])
//! and the next instant it wants to be woken at ([`Session::poll_timeout`]).
//!
//! Dark games run every battle through the oblivious transfer of [`crate::ot`];
//! open games reveal both setups once both are committed and referee locally;
//! flip games referee locally too, opening each face-down piece through the
//! double shuffle of [`crate::flip`] when a move first touches it;
//! every game ends with both seeds and setups opened and an audit
//! ([`crate::audit`]) whose [`Verdict`] names a cheater with evidence.
//!
//! The session is a `Stage` holding what only that stage has: the hello
//! exchange (`hello_state.rs`, handled in `hello.rs`), the pairing and the commitments
//! (`setup_state.rs`, handled in `setup.rs`), play (`play.rs`: what is owed, by whom, since
//! when; `battle.rs`, `opening.rs`; what differs by mode, `ModeState` in `mode.rs`), the
//! end-of-game audit (`audit_state.rs`, handled in `audit.rs`) and the verdict (`verdict.rs`).
//! Data moves from one stage to the next; what every stage shares is the `Core`
//! (`shared.rs`); deadlines live in one `TimerTable` (`timers.rs`). A stage's data names
//! only the files below it, never the `Session` (no import circle between the files).

mod audit;
mod audit_state;
mod battle;
mod error;
mod event;
mod hello;
mod hello_state;
mod mode;
mod opening;
mod play;
mod replay;
mod replay_error;
mod setup;
mod setup_state;
mod shared;
mod timers;
mod verdict;

use std::time::{Duration, Instant};

use ed25519_dalek::{SigningKey, VerifyingKey};
use junqi_game::{GameResult, Layout, Mode as RulesMode, Move, PlayerView, Rules, Side};

pub use crate::cheats::{Cheats, Rewrite};
use crate::crypto::{Digest, Seed, ZERO_DIGEST, ctx, h};
use crate::envelope::{Envelope, Header, PROTOCOL_VERSION, Transcript};
use crate::evidence::Evidence;
use crate::fault::FaultKind;
use crate::frame::{FrameDecoder, encode_payload};
use crate::rank::Seat;
use crate::wire::Body;

use audit_state::Audit;
pub use error::SessionError;
pub use event::AppEvent;
use hello_state::Hello;
use play::Play;
pub use replay_error::{ReplayError, ReplayFault};
use setup_state::{HandshakeWait, Setup};
use shared::Core;
pub use timers::{DEFAULT_GRACE, LATENCY_BOUND, PAIRING_TIMEOUT};
use timers::{Timer, TimerTable};
pub use verdict::Verdict;

/// Messages after the end of the game (other than the awaited reveal) that
/// are read before the peer is blamed for flooding.
pub const MAX_AFTER_END: u32 = 16;

/// Where the session is: each stage holds what exists only there, and hands
/// it on to the next.
#[derive(Clone)]
enum Stage {
    /// Hellos and nonces.
    Hello(Hello),
    /// The pairing code, the commitments, an open game's reveal.
    Setup(Box<Setup>),
    /// The game.
    Play(Box<Play>),
    /// The game is over: waiting for the peer's reveal.
    Audit(Box<Audit>),
    /// The verdict is in: nothing more to do.
    Done(Box<Done>),
}

impl Default for Stage {
    /// A guest's first stage (also what a stage is swapped with while it
    /// moves on).
    fn default() -> Stage {
        Stage::Hello(Hello::GuestWaits)
    }
}

#[derive(Clone)]
struct Done {
    verdict: Verdict,
    /// The final board, if play began.
    view: Option<PlayerView>,
}

/// One side of a game.
#[derive(Clone)]
pub struct Session {
    core: Core,
    decoder: FrameDecoder,
    stage: Stage,
    timers: TimerTable,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("seat", &self.core.seat)
            .field("stage", &self.stage_name())
            .field("result", &self.result())
            .finish_non_exhaustive()
    }
}

/// Checks a layout against the rules (a flip game shuffles the board and ignores it).
fn validate(rules: &Rules, layout: &Layout) -> Result<(), SessionError> {
    match rules.mode {
        RulesMode::Dark | RulesMode::Open => layout
            .validate(rules)
            .map(|_| ())
            .map_err(SessionError::BadLayout),
        RulesMode::Flip => Ok(()),
    }
}

impl Session {
    /// A host proposing `rules` and playing `layout` (ignored in flip games).
    ///
    /// # Errors
    /// An illegal layout.
    pub fn host(
        now: Instant,
        rules: Rules,
        layout: Layout,
        key: &SigningKey,
        seed: Seed,
        nonce: [u8; 32],
        name: &str,
    ) -> Result<Session, SessionError> {
        let t = Transcript::new(Seat::Host, key);
        Session::host_with(now, rules, layout, t, seed, nonce, name)
    }

    fn host_with(
        now: Instant,
        rules: Rules,
        layout: Layout,
        transcript: Transcript,
        seed: Seed,
        nonce: [u8; 32],
        name: &str,
    ) -> Result<Session, SessionError> {
        if let Some(problem) = rules.two_player_problem() {
            return Err(SessionError::Unplayable(problem));
        }
        validate(&rules, &layout)?;
        let mut core = Core::new(Seat::Host, rules, transcript, seed, nonce, name);
        core.layout = Some(layout);
        let hello = Body::Hello {
            key: core.transcript.public_key().to_bytes(),
            nonce: nonce_commitment(&nonce),
            rules,
            name: core.name.clone(),
        };
        core.send(hello);
        let mut s = Session::with(core, Stage::Hello(Hello::HostWaits { layout }));
        s.rearm(now);
        Ok(s)
    }

    /// A guest waiting for the host's hello.
    #[must_use]
    pub fn join(
        now: Instant,
        key: &SigningKey,
        seed: Seed,
        nonce: [u8; 32],
        name: &str,
    ) -> Session {
        Session::join_with(now, Transcript::new(Seat::Guest, key), seed, nonce, name)
    }

    fn join_with(
        now: Instant,
        transcript: Transcript,
        seed: Seed,
        nonce: [u8; 32],
        name: &str,
    ) -> Session {
        let core = Core::new(Seat::Guest, Rules::default(), transcript, seed, nonce, name);
        let mut s = Session::with(core, Stage::Hello(Hello::GuestWaits));
        s.rearm(now);
        s
    }

    fn with(core: Core, stage: Stage) -> Session {
        Session {
            core,
            decoder: FrameDecoder::new(),
            stage,
            timers: TimerTable::default(),
        }
    }

    /// Makes this side a scripted cheater (test harness only).
    #[cfg(feature = "testing")]
    pub fn set_cheats(&mut self, cheats: Cheats) {
        self.core.cheats = cheats;
    }

    /// Plays a move without checking it against this side's own view
    /// (scripted cheaters only).
    ///
    /// # Errors
    /// Not this side's turn.
    #[cfg(feature = "testing")]
    pub fn play_unchecked(&mut self, now: Instant, m: Move) -> Result<(), SessionError> {
        if !self.my_turn() {
            return Err(SessionError::NotYourTurn);
        }
        self.in_play(now, |p, c| p.play_inner(c, now, m))
            .unwrap_or(Err(SessionError::NotYourTurn))?;
        self.rearm(now);
        Ok(())
    }

    /// Signs and frames an arbitrary body as this side's next message without
    /// acting on it (fuzzing and scripted cheaters only).
    #[cfg(feature = "testing")]
    pub fn forge(&mut self, body: Body) -> Option<Vec<u8>> {
        let env = self.core.transcript.seal(body).ok()?;
        crate::frame::encode_frame(&env).ok()
    }

    /// Signs and frames an arbitrary body as this side's next message,
    /// acknowledging only `ack_seq` of the peer's messages, without acting on
    /// it (scripted cheaters only: a claim that pretends not to have seen a move).
    #[cfg(feature = "testing")]
    pub fn forge_acking(&mut self, body: Body, ack_seq: u64) -> Option<Vec<u8>> {
        let env = self.core.transcript.seal_acking(body, ack_seq).ok()?;
        crate::frame::encode_frame(&env).ok()
    }

    /// Messages this side has received from the peer.
    #[must_use]
    pub fn received_count(&self) -> u64 {
        self.core.transcript.counts().1
    }

    /// Sets the extra time allowed to the peer beyond its move clock.
    pub fn set_grace(&mut self, grace: Duration) {
        self.core.grace = grace;
    }

    // ----- accessors -------------------------------------------------------

    /// This side.
    #[must_use]
    pub fn side(&self) -> Side {
        self.core.me
    }

    /// The rules (the host's proposal until accepted).
    #[must_use]
    pub fn rules(&self) -> &Rules {
        &self.core.rules
    }

    /// The layout this side plays (set by the host at the start, by the guest
    /// when it accepts; [`Session::set_layout`] may replace it until the
    /// pairing is confirmed).
    #[must_use]
    pub fn layout(&self) -> Option<Layout> {
        self.core.layout
    }

    /// The game id (zeros until both hellos are known).
    #[must_use]
    pub fn game_id(&self) -> Digest {
        self.core.game_id
    }

    /// The peer's ed25519 key (zeros until its hello).
    #[must_use]
    pub fn peer_key(&self) -> [u8; 32] {
        self.core.peer_key
    }

    /// What this side knows of the game, once play has begun.
    #[must_use]
    pub fn view(&self) -> Option<&PlayerView> {
        match &self.stage {
            Stage::Play(p) => Some(p.view()),
            Stage::Audit(a) => a.view(),
            Stage::Done(d) => d.view.as_ref(),
            Stage::Hello(_) | Stage::Setup(_) => None,
        }
    }

    /// The result, once the game is over.
    #[must_use]
    pub fn result(&self) -> Option<GameResult> {
        match &self.stage {
            Stage::Audit(a) => Some(a.result()),
            Stage::Done(d) => d.verdict.result,
            Stage::Hello(_) | Stage::Setup(_) | Stage::Play(_) => None,
        }
    }

    /// The audit's verdict, once both sides have opened.
    #[must_use]
    pub fn verdict(&self) -> Option<&Verdict> {
        match &self.stage {
            Stage::Done(d) => Some(&d.verdict),
            _ => None,
        }
    }

    /// The signed log: every message sent and received, in processing order.
    #[must_use]
    pub fn log(&self) -> &[Envelope<Body>] {
        &self.core.log
    }

    /// Whether the session has nothing more to do.
    #[must_use]
    pub fn is_done(&self) -> bool {
        matches!(self.stage, Stage::Done(_))
    }

    /// Whether this side may play a move now.
    #[must_use]
    pub fn my_turn(&self) -> bool {
        match &self.stage {
            // A restored side moves once the peer's stream start resynchronised it.
            Stage::Play(p) => p.my_turn(self.core.me) && !self.core.resync_pending,
            _ => false,
        }
    }

    /// The pairing code, once both nonces are known.
    #[must_use]
    pub fn pairing(&self) -> Option<String> {
        (self.core.game_id != ZERO_DIGEST).then(|| pairing_code(&self.core.game_id))
    }

    fn stage_name(&self) -> &'static str {
        match &self.stage {
            Stage::Hello(h) => h.name(),
            Stage::Setup(s) => s.name(),
            Stage::Play(_) => "play",
            Stage::Audit(_) => "audit",
            Stage::Done(_) => "done",
        }
    }

    // ----- sans-IO plumbing -------------------------------------------------

    /// Next bytes to send to the peer.
    pub fn poll_transmit(&mut self) -> Option<Vec<u8>> {
        self.core.out.pop_front()
    }

    /// Next event for the app.
    pub fn poll_event(&mut self) -> Option<AppEvent> {
        self.core.events.pop_front()
    }

    /// When to call [`Session::handle_timeout`] next.
    #[must_use]
    pub fn poll_timeout(&self) -> Option<Instant> {
        self.timers.next()
    }

    /// Feeds bytes received from the peer's stream.
    pub fn handle_bytes(&mut self, now: Instant, bytes: &[u8]) {
        if self.is_done() {
            return;
        }
        self.decoder.push(bytes);
        loop {
            match self.decoder.next_frame::<Envelope<Body>>() {
                Ok(Some(env)) => self.handle_envelope(now, env),
                Ok(None) => break,
                Err(e) => {
                    let peer = self.core.peer();
                    self.fault(now, peer, FaultKind::BadFrame(e), Evidence::Stream);
                    break;
                }
            }
            if self.is_done() {
                break;
            }
        }
    }

    /// The stream from the peer ended (or the connection dropped).
    pub fn handle_close(&mut self, now: Instant) {
        if self.is_done() {
            return;
        }
        if let Err(e) = self.decoder.finish() {
            let peer = self.core.peer();
            self.fault(now, peer, FaultKind::BadFrame(e), Evidence::Stream);
        }
    }

    /// Feeds one decoded envelope (transports that frame themselves, tests).
    pub fn handle_envelope(&mut self, now: Instant, env: Envelope<Body>) {
        if self.is_done() {
            return;
        }
        let peer = self.core.peer();
        if let Body::Hello { key, .. } = &env.body
            && self.stage_awaits_hello()
            && self.core.transcript.counts().1 == 0
        {
            match VerifyingKey::from_bytes(key) {
                Ok(k) => self.core.transcript.set_peer_key(k),
                Err(_) => {
                    return self.fault(now, peer, FaultKind::BadKey, Evidence::Hello);
                }
            }
        }
        if let Err(e) = self.core.transcript.accept(&env) {
            let seq = env.header.seq;
            return self.fault(now, peer, FaultKind::RefusedMessage(e), Evidence::Seq(seq));
        }
        let header = env.header;
        let body = env.body.clone();
        // Signed and chained: kept as evidence even when it is malformed.
        self.core.log.push(env);
        if let Err(e) = body.check_bounds() {
            let seq = header.seq;
            return self.fault(
                now,
                peer,
                FaultKind::Malformed {
                    kind: body.kind(),
                    bound: e,
                },
                Evidence::Seq(seq),
            );
        }
        self.on_body(now, &header, body);
        self.rearm(now);
    }

    /// Call when the instant from [`Session::poll_timeout`] has come.
    pub fn handle_timeout(&mut self, now: Instant) {
        if self.core.resync_pending {
            // Restored and not yet resynchronised: a claim now could reuse a sequence number.
            return;
        }
        // Every expired timer fires, earliest first (what fires re-arms only
        // later deadlines; the bound is a safeguard).
        for _ in 0..timers::COUNT {
            let Some(timer) = self.timers.expired(now) else {
                return;
            };
            self.timers.stop(timer);
            self.on_timer(now, timer);
            self.rearm(now);
        }
    }

    fn on_timer(&mut self, now: Instant, timer: Timer) {
        match timer {
            Timer::Handshake => {
                // An open game's reveal withheld after this side opened its
                // own: the peer holds this setup and keeps its own closed.
                if matches!(&self.stage, Stage::Setup(s) if s.revealed()) {
                    let peer = self.core.peer();
                    let evidence = Evidence::NoRevealAfterOwn(peer);
                    let f = self
                        .core
                        .record_fault(peer, FaultKind::RefusedToOpen, evidence);
                    return self.conclude(Verdict {
                        result: None,
                        cheater: Some(f.culprit),
                        reason: Some(f.reason),
                        evidence: Some(f.evidence),
                        record: None,
                    });
                }
                self.conclude(Verdict::not_begun(FaultKind::NoHandshake));
            }
            Timer::Pairing => self.conclude(Verdict::not_begun(FaultKind::PairingTimeout)),
            Timer::ClaimPeer => {
                self.in_play(now, |p, c| p.claim_overdue(c, now));
            }
            Timer::MyClock => {
                self.in_play(now, |p, c| p.my_clock_ran_out(c, now));
            }
            Timer::PeerReveal => self.no_reveal(),
        }
    }

    /// Runs `f` on the play stage, then ends the game if it ended there.
    fn in_play<R>(&mut self, now: Instant, f: impl FnOnce(&mut Play, &mut Core) -> R) -> Option<R> {
        let Stage::Play(p) = &mut self.stage else {
            return None;
        };
        if self.core.resync_pending {
            return None;
        }
        let r = f(p, &mut self.core);
        self.settle(now);
        Some(r)
    }

    /// Recomputes what is owed and every timer from the stage: the timers
    /// each stage needs are armed, the others stopped.
    fn rearm(&mut self, now: Instant) {
        let c = &self.core;
        let move_time = c.move_time();
        let old = self.timers;
        let mut t = TimerTable::default();
        // Kept when armed already, so that unrelated traffic does not extend it.
        let keep = |t: &mut TimerTable, timer: Timer, at: Instant| {
            t.set(timer, old.get(timer).unwrap_or(at));
        };
        match &mut self.stage {
            Stage::Hello(h) => {
                if h.awaits_peer() {
                    t.set(Timer::Handshake, now + move_time + c.grace);
                }
            }
            Stage::Setup(s) => {
                if s.awaits_pairing() {
                    keep(&mut t, Timer::Pairing, now + PAIRING_TIMEOUT);
                }
                match s.handshake_wait() {
                    // The other player compares the codes: allow a person's time.
                    Some(HandshakeWait::Person) => {
                        keep(&mut t, Timer::Handshake, now + move_time * 2 + c.grace)
                    }
                    Some(HandshakeWait::Program) => {
                        t.set(Timer::Handshake, now + move_time + c.grace);
                    }
                    None => {}
                }
            }
            Stage::Play(p) => {
                p.update_debt(c, now);
                if let Some((timer, at)) = p.timer(c) {
                    t.set(timer, at);
                }
            }
            Stage::Audit(_) => keep(&mut t, Timer::PeerReveal, now + move_time + c.grace),
            Stage::Done(_) => {}
        }
        self.timers = t;
    }

    /// A fault, blamed on `culprit`: before play the game ends unplayed; in
    /// play this side disputes and wins by forfeit (the audit follows);
    /// after the end it goes into the verdict.
    fn fault(&mut self, now: Instant, culprit: Side, reason: FaultKind, evidence: Evidence) {
        match &mut self.stage {
            Stage::Play(p) => {
                p.fault(&mut self.core, culprit, reason, evidence);
                self.settle(now);
            }
            Stage::Setup(s) if s.revealed() => {
                self.core.record_fault(culprit, reason.clone(), evidence);
                self.core.dispute(&reason);
                self.finish_setup(
                    now,
                    GameResult::Win {
                        winner: culprit.opponent(),
                        reason: junqi_game::WinReason::Forfeit,
                    },
                );
            }
            Stage::Hello(_) | Stage::Setup(_) => {
                let f = self.core.record_fault(culprit, reason, evidence);
                self.conclude(Verdict {
                    result: None,
                    cheater: Some(f.culprit),
                    reason: Some(f.reason),
                    evidence: Some(f.evidence),
                    record: None,
                });
            }
            Stage::Audit(a) => {
                // A side that has not opened yet says why it stops, so that
                // its log does not read as a refusal to open.
                if self.core.fault.is_none() && !a.revealed() {
                    self.core.dispute(&reason);
                }
                self.core.record_fault(culprit, reason, evidence);
                if let Some(v) = self.try_verdict() {
                    self.conclude(v);
                }
            }
            Stage::Done(_) => {
                self.core.record_fault(culprit, reason, evidence);
            }
        }
    }

    /// A message that is not owed now, or not from its sender: blamed on the
    /// peer, its signed message (already in the log) the evidence.
    fn violation(&mut self, now: Instant, header: &Header, kind: FaultKind) {
        let peer = self.core.peer();
        let seq = header.seq;
        self.fault(now, peer, kind, Evidence::message(peer, seq));
    }

    fn conclude(&mut self, v: Verdict) {
        let view = match std::mem::take(&mut self.stage) {
            Stage::Audit(a) => a.into_view(),
            Stage::Done(d) => d.view,
            Stage::Play(p) => Some(p.into_view()),
            Stage::Hello(_) | Stage::Setup(_) => None,
        };
        self.stage = Stage::Done(Box::new(Done {
            verdict: v.clone(),
            view,
        }));
        self.timers.stop_all();
        self.core.events.push_back(AppEvent::Verdict(v));
    }

    /// A received message, to the stage it belongs to.
    fn on_body(&mut self, now: Instant, header: &Header, body: Body) {
        match &self.stage {
            Stage::Hello(_) => self.on_hello(now, header, body),
            Stage::Setup(_) => self.on_setup(now, header, body),
            Stage::Play(_) => {
                self.in_play(now, |p, c| p.on_body(c, now, header, body));
            }
            Stage::Audit(_) => self.on_after_end(now, header, body),
            Stage::Done(_) => {}
        }
    }

    // ----- app requests ----------------------------------------------------

    /// Plays a move (a step or an attack).
    ///
    /// # Errors
    /// Not this side's turn, an illegal move or an expired clock.
    pub fn play(&mut self, now: Instant, m: Move) -> Result<(), SessionError> {
        self.in_play(now, |p, c| p.play(c, now, m))
            .unwrap_or(Err(SessionError::WrongPhase))?;
        self.rearm(now);
        Ok(())
    }

    /// Offers a draw (on this side's turn, before moving).
    ///
    /// # Errors
    /// Not this side's turn.
    pub fn offer_draw(&mut self, now: Instant) -> Result<(), SessionError> {
        self.in_play(now, |p, c| p.offer_draw(c, now))
            .unwrap_or(Err(SessionError::NotYourTurn))?;
        self.rearm(now);
        Ok(())
    }

    /// Accepts the peer's standing draw offer.
    ///
    /// # Errors
    /// No offer stands.
    pub fn accept_draw(&mut self, now: Instant) -> Result<(), SessionError> {
        self.in_play(now, |p, c| p.accept_draw(c))
            .unwrap_or(Err(SessionError::WrongPhase))
    }

    /// Declines the peer's standing draw offer.
    ///
    /// # Errors
    /// No offer stands.
    pub fn decline_draw(&mut self, now: Instant) -> Result<(), SessionError> {
        self.in_play(now, |p, c| p.decline_draw(c, now))
            .unwrap_or(Err(SessionError::WrongPhase))?;
        self.rearm(now);
        Ok(())
    }

    /// Resigns.
    ///
    /// # Errors
    /// Too early, or not playing.
    pub fn resign(&mut self, now: Instant) -> Result<(), SessionError> {
        self.in_play(now, |p, c| p.resign(c))
            .unwrap_or(Err(SessionError::WrongPhase))
    }

    fn stage_awaits_hello(&self) -> bool {
        matches!(&self.stage, Stage::Hello(h) if h.awaits_hello())
    }
}

/// The host's commitment to its hello nonce.
#[must_use]
pub fn nonce_commitment(nonce: &[u8; 32]) -> [u8; 32] {
    h(ctx::NONCE, &[nonce])
}

/// The pairing code both screens show, from the game id (both keys and both
/// nonces): six digits. The host commits to its nonce before the guest
/// chooses its own and opens it only after, so a relay that talks to each
/// side with its own keys fixes both codes before it can see either result;
/// the two match by chance only (one in a million), never by grinding.
#[must_use]
pub fn pairing_code(game_id: &Digest) -> String {
    let d = h(ctx::PAIRING, &[game_id]);
    let n = u32::from_le_bytes([d[0], d[1], d[2], d[3]]) % 1_000_000;
    format!("{:03}-{:03}", n / 1000, n % 1000)
}

/// The game id: `H("junqi v1 game", version, settings, pkA, pkB, nonceA, nonceB)`.
#[must_use]
pub fn game_id(
    rules: &Rules,
    host: (&[u8; 32], &[u8; 32]),
    guest: (&[u8; 32], &[u8; 32]),
) -> Digest {
    let settings = encode_payload(rules).expect("rules encode");
    h(
        ctx::GAME,
        &[
            &PROTOCOL_VERSION.to_le_bytes(),
            &settings,
            host.0,
            guest.0,
            host.1,
            guest.1,
        ],
    )
}
