//! The means to win: whether a side can still end the game in its favour
//! against a defender that never blunders. A material lead without them is
//! a draw (the quiet-move rule ends it), so the evaluation lets such a lead
//! fade to the draw's value (`Weights::means`), and the side ahead keeps
//! what it needs instead of spending it: its engineers and bombs (the keys
//! to a flag its landmines shut in) and two hunters for the defender's
//! last movable pieces (one piece alone never corners a runner on the
//! railways).

use crate::board::Point;
use crate::piece::{Rank, Side};
use crate::position::Position;
use crate::rules::{Mode, Outcome};

/// Hunters (movable pieces other than bombs, free to move, that no movable
/// enemy piece beats) that the defender's last runners need: one alone
/// never corners a runner.
pub(crate) const HUNTERS: u8 = 2;

/// Whether `side` can still win in `pos`: the enemy flag has a way in
/// (`shut` says a flag's landmines box it in), or `side` has a key to it
/// (an engineer or a bomb), or it has [`HUNTERS`] to take the enemy's
/// movable pieces (a piece that one of them beats chases nothing: a
/// company does not corner a regiment); in flip games also while pieces
/// lie face down (turning them over changes the armies).
pub(crate) fn can_win(pos: &Position, side: Side, shut: impl Fn(Point) -> bool) -> bool {
    let lock = !pos.rules().may_leave_headquarters();
    let board = pos.board();
    let rules = pos.rules();
    let mut keys = 0u8;
    let mut enemy_flag = None;
    let mut runners: arrayvec::ArrayVec<Rank, 25> = arrayvec::ArrayVec::new();
    for (p, pc) in pos.pieces() {
        if !pc.face_up && rules.mode == Mode::Flip {
            return true;
        }
        let locked = lock && board.is_headquarters(p);
        if pc.side == side {
            if matches!(pc.rank, Rank::Engineer | Rank::Bomb) {
                keys += 1;
            }
        } else if pc.rank == Rank::Flag {
            enemy_flag = Some(p);
        } else if pc.rank.is_movable() && !locked && !runners.is_full() {
            runners.push(pc.rank);
        }
    }
    let Some(flag) = enemy_flag else {
        return true;
    };
    if keys > 0 || !shut(flag) || runners.is_empty() {
        return true;
    }
    let hunters = pos
        .pieces()
        .filter(|&(p, pc)| {
            pc.side == side
                && pc.rank.is_movable()
                && pc.rank != Rank::Bomb
                && !(lock && board.is_headquarters(p))
                && runners
                    .iter()
                    .all(|&r| rules.clash(pc.rank, r).outcome != Outcome::DefenderWins)
        })
        .count();
    hunters >= usize::from(HUNTERS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::piece::{Piece, PieceId};
    use crate::rules::Rules;

    /// An open position, South to move, pieces by point name.
    fn open(pieces: &[(&str, Side, Rank)]) -> Position {
        let board = Board::classic();
        let mut pos = Position::empty(board, Rules::for_mode(Mode::Open), Side::South);
        for (i, &(name, side, rank)) in pieces.iter().enumerate() {
            pos.set(
                board.parse_point(name).expect("point"),
                Some(Piece {
                    side,
                    rank,
                    face_up: true,
                    id: PieceId(i as u8 + if side == Side::North { 25 } else { 0 }),
                }),
            );
        }
        pos
    }

    /// North's flag boxed in by three landmines, a runner, and `south`.
    fn against_a_box(south: &[(&'static str, Rank)]) -> Position {
        let mut v = vec![
            ("N62", Side::North, Rank::Flag),
            ("N61", Side::North, Rank::Landmine),
            ("N63", Side::North, Rank::Landmine),
            ("N52", Side::North, Rank::Landmine),
            ("N33", Side::North, Rank::Engineer),
            ("S62", Side::South, Rank::Flag),
        ];
        v.extend(south.iter().map(|&(p, r)| (p, Side::South, r)));
        open(&v)
    }

    /// Whether North's flag on `f` is shut: a North landmine on every
    /// point beside it.
    fn south_can_win(pos: &Position) -> bool {
        let shut = |f: Point| {
            pos.board().road_neighbours(f).iter().all(|&q| {
                pos.at(q)
                    .is_some_and(|pc| pc.side == Side::North && pc.rank == Rank::Landmine)
            })
        };
        can_win(pos, Side::South, shut)
    }

    #[test]
    fn one_hunter_without_a_key_cannot_win_against_a_boxed_flag() {
        use Rank::*;
        assert!(!south_can_win(&against_a_box(&[("S35", Commander)])));
        // A piece locked on a headquarters hunts nothing.
        assert!(!south_can_win(&against_a_box(&[
            ("S35", Commander),
            ("S64", Corps)
        ])));
        // A hunter that the runner beats hunts nothing (a platoon
        // against an engineer does, a company against a regiment not).
        let mut regiment = against_a_box(&[("S35", Commander), ("S31", Company)]);
        regiment.set(
            Board::classic().parse_point("N33").expect("point"),
            Some(Piece {
                side: Side::North,
                rank: Regiment,
                face_up: true,
                id: PieceId(40),
            }),
        );
        assert!(!south_can_win(&regiment));
        // Two hunters corner the runner; a key opens the box.
        assert!(south_can_win(&against_a_box(&[
            ("S35", Commander),
            ("S31", Platoon)
        ])));
        assert!(south_can_win(&against_a_box(&[
            ("S35", Commander),
            ("S64", Bomb)
        ])));
        assert!(south_can_win(&against_a_box(&[
            ("S35", Commander),
            ("S64", Engineer)
        ])));
        // A box with a dug mine has a way in.
        let mut dug = against_a_box(&[("S35", Commander)]);
        dug.set(Board::classic().parse_point("N52").expect("point"), None);
        assert!(south_can_win(&dug));
    }
}
