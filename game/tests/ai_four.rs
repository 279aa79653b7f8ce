//! The AI in four-player games (四国大战): every level plays legal moves in
//! 四暗, 双明 and 全明 from one seat's view, and its choice does not change
//! when hidden pieces of the other armies are permuted in a way its view
//! allows (the enemies', and in 四暗 the partner's too).

use junqi_game::ai::{Ai, GreedyPlayer, Level, LevelParams, Player, RandomPlayer};
use junqi_game::*;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// A level with its node budget cut so the test runs quickly in the dev
/// profile (the algorithm, samples and depth are the level's).
fn quick(level: Level, nodes: u64) -> Ai {
    let mut p: LevelParams = level.params_four();
    p.search.nodes = p.search.nodes.min(nodes);
    Ai::with_params(level, p, 7)
}

fn rules(mode: Mode, partners_open: bool) -> Rules {
    Rules {
        partners_open,
        ..Rules::four_player(mode)
    }
}

#[test]
fn every_level_plays_legal_moves_in_every_four_player_mode() {
    for (mode, open) in [(Mode::Dark, false), (Mode::Dark, true), (Mode::Open, false)] {
        let rules = rules(mode, open);
        // One level per seat: S Novice, E Skilled, N Expert, W Master.
        let mut players: Vec<Box<dyn Player>> = vec![
            Box::new(quick(Level::Novice, 2_000)),
            Box::new(quick(Level::Skilled, 2_000)),
            Box::new(quick(Level::Expert, 2_000)),
            Box::new(quick(Level::Master, 2_000)),
        ];
        let layouts = [0, 1, 2, 3].map(|i| players[i].layout(&rules));
        let mut game = Game::new_four(rules, layouts, Side::South).unwrap();
        for _ in 0..16 {
            if game.result().is_some() {
                break;
            }
            let side = game.turn();
            let i = Side::FOUR.iter().position(|&s| s == side).unwrap();
            let view = game.view(side);
            let action = players[i].act(&view, &|| false);
            assert!(
                matches!(action, Action::Move(m) if game.position().is_legal(m)),
                "{mode:?} {side}: {action:?}"
            );
            game.apply_table(side, action).unwrap();
        }
        // The greedy baseline plays too.
        let side = game.turn();
        if game.result().is_none() {
            let action = GreedyPlayer::new(3).act(&game.view(side), &|| false);
            assert!(matches!(action, Action::Move(m) if game.position().is_legal(m)));
        }
    }
}

/// Plays `plies` random plies of a four-player game.
fn random_game(rules: Rules, seed: u64, plies: usize) -> Game {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let c = classic_layouts();
    let layouts: [Layout; 4] = std::array::from_fn(|_| c.choose(&mut rng).unwrap().layout);
    let mut game = Game::new_four(rules, layouts, Side::South).unwrap();
    let mut movers = [0, 1, 2, 3].map(|i| RandomPlayer::new(seed * 4 + i));
    for _ in 0..plies {
        if game.result().is_some() {
            break;
        }
        let side = game.turn();
        let i = Side::FOUR.iter().position(|&s| s == side).unwrap();
        let action = movers[i].act(&game.view(side), &|| false);
        game.apply_table(side, action).unwrap();
    }
    game
}

/// Swaps the true ranks of two pieces of one of South's enemies (or, in
/// 四暗, of its partner) where South's view allows each to be the other,
/// and replays the same actions. Returns the new game and whose pieces moved.
fn permuted(game: &Game, rng: &mut Pcg64Mcg) -> Option<(Game, Side)> {
    let board = game.position().board();
    let view = game.view(Side::South);
    let mut others = vec![Side::East, Side::West];
    if !game.rules().partners_open {
        others.push(Side::North);
    }
    for _ in 0..400 {
        let side = *others.choose(rng)?;
        let layout = *game.record().setup.four_layout(side)?;
        let hidden: Vec<PieceId> = view
            .pieces()
            .filter(|k| k.side == side && k.known().is_none())
            .map(|k| k.id)
            .collect();
        let (Some(&i), Some(&j)) = (hidden.choose(rng), hidden.choose(rng)) else {
            continue;
        };
        let cell = |id: PieceId| {
            let info = board.info(board.setup_points(side)[id.0 as usize % 25]);
            (info.row, info.col)
        };
        let (ci, cj) = (cell(i), cell(j));
        let (ri, rj) = (layout.get(ci.0, ci.1)?, layout.get(cj.0, cj.1)?);
        let (ki, kj) = (view.piece(i)?, view.piece(j)?);
        if ri != rj && ki.possible.contains(rj) && kj.possible.contains(ri) {
            let mut record = game.record().clone();
            let Setup::Four {
                south,
                east,
                north,
                west,
            } = record.setup
            else {
                return None;
            };
            let swap = |s: Side, l: Layout| if s == side { l.swapped(ci, cj) } else { l };
            record.setup = Setup::Four {
                south,
                east: swap(Side::East, east),
                north: swap(Side::North, north),
                west: swap(Side::West, west),
            };
            return Some((Game::replay(&record, None).ok()?, side));
        }
    }
    None
}

#[test]
fn permuting_hidden_pieces_of_the_other_armies_changes_nothing_for_the_ai() {
    let mut rng = Pcg64Mcg::seed_from_u64(11);
    let mut checked = 0;
    let mut partner_checked = 0;
    for seed in 0..40u64 {
        let open = seed % 3 == 2;
        let plies = rng.random_range(8..60);
        let game = random_game(rules(Mode::Dark, open), seed, plies);
        if game.result().is_some() || game.turn() != Side::South {
            continue;
        }
        let Some((other, moved)) = permuted(&game, &mut rng) else {
            continue;
        };
        // Different truths…
        assert_ne!(game.position(), other.position());
        // …the same view…
        let (v1, v2) = (game.view(Side::South), other.view(Side::South));
        assert_eq!(v1.events(), v2.events());
        // …so the same choice, at every level (budgets cut for the dev profile).
        for (level, nodes) in [
            (Level::Novice, 1_500),
            (Level::Skilled, 1_500),
            (Level::Expert, 1_500),
            (Level::Master, 1_500),
        ] {
            let m1 = quick(level, nodes).choose_move(&v1, &|| false);
            let m2 = quick(level, nodes).choose_move(&v2, &|| false);
            assert_eq!(m1, m2, "{level:?} answered differently: it peeked");
            assert!(game.position().is_legal(m1.expect("a move")));
        }
        checked += 1;
        if moved == Side::North {
            partner_checked += 1;
        }
        if checked >= 6 && partner_checked >= 2 {
            break;
        }
    }
    assert!(checked >= 5, "too few permutable positions ({checked})");
    assert!(partner_checked >= 1, "no 四暗 partner permutation checked");
}

#[test]
fn expert_searches_its_partners_reply_in_team_games() {
    // Two plies of a team game are my move and the next enemy's; the third
    // is my partner's, with its known pieces in 双明. Expert's four-player
    // budget finishes it over all its samples in a middle game.
    let game = random_game(rules(Mode::Dark, true), 21, 40);
    assert!(game.result().is_none());
    let view = game.view(game.turn());
    let a = Ai::new(Level::Expert, 5).analyse(&view, &|| false);
    assert_eq!(a.depth, 3, "{} nodes", a.nodes);
    assert_eq!(a.samples, Level::Expert.params_four().search.samples);
    // With the two-player settings the search stops a ply short.
    let two = Level::Expert.params();
    let b = Ai::with_params(Level::Expert, two, 5).analyse(&view, &|| false);
    assert_eq!(b.depth, 2);
}
