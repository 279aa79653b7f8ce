//! Property tests over whole random four-player games with randomized rule
//! options: the generator and the independent check agree, a partner's
//! piece is never attacked, a player out has no piece on the board and
//! never acts again, every seat going out is announced once, pieces never
//! appear or change rank, records replay exactly and survive JSON, position
//! files round-trip.

use junqi_game::notation::record_movetext;
use junqi_game::*;
use proptest::prelude::*;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::collections::BTreeMap;

fn rules_strategy() -> impl Strategy<Value = Rules> {
    (
        prop_oneof![Just(Mode::Dark), Just(Mode::Open)],
        (any::<bool>(), any::<bool>()),
        prop_oneof![
            Just(MineRule::Standard),
            Just(MineRule::Trades),
            Just(MineRule::BombMines)
        ],
        prop_oneof![
            Just(FlagCapture::Anyone),
            Just(FlagCapture::NotCommander),
            Just(FlagCapture::EngineersOnly)
        ],
        any::<bool>(),
        20u16..=90,
        0u8..=4,
        (any::<bool>(), any::<bool>(), any::<bool>()),
    )
        .prop_map(
            |(
                mode,
                (flying, hq),
                mines,
                flag,
                scouting,
                quiet,
                timeouts,
                (clockwise, last_pieces, partners_open),
            )| Rules {
                flying_bombs: flying,
                hq_exit: hq,
                mines,
                flag_capture: flag,
                engineer_scouting: scouting,
                quiet_draw_plies: quiet,
                max_timeouts: timeouts,
                clockwise,
                last_pieces,
                partners_open,
                ..Rules::four_player(mode)
            },
        )
}

/// Every legal move passes the check, and for the pieces of the seat to
/// move the check accepts exactly the generated targets.
fn check_generator(pos: &Position) -> Result<(), TestCaseError> {
    let moves = pos.legal_moves();
    prop_assert_eq!(moves.len(), pos.legal_move_count());
    for &m in &moves {
        prop_assert!(pos.check(m).is_ok(), "generated {:?} refused", m);
        if let Move::Step { to, .. } = m
            && let Some(target) = pos.at(to)
        {
            prop_assert_ne!(target.side.team(), pos.turn().team(), "partner attacked");
        }
    }
    for (from, pc) in pos.pieces() {
        if pc.side != pos.turn() {
            continue;
        }
        for to in pos.board().points() {
            let m = Move::Step { from, to };
            prop_assert_eq!(pos.check(m).is_ok(), moves.contains(&m), "{:?}", m);
        }
    }
    Ok(())
}

fn census(pos: &Position) -> BTreeMap<PieceId, (Point, Piece)> {
    pos.pieces().map(|(p, pc)| (pc.id, (p, pc))).collect()
}

fn play_and_check(rules: Rules, seed: u64) -> Result<(), TestCaseError> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let layouts = std::array::from_fn(|_| Layout::random(&rules, &mut rng));
    let first = Side::FOUR[rng.random_range(0..4)];
    let mut game =
        Game::new_four(rules, layouts, first).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let mut announced_out = [0u8; 4];
    while game.result().is_none() {
        let before = game.position().clone();
        let side = game.turn();
        prop_assert!(game.is_in(side));
        // The full pairwise check is slow on 129 points: every few plies.
        if rng.random_bool(0.15) {
            check_generator(&before)?;
        }
        let seats: Vec<Side> = before.seats_in().collect();
        let actor = *seats.choose(&mut rng).expect("someone is in");
        let r: f64 = rng.random();
        let (who, action) = if r < 0.01 {
            (side, Action::Timeout)
        } else if r < 0.013 && game.draw_offer().is_none() {
            (actor, Action::OfferDraw)
        } else if let Some(o) = game.draw_offer()
            && o != actor
            && r < 0.5
        {
            (
                actor,
                if rng.random_bool(0.7) {
                    Action::AcceptDraw
                } else {
                    Action::DeclineDraw
                },
            )
        } else if r > 0.998 && before.ply() >= rules.resign_after_plies {
            (actor, Action::Resign)
        } else {
            let moves = before.legal_moves();
            (side, Action::Move(*moves.choose(&mut rng).expect("a move")))
        };
        let events = match game.apply_table(who, action) {
            Ok(events) => events,
            // A player who accepted has answered: a second answer is
            // refused and changes nothing.
            Err(ActionError::NoDrawOffer)
                if matches!(action, Action::AcceptDraw | Action::DeclineDraw) =>
            {
                prop_assert_eq!(game.position(), &before);
                continue;
            }
            Err(e) => return Err(TestCaseError::fail(format!("{who} {action:?}: {e}"))),
        };
        let after = game.position().clone();
        let after = &after;
        prop_assert!(after.is_consistent());
        // Pieces never appear or change rank; only the mover moves.
        let (b, a) = (census(&before), census(after));
        for (id, (p, pc)) in &a {
            let Some((p0, pc0)) = b.get(id) else {
                return Err(TestCaseError::fail(format!("new piece {id:?}")));
            };
            prop_assert_eq!(pc.rank, pc0.rank);
            if p != p0 {
                prop_assert_eq!(
                    Some(Move::Step { from: *p0, to: *p }),
                    match action {
                        Action::Move(m) => Some(m),
                        _ => None,
                    }
                );
            }
        }
        for e in &events {
            if let TableEvent::PlayerOut { side, .. } = e {
                announced_out[side.index()] += 1;
            }
        }
        for s in Side::FOUR {
            if !after.is_in(s) {
                prop_assert!(
                    after.pieces().all(|(_, pc)| pc.side != s),
                    "{s} out with pieces"
                );
                prop_assert_eq!(announced_out[s.index()], 1, "{} announced out", s);
                prop_assert!(game.apply_table(s, Action::OfferDraw).is_err());
            } else {
                prop_assert_eq!(announced_out[s.index()], 0);
            }
        }
        if rng.random_bool(0.02) && game.result().is_none() {
            let json = position_to_json(game.position());
            let loaded =
                position_from_json(&json).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(position_to_json(&loaded), json);
            prop_assert_eq!(loaded.legal_moves(), game.position().legal_moves());
        }
    }
    // Both players of a losing team are out; a draw leaves both teams in.
    match game.result() {
        Some(GameResult::Win { winner, .. }) => {
            prop_assert!(game.is_in(winner));
            for s in winner.team().other().seats() {
                prop_assert!(!game.is_in(s));
            }
        }
        Some(GameResult::Draw { .. }) => {
            prop_assert!(game.is_in(Side::South) || game.is_in(Side::North));
            prop_assert!(game.is_in(Side::East) || game.is_in(Side::West));
        }
        None => unreachable!(),
    }
    let record = game.record().clone();
    let replayed = Game::replay(&record, None).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(replayed.position(), game.position());
    prop_assert_eq!(replayed.table_events(), game.table_events());
    let json = serde_json::to_string(&record).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let back: Record =
        serde_json::from_str(&json).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(&back, &record);
    let text = record_movetext(&record).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(text.split_whitespace().count(), record.actions.len());
    Ok(())
}

proptest! {
    // 16 games by default; PROPTEST_CASES=N for a longer hunt.
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(16)
    ))]

    #[test]
    fn random_four_player_games_keep_every_invariant(rules in rules_strategy(), seed in any::<u64>()) {
        play_and_check(rules, seed)?;
    }
}
