//! `junqi-net-fuzz`'s command line: bad usage is refused with clap's message and exit
//! status 2 (the hand-written parser ran a million inputs instead), a short run prints its
//! one line, and net/README.md shows its `--help`.

#[path = "../../../game/tests/readme_help/mod.rs"]
mod readme_help;

use std::process::{Command, Output};

const FUZZ: &str = env!("CARGO_BIN_EXE_junqi-net-fuzz");

fn fuzz(args: &[&str]) -> Output {
    Command::new(FUZZ)
        .args(args)
        .output()
        .expect("junqi-net-fuzz runs")
}

#[test]
fn bad_usage_exits_2_with_a_message() {
    for (args, needle) in [
        (
            &["--iteratoins", "5"][..],
            "unexpected argument '--iteratoins'",
        ),
        (&["many"], "invalid value 'many' for '[ITERATIONS]'"),
        (&["5", "seven"], "invalid value 'seven' for '[SEED]'"),
        (&["5", "1", "7"], "unexpected argument '7'"),
    ] {
        let out = fuzz(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {needle:?} not in {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

/// A short run prints its count and nothing on standard error when it is not a terminal.
#[test]
fn a_short_run_prints_one_line() {
    let out = fuzz(&["300", "3"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.starts_with("300 hostile inputs, no panic, "), "{text}");
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_readme_shows_the_help() {
    let out = fuzz(&["--help"]);
    assert!(out.status.success() && out.stderr.is_empty());
    let block = readme_help::help_block("junqi-net-fuzz", FUZZ, &[]);
    let readme = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md");
    readme_help::check_block(&readme, "junqi-net-fuzz", &block);
}
