//! Two-peer protocol tests on a virtual clock: honest games and one test per cheat.

use junqi_game::{Mode, Rules, Side};
use junqi_proto::FaultKind;
use junqi_proto::envelope::ChainError;
use junqi_proto::flip::FlipError;
use junqi_proto::ot::BattleCheat;
use junqi_proto::session::{AppEvent, Cheats, Verdict};
use junqi_proto::testing::{Pair, Player, preset};

const STEPS: usize = 200_000;

fn finished(p: &Pair) -> [Option<Verdict>; 2] {
    [p.verdict(0).cloned(), p.verdict(1).cloned()]
}

/// Both sides' audits give the same whole record; replayed, it reaches the result both sides
/// agree on, and each side's view of the replayed game is the view it played with.
fn assert_record_replays(p: &Pair, a: &Verdict, b: &Verdict) {
    let (ra, rb) = (a.record.as_ref(), b.record.as_ref());
    assert!(ra.is_some(), "a clean audit keeps the record");
    assert_eq!(ra, rb, "the two sides rebuilt different records");
    let game = junqi_game::Game::replay(ra.unwrap(), None).expect("the record replays");
    assert_eq!(game.result(), a.result);
    for (i, s) in p.sessions.iter().enumerate() {
        let played = s.view().expect("a view");
        let replayed = game.view(s.side());
        for pt in played.board().points() {
            assert_eq!(played.at(pt), replayed.at(pt), "side {i} at {pt:?}");
        }
    }
}

fn honest(mode: Mode, seed: u64) -> Pair {
    let mut p = Pair::new(Rules::for_mode(mode), seed);
    assert!(p.run(STEPS), "game did not finish: {:?}", p.sessions);
    p
}

#[test]
fn honest_dark_games_end_clean_and_agree() {
    for seed in 0..4 {
        let p = honest(Mode::Dark, seed);
        let [a, b] = finished(&p);
        let (a, b) = (a.unwrap(), b.unwrap());
        assert!(a.is_clean(), "seed {seed}: {a:?}");
        assert!(b.is_clean(), "seed {seed}: {b:?}");
        assert_eq!(a.result, b.result);
        assert!(a.result.is_some());
        assert_record_replays(&p, &a, &b);
        // Both saw the same public events.
        let ev = |i: usize| -> Vec<_> {
            p.events[i]
                .iter()
                .filter_map(|e| {
                    if let AppEvent::Game(g) = e {
                        Some(*g)
                    } else {
                        None
                    }
                })
                .collect()
        };
        let (e0, e1) = (ev(0), ev(1));
        if e0 != e1 {
            let n = e0
                .iter()
                .zip(&e1)
                .position(|(x, y)| x != y)
                .unwrap_or(e0.len().min(e1.len()));
            panic!(
                "seed {seed}: events differ at {n} (len {} / {}): {:?} vs {:?}\n{:?}\n{:?}",
                e0.len(),
                e1.len(),
                e0.get(n),
                e1.get(n),
                &e0[n.saturating_sub(3)..(n + 3).min(e0.len())],
                &e1[n.saturating_sub(3)..(n + 3).min(e1.len())]
            );
        }
    }
}

#[test]
fn honest_open_game_ends_clean() {
    for seed in 0..2 {
        let p = honest(Mode::Open, seed);
        let [a, b] = finished(&p);
        assert!(a.as_ref().unwrap().is_clean(), "{a:?}");
        assert!(b.as_ref().unwrap().is_clean(), "{b:?}");
        assert_eq!(a.unwrap().result, b.unwrap().result);
    }
}

/// Runs a game where side `cheater` (0 host, 1 guest) cheats; returns the
/// honest side's verdict.
fn cheat_game(seed: u64, cheater: usize, cheats: Cheats, player: Player) -> Verdict {
    let mut p = Pair::new(Rules::default(), seed);
    p.sessions[cheater].set_cheats(cheats);
    p.players[cheater] = player;
    let honest = 1 - cheater;
    p.run_until_verdict(honest, STEPS)
        .expect("the honest side reaches a verdict")
}

fn side(i: usize) -> Side {
    if i == 0 { Side::South } else { Side::North }
}

#[test]
fn piece_changed_after_commitment_is_blamed() {
    for cheater in 0..2 {
        // Commits to one preset and plays another.
        let other = preset(cheater + 20);
        let v = cheat_game(
            11,
            cheater,
            Cheats {
                commit_layout: Some(other),
                ..Cheats::default()
            },
            Player::Random,
        );
        assert_eq!(v.cheater, Some(side(cheater)), "{v:?}");
        // Commits honestly, reveals another setup.
        let v = cheat_game(
            12,
            cheater,
            Cheats {
                reveal_layout: Some(other),
                ..Cheats::default()
            },
            Player::Random,
        );
        assert_eq!(v.cheater, Some(side(cheater)), "{v:?}");
        assert!(
            matches!(v.reason, Some(FaultKind::SetupMismatch(_))),
            "{v:?}"
        );
    }
}

#[test]
fn illegal_setup_is_blamed() {
    for cheater in 0..2 {
        // The flag swapped into the front row: commits to and reveals that.
        let mut bad = preset(3);
        let flag_col = (1..=5u8)
            .find(|&c| bad.get(6, c) == Some(junqi_game::Rank::Flag))
            .unwrap();
        let front = bad.get(1, 1);
        bad.set(1, 1, Some(junqi_game::Rank::Flag));
        bad.set(6, flag_col, front);
        let v = cheat_game(
            21,
            cheater,
            Cheats {
                commit_layout: Some(bad),
                ..Cheats::default()
            },
            Player::Random,
        );
        assert_eq!(v.cheater, Some(side(cheater)), "{v:?}");
        assert!(
            matches!(
                v.reason,
                Some(FaultKind::IllegalSetup(_) | FaultKind::BadFlagOpening)
            ),
            "{v:?}"
        );
    }
}

#[test]
fn false_outcome_is_blamed_at_once() {
    for cheater in 0..2 {
        let v = cheat_game(
            31,
            cheater,
            Cheats {
                false_outcome: true,
                ..Cheats::default()
            },
            Player::Random,
        );
        assert_eq!(v.cheater, Some(side(cheater)), "{v:?}");
        assert!(
            matches!(
                v.reason,
                Some(
                    FaultKind::FalseOutcome(_)
                        | FaultKind::Battle {
                            cheat: BattleCheat::FalseOutcome,
                            ..
                        }
                )
            ),
            "{v:?}"
        );
    }
}

#[test]
fn corrupted_oblivious_transfer_entry_is_blamed_on_the_defender() {
    for cheater in 0..2 {
        let v = cheat_game(
            41,
            cheater,
            Cheats {
                corrupt_table: Some(None),
                ..Cheats::default()
            },
            Player::Random,
        );
        assert_eq!(v.cheater, Some(side(cheater)), "{v:?}");
        assert!(
            matches!(
                v.reason,
                Some(
                    FaultKind::CorruptTable(_)
                        | FaultKind::Battle {
                            cheat: BattleCheat::TableMismatch,
                            ..
                        }
                )
            ),
            "{v:?}"
        );
    }
}

#[test]
fn bad_flag_opening_is_blamed() {
    // Play until some commander dies with the cheater's flag to open.
    let mut hits = 0;
    for seed in 0..12 {
        for cheater in 0..2 {
            let mut p = Pair::new(Rules::default(), 100 + seed);
            p.sessions[cheater].set_cheats(Cheats {
                bad_flag_opening: true,
                ..Cheats::default()
            });
            let v = p.run_until_verdict(1 - cheater, STEPS).unwrap();
            if v.reason == Some(FaultKind::BadFlagOpening) {
                hits += 1;
                assert_eq!(v.cheater, Some(side(cheater)), "{v:?}");
            } else {
                assert!(v.is_clean(), "{v:?}");
            }
        }
    }
    assert!(hits > 0, "no commander died in any game");
}

fn scripted_move_cheat(player: Player, what: &str) {
    let mut hits = 0;
    for seed in 0..16 {
        for cheater in 0..2 {
            let mut p = Pair::new(Rules::default(), 200 + seed);
            p.players[cheater] = player;
            let v = p.run_until_verdict(1 - cheater, STEPS).unwrap();
            if p.cheated(cheater) {
                hits += 1;
                assert_eq!(v.cheater, Some(side(cheater)), "{what}: {v:?}");
                assert!(
                    matches!(v.reason, Some(FaultKind::IllegalMove(_))),
                    "{what}: {v:?}"
                );
            } else {
                assert!(v.is_clean(), "{v:?}");
            }
        }
    }
    assert!(hits > 0, "{what}: the cheat never found an opportunity");
}

#[test]
fn mine_or_flag_moved_is_blamed() {
    scripted_move_cheat(Player::ImmovableCheat, "mine or flag moved");
}

#[test]
fn railway_corner_by_a_non_engineer_is_blamed() {
    scripted_move_cheat(Player::CornerCheat, "corner by a non-engineer");
}

fn tampered(cheater: usize, f: impl FnMut(usize, Vec<u8>) -> Vec<Vec<u8>> + 'static) -> Verdict {
    let mut p = Pair::new(Rules::default(), 51);
    p.tamper = Some(Box::new(f));
    p.run_until_verdict(1 - cheater, STEPS).unwrap()
}

#[test]
fn duplicated_reordered_and_replayed_messages_are_blamed() {
    for cheater in 0..2 {
        // Duplicate the cheater's 4th frame.
        let mut n = 0;
        let v = tampered(cheater, move |from, b| {
            if from == cheater {
                n += 1;
                if n == 4 {
                    return vec![b.clone(), b];
                }
            }
            vec![b]
        });
        assert_eq!(v.cheater, Some(side(cheater)), "{v:?}");
        assert!(
            matches!(
                v.reason,
                Some(FaultKind::RefusedMessage(ChainError::Replayed { .. }))
            ),
            "{v:?}"
        );
        // Swap the cheater's 4th and 5th frames.
        let (mut n, mut held) = (0, None);
        let v = tampered(cheater, move |from, b| {
            if from == cheater {
                n += 1;
                if n == 4 {
                    held = Some(b);
                    return vec![];
                }
                if n == 5 {
                    return vec![b, held.take().unwrap()];
                }
            }
            vec![b]
        });
        assert_eq!(v.cheater, Some(side(cheater)), "{v:?}");
        assert!(
            matches!(
                v.reason,
                Some(FaultKind::RefusedMessage(ChainError::OutOfOrder { .. }))
            ),
            "{v:?}"
        );
        // Replay the cheater's 3rd frame after its 8th.
        let (mut n, mut old) = (0, None);
        let v = tampered(cheater, move |from, b| {
            if from == cheater {
                n += 1;
                if n == 3 {
                    old = Some(b.clone());
                }
                if n == 8 {
                    return vec![b, old.clone().unwrap()];
                }
            }
            vec![b]
        });
        assert_eq!(v.cheater, Some(side(cheater)), "{v:?}");
        assert!(
            matches!(
                v.reason,
                Some(FaultKind::RefusedMessage(ChainError::Replayed { .. }))
            ),
            "{v:?}"
        );
    }
}

#[test]
fn message_from_another_game_is_refused() {
    for cheater in 0..2 {
        // Same keys and nonces, other settings: another game id.
        let other_rules = Rules {
            move_seconds: 61,
            ..Rules::default()
        };
        let mut other = Pair::new(other_rules, 61);
        other.run(2000);
        let foreign = other.sent[cheater][4].clone();
        let mut p = Pair::new(Rules::default(), 61);
        p.run(200);
        p.inject(cheater, foreign);
        let v = p.run_until_verdict(1 - cheater, STEPS).unwrap();
        assert_eq!(v.cheater, Some(side(cheater)), "{v:?}");
        assert_eq!(
            v.reason,
            Some(FaultKind::RefusedMessage(ChainError::WrongGame)),
            "{v:?}"
        );
    }
}

#[test]
fn oversized_and_garbage_frames_are_blamed() {
    for cheater in 0..2 {
        for junk in [
            u32::MAX.to_be_bytes().to_vec(),
            vec![0, 0, 0, 5, 0xff, 0xfe, 0xfd, 0xfc, 0xfb],
        ] {
            let mut p = Pair::new(Rules::default(), 71);
            p.run(300);
            p.inject(cheater, junk);
            let v = p.run_until_verdict(1 - cheater, STEPS).unwrap();
            assert_eq!(v.cheater, Some(side(cheater)), "{v:?}");
            assert!(matches!(v.reason, Some(FaultKind::BadFrame(_))), "{v:?}");
        }
    }
}

#[test]
fn refusal_to_open_at_the_audit_is_blamed() {
    for cheater in 0..2 {
        let v = cheat_game(
            81,
            cheater,
            Cheats {
                refuse_reveal: true,
                ..Cheats::default()
            },
            Player::Random,
        );
        assert_eq!(v.cheater, Some(side(cheater)), "{v:?}");
        assert_eq!(v.reason, Some(FaultKind::RefusedToOpen), "{v:?}");
    }
}

#[test]
fn timeouts_lose_the_game() {
    for cheater in 0..2 {
        let v = cheat_game(91, cheater, Cheats::default(), Player::Idle);
        assert_eq!(
            v.result,
            Some(junqi_game::GameResult::Win {
                winner: side(1 - cheater),
                reason: junqi_game::WinReason::Timeouts
            }),
            "{v:?}"
        );
        assert!(v.is_clean(), "{v:?}");
    }
}

#[test]
fn walking_away_after_learning_a_result_loses_and_is_blamed() {
    for cheater in 0..2 {
        let cheats = Cheats {
            withhold_label: true,
            refuse_reveal: true,
            ..Cheats::default()
        };
        let v = cheat_game(101, cheater, cheats, Player::Random);
        assert_eq!(
            v.result,
            Some(junqi_game::GameResult::Win {
                winner: side(1 - cheater),
                reason: junqi_game::WinReason::Forfeit
            }),
            "{v:?}"
        );
        assert_eq!(v.cheater, Some(side(cheater)), "{v:?}");
    }
}

#[test]
fn a_crashed_side_resumes_from_its_saved_log_and_the_game_completes() {
    let mut crashes = 0;
    for seed in 0..6u64 {
        for crashed in 0..2 {
            let mut p = Pair::new(Rules::default(), 300 + seed);
            p.run(40 + 30 * seed as usize);
            if p.sessions.iter().any(|s| s.is_done()) {
                continue;
            }
            let before = p.sessions[crashed].log().len();
            p.crash_and_restore(crashed);
            crashes += 1;
            assert_eq!(p.sessions[crashed].log().len(), before);
            assert!(p.run(STEPS), "seed {seed}: did not finish after resuming");
            let [a, b] = finished(&p);
            let (a, b) = (a.unwrap(), b.unwrap());
            assert!(
                a.is_clean() && b.is_clean(),
                "seed {seed} crashed {crashed}: {a:?} {b:?}"
            );
            assert_eq!(a.result, b.result);
        }
    }
    assert!(crashes >= 6, "only {crashes} crashes exercised");
}

#[test]
fn draw_offers_and_resignation() {
    use junqi_game::{DrawReason, GameResult, WinReason};
    // Host offers a draw on its turn; the guest declines once, then accepts.
    let mut p = Pair::new(Rules::default(), 401);
    p.players = [Player::Idle, Player::Random];
    for round in 0..2 {
        let mut n = 0;
        while !p.sessions[0].my_turn() && n < 10_000 {
            p.step();
            n += 1;
        }
        p.sessions[0].offer_draw(p.now).unwrap();
        p.step_until(|p| p.events[1].contains(&AppEvent::DrawOffered));
        p.events[1].clear();
        if round == 0 {
            p.sessions[1].decline_draw(p.now).unwrap();
            p.step_until(|p| p.sessions[0].my_turn());
            // Still the host's turn: it plays on.
            let v = p.sessions[0].view().unwrap().clone();
            let mut rng = <rand_pcg::Pcg64 as rand::SeedableRng>::seed_from_u64(1);
            let m = junqi_proto::testing::random_move(&v, &mut rng).unwrap();
            p.sessions[0].play(p.now, m).unwrap();
        } else {
            p.sessions[1].accept_draw(p.now).unwrap();
        }
    }
    assert!(p.run(STEPS));
    let [a, b] = finished(&p);
    let draw = Some(GameResult::Draw {
        reason: DrawReason::Agreed,
    });
    assert_eq!(a.as_ref().unwrap().result, draw);
    assert_eq!(b.as_ref().unwrap().result, draw);
    let (a, b) = (a.unwrap(), b.unwrap());
    assert!(a.is_clean() && b.is_clean());
    // The saved record ends with the agreed draw.
    assert_record_replays(&p, &a, &b);

    // Resigning is refused in the first plies, then ends the game.
    let mut p = Pair::new(
        Rules {
            resign_after_plies: 4,
            ..Rules::default()
        },
        402,
    );
    while p.sessions[1].view().is_none_or(|v| v.ply() < 4) {
        if p.sessions[1].view().is_some() && p.sessions[1].view().unwrap().ply() < 4 {
            assert!(p.sessions[1].resign(p.now).is_err());
        }
        p.step();
    }
    p.sessions[1].resign(p.now).unwrap();
    assert!(p.run(STEPS));
    let win = Some(GameResult::Win {
        winner: Side::South,
        reason: WinReason::Resignation,
    });
    assert_eq!(p.verdict(0).unwrap().result, win);
    assert_eq!(p.verdict(1).unwrap().result, win);
    assert!(p.verdict(0).unwrap().is_clean());
    let [a, b] = finished(&p);
    assert_record_replays(&p, &a.unwrap(), &b.unwrap());
}

// ----- flip games -----------------------------------------------------------

fn game_events(p: &Pair, i: usize) -> Vec<junqi_game::Event> {
    p.events[i]
        .iter()
        .filter_map(|e| match e {
            AppEvent::Game(g) => Some(*g),
            _ => None,
        })
        .collect()
}

#[test]
fn honest_flip_games_end_clean_and_agree() {
    let (mut void, mut face_down_battles) = (0, 0);
    for seed in 0..3 {
        let p = honest(Mode::Flip, seed);
        let [a, b] = finished(&p);
        let (a, b) = (a.unwrap(), b.unwrap());
        assert!(a.is_clean(), "seed {seed}: {a:?}");
        assert!(b.is_clean(), "seed {seed}: {b:?}");
        assert_eq!(a.result, b.result);
        assert!(a.result.is_some());
        assert_record_replays(&p, &a, &b);
        let (e0, e1) = (game_events(&p, 0), game_events(&p, 1));
        assert_eq!(e0, e1, "seed {seed}: the sides saw different events");
        let flips = e0
            .iter()
            .filter(|e| matches!(e, junqi_game::Event::Flipped { .. }))
            .count();
        assert!(flips >= 2, "seed {seed}: only {flips} flips");
        use junqi_game::Event::{Battle, VoidAttack};
        void += e0.iter().filter(|e| matches!(e, VoidAttack { .. })).count();
        face_down_battles += e0
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    Battle {
                        defender_id: Some(_),
                        ..
                    }
                )
            })
            .count();
        // Both views end identical: every piece turned over is public.
        let (v0, v1) = (p.sessions[0].view().unwrap(), p.sessions[1].view().unwrap());
        for pt in v0.board().points() {
            assert_eq!(v0.at(pt), v1.at(pt), "seed {seed}");
        }
    }
    // Attacks on face-down pieces were exercised: opened, then fought or void.
    assert!(
        void > 0 && face_down_battles > 0,
        "{void} {face_down_battles}"
    );
}

#[test]
fn flip_timeouts_lose_the_game() {
    for idle in 0..2 {
        let mut p = Pair::new(Rules::for_mode(Mode::Flip), 504);
        p.players[idle] = Player::Idle;
        let v = p.run_until_verdict(1 - idle, STEPS).unwrap();
        assert_eq!(
            v.result,
            Some(junqi_game::GameResult::Win {
                winner: side(1 - idle),
                reason: junqi_game::WinReason::Timeouts
            }),
            "{v:?}"
        );
        assert!(v.is_clean(), "{v:?}");
    }
}

#[test]
fn refusing_to_open_a_flip_loses_and_is_blamed() {
    // The cheater never answers an opening (nor opens its seed at the end).
    for cheater in 0..2 {
        let mut p = Pair::new(Rules::for_mode(Mode::Flip), 505);
        p.sessions[cheater].set_cheats(Cheats {
            withhold_flip_opening: true,
            refuse_reveal: true,
            ..Cheats::default()
        });
        let v = p.run_until_verdict(1 - cheater, STEPS).unwrap();
        assert_eq!(
            v.result,
            Some(junqi_game::GameResult::Win {
                winner: side(1 - cheater),
                reason: junqi_game::WinReason::Forfeit
            }),
            "{v:?}"
        );
        assert_eq!(v.cheater, Some(side(cheater)), "{v:?}");
    }
}

/// A flip game where side `cheater` cheats; returns the honest side's verdict.
fn flip_cheat_game(seed: u64, cheater: usize, cheats: Cheats, rules: Rules) -> Verdict {
    let mut p = Pair::new(rules, seed);
    p.sessions[cheater].set_cheats(cheats);
    p.run_until_verdict(1 - cheater, STEPS)
        .expect("the honest side reaches a verdict")
}

#[test]
fn wrong_flip_opening_is_blamed_on_its_owner() {
    for cheater in 0..2 {
        let cheats = Cheats {
            bad_flip_opening: true,
            ..Cheats::default()
        };
        let v = flip_cheat_game(501, cheater, cheats, Rules::for_mode(Mode::Flip));
        assert_eq!(v.cheater, Some(side(cheater)), "{v:?}");
        assert!(
            matches!(
                v.reason,
                Some(FaultKind::BadFlipOpening(FlipError::BadOpening(_)))
            ),
            "{v:?}"
        );
    }
}

#[test]
fn piece_or_slot_opened_twice_is_blamed_on_its_owner() {
    // A layer committed to the same value everywhere: the second flip opens
    // a slot (guest) or a piece (host) a second time.
    for cheater in 0..2 {
        let cheats = Cheats {
            flip_values: Some([7; 50]),
            ..Cheats::default()
        };
        let mut p = Pair::new(Rules::for_mode(Mode::Flip), 502);
        p.sessions[cheater].set_cheats(cheats);
        let honest = 1 - cheater;
        let v = p.run_until_verdict(honest, STEPS).unwrap();
        // Seen at the second flip, and confirmed by the audit.
        assert_eq!(v.cheater, Some(side(cheater)), "{v:?}");
        assert!(
            p.events[honest].iter().any(|e| matches!(e,
                AppEvent::Fault { culprit, reason }
                    if *culprit == side(cheater) && matches!(reason,
                        FaultKind::BadFlipOpening(FlipError::ValueTwice { value: 7, .. })))),
            "{:?}",
            p.events[honest]
        );
        assert_eq!(v.reason, Some(FaultKind::BadShuffle), "{v:?}");
    }
}

#[test]
fn non_permutation_layer_is_blamed_at_the_audit() {
    use junqi_game::{GameResult, WinReason};
    for cheater in 0..2 {
        // Two entries map to the same value; the game ends (a resignation)
        // before both are opened, so only the audit can see it.
        let mut values: [u8; 50] = std::array::from_fn(|i| i as u8);
        values[49] = 48;
        let rules = Rules {
            resign_after_plies: 0,
            ..Rules::for_mode(Mode::Flip)
        };
        let mut p = Pair::new(rules, 503);
        p.sessions[cheater].set_cheats(Cheats {
            flip_values: Some(values),
            ..Cheats::default()
        });
        p.step_until(|p| p.sessions[1 - cheater].view().is_some_and(|v| v.ply() >= 4));
        let honest = 1 - cheater;
        p.sessions[honest].resign(p.now).unwrap();
        let v = p.run_until_verdict(honest, STEPS).unwrap();
        assert_eq!(
            v.result,
            Some(GameResult::Win {
                winner: side(cheater),
                reason: WinReason::Resignation
            })
        );
        assert_eq!(v.cheater, Some(side(cheater)), "{v:?}");
        assert_eq!(v.reason, Some(FaultKind::BadShuffle), "{v:?}");
        // The cheater's own audit agrees.
        assert!(p.run(STEPS));
        assert_eq!(p.verdict(cheater).unwrap().cheater, Some(side(cheater)));
    }
}

#[test]
fn a_crashed_side_resumes_a_flip_game() {
    let mut crashes = 0;
    for seed in 0..3u64 {
        for crashed in 0..2 {
            let mut p = Pair::new(Rules::for_mode(Mode::Flip), 600 + seed);
            p.run(60 + 40 * seed as usize);
            if p.sessions.iter().any(|s| s.is_done()) {
                continue;
            }
            p.crash_and_restore(crashed);
            crashes += 1;
            assert!(p.run(STEPS), "seed {seed}: did not finish after resuming");
            let [a, b] = finished(&p);
            let (a, b) = (a.unwrap(), b.unwrap());
            assert!(
                a.is_clean() && b.is_clean(),
                "seed {seed} crashed {crashed}: {a:?} {b:?}"
            );
            assert_eq!(a.result, b.result);
        }
    }
    assert!(crashes >= 4, "only {crashes} crashes exercised");
}

#[test]
fn a_move_crossing_a_timeout_claim_is_void_in_every_mode() {
    use junqi_game::Event;
    use junqi_proto::wire::Body;
    // The guest claims the host's timeout while the host's late move is on
    // the wire (as with a network slower than the grace): claim and move
    // cross. The move is void on both sides (rolled back by the host, the
    // referee and the flip arrangement included) and the game goes on with
    // nobody blamed.
    for mode in [Mode::Dark, Mode::Open, Mode::Flip] {
        for seed in 0..3 {
            let mut p = Pair::new(Rules::for_mode(mode), 710 + seed);
            p.players[0] = Player::Idle;
            let mut rng = <rand_pcg::Pcg64 as rand::SeedableRng>::seed_from_u64(seed);
            // Let the host make a few moves by hand, then sit on its turn.
            let mut host_moves = 0;
            loop {
                p.step();
                if p.sessions[0].my_turn() {
                    if host_moves == 3 + seed {
                        break;
                    }
                    let v = p.sessions[0].view().unwrap().clone();
                    let m = junqi_proto::testing::random_move(&v, &mut rng).unwrap();
                    p.sessions[0].play(p.now, m).unwrap();
                    host_moves += 1;
                }
            }
            let claimed = |p: &Pair| {
                p.sessions[1]
                    .log()
                    .iter()
                    .any(|e| matches!(e.body, Body::ClaimTimeout { .. }))
            };
            p.step_until(|p| claimed(p));
            let v = p.sessions[0].view().unwrap().clone();
            let m = junqi_proto::testing::random_move(&v, &mut rng).unwrap();
            p.sessions[0].play_unchecked(p.now, m).unwrap();
            p.players[0] = Player::Random;
            assert!(p.run(STEPS), "{mode:?} {seed}: did not finish");
            let [a, b] = finished(&p);
            let (a, b) = (a.unwrap(), b.unwrap());
            assert!(a.is_clean() && b.is_clean(), "{mode:?} {seed}: {a:?} {b:?}");
            assert_eq!(a.result, b.result);
            let (e0, e1) = (game_events(&p, 0), game_events(&p, 1));
            assert_eq!(e0.last(), e1.last());
            assert!(
                e1.iter().any(|e| matches!(e, Event::TimedOut { .. })),
                "{mode:?} {seed}"
            );
        }
    }
}

/// The host's room rules reach the guest with the game: a host who switches the inference
/// board off switches it off for both.
#[test]
fn the_hosts_rules_bind_the_guest_inference_board_included() {
    let rules = Rules {
        inference_board: false,
        move_seconds: 45,
        ..Rules::for_mode(Mode::Dark)
    };
    let mut p = Pair::new(rules, 31);
    p.run(400);
    for s in &p.sessions {
        assert_eq!(*s.rules(), rules);
        assert!(!s.rules().inference_board);
    }
}
