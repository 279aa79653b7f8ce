//! The state of play at a four-seat table ([`PlayState`]): the players' view, what the table
//! waits for ([`Owed`]), the battle under way, the states a crossing claim rewinds to.

use std::collections::VecDeque;
use std::time::Instant;

use junqi_game::{GameResult, PlayerView, TableEvent};

use super::seat::FourSeat;
use crate::crypto::Digest;
use crate::ot::{Attacker, OtResponse};

/// What the table waits for during play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Owed {
    /// A move (or no-moves, a resignation, leaving) by this seat.
    Move(FourSeat),
    /// The defender's table.
    Table(FourSeat),
    /// The attacker's label (or its dispute).
    Label(FourSeat),
    /// A flag opening by this seat, whose commander died.
    Flag(FourSeat),
    /// This seat's answer to the standing draw offer.
    Answer(FourSeat),
}

impl Owed {
    pub(super) fn seat(self) -> FourSeat {
        match self {
            Owed::Move(s) | Owed::Table(s) | Owed::Label(s) | Owed::Flag(s) | Owed::Answer(s) => s,
        }
    }
}

/// A battle under way.
#[derive(Clone)]
pub(super) struct Battle {
    pub(super) attacker: FourSeat,
    pub(super) defender: FourSeat,
    pub(super) from: u8,
    pub(super) to: u8,
    pub(super) ctx: Digest,
    pub(super) mine_attacker: Option<Attacker>,
    pub(super) response: Option<OtResponse>,
}

/// The state of play.
#[derive(Clone)]
pub(super) struct PlayState {
    pub(super) view: PlayerView,
    pub(super) owed: Owed,
    pub(super) battle: Option<Battle>,
    pub(super) flags: VecDeque<FourSeat>,
    pub(super) captured: Option<FourSeat>,
    pub(super) my_attack: Option<Attacker>,
    pub(super) first_attack: Option<u64>,
    pub(super) left: Option<FourSeat>,
    pub(super) result: Option<GameResult>,
    pub(super) turn_start: Instant,
    /// The host: when it claims the seat on move's timeout.
    pub(super) claim_at: Option<Instant>,
    /// This seat's own last move, with the state before it: a timeout
    /// claim that crossed it voids it.
    pub(super) before_my_move: Option<Box<PlayState>>,
    /// This seat's own last timeout claim over the host, with the state
    /// before it: the host's move that crossed it voids it.
    pub(super) before_my_claim: Option<Box<PlayState>>,
    /// 全明: this seat's own referee (every army is open).
    pub(super) referee: Option<junqi_game::Game>,
    /// The standing draw offer: who made it, at which ply, and the seats
    /// that accepted it (the offerer's bit included).
    pub(super) draw: Option<(FourSeat, u16, u8)>,
    /// The ply of this turn's draw offer (one a turn).
    pub(super) offered_at: Option<u16>,
    /// Every public event applied to the view, in order: what rebuilds a
    /// seat's view for the partner's device that takes it over.
    pub(super) history: Vec<TableEvent>,
}

impl PlayState {
    pub(super) fn new(view: PlayerView, first: FourSeat, now: Instant) -> PlayState {
        PlayState {
            view,
            owed: Owed::Move(first),
            battle: None,
            flags: VecDeque::new(),
            captured: None,
            my_attack: None,
            first_attack: None,
            left: None,
            result: None,
            turn_start: now,
            claim_at: None,
            before_my_move: None,
            before_my_claim: None,
            referee: None,
            draw: None,
            offered_at: None,
            history: Vec::new(),
        }
    }

    /// The signed turn clock: how long the seat on turn has had it.
    pub(super) fn turn_ms(&self, now: Instant) -> u32 {
        u32::try_from(now.saturating_duration_since(self.turn_start).as_millis())
            .unwrap_or(u32::MAX)
    }
}
