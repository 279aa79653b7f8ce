//! A seat handed over at a four-seat table, end to end over real QUIC on
//! 127.0.0.1 (issue 47): four `junqi-peer` processes; North's player agreed
//! to a hand-over (`--hand-over`) and leaves after a few moves; South's
//! device (the host) plays North's seat on with its computer player. The
//! three seats still at the table end with the same record and a clean
//! audit, and `junqi-audit` finds the same in a saved log.

use std::process::Command;
use std::time::{Duration, Instant};

mod support;
use support::{Scratch, spawn, wait_for_line};

const AUDIT: &str = env!("CARGO_BIN_EXE_junqi-audit");
const LIMIT: Duration = Duration::from_secs(120);

#[test]
fn a_seat_handed_over_is_played_on_by_its_partners_device() {
    let dir = Scratch::new("table-hand-over");
    let log = |s: &str| dir.0.join(format!("{s}.log"));
    let state = |s: &str| dir.0.join(s).to_string_lossy().into_owned();
    let south_state = state("south");
    let host_args = [
        "host",
        "--seats",
        "4",
        "--no-mdns",
        "--yes",
        "--ai",
        "greedy",
        "--seed",
        "3",
        "--state",
        &south_state,
    ];
    let mut seats = vec![("south", spawn(&host_args, &log("south")))];
    let addr = wait_for_line(&log("south"), "listening on ");
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
