//! End to end over real QUIC on 127.0.0.1 (issue 47): four `junqi-peer`
//! processes (the built binary) at one table, the host relaying for the
//! three others, computer players at every seat. Whole 四暗, 双明 and 全明 games:
//! every seat prints the same public events, the same result, the same
//! record and a clean audit, and `junqi-audit` finds the same in a seat's
//! saved log.

use std::process::Command;
use std::time::{Duration, Instant};

mod support;
use support::{Scratch, spawn, spawn_table_host};

const AUDIT: &str = env!("CARGO_BIN_EXE_junqi-audit");
/// Per game; a debug build plays one in a few seconds.
const LIMIT: Duration = Duration::from_secs(120);

fn shared_lines(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| {
            [
                "pairing code:",
                "event:",
                "ending:",
                "result:",
                "record:",
                "verdict:",
            ]
            .iter()
            .any(|p| l.starts_with(p))
        })
        .collect()
}

fn play_table(name: &str, mode: &str) {
    let dir = Scratch::new(&format!("table-{name}"));
    let log = |s: &str| dir.0.join(format!("{s}.log"));
    let state = |s: &str| dir.0.join(s).to_string_lossy().into_owned();
    let extra: &[&str] = match mode {
        "partners" => &["--partners-open"],
        "open" => &["--mode", "open"],
        _ => &[],
    };
    let (host, addr) = spawn_table_host(&dir.0, extra);
    let mut seats = vec![host];
    for (i, s) in ["east", "north", "west"].into_iter().enumerate() {
        let seed = (i + 4).to_string();
        let st = state(s);
        let ai = if s == "north" { "greedy" } else { "random" };
        let args = [
            "join", "--seat", s, "--addr", &addr, "--yes", "--ai", ai, "--seed", &seed, "--state",
            &st,
        ];
        seats.push(spawn(&args, &log(s)));
    }
    let t0 = Instant::now();
    for seat in &mut seats {
        loop {
            if let Some(status) = seat.0.try_wait().unwrap() {
                assert!(status.success(), "a seat exited with {status}");
                break;
            }
            assert!(t0.elapsed() < LIMIT, "the table did not finish in time");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    let texts: Vec<String> = ["south", "east", "north", "west"]
        .iter()
        .map(|s| std::fs::read_to_string(log(s)).unwrap())
        .collect();
    let lines: Vec<Vec<&str>> = texts.iter().map(|t| shared_lines(t)).collect();
    for (i, l) in lines.iter().enumerate() {
        assert_eq!(l, &lines[0], "seat {i} printed another game than South");
    }
    let south = &lines[0];
    assert!(south.contains(&"verdict: clean audit"), "{}", texts[0]);
    assert!(south.contains(&"ending: Played"));
    assert!(south.iter().any(|l| l.starts_with("record: ")));
    assert!(south.iter().filter(|l| l.starts_with("event: ")).count() > 20);
    assert!(!south.contains(&"result: none"));
    // A third party with any seat's saved log finds the same.
    for s in ["south", "west"] {
        let out = Command::new(AUDIT)
            .arg(dir.0.join(s).join("table.bin"))
            .output()
            .expect("junqi-audit runs");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{text}");
        assert!(text.contains("audit: clean"), "{text}");
    }
}

#[test]
fn four_peers_play_a_whole_dark_table() {
    play_table("dark", "dark");
}

#[test]
fn four_peers_play_a_whole_partners_open_table() {
    play_table("partners", "partners");
}

#[test]
fn four_peers_play_a_whole_open_table() {
    play_table("open", "open");
}
