//! Tests of move generation, checking and playing, and results.

use super::*;
use crate::rules::{FlagCapture, MineRule, Outcome};
use Rank::*;
use Side::{North as N, South as S};

fn pt(name: &str) -> Point {
    Board::classic().parse_point(name).unwrap()
}

/// A position from (point, side, rank) triples; South to move.
fn position(rules: Rules, pieces: &[(&str, Side, Rank)]) -> Position {
    let mut pos = Position::empty(Board::classic(), rules, S);
    for (i, &(p, side, rank)) in pieces.iter().enumerate() {
        pos.set(
            pt(p),
            Some(Piece {
                side,
                rank,
                face_up: true,
                id: PieceId(i as u8),
            }),
        );
    }
    pos
}

/// The sorted destination names of the piece on `from`.
fn targets(pos: &Position, from: &str) -> Vec<String> {
    let mut v: Vec<String> = pos
        .moves_from(pt(from))
        .iter()
        .map(|m| match *m {
            Move::Step { to, .. } => Board::classic().name_of(to).to_string(),
            Move::Flip { at } => format!("flip {}", Board::classic().name_of(at)),
        })
        .collect();
    v.sort();
    v
}

fn step(from: &str, to: &str) -> Move {
    Move::Step {
        from: pt(from),
        to: pt(to),
    }
}

#[test]
fn road_step_from_a_station() {
    let pos = position(Rules::default(), &[("S43", S, Platoon)]);
    // 43 touches camps 42, 44, 33 by road (no diagonals from a station) and 53 on row 5.
    assert_eq!(targets(&pos, "S43"), ["S33", "S42", "S44", "S53"]);
}

#[test]
fn railway_runs_straight_and_stops_at_the_first_piece() {
    let pos = position(
        Rules::default(),
        &[("S51", S, Corps), ("S21", S, Platoon), ("S54", N, Engineer)],
    );
    // Column 1 up to 31 (21 is own), row 5 to 52, 53 and the attack on 54; road 42 (camp) and 61.
    assert_eq!(
        targets(&pos, "S51"),
        ["S31", "S41", "S42", "S52", "S53", "S54", "S61"]
    );
}

#[test]
fn long_railway_crosses_the_mountain_straight() {
    let pos = position(Rules::default(), &[("S51", S, Corps)]);
    let t = targets(&pos, "S51");
    assert!(t.contains(&"N55".to_string()));
    assert!(t.contains(&"S55".to_string()));
    // Turning the corner at 11 into row 1 is not straight.
    assert!(!t.contains(&"S12".to_string()));
    assert!(!t.contains(&"N14".to_string()));
}

#[test]
fn engineers_turn_corners_through_empty_rail_points() {
    let pos = position(
        Rules::default(),
        &[("S51", S, Engineer), ("S13", N, Bomb), ("S11", S, Platoon)],
    );
    let t = targets(&pos, "S51");
    // Row 5, up column 5, across into North's half, along North's row 1.
    for p in [
        "S55", "S15", "S14", "S13", "N11", "N13", "N15", "N55", "N51", "S21",
    ] {
        assert!(t.contains(&p.to_string()), "{p} missing from {t:?}");
    }
    // 12 lies behind the enemy on 13 and the own piece on 11.
    assert!(!t.contains(&"S12".to_string()));
    assert!(pos.is_legal(step("S51", "S13")));
    assert!(!pos.is_legal(step("S51", "S12")));
    // The same paths are not open to other pieces.
    let pos2 = position(Rules::default(), &[("S51", S, Corps)]);
    assert!(!pos2.is_legal(step("S51", "S12")));
    assert!(!pos2.is_legal(step("S51", "N11")));
}

#[test]
fn the_generator_runs_unchanged_on_the_four_player_board() {
    let b = Board::four_player();
    let q = |n: &str| b.parse_point(n).unwrap();
    let mut pos = Position::empty(b, Rules::default(), S);
    let piece = |rank| {
        Some(Piece {
            side: S,
            rank,
            face_up: true,
            id: PieceId(0),
        })
    };
    pos.set(q("S:51"), piece(Engineer));
    // An engineer on an empty board reaches every other railway point, plus its road step.
    let rail_points = b.points().filter(|&p| b.info(p).rail).count();
    assert_eq!(pos.moves_from(q("S:51")).len(), rail_points - 1 + 2);
    // A straight mover follows the curve line from S:35 to E:31 (BOARD4.md §3).
    pos.set(q("S:51"), None);
    pos.set(q("S:35"), piece(Corps));
    let moves = pos.moves_from(q("S:35"));
    assert!(moves.contains(&Move::Step {
        from: q("S:35"),
        to: q("E:31")
    }));
    assert!(moves.contains(&Move::Step {
        from: q("S:35"),
        to: q("N:51")
    }));
    assert!(!moves.contains(&Move::Step {
        from: q("S:35"),
        to: q("C:8")
    }));
}

#[test]
fn camps_are_entered_only_when_empty_and_never_attacked() {
    let pos = position(
        Rules::default(),
        &[
            ("S43", S, Commander),
            ("S42", N, Platoon),
            ("S33", N, Engineer),
        ],
    );
    let t = targets(&pos, "S43");
    assert!(!t.contains(&"S42".to_string()));
    assert!(!t.contains(&"S33".to_string()));
    assert!(t.contains(&"S44".to_string()));
    assert_eq!(pos.check(step("S43", "S42")), Err(IllegalMove::Unreachable));
}

#[test]
fn camp_diagonals_work_both_ways() {
    let pos = position(
        Rules::default(),
        &[("S33", S, Platoon), ("S11", S, Company)],
    );
    assert_eq!(
        targets(&pos, "S33"),
        ["S22", "S23", "S24", "S32", "S34", "S42", "S43", "S44"]
    );
    assert!(targets(&pos, "S11").contains(&"S22".to_string()));
}

#[test]
fn mines_flags_and_headquarters_pieces_never_move() {
    let pos = position(
        Rules::default(),
        &[("S51", S, Landmine), ("S62", S, Flag), ("S64", S, Corps)],
    );
    assert!(pos.legal_moves().is_empty());
    assert_eq!(pos.check(step("S51", "S41")), Err(IllegalMove::Immovable));
    assert_eq!(pos.check(step("S64", "S54")), Err(IllegalMove::Immovable));
    let exit = Rules {
        hq_exit: true,
        ..Rules::default()
    };
    let pos = position(
        exit,
        &[("S51", S, Landmine), ("S62", S, Flag), ("S64", S, Corps)],
    );
    assert_eq!(targets(&pos, "S64"), ["S54", "S63", "S65"]);
    assert!(targets(&pos, "S62").is_empty());
}

#[test]
fn a_piece_that_enters_a_headquarters_is_locked() {
    let mut pos = position(
        Rules::default(),
        &[("N52", S, Division), ("S11", N, Platoon)],
    );
    pos.play(step("N52", "N62")).unwrap();
    pos.play(step("S11", "S21")).unwrap();
    assert!(targets(&pos, "N62").is_empty());
}

#[test]
fn flying_bombs_run_like_engineers() {
    let rules = Rules {
        flying_bombs: true,
        ..Rules::default()
    };
    let pos = position(rules, &[("S51", S, Bomb)]);
    assert!(targets(&pos, "S51").contains(&"S12".to_string()));
    let plain = position(Rules::default(), &[("S51", S, Bomb)]);
    assert!(!targets(&plain, "S51").contains(&"S12".to_string()));
}

#[test]
fn no_own_targets() {
    let pos = position(Rules::default(), &[("S53", S, Corps), ("S43", S, Platoon)]);
    assert!(!targets(&pos, "S53").contains(&"S43".to_string()));
    assert_eq!(pos.check(step("S53", "S43")), Err(IllegalMove::Unreachable));
}

#[test]
fn battles_apply_the_table() {
    let mut pos = position(
        Rules::default(),
        &[("S13", S, Division), ("N13", N, Brigade)],
    );
    let e = pos.play(step("S13", "N13")).unwrap();
    assert!(matches!(e, Effect::Battle { clash, .. } if clash.outcome == Outcome::AttackerWins));
    assert_eq!(pos.at(pt("N13")).unwrap().rank, Division);
    assert_eq!(pos.at(pt("S13")), None);
    assert_eq!(pos.quiet_plies(), 0);

    let mut pos = position(
        Rules::default(),
        &[("S13", S, Engineer), ("N13", N, Landmine)],
    );
    pos.play(step("S13", "N13")).unwrap();
    assert_eq!(pos.at(pt("N13")).unwrap().rank, Engineer);

    let mut pos = position(Rules::default(), &[("S13", S, Corps), ("N13", N, Landmine)]);
    pos.play(step("S13", "N13")).unwrap();
    assert_eq!(pos.at(pt("N13")).unwrap().rank, Landmine);
    assert_eq!(pos.at(pt("S13")), None);

    let trades = Rules {
        mines: MineRule::Trades,
        ..Rules::default()
    };
    let mut pos = position(trades, &[("S13", S, Corps), ("N13", N, Landmine)]);
    pos.play(step("S13", "N13")).unwrap();
    assert_eq!(pos.at(pt("N13")), None);
}

#[test]
fn capturing_the_flag_ends_the_game() {
    let mut pos = position(
        Rules::default(),
        &[("N52", S, Platoon), ("N62", N, Flag), ("N11", N, Corps)],
    );
    pos.play(step("N52", "N62")).unwrap();
    assert_eq!(pos.flag_captured(), Some(N));
    assert_eq!(
        pos.result(),
        Some(GameResult::Win {
            winner: S,
            reason: WinReason::FlagCaptured
        })
    );
    assert!(pos.legal_moves().is_empty());
}

#[test]
fn refused_flag_attack_kills_the_attacker() {
    let rules = Rules {
        flag_capture: FlagCapture::NotCommander,
        ..Rules::default()
    };
    let mut pos = position(
        rules,
        &[("N52", S, Commander), ("N62", N, Flag), ("N11", N, Corps)],
    );
    pos.play(step("N52", "N62")).unwrap();
    assert_eq!(pos.flag_captured(), None);
    assert_eq!(pos.at(pt("N62")).unwrap().rank, Flag);
    assert_eq!(pos.at(pt("N52")), None);
}

#[test]
fn no_legal_move_loses_and_nobody_moving_draws() {
    let pos = position(Rules::default(), &[("S51", S, Landmine), ("N11", N, Corps)]);
    assert_eq!(
        pos.result(),
        Some(GameResult::Win {
            winner: N,
            reason: WinReason::NoLegalMove
        })
    );
    let pos = position(
        Rules::default(),
        &[("S51", S, Landmine), ("N51", N, Landmine)],
    );
    assert_eq!(
        pos.result(),
        Some(GameResult::Draw {
            reason: DrawReason::NoMovesEither
        })
    );
}

#[test]
fn quiet_moves_draw() {
    let mut pos = position(Rules::default(), &[("S53", S, Corps), ("N53", N, Corps)]);
    pos.set_counters(59, 59);
    assert_eq!(pos.result(), None);
    pos.play(step("S53", "S43")).unwrap();
    assert_eq!(
        pos.result(),
        Some(GameResult::Draw {
            reason: DrawReason::QuietMoves
        })
    );
}

#[test]
fn illegal_play_leaves_the_position_untouched() {
    let mut pos = position(Rules::default(), &[("S53", S, Corps), ("N53", N, Corps)]);
    let before = pos.clone();
    assert_eq!(pos.play(step("N53", "N43")), Err(IllegalMove::NotYourPiece));
    assert_eq!(pos.play(step("S53", "S31")), Err(IllegalMove::Unreachable));
    assert_eq!(
        pos.play(Move::Flip { at: pt("S53") }),
        Err(IllegalMove::NotFlippable)
    );
    assert_eq!(pos, before);
}

fn face_down(pos: &mut Position, p: &str, side: Side, rank: Rank, id: u8) {
    pos.set(
        pt(p),
        Some(Piece {
            side,
            rank,
            face_up: false,
            id: PieceId(id),
        }),
    );
}

#[test]
fn flip_attacks_on_face_down_pieces() {
    let rules = Rules::for_mode(Mode::Flip);
    let mut pos = position(rules, &[("S53", S, Corps)]);
    pos.set_colours_fixed(true);
    face_down(&mut pos, "S43", S, Platoon, 40);
    face_down(&mut pos, "S52", N, Platoon, 41);
    face_down(&mut pos, "N11", N, Engineer, 42);
    // Own colour under the tile: void, the piece is turned over, the turn ends.
    let e = pos.play(step("S53", "S43")).unwrap();
    assert!(matches!(e, Effect::VoidAttack { .. }));
    assert!(pos.at(pt("S43")).unwrap().face_up);
    assert_eq!(pos.at(pt("S53")).unwrap().rank, Corps);
    assert_eq!(pos.turn(), N);
    pos.play(Move::Flip { at: pt("N11") }).unwrap();
    // Enemy under the tile: a real battle.
    let e = pos.play(step("S53", "S52")).unwrap();
    assert!(matches!(
        e,
        Effect::Battle {
            defender_was_face_down: true,
            ..
        }
    ));
    assert_eq!(pos.at(pt("S52")).unwrap().rank, Corps);

    let immune = Rules {
        facedown_immune: true,
        ..rules
    };
    let mut pos = position(immune, &[("S53", S, Corps)]);
    pos.set_colours_fixed(true);
    face_down(&mut pos, "S43", N, Platoon, 40);
    assert!(!targets(&pos, "S53").contains(&"S43".to_string()));
}

#[test]
fn flip_flag_is_guarded_while_its_mines_live() {
    let rules = Rules::for_mode(Mode::Flip);
    let mut pos = position(
        rules,
        &[("N52", S, Corps), ("N62", N, Flag), ("N11", N, Landmine)],
    );
    pos.set_colours_fixed(true);
    assert!(!targets(&pos, "N52").contains(&"N62".to_string()));
    let mut pos = position(
        rules,
        &[("N52", S, Corps), ("N62", N, Flag), ("N11", N, Platoon)],
    );
    pos.set_colours_fixed(true);
    assert!(targets(&pos, "N52").contains(&"N62".to_string()));
    pos.play(step("N52", "N62")).unwrap();
    assert_eq!(pos.flag_captured(), Some(N));
}

#[test]
fn flip_pieces_leave_headquarters_and_flip_no_suicide() {
    let rules = Rules {
        no_suicide: true,
        ..Rules::for_mode(Mode::Flip)
    };
    let mut pos = position(
        rules,
        &[
            ("S62", S, Platoon),
            ("S61", N, Corps),
            ("S63", N, Landmine),
            ("S52", N, Engineer),
        ],
    );
    pos.set_colours_fixed(true);
    let t = targets(&pos, "S62");
    assert!(!t.contains(&"S61".to_string()), "suicide attack allowed");
    assert!(
        !t.contains(&"S63".to_string()),
        "a platoon may not attack a face-up mine"
    );
    assert!(t.contains(&"S52".to_string()));
}

#[test]
fn flip_no_suicide_allows_trades_such_as_a_bomb_on_a_mine() {
    let rules = Rules {
        no_suicide: true,
        ..Rules::for_mode(Mode::Flip)
    };
    let mut pos = position(
        rules,
        &[
            ("S62", S, Bomb),
            ("S63", N, Landmine),
            ("S53", S, Engineer),
            ("S52", N, Landmine),
            ("S55", S, Regiment),
            ("S65", N, Landmine),
            ("S54", N, Regiment),
            ("S45", N, Division),
        ],
    );
    pos.set_colours_fixed(true);
    let bomb = targets(&pos, "S62");
    assert!(bomb.contains(&"S63".to_string()), "bomb on a face-up mine");
    let engineer = targets(&pos, "S53");
    assert!(engineer.contains(&"S63".to_string()), "engineer on a mine");
    let regiment = targets(&pos, "S55");
    assert!(!regiment.contains(&"S65".to_string()), "regiment on a mine");
    assert!(
        !regiment.contains(&"S45".to_string()),
        "regiment on a division"
    );
    assert!(
        regiment.contains(&"S54".to_string()),
        "regiment trades regiment"
    );
    let mut played = pos.clone();
    played.play(step("S62", "S63")).unwrap();
    assert!(played.at(pt("S63")).is_none(), "bomb and mine both removed");
}

#[test]
fn first_flip_decides_colours() {
    let rules = Rules::for_mode(Mode::Flip);
    let arrangement: [u8; 50] = std::array::from_fn(|i| (49 - i) as u8);
    let mut pos = Position::new_flip(rules, &arrangement, S).unwrap();
    assert!(!pos.colours_fixed());
    // The first non-camp point of South's half holds id 49: North's colour (the flag).
    let first = Board::classic().setup_points(S)[0];
    let e = pos.play(Move::Flip { at: first }).unwrap();
    assert!(matches!(e, Effect::Flipped { piece, .. } if piece.side == S));
    assert!(pos.colours_swapped());
    assert_eq!(pos.mines_left(S), 3);
    assert_eq!(pos.turn(), N);
    assert!(Position::new_flip(rules, &[0; 50], S).is_none());
}

#[test]
fn flip_side_without_movable_pieces_loses() {
    let rules = Rules::for_mode(Mode::Flip);
    let mut pos = position(rules, &[("S53", S, Corps), ("N53", N, Landmine)]);
    pos.set_colours_fixed(true);
    assert_eq!(
        pos.result(),
        Some(GameResult::Win {
            winner: S,
            reason: WinReason::NoMovablePieces
        })
    );
}

/// A random position: pieces of random sides and ranks scattered over
/// `board` (face down at random in flip games) under random rule options.
fn scattered(board: &'static Board, rng: &mut rand_pcg::Pcg64Mcg) -> Position {
    use rand::Rng;
    let four = board.sides().len() == 4;
    // Flip games are two-player only.
    let mode = [Mode::Dark, Mode::Open, Mode::Flip][rng.random_range(0..if four { 2 } else { 3 })];
    let rules = Rules {
        mode,
        flying_bombs: rng.random_bool(0.3),
        hq_exit: rng.random_bool(0.3),
        facedown_immune: rng.random_bool(0.3),
        no_suicide: rng.random_bool(0.3),
        clockwise: rng.random_bool(0.3),
        ..Rules::default()
    };
    let sides = board.sides();
    let turn = sides[rng.random_range(0..sides.len())];
    let mut pos = Position::empty(board, rules, turn);
    let density = rng.random_range(0.05..0.8);
    for (i, p) in board.points().enumerate() {
        if rng.random_bool(density) {
            let piece = Piece {
                side: sides[rng.random_range(0..sides.len())],
                rank: Rank::ALL[rng.random_range(0..12)],
                face_up: mode != Mode::Flip || rng.random_bool(0.6),
                id: PieceId(i as u8),
            };
            pos.set(p, Some(piece));
        }
    }
    pos.set_colours_fixed(true);
    if four && rng.random_bool(0.3) {
        pos.set_out(sides[rng.random_range(0..4)], WinReason::Resignation);
    }
    pos
}

/// The one-word generator, the [`PointSet`] generator, the move sets and
/// the path-by-path [`Position::check`] all give the same moves in the
/// same order (steps by starting point, then target, then flips).
fn assert_generators_agree(pos: &Position) {
    let board = pos.board();
    let mut by_check = Vec::new();
    for from in board.points() {
        for to in board.points() {
            let m = Move::Step { from, to };
            if pos.check(m).is_ok() {
                by_check.push(m);
            }
        }
    }
    for at in board.points() {
        if pos.check(Move::Flip { at }).is_ok() {
            by_check.push(Move::Flip { at });
        }
    }
    let fast = pos.legal_moves();
    assert_eq!(
        fast.as_slice(),
        by_check.as_slice(),
        "legal_moves of {pos:?}"
    );
    let generic = pos.legal_moves_generic();
    assert_eq!(
        generic.as_slice(),
        by_check.as_slice(),
        "generic of {pos:?}"
    );
    assert_eq!(pos.legal_move_count(), by_check.len());
    let sets = pos.legal_move_sets();
    assert_eq!(sets.len(), by_check.len(), "{pos:?}");
    assert_eq!(sets.is_empty(), by_check.is_empty());
    let picked: Vec<Move> = (0..sets.len()).filter_map(|k| sets.get(k)).collect();
    assert_eq!(picked, by_check, "MoveSets::get of {pos:?}");
    assert_eq!(sets.get(sets.len()), None);
    assert_eq!(sets.iter().collect::<Vec<_>>(), by_check);
    assert!(by_check.iter().all(|&m| sets.contains(m)));
    let steps: usize = sets.steps().map(|(_, t)| t.len()).sum();
    assert_eq!(steps + sets.flips().len(), sets.len());
    if !pos.over() {
        assert_eq!(pos.has_legal_move(pos.turn()), !by_check.is_empty());
    }
    for from in board.points() {
        let mine: Vec<Move> = by_check
            .iter()
            .copied()
            .filter(|m| matches!(m, Move::Step { from: f, .. } if *f == from))
            .collect();
        assert_eq!(pos.moves_from(from).as_slice(), mine.as_slice());
    }
}

#[test]
fn fast_generator_matches_check_on_scattered_positions() {
    use rand::SeedableRng;
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(11);
    assert!(Board::classic().small().is_some());
    for _ in 0..600 {
        assert_generators_agree(&scattered(Board::classic(), &mut rng));
    }
}

#[test]
fn generator_matches_check_on_the_four_player_board() {
    use rand::SeedableRng;
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(12);
    assert!(Board::four_player().small().is_none());
    for _ in 0..150 {
        let pos = scattered(Board::four_player(), &mut rng);
        assert_generators_agree(&pos);
        // Partners' pieces are never targets.
        for m in pos.legal_moves() {
            if let Move::Step { to, .. } = m
                && let Some(target) = pos.at(to)
            {
                assert_ne!(target.side.team(), pos.turn().team(), "{pos:?}");
            }
        }
    }
}

#[test]
fn generator_matches_check_in_random_four_player_games() {
    use crate::layout::Layout;
    use rand::seq::IndexedRandom;
    use rand::{Rng, SeedableRng};
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(14);
    for game in 0..6 {
        let rules = Rules {
            flying_bombs: game % 2 == 1,
            hq_exit: game % 3 == 2,
            clockwise: game % 4 == 3,
            ..Rules::four_player([Mode::Dark, Mode::Open][game % 2])
        };
        let deps: Vec<_> = (0..4)
            .map(|_| Layout::random(&rules, &mut rng).validate(&rules).unwrap())
            .collect();
        let mut pos = Position::new_four(rules, [&deps[0], &deps[1], &deps[2], &deps[3]], S);
        for ply in 0.. {
            assert!(pos.is_consistent(), "game {game} ply {ply}");
            if ply % 7 == 0 || rng.random_bool(0.03) {
                assert_generators_agree(&pos);
            }
            if pos.result().is_some() {
                break;
            }
            let moves = pos.legal_moves();
            let &m = moves.choose(&mut rng).expect("the seat to move can move");
            pos.play_unchecked(m);
        }
    }
}

#[test]
fn fast_generator_matches_check_in_random_games() {
    use crate::layout::Layout;
    use rand::seq::IndexedRandom;
    use rand::{Rng, SeedableRng};
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(13);
    for game in 0..12 {
        let mode = [Mode::Dark, Mode::Open, Mode::Flip][game % 3];
        let rules = Rules {
            flying_bombs: game % 4 == 1,
            hq_exit: game % 5 == 2,
            no_suicide: game % 6 == 5,
            ..Rules::for_mode(mode)
        };
        let mut pos = if mode == Mode::Flip {
            let mut arrangement: [u8; 50] = std::array::from_fn(|i| i as u8);
            rand::seq::SliceRandom::shuffle(&mut arrangement[..], &mut rng);
            Position::new_flip(rules, &arrangement, S).unwrap()
        } else {
            let a = Layout::random(&rules, &mut rng).validate(&rules).unwrap();
            let b = Layout::random(&rules, &mut rng).validate(&rules).unwrap();
            Position::new(rules, &a, &b, S)
        };
        for ply in 0.. {
            // The derived sets (sides, face-down, immobile, rail
            // runners) follow every move.
            assert!(pos.is_consistent(), "game {game} ply {ply}");
            if ply % 5 == 0 || rng.random_bool(0.05) {
                assert_generators_agree(&pos);
            }
            let moves = pos.legal_moves();
            let Some(&m) = moves.choose(&mut rng) else {
                break;
            };
            if rules.is_quiet_draw(pos.quiet_plies()) {
                break;
            }
            pos.play_unchecked(m);
        }
    }
}
