//! Four seats in one process on a virtual clock, relayed through the host
//! as over the LAN (a star), with engine players at every seat, a hostile
//! relay and scripted cheaters (tests and benchmarks only).

use std::time::{Duration, Instant};

use ed25519_dalek::SigningKey;
use junqi_game::ai::{GreedyPlayer, Player, RandomPlayer};
use junqi_game::{Action, Rules};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

use super::body::Body4;
use super::log::{Envelope4, seal};
use super::seat::FourSeat;
use super::session::{FourCheats, FourConfig, FourEvent, FourSession};
use crate::crypto::Seed;
use crate::frame::{decode_payload, encode_payload};
use crate::testing::preset;

/// What the host device does with a frame it relays from one seat to another.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Relay {
    /// Forward it unchanged.
    Forward,
    /// Drop it.
    Drop,
    /// Forward it this much later (it may then overtake or be overtaken).
    Delay(Duration),
    /// Forward these bytes instead.
    Replace(Vec<u8>),
    /// Deliver these bytes first, then the frame.
    Prepend(Vec<u8>),
}

/// The host device's relaying: `(from, to, frame) -> what it does`.
pub type RelayFn = Box<dyn FnMut(FourSeat, FourSeat, &[u8]) -> Relay>;

/// The TLS exporter of a returning device's new connection, as the harness
/// has it (one link).
pub const LINK: [u8; 32] = [0x4c; 32];

/// A frame on its way: (when, serial, to which device, the frame, a seat of
/// that device not to give it to: the one that sent it).
type OnWire = (Instant, u64, FourSeat, Vec<u8>, Option<FourSeat>);

/// The engine player at a seat.
pub enum Seat4Player {
    /// Uniformly random legal moves.
    Random(RandomPlayer),
    /// The greedy one-ply player.
    Greedy(GreedyPlayer),
}

/// Four seats, the host's relay and a virtual clock.
pub struct Table4 {
    /// The four seats in seat order.
    pub seats: Vec<FourSession>,
    /// The virtual clock.
    pub now: Instant,
    /// The host (the relay).
    pub host: FourSeat,
    /// One-way latency of a hop.
    pub latency: Duration,
    /// The host device's relaying (honest by default).
    pub relay: RelayFn,
    /// Every event each seat gave its owner.
    pub events: [Vec<FourEvent>; 4],
    /// Every frame each seat received: what it could try to decode.
    pub received: [Vec<Vec<u8>>; 4],
    /// CPU time spent inside each seat's session, per call: (seat, the
    /// log round the call was about, time). For the benchmark.
    pub timing: Vec<(FourSeat, u64, Duration)>,
    /// Whether each seat's player confirms the code as soon as it is shown.
    pub auto_confirm: [bool; 4],
    /// Seats whose owner does nothing (no moves, no confirmations).
    pub idle: [bool; 4],
    /// Seats whose owner confirms but never moves (its clock runs out).
    pub no_moves: [bool; 4],
    /// How long each seat's player thinks before it moves.
    pub think: [Duration; 4],
    /// Whether each seat's player accepts a draw offer.
    pub accept_draws: [bool; 4],
    /// A seat that offers a draw on its first turn from this ply on.
    pub offer_draw: Option<(FourSeat, u16)>,
    /// A seat whose player leaves on its first turn from this ply on.
    pub leave_at: Option<(FourSeat, u16)>,
    /// Which device runs each seat (its own, or its partner's after a
    /// hand-over): frames go between devices, and a device hands what one
    /// of its seats sends to its other seat at once.
    pub device: [FourSeat; 4],

    acts: Vec<(Instant, FourSeat)>,
    /// Each seat's signing key (for tests that forge a seat's messages).
    pub keys: Vec<SigningKey>,
    /// Each seat's game seed (for tests that look for leaked secrets).
    pub seeds: Vec<Seed>,
    players: Vec<Seat4Player>,
    wire: Vec<OnWire>,
    serial: u64,
}

impl Table4 {
    /// A table under `rules` with greedy players at even seats and random
    /// ones at odd seats; `seed` drives keys, nonces, layouts and players.
    #[must_use]
    pub fn new(rules: Rules, seed: u64) -> Table4 {
        Table4::with_relay(rules, seed, Box::new(|_, _, _| Relay::Forward))
    }

    /// [`Table4::new`] with the host device relaying by `relay` from the
    /// first hello on.
    #[must_use]
    pub fn with_relay(rules: Rules, seed: u64, relay: RelayFn) -> Table4 {
        Table4::build(rules, seed, relay, [false; 4])
    }

    /// [`Table4::new`] where the players of the seats marked agreed to hand
    /// their seat to their partner's device if they leave.
    #[must_use]
    pub fn with_hand_over(rules: Rules, seed: u64, hand_over: [bool; 4]) -> Table4 {
        Table4::build(rules, seed, Box::new(|_, _, _| Relay::Forward), hand_over)
    }

    /// [`Table4::with_relay`] and [`Table4::with_hand_over`] at once.
    #[must_use]
    pub fn build(rules: Rules, seed: u64, relay: RelayFn, hand_over: [bool; 4]) -> Table4 {
        let mut rng = Pcg64::seed_from_u64(seed);
        let t0 = Instant::now();
        let mut k = || {
            let mut b = [0u8; 32];
            rng.fill(&mut b);
            b
        };
        let mut seats = Vec::with_capacity(4);
        let mut keys = Vec::with_capacity(4);
        let mut seeds = Vec::with_capacity(4);
        let mut players = Vec::with_capacity(4);
        for s in FourSeat::ALL {
            let cfg = FourConfig {
                seat: s,
                host: FourSeat::South,
                // The host names the rules; East takes them, the others
                // name the same.
                rules: (s != FourSeat::East).then_some(rules),
                name: format!("{s}"),
                layout: preset(seed as usize * 4 + s.index()),
                key: {
                    let key = SigningKey::from_bytes(&k());
                    keys.push(key.clone());
                    key
                },
                seed: {
                    let seed = Seed(k());
                    seeds.push(seed.clone());
                    seed
                },
                nonce: k(),
                hand_over: hand_over[s.index()],
            };
            seats.push(FourSession::new(cfg, t0).expect("a legal preset"));
            let ps = seed.wrapping_mul(31).wrapping_add(s.index() as u64);
            players.push(if s.index() % 2 == 0 {
                Seat4Player::Greedy(GreedyPlayer::new(ps))
            } else {
                Seat4Player::Random(RandomPlayer::new(ps))
            });
        }
        let mut t = Table4 {
            seats,
            now: t0,
            host: FourSeat::South,
            latency: Duration::from_millis(5),
            relay,
            events: Default::default(),
            received: Default::default(),
            timing: Vec::new(),
            auto_confirm: [true; 4],
            idle: [false; 4],
            no_moves: [false; 4],
            think: [Duration::ZERO; 4],
            accept_draws: [false; 4],
            offer_draw: None,
            leave_at: None,
            device: FourSeat::ALL,
            acts: Vec::new(),
            keys,
            seeds,
            players,
            wire: Vec::new(),
            serial: 0,
        };
        t.pump();
        t
    }

    /// Scripts a seat's cheats.
    pub fn set_cheats(&mut self, seat: FourSeat, cheats: FourCheats) {
        self.seats[seat.index()].set_cheats(cheats);
    }

    /// The seat's session.
    #[must_use]
    pub fn seat(&self, s: FourSeat) -> &FourSession {
        &self.seats[s.index()]
    }

    /// The seat's session, mutably (a test acting as its owner).
    pub fn seat_mut(&mut self, s: FourSeat) -> &mut FourSession {
        &mut self.seats[s.index()]
    }

    /// The device of `seat` crashes and comes back from `journal` (what it
    /// kept at some moment; `None`: its journal now): the frames on their
    /// way to it are lost; it returns, the host resends what it holds from
    /// two rounds before the seat's last, and the seat resends to the host
    /// what it holds from two rounds before the host's.
    ///
    /// # Errors
    /// The journal does not replay.
    pub fn crash_and_resume(
        &mut self,
        seat: FourSeat,
        journal: Option<Vec<Envelope4>>,
    ) -> Result<(), super::ResumeError> {
        let old = &self.seats[seat.index()];
        let journal = journal.unwrap_or_else(|| old.journal());
        let cfg = old.config().clone();
        self.wire.retain(|w| w.2 != seat);
        self.acts.retain(|a| a.1 != seat);
        let mut back = FourSession::resume(cfg, journal, self.now)?;
        if seat == self.host {
            // A host waits for what its guests hold (their returns say it).
            let holds = FourSeat::ALL
                .into_iter()
                .filter(|&g| g != seat)
                .map(|g| self.seats[g.index()].log().round())
                .max()
                .unwrap_or(0);
            back.release_after(holds);
        } else {
            // A guest waits for what the host's welcome says it held.
            let w = self.seats[self.host.index()].welcome(seat, &LINK);
            back.take_welcome(&w, &LINK)
                .expect("the host's welcome over this link");
        }
        self.seats[seat.index()] = back;
        // Every guest's link to the host starts again (the host's crash),
        // or only the crashed guest's.
        let host = self.host;
        let guests: Vec<FourSeat> = FourSeat::ALL
            .into_iter()
            .filter(|&g| g != host && (seat == host || g == seat))
            .collect();
        let at = self.now + self.latency;
        for g in guests {
            let (guest_rounds, host_rounds) = (
                self.seats[g.index()].log().round(),
                self.seats[host.index()].log().round(),
            );
            for f in self.seats[host.index()].resend_from(guest_rounds.saturating_sub(2)) {
                self.push(g, f, at, None, None);
            }
            // The host relays what a returning guest sends, as any frame
            // (the others drop what they hold).
            for f in self.seats[g.index()].resend_from(host_rounds.saturating_sub(2)) {
                self.push(host, f, at, Some(g), None);
            }
        }
        Ok(())
    }

    /// Puts a frame from `from` on the wire: the host sends to everyone;
    /// any other seat sends to the host, which relays it.
    pub fn inject(&mut self, from: FourSeat, frame: Vec<u8>) {
        let dev = self.device[from.index()];
        // The device's other seat takes it at once.
        if self.device.iter().filter(|&&d| d == dev).count() > 1 {
            self.push(dev, frame.clone(), self.now, None, Some(from));
        }
        if dev == self.host {
            for to in self.devices().into_iter().filter(|&t| t != dev) {
                self.relay_hop(dev, to, frame.clone(), self.now + self.latency);
            }
        } else {
            self.push(self.host, frame, self.now + self.latency, Some(dev), None);
        }
    }

    /// The devices still at the table (one per seat, fewer after a hand-over).
    fn devices(&self) -> Vec<FourSeat> {
        FourSeat::ALL
            .into_iter()
            .filter(|d| self.device.contains(d))
            .collect()
    }

    fn push(
        &mut self,
        to: FourSeat,
        frame: Vec<u8>,
        at: Instant,
        relay_from: Option<FourSeat>,
        except: Option<FourSeat>,
    ) {
        self.serial += 1;
        self.wire.push((at, self.serial, to, frame.clone(), except));
        if let Some(from) = relay_from {
            // What the host passes on to the other devices.
            let host = self.host;
            for other in self
                .devices()
                .into_iter()
                .filter(|&t| t != from && t != host)
            {
                self.relay_hop(from, other, frame.clone(), at + self.latency);
            }
        }
    }

    fn relay_hop(&mut self, from: FourSeat, to: FourSeat, frame: Vec<u8>, at: Instant) {
        match (self.relay)(from, to, &frame) {
            Relay::Forward => self.push(to, frame, at, None, None),
            Relay::Drop => {}
            Relay::Delay(d) => self.push(to, frame, at + d, None, None),
            Relay::Replace(b) => self.push(to, b, at, None, None),
            Relay::Prepend(b) => {
                self.push(to, b, at, None, None);
                self.push(to, frame, at, None, None);
            }
        }
    }

    /// Collects what every seat sends and tells, and lets the players act.
    fn pump(&mut self) {
        loop {
            let mut any = false;
            for s in FourSeat::ALL {
                while let Some(f) = self.seats[s.index()].poll_transmit() {
                    any = true;
                    self.inject(s, f);
                }
                while let Some(e) = self.seats[s.index()].poll_event() {
                    any = true;
                    if self.idle[s.index()] {
                        self.events[s.index()].push(e);
                        continue;
                    }
                    if matches!(e, FourEvent::PairingCode(_)) && self.auto_confirm[s.index()] {
                        let _ = self.seats[s.index()].confirm_pairing(self.now);
                    }
                    if let FourEvent::TakeOver { seat } = e {
                        let proxy = self.seats[s.index()]
                            .take_over(self.now)
                            .expect("a seat handed over");
                        self.seats[seat.index()] = proxy;
                        self.device[seat.index()] = self.device[s.index()];
                        self.acts.retain(|a| a.1 != seat);
                    }
                    if e == FourEvent::YourTurn
                        && let Some((leaver, ply)) = self.leave_at
                        && leaver == s
                        && self.seats[s.index()].view().is_some_and(|v| v.ply() >= ply)
                    {
                        self.leave_at = None;
                        self.seats[s.index()].leave(self.now);
                        self.events[s.index()].push(e);
                        continue;
                    }
                    if let FourEvent::AnswerDraw { .. } = e {
                        let accept = self.accept_draws[s.index()];
                        self.seats[s.index()]
                            .answer_draw(self.now, accept)
                            .expect("an answer is owed");
                    }
                    if e == FourEvent::YourTurn
                        && let Some((offerer, ply)) = self.offer_draw
                        && offerer == s
                        && self.seats[s.index()].view().is_some_and(|v| v.ply() >= ply)
                    {
                        self.offer_draw = None;
                        self.seats[s.index()]
                            .offer_draw(self.now)
                            .expect("an offer on its move");
                        self.events[s.index()].push(e);
                        continue;
                    }
                    if e == FourEvent::YourTurn && !self.no_moves[s.index()] {
                        if self.think[s.index()].is_zero() {
                            self.act(s);
                        } else {
                            self.acts.push((self.now + self.think[s.index()], s));
                        }
                    }
                    self.events[s.index()].push(e);
                }
            }
            if !any {
                break;
            }
        }
    }

    fn act(&mut self, s: FourSeat) {
        let session = &self.seats[s.index()];
        if !session.my_turn() {
            return;
        }
        let view = session.view().expect("in play").clone();
        let action = match &mut self.players[s.index()] {
            Seat4Player::Random(p) => p.act(&view, &|| false),
            Seat4Player::Greedy(p) => p.act(&view, &|| false),
        };
        if let Action::Move(m) = action {
            let round = self.seats[s.index()].log().round();
            let t0 = Instant::now();
            self.seats[s.index()]
                .play(self.now, m)
                .expect("the player's move is legal in its view");
            self.timing.push((s, round, t0.elapsed()));
        }
    }

    /// Whether every seat has its verdict.
    #[must_use]
    pub fn all_done(&self) -> bool {
        self.seats.iter().all(|s| s.verdict().is_some())
    }

    /// Runs until every seat is done, nothing is left to happen, or
    /// `max_steps` deliveries and timeouts. Returns whether all are done.
    pub fn run(&mut self, max_steps: usize) -> bool {
        for _ in 0..max_steps {
            self.pump();
            if self.all_done() {
                return true;
            }
            let next_act = self.acts.iter().map(|a| a.0).min();
            let next_wire_at = self.wire.iter().map(|w| w.0).min();
            if let Some(t) = next_act
                && next_wire_at.is_none_or(|w| t < w)
                && self
                    .seats
                    .iter()
                    .filter_map(FourSession::poll_timeout)
                    .min()
                    .is_none_or(|d| t < d)
            {
                let i = self.acts.iter().position(|a| a.0 == t).expect("queued");
                let (at, s) = self.acts.swap_remove(i);
                self.now = self.now.max(at);
                self.act(s);
                continue;
            }
            let next_wire = self.wire.iter().map(|w| (w.0, w.1)).min();
            let next_timer = self
                .seats
                .iter()
                .filter_map(FourSession::poll_timeout)
                .min();
            match (next_wire, next_timer) {
                (Some((at, serial)), t) if t.is_none_or(|t| at <= t) => {
                    let i = self
                        .wire
                        .iter()
                        .position(|w| w.1 == serial)
                        .expect("queued");
                    let (at, _, dev, frame, except) = self.wire.swap_remove(i);
                    self.now = self.now.max(at);
                    let round = decode(&frame).map_or(u64::MAX, |e| e.signed.header.round);
                    for to in FourSeat::ALL {
                        if self.device[to.index()] != dev || except == Some(to) {
                            continue;
                        }
                        self.received[to.index()].push(frame.clone());
                        let t0 = Instant::now();
                        self.seats[to.index()].handle_frame(self.now, &frame);
                        self.timing.push((to, round, t0.elapsed()));
                    }
                }
                (Some(_), None) => unreachable!("the arm above takes it"),
                (_, Some(t)) => {
                    self.now = self.now.max(t);
                    for s in &mut self.seats {
                        s.handle_timeout(self.now);
                    }
                }
                (None, None) => return self.all_done(),
            }
        }
        self.all_done()
    }
}

/// The same message with another body, signed again by `key` (a seat
/// saying two things, or a stranger): header fields and witness kept.
#[must_use]
pub fn resign_with(key: &SigningKey, env: &Envelope4, body: Body4) -> Envelope4 {
    let h = env.signed.header;
    seal(
        key,
        h.game,
        h.sender,
        h.round,
        &env.witness,
        h.turn_ms,
        body,
    )
    .expect("fits")
}

/// Decodes a frame's envelope.
#[must_use]
pub fn decode(frame: &[u8]) -> Option<Envelope4> {
    decode_payload(frame).ok()
}

/// Encodes an envelope as a frame payload.
#[must_use]
pub fn encode(env: &Envelope4) -> Vec<u8> {
    encode_payload(env).expect("fits")
}
