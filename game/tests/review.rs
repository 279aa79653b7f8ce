//! The post-game review (`ai::review`): a point of the evaluation curve per
//! position of a recorded game, the marked mistakes exactly the largest
//! losses, each with a legal better move and its reason, the same review
//! from the same seed, for two- and four-player records.

use std::time::Instant;

use junqi_game::ai::review::{Review, ReviewParams, review};
use junqi_game::ai::{Ai, GreedyPlayer, Level, Player, RandomPlayer};
use junqi_game::*;
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_pcg::Pcg64Mcg;

/// Plays up to `plies` plies between `players` (by seat index) and resigns
/// for the side to move if the game is still on, so the record is finished.
fn play(mut game: Game, players: &mut [Box<dyn Player>], plies: usize) -> Record {
    for _ in 0..plies {
        if game.result().is_some() {
            break;
        }
        let side = game.turn();
        let view = game.view(side);
        let action = players[side.index() % players.len()].act(&view, &|| false);
        game.apply(side, action).unwrap();
    }
    // In a four-player game a resigning seat goes out and the others play
    // on: resign until the game is over.
    while game.result().is_none() {
        let side = game.turn();
        game.apply(side, Action::Resign).unwrap();
    }
    game.record().clone()
}

/// A dark two-player game: 新手 (who slips) against a greedy player.
fn two_player_record(seed: u64, plies: usize) -> Record {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let rules = Rules::default();
    let a = classic_layouts().choose(&mut rng).unwrap().layout;
    let b = classic_layouts().choose(&mut rng).unwrap().layout;
    let game = Game::new(rules, a, b, Side::South).unwrap();
    let mut players: Vec<Box<dyn Player>> = vec![
        Box::new(Ai::new(Level::Novice, seed)),
        Box::new(GreedyPlayer::new(seed + 1)),
    ];
    play(game, &mut players, plies)
}

/// Checks everything a review promises about `record`.
fn check(record: &Record, r: &Review, params: &ReviewParams) {
    let n = record.actions.len();
    // A point per position: the start and after every action.
    assert_eq!(r.curve.len(), n + 1);
    let end = Game::replay(record, None).unwrap();
    for (i, p) in r.curve.iter().enumerate() {
        assert_eq!(p.actions, i);
        let game = Game::replay(record, Some(i)).unwrap();
        for side in Side::FOUR {
            let expected = if game.position().is_team_game() {
                game.is_in(side)
            } else {
                Side::TWO.contains(&side)
            };
            assert_eq!(p.eval[side.index()].is_some(), expected, "ply {i} {side}");
        }
    }
    // The last point is the result, for each side.
    let last = r.curve.last().unwrap();
    match end.result().unwrap() {
        GameResult::Win { winner, .. } => {
            for side in Side::FOUR {
                if let Some(v) = last.eval[side.index()] {
                    let won = if end.position().is_team_game() {
                        side.team() == winner.team()
                    } else {
                        side == winner
                    };
                    assert_eq!(v, if won { 100_000.0 } else { -100_000.0 });
                }
            }
        }
        GameResult::Draw { .. } => {
            assert!(last.eval.iter().flatten().all(|&v| v == 0.0));
        }
    }
    // Each judged move is the record's, and the AI's move was legal then.
    for m in &r.moves {
        assert_eq!(record.actions[m.action], (m.side, Action::Move(m.played)));
        let before = Game::replay(record, Some(m.action)).unwrap();
        assert!(before.position().legal_moves().contains(&m.best.mv));
        assert!(m.loss >= 0.0);
        assert_eq!(m.loss, (m.best_score - m.played_score).max(0.0));
        let b = before.position().board();
        let named = match m.best.mv {
            Move::Step { from, to } => (b.name_of(from), b.name_of(to)),
            Move::Flip { at } => (b.name_of(at), b.name_of(at)),
        };
        assert_eq!(m.best.reason.points(), named);
    }
    // The mistakes are the largest losses, largest first, and no others.
    assert!(r.mistakes.len() <= params.mistakes);
    let marked: Vec<f32> = r.mistakes().map(|m| m.loss).collect();
    assert!(marked.windows(2).all(|w| w[0] >= w[1]), "{marked:?}");
    let smallest_marked = marked.last().copied().unwrap_or(f32::INFINITY);
    for (i, m) in r.moves.iter().enumerate() {
        if r.mistakes.contains(&i) {
            assert!(m.loss >= params.min_loss);
            assert_ne!(m.best.mv, m.played, "a mistake has a better move");
        } else if r.mistakes.len() == params.mistakes {
            assert!(m.loss <= smallest_marked, "an unmarked move lost more");
        } else {
            assert!(m.loss < params.min_loss, "an unmarked move lost enough");
        }
    }
}

#[test]
fn a_long_two_player_game_has_a_point_per_ply_and_its_largest_losses_marked() {
    // Seed 11 runs to 168 actions (most seeds end sooner by a flag).
    let record = two_player_record(11, 220);
    assert!(record.actions.len() >= 150);
    let params = ReviewParams::default();
    let t = Instant::now();
    let r = review(&record, &params, 1, &|_, _| {}).unwrap();
    eprintln!(
        "review of {} actions: {:.1?} ({} moves judged, {} mistakes)",
        record.actions.len(),
        t.elapsed(),
        r.moves.len(),
        r.mistakes.len()
    );
    for m in r.mistakes() {
        eprintln!(
            "  {} {}: {:?} lost {:.0}; better {:?}",
            m.action, m.side, m.played, m.loss, m.best.reason
        );
    }
    check(&record, &r, &params);
    // 新手 slips and the greedy player looks no further than one attack:
    // such a game has mistakes to mark.
    assert!(!r.mistakes.is_empty());
    // Most moves had a choice and were judged.
    assert!(r.moves.len() * 2 > record.actions.len());
}

#[test]
fn the_same_seed_gives_the_same_review_and_progress_reaches_the_end() {
    let record = two_player_record(4, 40);
    let params = ReviewParams::default();
    let done = std::cell::Cell::new((0, 0));
    let a = review(&record, &params, 5, &|d, t| done.set((d, t))).unwrap();
    let n = record.actions.len();
    assert_eq!(done.get(), (n, n));
    let b = review(&record, &params, 5, &|_, _| {}).unwrap();
    assert_eq!(a, b);
    check(&record, &a, &params);
}

#[test]
fn fewer_mistakes_asked_for_are_the_top_of_the_longer_list() {
    let record = two_player_record(3, 60);
    let mut params = ReviewParams::default();
    let all = review(&record, &params, 2, &|_, _| {}).unwrap();
    params.mistakes = 2;
    let top = review(&record, &params, 2, &|_, _| {}).unwrap();
    check(&record, &top, &params);
    assert_eq!(top.mistakes[..], all.mistakes[..top.mistakes.len()]);
}

#[test]
fn a_four_player_game_is_reviewed_for_every_seat_still_in() {
    let mut rng = Pcg64Mcg::seed_from_u64(21);
    let rules = Rules::four_player(Mode::Dark);
    let layouts = std::array::from_fn(|_| classic_layouts().choose(&mut rng).unwrap().layout);
    let game = Game::new_four(rules, layouts, Side::South).unwrap();
    let mut players: Vec<Box<dyn Player>> = (0..4)
        .map(|i| Box::new(RandomPlayer::new(30 + i)) as Box<dyn Player>)
        .collect();
    let record = play(game, &mut players, 48);
    let params = ReviewParams::default();
    let r = review(&record, &params, 9, &|_, _| {}).unwrap();
    check(&record, &r, &params);
    // Random movers blunder.
    assert!(!r.mistakes.is_empty());
    assert!(r.moves.iter().any(|m| m.side == Side::East));
}
