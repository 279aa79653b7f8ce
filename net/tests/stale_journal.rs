//! Two `junqi-peer` processes on loopback (issue 46): the guest is killed
//! with SIGKILL during a battle and restarted from an older copy of its
//! journal, taken before its attack went out (a backup, a snapshot, a write
//! lost before it reached the disk). It must stop before sending anything
//! (what it would send next reuses the attack's sequence number, so its
//! battle secret `x`), say so, and blame nobody; from the two journals no
//! rank difference can be computed.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use junqi_net::Seat;
use junqi_net::envelope::Envelope;
use junqi_net::wire::Body;

const PEER: &str = env!("CARGO_BIN_EXE_junqi-peer");
const LIMIT: Duration = Duration::from_secs(90);

struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

struct Peer {
    child: Child,
    log: PathBuf,
}

impl Peer {
    fn spawn(args: &[&str], log: &Path) -> Peer {
        let out = File::create(log).unwrap();
        let err = out.try_clone().unwrap();
        let child = Command::new(PEER)
            .args(args)
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .spawn()
            .expect("junqi-peer starts");
        Peer {
            child,
            log: log.to_path_buf(),
        }
    }

    fn text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    fn wait_text(&mut self, what: &str) {
        let t0 = Instant::now();
        while !self.text().contains(what) {
            assert!(t0.elapsed() < LIMIT, "no {what}:\n{}", self.text());
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

fn journal(dir: &Path) -> Vec<Envelope<Body>> {
    junqi_net::resume::load(&dir.join("game.bin"))
        .map(|s| s.log)
        .unwrap_or_default()
}

fn guest_attacks(log: &[Envelope<Body>]) -> Vec<(u64, [u8; 32])> {
    log.iter()
        .filter(|e| e.header.sender == Seat::Guest)
        .filter_map(|e| match e.body {
            Body::Attack { r, .. } => Some((e.header.seq, r)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_guest_restored_from_an_older_journal_stops_and_nothing_leaks() {
    let dir = std::env::temp_dir().join(format!("junqi-stale-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let scratch = Scratch(dir.clone());
    let (hs, gs) = (dir.join("host-state"), dir.join("guest-state"));
    let mut h = Peer::spawn(
        &[
            "host",
            "--mode",
            "dark",
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
            "--state",
            hs.to_str().unwrap(),
        ],
        &dir.join("host.log"),
    );
    h.wait_text("listening on ");
    let addr = h
        .text()
        .lines()
        .find_map(|l| l.strip_prefix("listening on ").map(str::to_owned))
        .unwrap();
    let guest_args = |seed: &'static str| -> Vec<String> {
        [
            "join",
            "--addr",
            &addr,
            "--ai",
            "random",
            "--seed",
            seed,
            "--yes",
            "--state",
            gs.to_str().unwrap(),
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .collect()
    };
    let args: Vec<String> = guest_args("4");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut g = Peer::spawn(&args, &dir.join("guest.log"));
    // Keep the latest copy of the guest's journal from before its first
    // attack; kill it once the host holds that attack (mid-battle or just after).
    let older = dir.join("older.bin");
    let t0 = Instant::now();
    let attack_seq = loop {
        assert!(
            t0.elapsed() < LIMIT,
            "no attack by the guest:\n{}",
            g.text()
        );
        assert!(matches!(g.child.try_wait(), Ok(None)), "{}", g.text());
        // One copy, then read: the copy is what is checked.
        let copy = dir.join("copy.bin");
        if std::fs::copy(gs.join("game.bin"), &copy).is_err() {
            continue;
        }
        let Ok(saved) = junqi_net::resume::load(&copy) else {
            continue;
        };
        let attacks = guest_attacks(&saved.log);
        if attacks.is_empty() {
            std::fs::rename(&copy, &older).unwrap();
            continue;
        }
        let seq = attacks[0].0;
        if guest_attacks(&journal(&hs)).iter().any(|a| a.0 == seq) {
            break seq;
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    g.child.kill().unwrap();
    g.child.wait().unwrap();
    assert!(
        guest_attacks(&junqi_net::resume::load(&older).unwrap().log).is_empty(),
        "the older copy already had the attack"
    );
    std::fs::copy(&older, gs.join("game.bin")).unwrap();
    // Restarted from the older copy (another seed: it would pick another move).
    let args: Vec<String> = guest_args("5");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut g2 = Peer::spawn(&args, &dir.join("guest2.log"));
    let t0 = Instant::now();
    let status = loop {
        if let Some(st) = g2.child.try_wait().unwrap() {
            break st;
        }
        assert!(
            t0.elapsed() < LIMIT,
            "the restored guest did not stop:\n{}",
            g2.text()
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let gt = g2.text();
    // The message is shown, nobody is blamed, and the exit status says so.
    assert!(gt.contains("resumed from"), "{gt}");
    assert!(
        gt.contains("stopped, nobody blamed: this side's saved game is older than the game"),
        "{gt}"
    );
    assert_eq!(status.code(), Some(4), "{gt}");
    assert!(!gt.contains("cheated"), "{gt}");
    // Give the host a moment: it blames nobody either.
    std::thread::sleep(Duration::from_millis(500));
    let ht = h.text();
    assert!(!ht.contains("fault:") && !ht.contains("cheated"), "{ht}");
    // From the two journals: every attack of the guest's with one battle
    // counter k carries one R (two different R with one x give the rank
    // difference R1 - R2 = (c1 - c2)·S): none here.
    let (hl, gl) = (journal(&hs), journal(&gs));
    assert!(!hl.is_empty() && !gl.is_empty());
    let mut all = guest_attacks(&hl);
    all.extend(guest_attacks(&gl));
    for (i, a) in all.iter().enumerate() {
        for b in &all[i + 1..] {
            assert!(a.0 != b.0 || a.1 == b.1, "k = {} used twice", a.0);
        }
    }
    assert!(all.iter().any(|a| a.0 == attack_seq));
    println!("restored guest said: {}", gt.lines().last().unwrap_or(""));
    drop(scratch);
}
