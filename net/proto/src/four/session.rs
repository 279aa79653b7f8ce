//! One seat's state machine of a four-seat table (sans-IO, as
//! [`crate::session::Session`] is for two): frames in, frames and events
//! out, time as an argument. The table's start (hellos, nonces, the pairing
//! code, commitments, 双明 reveals) is here; play is in `play.rs`, the end
//! in `end.rs`.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use ed25519_dalek::{SigningKey, VerifyingKey};
use junqi_game::{GameResult, Layout, PlayerView, Rules, TableEvent};

use super::body::Body4;
use super::fault::{Blame, FourFault, Unplayed};
use super::hello::{first_seat, game_id, pairing_code};
use super::log::{Envelope4, Link, LinkError, TableLog, seal};
use super::partner;
use super::play_state::PlayState;
use super::seat::{FourSeat, layout_of, slots_of};
use crate::announced::AnnouncementTable;
use crate::commit::{PieceOpening, SetupCommitment};
use crate::crypto::{Digest, Seed, ZERO_DIGEST};
use crate::frame::{decode_payload, encode_payload};
use crate::ot::{OtKey, PeerKey};
#[cfg(feature = "testing")]
use crate::rank::WireRank;
use crate::session::{LATENCY_BOUND, PAIRING_TIMEOUT, nonce_commitment};
use crate::wire::table_from_rules;

/// Messages of rounds not reached yet that a seat keeps (a relay may
/// deliver a little out of order); more are dropped.
pub const MAX_AHEAD: usize = 64;

/// How many rounds ahead of the round under way a kept message may be.
pub const MAX_ROUNDS_AHEAD: u64 = 8;

/// What one seat brings to a table.
#[derive(Clone, Debug)]
pub struct FourConfig {
    /// Its seat.
    pub seat: FourSeat,
    /// The seat of the host (the device that opened the table and relays).
    pub host: FourSeat,
    /// The host's rules; a guest gives `None` to take the rules of the
    /// host's hello (or the rules it accepted in the lobby, which the host's
    /// must then equal).
    pub rules: Option<Rules>,
    /// The player's name.
    pub name: String,
    /// Its setup.
    pub layout: Layout,
    /// Its signing key for this game.
    pub key: SigningKey,
    /// Its secret game seed.
    pub seed: Seed,
    /// Its hello nonce.
    pub nonce: [u8; 32],
    /// The player agreed that, if it leaves, its partner's device plays
    /// its seat on (a computer player; RULES.md §9 otherwise). Sent in its
    /// hello, so in the pairing code; never the host's (its device relays).
    pub hand_over: bool,
}

/// What a seat tells its owner (the app, `junqi-peer`, a test).
#[derive(Clone, Debug, PartialEq)]
pub enum FourEvent {
    /// Every hello and nonce is in: the code every player compares.
    PairingCode(String),
    /// Play begins.
    Started {
        /// Who moves first.
        first: FourSeat,
    },
    /// A public announcement, in the order every seat applies it.
    Table(TableEvent),
    /// This seat is on move.
    YourTurn,
    /// A draw is offered and this seat must answer ([`FourSession::answer_draw`]).
    AnswerDraw {
        /// Who offered it.
        by: FourSeat,
    },
    /// This seat's last move crossed the host's timeout claim and is void
    /// (the view is back to before it; the pass follows as a table event).
    MoveVoided,
    /// This seat's timeout claim over the host crossed the host's move,
    /// which the host relayed first to every other seat: the claim is void
    /// (the view is back to before it; the move follows as a table event).
    ClaimVoided,
    /// This seat's partner left and handed its seat to this device: the
    /// owner calls [`FourSession::take_over`] and plays that seat too.
    TakeOver {
        /// The seat handed over.
        seat: FourSeat,
    },
    /// The table is over.
    Over(Box<FourVerdict>),
}

/// How the table ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Ending {
    /// It never started; nobody is blamed.
    Unplayed(Unplayed),
    /// Played to its end (a result, or a dispute the audit settled).
    Played,
    /// A seat left (逃跑, RULES.md §9).
    Left(FourSeat),
    /// The seat owing the next message went silent (perhaps dropped by the
    /// relay): nobody scores and nobody is blamed.
    Abandoned,
    /// A guest heard nothing from the host while a move was owed, although
    /// the host owed it something within the wait (its own move, or its
    /// timeout claim over the silent mover, or the mover's message relayed):
    /// the host stopped relaying to this seat. Nobody scores here and
    /// nobody is blamed (a star cannot show this seat what the others
    /// decided); what the seat holds is its log up to `round`, every round
    /// before it signed by the seats that sent it.
    HostStopped {
        /// The round under way when the seat gave up.
        round: u64,
    },
    /// A seat was caught cheating.
    Fault,
    /// This seat's device resumed from a journal older than the table (the
    /// host resent a message of this seat's for `round` that the journal
    /// lacks): it stops before sending anything, nobody blamed; the journal
    /// is kept as it was.
    StaleJournal {
        /// The round of the message the journal lacks.
        round: u64,
    },
}

/// The end of a table for one seat.
#[derive(Clone, Debug, PartialEq)]
pub struct FourVerdict {
    /// How it ended.
    pub ending: Ending,
    /// The result (`None`: nobody scores).
    pub result: Option<GameResult>,
    /// The seat caught cheating, if any.
    pub blame: Option<Blame>,
    /// The whole game, once the audit rebuilt it from the four opened armies.
    pub record: Option<junqi_game::Record>,
    /// Seats that did not open their army at the end.
    pub not_opened: Vec<FourSeat>,
}

/// Why the owner's call was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FourCallError {
    /// It is not this seat's move.
    #[error("not this seat's move")]
    NotYourMove,
    /// The move is not legal in this seat's view.
    #[error("illegal move")]
    Illegal,
    /// A resignation in the first plies.
    #[error("too early to resign")]
    TooEarly,
    /// Nothing to confirm.
    #[error("no pairing code to confirm")]
    NothingToConfirm,
    /// A second draw offer in one turn.
    #[error("a draw was offered this turn already")]
    OfferedThisTurn,
    /// No draw offer waits for this seat's answer.
    #[error("no draw offer to answer")]
    NoOffer,
    /// A layout the table's rules refuse, or rules a table cannot play
    /// (or a host that would hand its seat over).
    #[error("a setup or rules a four-seat table cannot play")]
    BadSetup,
    /// No seat was handed to this device (or it was taken already).
    #[error("no seat handed to this device")]
    NothingHandedOver,
}

/// A seat's setup commitment as the others received it.
#[derive(Clone, Debug)]
pub(super) struct SeatCommit {
    pub(super) pieces: Vec<Digest>,
    pub(super) seed: Digest,
    pub(super) ot_key: PeerKey,
    pub(super) partner_key: [u8; 32],
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Phase {
    Hello,
    Nonce,
    Confirm,
    Commit,
    Partner,
    OpenArmies,
    Play,
    Reveal,
    Done,
}

/// Scripted misbehaviour of this seat (tests only).
#[cfg(feature = "testing")]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FourCheats {
    /// Attack with `R` for this rank instead of the real one.
    pub wrong_rank: Option<WireRank>,
    /// Corrupt every entry of this seat's tables.
    pub corrupt_table: bool,
    /// Announce this outcome code with a made-up label.
    pub false_label: Option<u16>,
    /// Open a wrong square for the flag.
    pub bad_flag_opening: bool,
    /// Encrypt the 双明 reveal to this seat instead of the partner.
    pub reveal_to: Option<FourSeat>,
    /// Reveal another setup to the partner than the committed one.
    pub partner_lie: bool,
    /// Reuse the attack round of the first attack for every later attack's `x`.
    pub reuse_x: bool,
    /// Open another seed at the end.
    pub bad_reveal: bool,
    /// Send nothing at the end.
    pub withhold_reveal: bool,
    /// The host: claim every other seat's timeout at once.
    pub early_claim: bool,
    /// Leave instead of answering an attack.
    pub leave_mid_battle: bool,
    /// Commit to one setup and play another (a piece's rank changed).
    pub swap_commit: bool,
    /// Hand the seat over with a ciphertext that does not open.
    pub bad_hand_over: bool,
}

/// One seat of a four-seat table.
#[derive(Clone)]
pub struct FourSession {
    pub(super) cfg: FourConfig,
    /// The table's rules (the host's once its hello is in).
    pub(super) rules: Rules,
    pub(super) me: FourSeat,
    pub(super) phase: Phase,
    pub(super) log: TableLog,
    pub(super) keys: [Option<VerifyingKey>; 4],
    hello_keys: [[u8; 32]; 4],
    nonce_commits: [Digest; 4],
    nonces: [[u8; 32]; 4],
    pub(super) game_id: Digest,
    code: Option<String>,
    confirmed: bool,
    pub(super) commits: [Option<SeatCommit>; 4],
    pub(super) mine: Option<SetupCommitment>,
    pub(super) ot_key: OtKey,
    pub(super) table: AnnouncementTable,
    pub(super) partner_layout: Option<Layout>,
    open_layouts: [Option<Layout>; 4],
    pub(super) first: FourSeat,
    pub(super) play: Option<PlayState>,
    ahead: Vec<Envelope4>,
    pub(super) out: VecDeque<Vec<u8>>,
    pub(super) events: VecDeque<FourEvent>,
    pub(super) deadline: Option<Instant>,
    pub(super) now: Instant,
    pub(super) verdict: Option<FourVerdict>,
    pub(super) ending_of_play: Option<Ending>,
    pub(super) partner_disputed: bool,
    host_rules: bool,
    other_rules: Vec<Rules>,
    /// The message being taken (the evidence if it is at fault).
    pub(super) taking: Option<Envelope4>,
    /// Resuming: this seat's own messages from its journal, in order.
    pub(super) replay: Option<VecDeque<Envelope4>>,
    /// Resuming: the round where the journal stopped replaying.
    pub(super) replay_failed: Option<u64>,
    /// Resumed: nothing leaves this seat and no timer runs until its log
    /// holds this many rounds (what the host held at the return).
    pub(super) quiet_until: Option<u64>,
    /// Resumed and told what the host held: when the seat gives up waiting.
    pub(super) quiet_deadline: Option<Instant>,
    /// The seats whose players agreed to hand their seat over (their hellos).
    pub(super) agreed: [bool; 4],
    /// The round of each seat's hand-over: after it, the partner's key
    /// signs for that seat.
    pub(super) handed: [Option<u64>; 4],
    /// The seat handed to this device and what it needs to play it, until
    /// the owner takes it ([`FourSession::take_over`]).
    pub(super) handed_to_me: Option<(FourSeat, super::partner::HandOverSecret)>,
    #[cfg(feature = "testing")]
    pub(super) cheats: FourCheats,
}

impl FourSession {
    /// A seat joining a table: it sends its hello at once.
    ///
    /// # Errors
    /// A layout the rules refuse, or a two-player or flip game's rules
    /// (checked again against the host's rules when its hello comes).
    pub fn new(cfg: FourConfig, now: Instant) -> Result<FourSession, FourCallError> {
        let mut s = FourSession::build(cfg, now)?;
        s.send_hello();
        Ok(s)
    }

    /// The seat before its hello.
    pub(super) fn build(cfg: FourConfig, now: Instant) -> Result<FourSession, FourCallError> {
        if cfg.hand_over && cfg.seat == cfg.host {
            return Err(FourCallError::BadSetup);
        }
        if let Some(r) = cfg.rules
            && (r.four_player_problem().is_some() || cfg.layout.validate(&r).is_err())
        {
            return Err(FourCallError::BadSetup);
        }
        if cfg
            .layout
            .validate(&Rules::four_player(junqi_game::Mode::Dark))
            .is_err()
            && cfg.rules.is_none()
        {
            return Err(FourCallError::BadSetup);
        }
        let ot_key = OtKey::from_seed(&cfg.seed);
        let rules = cfg
            .rules
            .unwrap_or(Rules::four_player(junqi_game::Mode::Dark));
        let table = table_from_rules(&rules);
        let me = cfg.seat;
        let s = FourSession {
            me,
            phase: Phase::Hello,
            log: TableLog::new(),
            keys: [None; 4],
            hello_keys: [[0; 32]; 4],
            nonce_commits: [ZERO_DIGEST; 4],
            nonces: [[0; 32]; 4],
            game_id: ZERO_DIGEST,
            code: None,
            confirmed: false,
            commits: Default::default(),
            mine: None,
            ot_key,
            table,
            partner_layout: None,
            open_layouts: [None; 4],
            first: FourSeat::South,
            play: None,
            ahead: Vec::new(),
            out: VecDeque::new(),
            events: VecDeque::new(),
            deadline: Some(now + handshake_wait(&rules)),
            rules,
            now,
            verdict: None,
            ending_of_play: None,
            partner_disputed: false,
            host_rules: false,
            other_rules: Vec::new(),
            taking: None,
            replay: None,
            replay_failed: None,
            quiet_until: None,
            quiet_deadline: None,
            agreed: [false; 4],
            handed: [None; 4],
            handed_to_me: None,
            #[cfg(feature = "testing")]
            cheats: FourCheats::default(),
            cfg,
        };
        Ok(s)
    }

    /// Sends this seat's hello.
    pub(super) fn send_hello(&mut self) {
        let s = self;
        let (key, nonce_commit, name, rules) = (
            s.cfg.key.verifying_key().to_bytes(),
            nonce_commitment(&s.cfg.nonce),
            s.cfg.name.clone(),
            s.cfg.rules,
        );
        let hello = if s.cfg.hand_over {
            Body4::HelloHandOver {
                key,
                nonce_commit,
                name,
                rules,
            }
        } else {
            Body4::Hello {
                key,
                nonce_commit,
                name,
                rules,
            }
        };
        s.send(hello);
    }

    /// Scripts this seat's misbehaviour (tests only).
    #[cfg(feature = "testing")]
    pub fn set_cheats(&mut self, cheats: FourCheats) {
        self.cheats = cheats;
    }

    /// This seat.
    #[must_use]
    pub fn seat(&self) -> FourSeat {
        self.me
    }

    /// The game id (zeros until every nonce is in).
    #[must_use]
    pub fn game_id(&self) -> Digest {
        self.game_id
    }

    /// The table's rules (the host's, once its hello is in; before, this
    /// seat's own or the four-player default).
    #[must_use]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The pairing code, once every hello and nonce is in.
    #[must_use]
    pub fn pairing_code(&self) -> Option<&str> {
        self.code.as_deref()
    }

    /// The seats whose players agreed to hand their seat to their
    /// partner's device if they leave (their hellos; every player sees them
    /// before the pairing code, which covers them).
    #[must_use]
    pub fn hand_overs(&self) -> Vec<FourSeat> {
        FourSeat::ALL
            .into_iter()
            .filter(|s| self.agreed[s.index()])
            .collect()
    }

    /// The seats whose players left and handed their seat to their
    /// partner's device, which plays it on (every seat sees the hand-over
    /// in the log).
    #[must_use]
    pub fn handed_over(&self) -> Vec<FourSeat> {
        FourSeat::ALL
            .into_iter()
            .filter(|s| self.handed[s.index()].is_some())
            .collect()
    }

    /// The table's log as this seat holds it.
    #[must_use]
    pub fn log(&self) -> &TableLog {
        &self.log
    }

    /// This seat's view during play.
    #[must_use]
    pub fn view(&self) -> Option<&PlayerView> {
        self.play.as_ref().map(|p| &p.view)
    }

    /// The verdict, once the table is over.
    #[must_use]
    pub fn verdict(&self) -> Option<&FourVerdict> {
        self.verdict.as_ref()
    }

    /// The next frame to send to every other seat (through the host).
    pub fn poll_transmit(&mut self) -> Option<Vec<u8>> {
        if self.quiet() {
            return None;
        }
        self.out.pop_front()
    }

    /// The next event for the owner.
    pub fn poll_event(&mut self) -> Option<FourEvent> {
        self.events.pop_front()
    }

    /// When [`FourSession::handle_timeout`] must be called next.
    #[must_use]
    pub fn poll_timeout(&self) -> Option<Instant> {
        if self.quiet() {
            return self.quiet_deadline.filter(|_| self.phase != Phase::Done);
        }
        let claim = self
            .play
            .as_ref()
            .and_then(|p| p.claim_at)
            .filter(|_| self.phase == Phase::Play);
        match (self.deadline, claim) {
            (Some(d), Some(c)) => Some(d.min(c)),
            (d, c) => d.or(c),
        }
    }

    /// The player compared the code and it matched: this seat confirms.
    ///
    /// # Errors
    /// No code shown yet, or already confirmed.
    pub fn confirm_pairing(&mut self, now: Instant) -> Result<(), FourCallError> {
        self.now = now;
        let code = match (&self.code, self.confirmed) {
            (Some(c), false) => c.clone(),
            _ => return Err(FourCallError::NothingToConfirm),
        };
        self.confirmed = true;
        self.send(Body4::Confirm { code });
        self.drain_ahead();
        Ok(())
    }

    /// Time passed: the seat that owes the next message stayed silent.
    pub fn handle_timeout(&mut self, now: Instant) {
        self.now = now;
        if self.quiet() {
            if self.quiet_deadline.is_some_and(|d| now >= d) {
                self.quiet_deadline = None;
                self.end(Ending::Abandoned, None, None);
            }
            return;
        }
        if self.phase == Phase::Play
            && let Some(p) = self.play.as_mut()
            && p.claim_at.is_some_and(|c| now >= c)
        {
            p.claim_at = None;
            p.before_my_claim = None;
            let before = Box::new(p.clone());
            p.before_my_claim = Some(before);
            self.send(Body4::Timeout);
            self.drain_ahead();
            return;
        }
        if self.deadline.is_none_or(|d| now < d) {
            return;
        }
        match self.phase {
            Phase::Hello
            | Phase::Nonce
            | Phase::Confirm
            | Phase::Commit
            | Phase::Partner
            | Phase::OpenArmies => {
                self.end_unplayed(Unplayed::NoHandshake);
            }
            Phase::Play => {
                // A move is owed: the host relays it or claims the mover's
                // timeout (or, its own move, the keeper claims it through
                // the host) well within this wait. Nothing means the host
                // stopped. A reply's silence cannot tell who stopped.
                let move_owed = self
                    .play
                    .as_ref()
                    .is_some_and(|p| matches!(p.owed, super::play_state::Owed::Move(_)));
                let ending = if move_owed && self.me != self.cfg.host {
                    Ending::HostStopped {
                        round: self.log.round(),
                    }
                } else {
                    Ending::Abandoned
                };
                self.end(ending, None, None);
            }
            Phase::Reveal => self.finish_reveals(),
            Phase::Done => self.deadline = None,
        }
    }

    /// Bytes from the relay: one frame's payload (an [`Envelope4`]).
    pub fn handle_frame(&mut self, now: Instant, payload: &[u8]) {
        self.now = now;
        if self.phase == Phase::Done {
            return;
        }
        // Not even a message: bytes anyone could send; nobody is blamed.
        let Ok(env) = decode_payload::<Envelope4>(payload) else {
            return;
        };
        self.receive(env);
        self.drain_ahead();
    }

    /// Takes the messages kept for a later round whose round has come.
    pub(super) fn drain_ahead(&mut self) {
        while self.phase != Phase::Done {
            let round = self.log.round();
            let Some(i) = self
                .ahead
                .iter()
                .position(|e| e.signed.header.round <= round)
            else {
                break;
            };
            let env = self.ahead.swap_remove(i);
            self.receive(env);
        }
    }

    pub(super) fn receive(&mut self, env: Envelope4) {
        let hd = env.signed.header;
        if hd.sender == self.me {
            // Its own message back (the host's resend after a return): one
            // its journal lacks, or another one, means the journal is older
            // than the table; what it would send next may clash with what
            // the others hold. It stops, nobody blamed.
            let held = self
                .log
                .messages(hd.round)
                .and_then(|m| m[self.me.index()].as_ref())
                .is_some_and(|h| h.signed == env.signed);
            let mine = self.cfg.key.verifying_key();
            if !held && env.signed.verify(&mine) {
                self.out.clear();
                self.end(Ending::StaleJournal { round: hd.round }, None, None);
            }
            return;
        }
        if env.body == Body4::Timeout && hd.sender == self.cfg.host && self.crossed_my_move(&env) {
            return;
        }
        if hd.sender == self.cfg.host {
            self.crossed_my_claim(&env);
        }
        // A seat's key is the one of its first hello; a later hello for the
        // seat with another key is a stranger's (a relay's: the pairing
        // code is what shows a device in the middle).
        let key = match (&env.body, hd.round, self.keys[hd.sender.index()]) {
            (_, _, Some(_)) => self.signer_key(hd.sender, hd.round),
            (Body4::Hello { key, .. } | Body4::HelloHandOver { key, .. }, 0, None) => {
                VerifyingKey::from_bytes(key).ok()
            }
            _ => None,
        };
        let Some(key) = key else {
            if hd.round > self.log.round() {
                self.keep_ahead(env);
            }
            return;
        };
        let witness_keys = FourSeat::ALL.map(|s| self.signer_key(s, hd.round.saturating_sub(1)));
        match self.log.link(&env, &key, &witness_keys, &self.game_id) {
            Err(LinkError::Stranger) => {
                if let Some(signer) = self.signed_for_another(&env) {
                    self.taking = Some(env);
                    self.blame(signer, FourFault::SignedForAnother(hd.sender), hd.round);
                }
            }
            Ok(Link::Duplicate) => {}
            Ok(Link::Ahead) => self.keep_ahead(env),
            Err(LinkError::Equivocation(e)) => {
                let key = self.signer_key(e.seat, e.held.header.round);
                if !key.is_some_and(|k| e.check(&k)) {
                    return;
                }
                let seat = e.seat;
                let round = e.held.header.round;
                self.blame(seat, FourFault::Equivocation(e), round);
            }
            Err(LinkError::BadWitness) => {
                self.taking = Some(env);
                self.blame(hd.sender, FourFault::BadWitness, hd.round);
            }
            Err(LinkError::Fork) if self.play.is_none() => self.end_unplayed(Unplayed::Split),
            Err(LinkError::Fork) => self.end(Ending::Abandoned, None, None),
            Ok(Link::Next) => {
                if let Err(e) = env.body.check_bounds() {
                    self.taking = Some(env);
                    return self.blame(hd.sender, FourFault::Malformed(e), hd.round);
                }
                self.take(env);
            }
        }
    }

    /// The key that signs `seat`'s messages of `round`: its own, or its
    /// partner's after it handed the seat over.
    pub(super) fn signer_key(&self, seat: FourSeat, round: u64) -> Option<VerifyingKey> {
        match self.handed[seat.index()] {
            Some(h) if round > h => self.keys[seat.partner().index()],
            _ => self.keys[seat.index()],
        }
    }

    /// A message for the round under way, linked to this seat's log, that
    /// another seat's key signed in the sender's name although the log
    /// hands it no such seat: the signer's fault, its signature the
    /// evidence (a third party checks it against the log). The sender's own
    /// key after a hand-over is not another's: those messages are dropped.
    fn signed_for_another(&self, env: &Envelope4) -> Option<FourSeat> {
        let hd = &env.signed.header;
        let linked = hd.round >= 2
            && hd.round == self.log.round()
            && hd.game == self.game_id
            && hd.prev == self.log.prev()
            && super::log::body_digest(&env.body).is_ok_and(|d| d == hd.body);
        if !linked {
            return None;
        }
        let expected = self.signer_key(hd.sender, hd.round);
        FourSeat::ALL.into_iter().find(|&y| {
            y != hd.sender
                && self.keys[y.index()]
                    .is_some_and(|k| Some(k) != expected && env.signed.verify(&k))
        })
    }

    /// Keeps a message of a later round until its round comes: only a few
    /// rounds ahead (the relay reorders a little, never more) and only so
    /// many, so that nobody fills the buffer.
    fn keep_ahead(&mut self, env: Envelope4) {
        let round = env.signed.header.round;
        if round <= self.log.round() + MAX_ROUNDS_AHEAD && self.ahead.len() < MAX_AHEAD {
            self.ahead.push(env);
        }
    }

    /// Signs `body` for the round under way, queues it for every seat and
    /// takes it into this seat's own log.
    pub(super) fn send(&mut self, body: Body4) {
        self.send_as(self.me, body);
    }

    /// [`FourSession::send`] in the name of `seat` (this seat, or a seat
    /// handed to this device).
    pub(super) fn send_as(&mut self, seat: FourSeat, body: Body4) {
        if self.replay.is_some() {
            if let Some(env) = self.replayed(&body) {
                self.take(env);
            }
            return;
        }
        let turn_ms = self.play.as_ref().map_or(0, |p| p.turn_ms(self.now));
        let env = seal(
            &self.cfg.key,
            if self.log.round() < 2 {
                ZERO_DIGEST
            } else {
                self.game_id
            },
            seat,
            self.log.round(),
            &self.log.last_headers(),
            turn_ms,
            body,
        )
        .expect("own messages fit a frame");
        self.out
            .push_back(encode_payload(&env).expect("own messages fit a frame"));
        self.take(env);
    }

    /// A linked message (another seat's or this seat's own): is it owed, and
    /// what follows from it.
    fn take(&mut self, env: Envelope4) {
        self.taking = Some(env.clone());
        let hd = env.signed.header;
        let sender = hd.sender;
        let round = hd.round;
        match (self.phase, &env.body) {
            (
                Phase::Hello,
                Body4::Hello {
                    key,
                    nonce_commit,
                    rules,
                    ..
                }
                | Body4::HelloHandOver {
                    key,
                    nonce_commit,
                    rules,
                    ..
                },
            ) => {
                // The host's hello sets the rules; any other seat that names
                // rules names the same.
                match (*rules, sender == self.cfg.host, self.cfg.rules) {
                    (None, true, _) => return self.end_unplayed(Unplayed::OtherRules),
                    (Some(r), true, mine) if mine.is_none_or(|m| m == r) => {
                        if r.four_player_problem().is_some() {
                            return self.end_unplayed(Unplayed::UnplayableRules);
                        }
                        if self.cfg.layout.validate(&r).is_err() {
                            return self.end_unplayed(Unplayed::OtherRules);
                        }
                        self.rules = r;
                        self.table = table_from_rules(&r);
                        self.host_rules = true;
                    }
                    (Some(r), false, _)
                        if Some(r) == self.cfg.rules || self.cfg.rules.is_none() =>
                    {
                        self.other_rules.push(r);
                    }
                    (None, false, _) => {}
                    _ => return self.end_unplayed(Unplayed::OtherRules),
                }
                let Ok(vk) = VerifyingKey::from_bytes(key) else {
                    return self.blame(sender, FourFault::BadKey, round);
                };
                self.keys[sender.index()] = Some(vk);
                self.agreed[sender.index()] = matches!(env.body, Body4::HelloHandOver { .. });
                self.hello_keys[sender.index()] = *key;
                self.nonce_commits[sender.index()] = *nonce_commit;
                self.log.push(env);
                if self.round_full() {
                    if !self.host_rules || self.other_rules.iter().any(|r| *r != self.rules) {
                        return self.end_unplayed(Unplayed::OtherRules);
                    }
                    self.log.close_round();
                    self.phase = Phase::Nonce;
                    self.progress(handshake_wait(&self.rules));
                    self.send(Body4::Nonce {
                        nonce: self.cfg.nonce,
                    });
                }
            }
            (Phase::Nonce, Body4::Nonce { nonce }) => {
                if nonce_commitment(nonce) != self.nonce_commits[sender.index()] {
                    return self.blame(sender, FourFault::NonceMismatch, round);
                }
                self.nonces[sender.index()] = *nonce;
                self.log.push(env);
                if self.round_full() {
                    self.log.close_round();
                    self.game_id =
                        game_id(&self.rules, &self.hello_keys, &self.nonces, self.agreed);
                    self.first = first_seat(&self.game_id);
                    let code = pairing_code(&self.game_id);
                    self.code = Some(code.clone());
                    self.phase = Phase::Confirm;
                    self.progress(PAIRING_TIMEOUT);
                    self.events.push_back(FourEvent::PairingCode(code));
                }
            }
            (Phase::Confirm, Body4::Confirm { code }) => {
                if Some(code) != self.code.as_ref() {
                    return self.end_unplayed(Unplayed::CodeMismatch);
                }
                self.log.push(env);
                if self.round_full() {
                    self.log.close_round();
                    self.phase = Phase::Commit;
                    self.progress(handshake_wait(&self.rules));
                    // Only now, with every player's confirmation in, does
                    // anything about this seat's setup leave it.
                    let commit = self.own_commitment();
                    self.send(commit);
                }
            }
            (
                Phase::Commit,
                Body4::Commit {
                    pieces,
                    seed,
                    ot_key,
                    partner_key,
                },
            ) => {
                let (Ok(ot), Ok(_)) = (
                    PeerKey::decode(ot_key),
                    crate::ot::decode_point(partner_key),
                ) else {
                    return self.blame(sender, FourFault::BadCommitment, round);
                };
                self.commits[sender.index()] = Some(SeatCommit {
                    pieces: pieces.clone(),
                    seed: *seed,
                    ot_key: ot,
                    partner_key: *partner_key,
                });
                self.log.push(env);
                if self.round_full() {
                    self.log.close_round();
                    self.progress(handshake_wait(&self.rules));
                    if self.rules.mode == junqi_game::Mode::Open {
                        // 全明: every army opens for everyone.
                        self.phase = Phase::OpenArmies;
                        let mine = self.mine.as_ref().expect("committed");
                        let openings = (0..25u8)
                            .map(|s| mine.opening(&self.cfg.seed, s).expect("slot"))
                            .collect();
                        self.send(Body4::OpenArmy { openings });
                    } else if self.rules.partners_open {
                        self.phase = Phase::Partner;
                        let reveal = self.partner_reveal();
                        self.send(reveal);
                    } else {
                        self.start_play();
                    }
                }
            }
            (Phase::Partner, Body4::PartnerReveal { to, sealed }) => {
                if *to != sender.partner() {
                    return self.blame(sender, FourFault::RevealToEnemy(*to), round);
                }
                if *to == self.me {
                    // Only this seat can read it: a bad one is disputed on
                    // this seat's first move, so that every seat opens and
                    // the audit names the sender to all of them.
                    match self.read_partner_reveal(sender, sealed) {
                        Ok(layout) => self.partner_layout = Some(layout),
                        Err(_) => self.partner_disputed = true,
                    }
                }
                self.log.push(env);
                if self.round_full() {
                    self.log.close_round();
                    self.start_play();
                }
            }
            (Phase::OpenArmies, Body4::OpenArmy { openings }) => {
                match self.read_open_army(sender, openings) {
                    Some(layout) => self.open_layouts[sender.index()] = Some(layout),
                    None => return self.blame(sender, FourFault::BadOpenArmy, round),
                }
                self.log.push(env);
                if self.round_full() {
                    self.log.close_round();
                    self.start_play();
                }
            }
            (Phase::Play, _) => self.take_play(env),
            (Phase::Reveal, _) => self.take_reveal(env),
            (_, body) => self.blame(sender, FourFault::Unexpected(body.kind()), round),
        }
    }

    /// The nonce `seat` opened in round 1.
    pub(super) fn nonces_of(&self, seat: FourSeat) -> [u8; 32] {
        self.nonces[seat.index()]
    }

    /// Whether every seat expected in the round under way has sent its message.
    pub(super) fn round_full(&self) -> bool {
        let expected = self.expected_in_round();
        self.log.messages(self.log.round()).is_some_and(|m| {
            FourSeat::ALL
                .iter()
                .all(|s| !expected[s.index()] || m[s.index()].is_some())
        })
    }

    fn expected_in_round(&self) -> [bool; 4] {
        match (&self.play, self.phase) {
            (Some(p), Phase::Reveal) => FourSeat::ALL.map(|s| Some(s) != p.left),
            _ => [true; 4],
        }
    }

    /// Re-arms the deadline: something happened.
    pub(super) fn progress(&mut self, wait: Duration) {
        self.deadline = Some(self.now + wait);
    }

    fn own_commitment(&mut self) -> Body4 {
        let ranks = slots_of(&self.cfg.layout, self.me);
        #[cfg(feature = "testing")]
        let ranks = if self.cheats.swap_commit {
            swapped(&ranks)
        } else {
            ranks
        };
        let placement = crate::commit::placement_of(&ranks);
        let sc = SetupCommitment::new(&self.cfg.seed, &self.game_id, self.me, &placement);
        let body = Body4::Commit {
            pieces: sc.commitments.clone(),
            seed: crate::commit::seed_commitment(&self.game_id, self.me, &self.cfg.seed),
            ot_key: self.ot_key.public(),
            partner_key: partner::public_key(&self.cfg.seed),
        };
        self.mine = Some(sc);
        body
    }

    /// This seat's 25 openings, encrypted to its partner.
    fn partner_reveal(&self) -> Body4 {
        let mine = self.mine.as_ref().expect("committed");
        let mut openings: Vec<PieceOpening> = (0..25u8)
            .map(|s| mine.opening(&self.cfg.seed, s).expect("slot"))
            .collect();
        let mut to = self.me.partner();
        #[cfg(feature = "testing")]
        {
            if let Some(t) = self.cheats.reveal_to {
                to = t;
            }
            if self.cheats.partner_lie {
                openings.swap(0, 24);
                let (a, b) = (openings[0].square, openings[24].square);
                openings[0].square = b;
                openings[24].square = a;
            }
        }
        #[cfg(not(feature = "testing"))]
        {
            let _ = &mut to;
            let _ = &mut openings;
        }
        let theirs = self.commits[to.index()]
            .as_ref()
            .expect("every commitment is in")
            .partner_key;
        let sealed = partner::seal(
            &self.cfg.seed,
            &theirs,
            &self.game_id,
            self.me,
            to,
            &openings,
        )
        .expect("the key was checked when it arrived");
        Body4::PartnerReveal { to, sealed }
    }

    /// A 全明 army: 25 openings of the sender's commitments, a legal setup.
    fn read_open_army(&self, sender: FourSeat, openings: &[PieceOpening]) -> Option<Layout> {
        let commit = self.commits[sender.index()].as_ref()?;
        if openings.len() != commit.pieces.len() {
            return None;
        }
        let mut ranks = Vec::with_capacity(25);
        for (i, (o, c)) in openings.iter().zip(&commit.pieces).enumerate() {
            if usize::from(o.square) != i || !o.verify(&self.game_id, sender, c) {
                return None;
            }
            ranks.push(o.rank);
        }
        let layout = layout_of(&ranks, sender);
        layout.validate(&self.rules).ok()?;
        Some(layout)
    }

    fn read_partner_reveal(
        &self,
        sender: FourSeat,
        sealed: &partner::Sealed,
    ) -> Result<Layout, Option<partner::OpenError>> {
        let commit = self.commits[sender.index()].as_ref().ok_or(None)?;
        let openings = partner::open(
            &self.cfg.seed,
            &commit.partner_key,
            &self.game_id,
            sender,
            self.me,
            sealed,
        )
        .map_err(Some)?;
        if openings.len() != commit.pieces.len() {
            return Err(None);
        }
        let mut ranks = Vec::with_capacity(25);
        for (i, (o, c)) in openings.iter().zip(&commit.pieces).enumerate() {
            if usize::from(o.square) != i || !o.verify(&self.game_id, sender, c) {
                return Err(None);
            }
            ranks.push(o.rank);
        }
        let layout = layout_of(&ranks, sender);
        layout.validate(&self.rules).map_err(|_| None)?;
        Ok(layout)
    }

    fn start_play(&mut self) {
        let rules = self.rules;
        let own = self
            .cfg
            .layout
            .validate(&rules)
            .expect("the owner gives a legal layout");
        let partner = self
            .partner_layout
            .as_ref()
            .and_then(|l| l.validate(&rules).ok());
        // 全明: a referee of this seat's own, every army being open.
        let referee = if rules.mode == junqi_game::Mode::Open {
            let layouts: Option<Vec<Layout>> = self.open_layouts.iter().copied().collect();
            let layouts: [Layout; 4] = layouts
                .and_then(|l| l.try_into().ok())
                .expect("every open army is in");
            Some(
                junqi_game::Game::new_four(rules, layouts, self.first.side())
                    .expect("every open army was checked"),
            )
        } else {
            None
        };
        let view = match &referee {
            Some(g) => g.view(self.me.side()),
            None => PlayerView::new_four(
                rules,
                self.me.side(),
                &own,
                partner.as_ref(),
                self.first.side(),
            ),
        };
        let revealed: Vec<junqi_game::TableEvent> = referee
            .as_ref()
            .map(|g| g.table_events().to_vec())
            .unwrap_or_default();
        let mut play = PlayState::new(view, self.first, self.now);
        play.referee = referee;
        self.play = Some(play);
        self.phase = Phase::Play;
        self.progress(move_wait(&rules));
        self.events
            .push_back(FourEvent::Started { first: self.first });
        for e in revealed {
            self.events.push_back(FourEvent::Table(e));
        }
        self.next_turn();
    }

    /// A seat broke the protocol: the table ends, with the evidence in the log.
    pub(super) fn blame(&mut self, seat: FourSeat, fault: FourFault, round: u64) {
        // A handed seat's messages are its partner's device's: the key
        // that signed them names the culprit.
        let seat = match self.handed[seat.index()] {
            Some(h) if round > h && !matches!(fault, FourFault::SignedForAnother(_)) => {
                seat.partner()
            }
            _ => seat,
        };
        let evidence = self
            .taking
            .take()
            .filter(|e| {
                let signer = self.signer_key(e.signed.header.sender, e.signed.header.round);
                self.keys[seat.index()].is_some_and(|k| Some(k) == signer)
                    || matches!(fault, FourFault::SignedForAnother(_))
            })
            .map(Box::new);
        let blame = Blame {
            seat,
            fault,
            round,
            evidence,
        };
        self.end(Ending::Fault, None, Some(blame));
    }

    fn end_unplayed(&mut self, why: Unplayed) {
        self.end(Ending::Unplayed(why), None, None);
    }

    /// The table is over for this seat.
    pub(super) fn end(&mut self, ending: Ending, result: Option<GameResult>, blame: Option<Blame>) {
        if self.phase == Phase::Done {
            return;
        }
        self.phase = Phase::Done;
        self.deadline = None;
        let v = FourVerdict {
            ending,
            result,
            blame,
            record: None,
            not_opened: Vec::new(),
        };
        self.verdict = Some(v.clone());
        self.events.push_back(FourEvent::Over(Box::new(v)));
    }
}

/// The wait for a handshake message: the move clock and a round trip.
pub(super) fn handshake_wait(rules: &Rules) -> Duration {
    Duration::from_secs(u64::from(rules.move_seconds)) + 2 * LATENCY_BOUND
}

/// The wait for the next message of play: the move clock and two round
/// trips (a reply is owed at once; a move within the clock).
pub(super) fn move_wait(rules: &Rules) -> Duration {
    Duration::from_secs(u64::from(rules.move_seconds)) + 4 * LATENCY_BOUND
}

/// A setup with one piece changed: a corps commander and a platoon commander swapped (tests only).
#[cfg(feature = "testing")]
fn swapped(ranks: &[WireRank]) -> Vec<WireRank> {
    let mut r = ranks.to_vec();
    let a = r.iter().position(|&x| x == WireRank::Corps);
    let b = r.iter().position(|&x| x == WireRank::Platoon);
    if let (Some(a), Some(b)) = (a, b) {
        r.swap(a, b);
    }
    r
}
