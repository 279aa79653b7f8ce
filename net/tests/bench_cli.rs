//! `junqi-net-bench`'s command line: its flags and JSON line as `scripts/bench.sh` reads
//! them, and bad usage refused.

#[path = "../../game/tests/readme_help/mod.rs"]
mod readme_help;

use std::process::{Command, Output};

fn bench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_junqi-net-bench"))
        .args(args)
        .output()
        .expect("junqi-net-bench runs")
}

#[test]
fn the_json_line_keeps_its_fields() {
    let out = bench(&["--json", "--battles", "20", "--no-net"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Off a terminal: no progress line on standard error.
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(
        text.starts_with("{\"battles\":20,\"attacker_ms_median\":"),
        "{text}"
    );
    for key in [
        "defender_ms_median",
        "battle_total_ms_median",
        "quic_move_round_trip_ms_median\":NaN",
        "round_trip_samples\":0",
        "discovery_ms\":NaN",
        "flip_game_ms",
        "flip_opening_ms",
        "four_attacker_ms_median",
        "four_defender_ms_median",
        "four_watcher_ms_median",
        "four_move_round_trip_ms_median\":NaN",
    ] {
        assert!(text.contains(key), "{key} missing: {text}");
    }
}

#[test]
fn the_text_report_piped_has_no_progress_line() {
    let out = bench(&["--battles", "20", "--no-net"]);
    assert!(out.status.success());
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("battles measured: 20\n"), "{text}");
}

#[test]
fn bad_usage_exits_2_with_a_message() {
    for (args, needles) in [
        (
            &["--jsn"][..],
            &["unexpected argument '--jsn'", "'--json'"][..],
        ),
        (&["--battles", "0"], &["--battles <N>", "1..="]),
        (&["--battles", "many"], &["invalid value 'many'"]),
        (&["--battles"], &["a value is required"]),
    ] {
        let out = bench(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        for n in needles {
            assert!(err.contains(n), "{args:?}: {n} missing: {err}");
        }
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn the_readme_shows_the_help() {
    let block = readme_help::help_block(
        "junqi-net-bench",
        env!("CARGO_BIN_EXE_junqi-net-bench"),
        &[],
    );
    let readme = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    readme_help::check_block(&readme, "junqi-net-bench", &block);
}
