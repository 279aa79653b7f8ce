//! The `arena` binary's command line: bad usage is refused before any game with clap's
//! message and exit status 2; the `--json` line keeps its fields, their order and the
//! arguments as written (scripts/bench.sh and the journal's runs read it); the README shows
//! the help of the arena and of its two tools.

mod readme_help;

use std::path::Path;
use std::process::{Command, Output};

const ARENA: &str = env!("CARGO_BIN_EXE_arena");

fn arena(args: &[&str]) -> Output {
    Command::new(ARENA).args(args).output().expect("arena runs")
}

/// Misspelt flags, bad values and arguments that do not go together, in the arena and in
/// both tools: exit 2, the reason on standard error, nothing on standard output.
#[test]
fn bad_usage_exits_2_with_a_message() {
    let cases: &[(&[&str], &[&str])] = &[
        (
            &["--gmaes", "3"],
            &["unexpected argument '--gmaes'", "'--games'"],
        ),
        (
            &["--games", "many"],
            &["invalid value 'many' for '--games <N>'"],
        ),
        (
            &["--mode", "dakr"],
            &["invalid value 'dakr' for '--mode <MODE>'", "shuangming"],
        ),
        (&["--players", "3"], &["invalid value '3' for '--players"]),
        (&["--board", "big"], &["invalid value 'big' for '--board"]),
        (
            &["--a", "grandmaster"],
            &["invalid value 'grandmaster' for '--a <PLAYER>'"],
        ),
        (&["--b", "master:depht=2"], &["unknown key \"depht\""]),
        (
            &["--threads", "0"],
            &["invalid value '0' for '--threads <T>'"],
        ),
        (&["--time-limit=-5"], &["must be 0 or more"]),
        (&["--time-limit", "soon"], &["not a number of seconds"]),
        (
            &["--players", "4", "--mode", "flip"],
            &["four players play dark"],
        ),
        (
            &["--mode", "shuangming"],
            &["two players dark, open or flip"],
        ),
        (
            &["--players", "4", "--board", "four-player"],
            &["four players always play there"],
        ),
        (
            &["--players", "4", "--a", "guard"],
            &["the sparring partners"],
        ),
        (
            &["--players", "4", "--paired"],
            &["--paired pairs two-player games"],
        ),
        (
            &["--games", "3", "tune", "--param", "hunt=100:20"],
            &["the subcommand 'tune' cannot be used with '--games <N>'"],
        ),
        (&["tune"], &["--param <NAME=START:C[:MIN:MAX]>"]),
        (
            &["tune", "--param", "hunt=100:0"],
            &["invalid value 'hunt=100:0' for '--param"],
        ),
        (
            &["tune", "--param", "no_such_weight=100:20"],
            &["unknown key \"no_such_weight\""],
        ),
        (
            &["tune", "--param", "hunt=100:20", "--mode", "shuangming"],
            &["expected dark, open or flip"],
        ),
        (
            &["tune", "--param", "hunt=100:20", "--stpes", "3"],
            &["unexpected argument '--stpes'", "'--steps'"],
        ),
        (
            &["tune", "--param", "hunt=100:20", "--pairs", "0"],
            &["'--pairs <P>'"],
        ),
        (&["calibrate"], &["--pair <A/B>"]),
        (
            &["calibrate", "--pair", "random"],
            &["expected two players A/B"],
        ),
        (
            &["calibrate", "--pair", "random/grandmaster"],
            &["unknown level \"grandmaster\""],
        ),
        (
            &["calibrate", "--pair", "random/random", "--every", "0"],
            &["invalid value '0' for '--every <K>'"],
        ),
        (
            &["calibrate", "--pair", "random/random", "--gmaes", "2"],
            &["unexpected argument '--gmaes'", "'--games'"],
        ),
    ];
    for (args, needles) in cases {
        let out = arena(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        for needle in *needles {
            assert!(err.contains(needle), "{args:?}: {needle:?} not in {err}");
        }
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

/// The fields of the `--json` line in the order the hand-written parser's arena printed
/// them (compared byte for byte with that binary, the timings aside).
const FIELDS: [&str; 33] = [
    "a",
    "b",
    "players",
    "mode",
    "seed",
    "games",
    "wins",
    "draws",
    "losses",
    "score",
    "ci95",
    "mean_ms",
    "max_ms",
    "b_mean_ms",
    "b_max_ms",
    "mean_plies",
    "min_plies",
    "max_plies",
    "illegal",
    "resigns",
    "draw_offers",
    "ends",
    "a_first",
    "a_second",
    "mean_nodes",
    "mean_depth",
    "seconds",
    "quiet_draws",
    "quiet_draw_rate",
    "a_wins_by",
    "flag_share",
    "a_cpu_mean_ms",
    "a_cpu_max_ms",
];

/// The line without the figures that depend on the clock.
fn untimed(line: &str) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_str(line).expect("one JSON line");
    let o = v.as_object_mut().expect("an object");
    for k in [
        "mean_ms",
        "max_ms",
        "b_mean_ms",
        "b_max_ms",
        "seconds",
        "a_cpu_mean_ms",
        "a_cpu_max_ms",
    ] {
        assert!(o.remove(k).is_some(), "{k} in {line}");
    }
    v
}

/// The `--json` line: one line, the fields in their order, the players as written, the
/// mode under its own name whatever alias was given, a repeated flag's last value, and the
/// same line (the timings aside) for the same arguments.
#[test]
fn the_json_line_keeps_its_fields_and_the_arguments() {
    let cases: &[(&[&str], &str)] = &[
        (
            &[
                "--a",
                " Random",
                "--b",
                "random",
                "--mode",
                "quanming",
                "--games",
                "2",
                "--seed",
                "3",
                "--seed",
                "7",
                "--threads",
                "1",
                "--json",
            ],
            r#"{"a":" Random","b":"random","players":2,"mode":"open","seed":7,"games":2,"#,
        ),
        (
            &[
                "--a",
                "random",
                "--b",
                "random",
                "--players",
                "4",
                "--mode",
                "双明",
                "--games",
                "1",
                "--json",
                "--no-concede",
            ],
            r#"{"a":"random","b":"random","players":4,"mode":"shuangming","seed":1,"games":1,"#,
        ),
        (
            &[
                "--a",
                "random",
                "--b",
                "random",
                "--board",
                "four-player",
                "--mode",
                "sian",
                "--games",
                "1",
                "--json",
            ],
            r#"{"a":"random","b":"random","players":2,"mode":"dark, four-player board","seed":1,"games":1,"#,
        ),
    ];
    for (args, start) in cases {
        let out = arena(args);
        assert!(out.status.success(), "{args:?}");
        let text = String::from_utf8(out.stdout).expect("UTF-8");
        assert_eq!(text.lines().count(), 1, "{text}");
        assert!(text.starts_with(start), "{args:?}: {text}");
        let mut at = 0;
        for k in FIELDS {
            let key = format!("\"{k}\":");
            let found = text[at..].find(&key);
            assert!(found.is_some(), "{k} after byte {at}: {text}");
            at += found.unwrap_or(0) + key.len();
        }
        let again = String::from_utf8(arena(args).stdout).expect("UTF-8");
        assert_eq!(untimed(&text), untimed(&again), "{args:?}");
    }
}

/// Help exits 0 on standard output, for the arena and each tool; a flag given twice is no
/// error.
#[test]
fn help_exits_0() {
    for args in [
        &["--help"][..],
        &["tune", "--help"],
        &["calibrate", "--help"],
        &["--games", "1", "--games", "2", "--help"],
    ] {
        let out = arena(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert!(out.stderr.is_empty(), "{args:?}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("Usage: arena"), "{args:?}: {text}");
    }
}

#[test]
fn the_readme_shows_the_help_of_the_arena_and_its_tools() {
    let block = readme_help::help_block("arena", ARENA, &["tune", "calibrate"]);
    let readme = Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    readme_help::check_block(&readme, "arena", &block);
}
