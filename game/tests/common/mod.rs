//! Helpers shared by the engine's AI tests: random games, and the same game with two hidden
//! enemy pieces swapped as the view allows (the honesty tests).

use junqi_game::ai::{Player, RandomPlayer};
use junqi_game::*;
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_pcg::Pcg64Mcg;

/// Plays `plies` plies with random movers under `rules` and returns the game.
pub fn random_game(rules: Rules, seed: u64, plies: usize) -> Game {
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
pub fn permuted(game: &Game, rng: &mut Pcg64Mcg) -> Option<Game> {
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
        if rank_i != rank_j && ki.possible & rank_j.bit() != 0 && kj.possible & rank_i.bit() != 0 {
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
