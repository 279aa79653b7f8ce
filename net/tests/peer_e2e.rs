//! End to end over real QUIC on 127.0.0.1: two `junqi-peer` processes (the
//! built binary) play whole dark, open and flip games with AI players; both
//! must print the same public events and result, and both audits must come
//! out clean. One test kills the guest mid-game with SIGKILL (in a dark and a
//! flip game) and restarts it from its saved state.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

const PEER: &str = env!("CARGO_BIN_EXE_junqi-peer");
/// Per game; a debug build plays one in a few seconds.
const LIMIT: Duration = Duration::from_secs(90);

/// A scratch directory removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let d = std::env::temp_dir().join(format!("junqi-e2e-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        Scratch(d)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A peer process; killed on drop if still running.
struct Peer {
    child: Child,
    log: PathBuf,
}

impl Peer {
    fn spawn(args: &[&str], log: &Path) -> Peer {
        Peer::spawn_answering(args, log, None)
    }

    /// Spawns a peer whose stdin holds `answer` (then ends), or is empty.
    fn spawn_answering(args: &[&str], log: &Path, answer: Option<&str>) -> Peer {
        use std::io::Write;
        let out = File::create(log).unwrap();
        let err = out.try_clone().unwrap();
        let mut child = Command::new(PEER)
            .args(args)
            .stdin(if answer.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(out)
            .stderr(err)
            .spawn()
            .expect("junqi-peer starts");
        if let Some(a) = answer {
            let mut stdin = child.stdin.take().unwrap();
            stdin.write_all(a.as_bytes()).unwrap();
        }
        Peer {
            child,
            log: log.to_path_buf(),
        }
    }

    fn text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Waits until the log has a line for which `f` returns something.
    fn wait_line<T>(&mut self, what: &str, f: impl Fn(&str) -> Option<T>) -> T {
        let t0 = Instant::now();
        loop {
            if let Some(v) = self.text().lines().find_map(&f) {
                return v;
            }
            if let Ok(Some(st)) = self.child.try_wait() {
                panic!("peer exited ({st}) before {what}:\n{}", self.text());
            }
            assert!(t0.elapsed() < LIMIT, "no {what}:\n{}", self.text());
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn events(&self) -> usize {
        self.text()
            .lines()
            .filter(|l| l.starts_with("event:"))
            .count()
    }

    fn wait(&mut self) -> ExitStatus {
        let t0 = Instant::now();
        loop {
            if let Some(st) = self.child.try_wait().unwrap() {
                return st;
            }
            if t0.elapsed() > LIMIT {
                let _ = self.child.kill();
                panic!("peer did not finish:\n{}", self.text());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn lines_with(text: &str, prefix: &str) -> Vec<String> {
    text.lines()
        .filter(|l| l.starts_with(prefix))
        .map(str::to_owned)
        .collect()
}

/// Starts a host on a free loopback port (the peer binds port 0 and prints
/// it) and returns it with its address.
fn host(dir: &Path, mode: &str) -> (Peer, String) {
    let mut h = Peer::spawn(
        &[
            "host",
            "--mode",
            mode,
            "--ai",
            "greedy",
            "--seed",
            "3",
            "--port",
            "0",
            "--no-mdns",
            "--move-seconds",
            "20",
            "--yes",
        ],
        &dir.join("host.log"),
    );
    let addr = h.wait_line("listening", |l| {
        l.strip_prefix("listening on ").map(str::to_owned)
    });
    (h, addr)
}

fn guest(dir: &Path, addr: &str, seed: &str, state: Option<&Path>) -> Peer {
    let mut args = vec![
        "join", "--addr", addr, "--ai", "random", "--seed", seed, "--yes",
    ];
    let state = state.map(|s| s.to_str().unwrap().to_owned());
    if let Some(s) = &state {
        args.extend(["--state", s]);
    }
    Peer::spawn(&args, &dir.join(format!("guest-{seed}.log")))
}

fn whole_game(mode: &str) {
    let dir = Scratch::new(mode);
    let (mut h, addr) = host(&dir.0, mode);
    let mut g = guest(&dir.0, &addr, "4", None);
    let (gs, hs) = (g.wait(), h.wait());
    let (ht, gt) = (h.text(), g.text());
    assert!(
        hs.success() && gs.success(),
        "host {hs}, guest {gs}\n{ht}\n{gt}"
    );
    for t in [&ht, &gt] {
        assert!(t.contains("verdict: clean audit"), "{t}");
    }
    let result = lines_with(&ht, "result:");
    assert_eq!(result.len(), 1, "{ht}");
    assert_eq!(result, lines_with(&gt, "result:"));
    // Same public events, in the same order: the same final state.
    let (he, ge) = (lines_with(&ht, "event:"), lines_with(&gt, "event:"));
    assert!(he.len() > 10, "{ht}");
    assert_eq!(he, ge);
    assert_eq!(
        lines_with(&ht, "pairing code"),
        lines_with(&gt, "pairing code")
    );
}

#[test]
fn dark_game_between_two_processes() {
    whole_game("dark");
}

#[test]
fn open_game_between_two_processes() {
    whole_game("open");
}

#[test]
fn flip_game_between_two_processes() {
    whole_game("flip");
}

#[test]
fn guest_killed_mid_game_resumes_and_the_game_completes() {
    for mode in ["dark", "flip"] {
        let dir = Scratch::new(&format!("kill-{mode}"));
        let state = dir.0.join("guest-state");
        let (mut h, addr) = host(&dir.0, mode);
        let mut g = guest(&dir.0, &addr, "4", Some(&state));
        let log = g.log.clone();
        g.wait_line("12 events", |_| g_events_ready(&log, 12).then_some(()));
        g.child.kill().unwrap();
        g.child.wait().unwrap();
        let before = g.events();
        let mut g2 = guest(&dir.0, &addr, "5", Some(&state));
        let (gs, hs) = (g2.wait(), h.wait());
        let (ht, gt) = (h.text(), g2.text());
        assert!(
            hs.success() && gs.success(),
            "{mode}: host {hs}, guest {gs}\n{ht}\n{gt}"
        );
        assert!(gt.starts_with("resumed from"), "{mode}: {gt}");
        for t in [&ht, &gt] {
            assert!(t.contains("verdict: clean audit"), "{mode}: {t}");
        }
        assert_eq!(lines_with(&ht, "result:"), lines_with(&gt, "result:"));
        // The host saw the whole game: more than the guest saw before dying.
        assert!(lines_with(&ht, "event:").len() > before, "{mode}");
    }
}

fn g_events_ready(log: &Path, n: usize) -> bool {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .filter(|l| l.starts_with("event:"))
        .count()
        >= n
}

/// Without `--yes` each peer asks on stdin before anything about the setup is
/// sent: a yes plays the game, a no leaves before the game starts.
#[test]
fn the_pairing_prompt_gates_the_game() {
    let dir = Scratch::new("prompt");
    let args = |port: &str| -> Vec<String> {
        [
            "host",
            "--mode",
            "dark",
            "--ai",
            "greedy",
            "--seed",
            "3",
            "--port",
            port,
            "--no-mdns",
            "--move-seconds",
            "20",
        ]
        .map(str::to_owned)
        .to_vec()
    };
    // The host answers yes on stdin; the guest confirms with --yes.
    let a = args("0");
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    let mut h = Peer::spawn_answering(&a, &dir.0.join("host.log"), Some("y\n"));
    let addr = h.wait_line("listening", |l| {
        l.strip_prefix("listening on ").map(str::to_owned)
    });
    let mut g = guest(&dir.0, &addr, "4", None);
    let (gs, hs) = (g.wait(), h.wait());
    let (ht, gt) = (h.text(), g.text());
    assert!(
        hs.success() && gs.success(),
        "host {hs}, guest {gs}\n{ht}\n{gt}"
    );
    assert!(
        ht.contains("Same pairing code on both screens? [y/N]"),
        "{ht}"
    );
    assert!(!gt.contains("[y/N]"), "--yes does not ask: {gt}");
    assert!(ht.contains("verdict: clean audit"), "{ht}");
    assert_eq!(
        lines_with(&ht, "pairing code"),
        lines_with(&gt, "pairing code")
    );

    // Now the guest answers no: it leaves cleanly (exit 3) and the game never starts.
    let a = args("0");
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    let mut h = Peer::spawn_answering(&a, &dir.0.join("host2.log"), Some("y\n"));
    let addr = h.wait_line("listening", |l| {
        l.strip_prefix("listening on ").map(str::to_owned)
    });
    let state = dir.0.join("guest-state");
    let mut g = Peer::spawn_answering(
        &[
            "join",
            "--addr",
            &addr,
            "--ai",
            "random",
            "--seed",
            "4",
            "--state",
            state.to_str().unwrap(),
        ],
        &dir.0.join("guest-no.log"),
        Some("n\n"),
    );
    let gs = g.wait();
    let gt = g.text();
    assert_eq!(gs.code(), Some(3), "{gt}");
    assert!(gt.contains("pairing codes not confirmed: leaving"), "{gt}");
    assert!(!gt.contains("started:"), "{gt}");
    assert!(!h.text().contains("started:"), "{}", h.text());
    // Nothing is kept to resume a game the player refused.
    assert!(!state.join("game.bin").exists());
}
