//! Two players on the four-player board (QQ 两人 rooms, RULES.md §9):
//! South against North meeting through the centre, East and West empty,
//! in dark, open and flip games.

use Side::{North as N, South as S};
use junqi_game::notation::{annotate, movetext_on, parse_movetext_on};
use junqi_game::*;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

fn rules(mode: Mode) -> Rules {
    Rules {
        four_player_board: true,
        ..Rules::for_mode(mode)
    }
}

fn pt(name: &str) -> Point {
    Board::four_player().parse_point(name).unwrap()
}

#[test]
fn south_and_north_meet_through_the_centre() {
    let c = classic_layouts();
    let game = Game::new(rules(Mode::Dark), c[0].layout, c[1].layout, S).unwrap();
    let pos = game.position();
    assert!(std::ptr::eq(pos.board(), Board::four_player()));
    assert!(!pos.is_team_game());
    assert!(pos.is_in(S) && pos.is_in(N) && !pos.is_in(Side::East) && !pos.is_in(Side::West));
    assert!(
        pos.pieces()
            .all(|(p, pc)| pos.board().info(p).half == Some(pc.side))
    );
    assert_eq!(pos.pieces().count(), 50);
    // Layout 001's front corners run into the centre; the curves lead into
    // the empty East and West halves.
    let moves = pos.legal_moves();
    for (from, to) in [
        ("S:11", "C:1"),
        ("S:13", "C:2"),
        ("S:15", "E:11"),
        ("S:11", "W:15"),
    ] {
        assert!(
            moves.contains(&Move::Step {
                from: pt(from),
                to: pt(to)
            }),
            "{from} → {to}"
        );
    }
    // North's pieces are enemies: S:13 runs up line 9 and attacks N:13.
    assert!(pos.is_legal(Move::Step {
        from: pt("S:13"),
        to: pt("N:13")
    }));
    // The views are on the same board.
    let v = game.view(N);
    assert!(std::ptr::eq(v.board(), Board::four_player()));
    assert!(!v.is_team_game());
}

fn play_random(mode: Mode, seed: u64) {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let rules = rules(mode);
    let mut game = if mode == Mode::Flip {
        Game::new_flip_shuffled(rules, S, &mut rng)
    } else {
        Game::new(
            rules,
            Layout::random(&rules, &mut rng),
            Layout::random(&rules, &mut rng),
            S,
        )
        .unwrap()
    };
    let mut views = [game.view(S), game.view(N)];
    while game.result().is_none() {
        let side = game.turn();
        assert!(side == S || side == N);
        let moves = game.position().legal_moves();
        let action = if rng.random_bool(0.01) {
            Action::Timeout
        } else {
            Action::Move(*moves.choose(&mut rng).expect("a move"))
        };
        let events = game.apply(side, action).unwrap();
        for v in views.iter_mut() {
            for e in &events {
                v.apply(e).unwrap();
            }
        }
        let pos = game.position();
        assert!(pos.is_consistent());
        assert!(pos.pieces().all(|(_, pc)| pc.side == S || pc.side == N));
        for v in &views {
            assert_eq!(v.ply(), pos.ply());
            if v.turn() == v.me() && game.result().is_none() {
                let mut a = v.legal_moves().to_vec();
                let mut b = pos.legal_moves().to_vec();
                a.sort_by_key(|m| format!("{m:?}"));
                b.sort_by_key(|m| format!("{m:?}"));
                assert_eq!(a, b);
            }
            for (p, pc) in pos.pieces() {
                match v.at(p) {
                    Some(Seen::FaceDown) => assert!(!pc.face_up),
                    Some(Seen::Piece { side, id, rank }) => {
                        assert_eq!((side, id), (pc.side, pc.id));
                        assert!(rank.is_none_or(|r| r == pc.rank));
                    }
                    None => panic!("the view misses a piece"),
                }
            }
        }
    }
    let record = game.record().clone();
    let replayed = Game::replay(&record, None).unwrap();
    assert_eq!(replayed.position(), game.position());
    // The movetext names four-player points and reads back.
    let written = annotate(&record).unwrap();
    let text = movetext_on(Board::four_player(), &written);
    let parsed = parse_movetext_on(Board::four_player(), &text, record.first).unwrap();
    assert_eq!(parsed, written);
    assert_eq!(notation::record_movetext(&record).unwrap(), text);
}

#[test]
fn random_dark_open_and_flip_games_on_the_four_player_board() {
    for seed in 0..6 {
        play_random(Mode::Dark, seed);
    }
    for seed in 0..3 {
        play_random(Mode::Open, 10 + seed);
        play_random(Mode::Flip, 20 + seed);
    }
}

#[test]
fn position_files_and_the_ai_know_the_board_option() {
    let text = r#"{
        "rules": {"four_player_board": true},
        "turn": "north",
        "pieces": {"south": {"C5": "engineer", "S62": "flag"},
                   "north": {"N62": "flag", "N53": "corps"}}
    }"#;
    let pos = position_from_json(text).unwrap();
    assert!(std::ptr::eq(pos.board(), Board::four_player()) && !pos.is_team_game());
    assert_eq!(pos.turn(), N);
    let saved = position_to_json(&pos);
    assert!(!saved.contains("\"out\""));
    assert_eq!(position_from_json(&saved).unwrap(), pos);
    for bad in [
        r#"{"rules": {"four_player_board": true}, "pieces": {"east": {"E11": "40"}}}"#,
        r#"{"rules": {"four_player_board": true}, "turn": "west", "pieces": {}}"#,
        r#"{"board": "classic", "rules": {"four_player_board": true}, "pieces": {}}"#,
    ] {
        assert!(position_from_json(bad).is_err(), "{bad}");
    }
    // The AI plays here too (tests/ai_big_board.rs).
    let c = classic_layouts();
    let game = Game::new(rules(Mode::Dark), c[0].layout, c[1].layout, S).unwrap();
    let mut ai = ai::Ai::new(ai::Level::Novice, 1);
    let m = ai.choose_move(&game.view(S), &|| false).expect("a move");
    assert!(game.position().is_legal(m));
}
