//! The AI cannot peek: its input is a player's view, and permuting the hidden
//! enemy pieces in any way the view allows leaves its choice unchanged.

mod common;

use junqi_game::ai::{Ai, FlagBox, Interior, Level, Player, setup};
use junqi_game::*;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

#[test]
fn permuting_hidden_enemy_pieces_changes_nothing_for_the_ai() {
    let mut rng = Pcg64Mcg::seed_from_u64(99);
    let mut checked = 0;
    for seed in 0..16u64 {
        let plies = 2 * rng.random_range(5..40);
        let game = common::random_game(Rules::default(), seed, plies);
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
        // …so the same choice, at every level.
        for level in [Level::Novice, Level::Skilled] {
            let m1 = Ai::new(level, seed).choose_move(&v1, &|| false);
            let m2 = Ai::new(level, seed).choose_move(&v2, &|| false);
            assert_eq!(m1, m2, "{level:?} answered differently: it peeked");
            let m = m1.expect("a move");
            assert!(game.position().is_legal(m));
        }
        // The searches that judge unidentified pieces by the belief inside the tree.
        for interior in [Interior::Blind, Interior::Chance] {
            let mut params = Level::Skilled.params();
            params.search.max_depth = 2;
            params.search.candidates = 4;
            params.search.interior = interior;
            let choose = |v: &PlayerView| {
                Ai::with_params(Level::Skilled, params, seed).choose_move(v, &|| false)
            };
            let (m1, m2) = (choose(&v1), choose(&v2));
            assert_eq!(m1, m2, "{interior:?} answered differently: it peeked");
            assert!(game.position().is_legal(m1.expect("a move")));
        }
        checked += 1;
    }
    assert!(checked >= 5, "too few permutable positions ({checked})");
}

#[test]
fn every_level_plays_legal_moves_in_every_mode() {
    for mode in [Mode::Dark, Mode::Open, Mode::Flip] {
        let rules = Rules::for_mode(mode);
        let mut rng = Pcg64Mcg::seed_from_u64(5);
        let mut novice = Ai::new(Level::Novice, 1);
        let mut skilled = Ai::new(Level::Skilled, 2);
        let mut game = if mode == Mode::Flip {
            Game::new_flip_shuffled(rules, Side::South, &mut rng)
        } else {
            let a = novice.layout(&rules);
            let b = skilled.layout(&rules);
            Game::new(rules, a, b, Side::South).unwrap()
        };
        for _ in 0..40 {
            if game.result().is_some() {
                break;
            }
            let side = game.turn();
            let view = game.view(side);
            let player: &mut Ai = if side == Side::South {
                &mut novice
            } else {
                &mut skilled
            };
            let action = player.act(&view, &|| false);
            game.apply(side, action).expect("the AI plays legal moves");
        }
    }
}

#[test]
fn hints_come_with_reasons_in_both_languages() {
    let game = common::random_game(Rules::default(), 7, 20);
    let view = game.view(game.turn());
    let hint = Ai::new(Level::Skilled, 3).hint(&view, &|| false).unwrap();
    assert!(game.position().is_legal(hint.mv));
    let b = view.board();
    let named = match hint.mv {
        Move::Step { from, to } => (b.name_of(from), b.name_of(to)),
        Move::Flip { at } => (b.name_of(at), b.name_of(at)),
    };
    assert_eq!(hint.reason.points(), named, "{hint:?}");
}

#[test]
fn layouts_are_legal_and_varied() {
    let rules = Rules::default();
    let mut ai = Ai::new(Level::Master, 11);
    let layouts: Vec<Layout> = (0..30).map(|_| ai.choose_layout(&rules)).collect();
    for l in &layouts {
        l.validate(&rules).unwrap();
    }
    let mut distinct = layouts.clone();
    distinct.sort_by_key(|l| l.to_string());
    distinct.dedup();
    assert!(
        distinct.len() >= 25,
        "only {} distinct layouts",
        distinct.len()
    );
    for seed in 0..200 {
        for boxing in [
            FlagBox::Any,
            FlagBox::Always,
            FlagBox::Never,
            FlagBox::CentreOpen,
        ] {
            let l = setup::generate(&rules, boxing, &mut Pcg64Mcg::seed_from_u64(seed));
            l.validate(&rules).unwrap();
            assert!(boxing.admits(&l), "{boxing:?}: {l}");
        }
    }
}

#[test]
fn boxed_flag_layouts_are_boxed_legal_and_varied() {
    let rules = Rules::default();
    let mut rng = Pcg64Mcg::seed_from_u64(5);
    let layouts: Vec<Layout> = (0..40)
        .map(|_| setup::choose_layout(&rules, 0.2, FlagBox::Always, &mut rng))
        .collect();
    for l in &layouts {
        l.validate(&rules).unwrap();
        assert!(setup::flag_boxed(l), "flag not boxed in:\n{l}");
    }
    let mut distinct: Vec<String> = layouts.iter().map(|l| l.to_string()).collect();
    distinct.sort();
    distinct.dedup();
    assert!(distinct.len() >= 30, "only {} distinct", distinct.len());
    // Either way, both kinds come up; never boxed, none is.
    let any: Vec<Layout> = (0..80)
        .map(|_| setup::choose_layout(&rules, 0.2, FlagBox::Any, &mut rng))
        .collect();
    assert!(any.iter().any(|l| !setup::flag_boxed(l)));
    assert!(any.iter().any(setup::flag_boxed));
    for _ in 0..80 {
        let l = setup::choose_layout(&rules, 0.5, FlagBox::Never, &mut rng);
        l.validate(&rules).unwrap();
        assert!(!setup::flag_boxed(&l), "flag boxed in:\n{l}");
    }
}

#[test]
fn levels_parse_by_name() {
    for l in Level::ALL {
        assert_eq!(l.id().parse::<Level>(), Ok(l));
        assert_eq!(l.id().to_uppercase().parse::<Level>(), Ok(l));
    }
    assert!("grandmaster".parse::<Level>().is_err());
}

#[test]
fn games_replay_exactly_from_their_seeds() {
    let play = || {
        let rules = Rules::default();
        let mut a = Ai::new(Level::Novice, 21);
        let mut b = Ai::new(Level::Skilled, 22);
        let (la, lb) = (a.layout(&rules), b.layout(&rules));
        let mut game = Game::new(rules, la, lb, Side::South).unwrap();
        for _ in 0..30 {
            if game.result().is_some() {
                break;
            }
            let side = game.turn();
            let view = game.view(side);
            let p: &mut Ai = if side == Side::South { &mut a } else { &mut b };
            let action = p.act(&view, &|| false);
            game.apply(side, action).unwrap();
        }
        game.record().clone()
    };
    assert_eq!(play(), play());
}
