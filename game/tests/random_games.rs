//! Random games through the referee: views stay consistent with the truth.

use junqi_game::*;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

fn new_game(mode: Mode, rng: &mut Pcg64Mcg) -> Game {
    let rules = Rules::for_mode(mode);
    if mode == Mode::Flip {
        Game::new_flip_shuffled(rules, Side::South, rng)
    } else {
        let a = Layout::random(&rules, rng);
        let b = Layout::random(&rules, rng);
        Game::new(rules, a, b, Side::South).unwrap()
    }
}

fn check_views(game: &Game, views: &[PlayerView; 2]) {
    let pos = game.position();
    assert!(pos.is_consistent());
    for view in views {
        // The view's moves are exactly the referee's for the side to move.
        if view.turn() == view.me() && game.result().is_none() {
            let mut a: Vec<Move> = view.legal_moves().to_vec();
            let mut b: Vec<Move> = pos.legal_moves().to_vec();
            a.sort_by_key(|m| format!("{m:?}"));
            b.sort_by_key(|m| format!("{m:?}"));
            assert_eq!(a, b, "view moves differ from the referee's");
        }
        // The truth is always possible under the view.
        for (p, pc) in pos.pieces() {
            match view.at(p) {
                Some(Seen::FaceDown) => assert!(!pc.face_up),
                Some(Seen::Piece { side, id, rank }) => {
                    assert_eq!(side, pc.side);
                    assert_eq!(id, pc.id);
                    if let Some(r) = rank {
                        assert_eq!(r, pc.rank);
                    }
                    if let Some(k) = view.piece(id) {
                        assert!(
                            k.possible.contains(pc.rank),
                            "truth excluded: {:?} {:?}",
                            pc,
                            k
                        );
                        assert_eq!(k.at, Some(p));
                    }
                }
                None => panic!("view misses a piece"),
            }
        }
        assert_eq!(view.ply(), pos.ply());
        assert_eq!(view.quiet_plies(), pos.quiet_plies());
    }
}

fn play_random(mode: Mode, seed: u64) -> Game {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut game = new_game(mode, &mut rng);
    let mut views = [game.view(Side::South), game.view(Side::North)];
    while game.result().is_none() {
        let side = game.turn();
        let moves = game.position().legal_moves();
        let action = if rng.random_bool(0.01) {
            Action::Timeout
        } else {
            Action::Move(
                *moves
                    .choose(&mut rng)
                    .expect("a game in progress has moves"),
            )
        };
        let events = game.apply(side, action).unwrap();
        for v in views.iter_mut() {
            for e in &events {
                v.apply(e).unwrap();
            }
        }
        check_views(&game, &views);
    }
    // Replaying the record reproduces the final state exactly.
    let replayed = Game::replay(game.record(), None).unwrap();
    assert_eq!(replayed.position(), game.position());
    assert_eq!(replayed.events(), game.events());
    game
}

#[test]
fn dark_games_keep_views_consistent() {
    for seed in 0..40 {
        play_random(Mode::Dark, seed);
    }
}

#[test]
fn open_games_show_everything() {
    for seed in 0..10 {
        let g = play_random(Mode::Open, seed);
        let v = g.view(Side::South);
        for (p, pc) in g.position().pieces() {
            assert_eq!(
                v.at(p),
                Some(Seen::Piece {
                    side: pc.side,
                    id: pc.id,
                    rank: Some(pc.rank)
                })
            );
        }
    }
}

#[test]
fn flip_games_keep_views_consistent() {
    for seed in 0..40 {
        play_random(Mode::Flip, seed);
    }
}
