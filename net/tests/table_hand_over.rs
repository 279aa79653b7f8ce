//! A seat handed over at a four-seat table, end to end over real QUIC on
//! 127.0.0.1 (issue 47): four `junqi-peer` processes; North's player agreed
//! to a hand-over (`--hand-over`) and leaves after a few moves; South's
//! device (the host) plays North's seat on with its computer player. The
//! three seats still at the table end with the same record and a clean
//! audit, and `junqi-audit` finds the same in a saved log. A device that
//! took its partner's seat over, killed and started again from its
//! journal, plays that seat on again.

use std::process::Command;
use std::time::{Duration, Instant};

mod support;
use support::{Scratch, spawn, spawn_table_host};

const AUDIT: &str = env!("CARGO_BIN_EXE_junqi-audit");
const LIMIT: Duration = Duration::from_secs(120);

#[test]
fn a_seat_handed_over_is_played_on_by_its_partners_device() {
    let dir = Scratch::new("table-hand-over");
    let log = |s: &str| dir.0.join(format!("{s}.log"));
    let state = |s: &str| dir.0.join(s).to_string_lossy().into_owned();
    let (host, addr) = spawn_table_host(&dir.0, &[]);
    let mut seats = vec![("south", host)];
    for (i, s) in ["east", "north", "west"].into_iter().enumerate() {
        let seed = (i + 4).to_string();
        let st = state(s);
        let mut args = vec![
            "join", "--seat", s, "--addr", &addr, "--yes", "--ai", "random", "--seed", &seed,
            "--state", &st,
        ];
        if s == "north" {
            args.extend(["--hand-over", "--leave-after", "3"]);
        }
        seats.push((s, spawn(&args, &log(s))));
    }
    let t0 = Instant::now();
    for (name, seat) in &mut seats {
        loop {
            if let Some(status) = seat.0.try_wait().unwrap() {
                // The leaver ends without a result of its own (exit 1).
                assert_eq!(
                    status.success(),
                    *name != "north",
                    "{name} exited with {status}"
                );
                break;
            }
            assert!(t0.elapsed() < LIMIT, "the table did not finish in time");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    let text = |s: &str| std::fs::read_to_string(log(s)).unwrap();
    let records = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| l.starts_with("record: "))
            .map(str::to_owned)
            .collect()
    };
    let north = text("north");
    assert!(north.contains("leaving the table"), "{north}");
    assert!(north.contains("ending: Left(North)"), "{north}");
    let south = text("south");
    assert!(
        south.contains("north left and handed its seat to this device"),
        "{south}"
    );
    // South's device ends its own seat and North's, alike.
    let r = records(&south);
    assert_eq!(r.len(), 2, "{south}");
    assert_eq!(r[0], r[1]);
    for s in ["south", "east", "west"] {
        let t = text(s);
        assert!(t.contains("verdict: clean audit"), "{s}: {t}");
        assert!(t.contains("ending: Played"), "{s}");
        assert_eq!(records(&t)[0], r[0], "{s} ends with South's record");
    }
    for s in ["south", "east"] {
        let out = Command::new(AUDIT)
            .arg(dir.0.join(s).join("table.bin"))
            .output()
            .expect("junqi-audit runs");
        let t = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{t}");
        assert!(t.contains("audit: clean"), "{t}");
    }
}

/// The lines every seat still at the table must print alike at the end.
fn end_lines(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| {
            ["result:", "record:", "verdict:"]
                .iter()
                .any(|p| l.starts_with(p))
        })
        .collect()
}

#[test]
fn a_device_resumed_from_its_journal_plays_the_seat_it_took_over_on() {
    let dir = Scratch::new("table-hand-over-resume");
    let log = |s: &str| dir.0.join(format!("{s}.log"));
    let state = |s: &str| dir.0.join(s).to_string_lossy().into_owned();
    let (host, addr) = spawn_table_host(&dir.0, &[]);
    let mut seats = vec![("south", host)];
    let args = |s: &'static str, seed: &'static str| -> Vec<String> {
        let mut a: Vec<String> = [
            "join",
            "--seat",
            s,
            "--addr",
            &addr,
            "--yes",
            "--ai",
            "random",
            "--seed",
            seed,
            "--state",
            &state(s),
        ]
        .iter()
        .map(|x| (*x).to_owned())
        .collect();
        if s == "west" {
            a.extend(["--hand-over", "--leave-after", "3"].map(str::to_owned));
        }
        a
    };
    for (s, seed) in [("east", "4"), ("north", "5"), ("west", "6")] {
        let a = args(s, seed);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        seats.push((s, spawn(&a, &log(s))));
    }
    // West leaves; East's device takes its seat over and plays it a while.
    let taken = "west left and handed its seat to this device";
    let t0 = Instant::now();
    while !std::fs::read_to_string(log("east"))
        .unwrap_or_default()
        .contains(taken)
    {
        assert!(t0.elapsed() < LIMIT, "West never handed its seat over");
        std::thread::sleep(Duration::from_millis(5));
    }
    let moves = |t: &str| t.lines().filter(|l| l.starts_with("event: ")).count();
    let at = moves(&std::fs::read_to_string(log("east")).unwrap());
    let t0 = Instant::now();
    while moves(&std::fs::read_to_string(log("east")).unwrap()) < at + 12 {
        assert!(t0.elapsed() < LIMIT, "the game went on after the hand-over");
        std::thread::sleep(Duration::from_millis(5));
    }
    // East's device crashes and is started again with its journal.
    let east = seats.iter_mut().find(|(s, _)| *s == "east").unwrap();
    east.1.0.kill().expect("SIGKILL");
    let _ = east.1.0.wait();
    let a = args("east", "4");
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    east.1 = spawn(&a, &log("east2"));
    let t0 = Instant::now();
    for (name, seat) in &mut seats {
        loop {
            if let Some(status) = seat.0.try_wait().unwrap() {
                assert_eq!(
                    status.success(),
                    *name != "west",
                    "{name} exited with {status}: {}",
                    std::fs::read_to_string(log(name)).unwrap_or_default()
                );
                break;
            }
            assert!(t0.elapsed() < LIMIT, "the table did not finish in time");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    let text = |s: &str| std::fs::read_to_string(log(s)).unwrap();
    let east2 = text("east2");
    assert!(east2.contains("resumed east from its journal"), "{east2}");
    // The resumed device took West's seat over again and played it to the end: its own end and
    // the taken seat's, alike, and the same as every other seat's.
    assert!(east2.contains(taken), "{east2}");
    assert!(
        east2.contains("the seat taken over (west) is over"),
        "{east2}"
    );
    let ends = end_lines(&east2);
    assert!(ends.contains(&"verdict: clean audit"), "{east2}");
    for s in ["south", "north"] {
        let t = text(s);
        let e = end_lines(&t);
        assert!(e.contains(&"verdict: clean audit"), "{s}: {t}");
        assert!(t.contains("ending: Played"), "{s}: {t}");
        for l in &e {
            assert!(ends.contains(l), "{s}: {l} not on East's device: {east2}");
        }
    }
}
