//! What the process tests share: a scratch directory, a `junqi-peer` process
//! killed on drop, and waiting for a line in its log.

// Each test crate uses a part of it.
#![allow(dead_code)]

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The `junqi-peer` binary built for these tests.
pub(crate) const PEER: &str = env!("CARGO_BIN_EXE_junqi-peer");

/// A scratch directory removed on drop.
pub(crate) struct Scratch(pub(crate) PathBuf);

impl Scratch {
    /// An empty directory `junqi-{name}-{pid}` under the system's temporary directory.
    pub(crate) fn new(name: &str) -> Scratch {
        let d = std::env::temp_dir().join(format!("junqi-{name}-{}", std::process::id()));
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

/// A `junqi-peer` process; killed on drop if still running.
pub(crate) struct Seat(pub(crate) Child);

impl Drop for Seat {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `junqi-peer args`, its output (both streams) going to `log`.
pub(crate) fn spawn(args: &[&str], log: &Path) -> Seat {
    let out = File::create(log).unwrap();
    let err = out.try_clone().unwrap();
    Seat(
        Command::new(PEER)
            .args(args)
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .spawn()
            .expect("junqi-peer starts"),
    )
}

/// The rest of the first line of `log` that starts with `prefix`, waiting up to 20 s.
pub(crate) fn wait_for_line(log: &Path, prefix: &str) -> String {
    let t0 = Instant::now();
    while t0.elapsed() < Duration::from_secs(20) {
        let text = std::fs::read_to_string(log).unwrap_or_default();
        if let Some(l) = text.lines().find_map(|l| l.strip_prefix(prefix)) {
            return l.trim().to_owned();
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!(
        "no {prefix:?}: {}",
        std::fs::read_to_string(log).unwrap_or_default()
    );
}

/// A four-seat host (`junqi-peer host --seats 4`, South, greedy, seed 3, on loopback without
/// mDNS) with `extra` options, keeping its state in `dir/south` and its output in
/// `dir/south.log`: the process and the address it listens on.
pub(crate) fn spawn_table_host(dir: &Path, extra: &[&str]) -> (Seat, String) {
    let state = dir.join("south").to_string_lossy().into_owned();
    let mut args = vec![
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
        &state,
    ];
    args.extend_from_slice(extra);
    let log = dir.join("south.log");
    let seat = spawn(&args, &log);
    let addr = wait_for_line(&log, "listening on ");
    (seat, addr)
}
