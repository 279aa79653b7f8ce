//! `junqi-peer`'s command line: bad usage is refused before anything starts, with clap's
//! message and exit status 1 (2 means "the audit names a cheater"), and the README shows
//! its `--help`. The games themselves are in `peer_e2e.rs`.

#[path = "../../game/tests/readme_help/mod.rs"]
mod readme_help;

use std::process::{Command, Output};

const PEER: &str = env!("CARGO_BIN_EXE_junqi-peer");

fn peer(args: &[&str]) -> Output {
    Command::new(PEER)
        .args(args)
        .output()
        .expect("junqi-peer runs")
}

/// A misspelt flag, a bad value of every typed option, a flag of the other command, a
/// missing or unknown command: exit 1, the reason on standard error, nothing on standard
/// output (no "listening on", no pairing code: nothing started).
#[test]
fn bad_usage_exits_1_with_a_message() {
    for (args, needles) in [
        (
            &["host", "--mdoe", "dark"][..],
            &["unexpected argument '--mdoe'", "'--mode'"][..],
        ),
        (&["join", "--adr", "127.0.0.1:1"], &["'--addr'"]),
        (
            &["host", "--yes", "--seeds", "2"],
            &["unexpected argument '--seeds'", "'--seed'"],
        ),
        (
            &["host", "--mode", "dakr"],
            &[
                "invalid value 'dakr' for '--mode <MODE>'",
                "dark, open, flip",
            ],
        ),
        (&["host", "--port", "70000"], &["invalid value '70000'"]),
        (&["host", "--seed", "three"], &["'--seed <N>'"]),
        (
            &["host", "--move-seconds", "1.5"],
            &["'--move-seconds <N>'"],
        ),
        (
            &["join", "--addr", "localhost"],
            &["invalid value 'localhost' for '--addr <IP:PORT>'"],
        ),
        (
            &["host", "--ai", "grandmaster"],
            &["invalid value 'grandmaster' for '--ai <PLAYER>'", "master"],
        ),
        (
            &["host", "--state"],
            &["a value is required for '--state <DIR>'"],
        ),
        // A host's option given to join (it never did anything there).
        (
            &["join", "--mode", "flip"],
            &["unexpected argument '--mode'"],
        ),
        (&["jion"], &["unrecognized subcommand 'jion'", "'join'"]),
        (&[], &["Usage: junqi-peer <COMMAND>"]),
    ] {
        let out = peer(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        for needle in needles {
            assert!(err.contains(needle), "{args:?}: {needle:?} not in {err}");
        }
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

/// `--help` of the tool and of each command exits 0 on standard output; a flag given twice
/// takes its last value instead of failing (scripts that repeat a flag keep working).
#[test]
fn help_exits_0_and_a_repeated_flag_is_no_error() {
    for args in [
        &["--help"][..],
        &["host", "--help"],
        &["join", "--help"],
        &[
            "host", "--seed", "1", "--seed", "2", "--mode", "open", "--help",
        ],
    ] {
        let out = peer(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert!(out.stderr.is_empty(), "{args:?}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("Usage: junqi-peer"), "{args:?}: {text}");
        assert!(text.contains("Exit status: 0 a clean audit"), "{text}");
    }
    let top = String::from_utf8_lossy(&peer(&["--help"]).stdout).into_owned();
    assert!(top.contains("host") && top.contains("join"), "{top}");
}

#[test]
fn the_readme_shows_the_help() {
    let block = readme_help::help_block("junqi-peer", PEER, &["host", "join"]);
    let readme = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    readme_help::check_block(&readme, "junqi-peer", &block);
}
