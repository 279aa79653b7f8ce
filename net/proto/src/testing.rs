//! A two-peer harness with a virtual clock (quinn-proto's test `Pair`, for
//! this protocol): two [`Session`]s exchange bytes through an in-memory wire
//! with latency; players pick moves; either side can be a scripted cheater and
//! the wire can be tampered with.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use ed25519_dalek::SigningKey;
use junqi_game::{Layout, Move, PlayerView, Rules, Seen, Side};
use rand::{Rng, RngCore, SeedableRng};
use rand_pcg::Pcg64;

use crate::crypto::Seed;
use crate::session::{AppEvent, Session, Verdict};

/// How a side picks its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// Uniformly random legal moves, preferring attacks half of the time.
    Random,
    /// Never moves (lets its clock run out).
    Idle,
    /// Random, but the first time one exists plays a railway move that turns
    /// a corner with a piece that is not an engineer.
    CornerCheat,
    /// Random, but the first time one exists moves a landmine or the flag.
    ImmovableCheat,
    /// Random moves after a random pause of up to the move clock and a few
    /// seconds more (so some moves are late and some cross a claim); now
    /// and then offers a draw, and answers offers late or not at all.
    Slow,
}

/// Rewrites the frames one side sends: returns the frames to deliver instead.
pub type Tamper = Box<dyn FnMut(usize, Vec<u8>) -> Vec<Vec<u8>>>;

/// Two sessions on a virtual wire.
pub struct Pair {
    /// `[host, guest]`.
    pub sessions: [Session; 2],
    /// The virtual clock.
    pub now: Instant,
    /// One-way latency.
    pub latency: Duration,
    /// How each side plays.
    pub players: [Player; 2],
    /// Every app event each side produced.
    pub events: [Vec<AppEvent>; 2],
    /// Every frame each side sent (before tampering).
    pub sent: [Vec<Vec<u8>>; 2],
    /// Optional tampering of the wire.
    pub tamper: Option<Tamper>,
    /// Each frame's latency is drawn from `latency ..= latency + jitter`
    /// (the stream stays in order, as QUIC's does).
    pub jitter: Duration,
    /// Each side's clock reads the virtual clock plus its offset.
    offsets: [Duration; 2],
    /// Whether the players confirm the pairing code as soon as it shows.
    pub auto_confirm: bool,
    wire: VecDeque<(Instant, usize, Vec<u8>)>,
    /// When a slow player acts next, and whether that is a draw answer.
    planned: [Option<(Instant, bool)>; 2],
    guest_layout: Layout,
    rng: Pcg64,
    cheat_done: [bool; 2],
    your_turn: [bool; 2],
    keys: [SigningKey; 2],
}

/// A layout that is legal under `rules`, from the classic presets.
#[must_use]
pub fn preset(i: usize) -> Layout {
    let all = junqi_game::classic_layouts();
    all[i % all.len()].layout
}

impl Pair {
    /// A new pair: the host proposes `rules`; both play presets; `seed` drives
    /// keys, nonces and players.
    ///
    /// # Panics
    /// If the presets are illegal under `rules`.
    #[must_use]
    pub fn new(rules: Rules, seed: u64) -> Pair {
        Pair::with_clocks(rules, seed, [Duration::ZERO; 2])
    }

    /// A new pair whose clocks read the virtual clock plus these offsets.
    ///
    /// # Panics
    /// If the presets are illegal under `rules`.
    #[must_use]
    pub fn with_clocks(rules: Rules, seed: u64, offsets: [Duration; 2]) -> Pair {
        let mut rng = Pcg64::seed_from_u64(seed);
        let t0 = Instant::now();
        let k = |rng: &mut Pcg64| {
            let mut b = [0u8; 32];
            rng.fill(&mut b);
            b
        };
        let host_key = SigningKey::from_bytes(&k(&mut rng));
        let guest_key = SigningKey::from_bytes(&k(&mut rng));
        let host = Session::host(
            t0 + offsets[0],
            rules,
            preset(seed as usize),
            &host_key.clone(),
            Seed(k(&mut rng)),
            k(&mut rng),
            "host",
        )
        .expect("legal preset");
        let guest = Session::join(
            t0 + offsets[1],
            &guest_key.clone(),
            Seed(k(&mut rng)),
            k(&mut rng),
            "guest",
        );
        Pair {
            sessions: [host, guest],
            now: t0,
            latency: Duration::from_millis(5),
            players: [Player::Random, Player::Random],
            events: [Vec::new(), Vec::new()],
            sent: [Vec::new(), Vec::new()],
            tamper: None,
            jitter: Duration::ZERO,
            offsets,
            auto_confirm: true,
            wire: VecDeque::new(),
            planned: [None; 2],
            guest_layout: preset(seed as usize + 7),
            rng,
            cheat_done: [false; 2],
            your_turn: [false; 2],
            keys: [host_key, guest_key],
        }
    }

    /// Index of a side's session.
    #[must_use]
    pub fn index(side: Side) -> usize {
        usize::from(side != Side::South)
    }

    /// The verdict of session `i`, if reached.
    #[must_use]
    pub fn verdict(&self, i: usize) -> Option<&Verdict> {
        self.sessions[i].verdict()
    }

    /// Runs until both sides are done or `max_steps` steps have passed.
    /// Returns whether both are done.
    pub fn run(&mut self, max_steps: usize) -> bool {
        for _ in 0..max_steps {
            if self.sessions.iter().all(Session::is_done) {
                return true;
            }
            self.step();
        }
        self.sessions.iter().all(Session::is_done)
    }

    /// Steps until `done` holds; a test that waits for something that never
    /// comes fails instead of hanging.
    ///
    /// # Panics
    /// After 200,000 steps.
    pub fn step_until(&mut self, mut done: impl FnMut(&Pair) -> bool) {
        for _ in 0..200_000 {
            if done(self) {
                return;
            }
            self.step();
        }
        panic!("the awaited state never came");
    }

    /// Runs until session `i` reaches a verdict.
    pub fn run_until_verdict(&mut self, i: usize, max_steps: usize) -> Option<Verdict> {
        for _ in 0..max_steps {
            if let Some(v) = self.sessions[i].verdict() {
                return Some(v.clone());
            }
            if self.sessions.iter().all(Session::is_done) {
                break;
            }
            self.step();
        }
        self.sessions[i].verdict().cloned()
    }

    /// Side `i`'s clock.
    #[must_use]
    pub fn clock(&self, i: usize) -> Instant {
        self.now + self.offsets[i]
    }

    /// One step: flush output, handle events, deliver due frames, let players
    /// move; when nothing is due, advance the clock to the next deadline.
    pub fn step(&mut self) {
        let mut progressed = self.flush();
        // Deliver what is due.
        while let Some(&(at, to, _)) = self.wire.front()
            && at <= self.now
        {
            let (_, _, bytes) = self.wire.pop_front().expect("front");
            let now = self.clock(to);
            self.sessions[to].handle_bytes(now, &bytes);
            progressed = true;
            self.flush();
        }
        for i in 0..2 {
            if self.players[i] == Player::Slow {
                progressed |= self.slow_player(i);
                continue;
            }
            // Players act on the session's turn notice, as an app would.
            if self.your_turn[i] && self.sessions[i].my_turn() && self.players[i] != Player::Idle {
                self.your_turn[i] = false;
                self.move_for(i);
                progressed = true;
                self.flush();
            }
        }
        if progressed {
            return;
        }
        // Advance the clock.
        let next_wire = self.wire.front().map(|&(t, _, _)| t);
        let next_timer = (0..2)
            .filter_map(|i| self.sessions[i].poll_timeout().map(|t| t - self.offsets[i]))
            .chain(self.planned.iter().flatten().map(|&(t, _)| t))
            .min();
        let next = match (next_wire, next_timer) {
            (Some(a), Some(b)) => a.min(b),
            (a, b) => a.or(b).unwrap_or(self.now + Duration::from_secs(1)),
        };
        if next > self.now {
            self.now = next;
        }
        for i in 0..2 {
            let now = self.clock(i);
            if self.sessions[i].poll_timeout().is_some_and(|t| t <= now) {
                self.sessions[i].handle_timeout(now);
            }
        }
        self.flush();
    }

    /// A slow player: plans its move (or its draw answer) when asked, acts
    /// when the time comes. Returns whether it did something.
    fn slow_player(&mut self, i: usize) -> bool {
        let move_time =
            Duration::from_secs(u64::from(self.sessions[i].rules().move_seconds.max(1)));
        if self.your_turn[i] && self.planned[i].is_none() {
            self.your_turn[i] = false;
            // Mostly quick, sometimes close to the deadline or past it.
            let pause = match self.rng.random_range(0..10) {
                0..=5 => Duration::from_millis(self.rng.random_range(0..500)),
                6..=8 => {
                    move_time.saturating_sub(Duration::from_millis(self.rng.random_range(0..3000)))
                }
                _ => move_time + Duration::from_millis(self.rng.random_range(0..5000)),
            };
            self.planned[i] = Some((self.now + pause, false));
        }
        let Some((at, answer)) = self.planned[i] else {
            return false;
        };
        if at > self.now {
            return false;
        }
        self.planned[i] = None;
        let now = self.clock(i);
        if answer {
            // The session may have declined by itself already.
            let _ = if self.rng.random_bool(0.3) {
                self.sessions[i].accept_draw(now)
            } else {
                self.sessions[i].decline_draw(now)
            };
        } else if self.sessions[i].my_turn() {
            if self.rng.random_bool(0.03) && self.sessions[i].offer_draw(now).is_ok() {
                self.flush();
                return true;
            }
            let view = self.sessions[i].view().expect("playing").clone();
            if let Some(m) = random_move(&view, &mut self.rng) {
                // Refused once the clock has run out: the peer claims.
                let _ = self.sessions[i].play(now, m);
            }
        }
        self.flush();
        true
    }

    /// Whether side `i`'s scripted cheat move was played.
    #[must_use]
    pub fn cheated(&self, i: usize) -> bool {
        self.cheat_done[i]
    }

    /// Simulates a crash of side `i` and a reconnection: the session is
    /// rebuilt from its saved state, frames in flight are lost, and both sides
    /// exchange stream starts so each resends what the other missed.
    ///
    /// # Panics
    /// If the saved log does not replay.
    pub fn crash_and_restore(&mut self, i: usize) {
        use crate::frame::decode_payload;
        use crate::saved::StreamStart;
        let saved = self.sessions[i].saved();
        let bytes = saved.clone();
        self.sessions[i] =
            Session::restore(self.clock(i), &self.keys[i], &bytes).expect("the saved log replays");
        self.wire.clear();
        let start = |s: &Session| -> StreamStart {
            decode_payload(&s.stream_start()[4..]).expect("stream start")
        };
        let (a, b) = (start(&self.sessions[0]), start(&self.sessions[1]));
        self.sessions[0].handle_stream_start(self.clock(0), b);
        self.sessions[1].handle_stream_start(self.clock(1), a);
    }

    /// Simulates side `i` restored from an older copy of its journal (a
    /// backup, a snapshot, a write lost before it reached the disk): only the
    /// first `keep` messages of its log survive. Frames in flight are lost
    /// and both sides exchange stream starts. Returns whether the older copy
    /// could be restored at all (a guest's copy from before it accepted the
    /// rules cannot).
    pub fn restore_from_older(&mut self, i: usize, keep: usize) -> bool {
        use crate::frame::decode_payload;
        use crate::saved::StreamStart;
        if !self.restore_alone(i, keep) {
            return false;
        }
        let start = |s: &Session| -> StreamStart {
            decode_payload(&s.stream_start()[4..]).expect("stream start")
        };
        let (a, b) = (start(&self.sessions[0]), start(&self.sessions[1]));
        self.sessions[0].handle_stream_start(self.clock(0), b);
        self.sessions[1].handle_stream_start(self.clock(1), a);
        true
    }

    /// Side `i` is restored from the first `keep` messages of its journal and the connection
    /// drops, but no stream start is exchanged yet (the restored side has not heard what the
    /// peer holds). Returns false when the copy does not restore.
    pub fn restore_alone(&mut self, i: usize, keep: usize) -> bool {
        let mut saved = self.sessions[i].saved();
        saved.log.truncate(keep);
        let Ok(restored) = Session::restore(self.clock(i), &self.keys[i], &saved) else {
            return false;
        };
        self.sessions[i] = restored;
        self.wire.clear();
        true
    }

    /// Plays side `i` by hand (random moves) until it is on move at `min_ply` or later, and
    /// leaves it there, idle; the caller gives the side its player back.
    ///
    /// # Panics
    /// The side never comes on move at `min_ply` (a test's setting is wrong).
    pub fn hold_turn(&mut self, i: usize, min_ply: u16, seed: u64) {
        let mut rng = Pcg64::seed_from_u64(seed);
        self.players[i] = Player::Idle;
        for _ in 0..200_000 {
            self.step();
            if !self.sessions[i].my_turn() {
                continue;
            }
            let v = self.sessions[i].view().expect("in play").clone();
            if v.ply() >= min_ply {
                return;
            }
            let m = random_move(&v, &mut rng).expect("a legal move");
            let now = self.clock(i);
            self.sessions[i].play(now, m).expect("its move");
        }
        panic!("side {i} never came on move at ply {min_ply}");
    }

    /// The connection drops: frames in flight are lost (the caller then
    /// exchanges stream starts, as a transport does on the next connection).
    pub fn drop_in_flight(&mut self) {
        self.wire.clear();
    }

    /// Queues one raw frame from side `from` (for replay and garbage tests).
    pub fn inject(&mut self, from: usize, bytes: Vec<u8>) {
        self.queue(from, bytes);
    }

    /// Puts a frame on the wire behind everything already sent that way.
    fn queue(&mut self, from: usize, bytes: Vec<u8>) {
        let extra = if self.jitter.is_zero() {
            Duration::ZERO
        } else {
            Duration::from_micros(self.rng.random_range(0..=self.jitter.as_micros() as u64))
        };
        let last = self
            .wire
            .iter()
            .filter(|w| w.1 == 1 - from)
            .map(|w| w.0)
            .max();
        let at = (self.now + self.latency + extra).max(last.unwrap_or(self.now));
        let pos = self
            .wire
            .iter()
            .position(|w| w.0 > at)
            .unwrap_or(self.wire.len());
        self.wire.insert(pos, (at, 1 - from, bytes));
    }

    fn flush(&mut self) -> bool {
        let mut any = false;
        for i in 0..2 {
            while let Some(bytes) = self.sessions[i].poll_transmit() {
                any = true;
                self.sent[i].push(bytes.clone());
                let frames = match self.tamper.as_mut() {
                    Some(t) => t(i, bytes),
                    None => vec![bytes],
                };
                for f in frames {
                    self.queue(i, f);
                }
            }
            while let Some(e) = self.sessions[i].poll_event() {
                any = true;
                let now = self.clock(i);
                if e == AppEvent::YourTurn {
                    self.your_turn[i] = true;
                }
                if e == AppEvent::DrawOffered && self.players[i] == Player::Slow {
                    let pause = Duration::from_secs(self.rng.random_range(0..70));
                    self.planned[i] = Some((self.now + pause, true));
                }
                // The players compare the codes and confirm (a relay test
                // checks the codes themselves).
                if let AppEvent::PairingCode { .. } = e
                    && self.auto_confirm
                {
                    self.sessions[i]
                        .confirm_pairing(now)
                        .expect("waiting for the confirmation");
                }
                if let AppEvent::RulesOffered { .. } = e {
                    let l = self.guest_layout;
                    self.sessions[i].accept(now, l).expect("legal guest layout");
                }
                self.events[i].push(e);
            }
        }
        any
    }

    fn move_for(&mut self, i: usize) {
        let view = self.sessions[i].view().expect("playing").clone();
        let now = self.clock(i);
        if !self.cheat_done[i] {
            let cheat = match self.players[i] {
                Player::CornerCheat => corner_cheat(&view),
                Player::ImmovableCheat => immovable_cheat(&view),
                _ => None,
            };
            if let Some(m) = cheat {
                self.cheat_done[i] = true;
                self.sessions[i].play_unchecked(now, m).expect("my turn");
                return;
            }
        }
        let m = random_move(&view, &mut self.rng);
        match m {
            Some(m) => self.sessions[i].play(now, m).expect("a legal move"),
            None => unreachable!("the session claims no-moves itself"),
        }
    }
}

/// A random legal move, preferring attacks half of the time.
pub fn random_move(view: &PlayerView, rng: &mut impl Rng) -> Option<Move> {
    let moves = view.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let attacks: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| matches!(m, Move::Step { to, .. } if view.at(*to).is_some()))
        .collect();
    if !attacks.is_empty() && rng.random_bool(0.5) {
        return Some(attacks[rng.random_range(0..attacks.len())]);
    }
    Some(moves[rng.random_range(0..moves.len())])
}

/// A railway move turning a corner by one of `view`'s own non-engineers, onto
/// an empty point, if one exists.
#[must_use]
pub fn corner_cheat(view: &PlayerView) -> Option<Move> {
    use junqi_game::Rank;
    let me = view.me();
    // Pretend every own piece is an engineer and compare with the real moves.
    let real = view.legal_moves();
    let pos = view.determinize(|_| (me.opponent(), Rank::Engineer));
    let mut fake = pos.clone();
    for (p, pc) in pos.pieces() {
        if pc.side == me && pc.rank.is_movable() && pc.rank != Rank::Engineer {
            fake.set(
                p,
                Some(junqi_game::Piece {
                    rank: Rank::Engineer,
                    ..pc
                }),
            );
        }
    }
    fake.legal_moves().into_iter().find(|m| {
        let Move::Step { from, to } = *m else { return false };
        !real.contains(m)
            && view.at(to).is_none()
            && matches!(view.at(from), Some(Seen::Piece { rank: Some(r), .. }) if r != Rank::Engineer && r.is_movable())
    })
}

/// A one-step move of a landmine or the flag onto an empty point, if one exists.
#[must_use]
pub fn immovable_cheat(view: &PlayerView) -> Option<Move> {
    use junqi_game::Rank;
    let board = view.board();
    for p in board.points() {
        if let Some(Seen::Piece {
            side,
            rank: Some(r),
            ..
        }) = view.at(p)
            && side == view.me()
            && matches!(r, Rank::Landmine | Rank::Flag)
        {
            for &q in board.road_neighbours(p) {
                if view.at(q).is_none() && board.kind(q) != junqi_game::PointKind::Camp {
                    return Some(Move::Step { from: p, to: q });
                }
            }
            for &q in board.rail_neighbours(p) {
                if view.at(q).is_none() {
                    return Some(Move::Step { from: p, to: q });
                }
            }
        }
    }
    None
}

/// A random protocol message with random fields (for fuzzing the state machine).
pub fn arbitrary_body(rng: &mut impl Rng) -> crate::wire::Body {
    use crate::commit::PieceOpening;
    use crate::flip::FlipOpening;
    use crate::ot::{OtResponse, OtReveal};
    use crate::rank::WireRank;
    use crate::wire::Body;
    let b32 = |rng: &mut dyn rand::RngCore| {
        let mut b = [0u8; 32];
        rng.fill_bytes(&mut b);
        b
    };
    let small = |rng: &mut dyn rand::RngCore| (rng.next_u32() % 140) as u8;
    let rank = |rng: &mut dyn rand::RngCore| WireRank::ALL[(rng.next_u32() % 12) as usize];
    let n = |rng: &mut dyn rand::RngCore, max: u32| (rng.next_u32() % (max + 1)) as usize;
    match rng.random_range(0..19) {
        0 => Body::Hello {
            key: b32(rng),
            nonce: b32(rng),
            rules: Rules {
                move_seconds: rng.random_range(0..100),
                ..Rules::default()
            },
            name: "x".repeat(n(rng, 80)),
        },
        1 => Body::Commit {
            pieces: (0..n(rng, 30)).map(|_| b32(rng)).collect(),
            seed: b32(rng),
            ot_key: b32(rng),
            flip: (0..n(rng, 2)).map(|_| b32(rng)).collect(),
        },
        2 => Body::Reveal {
            seed: Seed(b32(rng)),
            ranks: (0..n(rng, 26)).map(|_| rank(rng)).collect(),
        },
        3 => Body::Step {
            from: small(rng),
            to: small(rng),
        },
        4 => Body::Attack {
            from: small(rng),
            to: small(rng),
            r: b32(rng),
        },
        5 => Body::Table(OtResponse {
            entries: std::array::from_fn(|_| {
                let mut e = [0u8; 16];
                rng.fill_bytes(&mut e);
                e
            }),
            label_hashes: (0..n(rng, 12)).map(|_| b32(rng)).collect(),
        }),
        6 => {
            let mut label = [0u8; 16];
            rng.fill_bytes(&mut label);
            Body::Label(OtReveal {
                outcome: rng.random_range(0..600),
                label,
            })
        }
        7 => Body::FlagOpen(PieceOpening {
            square: small(rng),
            rank: rank(rng),
            salt: b32(rng),
        }),
        8 => Body::Flip { at: small(rng) },
        9 => Body::FlipOpen(FlipOpening {
            index: small(rng),
            value: small(rng),
            salt: b32(rng),
        }),
        10 => Body::ClaimTimeout {
            ply: rng.random_range(0..400),
        },
        11 => Body::ClaimForfeit,
        12 => Body::NoMoves,
        13 => Body::NoMovesReply {
            can_move: rng.random_bool(0.5),
        },
        14 => match rng.random_range(0..3) {
            0 => Body::Nonce { nonce: b32(rng) },
            1 => Body::Proceed,
            _ => Body::OfferDraw,
        },
        15 => Body::AcceptDraw,
        16 => Body::DeclineDraw,
        17 => Body::Resign,
        _ => Body::Dispute {
            reason: "y".repeat(n(rng, 300)),
        },
    }
}

/// Fuzzes a mid-game session with `iterations` hostile inputs: random bytes,
/// mutated real frames, and correctly signed random messages from the peer,
/// each followed by a random timeout. Panics on any panic of the session.
/// Returns how many inputs were processed.
pub fn fuzz_sessions(iterations: u64, seed: u64) -> u64 {
    fuzz_sessions_with(iterations, seed, |_| {})
}

/// [`fuzz_sessions`], calling `done(i)` after input `i` (for a progress line).
pub fn fuzz_sessions_with(iterations: u64, seed: u64, mut done: impl FnMut(u64)) -> u64 {
    use crate::envelope::Envelope;
    use crate::frame::FrameDecoder;
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut bases = Vec::new();
    for (mode, steps) in [
        (junqi_game::Mode::Dark, 40),
        (junqi_game::Mode::Dark, 400),
        (junqi_game::Mode::Open, 200),
        (junqi_game::Mode::Flip, 30),
        (junqi_game::Mode::Flip, 300),
    ] {
        let mut p = Pair::new(Rules::for_mode(mode), seed ^ steps as u64);
        p.run(steps);
        bases.push(p);
    }
    for i in 0..iterations {
        let base = &bases[(i % bases.len() as u64) as usize];
        match rng.random_range(0..4) {
            0 => {
                let mut d = FrameDecoder::new();
                let mut bytes = vec![0u8; rng.random_range(0..80)];
                rng.fill_bytes(&mut bytes);
                d.push(&bytes);
                while let Ok(Some(_)) = d.next_frame::<Envelope<crate::wire::Body>>() {}
            }
            1 => {
                let to = rng.random_range(0..2);
                let mut s = base.sessions[to].clone();
                let sent = &base.sent[1 - to];
                let mut f = sent[rng.random_range(0..sent.len())].clone();
                match rng.random_range(0..3) {
                    0 => {
                        let k = rng.random_range(0..f.len());
                        f[k] ^= 1 << rng.random_range(0..8);
                    }
                    1 => f.truncate(rng.random_range(0..f.len())),
                    _ => f.extend_from_slice(&f.clone()),
                }
                s.handle_bytes(base.now, &f);
                s.handle_timeout(base.now + Duration::from_secs(rng.random_range(0..200)));
            }
            _ => {
                let to = rng.random_range(0..2);
                let mut s = base.sessions[to].clone();
                let mut peer = base.sessions[1 - to].clone();
                let body = arbitrary_body(&mut rng);
                if let Some(f) = peer.forge(body) {
                    s.handle_bytes(base.now, &f);
                }
                while let Some(reply) = s.poll_transmit() {
                    peer.handle_bytes(base.now, &reply);
                }
                s.handle_timeout(base.now + Duration::from_secs(rng.random_range(0..200)));
                while let Some(reply) = peer.poll_transmit() {
                    s.handle_bytes(base.now, &reply);
                }
            }
        }
        done(i);
    }
    iterations
}
