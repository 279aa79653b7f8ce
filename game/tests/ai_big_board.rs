//! The AI with two players on the four-player board (QQ 两人 rooms): every
//! level plays legal moves to the end of dark, open and flip games, and its
//! choice does not change when hidden enemy pieces are permuted in a way
//! its view allows.

mod common;

use junqi_game::ai::{Ai, GreedyPlayer, Level, LevelParams, Player};
use junqi_game::*;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

fn rules(mode: Mode) -> Rules {
    Rules {
        four_player_board: true,
        ..Rules::for_mode(mode)
    }
}

/// A level with its node budget cut so the test runs quickly in the dev
/// profile (the algorithm, samples and depth are the level's).
fn quick(level: Level, nodes: u64, seed: u64) -> Ai {
    let mut p: LevelParams = level.params();
    p.search.nodes = p.search.nodes.min(nodes);
    Ai::with_params(level, p, seed)
}

/// Plays `a` (South) against `b` (North) to the end; returns the plies.
fn play_out(mode: Mode, a: &mut dyn Player, b: &mut dyn Player, seed: u64) -> u32 {
    let rules = rules(mode);
    let mut game = if mode == Mode::Flip {
        Game::new_flip_shuffled(rules, Side::South, &mut Pcg64Mcg::seed_from_u64(seed))
    } else {
        let (la, lb) = (a.layout(&rules), b.layout(&rules));
        Game::new(rules, la, lb, Side::South).unwrap()
    };
    assert!(std::ptr::eq(game.position().board(), Board::four_player()));
    let mut plies = 0;
    while game.result().is_none() {
        let side = game.turn();
        let view = game.view(side);
        let player: &mut dyn Player = if side == Side::South { a } else { b };
        let action = player.act(&view, &|| false);
        assert!(
            matches!(action, Action::Move(m) if game.position().is_legal(m)),
            "{mode:?} {side} ({}), ply {plies}: {action:?}",
            player.name()
        );
        game.apply(side, action).unwrap();
        plies += 1;
        assert!(plies < 2_000, "{mode:?}: the game does not end");
    }
    plies
}

#[test]
fn every_level_plays_legal_moves_to_the_end_on_the_four_player_board() {
    for (i, mode) in [Mode::Dark, Mode::Open, Mode::Flip].into_iter().enumerate() {
        let seed = 10 * i as u64;
        let mut novice = quick(Level::Novice, 1_000, seed + 1);
        let mut skilled = quick(Level::Skilled, 1_000, seed + 2);
        let mut expert = quick(Level::Expert, 1_000, seed + 3);
        let mut master = quick(Level::Master, 1_000, seed + 4);
        play_out(mode, &mut novice, &mut skilled, seed + 5);
        play_out(mode, &mut master, &mut expert, seed + 6);
        // The greedy baseline plays there too.
        play_out(mode, &mut GreedyPlayer::new(seed), &mut novice, seed + 7);
    }
}

#[test]
fn hints_work_on_the_four_player_board() {
    let rules = rules(Mode::Dark);
    let c = classic_layouts();
    let game = Game::new(rules, c[0].layout, c[1].layout, Side::South).unwrap();
    let hint = quick(Level::Skilled, 2_000, 3)
        .hint(&game.view(Side::South), &|| false)
        .expect("a hint");
    assert!(game.position().is_legal(hint.mv));
    let Move::Step { from, to } = hint.mv else {
        panic!("no flips in a dark game")
    };
    let b = game.position().board();
    assert_eq!(hint.reason.points(), (b.name_of(from), b.name_of(to)));
}

#[test]
fn permuting_hidden_enemy_pieces_on_the_four_player_board_changes_nothing() {
    let mut rng = Pcg64Mcg::seed_from_u64(77);
    let mut checked = 0;
    for seed in 0..16u64 {
        let plies = 2 * rng.random_range(5..40);
        let game = common::random_game(rules(Mode::Dark), seed, plies);
        if game.result().is_some() || game.turn() != Side::South {
            continue;
        }
        let Some(other) = common::permuted(&game, &mut rng) else {
            continue;
        };
        // Different truths…
        assert_ne!(game.position(), other.position());
        // …the same view…
        let (v1, v2) = (game.view(Side::South), other.view(Side::South));
        assert_eq!(v1.events(), v2.events());
        // …so the same choice.
        let m1 = quick(Level::Expert, 3_000, seed).choose_move(&v1, &|| false);
        let m2 = quick(Level::Expert, 3_000, seed).choose_move(&v2, &|| false);
        assert_eq!(m1, m2, "Expert answered differently: it peeked");
        assert!(game.position().is_legal(m1.expect("a move")));
        checked += 1;
    }
    assert!(checked >= 5, "too few permutable positions ({checked})");
}
