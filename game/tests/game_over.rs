//! Once the quiet-move draw is reached the game is over for every part of
//! the engine (issue 51, fault b): before, `result()` said draw and perft
//! counted no move, but move generation, `check`, `play` and
//! `junqi-cli moves` still offered moves, and an attack played then reset
//! the counter and undid the draw.

use junqi_game::{DrawReason, GameResult, IllegalMove, Move, Position, perft, position_from_json};
use std::path::{Path, PathBuf};
use std::process::Command;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(name)
}

fn load(name: &str) -> Position {
    let text = std::fs::read_to_string(data(name)).expect("readable");
    position_from_json(&text).expect("a valid position")
}

fn quiet_draw() -> GameResult {
    GameResult::Draw {
        reason: DrawReason::QuietMoves,
    }
}

/// Asserts that every part of the engine sees `pos` as over, and that the
/// same position one quiet ply earlier had `attack` among its moves.
fn assert_over_everywhere(pos: &Position, attack: Move) {
    assert_eq!(pos.result(), Some(quiet_draw()));
    assert!(pos.legal_moves().is_empty());
    assert_eq!(pos.legal_move_count(), 0);
    assert!(pos.legal_move_sets().is_empty());
    assert_eq!(perft(pos, 1), 0);
    for (p, _) in pos.pieces() {
        assert!(pos.moves_from(p).is_empty(), "{p:?}");
    }
    assert_eq!(pos.check(attack), Err(IllegalMove::GameOver));
    assert!(!pos.is_legal(attack));
    let mut after = pos.clone();
    assert_eq!(after.play(attack), Err(IllegalMove::GameOver));
    assert_eq!(&after, pos, "a refused move leaves the position untouched");
    assert_eq!(after.result(), Some(quiet_draw()), "the draw stays");
}

/// The first attack among the legal moves of `pos`.
fn an_attack(pos: &Position) -> Move {
    *pos.legal_moves()
        .iter()
        .find(|m| matches!(m, Move::Step { to, .. } if pos.at(*to).is_some()))
        .expect("an attack")
}

#[test]
fn no_move_once_the_quiet_draw_is_reached() {
    let pos = load("data/quiet_draw_reached.json");
    let limit = pos.rules().quiet_draw_plies;
    assert_eq!(pos.quiet_plies(), limit);
    // One ply earlier the game is on and the commander may attack.
    let mut before = pos.clone();
    before.set_counters(pos.ply() - 1, limit - 1);
    assert_eq!(before.result(), None);
    let attack = an_attack(&before);
    assert_over_everywhere(&pos, attack);
    // Reaching the limit by playing a quiet move ends the game as well.
    let quiet = *before
        .legal_moves()
        .iter()
        .find(|m| matches!(m, Move::Step { to, .. } if before.at(*to).is_none()))
        .expect("a quiet move");
    let mut reached = before.clone();
    reached.play(quiet).unwrap();
    assert_eq!(reached.quiet_plies(), limit);
    assert_eq!(reached.result(), Some(quiet_draw()));
    assert!(reached.legal_moves().is_empty());
}

#[test]
fn no_move_once_the_quiet_draw_is_reached_in_a_team_game() {
    let mut pos = load("perft/four_centre_engineers.json");
    assert!(pos.is_team_game());
    let limit = pos.rules().quiet_draw_plies;
    pos.set_counters(limit - 1, limit - 1);
    assert_eq!(pos.result(), None);
    let some_move = pos.legal_moves()[0];
    pos.set_counters(limit, limit);
    assert_over_everywhere(&pos, some_move);
}

#[test]
fn the_cli_lists_no_move_once_the_quiet_draw_is_reached() {
    let file = data("data/quiet_draw_reached.json");
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_junqi-cli"))
            .args(args)
            .output()
            .expect("junqi-cli runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let path = file.to_string_lossy();
    assert_eq!(run(&["moves", &path]), "");
    assert_eq!(run(&["perft", &path, "1"]).trim(), "0");
}
