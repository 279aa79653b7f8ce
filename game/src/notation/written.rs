//! A written token ([`Written`]: an action with what was announced, the
//! [`Note`]) and its text: moves, tokens and movetexts as records show them.

use crate::board::{Board, Point};
use crate::event::Event;
use crate::game::Action;
use crate::piece::{Rank, Side};
use crate::position::{Move, Position};
use crate::rules::{Announcement, Outcome};
use std::fmt;

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

pub(super) fn err(text: &str, message: impl Into<String>) -> NotationError {
    NotationError {
        token: 0,
        text: text.to_string(),
        message: message.into(),
    }
}

/// A point's name on `board` (`S53`, `E31`, `C5`).
pub(super) fn name(board: &Board, p: Point) -> String {
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
