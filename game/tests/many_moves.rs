//! Positions with more legal moves than a move list holds inline (issue 51,
//! fault a): with flying bombs a valid army on the four-player board has
//! over 500 legal moves (a search found them; before the list could grow,
//! `Position::legal_moves` panicked with a capacity error on them).

use junqi_game::{MAX_MOVES, MoveList, Position, perft, perft_divide, position_from_json};
use std::path::{Path, PathBuf};
use std::process::Command;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn load(name: &str) -> Position {
    let text = std::fs::read_to_string(data(name)).expect("readable");
    position_from_json(&text).expect("a valid position")
}

const FILES: [&str; 2] = ["many_moves_four.json", "many_moves_two_on_four.json"];

#[test]
fn every_generator_lists_every_move_past_the_inline_capacity() {
    for name in FILES {
        let pos = load(name);
        assert!(pos.rules().flying_bombs, "{name}");
        let moves = pos.legal_moves();
        let n = moves.len();
        assert!(n > MAX_MOVES + 100, "{name}: only {n} moves");
        assert_eq!(n, pos.legal_move_count(), "{name}");
        let sets = pos.legal_move_sets();
        assert_eq!(sets.len(), n, "{name}");
        assert!(sets.iter().eq(moves.iter().copied()), "{name}");
        for (k, &m) in moves.iter().enumerate() {
            assert_eq!(sets.get(k), Some(m), "{name}: move {k}");
            assert_eq!(pos.check(m), Ok(()), "{name}: {m:?}");
        }
        // No move twice.
        let mut sorted = moves.to_vec();
        sorted.sort_by_key(|m| format!("{m:?}"));
        sorted.dedup();
        assert_eq!(sorted.len(), n, "{name}");
        // A reused list, cleared and filled again past the capacity.
        let mut reused = MoveList::new();
        pos.legal_moves_into(&mut reused);
        pos.legal_moves_into(&mut reused);
        assert_eq!(reused, moves, "{name}");
        // The per-piece lists add up to the whole.
        let per_piece: usize = pos.pieces().map(|(p, _)| pos.moves_from(p).len()).sum();
        assert_eq!(per_piece, n, "{name}");
        // Perft counts them, and divides over the whole list.
        assert_eq!(perft(&pos, 1), n as u64, "{name}");
        assert_eq!(perft_divide(&pos, 1).len(), n, "{name}");
    }
}

#[test]
fn the_cli_lists_every_move() {
    for name in FILES {
        let pos = load(name);
        let out = Command::new(env!("CARGO_BIN_EXE_junqi-cli"))
            .args(["moves", &data(name).to_string_lossy()])
            .output()
            .expect("junqi-cli runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{name}: {stderr}");
        let lines = String::from_utf8_lossy(&out.stdout).lines().count();
        assert_eq!(lines, pos.legal_move_count(), "{name}");
    }
}
