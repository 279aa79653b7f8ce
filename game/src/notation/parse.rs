//! Reading notation: a bare or legal move, one token, a movetext.

use super::written::{NotationError, Note, Written, err, name};
use crate::board::{Board, Point};
use crate::game::Action;
use crate::piece::{Rank, Side};
use crate::position::{Move, Position};
use crate::rules::{Announcement, Outcome};

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
