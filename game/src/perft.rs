//! Perft: the number of leaf positions of the legal-move tree to a fixed
//! depth, the standard cross-check of a move generator (as in shakmaty).
//!
//! A position whose game is over has no children: the flag was taken, the
//! side to move has no legal move, the quiet-move draw is reached, or (flip
//! games, colours decided) a side has no movable piece left. In four-player
//! games a move may put players out (their pieces leave the board, the turn
//! skips them) without ending the game; it ends when a team is out. Time-outs,
//! resigning and draw offers are not moves and are not counted.

use crate::piece::Side;
use crate::position::{Move, Position};
use crate::rules::Mode;

/// Counts the leaf nodes of the legal-move tree of `pos` at `depth` plies.
/// `perft(pos, 0)` is 1.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if is_over(pos) {
        return 0;
    }
    if depth == 1 {
        return pos.legal_move_count() as u64;
    }
    let moves = pos.legal_moves();
    let mut total = 0;
    for &m in &moves {
        let mut child = pos.clone();
        child.play_unchecked(m);
        total += perft(&child, depth - 1);
    }
    total
}

/// Perft split by first move ("divide"): each legal move with the leaf count below it.
pub fn perft_divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 || is_over(pos) {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            (m, perft(&child, depth - 1))
        })
        .collect()
}

/// Whether the game is over by the board alone, apart from "no legal move"
/// (which perft sees as an empty move list anyway).
fn is_over(pos: &Position) -> bool {
    if pos.is_team_game() {
        // Players out, a team gone, nothing movable, 70 quiet plies.
        return pos.result().is_some();
    }
    if pos.flag_captured().is_some() || pos.rules().is_quiet_draw(pos.quiet_plies()) {
        return true;
    }
    pos.rules().mode == Mode::Flip
        && pos.colours_fixed()
        && !(pos.has_movable_piece(Side::South) && pos.has_movable_piece(Side::North))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Layout, Rules};
    use rand::SeedableRng;

    #[test]
    fn depth_zero_is_one_and_depth_one_is_the_move_count() {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(1);
        let rules = Rules::default();
        let a = Layout::random(&rules, &mut rng).validate(&rules).unwrap();
        let b = Layout::random(&rules, &mut rng).validate(&rules).unwrap();
        let pos = Position::new(rules, &a, &b, Side::South);
        assert_eq!(perft(&pos, 0), 1);
        assert_eq!(perft(&pos, 1), pos.legal_moves().len() as u64);
        let divide = perft_divide(&pos, 2);
        assert_eq!(divide.iter().map(|d| d.1).sum::<u64>(), perft(&pos, 2));
    }
}
