//! A four-seat device killed mid-game (SIGKILL) and started again with the
//! same `--state DIR` resumes its seat from the journal it kept before each
//! send (issue 47): the table plays on to one result, one record and a
//! clean audit on all four. A device started again from an older copy of
//! its journal stops with exit 4 (`StaleJournal`), nobody blamed.

use std::path::Path;
use std::time::{Duration, Instant};

mod support;
use support::{Scratch, Seat, spawn, spawn_table_host, wait_for_line};

const LIMIT: Duration = Duration::from_secs(180);

fn events(log: &Path) -> usize {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .filter(|l| l.starts_with("event: "))
        .count()
}

/// The end every seat must print alike.
fn end_lines(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| {
            ["ending:", "result:", "record:", "verdict:"]
                .iter()
                .any(|p| l.starts_with(p))
        })
        .collect()
}

/// A table of four with East's arguments; returns the scratch dir, the
/// seats (East last) and East's arguments.
fn table(name: &str) -> (Scratch, Vec<Seat>, Vec<String>) {
    let dir = Scratch::new(&format!("resume-{name}"));
    let d = dir.0.clone();
    let log = |s: &str| d.join(format!("{s}.log"));
    let state = |s: &str| d.join(s).to_string_lossy().into_owned();
    let (host, addr) = spawn_table_host(&d, &[]);
    let mut seats = vec![host];
    for (i, s) in ["north", "west"].into_iter().enumerate() {
        let seed = (i + 5).to_string();
        let st = state(s);
        let args = [
            "join", "--seat", s, "--addr", &addr, "--yes", "--ai", "random", "--seed", &seed,
            "--state", &st,
        ];
        seats.push(spawn(&args, &log(s)));
    }
    let east: Vec<String> = [
        "join",
        "--seat",
        "east",
        "--addr",
        &addr,
        "--yes",
        "--ai",
        "greedy",
        "--seed",
        "4",
        "--state",
        &state("east"),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let args: Vec<&str> = east.iter().map(String::as_str).collect();
    seats.push(spawn(&args, &log("east")));
    (dir, seats, east)
}

fn wait_all(seats: &mut [Seat]) -> Vec<Option<i32>> {
    let t0 = Instant::now();
    let mut codes = Vec::new();
    for seat in seats {
        loop {
            if let Some(status) = seat.0.try_wait().unwrap() {
                codes.push(status.code());
                break;
            }
            assert!(t0.elapsed() < LIMIT, "the table did not finish in time");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    codes
}

#[test]
fn a_guest_killed_mid_game_resumes_its_seat_from_its_journal() {
    let (dir, mut seats, east) = table("kill");
    let log = |s: &str| dir.0.join(format!("{s}.log"));
    let t0 = Instant::now();
    while events(&log("east")) < 30 {
        assert!(t0.elapsed() < LIMIT, "the game never got going");
        std::thread::sleep(Duration::from_millis(5));
    }
    let mut killed = seats.pop().expect("east");
    killed.0.kill().expect("SIGKILL");
    let _ = killed.0.wait();
    let before = std::fs::read_to_string(log("east")).unwrap();
    assert!(!before.contains("ending:"), "killed mid-game: {before}");
    let args: Vec<&str> = east.iter().map(String::as_str).collect();
    seats.push(spawn(&args, &log("east2")));
    let codes = wait_all(&mut seats);
    let texts: Vec<String> = ["south", "north", "west", "east2"]
        .iter()
        .map(|s| std::fs::read_to_string(log(s)).unwrap())
        .collect();
    assert!(
        texts[3].contains("resumed east from its journal"),
        "{}",
        texts[3]
    );
    for (t, c) in texts.iter().zip(&codes) {
        assert_eq!(*c, Some(0), "{t}");
    }
    let ends: Vec<Vec<&str>> = texts.iter().map(|t| end_lines(t)).collect();
    for e in &ends {
        assert_eq!(e, &ends[0], "one end on every seat");
    }
    assert!(ends[0].contains(&"verdict: clean audit"), "{}", texts[0]);
    assert!(ends[0].contains(&"ending: Played"));
}

#[test]
fn a_guest_started_again_from_an_older_journal_stops_with_exit_4() {
    let (dir, mut seats, east) = table("stale");
    let log = |s: &str| dir.0.join(format!("{s}.log"));
    let journal = dir.0.join("east").join("journal4.bin");
    let t0 = Instant::now();
    while events(&log("east")) < 20 {
        assert!(t0.elapsed() < LIMIT, "the game never got going");
        std::thread::sleep(Duration::from_millis(5));
    }
    let old = std::fs::read(&journal).expect("East keeps a journal");
    while events(&log("east")) < 60 {
        assert!(t0.elapsed() < LIMIT, "the game stopped");
        std::thread::sleep(Duration::from_millis(5));
    }
    let mut killed = seats.pop().expect("east");
    killed.0.kill().expect("SIGKILL");
    let _ = killed.0.wait();
    assert_ne!(
        std::fs::read(&journal).unwrap(),
        old,
        "East sent more since"
    );
    std::fs::write(&journal, &old).unwrap();
    let args: Vec<&str> = east.iter().map(String::as_str).collect();
    let mut again = spawn(&args, &log("east2"));
    let t1 = Instant::now();
    let status = loop {
        if let Some(s) = again.0.try_wait().unwrap() {
            break s;
        }
        assert!(t1.elapsed() < Duration::from_secs(60), "East never stopped");
        std::thread::sleep(Duration::from_millis(50));
    };
    let text = std::fs::read_to_string(log("east2")).unwrap();
    assert_eq!(status.code(), Some(4), "{text}");
    assert!(text.contains("ending: StaleJournal"), "{text}");
    assert!(
        !text
            .lines()
            .any(|l| l.starts_with("verdict: ") && l != "verdict: not audited"),
        "{text}"
    );
    assert_eq!(
        std::fs::read(&journal).unwrap(),
        old,
        "the journal is kept as it was"
    );
}

#[test]
fn a_host_killed_mid_game_resumes_and_its_guests_come_back() {
    let (dir, mut seats, _) = table("host");
    let log = |s: &str| dir.0.join(format!("{s}.log"));
    let addr = wait_for_line(&log("south"), "listening on ");
    let port = addr.rsplit(':').next().expect("a port").to_owned();
    let t0 = Instant::now();
    while events(&log("south")) < 30 {
        assert!(t0.elapsed() < LIMIT, "the game never got going");
        std::thread::sleep(Duration::from_millis(5));
    }
    let mut host = seats.remove(0);
    host.0.kill().expect("SIGKILL");
    let _ = host.0.wait();
    let south_state = dir.0.join("south").to_string_lossy().into_owned();
    let args = [
        "host",
        "--seats",
        "4",
        "--no-mdns",
        "--yes",
        "--ai",
        "greedy",
        "--seed",
        "3",
        "--port",
        &port,
        "--state",
        &south_state,
    ];
    seats.insert(0, spawn(&args, &log("south2")));
    let codes = wait_all(&mut seats);
    let texts: Vec<String> = ["south2", "north", "west", "east"]
        .iter()
        .map(|s| std::fs::read_to_string(log(s)).unwrap())
        .collect();
    assert!(
        texts[0].contains("resumed south from its journal"),
        "{}",
        texts[0]
    );
    for (t, c) in texts.iter().zip(&codes) {
        assert_eq!(*c, Some(0), "{t}");
    }
    let ends: Vec<Vec<&str>> = texts.iter().map(|t| end_lines(t)).collect();
    for e in &ends {
        assert_eq!(e, &ends[0], "one end on every seat");
    }
    assert!(ends[0].contains(&"verdict: clean audit"), "{}", texts[0]);
}
