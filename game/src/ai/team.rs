//! The static evaluation of a four-player team game (RULES.md §9) for the
//! team of the side to move, with the team play of seed 004: both flags of
//! the team guarded, pressure from both partners on one enemy (夹击) worth
//! more than the sum of its parts, the partner's railway left free, and a
//! threat on a flag weighed by how many moves the threatened team gets
//! before the striker moves (the next enemy's threat is the urgent one).

use super::eval::{
    DEFEND_FLAG, Guard, HUNT, Knowledge, NEAR_FLAG, SEAT_OUT, WIN, tables, value, worth,
};
use super::weights::{Weights, scaled};
use crate::board::{Point, PointKind};
use crate::piece::{Rank, Side};
use crate::position::Position;
use crate::rules::Outcome;
use arrayvec::ArrayVec;

/// Worth of each seat still in (so a seat going out costs [`SEAT_OUT`] in all
/// with its flag, half of it for the flag alone in the striker terms).
const SEAT: i32 = SEAT_OUT;

/// Penalty for a piece standing on a railway point of the partner's half
/// (it blocks the partner's own lines, seed 004's 不挡对家的路).
const BLOCKS_PARTNER: i32 = 8;

/// Whether pieces of `a` and `b` are on one side: the same player, or
/// partners in a team game.
#[inline]
pub fn friends(pos: &Position, a: Side, b: Side) -> bool {
    a == b || (pos.is_team_game() && a.partner() == b)
}

/// The seats still in that move after `from`, nearest first (without `from`).
pub fn order_after(pos: &Position, from: Side) -> ArrayVec<Side, 3> {
    let mut out = ArrayVec::new();
    let mut s = from;
    for _ in 0..3 {
        s = s.next(pos.rules().clockwise);
        if pos.is_in(s) {
            out.push(s);
        }
    }
    out
}

/// The share of a flag threat that counts, by the moves the threatened
/// team gets before the striker does (none, one, two).
const THREAT_SHARE: [(i32, i32); 3] = [(1, 2), (1, 4), (1, 8)];

/// The evaluation of a team position for the side to move's team
/// (positive is good for it); see [`super::eval::evaluate`] for
/// `knowledge`, `weights`, `guard` and `draw` (endgame technique is
/// two-player only: `Technique` reads as `Full` here, and its weights
/// count for nothing).
pub fn evaluate(
    pos: &Position,
    knowledge: Knowledge,
    weights: &Weights,
    guard: Option<&Guard>,
    draw: i32,
) -> i32 {
    let me = pos.turn();
    let board = pos.board();
    let t = tables(board);
    // 0 for the team to move, 1 for the other.
    let tix = |s: Side| usize::from(s.team() != me.team());
    let mut material = [0i32; 4];
    let mut flag_at: [Option<Point>; 4] = [None; 4];
    let mut flag_id = [0u8; 4];
    let mut count = 0usize;
    for (p, pc) in pos.pieces() {
        count += 1;
        material[pc.side.index()] += worth(pos, p, pc.rank);
        if pc.rank == Rank::Flag {
            flag_at[pc.side.index()] = Some(p);
            flag_id[pc.side.index()] = pc.id.0;
        }
    }
    let mut score = 0;
    for s in Side::FOUR {
        if pos.is_in(s) {
            let v = material[s.index()] + SEAT;
            score += if tix(s) == 0 { v } else { -v };
        }
    }
    // Pressure on each enemy flag by each seat, danger to each team's
    // flags, pieces able to take a flag next move, partners' rails blocked.
    let mut press = [[0i32; 4]; 4];
    let mut danger = [0i32; 2];
    let mut strikers = [[0u8; 4]; 4];
    let mut blocks = [0i32; 2];
    let lock = !pos.rules().may_leave_headquarters();
    for (p, pc) in pos.pieces() {
        if !pc.face_up || !pc.rank.is_movable() {
            continue;
        }
        if lock && board.kind(p) == PointKind::Headquarters {
            continue;
        }
        let s = pc.side;
        let info = board.info(p);
        if info.rail && info.half == Some(s.partner()) {
            blocks[tix(s)] += BLOCKS_PARTNER;
        }
        for e in Side::FOUR {
            if e.team() == s.team() {
                continue;
            }
            let Some(f) = flag_at[e.index()] else {
                continue;
            };
            let d = t.dist[p.index()][f.index()] as usize;
            if d < NEAR_FLAG.len() {
                press[s.index()][e.index()] += scaled(NEAR_FLAG[d], weights.near_flag);
                danger[tix(e)] += scaled(DEFEND_FLAG[d], weights.defend_flag);
            }
            if d == 1 || (info.rail && board.info(f).rail && d <= 12) {
                let reach = board.is_road_edge(p, f)
                    || board.straight_rail_path(p, f, |q| pos.at(q).is_none());
                if reach {
                    strikers[s.index()][e.index()] += 1;
                }
            }
        }
    }
    if knowledge == Knowledge::Basic {
        let mine: i32 =
            press[me.index()].iter().sum::<i32>() + press[me.partner().index()].iter().sum::<i32>();
        let theirs: i32 = Side::FOUR
            .iter()
            .filter(|s| tix(**s) == 1)
            .map(|s| press[s.index()].iter().sum::<i32>())
            .sum();
        return score + mine - theirs * 5 / 4;
    }
    for s in Side::FOUR {
        let sign = if tix(s) == 0 { 1 } else { -1 };
        score += sign * press[s.index()].iter().sum::<i32>();
    }
    // 夹击: both partners bearing on the same enemy.
    for [a, b] in [[Side::South, Side::North], [Side::East, Side::West]] {
        let sign = if tix(a) == 0 { 1 } else { -1 };
        for e in a.team().other().seats() {
            let both = press[a.index()][e.index()].min(press[b.index()][e.index()]);
            score += sign * both / 2;
        }
    }
    score -= danger[0];
    score += blocks[1] - blocks[0];
    if count <= 40 {
        score += scaled(hunt(pos, me, 0) - hunt(pos, me, 1), weights.hunt);
    }
    // Flag threats in turn order: the side to move strikes first; every
    // other striker only after the threatened team has had its moves.
    let mut order: ArrayVec<Side, 4> = ArrayVec::new();
    order.push(me);
    order.extend(order_after(pos, me));
    for (k, &s) in order.iter().enumerate() {
        for e in Side::FOUR {
            let n = strikers[s.index()][e.index()];
            if n == 0 {
                continue;
            }
            let defences = order[..k].iter().filter(|x| x.team() == e.team()).count();
            let (num, den) = THREAT_SHARE[defences.min(2)];
            let mut v = (SEAT_OUT + material[e.index()]) * num / den;
            if n > 1 {
                v = v * 3 / 2;
            }
            // A searcher that must not use what only the sample knows
            // counts a strike at a hidden flag by its chance.
            if let Some(g) = guard
                && tix(s) == 0
                && s.team() == g.root.team()
            {
                v = (v as f32 * g.flag_chance(flag_id[e.index()])) as i32;
            }
            score += if tix(s) == 0 { v } else { -v };
        }
    }
    // Without attacks the game drifts to a draw (as for two players).
    let limit = pos.rules().quiet_draw_plies.max(1) as i32;
    let quiet = pos.quiet_plies() as i32;
    let drift = (quiet - limit / 3).max(0);
    let score = score.clamp(-WIN / 2, WIN / 2);
    score - (score - draw) * drift / (limit * 3 / 2)
}

/// In thin positions: how close the pieces of team `which` (0 the side to
/// move's, 1 the other) are to enemy pieces they beat.
fn hunt(pos: &Position, me: Side, which: usize) -> i32 {
    let board = pos.board();
    let t = tables(board);
    let mut mine: ArrayVec<(Point, Rank), 50> = ArrayVec::new();
    let mut theirs: ArrayVec<(Point, Rank), 50> = ArrayVec::new();
    for (p, pc) in pos.pieces() {
        if !pc.face_up {
            continue;
        }
        let ours = usize::from(pc.side.team() != me.team()) == which;
        if ours {
            if pc.rank.is_movable() && pc.rank != Rank::Bomb && !mine.is_full() {
                mine.push((p, pc.rank));
            }
        } else if pc.rank != Rank::Flag && board.kind(p) != PointKind::Camp && !theirs.is_full() {
            theirs.push((p, pc.rank));
        }
    }
    let mut total = 0;
    for &(p, r) in &mine {
        let mut best = 0;
        for &(q, e) in &theirs {
            if pos.rules().clash(r, e).outcome != Outcome::AttackerWins {
                continue;
            }
            let d = t.dist[p.index()][q.index()] as usize;
            if d < HUNT.len() {
                best = best.max(HUNT[d] * value(e).min(400) / 100);
            }
        }
        total += best;
    }
    total
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::board::Board;
    use crate::piece::{Piece, PieceId};
    use crate::rules::{Mode, Rules};

    /// A four-player position, `turn` to move, from `(point name, side, rank)`.
    pub(crate) fn team_position(turn: Side, pieces: &[(&str, Side, Rank)]) -> Position {
        let board = Board::four_player();
        let mut pos = Position::empty(board, Rules::four_player(Mode::Dark), turn);
        let mut next = [0u8; 4];
        for &(name, side, rank) in pieces {
            let id = PieceId(side.index() as u8 * 25 + next[side.index()]);
            next[side.index()] += 1;
            let p = board.parse_point(name).expect("a point name");
            pos.set(
                p,
                Some(Piece {
                    side,
                    rank,
                    face_up: true,
                    id,
                }),
            );
        }
        pos
    }

    use Side::{East as E, North as N, South as S, West as W};

    fn flags() -> Vec<(&'static str, Side, Rank)> {
        vec![
            ("S:62", S, Rank::Flag),
            ("E:62", E, Rank::Flag),
            ("N:62", N, Rank::Flag),
            ("W:62", W, Rank::Flag),
        ]
    }

    #[test]
    fn the_next_enemy_threatening_the_partners_flag_is_the_urgent_threat() {
        // South to move; a regiment beside North's flag. East moves next,
        // West only after North has had a move of its own.
        let with = |side| {
            let mut v = flags();
            v.push(("N:52", side, Rank::Regiment));
            evaluate(
                &team_position(S, &v),
                Knowledge::Full,
                &Weights::HAND,
                None,
                0,
            )
        };
        let (east, west) = (with(E), with(W));
        assert!(east < west, "East's threat {east} against West's {west}");
        // Both are worse for South than no threat at all.
        let none = {
            let mut v = flags();
            v.push(("E:11", E, Rank::Regiment));
            evaluate(
                &team_position(S, &v),
                Knowledge::Full,
                &Weights::HAND,
                None,
                0,
            )
        };
        assert!(west < none, "{west} against no threat {none}");
    }

    #[test]
    fn partners_pressing_the_same_enemy_count_for_more() {
        // South and North two steps from East's flag (夹击), or North two
        // steps from West's flag instead: the same pressure, split.
        let with = |north_at| {
            let mut v = flags();
            v.push(("E:51", S, Rank::Division));
            v.push((north_at, N, Rank::Division));
            evaluate(
                &team_position(S, &v),
                Knowledge::Full,
                &Weights::HAND,
                None,
                0,
            )
        };
        let (together, split) = (with("E:53"), with("W:53"));
        assert!(together > split, "{together} against {split}");
    }

    #[test]
    fn standing_on_the_partners_railway_costs_a_little() {
        let with = |at| {
            let mut v = flags();
            v.push((at, S, Rank::Platoon));
            evaluate(
                &team_position(S, &v),
                Knowledge::Full,
                &Weights::HAND,
                None,
                0,
            )
        };
        // N:31 is on North's column-1 railway, N:32 beside it off the rails.
        assert!(with("N:31") < with("N:32"));
    }

    #[test]
    fn turn_order_skips_seats_that_are_out() {
        let mut pos = team_position(S, &flags());
        assert_eq!(order_after(&pos, S).as_slice(), &[E, N, W]);
        pos.set_out(E, crate::position::WinReason::FlagCaptured);
        assert_eq!(order_after(&pos, S).as_slice(), &[N, W]);
        assert_eq!(order_after(&pos, W).as_slice(), &[S, N]);
    }
}
