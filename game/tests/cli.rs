//! Runs the `junqi-cli` binary on good and broken files.

mod readme_help;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(name)
}

fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_junqi-cli"))
        .args(args)
        .output()
        .expect("junqi-cli runs")
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// A failure with exit status `code`, a message, and no panic.
fn assert_fails(o: &Output, code: i32, needles: &[&str]) {
    let (out, err) = text(o);
    assert_eq!(o.status.code(), Some(code), "stdout: {out}\nstderr: {err}");
    assert!(!err.contains("panicked"), "{err}");
    for n in needles {
        assert!(
            out.contains(n) || err.contains(n),
            "{n:?} missing\nstdout: {out}\nstderr: {err}"
        );
    }
}

fn path(name: &str) -> String {
    data(name).to_string_lossy().into_owned()
}

#[test]
fn validate_accepts_good_layouts() {
    for f in ["data/good_layout.txt", "data/good_layout.json"] {
        let o = cli(&["validate", &path(f)]);
        let (out, err) = text(&o);
        assert!(o.status.success(), "{f}: {out}{err}");
        assert!(out.contains("valid"));
    }
    let classic = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../assets/layouts/classic_layouts.json")
        .to_string_lossy()
        .into_owned();
    let o = cli(&["validate", &classic]);
    let (out, _) = text(&o);
    assert!(o.status.success());
    assert!(
        out.contains("72 layout(s), 0 invalid, 0 unreadable"),
        "{out}"
    );
}

#[test]
fn validate_reports_every_broken_rule() {
    let o = cli(&["validate", &path("data/broken_layout.txt")]);
    assert_fails(
        &o,
        1,
        &[
            "invalid, 7 problem(s)",
            "11: bombs may not stand in the front row",
            "22: 工兵 stands in a camp",
            "34: landmines stand only in rows 5 and 6",
            "63: the flag must stand in a headquarters",
            "3 × 炸弹",
            "1 × 师长",
            "4 × 地雷",
        ],
    );
    // Flying bombs allow the front-row bomb.
    let o = cli(&[
        "validate",
        &path("data/broken_layout.txt"),
        "--flying-bombs",
    ]);
    assert_fails(&o, 1, &["invalid, 6 problem(s)"]);
}

#[test]
fn validate_checks_every_layout_of_a_layouts_file() {
    let o = cli(&["validate", &path("data/mixed_layouts.json")]);
    assert_fails(
        &o,
        2,
        &[
            "layout good: valid",
            "layout flag-forward: invalid, 1 problem(s)",
            "15: the flag must stand in a headquarters",
            "layout short: unreadable",
            "3 layout(s), 1 invalid, 1 unreadable",
        ],
    );
}

#[test]
fn validate_rejects_unreadable_files() {
    assert_fails(
        &cli(&["validate", &path("data/unknown_piece_layout.json")]),
        2,
        &["horse"],
    );
    assert_fails(
        &cli(&["validate", &path("data/no_such_file.txt")]),
        2,
        &["cannot read"],
    );
    assert_fails(
        &cli(&["validate", &path("data/bad_position.json")]),
        2,
        &["not a layout"],
    );
    assert_fails(
        &cli(&["validate", &path("perft/rail_engineers.perft")]),
        2,
        &["layout text"],
    );
}

#[test]
fn moves_lists_the_legal_moves_in_notation() {
    let o = cli(&["moves", &path("perft/rail_engineers.json")]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 24);
    for m in ["S53-S41", "S53xS55", "S11xN35", "S11-S22", "S31-S21"] {
        assert!(lines.contains(&m), "{m} missing: {out}");
    }
}

#[test]
fn perft_counts() {
    let o = cli(&["perft", &path("perft/rail_engineers.json"), "2"]);
    assert_eq!(text(&o).0.trim(), "642");
    let o = cli(&["perft", &path("perft/classic_start.json"), "1", "--divide"]);
    let (out, _) = text(&o);
    assert!(out.contains("S13xN13 1"));
    assert!(out.ends_with("total 34\n"), "{out}");
}

#[test]
fn broken_position_files_give_clear_errors() {
    assert_fails(
        &cli(&["moves", &path("data/bad_position.json")]),
        2,
        &["S73", "horse", "S53 is already taken"],
    );
    assert_fails(
        &cli(&["perft", &path("data/truncated_position.json"), "2"]),
        2,
        &["JSON"],
    );
    assert_fails(
        &cli(&["perft", &path("perft/rail_engineers.json"), "deep"]),
        2,
        &["DEPTH"],
    );
}

#[test]
fn selfplay_prints_a_summary() {
    for mode in ["dark", "open", "flip"] {
        let o = cli(&["selfplay", "--games", "3", "--seed", "5", "--mode", mode]);
        let (out, err) = text(&o);
        assert!(o.status.success(), "{err}");
        assert!(out.contains(&format!("games: 3 ({mode}, seed 5)")), "{out}");
        assert!(out.contains("average plies"));
    }
    let a = cli(&["selfplay", "--games", "2", "--seed", "9", "--records"]);
    let b = cli(&["selfplay", "--games", "2", "--seed", "9", "--records"]);
    assert_eq!(a.stdout, b.stdout, "a seed fixes the games");
    assert!(text(&a).0.contains("S") && text(&a).0.contains("{"));
    assert_fails(
        &cli(&["selfplay", "--games", "2", "--seed", "1", "--mode", "chess"]),
        2,
        &[
            "invalid value 'chess'",
            "[possible values: dark, open, flip]",
        ],
    );
    assert_fails(
        &cli(&["selfplay", "--games", "x", "--seed", "1"]),
        2,
        &["--games"],
    );
    // A flag given twice takes its last value.
    let o = cli(&["selfplay", "--games", "9", "--seed", "5", "--games", "3"]);
    assert!(
        text(&o).0.contains("games: 3 (dark, seed 5)"),
        "{}",
        text(&o).1
    );
    assert_fails(
        &cli(&["selfplay", "--seed", "1"]),
        2,
        &["required", "--games <N>"],
    );
}

#[test]
fn bench_prints_one_json_line() {
    let o = cli(&["bench", "--json", "--seconds", "0.2"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert_eq!(out.lines().count(), 1);
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert!(v["random_games_per_sec"].as_f64().unwrap() > 0.0);
    assert!(v["movegen_ns_per_position"].as_f64().unwrap() > 0.0);
}

#[test]
fn bench_piped_prints_its_report_and_no_progress_line() {
    let o = cli(&["bench", "--seconds", "0.2"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(err.is_empty(), "{err}");
    assert!(out.starts_with("times by "), "{out}");
    assert_eq!(out.lines().count(), 5, "{out}");
}

#[test]
fn usage_errors() {
    assert_fails(&cli(&[]), 2, &["Usage: junqi-cli <COMMAND>", "selfplay"]);
    assert_fails(&cli(&["fly"]), 2, &["unrecognized subcommand 'fly'"]);
    assert_fails(&cli(&["moves"]), 2, &["required", "<POSITION_JSON>"]);
    assert_fails(
        &cli(&["bench", "--fast"]),
        2,
        &["unexpected argument '--fast'"],
    );
    assert_fails(
        &cli(&["perft", &path("perft/rail_engineers.json"), "65"]),
        2,
        &["<DEPTH>", "0..=64"],
    );
    for bad in ["0", "3600", "fast"] {
        assert_fails(&cli(&["bench", "--seconds", bad]), 2, &["--seconds"]);
    }
}

#[test]
fn a_misspelt_flag_is_named_with_a_suggestion() {
    // Every subcommand refuses a flag it does not know, naming it and the one meant.
    let position = path("perft/rail_engineers.json");
    for (args, meant) in [
        (vec!["bench", "--jsn"], "--json"),
        (
            vec!["selfplay", "--games", "1", "--seed", "1", "--record"],
            "--records",
        ),
        (vec!["perft", &position, "1", "--divid"], "--divide"),
        (
            vec!["validate", &position, "--flying-bomb"],
            "--flying-bombs",
        ),
        (vec!["analyse", &position, "--levl", "novice"], "--level"),
    ] {
        let o = cli(&args);
        assert_fails(&o, 2, &["unexpected argument", meant]);
        assert!(o.stdout.is_empty(), "{args:?}: nothing on standard output");
    }
    assert_fails(&cli(&["moves", &position, "--all"]), 2, &["'--all'"]);
}

#[test]
fn help_lists_every_command_and_exits_0() {
    for args in [&["--help"][..], &["help"], &["-h"]] {
        let o = cli(args);
        let (out, err) = text(&o);
        assert!(o.status.success(), "{args:?}: {err}");
        for c in ["validate", "moves", "perft", "selfplay", "bench", "analyse"] {
            assert!(out.contains(c), "{args:?}: {c} missing: {out}");
        }
    }
    let o = cli(&["help", "selfplay"]);
    let (out, _) = text(&o);
    assert!(o.status.success());
    assert!(out.contains("--records") && out.contains("[possible values: dark, open, flip]"));
}

#[test]
fn four_player_moves_perft_selfplay_and_bench() {
    let o = cli(&["moves", &path("perft/four_partner_out.json")]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    let moves: Vec<&str> = out.lines().collect();
    assert_eq!(moves.len(), 7);
    assert!(moves.contains(&"S55-S45") && !moves.contains(&"S55xS35"));
    let o = cli(&["perft", &path("perft/four_partner_out.json"), "2"]);
    assert_eq!(text(&o).0.trim(), "511");
    let o = cli(&["selfplay", "--players", "4", "--games", "3", "--seed", "5"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        out.contains("games: 3 (dark, four players, seed 5)"),
        "{out}"
    );
    assert!(out.contains("south+north wins") && out.contains("east+west wins"));
    assert!(out.contains("players out by reason"));
    let a = cli(&[
        "selfplay",
        "--players",
        "4",
        "--games",
        "1",
        "--seed",
        "2",
        "--records",
    ]);
    let b = cli(&[
        "selfplay",
        "--players",
        "4",
        "--games",
        "1",
        "--seed",
        "2",
        "--records",
    ]);
    assert_eq!(a.stdout, b.stdout, "a seed fixes the games");
    let o = cli(&["bench", "--json", "--seconds", "0.2", "--players", "4"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["players"], 4);
    assert!(v["random_games_per_sec"].as_f64().unwrap() > 0.0);
    assert_fails(
        &cli(&["selfplay", "--players", "3", "--games", "1", "--seed", "1"]),
        2,
        &["[possible values: 2, 4]"],
    );
    assert_fails(
        &cli(&[
            "selfplay",
            "--players",
            "4",
            "--mode",
            "flip",
            "--games",
            "1",
            "--seed",
            "1",
        ]),
        2,
        &["two-player only"],
    );
}

#[test]
fn two_players_on_the_four_player_board() {
    for mode in ["dark", "flip"] {
        let o = cli(&[
            "selfplay",
            "--games",
            "2",
            "--seed",
            "3",
            "--mode",
            mode,
            "--board",
            "four-player",
        ]);
        let (out, err) = text(&o);
        assert!(o.status.success(), "{err}");
        assert!(
            out.contains(&format!("games: 2 ({mode}, four-player board, seed 3)")),
            "{out}"
        );
    }
    assert_fails(
        &cli(&["selfplay", "--games", "1", "--seed", "1", "--board", "hex"]),
        2,
        &["[possible values: classic, four-player]"],
    );
}

#[test]
fn analyse_weighs_the_moves_of_a_recorded_game_from_the_movers_view() {
    // A dark game of 16 actions, Master (North) against greedy, won by its flag strike.
    let record = path("data/dark_game_record.json");
    let o = cli(&["analyse", &record, "--upto", "4", "--level", "novice"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("ply 4, south to move"), "{out}");
    assert!(lines.last().expect("lines").starts_with("depth "), "{out}");
    let scored = &lines[1..lines.len() - 1];
    assert!(scored.len() > 10, "every legal move is listed: {out}");
    let scores: Vec<f64> = scored
        .iter()
        .map(|l| {
            l.rsplit(' ')
                .next()
                .expect("a score")
                .parse()
                .expect("a number")
        })
        .collect();
    // Novice searches one ply: every move screened, best first.
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{out}");
    // The same seed gives the same analysis.
    assert_eq!(
        text(&cli(&[
            "analyse", &record, "--upto", "4", "--level", "novice"
        ]))
        .0,
        out
    );
    assert_fails(
        &cli(&["analyse", &record, "--upto", "99"]),
        2,
        &["16 actions"],
    );
    assert_fails(&cli(&["analyse", &record]), 2, &["over"]);
    assert_fails(
        &cli(&["analyse", &path("data/bad_position.json")]),
        2,
        &["not a game record"],
    );
    assert_fails(
        &cli(&["analyse", &record, "--level", "grandmaster"]),
        2,
        &["unknown level"],
    );
}

#[test]
fn the_readme_shows_the_help_of_every_command() {
    let block = readme_help::help_block(
        "junqi-cli",
        env!("CARGO_BIN_EXE_junqi-cli"),
        &["validate", "moves", "perft", "selfplay", "bench", "analyse"],
    );
    let readme = Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    readme_help::check_block(&readme, "junqi-cli", &block);
}
