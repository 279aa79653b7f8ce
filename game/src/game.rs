//! A whole game: setup → play → over, with the referee's public announcements,
//! timeouts, resigning, draw offers, and a record that replays exactly.

use crate::layout::{Layout, LayoutErrors};
use crate::piece::Side;
use crate::position::{DrawReason, GameResult, IllegalMove, Move, Position, WinReason};
use crate::rules::{Mode, Rules};
use crate::view::PlayerView;
use rand::Rng;
use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};

mod four;
mod record_serde;
pub(crate) mod scores;

pub use crate::event::{Event, TableEvent, public_events};

/// Something a player does on the clock.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// A move (only by the side to move).
    Move(Move),
    /// The side to move ran out of time (reported by whoever keeps the clock).
    Timeout,
    /// Give up (refused in the first plies, see [`Rules::resign_after_plies`]).
    Resign,
    /// Offer a draw; it stands until answered or until the next move.
    OfferDraw,
    /// Accept the opponent's standing draw offer.
    AcceptDraw,
    /// Decline the opponent's standing draw offer.
    DeclineDraw,
}

/// Why an action was refused (the game is left untouched).
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
pub enum ActionError {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// Only the side to move may move or time out.
    #[error("it is not {0}'s turn")]
    NotYourTurn(Side),
    /// An illegal move.
    #[error("illegal move: {0}")]
    Illegal(#[from] IllegalMove),
    /// Resigning is not allowed this early.
    #[error("resigning is not allowed in the first {0} moves")]
    ResignTooEarly(u16),
    /// There is no draw offer from the opponent to answer, or one already stands.
    #[error("no draw offer to answer")]
    NoDrawOffer,
    /// A draw offer by this side already stands.
    #[error("a draw offer already stands")]
    DrawAlreadyOffered,
    /// Four-player games: this player is out and takes no more actions.
    #[error("{0} is out of the game")]
    NotInGame(Side),
}

/// How a game was set up, enough to replay it.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Setup {
    /// Dark and open games: both layouts.
    Layouts {
        /// South's layout.
        south: Layout,
        /// North's layout.
        north: Layout,
    },
    /// Flip games: the shuffle (see [`Position::new_flip`]).
    Flip {
        /// Piece ids on the 50 non-camp points.
        arrangement: Vec<u8>,
    },
    /// Four-player games: the four layouts.
    Four {
        /// South's layout.
        south: Layout,
        /// East's layout.
        east: Layout,
        /// North's layout.
        north: Layout,
        /// West's layout.
        west: Layout,
    },
}

impl Setup {
    /// Four-player games: the layout of `side`.
    pub fn four_layout(&self, side: Side) -> Option<&Layout> {
        match (self, side) {
            (Setup::Four { south, .. }, Side::South) => Some(south),
            (Setup::Four { east, .. }, Side::East) => Some(east),
            (Setup::Four { north, .. }, Side::North) => Some(north),
            (Setup::Four { west, .. }, Side::West) => Some(west),
            _ => None,
        }
    }
}

/// Why a game could not be set up or replayed.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum SetupError {
    /// A layout breaks the setup rules.
    #[error("{side}'s layout: {errors}")]
    Layout {
        /// Whose.
        side: Side,
        /// What it breaks.
        errors: LayoutErrors,
    },
    /// The flip arrangement is not a permutation of the 50 pieces.
    #[error("the flip arrangement is not a permutation of 0..50")]
    BadArrangement,
    /// The setup does not fit the mode.
    #[error("setup kind does not fit the game mode")]
    WrongMode,
    /// An action in the record was refused.
    #[error("record action {index}: {error}")]
    Action {
        /// Which action.
        index: usize,
        /// Why.
        error: ActionError,
    },
}

/// A game's full record: rules, setup and every action in order. In JSON
/// its points are named on the game's board (`"S53"` on the classic board,
/// `"S:35"` on the four-player board; see `game/record_serde.rs`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Record {
    /// The rules.
    pub rules: Rules,
    /// Who moved first.
    pub first: Side,
    /// The setup.
    pub setup: Setup,
    /// Each action with the side that took it.
    pub actions: Vec<(Side, Action)>,
}

/// A game in progress with the whole truth: for a local referee.
#[derive(Clone, Debug)]
pub struct Game {
    position: Position,
    record: Record,
    events: Vec<Event>,
    /// Every announcement including the four-player ones, in order.
    table: Vec<TableEvent>,
    /// Index into `events` where each action's events start.
    action_starts: Vec<usize>,
    timeouts: [u8; 4],
    draw_offer: Option<Side>,
    /// Four-player games: the players who accepted the standing draw offer.
    draw_accepts: u8,
    result: Option<GameResult>,
}

impl Game {
    /// A dark or open game from both layouts (each checked against `rules`).
    pub fn new(
        rules: Rules,
        south: Layout,
        north: Layout,
        first: Side,
    ) -> Result<Game, SetupError> {
        if rules.mode == Mode::Flip {
            return Err(SetupError::WrongMode);
        }
        let check = |side, l: &Layout| {
            l.validate(&rules)
                .map_err(|errors| SetupError::Layout { side, errors })
        };
        let (s, n) = (check(Side::South, &south)?, check(Side::North, &north)?);
        let position = Position::new(rules, &s, &n, first);
        let mut game = Game::start(
            position,
            Record {
                rules,
                first,
                setup: Setup::Layouts { south, north },
                actions: Vec::new(),
            },
        );
        if rules.mode == Mode::Open
            && let Setup::Layouts { south, north } = &game.record.setup
        {
            let reveal = [(Side::South, *south), (Side::North, *north)];
            for (side, layout) in reveal {
                game.announce(Event::Revealed { side, layout });
            }
        }
        Ok(game)
    }

    /// A flip game from a given arrangement of the 50 pieces.
    pub fn new_flip(rules: Rules, arrangement: [u8; 50], first: Side) -> Result<Game, SetupError> {
        let position =
            Position::new_flip(rules, &arrangement, first).ok_or(SetupError::BadArrangement)?;
        let rules = *position.rules();
        Ok(Game::start(
            position,
            Record {
                rules,
                first,
                setup: Setup::Flip {
                    arrangement: arrangement.to_vec(),
                },
                actions: Vec::new(),
            },
        ))
    }

    /// A flip game shuffled from the caller's random source.
    pub fn new_flip_shuffled(rules: Rules, first: Side, rng: &mut impl Rng) -> Game {
        let mut arrangement: [u8; 50] = std::array::from_fn(|i| i as u8);
        arrangement.shuffle(rng);
        Game::new_flip(rules, arrangement, first).expect("a shuffle is a permutation")
    }

    fn start(position: Position, record: Record) -> Game {
        Game {
            position,
            record,
            events: Vec::new(),
            table: Vec::new(),
            action_starts: Vec::new(),
            timeouts: [0; 4],
            draw_offer: None,
            draw_accepts: 0,
            result: None,
        }
    }

    /// Replays a record up to `upto` actions (all when `None`).
    pub fn replay(record: &Record, upto: Option<usize>) -> Result<Game, SetupError> {
        let mut game = match &record.setup {
            Setup::Layouts { south, north } => {
                Game::new(record.rules, *south, *north, record.first)?
            }
            Setup::Flip { arrangement } => {
                let arr: [u8; 50] = arrangement
                    .as_slice()
                    .try_into()
                    .map_err(|_| SetupError::BadArrangement)?;
                Game::new_flip(record.rules, arr, record.first)?
            }
            Setup::Four {
                south,
                east,
                north,
                west,
            } => Game::new_four(record.rules, [*south, *east, *north, *west], record.first)?,
        };
        let n = upto
            .unwrap_or(record.actions.len())
            .min(record.actions.len());
        for (index, &(side, action)) in record.actions[..n].iter().enumerate() {
            game.apply(side, action)
                .map_err(|error| SetupError::Action { index, error })?;
        }
        Ok(game)
    }

    /// The whole truth (for the referee, tests and audits only).
    pub fn position(&self) -> &Position {
        &self.position
    }
    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.record.rules
    }
    /// The record so far.
    pub fn record(&self) -> &Record {
        &self.record
    }
    /// Every public event so far (in four-player games without the
    /// announcements only they have; see [`Game::table_events`]).
    pub fn events(&self) -> &[Event] {
        &self.events
    }
    /// Every announcement so far, the four-player ones included.
    pub fn table_events(&self) -> &[TableEvent] {
        &self.table
    }
    /// The result, once the game is over.
    pub fn result(&self) -> Option<GameResult> {
        self.result
    }
    /// Timeouts collected by `side`.
    pub fn timeouts(&self, side: Side) -> u8 {
        self.timeouts[side.index()]
    }
    /// The side with a standing draw offer.
    pub fn draw_offer(&self) -> Option<Side> {
        self.draw_offer
    }
    /// The side to move.
    pub fn turn(&self) -> Side {
        self.position.turn()
    }

    /// What `side` knows: its own pieces and every public event so far.
    pub fn view(&self, side: Side) -> PlayerView {
        if let Some(view) = self.four_view(side) {
            return view;
        }
        let mut view = match &self.record.setup {
            Setup::Layouts { south, north } => {
                let own = if side == Side::South { south } else { north };
                let own = own
                    .validate(&self.record.rules)
                    .expect("validated at start");
                PlayerView::new(self.record.rules, side, &own, self.record.first)
            }
            Setup::Flip { .. } | Setup::Four { .. } => {
                PlayerView::new_flip(self.record.rules, side, self.record.first)
            }
        };
        for e in &self.events {
            view.apply(e)
                .expect("the referee's own events are consistent");
        }
        view
    }

    /// Applies an action by `side`. Returns the events it caused; a refused
    /// action leaves the game untouched. Four-player games also announce
    /// [`TableEvent`]s that are not [`Event`]s; [`Game::apply_table`] returns those too.
    pub fn apply(&mut self, side: Side, action: Action) -> Result<Vec<Event>, ActionError> {
        Ok(self
            .apply_table(side, action)?
            .into_iter()
            .filter_map(|e| match e {
                TableEvent::Event(e) => Some(e),
                _ => None,
            })
            .collect())
    }

    /// Applies an action by `side` and returns every announcement it caused.
    pub fn apply_table(
        &mut self,
        side: Side,
        action: Action,
    ) -> Result<Vec<TableEvent>, ActionError> {
        if self.position.is_team_game() {
            return self.apply_four(side, action);
        }
        Ok(self
            .apply_two(side, action)?
            .into_iter()
            .map(TableEvent::Event)
            .collect())
    }

    /// Stores an announcement made outside an action (at the start).
    fn announce(&mut self, event: Event) {
        self.events.push(event);
        self.table.push(TableEvent::Event(event));
    }

    /// [`Game::apply`] for a two-player game.
    fn apply_two(&mut self, side: Side, action: Action) -> Result<Vec<Event>, ActionError> {
        if self.result.is_some() {
            return Err(ActionError::GameOver);
        }
        let turn = self.position.turn();
        let mut out = Vec::new();
        match action {
            Action::Move(m) => {
                if side != turn {
                    return Err(ActionError::NotYourTurn(side));
                }
                let effect = self.position.play(m)?;
                if let Some(offerer) = self.draw_offer.take() {
                    out.push(Event::DrawDeclined {
                        side: offerer.opponent(),
                    });
                }
                out.extend(public_events(&self.position, side, effect));
                if let Some(result) = self.position.result() {
                    self.finish(result, &mut out);
                }
            }
            Action::Timeout => {
                if side != turn {
                    return Err(ActionError::NotYourTurn(side));
                }
                let count = &mut self.timeouts[side.index()];
                *count += 1;
                let count = *count;
                self.position.pass();
                out.push(Event::TimedOut { side, count });
                if self.record.rules.is_timeout_loss(count) {
                    self.finish(
                        GameResult::Win {
                            winner: side.opponent(),
                            reason: WinReason::Timeouts,
                        },
                        &mut out,
                    );
                } else if let Some(result) = self.position.result() {
                    self.finish(result, &mut out);
                }
            }
            Action::Resign => {
                if !self.record.rules.may_resign(self.position.ply()) {
                    return Err(ActionError::ResignTooEarly(
                        self.record.rules.resign_after_plies,
                    ));
                }
                self.finish(
                    GameResult::Win {
                        winner: side.opponent(),
                        reason: WinReason::Resignation,
                    },
                    &mut out,
                );
            }
            Action::OfferDraw => {
                if self.draw_offer.is_some() {
                    return Err(ActionError::DrawAlreadyOffered);
                }
                self.draw_offer = Some(side);
                out.push(Event::DrawOffered { side });
            }
            Action::AcceptDraw | Action::DeclineDraw => {
                if self.draw_offer != Some(side.opponent()) {
                    return Err(ActionError::NoDrawOffer);
                }
                self.draw_offer = None;
                if action == Action::AcceptDraw {
                    self.finish(
                        GameResult::Draw {
                            reason: DrawReason::Agreed,
                        },
                        &mut out,
                    );
                } else {
                    out.push(Event::DrawDeclined { side });
                }
            }
        }
        self.record.actions.push((side, action));
        self.action_starts.push(self.events.len());
        self.events.extend_from_slice(&out);
        self.table
            .extend(out.iter().copied().map(TableEvent::Event));
        Ok(out)
    }

    fn finish(&mut self, result: GameResult, out: &mut Vec<Event>) {
        self.result = Some(result);
        self.draw_offer = None;
        out.push(Event::GameOver { result });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Point};
    use crate::layout::classic_layouts;
    use crate::piece::Side::{North as N, South as S};
    use crate::piece::{PieceId, Rank};
    use crate::view::Seen;

    fn pt(name: &str) -> Point {
        Board::classic().parse_point(name).unwrap()
    }

    fn classic(i: usize) -> Layout {
        classic_layouts()[i].layout
    }

    fn dark_game() -> Game {
        Game::new(Rules::default(), classic(0), classic(1), S).unwrap()
    }

    fn mv(from: &str, to: &str) -> Action {
        Action::Move(Move::Step {
            from: pt(from),
            to: pt(to),
        })
    }

    #[test]
    fn illegal_layouts_are_refused_with_every_problem() {
        let mut bad = classic(0);
        bad.set(2, 2, Some(Rank::Engineer));
        let err = Game::new(Rules::default(), classic(0), bad, S).unwrap_err();
        assert!(matches!(err, SetupError::Layout { side: N, .. }));
        assert!(Game::new(Rules::for_mode(Mode::Flip), classic(0), classic(1), S).is_err());
    }

    #[test]
    fn only_the_side_to_move_moves() {
        let mut g = dark_game();
        assert_eq!(
            g.apply(N, mv("N51", "N41")),
            Err(ActionError::NotYourTurn(N))
        );
        assert_eq!(g.apply(S, Action::Timeout).unwrap().len(), 1);
        assert_eq!(g.turn(), N);
    }

    #[test]
    fn resigning_is_refused_in_the_first_20_plies() {
        let mut g = dark_game();
        assert_eq!(
            g.apply(S, Action::Resign),
            Err(ActionError::ResignTooEarly(20))
        );
        for _ in 0..20 {
            let side = g.turn();
            let m = g.position().legal_moves()[0];
            // Use quiet moves only where possible, to keep both armies.
            g.apply(side, Action::Move(m)).unwrap();
            if g.result().is_some() {
                return;
            }
        }
        let ev = g.apply(N, Action::Resign).unwrap();
        assert_eq!(
            ev,
            vec![Event::GameOver {
                result: GameResult::Win {
                    winner: S,
                    reason: WinReason::Resignation
                }
            }]
        );
        assert_eq!(g.apply(S, mv("S51", "S41")), Err(ActionError::GameOver));
    }

    #[test]
    fn more_than_three_timeouts_lose() {
        let mut g = dark_game();
        for i in 1..=3u8 {
            g.apply(S, Action::Timeout).unwrap();
            assert_eq!(g.timeouts(S), i);
            g.apply(
                N,
                mv(
                    ["N51", "N41", "N51"][i as usize - 1],
                    ["N41", "N51", "N41"][i as usize - 1],
                ),
            )
            .ok();
            if g.turn() == N {
                g.apply(N, Action::Timeout).unwrap();
            }
        }
        assert!(g.result().is_none());
        let ev = g.apply(S, Action::Timeout).unwrap();
        assert!(matches!(
            ev.last(),
            Some(Event::GameOver {
                result: GameResult::Win {
                    winner: N,
                    reason: WinReason::Timeouts
                }
            })
        ));
    }

    #[test]
    fn draw_offers() {
        let mut g = dark_game();
        assert_eq!(
            g.apply(S, Action::AcceptDraw),
            Err(ActionError::NoDrawOffer)
        );
        g.apply(S, Action::OfferDraw).unwrap();
        assert_eq!(
            g.apply(S, Action::OfferDraw),
            Err(ActionError::DrawAlreadyOffered)
        );
        assert_eq!(
            g.apply(S, Action::AcceptDraw),
            Err(ActionError::NoDrawOffer)
        );
        g.apply(N, Action::DeclineDraw).unwrap();
        assert_eq!(g.draw_offer(), None);
        g.apply(N, Action::OfferDraw).unwrap();
        let ev = g.apply(S, Action::AcceptDraw).unwrap();
        assert_eq!(
            ev,
            vec![Event::GameOver {
                result: GameResult::Draw {
                    reason: DrawReason::Agreed
                }
            }]
        );
    }

    #[test]
    fn views_learn_ranks_from_battles() {
        // South: layout 001 with its commander moved to 15; North (001) has a division on 11.
        let south = classic(0).swapped((1, 5), (3, 5));
        assert_eq!(south.get(1, 5), Some(Rank::Commander));
        assert_eq!(classic(0).get(1, 1), Some(Rank::Division));
        let mut g = Game::new(Rules::default(), south, classic(0), S).unwrap();
        let ev = g.apply(S, mv("S15", "N11")).unwrap();
        assert!(matches!(ev[0], Event::Battle { announcement, .. }
            if announcement.outcome == crate::rules::Outcome::AttackerWins));
        // North saw its division lose to the attacker: a corps or the commander.
        let view_n = g.view(N);
        let attacker_id = match view_n.at(pt("N11")) {
            Some(Seen::Piece {
                id,
                side: S,
                rank: None,
            }) => id,
            other => panic!("{other:?}"),
        };
        let poss = view_n.piece(attacker_id).unwrap().possible;
        assert_eq!(poss, Rank::Commander.bit() | Rank::Corps.bit());
        // South saw its commander win: the defender was anything it beats, never a bomb or mine.
        let view_s = g.view(S);
        let lost = view_s
            .pieces()
            .find(|k| k.side == N && k.at.is_none())
            .unwrap();
        assert!(
            !lost
                .possible
                .intersects(Rank::Bomb.bit() | Rank::Landmine.bit() | Rank::Commander.bit())
        );
    }

    #[test]
    fn bomb_on_commander_shows_its_flag() {
        // South: 001 with a bomb on 21. North: 001 with its commander on 15, facing South's 11.
        let south = classic(0).swapped((2, 1), (2, 3));
        let north = classic(0).swapped((1, 5), (3, 5));
        assert_eq!(south.get(2, 1), Some(Rank::Bomb));
        let mut g = Game::new(Rules::default(), south, north, S).unwrap();
        g.apply(S, Action::Timeout).unwrap();
        // North's commander takes South's division on 11 along the long railway.
        g.apply(N, mv("N15", "S11")).unwrap();
        let ev = g.apply(S, mv("S21", "S11")).unwrap();
        assert!(
            matches!(ev[0], Event::Battle { announcement, .. } if announcement.defender_commander_died)
        );
        assert!(ev.contains(&Event::FlagRevealed {
            side: N,
            at: pt("N62")
        }));
        let view_s = g.view(S);
        assert_eq!(
            view_s.at(pt("N62")),
            Some(Seen::Piece {
                side: N,
                id: PieceId(25 + 21),
                rank: Some(Rank::Flag)
            })
        );
        // The dead commander is known to South too.
        let dead = view_s
            .pieces()
            .find(|k| k.side == N && k.at.is_none())
            .unwrap();
        assert_eq!(dead.known(), Some(Rank::Commander));
    }

    #[test]
    fn open_games_reveal_both_layouts() {
        let g = Game::new(Rules::for_mode(Mode::Open), classic(0), classic(1), S).unwrap();
        let v = g.view(S);
        assert_eq!(
            v.at(pt("N62")),
            Some(Seen::Piece {
                side: N,
                id: PieceId(25 + 21),
                rank: Some(classic(1).get(6, 2).unwrap())
            })
        );
    }

    #[test]
    fn records_serialize_and_replay_to_any_ply() {
        let mut g = dark_game();
        for _ in 0..30 {
            if g.result().is_some() {
                break;
            }
            let m = *g.position().legal_moves().last().unwrap();
            g.apply(g.turn(), Action::Move(m)).unwrap();
        }
        let json = serde_json::to_string(g.record()).unwrap();
        let back: Record = serde_json::from_str(&json).unwrap();
        assert_eq!(&back, g.record());
        let half = Game::replay(&back, Some(10)).unwrap();
        assert_eq!(half.position().ply(), 10);
        let mut again = half.clone();
        for &(side, a) in &back.actions[10..] {
            again.apply(side, a).unwrap();
        }
        assert_eq!(again.position(), g.position());
        let mut broken = back.clone();
        broken.actions.insert(0, (N, Action::Resign));
        assert!(matches!(
            Game::replay(&broken, None),
            Err(SetupError::Action { index: 0, .. })
        ));
    }
}
