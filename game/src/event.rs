//! What the referee announces: [`Event`]s to both players, the
//! four-player table's [`TableEvent`]s, and [`public_events`], which turns
//! a move's effect into what a player of the mode may learn.

use crate::board::{Board, Point, PointKind};
use crate::effect::Effect;
use crate::game_result::{GameResult, WinReason};
use crate::layout::Layout;
use crate::piece::{PieceId, Rank, Side};
use crate::position::Position;
use crate::rules::{Announcement, Mode};
use serde::{Deserialize, Serialize};

/// What the referee announces to both players. Holds nothing a player of a
/// dark game may not know, so a remote peer can keep a view from these alone.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// Open games: a side's whole layout is shown (after both have set up).
    Revealed {
        /// Whose.
        side: Side,
        /// The layout.
        layout: Layout,
    },
    /// A move to an empty point.
    Moved {
        /// Who moved.
        side: Side,
        /// From.
        from: Point,
        /// To.
        to: Point,
    },
    /// An attack and its announced result.
    Battle {
        /// The attacker's side.
        side: Side,
        /// From.
        from: Point,
        /// To.
        to: Point,
        /// The referee's announcement.
        announcement: Announcement,
        /// The attacker's rank where everyone sees it (open and flip games).
        attacker_rank: Option<Rank>,
        /// The defender's rank where everyone sees it (open and flip games, scouting).
        defender_rank: Option<Rank>,
        /// Flip games: the defender's identity when it was face down until this attack.
        defender_id: Option<PieceId>,
    },
    /// Flip games: a piece was turned over by a flip move.
    Flipped {
        /// Who turned it.
        side: Side,
        /// Where.
        at: Point,
        /// Whose colour it is.
        owner: Side,
        /// Its rank.
        rank: Rank,
        /// Its identity in the shuffle.
        id: PieceId,
    },
    /// Flip games: an attack on a face-down piece of the attacker's own colour
    /// (or on a flag still guarded by mines) turned it over and ended the turn.
    VoidAttack {
        /// The attacker's side.
        side: Side,
        /// From.
        from: Point,
        /// To.
        to: Point,
        /// Whose colour the turned piece is.
        owner: Side,
        /// Its rank.
        rank: Rank,
        /// Its identity in the shuffle.
        id: PieceId,
    },
    /// A commander died: its side's flag is shown where it stands.
    FlagRevealed {
        /// Whose flag.
        side: Side,
        /// Where.
        at: Point,
    },
    /// The side to move ran out of time; the turn passes.
    TimedOut {
        /// Who.
        side: Side,
        /// Its timeouts so far.
        count: u8,
    },
    /// A draw offer.
    DrawOffered {
        /// Who offers.
        side: Side,
    },
    /// A draw offer was declined (or lapsed by a move).
    DrawDeclined {
        /// Who declined.
        side: Side,
    },
    /// The game ended.
    GameOver {
        /// How.
        result: GameResult,
    },
}

/// Everything announced at a table: the two-player [`Event`]s and what only
/// a four-player game has (a player going out, a draw accepted by one of
/// several players). A four-player view is kept from these.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TableEvent {
    /// An event of the two-player vocabulary.
    Event(Event),
    /// A player is out (出局) and all their pieces are gone from the board.
    PlayerOut {
        /// Who.
        side: Side,
        /// Why: the reason they lost.
        reason: WinReason,
    },
    /// One of the players still in accepted the standing draw offer; the
    /// game is drawn once all of them have.
    DrawAccepted {
        /// Who accepted.
        side: Side,
    },
}

/// The referee's public announcements for `effect`, a move by `side` that
/// led to `after`. Holds exactly what a player of the mode may learn.
pub fn public_events(after: &Position, side: Side, effect: Effect) -> Vec<Event> {
    let rules = after.rules();
    let public_ranks = rules.mode != Mode::Dark;
    let mut out = Vec::with_capacity(2);
    match effect {
        Effect::Moved { from, to } => out.push(Event::Moved { side, from, to }),
        Effect::Flipped { at, piece } => out.push(Event::Flipped {
            side,
            at,
            owner: piece.side,
            rank: piece.rank,
            id: piece.id,
        }),
        Effect::VoidAttack { from, to, revealed } => out.push(Event::VoidAttack {
            side,
            from,
            to,
            owner: revealed.side,
            rank: revealed.rank,
            id: revealed.id,
        }),
        Effect::Battle {
            from,
            to,
            attacker,
            defender,
            defender_was_face_down,
            ..
        } => {
            let announcement = rules.announce(attacker.rank, defender.rank);
            out.push(Event::Battle {
                side,
                from,
                to,
                announcement,
                attacker_rank: public_ranks.then_some(attacker.rank),
                defender_rank: (public_ranks || announcement.defender_revealed)
                    .then_some(defender.rank),
                defender_id: defender_was_face_down.then_some(defender.id),
            });
            // Flip games show no flag: nobody knows where a face-down flag lies.
            if rules.mode == Mode::Dark {
                for (died, owner) in [
                    (announcement.attacker_commander_died, attacker.side),
                    (announcement.defender_commander_died, defender.side),
                ] {
                    if died && let Some(at) = flag_point(after, owner) {
                        out.push(Event::FlagRevealed { side: owner, at });
                    }
                }
            }
        }
    }
    out
}

/// Where `side`'s flag stands, if it is on the board.
fn flag_point(pos: &Position, side: Side) -> Option<Point> {
    let board: &Board = pos.board();
    pos.pieces().find_map(|(p, pc)| {
        (pc.side == side && pc.rank == Rank::Flag && board.kind(p) == PointKind::Headquarters)
            .then_some(p)
    })
}
