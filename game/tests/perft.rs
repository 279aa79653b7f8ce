//! Perft counts from the data files in `tests/perft/`: each `NAME.perft`
//! names a position file and lists `perft DEPTH COUNT` lines; the hand
//! derivation of the first levels is the comment block above them.
//!
//! The quick test runs every count up to [`QUICK_LIMIT`] leaves; the deep
//! test runs all of them (a few seconds in a debug build).

use junqi_game::{Mode, Move, Point, Position, Side, perft, perft_divide, position_from_json};
use std::path::{Path, PathBuf};

const QUICK_LIMIT: u64 = 150_000;

struct Case {
    file: PathBuf,
    position: String,
    counts: Vec<(u32, u64)>,
}

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/perft")
}

fn cases() -> Vec<Case> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir())
        .expect("tests/perft exists")
        .map(|e| e.expect("readable").path())
        .filter(|p| p.extension().is_some_and(|e| e == "perft"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|file| {
            let text = std::fs::read_to_string(&file).expect("readable");
            let mut position = None;
            let mut counts = Vec::new();
            for (n, line) in text.lines().enumerate() {
                let line = line.trim();
                if line.is_empty() || line.starts_with('#') {
                    continue;
                }
                let words: Vec<&str> = line.split_whitespace().collect();
                match words.as_slice() {
                    ["position", name] => position = Some(name.to_string()),
                    ["perft", depth, count] => {
                        counts.push((depth.parse().expect("depth"), count.parse().expect("count")))
                    }
                    _ => panic!("{}:{}: cannot read {line:?}", file.display(), n + 1),
                }
            }
            Case {
                position: position.unwrap_or_else(|| panic!("{}: no position", file.display())),
                file,
                counts,
            }
        })
        .collect()
}

fn run(limit: u64) {
    let all = cases();
    assert!(all.len() >= 5, "the perft data files are missing");
    for case in all {
        let json = std::fs::read_to_string(dir().join(&case.position)).expect("position file");
        let pos =
            position_from_json(&json).unwrap_or_else(|e| panic!("{}: {e}", case.file.display()));
        for &(depth, expected) in &case.counts {
            if expected > limit {
                continue;
            }
            assert_eq!(
                perft(&pos, depth),
                expected,
                "{} depth {depth}",
                case.file.display()
            );
        }
    }
}

#[test]
fn perft_counts_match_the_data_files() {
    run(QUICK_LIMIT);
}

#[test]
fn deep_perft_counts_match_the_data_files() {
    run(u64::MAX);
}

#[test]
fn divide_sums_to_perft() {
    let json = std::fs::read_to_string(dir().join("rail_engineers.json")).unwrap();
    let pos = position_from_json(&json).unwrap();
    let divide = perft_divide(&pos, 2);
    assert_eq!(divide.len(), 24);
    assert_eq!(divide.iter().map(|d| d.1).sum::<u64>(), 642);
}

/// Perft from the independent legality check alone: every (from, to) pair
/// and every flip the checker accepts, no move generator involved.
fn perft_by_check(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let over = (pos.is_team_game() && pos.result().is_some())
        || pos.flag_captured().is_some()
        || pos.quiet_plies() >= pos.rules().quiet_draw_plies
        || (pos.rules().mode == Mode::Flip
            && pos.colours_fixed()
            && !(pos.has_movable_piece(Side::South) && pos.has_movable_piece(Side::North)));
    if over {
        return 0;
    }
    let n = pos.board().len() as u8;
    let mut total = 0;
    for a in 0..n {
        // An empty point has neither a step nor a flip (check would say so
        // too; skipping it keeps the 129-point board quick).
        if pos.at(Point(a)).is_none() {
            continue;
        }
        let mut candidates = vec![Move::Flip { at: Point(a) }];
        candidates.extend((0..n).map(|b| Move::Step {
            from: Point(a),
            to: Point(b),
        }));
        for m in candidates {
            if pos.check(m).is_ok() {
                total += if depth == 1 {
                    1
                } else {
                    let mut child = pos.clone();
                    child.play(m).expect("checked");
                    perft_by_check(&child, depth - 1)
                };
            }
        }
    }
    total
}

#[test]
fn the_checker_alone_gives_the_same_counts() {
    for case in cases() {
        let json = std::fs::read_to_string(dir().join(&case.position)).unwrap();
        let pos = position_from_json(&json).unwrap();
        for &(depth, expected) in &case.counts {
            if depth <= 3 && expected <= 40_000 {
                assert_eq!(
                    perft_by_check(&pos, depth),
                    expected,
                    "{} depth {depth}",
                    case.file.display()
                );
            }
        }
    }
}
