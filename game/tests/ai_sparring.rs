//! The arena's sparring partners of other kinds (`ai::sparring`): they
//! cannot peek (permuting hidden pieces as their view allows changes
//! nothing), they play legal moves in every mode, the defender trades only
//! when it must, and they do not play Master's or Expert's moves.

mod common;

use junqi_game::ai::sparring::{AbParams, AlphaBetaPlayer, GuardPlayer, alphabeta, guard};
use junqi_game::ai::{Ai, Level, Player};
use junqi_game::*;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::time::{Duration, Instant};

/// A budget a debug build plays quickly; the arena's is larger.
fn small() -> AbParams {
    AbParams {
        max_depth: 3,
        qdepth: 2,
        nodes: 15_000,
    }
}

fn ab_move(view: &PlayerView) -> Option<Move> {
    alphabeta::choose(view, &small(), &|| false).mv
}

fn guard_move(view: &PlayerView, seed: u64) -> Option<Move> {
    match GuardPlayer::new(seed).act(view, &|| false) {
        Action::Move(m) => Some(m),
        _ => None,
    }
}

#[test]
fn sparring_partners_cannot_peek_in_dark_games() {
    let mut rng = Pcg64Mcg::seed_from_u64(41);
    let mut checked = 0;
    for seed in 0..24u64 {
        let plies = 2 * rng.random_range(5..40);
        let game = common::random_game(Rules::default(), seed, plies);
        if game.result().is_some() || game.turn() != Side::South {
            continue;
        }
        let Some(other) = common::permuted(&game, &mut rng) else {
            continue;
        };
        if game.position() == other.position() {
            // Both swapped pieces are gone: no different truth to test.
            continue;
        }
        let (v1, v2) = (game.view(Side::South), other.view(Side::South));
        assert_eq!(v1.events(), v2.events());
        let (a1, a2) = (ab_move(&v1), ab_move(&v2));
        assert_eq!(a1, a2, "alphabeta answered differently: it peeked");
        assert!(game.position().is_legal(a1.expect("a move")));
        let (g1, g2) = (guard_move(&v1, seed), guard_move(&v2, seed));
        assert_eq!(g1, g2, "guard answered differently: it peeked");
        assert!(game.position().is_legal(g1.expect("a move")));
        checked += 1;
    }
    assert!(checked >= 5, "too few permutable positions ({checked})");
}

/// A flip game played by random movers, and the same game with two pieces
/// that stayed face down all along swapped in the shuffle.
fn flip_pair(seed: u64, plies: usize) -> Option<(Game, Game)> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let rules = Rules::for_mode(Mode::Flip);
    let mut game = Game::new_flip_shuffled(rules, Side::South, &mut rng);
    let mut players = [ai::RandomPlayer::new(seed), ai::RandomPlayer::new(seed + 1)];
    for _ in 0..plies {
        if game.result().is_some() {
            break;
        }
        let side = game.turn();
        let action = players[side.index()].act(&game.view(side), &|| false);
        game.apply(side, action).ok()?;
    }
    let Setup::Flip { arrangement } = game.record().setup.clone() else {
        return None;
    };
    for _ in 0..200 {
        let (i, j) = (rng.random_range(0..50), rng.random_range(0..50));
        let mut swapped = arrangement.clone();
        swapped.swap(i, j);
        let mut record = game.record().clone();
        record.setup = Setup::Flip {
            arrangement: swapped,
        };
        let Ok(other) = Game::replay(&record, None) else {
            continue;
        };
        let (a, b) = (game.position(), other.position());
        let differ = Side::TWO.iter().any(|&s| {
            a.pieces()
                .filter(|(_, p)| p.side == s)
                .map(|(_, p)| p.rank)
                .collect::<Vec<_>>()
                != b.pieces()
                    .filter(|(_, p)| p.side == s)
                    .map(|(_, p)| p.rank)
                    .collect::<Vec<_>>()
        });
        if differ && game.view(game.turn()).events() == other.view(game.turn()).events() {
            return Some((game, other));
        }
    }
    None
}

#[test]
fn sparring_partners_cannot_peek_in_flip_games() {
    let mut checked = 0;
    for seed in 0..16u64 {
        let Some((game, other)) = flip_pair(seed, 20 + 4 * seed as usize) else {
            continue;
        };
        if game.result().is_some() {
            continue;
        }
        let me = game.turn();
        let (v1, v2) = (game.view(me), other.view(me));
        let (a1, a2) = (ab_move(&v1), ab_move(&v2));
        assert_eq!(a1, a2, "alphabeta answered differently: it peeked");
        assert!(game.position().is_legal(a1.expect("a move")));
        let (g1, g2) = (guard_move(&v1, seed), guard_move(&v2, seed));
        assert_eq!(g1, g2, "guard answered differently: it peeked");
        checked += 1;
    }
    assert!(checked >= 5, "too few swappable flip games ({checked})");
}

#[test]
fn sparring_partners_play_legal_moves_in_every_mode() {
    for mode in [Mode::Dark, Mode::Open, Mode::Flip] {
        let rules = Rules::for_mode(mode);
        let mut rng = Pcg64Mcg::seed_from_u64(8);
        let mut ab = AlphaBetaPlayer::with_params(small(), 1);
        let mut guard = GuardPlayer::new(2);
        let mut game = if mode == Mode::Flip {
            Game::new_flip_shuffled(rules, Side::South, &mut rng)
        } else {
            let a = ab.layout(&rules);
            let b = guard.layout(&rules);
            Game::new(rules, a, b, Side::South).unwrap()
        };
        for _ in 0..30 {
            if game.result().is_some() {
                break;
            }
            let side = game.turn();
            let view = game.view(side);
            let player: &mut dyn Player = if side == Side::South {
                &mut ab
            } else {
                &mut guard
            };
            let action = player.act(&view, &|| false);
            game.apply(side, action).expect("a legal move");
        }
    }
}

#[test]
fn the_guard_boxes_its_flag_in() {
    let rules = Rules::default();
    let mut guard = GuardPlayer::new(3);
    for _ in 0..20 {
        let l = guard.layout(&rules);
        l.validate(&rules).unwrap();
        assert!(ai::setup::flag_boxed(&l), "flag not boxed in:\n{l}");
    }
}

#[test]
fn the_guard_trades_only_when_it_must() {
    // Open game: South's brigade faces North's brigade far from South's
    // flag; a trade is on offer and a quiet move is safe.
    let far = common::open_position(
        &[
            ("S62", Side::South, Rank::Flag),
            ("S52", Side::South, Rank::Landmine),
            ("S31", Side::South, Rank::Company),
            ("N11", Side::South, Rank::Brigade),
            ("N21", Side::North, Rank::Brigade),
            ("N62", Side::North, Rank::Flag),
            ("N55", Side::North, Rank::Platoon),
        ],
        30,
        0,
    );
    let view = PlayerView::of_open_position(&far, Side::South).unwrap();
    let brd = far.board();
    let trade = Move::Step {
        from: brd.parse_point("N11").unwrap(),
        to: brd.parse_point("N21").unwrap(),
    };
    let scores = guard::scored(&view);
    let best = scores.iter().map(|x| x.1).fold(f32::MIN, f32::max);
    let of_trade = scores
        .iter()
        .find(|x| x.0 == trade)
        .expect("the trade is legal")
        .1;
    assert!(of_trade < best, "the guard would trade far from its flag");
    // An enemy brigade beside South's flag: now the trade is the move.
    let near = common::open_position(
        &[
            ("S62", Side::South, Rank::Flag),
            ("S51", Side::South, Rank::Brigade),
            ("S52", Side::North, Rank::Brigade),
            ("S31", Side::South, Rank::Company),
            ("N62", Side::North, Rank::Flag),
            ("N55", Side::North, Rank::Platoon),
        ],
        30,
        0,
    );
    let view = PlayerView::of_open_position(&near, Side::South).unwrap();
    let fight = Move::Step {
        from: brd.parse_point("S51").unwrap(),
        to: brd.parse_point("S52").unwrap(),
    };
    for seed in 0..3 {
        assert_eq!(guard_move(&view, seed), Some(fight), "the guard let it by");
    }
}

#[test]
fn sparring_partners_differ_from_master_and_expert() {
    let mut positions = Vec::new();
    for seed in 100..140u64 {
        let game = common::random_game(Rules::default(), seed, 2 * (8 + seed as usize % 20));
        if game.result().is_none() && game.position().legal_moves().len() >= 8 {
            positions.push(game.view(game.turn()));
        }
        if positions.len() == 10 {
            break;
        }
    }
    assert_eq!(positions.len(), 10);
    let capped = |level: Level, view: &PlayerView| {
        let deadline = Instant::now() + Duration::from_millis(1500);
        Ai::new(level, 7).choose_move(view, &|| Instant::now() >= deadline)
    };
    let mut differ = [[0; 2]; 2];
    for (i, view) in positions.iter().enumerate() {
        let master = capped(Level::Master, view);
        let expert = capped(Level::Expert, view);
        let ours = [ab_move(view), guard_move(view, i as u64)];
        for (k, m) in ours.iter().enumerate() {
            differ[k][0] += usize::from(*m != master);
            differ[k][1] += usize::from(*m != expert);
        }
    }
    eprintln!("moves differing from Master's and Expert's, of 10: {differ:?}");
    for (k, name) in ["alphabeta", "guard"].iter().enumerate() {
        assert!(
            differ[k][0] >= 4 && differ[k][1] >= 4,
            "{name} plays like Master or Expert: differs on {:?} of 10",
            differ[k]
        );
    }
}
