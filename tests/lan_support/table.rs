//! Four-seat tables in the lobby (`tests/lan_four.rs`): a host app opening a table, an app taking
//! a seat from its lobby's list, the one pairing code, play by clicks to the result screens and
//! what those screens must agree on; and `junqi-peer` processes taking seats.

use std::fs::File;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use bevy::prelude::*;
use junqi::{
    model::{ActiveGame, LastGame},
    screens::{
        Screen,
        lobby::LobbyState,
        lobby_table::{SeatChoice, TableAction, TableLobby, TablePhase, is_table},
    },
};
use junqi_game::Rules;
use junqi_net::discovery::{Discovery, HostInfo, read_seats};
use junqi_net::four::FourSeat;

use super::{click_a_move, run_until, screen};

/// Where the app's four-seat lobby is.
pub(crate) fn phase(app: &App) -> TablePhase {
    app.world().resource::<TableLobby>().phase.clone()
}

/// Opens a four-seat table (四暗) from `app`'s lobby with East, North and West as `seats`; the
/// host's address (it listens on 127.0.0.1 without mDNS in tests).
pub(crate) fn host_table(app: &mut App, seats: [SeatChoice; 3]) -> SocketAddr {
    app.world_mut().write_message(TableAction::Setup);
    app.update();
    assert_eq!(phase(app), TablePhase::Setup);
    app.world_mut().resource_mut::<TableLobby>().setup.seats = seats;
    app.world_mut().write_message(TableAction::Host);
    let mut port = None;
    run_until(&mut [app], 20, |apps| {
        if let TablePhase::Waiting { port: Some(p) } = phase(apps[0]) {
            port = Some(p);
        }
        port.is_some()
    });
    format!("127.0.0.1:{}", port.unwrap()).parse().unwrap()
}

/// Feeds `app`'s lobby the table at `addr` (hosted by `host`, `free` its free seats and `with`
/// the computer seats that come with them, as mDNS would say them), checks the lobby lists it as a table with those seats, and takes `seat`.
pub(crate) fn take_seat(
    app: &mut App,
    feed: &mpsc::Sender<Discovery>,
    host: &str,
    addr: SocketAddr,
    (free, with): (&str, Option<&str>),
    seat: FourSeat,
) {
    let info = HostInfo {
        fullname: format!("{host}._junqi._udp.local."),
        name: host.into(),
        version: 1,
        rules: "four dark 30s".into(),
        addrs: vec![addr],
        free_seats: read_seats(Some(free), with),
    };
    assert!(is_table(&info));
    feed.send(Discovery::Found(info.clone())).unwrap();
    app.update();
    let listed = app
        .world()
        .resource::<LobbyState>()
        .hosts
        .hosts()
        .into_iter()
        .find(|h| h.fullname == info.fullname)
        .cloned()
        .expect("the table is listed");
    assert_eq!(listed.free_seats, read_seats(Some(free), with));
    app.world_mut().write_message(TableAction::Join {
        fullname: info.fullname,
        seat,
    });
}

/// Waits until every app shows the pairing code; the code (the same on every screen) and the
/// table's rules.
pub(crate) fn pairing(apps: &mut [&mut App]) -> (String, Rules) {
    run_until(apps, 60, |apps| {
        apps.iter()
            .all(|x| matches!(phase(x), TablePhase::Pairing { .. }))
    });
    let code = |x: &App| match phase(x) {
        TablePhase::Pairing { code, rules, .. } => (code, rules),
        p => panic!("not pairing: {p:?}"),
    };
    let first = code(apps[0]);
    for x in apps.iter() {
        assert_eq!(code(x).0, first.0, "one code on every screen");
    }
    first
}

/// `first` confirms the pairing code while `other` has not: nothing starts (`first` stays in
/// its lobby).
pub(crate) fn confirm_alone_starts_nothing(first: &mut App, other: &mut App) {
    first.world_mut().write_message(TableAction::Confirm);
    for _ in 0..50 {
        first.update();
        other.update();
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(
        screen(first),
        Screen::Lobby,
        "no play before every player confirmed"
    );
}

/// Plays every app's seat by clicks until all show the result screen, then waits for the
/// audit's verdict and the saved record; each app's last game.
pub(crate) fn play_to_the_end(apps: &mut [&mut App]) -> Vec<LastGame> {
    let mut n = 0usize;
    run_until(apps, 900, |apps| {
        for x in apps.iter_mut() {
            n += 1;
            click_a_move(x, n);
            // A table over without a result stays on the board: fail now, saying how it ended.
            let g = x.world().get_resource::<ActiveGame>();
            if let Some(v) = g
                .and_then(|g| g.lan_state())
                .and_then(|l| l.table.as_ref())
                .and_then(|t| t.verdict.as_ref())
            {
                assert!(
                    v.result.is_some(),
                    "the table ended without a result: {v:?}"
                );
            }
        }
        apps.iter().all(|x| screen(x) == Screen::GameOver)
    });
    run_until(apps, 60, |apps| {
        apps.iter().all(|x| {
            x.world()
                .get_resource::<LastGame>()
                .is_some_and(|l| l.game.is_some())
        })
    });
    apps.iter()
        .map(|x| x.world().resource::<LastGame>().clone())
        .collect()
}

/// Checks what every result screen must agree on: a result, the same for all, a clean audit
/// with the record, the record saved with the table's signed log beside it (for junqi-audit),
/// the same record everywhere.
pub(crate) fn check_same_clean_end(lasts: &[LastGame]) {
    let first = &lasts[0];
    assert!(first.result.is_some());
    for l in lasts {
        assert!(l.four);
        assert_eq!(l.result, first.result);
        let t = l
            .lan
            .as_ref()
            .and_then(|l| l.table.as_ref())
            .expect("a table");
        let v = t.verdict.as_ref().expect("the verdict");
        assert!(v.blame.is_none(), "{v:?}");
        assert!(v.record.is_some());
        let saved = l.saved.as_ref().expect("the record saved");
        assert!(saved.exists());
        let log = junqi::lan::files::record_journal(saved);
        let bytes = std::fs::read(&log).expect("the table's log kept beside the record");
        assert!(junqi_net::table::load_log(&bytes).is_ok());
        assert_eq!(
            l.game.as_ref().unwrap().record,
            first.game.as_ref().unwrap().record
        );
    }
}

/// The `junqi-peer` binary: `JUNQI_PEER`, else the one cargo built beside this test's
/// (`target/debug/junqi-peer`; `cargo test --workspace` builds it for junqi-net's tests).
pub(crate) fn peer_binary() -> PathBuf {
    if let Some(p) = std::env::var_os("JUNQI_PEER") {
        return p.into();
    }
    let exe = std::env::current_exe().unwrap();
    let bin = exe
        .parent()
        .and_then(Path::parent)
        .expect("target/debug/deps")
        .join(format!("junqi-peer{}", std::env::consts::EXE_SUFFIX));
    assert!(
        bin.exists(),
        "{} is missing: build it first (cargo build -p junqi-net --bin junqi-peer) or set JUNQI_PEER",
        bin.display()
    );
    bin
}

/// A `junqi-peer` process at a table, its output in a log file; killed on drop if still
/// running.
pub(crate) struct PeerSeat {
    child: Child,
    log: PathBuf,
}

impl PeerSeat {
    /// `junqi-peer join --seat SEAT --addr ADDR --name NAME --ai AI --seed SEED --yes`, its
    /// output in `dir/SEAT.log`.
    pub(crate) fn join(
        dir: &Path,
        seat: &str,
        addr: SocketAddr,
        name: &str,
        (ai, seed): (&str, u64),
    ) -> PeerSeat {
        std::fs::create_dir_all(dir).unwrap();
        let log = dir.join(format!("{seat}.log"));
        let out = File::create(&log).unwrap();
        let err = out.try_clone().unwrap();
        let child = Command::new(peer_binary())
            .args([
                "join",
                "--seat",
                seat,
                "--addr",
                &addr.to_string(),
                "--name",
                name,
            ])
            .args(["--ai", ai, "--seed", &seed.to_string(), "--yes"])
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .spawn()
            .expect("junqi-peer starts");
        PeerSeat { child, log }
    }

    /// What it printed so far.
    pub(crate) fn output(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// The rest of the first printed line that starts with `prefix`.
    pub(crate) fn line(&self, prefix: &str) -> Option<String> {
        self.output()
            .lines()
            .find_map(|l| l.strip_prefix(prefix).map(str::to_owned))
    }

    /// Waits up to `secs` seconds for it to exit 0 (a clean audit); all it printed.
    pub(crate) fn finish(&mut self, secs: u64) -> String {
        let t0 = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                let out = self.output();
                assert!(status.success(), "junqi-peer exited with {status}:\n{out}");
                return out;
            }
            assert!(
                t0.elapsed() < Duration::from_secs(secs),
                "junqi-peer did not finish:\n{}",
                self.output()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for PeerSeat {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
