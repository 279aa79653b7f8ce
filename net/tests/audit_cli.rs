//! `junqi-audit GAME_FILE` on saved games: the verdict both sides saw, a
//! cheat named with its evidence, an edited file named as edited.

#[path = "../../game/tests/readme_help/mod.rs"]
mod readme_help;

use std::path::Path;
use std::process::Command;

use junqi_game::Rules;
use junqi_proto::session::Cheats;
use junqi_proto::testing::Pair;
use junqi_proto::wire::Body;

fn audit(path: &Path) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_junqi-audit"))
        .arg(path)
        .output()
        .expect("junqi-audit runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("junqi-audit-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn a_clean_game_a_cheat_and_an_edited_file() {
    let d = dir("cli");
    // A clean game, from the guest's file.
    let mut p = Pair::new(Rules::default(), 41);
    assert!(p.run(200_000));
    let seen = p.verdict(1).unwrap().clone();
    let clean = d.join("clean.bin");
    junqi_net::resume::save(&p.sessions[1].saved(), &clean).unwrap();
    let (code, text) = audit(&clean);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("audit: clean"), "{text}");
    let result = match seen.result.unwrap() {
        junqi_game::GameResult::Win { winner, reason } => format!("{winner:?} wins ({reason:?})"),
        junqi_game::GameResult::Draw { reason } => format!("draw ({reason:?})"),
    };
    assert!(text.contains(&result), "{text} / {result}");

    // The guest announces false outcomes: named from the host's file.
    let mut p = Pair::new(Rules::default(), 42);
    p.sessions[1].set_cheats(Cheats {
        false_outcome: true,
        ..Cheats::default()
    });
    p.run_until_verdict(0, 200_000).unwrap();
    let cheat = d.join("cheat.bin");
    junqi_net::resume::save(&p.sessions[0].saved(), &cheat).unwrap();
    let (code, text) = audit(&cheat);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("audit: North cheated"), "{text}");
    assert!(text.contains("evidence: "), "{text}");

    // One move of the clean file changed: the file is named as altered.
    let mut saved = junqi_net::resume::load(&clean).unwrap();
    let i = saved
        .log
        .iter()
        .position(|e| matches!(e.body, Body::Step { .. }) && e.header.seq > 5)
        .unwrap();
    if let Body::Step { to, .. } = &mut saved.log[i].body {
        *to ^= 1;
    }
    let edited = d.join("edited.bin");
    junqi_net::resume::save(&saved, &edited).unwrap();
    let (code, text) = audit(&edited);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("altered"), "{text}");

    // Not a game file at all.
    let junk = d.join("junk.bin");
    std::fs::write(&junk, b"not a journal").unwrap();
    assert_eq!(audit(&junk).0, 2);
    std::fs::remove_dir_all(&d).unwrap();
}

/// A forged message (a signed step from a point off the board) is named with
/// the typed finding, from the honest side's file.
#[test]
fn a_forged_move_is_named_with_its_typed_finding() {
    let d = dir("forged");
    let mut p = Pair::new(Rules::default(), 43);
    p.hold_turn(1, 4, 7);
    let f = p.sessions[1]
        .forge(Body::Step { from: 200, to: 3 })
        .unwrap();
    p.inject(1, f);
    p.run_until_verdict(0, 200_000).unwrap();
    let file = d.join("forged.bin");
    junqi_net::resume::save(&p.sessions[0].saved(), &file).unwrap();
    let (code, text) = audit(&file);
    assert_eq!(code, 1, "{text}");
    // The log audit rebuilds North from its opened seed: its own logged step is
    // one the protocol refuses, and the finding names it.
    assert!(text.contains("audit: North cheated: "), "{text}");
    assert!(
        text.contains(
            "finding: Unreplayable(Move { mv: Step { from: Point(200), to: Point(3) }, error: Illegal })"
        ),
        "{text}"
    );
    std::fs::remove_dir_all(&d).unwrap();
}

/// Bad usage exits 2 with clap's message on standard error, and nothing on standard
/// output (where the verdict goes): a misspelt flag, no file, a second file.
#[test]
fn bad_usage_exits_2_with_a_message() {
    for (args, needle) in [
        (
            &["--verbos", "game.bin"][..],
            "unexpected argument '--verbos'",
        ),
        (&[], "<GAME_FILE>"),
        (&["a.bin", "b.bin"], "unexpected argument 'b.bin'"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_junqi-audit"))
            .args(args)
            .output()
            .expect("junqi-audit runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    let help = Command::new(env!("CARGO_BIN_EXE_junqi-audit"))
        .arg("--help")
        .output()
        .expect("junqi-audit runs");
    assert!(help.status.success());
    assert!(String::from_utf8_lossy(&help.stdout).contains("Exit status: 0 clean"));
}

#[test]
fn the_readme_shows_the_help() {
    let block = readme_help::help_block("junqi-audit", env!("CARGO_BIN_EXE_junqi-audit"), &[]);
    let readme = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    readme_help::check_block(&readme, "junqi-audit", &block);
}

#[test]
fn a_four_seat_file_written_before_hand_overs_still_audits() {
    // A 双明 table drawn by agreement, saved by the build before the
    // hand-over (commit 0d5ece6): its hellos decode as they did and its game
    // id is the same (no seat agreed to a hand-over), so the file audits
    // clean, in process and with `junqi-audit`.
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/table-2026-12-07-partners-draw.bin");
    let bytes = std::fs::read(&path).unwrap();
    let log = junqi_net::table::load_log(&bytes).expect("the old file loads");
    match junqi_proto::four::audit_table(&log) {
        junqi_proto::four::AuditOutcome::Clean { result, .. } => assert_eq!(
            result,
            Some(junqi_game::GameResult::Draw {
                reason: junqi_game::DrawReason::Agreed
            })
        ),
        other => panic!("{other:?}"),
    }
    let (code, text) = audit(&path);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("audit: clean"), "{text}");
}
