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

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use ed25519_dalek::{SigningKey, VerifyingKey};
use junqi_game::{
    Action, Board, DrawReason, Event, Game, GameResult, Layout, Mode, Move, PlayerView, Point,
    PointKind, Record, Rules, Seen, Setup, Side, WinReason,
};

use crate::audit::{Act, AuditInput, Fault, audit};
pub use crate::cheats::{Cheats, Rewrite};
use crate::commit::{PieceOpening, SetupCommitment, seed_commitment, verify_reveal};
use crate::crypto::{Digest, Seed, ZERO_DIGEST, ctx, h};
use crate::envelope::{Envelope, Header, PROTOCOL_VERSION, Transcript};
use crate::fault::FaultKind;
use crate::flip::{FLIP_SIZE, FlipLayer, FlipOpening, FlipVerifier, layer_of, permutation};
use crate::frame::{FrameDecoder, encode_frame, encode_payload};
use crate::ot::{Attacker, Defender, OtKey, PeerKey, battle_context};
use crate::outcome::OutcomeTable;
use crate::rank::{Rank, Seat};
use crate::wire::{
    Body, announcement_of, layout_of, rank_from_game, side_of, slot_point, slots_of,
    table_from_rules,
};

/// The one-way network latency the protocol tolerates. The waiting side
/// claims a timeout or a forfeit only a round trip (two graces) after the
/// other side's own deadline; the other side accepts a claim only once its
/// own deadline has passed on its own clock. With one-way latencies up to the
/// grace, an honest side's message therefore never crosses an honest claim.
pub const DEFAULT_GRACE: Duration = Duration::from_secs(2);

/// Messages after the end of the game (other than the awaited reveal) that
/// are read before the peer is blamed for flooding.
pub const MAX_AFTER_END: u32 = 16;

/// What the app learns from the session.
#[derive(Clone, Debug, PartialEq)]
pub enum AppEvent {
    /// Both nonces are in: show this code and ask the player to compare it
    /// with the other screen; call [`Session::confirm_pairing`] when they
    /// match. Nothing about the setup is sent before that.
    PairingCode {
        /// Six digits, `"123-456"`.
        code: String,
    },
    /// Guest: the host proposes these rules; call [`Session::accept`] to join.
    RulesOffered {
        /// The rules.
        rules: Rules,
        /// The host's display name.
        peer_name: String,
    },
    /// Both setups are committed: play begins.
    Started {
        /// This side.
        me: Side,
        /// Who moves first.
        first: Side,
        /// The game id.
        game_id: Digest,
    },
    /// A public event, already applied to [`Session::view`].
    Game(Event),
    /// It is this side's turn.
    YourTurn,
    /// This side's move clock ran out; the peer will claim the timeout.
    TimeExpired,
    /// The peer offers a draw: answer with [`Session::accept_draw`] or
    /// [`Session::decline_draw`].
    DrawOffered,
    /// The peer broke the protocol; the game ends and the audit runs.
    Fault {
        /// Who cheated.
        culprit: Side,
        /// What was seen.
        reason: FaultKind,
    },
    /// The game is over (the audit follows).
    Finished(GameResult),
    /// The end-of-game audit.
    Verdict(Verdict),
}

/// The outcome of the end-of-game audit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The game result as played.
    pub result: Option<GameResult>,
    /// The cheater, if any.
    pub cheater: Option<Side>,
    /// Why (`None` for a clean game; [`FaultKind::NoHandshake`] with no cheater when the
    /// game never began).
    pub reason: Option<FaultKind>,
    /// Where the evidence is: which signed message or commitment.
    pub evidence: String,
    /// A clean game's whole record as the audit rebuilt it (both setups, every action): the
    /// full board for a replay. `None` when the audit found a cheat or did not run.
    pub record: Option<Box<Record>>,
}

impl Verdict {
    /// Whether the audit found nothing wrong.
    #[must_use]
    pub fn is_clean(&self) -> bool {
        self.cheater.is_none()
    }
}

/// Why a local request was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    /// Not in a phase where this is possible.
    #[error("not possible now")]
    WrongPhase,
    /// Not this side's turn.
    #[error("not your turn")]
    NotYourTurn,
    /// The move is not legal.
    #[error("illegal move")]
    Illegal,
    /// The layout breaks the setup rules.
    #[error("illegal layout: {0}")]
    BadLayout(String),
    /// Resigning is not allowed yet.
    #[error("resigning is not allowed yet")]
    ResignTooEarly,
    /// The move clock ran out.
    #[error("the move clock ran out")]
    TimeExpired,
    /// A draw was already offered this turn.
    #[error("a draw was already offered this turn")]
    AlreadyOffered,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Hello,
    Accept,
    /// Guest: waiting for the host to open its nonce.
    Nonce,
    /// Both nonces known: waiting for the player to confirm the pairing code
    /// (the peer's commitment may already arrive).
    Pairing,
    Commit,
    OpenReveal,
    Play,
    Audit,
    Done,
}

#[derive(Clone, Debug)]
enum Pending {
    None,
    MyAttack {
        att: Attacker,
        from: Point,
        to: Point,
        act: usize,
    },
    PeerAttack {
        def: Defender,
        from: Point,
        to: Point,
        act: usize,
    },
    PeerFlag,
    /// Flip games: a move that turns a face-down piece over waits for the
    /// shuffle openings of its point (`index`): the guest's entry gives
    /// `slot`, the host's entry of `slot` gives the piece. The guest opens
    /// for its own move only after the host's [`Body::Proceed`].
    Opening {
        mover: Side,
        m: Move,
        index: u8,
        slot: Option<u8>,
    },
    MyDrawOffer,
    PeerDrawOffer,
    MyNoMoves,
}

/// The state before this side's last plain move, to roll it back if it
/// crossed the peer's timeout claim.
#[derive(Clone, Debug)]
struct Snapshot {
    ply: u16,
    /// When this side's turn at `ply` began (its move clock).
    since: Instant,
    view: PlayerView,
    acts: usize,
    /// Games with a local referee: the referee and the flip arrangement.
    referee: Option<(Game, [u8; FLIP_SIZE])>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wait {
    Handshake,
    /// The peer's debt is overdue by a round trip: claim.
    PeerDue,
    PeerReveal,
    /// This side's own debt is due (its move clock, its draw answer).
    MyDue,
}

/// What is owed next in play: the only messages accepted from the peer are
/// those it owes (plus a resignation or a dispute at any time), and a claim
/// against a side is valid only once what it owes is overdue on its own clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Due {
    /// A move (or a draw offer, a no-moves claim) on its turn: the move clock.
    Move,
    /// An answer to a draw offer: the move clock.
    Answer,
    /// An automatic reply inside an action (a table, a label, a flag or flip
    /// opening, a no-moves reply): an honest side sends it at once.
    Reply,
}

/// A debt and when it began on this side's clock: for the peer's debts when
/// this side sent what caused it, for its own when that arrived.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Debt {
    by: Side,
    due: Due,
    ply: u16,
    since: Instant,
}

#[derive(Clone, Debug)]
struct PeerCommit {
    pieces: Vec<Digest>,
    seed: Digest,
    ot: PeerKey,
    ot_bytes: [u8; 32],
}

/// One side of a game.
#[derive(Clone)]
pub struct Session {
    seat: Seat,
    me: Side,
    name: String,
    grace: Duration,
    transcript: Transcript,
    decoder: FrameDecoder,
    seed: Seed,
    nonce: [u8; 32],
    peer_nonce: [u8; 32],
    peer_key: [u8; 32],
    rules: Rules,
    table: OutcomeTable,
    layout: Option<Layout>,
    phase: Phase,
    game_id: Digest,
    first: Side,
    my_commit: Option<SetupCommitment>,
    ot_key: OtKey,
    peer_commit: Option<PeerCommit>,
    view: Option<PlayerView>,
    referee: Option<Game>,
    pending: Pending,
    acts: Vec<Act>,
    log: Vec<Envelope<Body>>,
    out: VecDeque<Vec<u8>>,
    events: VecDeque<AppEvent>,
    deadline: Option<(Instant, Wait)>,
    /// What is owed now (play only).
    debt: Option<Debt>,
    /// Which step of an action the debt belongs to (a new step, a new debt).
    debt_step: u8,
    /// When this side's latest turn began: a timeout claim that crossed this
    /// side's move is judged from it.
    turn_since: Instant,
    my_time_expired: bool,
    /// The ply of each side's last draw offer (one offer a turn).
    offered: [Option<u16>; 2],
    /// Host: its hello nonce commitment; guest: the host's, until opened.
    nonce_commit: [u8; 32],
    /// Whether the player confirmed the pairing code.
    confirmed: bool,
    /// Messages read after the end of the game.
    after_end: u32,
    /// Rebuilding from a saved log: claims are not checked against the clock
    /// (the live session already checked them, and its answer is in the log).
    replaying: bool,
    /// Rebuilding: the side refused the message being replayed (its next own
    /// logged message is a dispute), so a claim failed its clock check then.
    replay_refuses: bool,
    /// Rebuilding: the side's fault came from a logged dispute that the log
    /// itself does not support.
    fault_unsupported: bool,
    claim_seq: Option<u64>,
    snapshot: Option<Snapshot>,
    result: Option<GameResult>,
    fault: Option<Fault>,
    peer_disputed: bool,
    peer_reveal: Option<(Seed, Vec<Rank>)>,
    verdict: Option<Verdict>,
    #[cfg(feature = "testing")]
    cheats: Cheats,
    /// Messages of each kind sent so far (for [`Cheats::rewrites`]).
    #[cfg(feature = "testing")]
    sent_kinds: std::collections::HashMap<&'static str, usize>,
    deferred_flag: Option<Event>,
    /// Flip games: this side's shuffle layer.
    flip_mine: Option<FlipLayer>,
    /// Flip games: the checker of the peer's layer.
    flip_peer: Option<FlipVerifier>,
    /// Flip games: the arrangement the local referee plays from. Opened
    /// points hold their true piece; the rest hold the unopened pieces in an
    /// arbitrary order (only their multiset is public, and only it matters
    /// to the rules until a point is opened).
    flip_arrangement: [u8; FLIP_SIZE],
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("seat", &self.seat)
            .field("phase", &self.phase)
            .field("result", &self.result)
            .finish_non_exhaustive()
    }
}

#[cfg(not(feature = "testing"))]
static NO_CHEATS: Cheats = Cheats::NONE;

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
        if rules.mode != Mode::Flip {
            layout
                .validate(&rules)
                .map_err(|e| SessionError::BadLayout(e.to_string()))?;
        }
        let mut s = Session::new(now, Seat::Host, rules, transcript, seed, nonce, name);
        s.layout = Some(layout);
        let hello = Body::Hello {
            key: s.transcript.public_key().to_bytes(),
            nonce: s.nonce_commit,
            rules,
            name: s.name.clone(),
        };
        s.send(hello);
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
        let mut s = Session::new(
            now,
            Seat::Guest,
            Rules::default(),
            transcript,
            seed,
            nonce,
            name,
        );
        s.rearm(now);
        s
    }

    fn new(
        now: Instant,
        seat: Seat,
        rules: Rules,
        transcript: Transcript,
        seed: Seed,
        nonce: [u8; 32],
        name: &str,
    ) -> Session {
        let ot_key = OtKey::from_seed(&seed);
        Session {
            seat,
            me: side_of(seat),
            name: name.chars().take(32).collect(),
            grace: DEFAULT_GRACE,
            transcript,
            decoder: FrameDecoder::new(),
            seed,
            nonce,
            peer_nonce: [0; 32],
            peer_key: [0; 32],
            rules,
            table: table_from_rules(&rules),
            layout: None,
            phase: Phase::Hello,
            game_id: ZERO_DIGEST,
            first: Side::South,
            my_commit: None,
            ot_key,
            peer_commit: None,
            view: None,
            referee: None,
            pending: Pending::None,
            acts: Vec::new(),
            log: Vec::new(),
            out: VecDeque::new(),
            events: VecDeque::new(),
            deadline: None,
            debt: None,
            debt_step: 0,
            turn_since: now,
            my_time_expired: false,
            offered: [None; 2],
            nonce_commit: nonce_commitment(&nonce),
            confirmed: false,
            after_end: 0,
            replaying: false,
            replay_refuses: false,
            fault_unsupported: false,
            claim_seq: None,
            snapshot: None,
            result: None,
            fault: None,
            peer_disputed: false,
            peer_reveal: None,
            verdict: None,
            #[cfg(feature = "testing")]
            cheats: Cheats::default(),
            #[cfg(feature = "testing")]
            sent_kinds: std::collections::HashMap::new(),
            deferred_flag: None,
            flip_mine: None,
            flip_peer: None,
            flip_arrangement: std::array::from_fn(|i| i as u8),
        }
    }

    /// Makes this side a scripted cheater (test harness only).
    #[cfg(feature = "testing")]
    pub fn set_cheats(&mut self, cheats: Cheats) {
        self.cheats = cheats;
    }

    #[cfg(feature = "testing")]
    fn cheats(&self) -> &Cheats {
        &self.cheats
    }

    #[cfg(not(feature = "testing"))]
    #[allow(clippy::unused_self)]
    fn cheats(&self) -> &'static Cheats {
        &NO_CHEATS
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
        self.play_inner(now, m)
    }

    /// Signs and frames an arbitrary body as this side's next message without
    /// acting on it (fuzzing and scripted cheaters only).
    #[cfg(feature = "testing")]
    pub fn forge(&mut self, body: Body) -> Option<Vec<u8>> {
        let env = self.transcript.seal(body).ok()?;
        encode_frame(&env).ok()
    }

    /// Sets the extra time allowed to the peer beyond its move clock.
    pub fn set_grace(&mut self, grace: Duration) {
        self.grace = grace;
    }

    // ----- accessors -------------------------------------------------------

    /// This side.
    #[must_use]
    pub fn side(&self) -> Side {
        self.me
    }

    /// The rules (the host's proposal until accepted).
    #[must_use]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The game id (zeros until both hellos are known).
    #[must_use]
    pub fn game_id(&self) -> Digest {
        self.game_id
    }

    /// The peer's ed25519 key (zeros until its hello).
    #[must_use]
    pub fn peer_key(&self) -> [u8; 32] {
        self.peer_key
    }

    /// What this side knows of the game, once play has begun.
    #[must_use]
    pub fn view(&self) -> Option<&PlayerView> {
        self.view.as_ref()
    }

    /// The result, once the game is over.
    #[must_use]
    pub fn result(&self) -> Option<GameResult> {
        self.result
    }

    /// The audit's verdict, once both sides have opened.
    #[must_use]
    pub fn verdict(&self) -> Option<&Verdict> {
        self.verdict.as_ref()
    }

    /// The signed log: every message sent and received, in processing order.
    #[must_use]
    pub fn log(&self) -> &[Envelope<Body>] {
        &self.log
    }

    /// Whether the session has nothing more to do.
    #[must_use]
    pub fn is_done(&self) -> bool {
        self.phase == Phase::Done
    }

    /// Whether this side may play a move now.
    #[must_use]
    pub fn my_turn(&self) -> bool {
        self.phase == Phase::Play
            && matches!(self.pending, Pending::None)
            && self
                .view
                .as_ref()
                .is_some_and(|v| v.turn() == self.me && v.result().is_none())
    }

    // ----- sans-IO plumbing -------------------------------------------------

    /// Next bytes to send to the peer.
    pub fn poll_transmit(&mut self) -> Option<Vec<u8>> {
        self.out.pop_front()
    }

    /// Next event for the app.
    pub fn poll_event(&mut self) -> Option<AppEvent> {
        self.events.pop_front()
    }

    /// When to call [`Session::handle_timeout`] next.
    #[must_use]
    pub fn poll_timeout(&self) -> Option<Instant> {
        self.deadline.map(|(t, _)| t)
    }

    /// Feeds bytes received from the peer's stream.
    pub fn handle_bytes(&mut self, now: Instant, bytes: &[u8]) {
        if self.phase == Phase::Done {
            return;
        }
        self.decoder.push(bytes);
        loop {
            match self.decoder.next_frame::<Envelope<Body>>() {
                Ok(Some(env)) => self.handle_envelope(now, env),
                Ok(None) => break,
                Err(e) => {
                    self.fault(
                        now,
                        self.me.opponent(),
                        FaultKind::BadFrame(e),
                        "stream".into(),
                    );
                    break;
                }
            }
            if self.phase == Phase::Done {
                break;
            }
        }
    }

    /// The stream from the peer ended (or the connection dropped).
    pub fn handle_close(&mut self, now: Instant) {
        if self.phase == Phase::Done {
            return;
        }
        if let Err(e) = self.decoder.finish() {
            self.fault(
                now,
                self.me.opponent(),
                FaultKind::BadFrame(e),
                "stream".into(),
            );
        }
    }

    /// Feeds one decoded envelope (transports that frame themselves, tests).
    pub fn handle_envelope(&mut self, now: Instant, env: Envelope<Body>) {
        if self.phase == Phase::Done {
            return;
        }
        let peer = self.me.opponent();
        if let Body::Hello { key, .. } = &env.body
            && self.phase == Phase::Hello
            && self.transcript.counts().1 == 0
        {
            match VerifyingKey::from_bytes(key) {
                Ok(k) => self.transcript.set_peer_key(k),
                Err(_) => {
                    return self.fault(now, peer, FaultKind::BadKey, "hello".into());
                }
            }
        }
        if let Err(e) = self.transcript.accept(&env) {
            let seq = env.header.seq;
            return self.fault(
                now,
                peer,
                FaultKind::RefusedMessage(e),
                format!("message seq {seq}"),
            );
        }
        let header = env.header;
        let body = env.body.clone();
        // Signed and chained: kept as evidence even when it is malformed.
        self.log.push(env);
        if let Err(e) = body.check_bounds() {
            let seq = header.seq;
            return self.fault(
                now,
                peer,
                FaultKind::Malformed {
                    kind: body.kind(),
                    detail: e,
                },
                format!("message seq {seq}"),
            );
        }
        self.on_body(now, &header, body);
        self.rearm(now);
    }

    /// Call when the instant from [`Session::poll_timeout`] has come.
    pub fn handle_timeout(&mut self, now: Instant) {
        let Some((t, wait)) = self.deadline else {
            return;
        };
        if now < t {
            return;
        }
        self.deadline = None;
        let peer = self.me.opponent();
        match wait {
            Wait::Handshake => {
                self.conclude(Verdict {
                    result: None,
                    cheater: None,
                    reason: Some(FaultKind::NoHandshake),
                    evidence: String::new(),
                    record: None,
                });
            }
            Wait::PeerDue => match self.debt.map(|d| d.due) {
                Some(Due::Move) => self.claim_timeout(now),
                Some(Due::Answer | Due::Reply) => self.claim_forfeit(now),
                None => {}
            },
            Wait::PeerReveal => {
                let v = Verdict {
                    result: self.result,
                    cheater: Some(self.fault.as_ref().map_or(peer, |f| f.culprit)),
                    reason: Some(
                        self.fault
                            .as_ref()
                            .map_or(FaultKind::RefusedToOpen, |f| f.reason.clone()),
                    ),
                    evidence: "no reveal message before the deadline".into(),
                    record: None,
                };
                self.conclude(v);
            }
            Wait::MyDue => match self.debt.map(|d| d.due) {
                Some(Due::Move) => {
                    self.my_time_expired = true;
                    self.events.push_back(AppEvent::TimeExpired);
                }
                // An unanswered offer is declined when the answer falls due,
                // so the offerer never has to claim.
                Some(Due::Answer) => {
                    let _ = self.decline_draw(now);
                }
                Some(Due::Reply) | None => {}
            },
        }
        self.rearm(now);
    }

    fn claim_timeout(&mut self, now: Instant) {
        let ply = self.view.as_ref().map_or(0, PlayerView::ply);
        self.send(Body::ClaimTimeout { ply });
        self.claim_seq = Some(self.transcript.counts().0 - 1);
        self.apply_timeout(now, self.me.opponent());
    }

    fn claim_forfeit(&mut self, now: Instant) {
        self.send(Body::ClaimForfeit);
        self.finish(
            now,
            GameResult::Win {
                winner: self.me,
                reason: WinReason::Forfeit,
            },
        );
    }

    // ----- saving and resuming ----------------------------------------------

    /// What to save after every message (see [`crate::saved`]).
    #[must_use]
    pub fn saved(&self) -> crate::saved::SavedGame {
        crate::saved::SavedGame {
            seat: self.seat,
            rules: self.rules,
            layout: self.layout,
            name: self.name.clone(),
            seed: self.seed.clone(),
            nonce: self.nonce,
            log: self.log.clone(),
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
    /// A log that does not replay to the same messages.
    pub fn restore(
        now: Instant,
        key: &SigningKey,
        saved: &crate::saved::SavedGame,
    ) -> Result<Session, String> {
        let t = Transcript::new(saved.seat, key);
        let mut s = Session::rebuild(now, t, saved, &saved.log).map_err(|e| e.to_string())?;
        s.out.clear();
        s.events.clear();
        if s.phase == Phase::Pairing {
            // Not confirmed before the crash: ask again.
            s.events.push_back(AppEvent::PairingCode {
                code: pairing_code(&s.game_id),
            });
        }
        s.rearm(now);
        if s.my_turn() {
            s.events.push_back(AppEvent::YourTurn);
        }
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
        saved: &crate::saved::SavedGame,
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
        saved: &crate::saved::SavedGame,
        log: &[Envelope<Body>],
    ) -> Result<Session, ReplayError> {
        let seat = saved.seat;
        let fail = |index: usize, what: String| ReplayError { seat, index, what };
        let layout = saved
            .layout
            .ok_or_else(|| fail(0, "no layout saved".into()))?;
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
            .map_err(|e| fail(0, e.to_string()))?,
            Seat::Guest => Session::join_with(
                now,
                transcript,
                saved.seed.clone(),
                saved.nonce,
                &saved.name,
            ),
        };
        s.replaying = true;
        for (i, env) in log.iter().enumerate() {
            if s.is_done() {
                // What the other side sent after this side's verdict was
                // not read by it (a third party's log may hold it).
                break;
            }
            if env.header.sender != s.seat {
                // Whether this side refused what comes now: its next own
                // message is a dispute.
                s.replay_refuses = log[i + 1..]
                    .iter()
                    .find(|e| e.header.sender == seat)
                    .is_some_and(|e| matches!(e.body, Body::Dispute { .. }));
                s.handle_envelope(now, env.clone());
            } else if s.log.len() <= i {
                s.replay_decision(now, &env.body, &layout)
                    .map_err(|e| fail(i, e))?;
            }
            if s.log.get(i) != Some(env) {
                return Err(fail(
                    i,
                    format!("its {} does not follow from the log", env.body.kind()),
                ));
            }
        }
        s.replaying = false;
        s.replay_refuses = false;
        Ok(s)
    }

    fn replay_decision(
        &mut self,
        now: Instant,
        body: &Body,
        layout: &Layout,
    ) -> Result<(), String> {
        let r = match *body {
            Body::Hello { .. } => self.accept(now, *layout),
            Body::Commit { .. } => self.confirm_pairing(now),
            // Checked as a live move is: a log may come from a cheater.
            Body::Step { from, to } | Body::Attack { from, to, .. } => self.play(
                now,
                Move::Step {
                    from: Point(from),
                    to: Point(to),
                },
            ),
            Body::Flip { at } => self.play(now, Move::Flip { at: Point(at) }),
            Body::OfferDraw => self.offer_draw(now),
            Body::AcceptDraw => self.accept_draw(now),
            Body::DeclineDraw => self.decline_draw(now),
            Body::Resign => self.resign(now),
            // Only what the peer owed can have been claimed (when, only the
            // claimant's clock knew).
            Body::ClaimTimeout { .. } => match self.debt {
                Some(d) if d.by != self.me && d.due == Due::Move => {
                    self.claim_timeout(now);
                    Ok(())
                }
                _ => Err(SessionError::WrongPhase),
            },
            Body::ClaimForfeit => match self.debt {
                Some(d) if d.by != self.me && d.due != Due::Move => {
                    self.claim_forfeit(now);
                    Ok(())
                }
                _ => Err(SessionError::WrongPhase),
            },
            Body::Dispute { ref reason } => {
                let peer = self.me.opponent();
                self.fault_unsupported |= self.fault.is_none();
                self.fault(
                    now,
                    peer,
                    FaultKind::OwnDispute(reason.clone()),
                    "replayed dispute".into(),
                );
                Ok(())
            }
            ref other => return Err(format!("cannot replay a {}", other.kind())),
        };
        r.map_err(|e| e.to_string())
    }

    /// The first frame to write on a new stream.
    #[must_use]
    pub fn stream_start(&self) -> Vec<u8> {
        let s = crate::saved::StreamStart {
            game: self.game_id,
            have: self.transcript.counts().1,
        };
        encode_frame(&s).expect("small")
    }

    /// Handles the peer's first frame on a new stream: queues every own
    /// message it has not received, and starts a fresh frame decoder.
    pub fn handle_stream_start(&mut self, now: Instant, start: crate::saved::StreamStart) {
        self.decoder = FrameDecoder::new();
        self.out.clear();
        if start.game != self.game_id && start.game != ZERO_DIGEST && self.game_id != ZERO_DIGEST {
            let peer = self.me.opponent();
            return self.fault(now, peer, FaultKind::OtherGame, "stream start".into());
        }
        let resend: Vec<Vec<u8>> = self
            .log
            .iter()
            .filter(|e| e.header.sender == self.seat && e.header.seq >= start.have)
            .filter_map(|e| encode_frame(e).ok())
            .collect();
        self.out.extend(resend);
    }

    // ----- app requests ----------------------------------------------------

    /// Guest: accepts the offered rules and commits to `layout` (ignored in
    /// flip games).
    ///
    /// # Errors
    /// Wrong phase or an illegal layout.
    pub fn accept(&mut self, now: Instant, layout: Layout) -> Result<(), SessionError> {
        if self.phase != Phase::Accept {
            return Err(SessionError::WrongPhase);
        }
        if self.rules.mode != Mode::Flip {
            layout
                .validate(&self.rules)
                .map_err(|e| SessionError::BadLayout(e.to_string()))?;
        }
        self.layout = Some(layout);
        let hello = Body::Hello {
            key: self.transcript.public_key().to_bytes(),
            nonce: self.nonce,
            rules: self.rules,
            name: self.name.clone(),
        };
        self.send(hello);
        self.phase = Phase::Nonce;
        self.rearm(now);
        Ok(())
    }

    /// The player has seen the same pairing code on both screens: commit to
    /// the setup. Until this is called nothing about the setup is sent.
    ///
    /// # Errors
    /// Not waiting for a confirmation.
    pub fn confirm_pairing(&mut self, now: Instant) -> Result<(), SessionError> {
        if self.phase != Phase::Pairing || self.confirmed {
            return Err(SessionError::WrongPhase);
        }
        self.confirmed = true;
        self.start_commit(now);
        if self.peer_commit.is_some() {
            self.after_commitments(now);
        }
        self.rearm(now);
        Ok(())
    }

    /// The pairing code, once both nonces are known.
    #[must_use]
    pub fn pairing(&self) -> Option<String> {
        (self.game_id != ZERO_DIGEST).then(|| pairing_code(&self.game_id))
    }

    /// Plays a move (a step or an attack).
    ///
    /// # Errors
    /// Not this side's turn, an illegal move or an expired clock.
    pub fn play(&mut self, now: Instant, m: Move) -> Result<(), SessionError> {
        if !self.my_turn() {
            return Err(if self.phase == Phase::Play {
                SessionError::NotYourTurn
            } else {
                SessionError::WrongPhase
            });
        }
        if self.my_time_expired {
            return Err(SessionError::TimeExpired);
        }
        let view = self.view.as_ref().expect("playing");
        if !view.legal_moves().contains(&m) {
            return Err(SessionError::Illegal);
        }
        self.play_inner(now, m)
    }

    fn play_inner(&mut self, now: Instant, m: Move) -> Result<(), SessionError> {
        if self.rules.mode == Mode::Flip {
            // The local referee is the authority: never send a move it refuses.
            let g = self.referee.as_ref().expect("playing");
            if g.turn() != self.me || g.position().check(m).is_err() {
                return Err(SessionError::Illegal);
            }
            self.send(match m {
                Move::Flip { at } => Body::Flip { at: at.0 },
                Move::Step { from, to } => Body::Step {
                    from: from.0,
                    to: to.0,
                },
            });
            match self.opened_by(m) {
                Some(at) => {
                    self.snapshot = None;
                    self.start_opening(now, self.me, m, at);
                }
                None => {
                    self.take_snapshot();
                    self.referee_action(now, self.me, Action::Move(m));
                }
            }
            self.rearm(now);
            return Ok(());
        }
        let view = self.view.as_ref().expect("playing");
        let Move::Step { from, to } = m else {
            return Err(SessionError::Illegal);
        };
        if self.referee.is_some() {
            self.send(Body::Step {
                from: from.0,
                to: to.0,
            });
            self.take_snapshot();
            self.referee_action(now, self.me, Action::Move(m));
        } else if view.at(to).is_some() {
            let Some(Seen::Piece {
                rank: Some(rank), ..
            }) = view.at(from)
            else {
                return Err(SessionError::Illegal);
            };
            // `k` is the attack's own sequence number: never used twice, not
            // across a voided attack nor a reconnection (FAIRPLAY pitfall 3).
            let k = self.transcript.counts().0;
            let prev = self.transcript.last_sent();
            let cx = battle_context(&self.game_id, k, from.0, to.0, &prev);
            let s = &self.peer_commit.as_ref().expect("committed").ot;
            let (att, req) = Attacker::start(&self.seed, k, rank_from_game(rank), s, cx)
                .map_err(|_| SessionError::Illegal)?;
            self.send(Body::Attack {
                from: from.0,
                to: to.0,
                r: req.r,
            });
            self.acts.push(Act::Battle {
                side: self.me,
                from: from.0,
                to: to.0,
                k,
                ctx: cx,
                request: req,
                response: None,
                reveal: None,
            });
            self.pending = Pending::MyAttack {
                att,
                from,
                to,
                act: self.acts.len() - 1,
            };
            self.snapshot = None;
        } else {
            self.take_snapshot();
            self.send(Body::Step {
                from: from.0,
                to: to.0,
            });
            self.acts.push(Act::Step {
                side: self.me,
                from: from.0,
                to: to.0,
            });
            self.apply_event(
                now,
                Event::Moved {
                    side: self.me,
                    from,
                    to,
                },
                true,
            );
        }
        self.rearm(now);
        Ok(())
    }

    /// Offers a draw (on this side's turn, before moving).
    ///
    /// # Errors
    /// Not this side's turn.
    pub fn offer_draw(&mut self, now: Instant) -> Result<(), SessionError> {
        if !self.my_turn() {
            return Err(SessionError::NotYourTurn);
        }
        let ply = self.view.as_ref().map_or(0, PlayerView::ply);
        if self.offered[self.me.index()] == Some(ply) {
            return Err(SessionError::AlreadyOffered);
        }
        self.offered[self.me.index()] = Some(ply);
        self.take_snapshot();
        self.send(Body::OfferDraw);
        if let Some(g) = self.referee.as_mut() {
            let _ = g.apply(self.me, Action::OfferDraw);
        }
        self.pending = Pending::MyDrawOffer;
        self.apply_event(now, Event::DrawOffered { side: self.me }, false);
        self.rearm(now);
        Ok(())
    }

    /// Accepts the peer's standing draw offer.
    ///
    /// # Errors
    /// No offer stands.
    pub fn accept_draw(&mut self, now: Instant) -> Result<(), SessionError> {
        if !matches!(self.pending, Pending::PeerDrawOffer) || self.phase != Phase::Play {
            return Err(SessionError::WrongPhase);
        }
        self.send(Body::AcceptDraw);
        self.pending = Pending::None;
        self.finish(
            now,
            GameResult::Draw {
                reason: DrawReason::Agreed,
            },
        );
        Ok(())
    }

    /// Declines the peer's standing draw offer.
    ///
    /// # Errors
    /// No offer stands.
    pub fn decline_draw(&mut self, now: Instant) -> Result<(), SessionError> {
        if !matches!(self.pending, Pending::PeerDrawOffer) || self.phase != Phase::Play {
            return Err(SessionError::WrongPhase);
        }
        self.send(Body::DeclineDraw);
        if let Some(g) = self.referee.as_mut() {
            let _ = g.apply(self.me, Action::DeclineDraw);
        }
        self.pending = Pending::None;
        self.apply_event(now, Event::DrawDeclined { side: self.me }, false);
        self.rearm(now);
        Ok(())
    }

    /// Resigns.
    ///
    /// # Errors
    /// Too early, or not playing.
    pub fn resign(&mut self, now: Instant) -> Result<(), SessionError> {
        if self.phase != Phase::Play {
            return Err(SessionError::WrongPhase);
        }
        let ply = self.view.as_ref().map_or(0, PlayerView::ply);
        if ply < self.rules.resign_after_plies {
            return Err(SessionError::ResignTooEarly);
        }
        self.send(Body::Resign);
        self.finish(
            now,
            GameResult::Win {
                winner: self.me.opponent(),
                reason: WinReason::Resignation,
            },
        );
        Ok(())
    }

    // ----- internals ---------------------------------------------------------

    fn send(&mut self, body: Body) {
        #[cfg(feature = "testing")]
        let body = {
            let seen = self.sent_kinds.entry(body.kind()).or_insert(0);
            let n = *seen;
            *seen += 1;
            match self.cheats.rewrite(&body, n) {
                Some(Some(other)) => other,
                Some(None) => return,
                None => body,
            }
        };
        let env = self
            .transcript
            .seal(body)
            .expect("own messages fit a frame");
        let bytes = encode_frame(&env).expect("own messages fit a frame");
        self.log.push(env);
        self.out.push_back(bytes);
    }

    fn peer_seat(&self) -> Seat {
        self.seat.other()
    }

    /// What is owed now in play, by whom: the one place that decides it.
    fn owed(&self) -> Option<(Side, Due, u8)> {
        if self.phase != Phase::Play {
            return None;
        }
        let v = self.view.as_ref()?;
        let peer = self.me.opponent();
        Some(match self.pending {
            Pending::None => (v.turn(), Due::Move, 0),
            Pending::MyAttack { .. } => (peer, Due::Reply, 1),
            Pending::PeerAttack { .. } => (peer, Due::Reply, 2),
            Pending::PeerFlag => (peer, Due::Reply, 3),
            Pending::Opening { slot, .. } => (peer, Due::Reply, 4 + u8::from(slot.is_some())),
            Pending::MyNoMoves => (peer, Due::Reply, 6),
            Pending::MyDrawOffer => (peer, Due::Answer, 7),
            Pending::PeerDrawOffer => (self.me, Due::Answer, 8),
        })
    }

    /// Whether `deadline` has passed on this side's clock; when rebuilding
    /// from a log, whether the side accepted the claim then.
    fn clock_passed(&self, now: Instant, deadline: Instant) -> bool {
        if self.replaying {
            !self.replay_refuses
        } else {
            now >= deadline
        }
    }

    fn move_time(&self) -> Duration {
        Duration::from_secs(u64::from(self.rules.move_seconds.max(1)))
    }

    /// How long after the other side's deadline this side waits before it
    /// claims. A move: a round trip (two graces), so an honest move sent on
    /// time has arrived whenever one-way latency is below the grace, and
    /// below two graces a crossing claim still arrives after the mover's own
    /// deadline (the crossing rule then voids the move on both sides). An
    /// answer or a reply: two round trips, so nothing honest ever crosses
    /// such a claim while one-way latency is below two graces.
    fn claim_margin(&self, due: Due) -> Duration {
        match due {
            Due::Move => self.grace * 2,
            Due::Answer | Due::Reply => self.grace * 4,
        }
    }

    fn rearm(&mut self, now: Instant) {
        let move_time = self.move_time();
        let owed = self.owed();
        self.debt = owed.map(|(by, due, step)| {
            let ply = self.view.as_ref().map_or(0, PlayerView::ply);
            match self.debt {
                Some(d) if (d.by, d.due, d.ply) == (by, due, ply) && self.debt_step == step => d,
                _ => {
                    if by == self.me && due == Due::Move {
                        self.my_time_expired = false;
                        self.turn_since = now;
                    }
                    Debt {
                        by,
                        due,
                        ply,
                        since: now,
                    }
                }
            }
        });
        self.debt_step = owed.map_or(0, |o| o.2);
        let wait = match self.phase {
            Phase::Hello | Phase::Nonce | Phase::OpenReveal => {
                Some((now + move_time + self.grace, Wait::Handshake))
            }
            // The other player compares the codes: allow a person's time.
            Phase::Commit => Some(self.keep(Wait::Handshake, now + move_time * 2 + self.grace)),
            Phase::Accept | Phase::Pairing => None,
            Phase::Play => self.debt.and_then(|d| {
                if d.by != self.me {
                    Some((
                        d.since + move_time + self.claim_margin(d.due),
                        Wait::PeerDue,
                    ))
                } else {
                    match d.due {
                        Due::Move => {
                            (!self.my_time_expired).then_some((d.since + move_time, Wait::MyDue))
                        }
                        Due::Answer => Some((d.since + move_time, Wait::MyDue)),
                        Due::Reply => None,
                    }
                }
            }),
            Phase::Audit => Some(self.keep(Wait::PeerReveal, now + move_time + self.grace)),
            Phase::Done => None,
        };
        self.deadline = wait;
    }

    /// Keeps an armed deadline of the same kind (so unrelated traffic does not
    /// extend it), or arms a new one.
    fn keep(&self, wait: Wait, at: Instant) -> (Instant, Wait) {
        match self.deadline {
            Some((t, w)) if w == wait => (t, w),
            _ => (at, wait),
        }
    }

    fn fault(&mut self, now: Instant, culprit: Side, reason: FaultKind, evidence: String) {
        if self.fault.is_none() {
            self.fault = Some(Fault {
                culprit,
                reason: reason.clone(),
                evidence,
            });
            self.events.push_back(AppEvent::Fault {
                culprit,
                reason: reason.clone(),
            });
        }
        match self.phase {
            Phase::Hello | Phase::Accept | Phase::Nonce | Phase::Pairing | Phase::Commit => {
                let f = self.fault.clone().expect("set");
                self.conclude(Verdict {
                    result: None,
                    cheater: Some(f.culprit),
                    reason: Some(f.reason),
                    evidence: f.evidence,
                    record: None,
                });
            }
            Phase::OpenReveal | Phase::Play => {
                // The wire carries the English sentence, cut on a character
                // boundary (`String::truncate` panics inside a character).
                let mut r = reason.to_string();
                let mut end = r.len().min(crate::wire::MAX_REASON);
                while !r.is_char_boundary(end) {
                    end -= 1;
                }
                r.truncate(end);
                self.send(Body::Dispute { reason: r });
                self.finish(
                    now,
                    GameResult::Win {
                        winner: culprit.opponent(),
                        reason: WinReason::Forfeit,
                    },
                );
            }
            Phase::Audit => {
                if let Some(v) = self.try_verdict() {
                    self.conclude(v);
                }
            }
            Phase::Done => {}
        }
    }

    fn conclude(&mut self, v: Verdict) {
        self.phase = Phase::Done;
        self.deadline = None;
        self.events.push_back(AppEvent::Verdict(v.clone()));
        self.verdict = Some(v);
    }

    /// Both nonces are known: the game id, who moves first and the pairing
    /// code follow; the player must now compare the codes.
    fn pair(&mut self) {
        let (hk, hn, gk, gn) = match self.seat {
            Seat::Host => (
                self.transcript.public_key().to_bytes(),
                self.nonce,
                self.peer_key,
                self.peer_nonce,
            ),
            Seat::Guest => (
                self.peer_key,
                self.peer_nonce,
                self.transcript.public_key().to_bytes(),
                self.nonce,
            ),
        };
        self.game_id = game_id(&self.rules, (&hk, &hn), (&gk, &gn));
        self.first = if self.game_id[31] & 1 == 0 {
            Side::South
        } else {
            Side::North
        };
        self.transcript.set_game(self.game_id);
        self.phase = Phase::Pairing;
        self.events.push_back(AppEvent::PairingCode {
            code: pairing_code(&self.game_id),
        });
    }

    fn start_commit(&mut self, now: Instant) {
        if self.rules.mode == Mode::Flip {
            let layer = layer_of(self.seat);
            let mine = match self.cheats().flip_values {
                Some(values) => FlipLayer::with_values(&self.seed, &self.game_id, layer, values),
                None => FlipLayer::new(&self.seed, &self.game_id, layer),
            };
            let body = Body::Commit {
                pieces: Vec::new(),
                seed: seed_commitment(&self.game_id, self.seat, &self.seed),
                ot_key: self.ot_key.public(),
                flip: mine.commitments().to_vec(),
            };
            self.flip_mine = Some(mine);
            self.send(body);
            self.phase = Phase::Commit;
            self.rearm(now);
            return;
        }
        let layout = self
            .cheats()
            .commit_layout
            .or(self.layout)
            .expect("layout set");
        let placement: Vec<(u8, Rank)> = slots_of(&layout, self.me)
            .into_iter()
            .enumerate()
            .map(|(i, r)| (i as u8, r))
            .collect();
        let sc = SetupCommitment::new(&self.seed, &self.game_id, self.seat, &placement);
        let body = Body::Commit {
            pieces: sc.commitments.clone(),
            seed: seed_commitment(&self.game_id, self.seat, &self.seed),
            ot_key: self.ot_key.public(),
            flip: Vec::new(),
        };
        self.my_commit = Some(sc);
        self.send(body);
        self.phase = Phase::Commit;
        self.rearm(now);
    }

    /// Both commitments are in (and the pairing confirmed): an open game
    /// opens both setups, the others start.
    fn after_commitments(&mut self, now: Instant) {
        if self.rules.mode == Mode::Open {
            let ranks = self.my_ranks();
            self.send(Body::Reveal {
                seed: self.seed.clone(),
                ranks,
            });
            self.phase = Phase::OpenReveal;
        } else {
            self.start_play(now);
        }
    }

    fn my_ranks(&self) -> Vec<Rank> {
        self.my_commit
            .as_ref()
            .map(|c| c.placement.iter().map(|&(_, r)| r).collect())
            .unwrap_or_default()
    }

    fn start_play(&mut self, now: Instant) {
        let mut view = if self.rules.mode == Mode::Flip {
            self.referee = Some(
                Game::new_flip(self.rules, self.flip_arrangement, self.first)
                    .expect("a permutation"),
            );
            PlayerView::new_flip(self.rules, self.me, self.first)
        } else {
            let layout = self.layout.expect("layout");
            let dep = layout.validate(&self.rules).expect("validated when set");
            PlayerView::new(self.rules, self.me, &dep, self.first)
        };
        self.phase = Phase::Play;
        self.events.push_back(AppEvent::Started {
            me: self.me,
            first: self.first,
            game_id: self.game_id,
        });
        if let Some(g) = &self.referee {
            for e in g.events() {
                let _ = view.apply(e);
                self.events.push_back(AppEvent::Game(*e));
            }
        }
        self.view = Some(view);
        self.after_event(now);
    }

    /// A message that is not owed now, or not from its sender: blamed on the
    /// peer, its signed message (already in the log) the evidence.
    fn violation(&mut self, now: Instant, header: &Header, kind: FaultKind) {
        let peer = self.me.opponent();
        let seq = header.seq;
        self.fault(now, peer, kind, format!("{peer} message seq {seq}"));
    }

    #[allow(clippy::too_many_lines)]
    fn on_body(&mut self, now: Instant, header: &Header, body: Body) {
        let peer = self.me.opponent();
        match (self.phase, body) {
            (
                Phase::Hello,
                Body::Hello {
                    key,
                    nonce,
                    rules,
                    name,
                },
            ) => {
                self.peer_key = key;
                match self.seat {
                    Seat::Host => {
                        if rules != self.rules {
                            return self.violation(now, header, FaultKind::OtherRules);
                        }
                        self.peer_nonce = nonce;
                        // Opened only now that the guest's nonce is fixed.
                        self.send(Body::Nonce { nonce: self.nonce });
                        self.pair();
                    }
                    Seat::Guest => {
                        self.nonce_commit = nonce;
                        self.rules = rules;
                        self.table = table_from_rules(&rules);
                        self.phase = Phase::Accept;
                        self.events.push_back(AppEvent::RulesOffered {
                            rules,
                            peer_name: name,
                        });
                    }
                }
            }
            (Phase::Nonce, Body::Nonce { nonce }) => {
                if nonce_commitment(&nonce) != self.nonce_commit {
                    return self.violation(now, header, FaultKind::NonceMismatch);
                }
                self.peer_nonce = nonce;
                self.pair();
            }
            (
                Phase::Pairing | Phase::Commit,
                Body::Commit {
                    pieces,
                    seed,
                    ot_key,
                    flip,
                },
            ) if self.peer_commit.is_none() => {
                let flip_game = self.rules.mode == Mode::Flip;
                let shape_ok = if flip_game {
                    pieces.is_empty() && flip.len() == FLIP_SIZE
                } else {
                    pieces.len() == crate::commit::ARMY_SIZE && flip.is_empty()
                };
                if !shape_ok {
                    return self.violation(
                        now,
                        header,
                        FaultKind::BadCommitment("commitment of the wrong shape".into()),
                    );
                }
                if flip_game {
                    match FlipVerifier::new(self.game_id, layer_of(self.peer_seat()), flip) {
                        Ok(v) => self.flip_peer = Some(v),
                        Err(e) => {
                            return self.violation(
                                now,
                                header,
                                FaultKind::BadCommitment(e.to_string()),
                            );
                        }
                    }
                }
                let ot = match PeerKey::decode(&ot_key) {
                    Ok(k) => k,
                    Err(e) => {
                        return self.violation(
                            now,
                            header,
                            FaultKind::BadCommitment(format!("oblivious-transfer key: {e}")),
                        );
                    }
                };
                self.peer_commit = Some(PeerCommit {
                    pieces,
                    seed,
                    ot,
                    ot_bytes: ot_key,
                });
                if self.confirmed {
                    self.after_commitments(now);
                }
            }
            (Phase::OpenReveal, Body::Reveal { seed, ranks }) => {
                if let Err(e) = self.check_reveal(&seed, &ranks) {
                    return self.fault(
                        now,
                        peer,
                        e,
                        format!("{peer} reveal, message seq {}", header.seq),
                    );
                }
                let theirs = layout_of(&ranks, peer);
                let mine = self.layout.expect("layout");
                let (south, north) = if self.me == Side::South {
                    (mine, theirs)
                } else {
                    (theirs, mine)
                };
                match Game::new(self.rules, south, north, self.first) {
                    Ok(g) => self.referee = Some(g),
                    Err(e) => {
                        return self.fault(
                            now,
                            peer,
                            FaultKind::IllegalSetup(e.to_string()),
                            format!("{peer} reveal"),
                        );
                    }
                }
                self.peer_reveal = Some((seed, ranks));
                self.start_play(now);
            }
            (Phase::Play, body) => self.on_play(now, header, body),
            (Phase::Audit, Body::Reveal { seed, ranks }) => {
                self.peer_reveal = Some((seed, ranks));
                if let Some(v) = self.try_verdict() {
                    self.conclude(v);
                }
            }
            (Phase::Audit, body) => {
                if matches!(body, Body::Dispute { .. }) {
                    self.peer_disputed = true;
                }
                // Messages crossing the end of the game are void; a stream of
                // them is not read (nor logged) for ever.
                self.after_end += 1;
                if self.after_end > MAX_AFTER_END {
                    self.conclude(Verdict {
                        result: self.result,
                        cheater: Some(peer),
                        reason: Some(FaultKind::Flooding(MAX_AFTER_END)),
                        evidence: format!("{peer} message seq {}", header.seq),
                        record: None,
                    });
                }
            }
            (_, body) => self.violation(
                now,
                header,
                FaultKind::Unexpected(format!("unexpected {}", body.kind())),
            ),
        }
    }

    #[allow(clippy::too_many_lines)]
    fn on_play(&mut self, now: Instant, header: &Header, body: Body) {
        let peer = self.me.opponent();
        let Some(view) = self.view.as_ref() else {
            return;
        };
        let peer_turn = view.turn() == peer;
        // A move sent before the peer saw our timeout claim is void.
        if matches!(
            body,
            Body::Step { .. }
                | Body::Attack { .. }
                | Body::Flip { .. }
                | Body::FlipOpen(_)
                | Body::OfferDraw
                | Body::NoMoves
        ) && let Some(c) = self.claim_seq
            && header.ack_seq <= c
        {
            return;
        }
        // Points off the board never reach the engine.
        if let Body::Step { from, to } | Body::Attack { from, to, .. } = body
            && (usize::from(from) >= view.board().len() || usize::from(to) >= view.board().len())
        {
            return self.violation(
                now,
                header,
                FaultKind::IllegalMove("a point off the board".into()),
            );
        }
        if let Body::Flip { at } = body
            && usize::from(at) >= view.board().len()
        {
            return self.violation(
                now,
                header,
                FaultKind::IllegalMove("a point off the board".into()),
            );
        }
        match body {
            Body::Step { from, to } => {
                if !peer_turn || !matches!(self.pending, Pending::None) {
                    return self.violation(now, header, FaultKind::OutOfTurn("move"));
                }
                let (from, to) = (Point(from), Point(to));
                let m = Move::Step { from, to };
                if self.rules.mode == Mode::Flip {
                    self.peer_flip_move(now, header, m);
                } else if self.referee.is_some() {
                    self.referee_action(now, peer, Action::Move(m));
                } else {
                    if view.at(to).is_some() {
                        return self.violation(
                            now,
                            header,
                            FaultKind::IllegalMove("a step onto an occupied point".into()),
                        );
                    }
                    self.acts.push(Act::Step {
                        side: peer,
                        from: from.0,
                        to: to.0,
                    });
                    self.apply_peer_event(
                        now,
                        header,
                        Event::Moved {
                            side: peer,
                            from,
                            to,
                        },
                    );
                }
            }
            Body::Attack { from, to, r } => {
                if !peer_turn || !matches!(self.pending, Pending::None) || self.referee.is_some() {
                    return self.violation(now, header, FaultKind::OutOfTurn("attack"));
                }
                let (fp, tp) = (Point(from), Point(to));
                let Some(Seen::Piece {
                    side,
                    rank: Some(d),
                    ..
                }) = view.at(tp)
                else {
                    return self.violation(
                        now,
                        header,
                        FaultKind::IllegalMove("attack on a point without a piece of mine".into()),
                    );
                };
                if side != self.me
                    || !matches!(view.at(fp), Some(Seen::Piece { side, .. }) if side == peer)
                {
                    return self.violation(
                        now,
                        header,
                        FaultKind::IllegalMove("attack between the wrong pieces".into()),
                    );
                }
                if view.rules().mode == Mode::Dark
                    && Some(PointKind::Camp) == Some(view.board().kind(tp))
                {
                    return self.violation(
                        now,
                        header,
                        FaultKind::IllegalMove("attack on a camp".into()),
                    );
                }
                let k = header.seq;
                let cx = battle_context(&self.game_id, k, from, to, &header.prev);
                let req = crate::ot::OtRequest { r };
                let d = rank_from_game(d);
                match Defender::respond(&self.ot_key, &self.seed, cx, &req, d, &self.table) {
                    Ok((def, mut resp)) => {
                        if let Some(which) = self.cheats().corrupt_table {
                            for (j, e) in resp.entries.iter_mut().enumerate() {
                                if which.is_none_or(|w| w == j) {
                                    e[0] ^= 1;
                                }
                            }
                        }
                        self.send(Body::Table(resp.clone()));
                        self.acts.push(Act::Battle {
                            side: peer,
                            from,
                            to,
                            k,
                            ctx: cx,
                            request: req,
                            response: Some(resp),
                            reveal: None,
                        });
                        self.pending = Pending::PeerAttack {
                            def,
                            from: fp,
                            to: tp,
                            act: self.acts.len() - 1,
                        };
                    }
                    Err(e) => self.violation(now, header, FaultKind::BadRequest(e)),
                }
            }
            Body::Table(resp) => {
                let Pending::MyAttack { att, from, to, act } =
                    std::mem::replace(&mut self.pending, Pending::None)
                else {
                    return self.violation(
                        now,
                        header,
                        FaultKind::Unexpected("table without an attack".into()),
                    );
                };
                if let Act::Battle { response, .. } = &mut self.acts[act] {
                    *response = Some(resp.clone());
                }
                match att.finish(&resp, &self.table) {
                    Ok((o, mut reveal)) => {
                        if self.cheats().withhold_label {
                            return;
                        }
                        if self.cheats().false_outcome
                            && let Some(other) = self.table.alphabet().iter().find(|x| **x != o)
                        {
                            reveal.outcome = other.code();
                        }
                        self.send(Body::Label(reveal));
                        if let Act::Battle { reveal: r, .. } = &mut self.acts[act] {
                            *r = Some(reveal);
                        }
                        self.apply_battle(now, header, self.me, from, to, &o);
                    }
                    Err(e) => {
                        let seq = header.seq;
                        self.fault(
                            now,
                            peer,
                            FaultKind::CorruptTable(e),
                            format!("{peer} table, message seq {seq}"),
                        );
                    }
                }
            }
            Body::Label(reveal) => {
                let Pending::PeerAttack { def, from, to, act } =
                    std::mem::replace(&mut self.pending, Pending::None)
                else {
                    return self.violation(
                        now,
                        header,
                        FaultKind::Unexpected("label without a battle".into()),
                    );
                };
                if let Act::Battle { reveal: r, .. } = &mut self.acts[act] {
                    *r = Some(reveal);
                }
                match def.check(&reveal, &self.table) {
                    Ok(o) => self.apply_battle(now, header, peer, from, to, &o),
                    Err(e) => {
                        let seq = header.seq;
                        self.fault(
                            now,
                            peer,
                            FaultKind::FalseOutcome(e),
                            format!("{peer} label, message seq {seq}"),
                        );
                    }
                }
            }
            Body::FlagOpen(opening) => {
                if !matches!(self.pending, Pending::PeerFlag) {
                    return self.violation(
                        now,
                        header,
                        FaultKind::Unexpected("flag opening not asked for".into()),
                    );
                }
                let commits = &self.peer_commit.as_ref().expect("committed").pieces;
                let at = slot_point(peer, opening.square);
                let ok = opening.rank == Rank::Flag
                    && at.is_some_and(|p| view.board().kind(p) == PointKind::Headquarters)
                    && commits
                        .get(opening.square as usize)
                        .is_some_and(|c| opening.verify(&self.game_id, self.peer_seat(), c));
                if !ok {
                    let seq = header.seq;
                    return self.fault(
                        now,
                        peer,
                        FaultKind::BadFlagOpening,
                        format!("{peer} flag opening, message seq {seq}"),
                    );
                }
                self.pending = Pending::None;
                self.acts.push(Act::FlagOpen {
                    side: peer,
                    opening,
                });
                let e = Event::FlagRevealed {
                    side: peer,
                    at: at.expect("checked"),
                };
                if let Some(mine) = self.deferred_flag.take() {
                    let view = self.view.as_mut().expect("playing");
                    if let Err(err) = view.apply(&e) {
                        return self.violation(
                            now,
                            header,
                            FaultKind::IllegalMove(err.to_string()),
                        );
                    }
                    self.events.push_back(AppEvent::Game(e));
                    self.apply_event(now, mine, true);
                } else {
                    self.apply_peer_event(now, header, e);
                }
            }
            Body::Flip { at } => {
                if !peer_turn || !matches!(self.pending, Pending::None) {
                    return self.violation(now, header, FaultKind::OutOfTurn("flip"));
                }
                if self.rules.mode != Mode::Flip {
                    return self.violation(
                        now,
                        header,
                        FaultKind::Unexpected("flip outside a flip game".into()),
                    );
                }
                self.peer_flip_move(now, header, Move::Flip { at: Point(at) });
            }
            Body::FlipOpen(opening) => self.on_flip_open(now, header, &opening),
            Body::Proceed => self.on_proceed(now, header),
            Body::ClaimTimeout { ply } => self.on_claim_timeout(now, header, ply),
            Body::ClaimForfeit => {
                // Only a reply or an answer this side owes, overdue on its own
                // clock, can be forfeited (a move is claimed as a timeout).
                let overdue = matches!(self.debt, Some(d) if d.by == self.me
                    && d.due != Due::Move
                    && self.clock_passed(now, d.since + self.move_time()));
                if !overdue {
                    return self.violation(now, header, FaultKind::BaselessForfeitClaim);
                }
                self.finish(
                    now,
                    GameResult::Win {
                        winner: peer,
                        reason: WinReason::Forfeit,
                    },
                );
            }
            Body::NoMoves => {
                if !peer_turn || !matches!(self.pending, Pending::None) {
                    return self.violation(now, header, FaultKind::OutOfTurn("no-moves claim"));
                }
                let pos = view.determinize(|_| (peer, junqi_game::Rank::Engineer));
                let can_move = pos.has_legal_move(self.me);
                self.send(Body::NoMovesReply { can_move });
                self.acts.push(Act::NoMoves {
                    side: peer,
                    reply: Some(can_move),
                });
                self.finish(now, no_moves_result(peer, can_move));
            }
            Body::NoMovesReply { can_move } => {
                if !matches!(self.pending, Pending::MyNoMoves) {
                    return self.violation(
                        now,
                        header,
                        FaultKind::Unexpected("no-moves reply without a claim".into()),
                    );
                }
                // The audit checks the answer against the opened setups.
                if let Some(Act::NoMoves { reply, .. }) = self.acts.last_mut() {
                    *reply = Some(can_move);
                }
                self.pending = Pending::None;
                self.finish(now, no_moves_result(self.me, can_move));
            }
            Body::OfferDraw => {
                if !peer_turn || !matches!(self.pending, Pending::None) {
                    return self.violation(now, header, FaultKind::OutOfTurn("draw offer"));
                }
                // One offer a turn: repeated offers would stall the game.
                if self.offered[peer.index()] == Some(view.ply()) {
                    return self.violation(now, header, FaultKind::RepeatedDrawOffer);
                }
                self.offered[peer.index()] = Some(view.ply());
                if let Some(g) = self.referee.as_mut() {
                    let _ = g.apply(peer, Action::OfferDraw);
                }
                self.pending = Pending::PeerDrawOffer;
                self.apply_peer_event(now, header, Event::DrawOffered { side: peer });
                self.events.push_back(AppEvent::DrawOffered);
            }
            Body::AcceptDraw => {
                if !matches!(self.pending, Pending::MyDrawOffer) {
                    return self.violation(
                        now,
                        header,
                        FaultKind::Unexpected("accepting a draw never offered".into()),
                    );
                }
                self.pending = Pending::None;
                self.finish(
                    now,
                    GameResult::Draw {
                        reason: DrawReason::Agreed,
                    },
                );
            }
            Body::DeclineDraw => {
                if !matches!(self.pending, Pending::MyDrawOffer) {
                    return self.violation(
                        now,
                        header,
                        FaultKind::Unexpected("declining a draw never offered".into()),
                    );
                }
                if let Some(g) = self.referee.as_mut() {
                    let _ = g.apply(peer, Action::DeclineDraw);
                }
                self.pending = Pending::None;
                self.apply_peer_event(now, header, Event::DrawDeclined { side: peer });
            }
            Body::Resign => {
                // A resignation that crossed this side's move ends the game
                // before that move, as the resigning side saw it: both keep
                // the same record.
                if header.ack_seq < self.transcript.counts().0 {
                    self.void_crossing_move();
                }
                self.finish(
                    now,
                    GameResult::Win {
                        winner: self.me,
                        reason: WinReason::Resignation,
                    },
                );
            }
            Body::Dispute { reason } => {
                self.peer_disputed = true;
                let r: String = reason.chars().take(crate::wire::MAX_REASON).collect();
                self.events.push_back(AppEvent::Fault {
                    culprit: self.me,
                    reason: FaultKind::PeerDisputes(r),
                });
                self.finish(
                    now,
                    GameResult::Win {
                        winner: self.me,
                        reason: WinReason::Forfeit,
                    },
                );
            }
            other => self.violation(
                now,
                header,
                FaultKind::Unexpected(format!("unexpected {} during play", other.kind())),
            ),
        }
    }

    /// Voids this side's latest move, which the peer had not seen.
    fn void_crossing_move(&mut self) {
        match self.pending {
            Pending::MyAttack { act, .. } => {
                self.acts.truncate(act);
                self.pending = Pending::None;
            }
            Pending::Opening { mover, .. } if mover == self.me => self.pending = Pending::None,
            Pending::None => {
                let ply = self.view.as_ref().map_or(0, PlayerView::ply);
                if let Some(snap) = self.snapshot.take()
                    && snap.ply + 1 == ply
                {
                    self.roll_back(snap);
                }
            }
            _ => {}
        }
    }

    /// Puts the view, the acts and the local referee back as they were
    /// before this side's voided move.
    fn roll_back(&mut self, snap: Snapshot) {
        self.view = Some(snap.view);
        self.acts.truncate(snap.acts);
        if let Some((g, arrangement)) = snap.referee {
            self.referee = Some(g);
            self.flip_arrangement = arrangement;
        }
    }

    fn take_snapshot(&mut self) {
        let view = self.view.clone().expect("playing");
        self.snapshot = Some(Snapshot {
            ply: view.ply(),
            since: self.turn_since,
            view,
            acts: self.acts.len(),
            referee: self.referee.clone().map(|g| (g, self.flip_arrangement)),
        });
    }

    fn on_claim_timeout(&mut self, now: Instant, header: &Header, ply: u16) {
        let sent = self.transcript.counts().0;
        // The claim did not see this side's latest message: it may have
        // crossed this side's move at `ply`, which is then void (both sides
        // apply the same rule: the claim stands, the crossing move does not).
        let unseen = header.ack_seq < sent;
        let crossed = unseen
            && self.view.as_ref().is_some_and(|v| v.ply() == ply)
            && match self.pending {
                Pending::MyAttack { .. } | Pending::MyNoMoves => true,
                Pending::Opening { mover, .. } => mover == self.me,
                _ => false,
            }
            || unseen && self.snapshot.as_ref().is_some_and(|s| s.ply == ply);
        let since = match (crossed, &self.snapshot) {
            (true, Some(s)) if s.ply == ply => s.since,
            _ => self.turn_since,
        };
        let on_move = crossed
            || matches!(self.debt, Some(d) if d.by == self.me && d.due == Due::Move && d.ply == ply);
        if !on_move {
            return self.violation(now, header, FaultKind::EarlyTimeoutClaim { on_move: false });
        }
        if !self.clock_passed(now, since + self.move_time()) {
            return self.violation(now, header, FaultKind::EarlyTimeoutClaim { on_move: true });
        }
        if crossed {
            match self.pending {
                // The battle counter stays where it is: a voided attack's
                // `x` is never used again.
                Pending::MyAttack { act, .. } => self.acts.truncate(act),
                Pending::MyNoMoves => {
                    self.acts.pop();
                }
                _ => {}
            }
            self.pending = Pending::None;
            if let Some(snap) = self.snapshot.take()
                && snap.ply == ply
            {
                self.roll_back(snap);
            }
        }
        self.snapshot = None;
        self.apply_timeout(now, self.me);
    }

    fn apply_timeout(&mut self, now: Instant, side: Side) {
        self.acts.push(Act::Timeout { side });
        if self.referee.is_some() {
            self.referee_action(now, side, Action::Timeout);
            return;
        }
        let count = self.view.as_ref().map_or(0, |v| v.timeouts(side)) + 1;
        self.apply_event(now, Event::TimedOut { side, count }, false);
        if self.result.is_none() && count > self.rules.max_timeouts {
            self.finish(
                now,
                GameResult::Win {
                    winner: side.opponent(),
                    reason: WinReason::Timeouts,
                },
            );
        }
    }

    /// Open games: the local referee applies an action.
    fn referee_action(&mut self, now: Instant, side: Side, action: Action) {
        let g = self.referee.as_mut().expect("open game");
        match g.apply(side, action) {
            Ok(events) => {
                if let Action::Move(Move::Step { from, to }) = action {
                    self.acts.push(Act::Step {
                        side,
                        from: from.0,
                        to: to.0,
                    });
                }
                for e in events {
                    if let Event::GameOver { result } = e {
                        self.finish(now, result);
                        return;
                    }
                    let view = self.view.as_mut().expect("playing");
                    if view.apply(&e).is_ok() {
                        self.events.push_back(AppEvent::Game(e));
                    }
                }
                self.after_event(now);
            }
            Err(e) => {
                // The side whose action it was, not always the peer.
                self.fault(
                    now,
                    side,
                    FaultKind::IllegalMove(e.to_string()),
                    format!("{side}'s last message"),
                );
            }
        }
    }

    fn apply_battle(
        &mut self,
        now: Instant,
        header: &Header,
        attacker: Side,
        from: Point,
        to: Point,
        o: &crate::Outcome,
    ) {
        let (announcement, defender_rank) = announcement_of(o);
        let ev = Event::Battle {
            side: attacker,
            from,
            to,
            announcement,
            attacker_rank: None,
            defender_rank,
            defender_id: None,
        };
        if attacker == self.me {
            self.apply_event(now, ev, false);
        } else {
            let view = self.view.as_mut().expect("playing");
            if let Err(err) = view.apply(&ev) {
                return self.violation(now, header, FaultKind::IllegalMove(err.to_string()));
            }
            self.events.push_back(AppEvent::Game(ev));
        }
        if self.phase != Phase::Play {
            return;
        }
        let defender = attacker.opponent();
        let mut need_peer = false;
        for (died, owner) in [
            (o.attacker_commander_died, attacker),
            (o.defender_commander_died, defender),
        ] {
            if !died {
                continue;
            }
            if owner == self.me {
                let slot = self
                    .my_ranks()
                    .iter()
                    .position(|&r| r == Rank::Flag)
                    .expect("a flag") as u8;
                let mut opening: PieceOpening = self
                    .my_commit
                    .as_ref()
                    .expect("committed")
                    .opening(&self.seed, slot)
                    .expect("slot");
                if self.cheats().bad_flag_opening {
                    opening.square = (opening.square + 1) % 25;
                }
                self.send(Body::FlagOpen(opening));
                self.acts.push(Act::FlagOpen {
                    side: self.me,
                    opening,
                });
                let at = slot_point(self.me, slot).expect("slot");
                let e = Event::FlagRevealed { side: self.me, at };
                if need_peer {
                    // Keep the engine's order: the attacker's flag first.
                    self.deferred_flag = Some(e);
                } else {
                    self.apply_event(now, e, false);
                }
            } else {
                need_peer = true;
            }
        }
        if o.flag_captured {
            self.finish(
                now,
                GameResult::Win {
                    winner: attacker,
                    reason: WinReason::FlagCaptured,
                },
            );
        } else if need_peer {
            self.pending = Pending::PeerFlag;
        } else {
            self.after_event(now);
        }
    }

    /// Applies an event caused by the peer; one that does not fit the view is a
    /// protocol violation.
    fn apply_peer_event(&mut self, now: Instant, header: &Header, e: Event) {
        let view = self.view.as_mut().expect("playing");
        if let Err(err) = view.apply(&e) {
            return self.violation(now, header, FaultKind::IllegalMove(err.to_string()));
        }
        self.events.push_back(AppEvent::Game(e));
        self.after_event(now);
    }

    fn apply_event(&mut self, now: Instant, e: Event, check: bool) {
        let view = self.view.as_mut().expect("playing");
        if view.apply(&e).is_ok() {
            self.events.push_back(AppEvent::Game(e));
        }
        if check
            || matches!(
                e,
                Event::Moved { .. } | Event::TimedOut { .. } | Event::DrawDeclined { .. }
            )
        {
            self.after_event(now);
        }
    }

    /// After each completed turn: draws by quiet moves, no-move claims, turn notice.
    fn after_event(&mut self, now: Instant) {
        if self.phase != Phase::Play
            || self.result.is_some()
            || !matches!(self.pending, Pending::None)
        {
            return;
        }
        let v = self.view.as_ref().expect("playing");
        if self.referee.is_none() && v.quiet_plies() >= self.rules.quiet_draw_plies {
            return self.finish(
                now,
                GameResult::Draw {
                    reason: DrawReason::QuietMoves,
                },
            );
        }
        if v.turn() == self.me {
            if self.referee.is_none() && v.legal_moves().is_empty() {
                self.send(Body::NoMoves);
                self.acts.push(Act::NoMoves {
                    side: self.me,
                    reply: None,
                });
                self.pending = Pending::MyNoMoves;
            } else {
                self.events.push_back(AppEvent::YourTurn);
            }
        }
        self.rearm(now);
    }

    fn finish(&mut self, now: Instant, result: GameResult) {
        if matches!(self.phase, Phase::Audit | Phase::Done) {
            return;
        }
        self.result = Some(result);
        self.pending = Pending::None;
        if let Some(v) = self.view.as_mut()
            && v.result().is_none()
        {
            let e = Event::GameOver { result };
            if v.apply(&e).is_ok() {
                self.events.push_back(AppEvent::Game(e));
            }
        }
        self.events.push_back(AppEvent::Finished(result));
        let ranks = match self.cheats().reveal_layout {
            Some(l) => slots_of(&l, self.me),
            None => self.my_ranks(),
        };
        if !self.cheats().refuse_reveal {
            self.send(Body::Reveal {
                seed: self.seed.clone(),
                ranks,
            });
        }
        self.phase = Phase::Audit;
        self.deadline = None;
        if let Some(v) = self.try_verdict() {
            self.conclude(v);
        } else {
            self.rearm(now);
        }
    }

    fn check_reveal(&self, seed: &Seed, ranks: &[Rank]) -> Result<(), FaultKind> {
        let pc = self
            .peer_commit
            .as_ref()
            .ok_or_else(|| FaultKind::Unexpected("reveal without a commitment".into()))?;
        let placement: Vec<(u8, Rank)> = ranks
            .iter()
            .enumerate()
            .map(|(i, &r)| (i as u8, r))
            .collect();
        verify_reveal(
            &self.game_id,
            self.peer_seat(),
            seed,
            &pc.seed,
            &placement,
            &pc.pieces,
        )
        .map_err(FaultKind::SetupMismatch)
    }

    /// Runs the audit once the peer's reveal is in (or a self-evident fault
    /// makes it unnecessary).
    fn try_verdict(&self) -> Option<Verdict> {
        let (peer_seed, peer_ranks) = self.peer_reveal.as_ref()?;
        let peer = self.me.opponent();
        let found = if self.rules.mode == Mode::Flip {
            self.flip_audit(peer_seed, peer_ranks)?
        } else {
            self.setup_audit(peer_seed, peer_ranks)?
        };
        // The audit's finding comes first: it is the earliest cheat in game
        // order and a third party can check it; then what was seen at once.
        // A dispute that rebuilding from the log did not reproduce has no
        // signed evidence behind it (unsigned garbage on the stream, say).
        let fault = self.fault.as_ref().filter(|_| !self.fault_unsupported);
        let (cheater, reason, evidence, record) = match (fault, found) {
            (_, Err(f)) => (Some(f.culprit), Some(f.reason), f.evidence, None),
            (Some(f), Ok(_)) => (
                Some(f.culprit),
                Some(f.reason.clone()),
                f.evidence.clone(),
                None,
            ),
            (None, Ok(_)) if self.peer_disputed => (
                Some(peer),
                Some(FaultKind::UnsupportedDispute),
                format!("{peer} dispute message"),
                None,
            ),
            (None, Ok(record)) => (
                None,
                None,
                String::new(),
                record.map(|r| Box::new(with_ending(r, self.result))),
            ),
        };
        Some(Verdict {
            result: self.result,
            cheater,
            reason,
            evidence,
            record,
        })
    }

    /// Dark and open games: the audit of both setups and every act (its record).
    fn setup_audit(
        &self,
        peer_seed: &Seed,
        peer_ranks: &[Rank],
    ) -> Option<Result<Option<Record>, Fault>> {
        let pc = self.peer_commit.as_ref()?;
        let mine = self.my_commit.as_ref()?;
        let my_ranks = self.my_ranks();
        let peer_commit = crate::audit::Commitments {
            pieces: &pc.pieces,
            seed: pc.seed,
            ot_key: pc.ot_bytes,
        };
        let my_commit = crate::audit::Commitments {
            pieces: &mine.commitments,
            seed: seed_commitment(&self.game_id, self.seat, &self.seed),
            ot_key: self.ot_key.public(),
        };
        let (south, north) = if self.me == Side::South {
            (
                (&self.seed, &my_ranks[..], my_commit),
                (peer_seed, peer_ranks, peer_commit),
            )
        } else {
            (
                (peer_seed, peer_ranks, peer_commit),
                (&self.seed, &my_ranks[..], my_commit),
            )
        };
        let input = AuditInput {
            rules: self.rules,
            game_id: self.game_id,
            first: self.first,
            table: &self.table,
            sides: [south, north],
            acts: &self.acts,
        };
        Some(audit(&input).map(Some))
    }

    /// Flip games: the end-of-game check. The peer's seed opens its
    /// commitment and reproduces its 50 committed entries (so its map is a
    /// permutation and every opening came from it); this side's own layer is
    /// checked the same way; every point opened during play holds the piece
    /// `σA(σB(p))` of the two seeds. A clean audit gives the record with every point's piece.
    fn flip_audit(
        &self,
        peer_seed: &Seed,
        peer_ranks: &[Rank],
    ) -> Option<Result<Option<Record>, Fault>> {
        let peer = self.me.opponent();
        let pc = self.peer_commit.as_ref()?;
        let verifier = self.flip_peer.as_ref()?;
        let mine = self.flip_mine.as_ref()?;
        let blame = |culprit: Side, reason: FaultKind| {
            Err(Fault {
                culprit,
                reason,
                evidence: format!("{culprit} reveal and flip commitments"),
            })
        };
        if !peer_ranks.is_empty() {
            return Some(blame(peer, FaultKind::RanksInFlipGame));
        }
        if seed_commitment(&self.game_id, self.peer_seat(), peer_seed) != pc.seed {
            return Some(blame(
                peer,
                FaultKind::SetupMismatch(crate::commit::RevealError::Seed),
            ));
        }
        if verifier.audit(peer_seed).is_err() {
            return Some(blame(peer, FaultKind::BadShuffle));
        }
        let own = FlipLayer::new(&self.seed, &self.game_id, mine.layer());
        if own.commitments() != mine.commitments() {
            return Some(blame(self.me, FaultKind::BadShuffle));
        }
        let (host_seed, guest_seed) = match self.seat {
            Seat::Host => (&self.seed, peer_seed),
            Seat::Guest => (peer_seed, &self.seed),
        };
        let sigma_a = permutation(host_seed, layer_of(Seat::Host));
        let sigma_b = permutation(guest_seed, layer_of(Seat::Guest));
        let Some(g) = &self.referee else {
            return Some(Ok(None));
        };
        let truth: Vec<u8> = (0..FLIP_SIZE)
            .map(|i| sigma_a[sigma_b[i] as usize])
            .collect();
        for (i, &placed) in self.flip_arrangement.iter().enumerate() {
            if !self.flip_face_down(g, i) && placed != truth[i] {
                return Some(blame(
                    side_of(Seat::Host),
                    FaultKind::WrongPiece {
                        point: i,
                        placed,
                        truth: truth[i],
                    },
                ));
            }
        }
        // The pieces never opened stand where the seeds put them.
        let mut record = g.record().clone();
        record.setup = Setup::Flip { arrangement: truth };
        Some(Ok(Game::replay(&record, None).ok().map(|_| record)))
    }

    // ----- flip games ---------------------------------------------------------

    /// Whether the point of shuffle index `i` still holds a face-down piece.
    fn flip_face_down(&self, g: &Game, i: usize) -> bool {
        flip_point(i)
            .and_then(|p| g.position().at(p))
            .is_some_and(|pc| !pc.face_up)
    }

    /// The face-down point a move turns over, if any.
    fn opened_by(&self, m: Move) -> Option<Point> {
        let pos = self.referee.as_ref()?.position();
        let at = match m {
            Move::Flip { at } | Move::Step { to: at, .. } => at,
        };
        pos.at(at).filter(|pc| !pc.face_up).map(|_| at)
    }

    /// A move by the peer: checked against the rules at once; one that turns
    /// a piece over waits for the openings of its point.
    fn peer_flip_move(&mut self, now: Instant, header: &Header, m: Move) {
        let peer = self.me.opponent();
        let g = self.referee.as_ref().expect("flip game");
        if g.turn() != peer {
            return self.violation(now, header, FaultKind::OutOfTurn("move"));
        }
        if let Err(e) = g.position().check(m) {
            return self.violation(now, header, FaultKind::IllegalMove(e.to_string()));
        }
        match self.opened_by(m) {
            Some(at) => self.start_opening(now, peer, m, at),
            None => self.referee_action(now, peer, Action::Move(m)),
        }
    }

    /// Opens entry `index` of this side's layer.
    fn open_mine(&self, index: u8) -> FlipOpening {
        let mut o = self
            .flip_mine
            .as_ref()
            .expect("committed")
            .open(index)
            .expect("in range");
        if self.cheats().bad_flip_opening {
            o.value = (o.value + 1) % FLIP_SIZE as u8;
        }
        o
    }

    /// A move turns the piece on `at` over: the guest opens its entry for the
    /// point at once, the host answers with its entry for that slot.
    fn start_opening(&mut self, now: Instant, mover: Side, m: Move, at: Point) {
        let index = flip_index(at).expect("face-down pieces stand on setup points");
        let mut slot = None;
        match (self.seat, mover == self.me) {
            // The host's move is final once the guest has taken it: open.
            (Seat::Guest, false) => slot = Some(self.send_my_opening(index)),
            // The guest's own move may still be voided by a crossing timeout
            // claim: nothing that shows the piece goes out before the host
            // accepts it.
            (Seat::Guest, true) | (Seat::Host, true) => {}
            (Seat::Host, false) => self.send(Body::Proceed),
        }
        self.pending = Pending::Opening {
            mover,
            m,
            index,
            slot,
        };
        self.rearm(now);
    }

    /// Guest: opens its entry for shuffle index `index`; the slot it gives.
    fn send_my_opening(&mut self, index: u8) -> u8 {
        let o = self.open_mine(index);
        if !self.cheats().withhold_flip_opening {
            self.send(Body::FlipOpen(o));
        }
        o.value
    }

    /// Guest: the host accepted this side's move that turns a piece over.
    fn on_proceed(&mut self, now: Instant, header: &Header) {
        let Pending::Opening {
            mover,
            m,
            index,
            slot: None,
        } = self.pending
        else {
            return self.violation(
                now,
                header,
                FaultKind::Unexpected("proceed without a move to open".into()),
            );
        };
        if self.seat != Seat::Guest || mover != self.me {
            return self.violation(
                now,
                header,
                FaultKind::Unexpected("proceed without a move to open".into()),
            );
        }
        let slot = Some(self.send_my_opening(index));
        self.pending = Pending::Opening {
            mover,
            m,
            index,
            slot,
        };
    }

    fn on_flip_open(&mut self, now: Instant, header: &Header, o: &FlipOpening) {
        let peer = self.me.opponent();
        let Pending::Opening {
            mover,
            m,
            index,
            slot,
        } = self.pending
        else {
            return self.violation(
                now,
                header,
                FaultKind::Unexpected("flip opening not asked for".into()),
            );
        };
        let want = match (self.seat, slot) {
            (Seat::Host, None) => index,
            (Seat::Guest, Some(j)) => j,
            _ => {
                return self.violation(
                    now,
                    header,
                    FaultKind::Unexpected("flip opening out of order".into()),
                );
            }
        };
        let value = match self.flip_peer.as_mut().expect("committed").check(want, o) {
            Ok(v) => v,
            Err(e) => {
                let seq = header.seq;
                return self.fault(
                    now,
                    peer,
                    FaultKind::BadFlipOpening(e),
                    format!("{peer} flip opening, message seq {seq}"),
                );
            }
        };
        let piece = if self.seat == Seat::Host {
            let mine = self.open_mine(value);
            if self.cheats().withhold_flip_opening {
                return;
            }
            self.send(Body::FlipOpen(mine));
            mine.value
        } else {
            value
        };
        self.pending = Pending::None;
        self.resolve_opening(now, mover, m, index, piece);
    }

    /// Puts the opened piece under its point in the local referee (swapping
    /// it with the unopened piece that stood there) and plays the move.
    fn resolve_opening(&mut self, now: Instant, mover: Side, m: Move, index: u8, piece: u8) {
        let i = usize::from(index);
        let g = self.referee.as_ref().expect("flip game");
        let j = self
            .flip_arrangement
            .iter()
            .position(|&x| x == piece)
            .unwrap_or(i);
        if !self.flip_face_down(g, i) || !self.flip_face_down(g, j) {
            // Only a repeating layer can get here; the host's layer is the
            // last one opened.
            let host = side_of(Seat::Host);
            return self.fault(
                now,
                host,
                FaultKind::PieceOpenedTwice(piece),
                format!("{host} flip opening"),
            );
        }
        if i != j {
            self.flip_arrangement.swap(i, j);
            let mut record = g.record().clone();
            record.setup = Setup::Flip {
                arrangement: self.flip_arrangement.to_vec(),
            };
            let g = Game::replay(&record, None)
                .expect("swapping two face-down pieces keeps the record legal");
            self.referee = Some(g);
        }
        self.referee_action(now, mover, Action::Move(m));
    }
}

/// Where rebuilding a side from a log failed: its message at `index` of the
/// log is not what the protocol gives.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{seat:?} message {index} of the log: {what}")]
pub struct ReplayError {
    /// The side whose message it is.
    pub seat: Seat,
    /// Its place in the log.
    pub index: usize,
    /// What differs.
    pub what: String,
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

/// The shuffle index of a point: its place among South's 25 setup points,
/// then North's (the order of [`junqi_game::Position::new_flip`]).
fn flip_index(p: Point) -> Option<u8> {
    let board = Board::classic();
    board
        .setup_points(Side::South)
        .iter()
        .chain(board.setup_points(Side::North))
        .position(|&q| q == p)
        .map(|i| i as u8)
}

/// The point of shuffle index `i`.
fn flip_point(i: usize) -> Option<Point> {
    let board = Board::classic();
    board
        .setup_points(Side::South)
        .iter()
        .chain(board.setup_points(Side::North))
        .nth(i)
        .copied()
}

fn no_moves_result(stuck: Side, other_can_move: bool) -> GameResult {
    if other_can_move {
        GameResult::Win {
            winner: stuck.opponent(),
            reason: WinReason::NoLegalMove,
        }
    } else {
        GameResult::Draw {
            reason: DrawReason::NoMovesEither,
        }
    }
}

/// The audit rebuilds the game from its acts; an ending off the board (a resignation, an agreed
/// draw) is added so that the record replays to the result both sides agreed on.
fn with_ending(mut record: Record, result: Option<GameResult>) -> Record {
    let Ok(game) = Game::replay(&record, None) else {
        return record;
    };
    if game.result().is_some() {
        return record;
    }
    let ending = match result {
        Some(GameResult::Win {
            winner,
            reason: WinReason::Resignation,
        }) => vec![(winner.opponent(), Action::Resign)],
        Some(GameResult::Draw {
            reason: DrawReason::Agreed,
        }) => {
            let offerer = game.turn();
            vec![
                (offerer, Action::OfferDraw),
                (offerer.opponent(), Action::AcceptDraw),
            ]
        }
        _ => return record,
    };
    let before = record.actions.len();
    record.actions.extend(ending);
    if Game::replay(&record, None).is_err() {
        record.actions.truncate(before);
    }
    record
}
