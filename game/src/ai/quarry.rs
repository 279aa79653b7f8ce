//! The enemy's last movable piece as a dark game's view knows it: the
//! quarry of the solved chase ([`super::pursuit`]). The view never says
//! which pieces are landmines or the flag, but the counts often do: once
//! every enemy piece but one is one that cannot move (a landmine or the
//! flag by the belief's hard facts and counts, or a piece the rules keep on
//! its headquarters), that one is the last runner, and its rank is one of
//! those still possible for it. Nothing here reads the hidden truth.

use super::belief::{Belief, Priors};
use crate::board::Point;
use crate::piece::Rank;
use crate::position::Position;
use crate::rank_set::RankSet;
use crate::view::{Hidden, PlayerView};

/// The last runner of a dark game and the position to chase it on.
pub(crate) struct Quarry {
    /// Where it stands.
    pub at: Point,
    /// The ranks it may have (all movable).
    pub ranks: RankSet,
    /// The view's position, each other hidden piece given a rank it may
    /// have (they stand still, so which one does not matter to the chase).
    pub pos: Position,
}

/// The last runner of the view's enemy in a two-player dark game, when
/// every other enemy piece on the board is known to stand still.
pub(crate) fn of(view: &PlayerView) -> Option<Quarry> {
    let enemy = view.me().opponent();
    let board = view.board();
    let locked = !view.rules().may_leave_headquarters();
    let free = |at: Point| !(locked && board.is_headquarters(at));
    // Most of a game two enemy pieces have moved (or fought as movers):
    // no quarry, and no need to weigh the counts for it.
    let surely_moving = view
        .pieces()
        .filter(|k| k.side == enemy && k.at.is_some_and(free))
        .filter(|k| !k.possible.is_empty() && (k.possible - RankSet::MOVABLE).is_empty())
        .count();
    if surely_moving > 1 {
        return None;
    }
    // Hard facts and counts only: a prior's soft weight never rules out a rank.
    let belief = Belief::new(view, Priors::None);
    let possible = |id| {
        belief.pieces().iter().find(|h| h.id == id).map_or_else(
            || view.piece(id).map_or(RankSet::EMPTY, |k| k.possible),
            |h| h.possible,
        )
    };
    let mut runner = None;
    for k in view.pieces().filter(|k| k.side == enemy) {
        let Some(at) = k.at else { continue };
        let moving = possible(k.id) & RankSet::MOVABLE;
        if moving.is_empty() || !free(at) {
            continue;
        }
        if runner.is_some() {
            return None;
        }
        runner = Some((at, k.id, moving));
    }
    let (at, id, ranks) = runner?;
    let pos = view.determinize(|hidden| {
        let rank = match hidden {
            Hidden::Enemy(other) => {
                let may_be = if other == id { ranks } else { possible(other) };
                may_be.iter().next().unwrap_or(Rank::Landmine)
            }
            // Dark games have no face-down pieces.
            Hidden::FaceDown(_) => Rank::Landmine,
        };
        (enemy, rank)
    });
    Some(Quarry { at, ranks, pos })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Board;
    use crate::piece::{Piece, PieceId, Side};
    use crate::rules::{Mode, Rules};
    use Rank::*;
    use Side::{North as N, South as S};

    /// A dark game's position, South to move, ids in list order per side.
    fn position(pieces: &[(&str, Side, Rank)]) -> Position {
        let board = Board::classic();
        let mut pos = Position::empty(board, Rules::for_mode(Mode::Dark), S);
        let mut next = [0u8, 25];
        for &(p, side, rank) in pieces {
            let id = &mut next[side.index()];
            let piece = Piece {
                side,
                rank,
                face_up: true,
                id: PieceId(*id),
            };
            pos.set(board.parse_point(p).unwrap(), Some(piece));
            *id += 1;
        }
        pos
    }

    const BOX: [(&str, Side, Rank); 4] = [
        ("N62", N, Flag),
        ("N61", N, Landmine),
        ("N63", N, Landmine),
        ("N52", N, Landmine),
    ];

    fn with(extra: &[(&'static str, Side, Rank)]) -> Position {
        let mut all = BOX.to_vec();
        all.extend_from_slice(&[("S62", S, Flag), ("S35", S, Corps)]);
        all.extend_from_slice(extra);
        position(&all)
    }

    /// South's view, knowing of a North piece that it is one of `stands`
    /// when it is a landmine or the flag, and anything movable otherwise.
    fn view(pos: &Position, stands: RankSet) -> PlayerView {
        PlayerView::of_dark_position(pos, S, |pc| match pc.rank {
            Flag | Landmine => stands,
            _ => RankSet::MOVABLE,
        })
        .unwrap()
    }

    #[test]
    fn the_one_piece_not_known_to_stand_still_is_the_quarry() {
        let pos = with(&[("N33", N, Regiment), ("N64", N, Platoon)]);
        let q = of(&view(&pos, Flag.bit() | Landmine.bit())).expect("a quarry");
        // The platoon on a headquarters never leaves it (dark rules).
        assert_eq!(Board::classic().name_of(q.at).to_string(), "N33");
        assert_eq!(q.ranks, RankSet::MOVABLE);
        // The chase's position keeps every point the view shows.
        let points = |p: &Position| p.pieces().map(|(at, pc)| (at, pc.side)).collect::<Vec<_>>();
        assert_eq!(points(&q.pos), points(&pos));
    }

    #[test]
    fn no_quarry_while_a_second_piece_may_move() {
        let pos = with(&[("N33", N, Regiment), ("N45", N, Platoon)]);
        assert!(of(&view(&pos, Flag.bit() | Landmine.bit())).is_none());
        // A box piece that may be a bomb may move as well.
        let pos = with(&[("N33", N, Regiment)]);
        assert!(of(&view(&pos, Flag.bit() | Landmine.bit() | Bomb.bit())).is_none());
        assert!(of(&view(&pos, Flag.bit() | Landmine.bit())).is_some());
    }
}
