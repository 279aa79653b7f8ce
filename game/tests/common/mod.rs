//! Helpers shared by the engine's AI tests: random games, the same game with two hidden
//! enemy pieces swapped as the view allows (the honesty tests), and open-game positions set
//! up by point name (the endgame and draw tests).

// Each test crate that includes this module uses only some of its helpers.
#![allow(dead_code)]

use junqi_game::ai::{Player, RandomPlayer};
use junqi_game::*;
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_pcg::Pcg64Mcg;

/// Plays `plies` plies with random movers under `rules` and returns the game.
pub(crate) fn random_game(rules: Rules, seed: u64, plies: usize) -> Game {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let a = classic_layouts().choose(&mut rng).unwrap().layout;
    let b = Layout::random(&rules, &mut rng);
    let mut game = Game::new(rules, a, b, Side::South).unwrap();
    let mut players = [RandomPlayer::new(seed), RandomPlayer::new(seed + 1)];
    for _ in 0..plies {
        if game.result().is_some() {
            break;
        }
        let side = game.turn();
        let view = game.view(side);
        let action = players[side.index()].act(&view, &|| false);
        game.apply(side, action).unwrap();
    }
    game
}

/// Swaps the ranks of two North pieces in North's layout, when the South
/// view allows each to be the other, and replays the same actions.
pub(crate) fn permuted(game: &Game, rng: &mut Pcg64Mcg) -> Option<Game> {
    let board = game.position().board();
    let view = game.view(Side::South);
    let Setup::Layouts { south, north } = game.record().setup.clone() else {
        return None;
    };
    let truth = |id: PieceId| {
        let p = board.setup_points(Side::North)[id.0 as usize % 25];
        let i = board.info(p);
        (i.row, i.col, north.get(i.row, i.col).unwrap())
    };
    let hidden: Vec<PieceId> = view
        .pieces()
        .filter(|k| k.side == Side::North && k.known().is_none())
        .map(|k| k.id)
        .collect();
    for _ in 0..200 {
        let (&i, &j) = (hidden.choose(rng)?, hidden.choose(rng)?);
        let (ri, ci, rank_i) = truth(i);
        let (rj, cj, rank_j) = truth(j);
        let (ki, kj) = (view.piece(i).unwrap(), view.piece(j).unwrap());
        if rank_i != rank_j && ki.possible.contains(rank_j) && kj.possible.contains(rank_i) {
            let mut record = game.record().clone();
            record.setup = Setup::Layouts {
                south,
                north: north.swapped((ri, ci), (rj, cj)),
            };
            return Some(Game::replay(&record, None).expect("the view allows the swap"));
        }
    }
    None
}

/// An open-game position on the classic board with South to move: `pieces` by point name,
/// ids in order per side (South from 0, North from 25), counters at `ply` and `quiet`.
pub(crate) fn open_position(pieces: &[(&str, Side, Rank)], ply: u16, quiet: u16) -> Position {
    position(Mode::Open, pieces, ply, quiet)
}

/// [`open_position`] in a game of `mode`.
pub(crate) fn position(
    mode: Mode,
    pieces: &[(&str, Side, Rank)],
    ply: u16,
    quiet: u16,
) -> Position {
    let board = Board::classic();
    let mut pos = Position::empty(board, Rules::for_mode(mode), Side::South);
    let mut next = [0u8, 25];
    for &(name, side, rank) in pieces {
        let id = &mut next[side.index()];
        pos.set(
            board.parse_point(name).expect("point name"),
            Some(Piece {
                side,
                rank,
                face_up: true,
                id: PieceId(*id),
            }),
        );
        *id += 1;
    }
    pos.set_counters(ply, quiet);
    pos
}
