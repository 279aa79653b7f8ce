//! A match: a game in progress as the player sees it, on top of the player's [`PlayerView`]: the move
//! clock, the log as the player saw it, removed pieces, private markers, and the saved record
//! ([`GameFile`]). Against the computer the engine's [`Game`] is the referee
//! ([`Referee::Local`]); in a LAN game no one holds the enemy's pieces
//! ([`Referee::Remote`]): the view is the one the network session (`junqi_net`) builds from the
//! public events, and [`Match::update_view`] follows it.
//!
//! Plain Rust (no Bevy systems): the game screen drives it, the tests call it directly.

use std::collections::HashMap;

use junqi_game::{
    Action, ActionError, DrawReason, Event, Game, GameResult, Move, Outcome, PieceId, PlayerView,
    Point, Rank, Record, Seen, SetupError, Side, TableEvent, WinReason,
};
use serde::{Deserialize, Serialize};

use crate::{
    battle::{BattleKind, BattleSeen},
    i18n::{FluentValue, Lang},
};

/// A game file (a saved game): the engine's record plus who played it and when.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameFile {
    /// Format version.
    pub version: u32,
    /// Seconds since 1970 when the game started.
    pub started: u64,
    /// The opponent (`ai-N` for computer level N = 1…4, `lan:NAME`).
    pub opponent: String,
    /// The player's side.
    pub me: Side,
    /// The engine's record (rules, starting layouts, every action).
    pub record: Record,
    /// The result, if the game ended.
    pub result: Option<GameResult>,
    /// Moves the player took back (悔棋); such a game counts apart in the profile.
    #[serde(default)]
    pub undos: u32,
}

/// One line of the move log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LogEntry {
    /// A move, possibly an attack.
    Move {
        /// Ply number (1-based).
        ply: u16,
        /// Who moved.
        side: Side,
        /// From.
        from: Point,
        /// To.
        to: Point,
        /// The mover's rank if the viewer knows it.
        rank: Option<Rank>,
        /// The battle, if it was an attack.
        battle: Option<BattleSeen>,
    },
    /// A flip (or a void attack that turned a piece over).
    Flip {
        /// Ply number.
        ply: u16,
        /// Who flipped.
        side: Side,
        /// Whose colour it is.
        owner: Side,
        /// What turned up.
        rank: Rank,
    },
    /// A timeout.
    Timeout {
        /// Who ran out of time.
        side: Side,
        /// Timeouts so far.
        count: u8,
    },
    /// A commander fell: its flag is shown.
    FlagShown {
        /// Whose flag.
        side: Side,
    },
    /// A draw offer.
    DrawOffered {
        /// Who offered.
        side: Side,
    },
    /// A draw offer declined.
    DrawDeclined {
        /// Who declined.
        side: Side,
    },
    /// Four-player games: a player is out (出局), its pieces gone from the board.
    Out {
        /// Who.
        side: Side,
        /// Why.
        reason: WinReason,
    },
}

impl LogEntry {
    /// The seat the line is about.
    pub fn side(&self) -> Side {
        match *self {
            LogEntry::Move { side, .. }
            | LogEntry::Flip { side, .. }
            | LogEntry::Timeout { side, .. }
            | LogEntry::FlagShown { side }
            | LogEntry::DrawOffered { side }
            | LogEntry::DrawDeclined { side }
            | LogEntry::Out { side, .. } => side,
        }
    }
}

/// What the referee calls out for one move, for the board effect: where, and what happened
/// there (the engine announces only a battle's result; this is what the player saw).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Callout {
    /// Where it happened.
    pub at: Point,
    /// What happened there.
    pub called: Called,
}

/// What a [`Callout`] says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Called {
    /// A quiet move (no caption).
    Moved,
    /// A battle, as the player saw it (the same as its log line).
    Battle(BattleSeen),
    /// A piece turned over (a flip, or a void attack on a face-down piece).
    Flipped(Rank),
}

impl Callout {
    /// The battle's kind, for its effect on the board.
    pub fn battle(&self) -> Option<BattleKind> {
        match self.called {
            Called::Battle(seen) => Some(seen.kind()),
            Called::Moved | Called::Flipped(_) => None,
        }
    }

    /// The caption in `lang` ("吃！", "同归于尽", the rank turned over…); `None` for a quiet move.
    pub fn caption(&self, lang: Lang) -> Option<String> {
        match self.called {
            Called::Moved => None,
            Called::Battle(seen) => Some(lang.t(seen.caption_key()).to_owned()),
            Called::Flipped(rank) => Some(crate::game_text::rank_name(rank, lang).to_owned()),
        }
    }
}

/// Who holds the whole truth of a game.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)] // one per game
pub enum Referee {
    /// Against the computer (and in replays): the engine's referee holds both sides' pieces.
    Local(Game),
    /// A LAN game: the protocol referees; the player only knows its view.
    Remote(Remote),
}

/// What the player knows of a LAN game beyond its view.
#[derive(Clone, Debug, Default)]
pub struct Remote {
    /// The result announced by the network session.
    pub result: Option<GameResult>,
    /// Whether the network session accepts a move now.
    pub my_turn: bool,
}

/// A game in progress (or replayed) as the player sees it.
#[derive(Clone, Debug)]
pub struct Match {
    /// The referee.
    pub referee: Referee,
    /// The player's knowledge.
    pub view: PlayerView,
    /// When it started (seconds since 1970).
    pub started: u64,
    /// The opponent key.
    pub opponent: String,
    /// The log as the player saw it.
    pub log: Vec<LogEntry>,
    /// Removed pieces: (owner, rank if the player knows it).
    pub removed: Vec<(Side, Option<Rank>)>,
    /// Seconds left for the current move.
    pub clock: f32,
    /// Private markers on enemy pieces.
    pub markers: HashMap<PieceId, String>,
    /// Moves the player took back (悔棋).
    pub undos: u32,
}

impl Match {
    /// A match for `me` from a game that has not started.
    pub fn new(game: Game, me: Side, opponent: String, started: u64) -> Self {
        let view = game.view(me);
        let mut s = Self {
            clock: game.rules().move_seconds as f32,
            referee: Referee::Local(game),
            view,
            started,
            opponent,
            log: Vec::new(),
            removed: Vec::new(),
            markers: HashMap::new(),
            undos: 0,
        };
        // Events before the first action (open games reveal layouts).
        let events = s.game().map(|g| g.events().to_vec()).unwrap_or_default();
        s.absorb(&events);
        s
    }

    /// A LAN game from the network session's first view (no local referee).
    pub fn remote(view: PlayerView, opponent: String, started: u64) -> Self {
        let events = view.events().to_vec();
        let before = match view.rules().mode {
            junqi_game::Mode::Flip => PlayerView::new_flip(*view.rules(), view.me(), view.turn()),
            _ => view.clone(),
        };
        let mut s = Self {
            clock: view.rules().move_seconds as f32,
            referee: Referee::Remote(Remote::default()),
            view,
            started,
            opponent,
            log: Vec::new(),
            removed: Vec::new(),
            markers: HashMap::new(),
            undos: 0,
        };
        s.absorb_with(&before, &events);
        s
    }

    /// The local referee (`None` in a LAN game).
    pub fn game(&self) -> Option<&Game> {
        match &self.referee {
            Referee::Local(g) => Some(g),
            Referee::Remote(_) => None,
        }
    }

    /// Whether this is a LAN game.
    pub fn is_remote(&self) -> bool {
        matches!(self.referee, Referee::Remote(_))
    }

    /// The rules.
    pub fn rules(&self) -> &junqi_game::Rules {
        self.view.rules()
    }

    /// Whose move it is.
    pub fn turn(&self) -> Side {
        match &self.referee {
            Referee::Local(g) => g.turn(),
            Referee::Remote(_) => self.view.turn(),
        }
    }

    /// LAN: follows the network session's new view; the events it adds go to the log and the
    /// removed pieces, and the last one is announced as against the computer.
    pub fn update_view(&mut self, view: PlayerView, my_turn: bool) -> Option<Callout> {
        let old = self.view.events().len();
        let events: Vec<Event> = view.events().get(old..).unwrap_or_default().to_vec();
        let before = std::mem::replace(&mut self.view, view);
        if let Referee::Remote(r) = &mut self.referee {
            r.my_turn = my_turn;
            if r.result.is_none() {
                r.result = self.view.result();
            }
        }
        let callout = self.absorb_with(&before, &events);
        if before.ply() != self.view.ply()
            || events.iter().any(|e| matches!(e, Event::TimedOut { .. }))
        {
            self.clock = self.rules().move_seconds as f32;
        }
        callout
    }

    /// LAN: applies one public event of the network session to the player's view.
    ///
    /// # Errors
    /// An event the view cannot take (the view is then unchanged).
    pub fn follow(&mut self, event: &Event) -> Result<Option<Callout>, junqi_game::ViewError> {
        let mut view = self.view.clone();
        view.apply(event)?;
        let my_turn = matches!(&self.referee, Referee::Remote(r) if r.my_turn);
        Ok(self.update_view(view, my_turn))
    }

    /// LAN: whether the network session accepts a move now.
    pub fn set_turn(&mut self, my_turn: bool) {
        if let Referee::Remote(r) = &mut self.referee {
            r.my_turn = my_turn;
        }
    }

    /// LAN: a move of the player's was voided: the view goes back to `view` (the snapshot and
    /// the events that still stand); the log and removed pieces are rebuilt from it, the
    /// player's markers stay.
    pub fn rewind(&mut self, view: PlayerView) {
        let my_turn = matches!(&self.referee, Referee::Remote(r) if r.my_turn);
        let mut fresh = Self::remote(view, std::mem::take(&mut self.opponent), self.started);
        fresh.markers = std::mem::take(&mut self.markers);
        fresh.set_turn(my_turn);
        *self = fresh;
    }

    /// LAN: the game ended as the network session says.
    pub fn set_result(&mut self, result: GameResult) {
        if let Referee::Remote(r) = &mut self.referee {
            r.result = Some(result);
            r.my_turn = false;
        }
    }

    /// LAN: a move was sent; no other until the network session answers.
    pub fn sent_move(&mut self) {
        if let Referee::Remote(r) = &mut self.referee {
            r.my_turn = false;
        }
    }

    /// A saved game replayed up to `upto` actions (all when `None`).
    pub fn from_saved(saved: &GameFile, upto: Option<usize>) -> Result<Self, SetupError> {
        let mut fresh = saved.record.clone();
        fresh.actions.clear();
        let start = Game::replay(&fresh, None)?;
        let mut s = Match::new(start, saved.me, saved.opponent.clone(), saved.started);
        let n = upto
            .unwrap_or(saved.record.actions.len())
            .min(saved.record.actions.len());
        for (index, &(side, action)) in saved.record.actions[..n].iter().enumerate() {
            s.act(side, action)
                .map_err(|error| SetupError::Action { index, error })?;
        }
        s.undos = saved.undos;
        Ok(s)
    }

    /// 悔棋: takes back the player's last move and everything played after it (the computer's
    /// replies), by replaying the record up to it: the position, the timeouts, the log and the
    /// removed pieces are exactly those before that move, and the move clock starts again.
    /// Only against the computer, on the player's turn, while the game goes on.
    pub fn undo(&mut self) -> bool {
        let me = self.me();
        let Some(game) = self.game() else {
            return false;
        };
        if game.result().is_some() || game.turn() != me {
            return false;
        }
        let Some(at) = game
            .record()
            .actions
            .iter()
            .rposition(|&(side, a)| side == me && matches!(a, Action::Move(_)))
        else {
            return false;
        };
        let Some(saved) = self.saved() else {
            return false;
        };
        let Ok(mut back) = Match::from_saved(&saved, Some(at)) else {
            return false;
        };
        back.markers = std::mem::take(&mut self.markers);
        back.undos = self.undos + 1;
        *self = back;
        true
    }

    /// What is saved (`None` for a LAN game: the enemy's layout is not known).
    pub fn saved(&self) -> Option<GameFile> {
        let game = self.game()?;
        Some(GameFile {
            version: 1,
            started: self.started,
            opponent: self.opponent.clone(),
            me: self.me(),
            record: game.record().clone(),
            result: game.result(),
            undos: self.undos,
        })
    }

    /// The player's side.
    pub fn me(&self) -> Side {
        self.view.me()
    }

    /// The result, once over.
    pub fn result(&self) -> Option<GameResult> {
        match &self.referee {
            Referee::Local(g) => g.result(),
            Referee::Remote(r) => r.result.or(self.view.result()),
        }
    }

    /// Whether it is the player's move (and the game goes on).
    pub fn my_turn(&self) -> bool {
        self.result().is_none()
            && self.turn() == self.me()
            && match &self.referee {
                Referee::Local(_) => true,
                Referee::Remote(r) => r.my_turn,
            }
    }

    /// Plies played.
    pub fn plies(&self) -> u16 {
        self.view.ply()
    }

    /// The player's legal moves from `from` (empty unless it is the player's turn).
    pub fn moves_from(&self, from: Point) -> Vec<Move> {
        if !self.my_turn() {
            return Vec::new();
        }
        self.view.moves_from(from).to_vec()
    }

    /// Applies an action by `side` through the local referee; the log, removed pieces, clock and
    /// view follow. In a LAN game the network session acts instead (refused here).
    ///
    /// # Errors
    /// The engine's refusal (the match is then unchanged).
    pub fn act(&mut self, side: Side, action: Action) -> Result<Vec<Event>, ActionError> {
        self.act_called(side, action).map(|(events, _)| events)
    }

    /// [`Match::act`], with what the referee calls out for it.
    fn act_called(
        &mut self,
        side: Side,
        action: Action,
    ) -> Result<(Vec<Event>, Option<Callout>), ActionError> {
        let me = self.me();
        let Referee::Local(game) = &mut self.referee else {
            return Err(ActionError::GameOver);
        };
        let before = self.view.clone();
        let table = game.apply_table(side, action)?;
        self.view = game.view(me);
        let mut events = Vec::with_capacity(table.len());
        let mut all = Vec::with_capacity(table.len());
        let mut callout = None;
        for e in table {
            match e {
                TableEvent::Event(e) => {
                    events.push(e);
                    all.push(e);
                }
                TableEvent::PlayerOut { side, reason } => {
                    callout = self.absorb_with(&before, &events).or(callout);
                    events.clear();
                    self.log.push(LogEntry::Out { side, reason });
                }
                TableEvent::DrawAccepted { .. } => {}
            }
        }
        callout = self.absorb_with(&before, &events).or(callout);
        if matches!(action, Action::Move(_) | Action::Timeout) {
            self.clock = self.rules().move_seconds as f32;
        }
        Ok((all, callout))
    }

    /// Plays a move for the side to move; returns what the referee calls out for it.
    ///
    /// # Errors
    /// The engine's refusal of the move (the match is then unchanged).
    pub fn play(&mut self, mv: Move) -> Result<Option<Callout>, ActionError> {
        let side = self.turn();
        self.act_called(side, Action::Move(mv))
            .map(|(_, callout)| callout)
    }

    /// Advances the move clock by `dt` seconds; at zero the side to move times out. Returns
    /// `true` on a timeout.
    pub fn tick(&mut self, dt: f32) -> bool {
        if self.result().is_some() {
            return false;
        }
        self.clock -= dt;
        if self.clock > 0.0 {
            return false;
        }
        // In a LAN game the network session claims timeouts; the clock only shows.
        if self.is_remote() {
            self.clock = 0.0;
            return false;
        }
        let side = self.turn();
        self.act(side, Action::Timeout).is_ok()
    }

    fn absorb(&mut self, events: &[Event]) {
        let before = self.view.clone();
        self.absorb_with(&before, events);
    }

    /// Adds log lines and removed pieces for `events`, reading ranks the player knew from
    /// `before` (the view before the action) and the events' public ranks; returns what the
    /// referee calls out for them (the last battle or flip, else the first move), from the same
    /// reading as the log.
    fn absorb_with(&mut self, before: &PlayerView, events: &[Event]) -> Option<Callout> {
        let mut callout: Option<Callout> = None;
        let known = |p: Point| match before.at(p) {
            Some(Seen::Piece { rank, .. }) => rank,
            _ => None,
        };
        // Whose piece stood there (four players: not always the attacker's opponent).
        let owner = |p: Point, attacker: Side| match before.at(p) {
            Some(Seen::Piece { side, .. }) => side,
            _ => attacker.opponent(),
        };
        for e in events {
            let ply = before.ply() + 1;
            match *e {
                Event::Moved { side, from, to } => {
                    callout.get_or_insert(Callout {
                        at: to,
                        called: Called::Moved,
                    });
                    self.log.push(LogEntry::Move {
                        ply,
                        side,
                        from,
                        to,
                        rank: known(from),
                        battle: None,
                    });
                }
                Event::Battle {
                    side,
                    from,
                    to,
                    announcement,
                    attacker_rank,
                    defender_rank,
                    ..
                } => {
                    let seen = BattleSeen {
                        attacker: attacker_rank.or(known(from)),
                        defender: defender_rank.or(known(to)),
                        outcome: announcement.outcome,
                        flag_captured: announcement.flag_captured,
                    };
                    if seen.outcome != Outcome::AttackerWins {
                        self.removed.push((side, seen.attacker));
                    }
                    if seen.outcome != Outcome::DefenderWins {
                        self.removed.push((owner(to, side), seen.defender));
                    }
                    self.log.push(LogEntry::Move {
                        ply,
                        side,
                        from,
                        to,
                        rank: seen.attacker,
                        battle: Some(seen),
                    });
                    callout = Some(Callout {
                        at: to,
                        called: Called::Battle(seen),
                    });
                }
                Event::Flipped {
                    side,
                    owner,
                    rank,
                    at,
                    ..
                }
                | Event::VoidAttack {
                    side,
                    owner,
                    rank,
                    to: at,
                    ..
                } => {
                    callout = Some(Callout {
                        at,
                        called: Called::Flipped(rank),
                    });
                    self.log.push(LogEntry::Flip {
                        ply,
                        side,
                        owner,
                        rank,
                    });
                }
                Event::FlagRevealed { side, .. } => self.log.push(LogEntry::FlagShown { side }),
                Event::TimedOut { side, count } => self.log.push(LogEntry::Timeout { side, count }),
                Event::DrawOffered { side } => self.log.push(LogEntry::DrawOffered { side }),
                Event::DrawDeclined { side } => self.log.push(LogEntry::DrawDeclined { side }),
                Event::Revealed { .. } | Event::GameOver { .. } => {}
            }
        }
        callout
    }
}

/// How the player `me` calls the seat `side`: 我方 / 对方 in two-player games; in four-player
/// games (`four`) 我方, 下家 (who moves after the player), 对家 (the partner), 上家 (who moves
/// before), as players do round a table.
pub fn seat_key(side: Side, me: Side, four: bool, clockwise: bool) -> &'static str {
    if side == me {
        "game.you"
    } else if !four {
        "game.enemy"
    } else if side == me.partner() {
        "seat.partner"
    } else if side == me.next(clockwise) {
        "seat.next"
    } else {
        "seat.previous"
    }
}

/// The grammatical person of the seat `side` for the player `me`: `you` (a verb agrees with
/// "You" in English) or `other`; a sentence's `seat` variable.
pub fn person(side: Side, me: Side) -> FluentValue<'static> {
    if side == me { "you" } else { "other" }.into()
}

/// The text of a log entry for the player `me` in `lang`, on `view`'s board and table.
pub fn log_text(entry: &LogEntry, view: &PlayerView, lang: Lang) -> String {
    let me = view.me();
    let (four, clockwise) = (view.is_team_game(), view.rules().clockwise);
    let who = |s: Side| lang.t(seat_key(s, me, four, clockwise));
    let board = view.board();
    match entry {
        LogEntry::Move {
            ply,
            side,
            from,
            to,
            rank,
            battle,
        } => {
            let moved = lang.tr(
                "log.move",
                &[
                    ("who", who(*side).into()),
                    ("piece", crate::game_text::piece_name(*rank, lang).into()),
                    ("from", board.name_of(*from).to_string().into()),
                    ("to", board.name_of(*to).to_string().into()),
                ],
            );
            let Some(b) = battle else {
                return format!("{ply}. {moved}");
            };
            let d = crate::game_text::piece_name(b.defender, lang);
            let verdict = match b.outcome {
                _ if b.flag_captured => lang.t("battle.flag").to_owned(),
                Outcome::AttackerWins => lang.tr("log.takes", &[("piece", d.into())]),
                Outcome::DefenderWins => lang.tr("log.taken_by", &[("piece", d.into())]),
                Outcome::BothRemoved => lang.tr("log.trades_with", &[("piece", d.into())]),
            };
            let line = lang.tr(
                "log.battle",
                &[("move", moved.into()), ("verdict", verdict.into())],
            );
            format!("{ply}. {line}")
        }
        LogEntry::Flip {
            ply,
            side,
            owner,
            rank,
        } => format!(
            "{ply}. {}",
            lang.tr(
                "log.flip",
                &[
                    ("seat", person(*side, me)),
                    ("who", who(*side).into()),
                    ("owner", who(*owner).into()),
                    ("rank", crate::game_text::rank_name(*rank, lang).into()),
                ],
            )
        ),
        LogEntry::Timeout { side, count } => lang.tr(
            "log.timeout",
            &[("who", who(*side).into()), ("count", (*count).into())],
        ),
        LogEntry::FlagShown { side } => lang.tr("log.flag_shown", &[("who", who(*side).into())]),
        LogEntry::DrawOffered { side } => lang.tr(
            "game.offer_from",
            &[("seat", person(*side, me)), ("who", who(*side).into())],
        ),
        LogEntry::DrawDeclined { side } => lang.tr(
            "log.draw_declined",
            &[("seat", person(*side, me)), ("who", who(*side).into())],
        ),
        LogEntry::Out { side, reason } => {
            let why = lang.t(reason_key(&GameResult::Win {
                winner: *side,
                reason: *reason,
            }));
            lang.tr(
                "log.out",
                &[("who", who(*side).into()), ("why", why.into())],
            )
        }
    }
}

/// What a player reads when the referee refuses an action of theirs.
pub fn action_error_text(e: &ActionError, lang: Lang) -> String {
    match e {
        ActionError::ResignTooEarly(n) => lang.tr("game.resign_early", &[("moves", (*n).into())]),
        ActionError::NotYourTurn(_) => lang.t("refused.turn").to_owned(),
        ActionError::Illegal(_) => lang.t("refused.illegal").to_owned(),
        ActionError::DrawAlreadyOffered => lang.t("refused.offered").to_owned(),
        ActionError::GameOver | ActionError::NoDrawOffer | ActionError::NotInGame(_) => {
            lang.t("refused.phase").to_owned()
        }
    }
}

/// What a player reads when a saved record does not replay.
pub fn record_error_text(e: &SetupError, lang: Lang) -> String {
    match e {
        SetupError::Layout { .. } => lang.t("err.record_layout").to_owned(),
        SetupError::BadArrangement | SetupError::WrongMode => {
            lang.t("err.record_opening").to_owned()
        }
        SetupError::Action { index, .. } => {
            lang.tr("err.record_action", &[("n", (index + 1).into())])
        }
    }
}

/// The i18n key of a result's reason.
pub fn reason_key(result: &GameResult) -> &'static str {
    match result {
        GameResult::Win { reason, .. } => match reason {
            WinReason::FlagCaptured => "reason.flag",
            WinReason::NoLegalMove => "reason.no_moves",
            // Not "no legal move": in a flip game the loser may still turn pieces over.
            WinReason::NoMovablePieces => "reason.no_pieces",
            WinReason::Timeouts => "reason.timeouts",
            WinReason::Resignation => "reason.resign",
            WinReason::Forfeit => "reason.forfeit",
        },
        GameResult::Draw { reason } => match reason {
            DrawReason::NoMovesEither => "reason.stalemate",
            DrawReason::QuietMoves => "reason.quiet",
            DrawReason::Agreed => "reason.agreed",
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use junqi_game::{Mode, Rules};
    use rand::{Rng, SeedableRng, rngs::StdRng};

    /// Plays `m` to its end (or `limit` plies) with moves drawn by `rng`, a piece's step or
    /// attack `steps` times out of ten when there is one (else any move); returns every callout.
    fn play_out(m: &mut Match, rng: &mut StdRng, limit: u16, steps: u32) -> Vec<Callout> {
        let mut callouts = Vec::new();
        while m.result().is_none() && m.plies() < limit {
            let view = m.game().expect("a local game").view(m.turn());
            let all = view.legal_moves();
            let stepping: Vec<Move> = all
                .iter()
                .copied()
                .filter(|m| matches!(m, Move::Step { .. }))
                .collect();
            let moves = if !stepping.is_empty() && rng.random_ratio(steps, 10) {
                &stepping[..]
            } else {
                &all[..]
            };
            let mv = moves[rng.random_range(0..moves.len())];
            let log = m.log.len();
            let callout = m.play(mv).expect("a legal move is taken");
            // What the board calls out is what the log says of the same move.
            let last_battle = m.log[log..].iter().rev().find_map(|e| match e {
                LogEntry::Move {
                    battle: Some(b), ..
                } => Some(*b),
                _ => None,
            });
            if let Some(Callout {
                called: Called::Battle(seen),
                ..
            }) = callout
            {
                assert_eq!(Some(seen), last_battle, "{mv:?}");
            } else {
                assert_eq!(last_battle, None, "a battle without its callout: {mv:?}");
            }
            callouts.extend(callout);
        }
        callouts
    }

    /// The board's caption, its effect and the sound all read the battle as the log does: the
    /// ranks the player knew, not only the public ones (in a dark game the player's own bomb is
    /// a bomb, though the referee does not say so).
    #[test]
    fn the_callout_reads_the_battle_as_the_log_does() {
        let layouts = junqi_game::classic_layouts();
        let mut own_bombs = 0;
        for seed in 0..8 {
            let mut rng = StdRng::seed_from_u64(seed);
            let (south, north) = (
                seed as usize % layouts.len(),
                (seed as usize + 1) % layouts.len(),
            );
            let game = Game::new(
                Rules::for_mode(Mode::Dark),
                layouts[south].layout,
                layouts[north].layout,
                Side::South,
            )
            .expect("the classic layouts are legal");
            let mut m = Match::new(game, Side::South, "ai-1".into(), 0);
            for c in play_out(&mut m, &mut rng, 600, 9) {
                if let Called::Battle(seen) = c.called
                    && seen.kind() == BattleKind::Bomb
                {
                    own_bombs += 1;
                    assert_eq!(c.battle(), Some(BattleKind::Bomb));
                    assert_eq!(c.caption(Lang::Zh).as_deref(), Some("炸！"));
                }
            }
        }
        assert!(own_bombs > 0, "no bomb went off in the games played");
    }

    /// A refused action reads as a translated sentence, never the engine's English words.
    #[test]
    fn refusals_are_translated() {
        let errors = [
            ActionError::GameOver,
            ActionError::NotYourTurn(Side::North),
            ActionError::ResignTooEarly(30),
            ActionError::NoDrawOffer,
            ActionError::DrawAlreadyOffered,
            ActionError::NotInGame(Side::East),
        ];
        for e in errors {
            for lang in [Lang::Zh, Lang::En] {
                let text = action_error_text(&e, lang);
                let key_left = text.contains('.')
                    && text
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c == '.' || c == '_');
                assert!(!key_left && text != e.to_string(), "{e:?}: {text}");
            }
        }
        assert!(action_error_text(&ActionError::ResignTooEarly(30), Lang::En).contains("30"));
    }

    /// The reason a result is given for is true of the final position: "no legal move" only
    /// when the loser had none, "no movable piece" only when it had none. In a flip game won
    /// because the other side has no movable piece, that side may still turn pieces over: it
    /// is not "no legal move".
    #[test]
    fn a_flip_game_won_on_immobility_gives_the_engines_reason() {
        let mut immobile_but_could_flip = 0;
        // Players who fight rather than turn pieces over: games end with pieces still face down.
        for seed in 0..60 {
            let mut rng = StdRng::seed_from_u64(seed);
            let game = Game::new_flip_shuffled(Rules::for_mode(Mode::Flip), Side::South, &mut rng);
            let mut m = Match::new(game, Side::South, "ai-1".into(), 0);
            play_out(&mut m, &mut rng, 2000, 9);
            let Some(result @ GameResult::Win { winner, .. }) = m.result() else {
                continue;
            };
            let loser = winner.opponent();
            let pos = m.game().expect("a local game").position();
            match reason_key(&result) {
                "reason.no_moves" => assert!(!pos.has_legal_move(loser), "seed {seed}"),
                "reason.no_pieces" => {
                    assert!(!pos.has_movable_piece(loser), "seed {seed}");
                    if pos.has_legal_move(loser) {
                        immobile_but_could_flip += 1;
                    }
                }
                _ => {}
            }
        }
        assert!(
            immobile_but_could_flip > 0,
            "no flip game ended with a side out of movable pieces but with pieces to turn over"
        );
    }
}
