//! Compact move notation, for move lists and game records.
//!
//! Points are named as in RULES.md §2 with the half's letter: `S53` is South's
//! row 5, column 3.
//!
//! | text | meaning |
//! |---|---|
//! | `S53-S43` | a move to an empty point |
//! | `S13xN13` | an attack |
//! | `fN33` | flip games: turn the face-down piece on N33 over |
//! | `timeout` | the side to move ran out of time |
//! | `S:resign`, `N:offer-draw`, `S:accept-draw`, `S:decline-draw` | the other actions, with the acting side |
//!
//! In a record an attack is followed by what the referee announced:
//!
//! - the outcome: `>` the attacker won, `<` the attacker lost, `=` both were
//!   removed, `#` the flag was captured (`#=` by a bomb: both removed);
//! - the ranks where they were public, as nicknames (40 … 32, 31 landmine,
//!   30 flag, 00 bomb) or `?`: `S13xN13>(38,35)` in open and flip games,
//!   `S13xN13<(?,40)` for a piece shown by engineer scouting;
//! - marks: `!a` the attacker was a commander and died, `!d` the defender was
//!   a commander and died (each reveals that side's flag), `!s` the defender
//!   was shown by engineer scouting.
//!
//! A flip shows the piece turned over, its colour and rank: `fN33(S40)`. An
//! attack in a flip game on a face-down piece of the attacker's own colour (or
//! on a flag still guarded by mines) only turns it over: `S13xN13~(S33)`.
//!
//! A movetext is these tokens separated by white space, in order. Moves and
//! time-outs belong to the side to move (the turn passes after each); the
//! other actions name their side. Four-player movetexts name the points of
//! the four-player board (`S35-E31`, `C5xN13`, or as BOARD4.md writes them,
//! `S:35-E:31`); whose turn a token is there depends on who has gone out,
//! so they are read through the referee with [`parse_movetext_in`].
//!
//! ```
//! use junqi_game::notation::{Written, parse_movetext, movetext};
//! use junqi_game::Side;
//! let text = "S53-S43 N13xS13=!a!d timeout S:offer-draw N:decline-draw";
//! let list: Vec<Written> = parse_movetext(text, Side::South).unwrap();
//! assert_eq!(list[1].side, Side::North);
//! assert_eq!(list[2].side, Side::South);
//! assert_eq!(movetext(&list), text);
//! ```

use crate::board::{Board, Point};
use crate::game::{Action, Event, Game, Record, SetupError};
use crate::piece::{Rank, Side};
use crate::position::{Move, Position};
use crate::rules::{Announcement, Outcome};
use std::fmt;

mod replay;
pub use replay::parse_movetext_in;

/// What the referee announced about a move, as a record shows it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Note {
    /// An attack.
    Battle {
        /// The announcement.
        announcement: Announcement,
        /// The attacker's rank, where public.
        attacker: Option<Rank>,
        /// The defender's rank, where public (open and flip games, scouting).
        defender: Option<Rank>,
    },
    /// Flip games: an attack that only turned a face-down piece over.
    Void {
        /// The colour of the piece turned over.
        owner: Side,
        /// Its rank.
        rank: Rank,
    },
    /// Flip games: a flip, and the piece it showed.
    Flipped {
        /// The colour of the piece turned over.
        owner: Side,
        /// Its rank.
        rank: Rank,
    },
}

/// One action as written in a record.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Written {
    /// Who acted.
    pub side: Side,
    /// What.
    pub action: Action,
    /// A step written as an attack (`x`); always true when `note` is a battle.
    pub attack: bool,
    /// What was announced, when known.
    pub note: Option<Note>,
}

/// Why notation text did not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{text:?}: {message}", if *.token > 0 { format!("token {} ", .token) } else { String::new() })]
pub struct NotationError {
    /// 1-based index of the token in a movetext (0 for a single move).
    pub token: usize,
    /// The text that failed.
    pub text: String,
    /// What is wrong.
    pub message: String,
}

fn err(text: &str, message: impl Into<String>) -> NotationError {
    NotationError {
        token: 0,
        text: text.to_string(),
        message: message.into(),
    }
}

/// A point's name on `board` (`S53`, `E31`, `C5`).
fn name(board: &Board, p: Point) -> String {
    if p.index() < board.len() {
        board.name_of(p).to_string()
    } else {
        format!("#{}", p.0)
    }
}

/// Writes a move as `S53-S43`, `S13xN13` (the target holds a piece) or
/// `fN33`; on the four-player board `S35-E31`, `S13xC8`.
pub fn format_move(pos: &Position, m: Move) -> String {
    let board = pos.board();
    match m {
        Move::Step { from, to } => {
            let sep = if pos.at(to).is_some() { 'x' } else { '-' };
            format!("{}{sep}{}", name(board, from), name(board, to))
        }
        Move::Flip { at } => format!("f{}", name(board, at)),
    }
}

/// Parses a bare move (`S53-S43`, `S13xN13` or `fN33`; no announcement).
/// `-` and `x` are both accepted whatever stands on the target.
pub fn parse_move(text: &str) -> Result<Move, NotationError> {
    let w = parse_written(text, Side::South)?;
    match (w.action, w.note) {
        (Action::Move(m), None) => Ok(m),
        (Action::Move(_), Some(_)) => Err(err(text, "expected a bare move without an outcome")),
        _ => Err(err(
            text,
            "expected a move such as S53-S43, S13xN13 or fN33",
        )),
    }
}

/// Parses a move and checks that it is legal in `pos` (and that `-`/`x`
/// matches what stands on the target).
pub fn parse_legal_move(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let w = parse_written_on(pos.board(), text, pos.turn())?;
    let Action::Move(m) = w.action else {
        return Err(err(text, "expected a move"));
    };
    pos.check(m)
        .map_err(|e| err(text, format!("illegal move: {e}")))?;
    if let Move::Step { to, .. } = m
        && w.attack != pos.at(to).is_some()
    {
        return Err(err(
            text,
            if w.attack {
                "written as an attack (x) but the target point is empty"
            } else {
                "written as a quiet move (-) but the target point is occupied"
            },
        ));
    }
    Ok(m)
}

fn rank_text(r: Option<Rank>) -> &'static str {
    r.map_or("?", Rank::nickname)
}

/// A [`Written`] token with point names of a given board.
struct OnBoard<'a>(&'a Written, &'static Board);

impl fmt::Display for Written {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        OnBoard(self, Board::classic()).fmt(f)
    }
}

impl fmt::Display for OnBoard<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let OnBoard(w, board) = *self;
        let side = w.side.letter();
        match w.action {
            Action::Move(Move::Flip { at }) => {
                write!(f, "f{}", name(board, at))?;
            }
            Action::Move(Move::Step { from, to }) => {
                let attack =
                    w.attack || matches!(w.note, Some(Note::Battle { .. } | Note::Void { .. }));
                let sep = if attack { 'x' } else { '-' };
                write!(f, "{}{sep}{}", name(board, from), name(board, to))?;
            }
            Action::Timeout => f.write_str("timeout")?,
            Action::Resign => write!(f, "{side}:resign")?,
            Action::OfferDraw => write!(f, "{side}:offer-draw")?,
            Action::AcceptDraw => write!(f, "{side}:accept-draw")?,
            Action::DeclineDraw => write!(f, "{side}:decline-draw")?,
        }
        match w.note {
            None => Ok(()),
            Some(Note::Flipped { owner, rank }) => {
                write!(f, "({}{})", owner.letter(), rank.nickname())
            }
            Some(Note::Void { owner, rank }) => {
                write!(f, "~({}{})", owner.letter(), rank.nickname())
            }
            Some(Note::Battle {
                announcement: a,
                attacker,
                defender,
            }) => {
                let c = match (a.outcome, a.flag_captured) {
                    (Outcome::BothRemoved, true) => "#=",
                    (_, true) => "#",
                    (Outcome::AttackerWins, _) => ">",
                    (Outcome::DefenderWins, _) => "<",
                    (Outcome::BothRemoved, _) => "=",
                };
                write!(f, "{c}")?;
                if attacker.is_some() || defender.is_some() {
                    write!(f, "({},{})", rank_text(attacker), rank_text(defender))?;
                }
                for (mark, on) in [
                    ("!a", a.attacker_commander_died),
                    ("!d", a.defender_commander_died),
                    ("!s", a.defender_revealed),
                ] {
                    if on {
                        f.write_str(mark)?;
                    }
                }
                Ok(())
            }
        }
    }
}

/// A small cursor over one token.
struct Cursor<'a> {
    board: &'static Board,
    text: &'a str,
    rest: &'a str,
}

impl<'a> Cursor<'a> {
    fn eat(&mut self, prefix: &str) -> bool {
        match self.rest.strip_prefix(prefix) {
            Some(r) => {
                self.rest = r;
                true
            }
            None => false,
        }
    }

    fn point(&mut self) -> Result<Point, NotationError> {
        // `S53` (half, row, column) or, on the four-player board, `C5`; the
        // four-player board's names may also be written as BOARD4.md does
        // (`S:35`, `C:5`).
        let colon = usize::from(
            self.rest[self.rest.char_indices().nth(1).map_or(0, |(i, _)| i)..].starts_with(':'),
        );
        let chars = colon
            + if self.rest.starts_with(['C', 'c']) {
                2
            } else {
                3
            };
        let len = self
            .rest
            .char_indices()
            .nth(chars)
            .map_or(self.rest.len(), |(i, _)| i);
        let (head, tail) = self.rest.split_at(len);
        let p = self.board.parse_point(head).map_err(|_| {
            err(
                self.text,
                format!("{head:?} is not a point such as S53 or N13"),
            )
        })?;
        self.rest = tail;
        Ok(p)
    }

    /// `(A,D)` public ranks; `(` already eaten.
    fn ranks(&mut self) -> Result<(Option<Rank>, Option<Rank>), NotationError> {
        let Some(close) = self.rest.find(')') else {
            return Err(err(self.text, "missing ')'"));
        };
        let inner = &self.rest[..close];
        self.rest = &self.rest[close + 1..];
        let Some((a, d)) = inner.split_once(',') else {
            return Err(err(
                self.text,
                format!("expected two ranks such as (38,35) or (?,40), found ({inner})"),
            ));
        };
        let rank = |t: &str| -> Result<Option<Rank>, NotationError> {
            if t == "?" {
                Ok(None)
            } else {
                Rank::parse(t)
                    .map(Some)
                    .ok_or_else(|| err(self.text, format!("unknown rank {t:?}")))
            }
        };
        Ok((rank(a)?, rank(d)?))
    }

    /// `(S40)` a piece's colour and rank; `(` already eaten.
    fn piece(&mut self) -> Result<(Side, Rank), NotationError> {
        let Some(close) = self.rest.find(')') else {
            return Err(err(self.text, "missing ')'"));
        };
        let inner = &self.rest[..close];
        self.rest = &self.rest[close + 1..];
        let mut chars = inner.chars();
        let side = chars.next().and_then(Side::from_letter);
        let rank = Rank::parse(chars.as_str());
        match (side, rank) {
            (Some(s), Some(r)) => Ok((s, r)),
            _ => Err(err(
                self.text,
                format!("expected a colour and a rank such as (S40), found ({inner})"),
            )),
        }
    }
}

/// Parses one token; `turn` is the side to move (it makes moves and time-outs).
pub fn parse_written(text: &str, turn: Side) -> Result<Written, NotationError> {
    parse_written_on(Board::classic(), text, turn)
}

/// [`parse_written`] with the point names of `board` (`S35-E31`, `C5xN13`
/// on the four-player board).
pub fn parse_written_on(
    board: &'static Board,
    text: &str,
    turn: Side,
) -> Result<Written, NotationError> {
    let mut cur = Cursor {
        board,
        text,
        rest: text,
    };
    let mut side = None;
    // `S:resign` names the acting side; `S:35-E:31` only names points.
    let prefixed = text
        .split_once(':')
        .filter(|(_, rest)| !rest.starts_with(|c: char| c.is_ascii_digit()));
    if let Some((s, rest)) = prefixed {
        let mut chars = s.chars();
        match (chars.next().and_then(Side::from_letter), chars.next()) {
            (Some(sd), None) => side = Some(sd),
            _ => return Err(err(text, format!("{s:?} is not a side letter (S or N)"))),
        }
        cur.rest = rest;
    }
    let acting = side.unwrap_or(turn);
    let written = |action, attack, note| Written {
        side: acting,
        action,
        attack,
        note,
    };
    let word = match cur.rest {
        "timeout" => Some(Action::Timeout),
        "resign" => Some(Action::Resign),
        "offer-draw" => Some(Action::OfferDraw),
        "accept-draw" => Some(Action::AcceptDraw),
        "decline-draw" => Some(Action::DeclineDraw),
        _ => None,
    };
    if let Some(action) = word {
        if side.is_none() && action != Action::Timeout {
            return Err(err(text, format!("say who acts, e.g. S:{}", cur.rest)));
        }
        if action == Action::Timeout && acting != turn {
            return Err(err(
                text,
                format!("only the side to move ({turn}) times out"),
            ));
        }
        return Ok(written(action, false, None));
    }
    if side.is_some_and(|s| s != turn) {
        return Err(err(text, format!("only the side to move ({turn}) moves")));
    }
    if cur.eat("f") || cur.eat("F") {
        let at = cur.point()?;
        let note = if cur.eat("(") {
            let (owner, rank) = cur.piece()?;
            Some(Note::Flipped { owner, rank })
        } else {
            None
        };
        if !cur.rest.is_empty() {
            return Err(err(
                text,
                format!("unexpected {:?} after the flip", cur.rest),
            ));
        }
        return Ok(written(Action::Move(Move::Flip { at }), false, note));
    }
    if cur.rest.is_empty() {
        return Err(err(text, "empty move"));
    }
    let from = cur.point()?;
    let attack = if cur.eat("x") || cur.eat("X") {
        true
    } else if cur.eat("-") {
        false
    } else {
        return Err(err(
            text,
            format!("expected '-' or 'x' after {}", name(cur.board, from)),
        ));
    };
    let to = cur.point()?;
    let action = Action::Move(Move::Step { from, to });
    if cur.rest.is_empty() {
        return Ok(written(action, attack, None));
    }
    if !attack {
        return Err(err(
            text,
            "a quiet move (-) has no outcome; write an attack with x",
        ));
    }
    if cur.eat("~") {
        if !cur.eat("(") {
            return Err(err(text, "expected the piece turned over, e.g. ~(S33)"));
        }
        let (owner, rank) = cur.piece()?;
        if !cur.rest.is_empty() {
            return Err(err(text, format!("unexpected {:?}", cur.rest)));
        }
        return Ok(written(action, true, Some(Note::Void { owner, rank })));
    }
    let (outcome, flag_captured) = if cur.eat(">") {
        (Outcome::AttackerWins, false)
    } else if cur.eat("<") {
        (Outcome::DefenderWins, false)
    } else if cur.eat("=") {
        (Outcome::BothRemoved, false)
    } else if cur.eat("#=") {
        (Outcome::BothRemoved, true)
    } else if cur.eat("#") {
        (Outcome::AttackerWins, true)
    } else {
        return Err(err(
            text,
            format!(
                "expected an outcome (> < = # or ~) after the attack, found {:?}",
                cur.rest
            ),
        ));
    };
    let (attacker, defender) = if cur.eat("(") {
        cur.ranks()?
    } else {
        (None, None)
    };
    let mut announcement = Announcement {
        outcome,
        flag_captured,
        attacker_commander_died: false,
        defender_commander_died: false,
        defender_revealed: false,
    };
    while !cur.rest.is_empty() {
        let flag = if cur.eat("!a") {
            &mut announcement.attacker_commander_died
        } else if cur.eat("!d") {
            &mut announcement.defender_commander_died
        } else if cur.eat("!s") {
            &mut announcement.defender_revealed
        } else {
            return Err(err(
                text,
                format!("unexpected {:?}; marks are !a, !d and !s", cur.rest),
            ));
        };
        if std::mem::replace(flag, true) {
            return Err(err(text, "a mark is repeated"));
        }
    }
    Ok(written(
        action,
        true,
        Some(Note::Battle {
            announcement,
            attacker,
            defender,
        }),
    ))
}

/// Whether an action passes the turn (moves and time-outs do).
fn passes_turn(action: Action) -> bool {
    matches!(action, Action::Move(_) | Action::Timeout)
}

/// Parses a movetext (tokens separated by white space); `first` moves first.
pub fn parse_movetext(text: &str, first: Side) -> Result<Vec<Written>, NotationError> {
    parse_movetext_on(Board::classic(), text, first)
}

/// [`parse_movetext`] of a two-player game on `board` (the four-player
/// board with [`crate::Rules::four_player_board`]).
pub fn parse_movetext_on(
    board: &'static Board,
    text: &str,
    first: Side,
) -> Result<Vec<Written>, NotationError> {
    let mut turn = first;
    let mut out = Vec::new();
    for (i, token) in text.split_whitespace().enumerate() {
        let w = parse_written_on(board, token, turn).map_err(|mut e| {
            e.token = i + 1;
            e
        })?;
        if passes_turn(w.action) {
            turn = turn.opponent();
        }
        out.push(w);
    }
    Ok(out)
}

/// Writes a movetext: the tokens separated by single spaces.
pub fn movetext(list: &[Written]) -> String {
    movetext_on(Board::classic(), list)
}

/// [`movetext`] with the point names of `board`.
pub fn movetext_on(board: &'static Board, list: &[Written]) -> String {
    list.iter()
        .map(|w| OnBoard(w, board).to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The note a move's public events give it.
pub fn note_of(events: &[Event]) -> Option<Note> {
    events.iter().find_map(|e| match *e {
        Event::Battle {
            announcement,
            attacker_rank,
            defender_rank,
            ..
        } => Some(Note::Battle {
            announcement,
            attacker: attacker_rank,
            defender: defender_rank,
        }),
        Event::VoidAttack { owner, rank, .. } => Some(Note::Void { owner, rank }),
        Event::Flipped { owner, rank, .. } => Some(Note::Flipped { owner, rank }),
        _ => None,
    })
}

/// A record's actions with what the referee announced for each (the record
/// is replayed to find out).
pub fn annotate(record: &Record) -> Result<Vec<Written>, SetupError> {
    let mut start = record.clone();
    start.actions.clear();
    let mut game = Game::replay(&start, None)?;
    let mut out = Vec::with_capacity(record.actions.len());
    for (index, &(side, action)) in record.actions.iter().enumerate() {
        let events = game
            .apply(side, action)
            .map_err(|error| SetupError::Action { index, error })?;
        let note = note_of(&events);
        out.push(Written {
            side,
            action,
            attack: matches!(note, Some(Note::Battle { .. } | Note::Void { .. })),
            note,
        });
    }
    Ok(out)
}

/// The movetext of a whole record, with every announcement (four-player
/// records with the four-player board's point names).
pub fn record_movetext(record: &Record) -> Result<String, SetupError> {
    let board = match record.setup {
        crate::game::Setup::Four { .. } => Board::four_player(),
        _ => record.rules.two_player_board(),
    };
    Ok(movetext_on(board, &annotate(record)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(text: &str) {
        let w = parse_written(text, Side::South).unwrap();
        assert_eq!(w.to_string(), text);
    }

    #[test]
    fn tokens_round_trip() {
        for t in [
            "S53-S43",
            "S13xN13",
            "S13xN13>",
            "S13xN13<",
            "S13xN13=",
            "S13xN13#",
            "S13xN13>(38,35)",
            "S13xN13<(32,40)!s",
            "S13xN13<(?,40)!s",
            "S13xN13=!a!d",
            "S13xN13<!a",
            "S13xN13#(38,30)",
            "S13xN13#=(00,30)",
            "fN33",
            "fN33(S40)",
            "fS62(N30)",
            "S13xN13~(S33)",
            "timeout",
            "S:resign",
            "N:offer-draw",
            "S:accept-draw",
            "S:decline-draw",
        ] {
            round_trip(t);
        }
    }

    #[test]
    fn a_bomb_on_the_flag_reads_back_as_both_removed() {
        let w = parse_written("S13xN13#=(00,30)", Side::South).unwrap();
        let Some(Note::Battle { announcement, .. }) = w.note else {
            panic!("{w:?}")
        };
        assert_eq!(announcement.outcome, Outcome::BothRemoved);
        assert!(announcement.flag_captured);
        let w = parse_written("S13xN13#(38,30)", Side::South).unwrap();
        let Some(Note::Battle { announcement, .. }) = w.note else {
            panic!("{w:?}")
        };
        assert_eq!(announcement.outcome, Outcome::AttackerWins);
    }

    #[test]
    fn bad_tokens_say_what_is_wrong() {
        for (t, needle) in [
            ("", "empty"),
            ("S73-S43", "S73"),
            ("S53+S43", "'-' or 'x'"),
            ("S53-S43>", "quiet move"),
            ("S13xN13?", "outcome"),
            ("S13xN13>(38)", "two ranks"),
            ("S13xN13>(38,99)", "unknown rank"),
            ("S13xN13>!q", "marks"),
            ("S13xN13>!a!a", "repeated"),
            ("fN33(X40)", "colour"),
            ("fN3", "point"),
            ("resign", "who acts"),
            ("N:S53-S43", "side to move"),
            ("N:timeout", "side to move"),
            ("Q:resign", "side letter"),
            ("S13xN13~", "turned over"),
            ("S13xN13>(38,35", "')'"),
            ("司令", "point"),
        ] {
            let e = parse_written(t, Side::South).unwrap_err();
            assert!(e.to_string().contains(needle), "{t}: {e}");
        }
        let e = parse_movetext("S53-S43 N13-N23 S11yS12", Side::South).unwrap_err();
        assert_eq!(e.token, 3);
        assert!(e.to_string().starts_with("token 3 \"S11yS12\""));
    }

    #[test]
    fn moves_in_a_position_use_x_for_attacks() {
        let pos = crate::position_from_json(
            r#"{"pieces": {"south": {"S13": "engineer", "S62": "flag"},
                           "north": {"N13": "40", "N62": "flag"}}}"#,
        )
        .unwrap();
        let texts: Vec<String> = pos
            .legal_moves()
            .iter()
            .map(|&m| format_move(&pos, m))
            .collect();
        assert!(texts.contains(&"S13xN13".to_string()));
        assert!(texts.contains(&"S13-S12".to_string()));
        for t in &texts {
            assert_eq!(format_move(&pos, parse_legal_move(&pos, t).unwrap()), *t);
        }
        for (t, needle) in [
            ("S13-N13", "occupied"),
            ("S13xS12", "empty"),
            ("S13-S33", "illegal"),
            ("N13-N23", "illegal"),
            ("timeout", "expected a move"),
        ] {
            let e = parse_legal_move(&pos, t).unwrap_err();
            assert!(e.to_string().contains(needle), "{t}: {e}");
        }
    }

    #[test]
    fn four_player_moves_name_points_of_the_four_player_board() {
        let pos = crate::position_from_json(
            r#"{"board": "four-player", "turn": "south",
                "pieces": {"south": {"S35": "corps", "C5": "engineer", "S62": "flag"},
                           "east": {"E31": "engineer", "E62": "flag"},
                           "north": {"N43": "platoon", "N62": "flag"},
                           "west": {"W43": "platoon", "W62": "flag"}}}"#,
        )
        .unwrap();
        let texts: Vec<String> = pos
            .legal_moves()
            .iter()
            .map(|&m| format_move(&pos, m))
            .collect();
        for t in ["S35-E21", "S35xE31", "S35-N51", "C5-C8", "C5-W51", "C5xE31"] {
            assert!(texts.contains(&t.to_string()), "{t} missing from {texts:?}");
        }
        for t in &texts {
            assert_eq!(format_move(&pos, parse_legal_move(&pos, t).unwrap()), *t);
        }
        assert!(parse_legal_move(&pos, "S35-E41").is_err());
        assert!(parse_legal_move(&pos, "C0-C5").is_err());
    }

    #[test]
    fn four_player_records_write_four_player_names() {
        use rand::SeedableRng;
        use rand::seq::IndexedRandom;
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(3);
        let rules = crate::Rules::four_player(crate::Mode::Dark);
        let layouts = std::array::from_fn(|_| crate::Layout::random(&rules, &mut rng));
        let mut game = Game::new_four(rules, layouts, Side::South).unwrap();
        for _ in 0..200 {
            if game.result().is_some() {
                break;
            }
            let m = *game.position().legal_moves().choose(&mut rng).unwrap();
            game.apply(game.turn(), Action::Move(m)).unwrap();
        }
        let text = record_movetext(game.record()).unwrap();
        assert_eq!(text.split_whitespace().count(), game.record().actions.len());
        // Every move token names points of the four-player board.
        let board = Board::four_player();
        for token in text.split_whitespace().filter(|t| !t.contains(':')) {
            let w = parse_written_on(board, token, Side::South).unwrap();
            assert!(matches!(w.action, Action::Move(_)), "{token}");
        }
        assert!(text.contains('E') || text.contains('W') || text.contains('C'));
    }

    #[test]
    fn bare_moves_parse() {
        let b = Board::classic();
        let p = |s| b.parse_point(s).unwrap();
        assert_eq!(
            parse_move("S53-S43"),
            Ok(Move::Step {
                from: p("S53"),
                to: p("S43")
            })
        );
        assert_eq!(parse_move("fN62"), Ok(Move::Flip { at: p("N62") }));
        assert!(parse_move("S13xN13>").is_err());
        assert!(parse_move("timeout").is_err());
    }
}
