//! The four-seat handle an app owns (`junqi_net::table_handle`): a host
//! whose device also runs two computer seats (East and West) and a guest
//! (North) play a whole 四暗 game on loopback, each person's moves sent as
//! commands; both end with the same record and a clean audit, the host's
//! seat table names every seat with its link, and the kept game file is
//! the table's signed log. A seat's device killed mid-game (a `junqi-peer`
//! process, SIGKILL) is taken up again by the handle from its journal
//! (`TableRole::Resume`), and the table plays on to one record. A guest's
//! seat table shows another guest's device going down when it is killed, as
//! the host reports it (`junqi_net::link_notice`). A guest's
//! device runs its partner seat's computer player (an enemy of the host's
//! team, so never on the host), and a seat whose player agreed to a
//! hand-over and left is played on by its partner's device.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use junqi_game::ai::{Ai, Level, Player};
use junqi_game::{Action, Mode, Rules};
use junqi_net::four::{Body4, Ending, FourSeat, FourVerdict};
use junqi_net::table::{TableCmd, is_table_file, load_log};
use junqi_net::table_handle::{
    ComputerHome, LINK_FILE, SeatInfo, TableHandle, TableReport, TableRole, computer_name,
    partner_computer_name,
};

mod support;
use support::{Scratch, spawn};

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("junqi-handle-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// Plays one person's seat by the engine until its table is over.
struct Person {
    handle: TableHandle,
    ai: Ai,
    seats: Option<Box<[SeatInfo; 4]>>,
    verdict: Option<(FourVerdict, Option<PathBuf>)>,
    code: Option<String>,
    port: Option<u16>,
    stopped: bool,
    /// Own moves before the person leaves the table (`None`: stays).
    leave_after: Option<u32>,
}

impl Person {
    fn new(handle: TableHandle, seed: u64) -> Person {
        Person {
            handle,
            ai: Ai::new(Level::Novice, seed),
            seats: None,
            verdict: None,
            code: None,
            port: None,
            stopped: false,
            leave_after: None,
        }
    }

    /// Takes the reports that came; acts on them as a player would.
    fn poll(&mut self) {
        while let Some(r) = self.handle.try_recv() {
            let turn = match r {
                TableReport::Listening { port } => {
                    self.port = Some(port);
                    None
                }
                TableReport::Seats(s) => {
                    self.seats = Some(s);
                    None
                }
                TableReport::PairingCode { code, rules } => {
                    assert_eq!(rules.mode, Mode::Dark);
                    self.code = Some(code);
                    self.handle.send(TableCmd::Confirm);
                    None
                }
                TableReport::Started { view, my_turn, .. }
                | TableReport::View { view, my_turn, .. }
                | TableReport::Voided { view, my_turn } => my_turn.then_some(view),
                TableReport::Turn(_) | TableReport::Refused(_) => None,
                TableReport::AnswerDraw { .. } => {
                    self.handle.send(TableCmd::AnswerDraw(false));
                    None
                }
                TableReport::Over { verdict, kept } => {
                    self.verdict = Some((*verdict, kept));
                    None
                }
                TableReport::Error(e) => panic!("the table failed: {e}"),
                TableReport::Stopped => {
                    self.stopped = true;
                    None
                }
            };
            if turn.is_some()
                && let Some(n) = self.leave_after.as_mut()
            {
                if *n == 0 {
                    self.leave_after = None;
                    self.handle.send(TableCmd::Leave);
                    continue;
                }
                *n -= 1;
            }
            if let Some(view) = turn
                && let Action::Move(m) = self.ai.act(&view, &|| false)
            {
                self.handle.send(TableCmd::Play(m));
            }
        }
    }
}

#[test]
fn a_host_with_two_computer_seats_and_a_guest_play_a_whole_table() {
    let (hd, gd) = (temp_dir("host"), temp_dir("guest"));
    let (mut host, addr) = start_host(&hd);
    let layout = Ai::new(Level::Novice, 1).layout(&Rules::four_player(Mode::Dark));
    let mut guest = Person::new(
        TableHandle::start(
            TableRole::Join {
                addr,
                seat: FourSeat::North,
                name: "bob".into(),
                layout,
                computers: Vec::new(),
                hand_over: false,
            },
            Some(gd.clone()),
            || {},
        ),
        8,
    );
    let give_up = Instant::now() + Duration::from_secs(600);
    while !(host.stopped && guest.stopped) {
        assert!(Instant::now() < give_up, "the table ends");
        host.poll();
        guest.poll();
        std::thread::sleep(Duration::from_millis(5));
    }
    // One code on both screens.
    assert!(host.code.is_some());
    assert_eq!(host.code, guest.code);
    // The host's seat table: every name, the computers marked as run by the
    // host, the guest's link known.
    let seats = host.seats.expect("the seat table");
    assert_eq!(seats[0].name.as_deref(), Some("alice"));
    assert_eq!(seats[2].name.as_deref(), Some("bob"));
    assert_eq!(seats[1].name, Some(computer_name(1)));
    assert_eq!(seats[1].computer(), Some(1));
    assert_eq!(seats[3].computer(), Some(1));
    assert_eq!(seats[2].computer(), None);
    assert!(seats[2].link.is_some());
    // The guest knows the names too.
    let gseats = guest.seats.expect("the guest's seat table");
    assert_eq!(gseats[0].name.as_deref(), Some("alice"));
    assert_eq!(gseats[3].computer(), Some(1));
    let (hv, hk) = host.verdict.expect("the host's verdict");
    let (gv, gk) = guest.verdict.expect("the guest's verdict");
    assert_eq!(hv.ending, Ending::Played, "{hv:?}");
    assert!(hv.blame.is_none() && gv.blame.is_none());
    assert!(hv.result.is_some());
    assert_eq!(hv.result, gv.result);
    assert!(hv.record.is_some());
    assert_eq!(hv.record, gv.record);
    // The kept game files are the table's log, for junqi-audit; the journals are gone.
    for k in [hk, gk] {
        let bytes = std::fs::read(k.expect("a kept game file")).unwrap();
        assert!(is_table_file(&bytes));
        load_log(&bytes).expect("a table's log");
    }
    assert!(!hd.join(junqi_net::table_journal::JOURNAL_FILE).exists());
    assert!(!gd.join(junqi_net::table_journal::JOURNAL_FILE).exists());
    let _ = std::fs::remove_dir_all(&hd);
    let _ = std::fs::remove_dir_all(&gd);
}

fn start_host(dir: &std::path::Path) -> (Person, std::net::SocketAddr) {
    start_host_with(dir, vec![(FourSeat::East, 1), (FourSeat::West, 1)])
}

/// A host (alice, 四暗, 20 s a move) whose device runs `computers`, listening on loopback.
fn start_host_with(
    dir: &std::path::Path,
    computers: Vec<(FourSeat, u8)>,
) -> (Person, std::net::SocketAddr) {
    let rules = Rules {
        move_seconds: 20,
        ..Rules::four_player(Mode::Dark)
    };
    let layout = Ai::new(Level::Novice, 1).layout(&rules);
    let mut host = Person::new(
        TableHandle::start(
            TableRole::Host {
                rules,
                name: "alice".into(),
                layout,
                port: 0,
                mdns: false,
                computers,
            },
            Some(dir.to_path_buf()),
            || {},
        ),
        7,
    );
    let give_up = Instant::now() + Duration::from_secs(20);
    while host.port.is_none() {
        assert!(Instant::now() < give_up, "the host listens");
        host.poll();
        std::thread::sleep(Duration::from_millis(10));
    }
    let addr = format!("127.0.0.1:{}", host.port.unwrap()).parse().unwrap();
    (host, addr)
}

#[test]
fn a_seat_killed_mid_game_is_resumed_by_the_handle_from_its_journal() {
    let scratch = Scratch::new("handle-resume");
    let hd = scratch.0.join("host");
    let nd = scratch.0.join("north");
    let (mut host, addr) = start_host(&hd);
    let log = scratch.0.join("north.log");
    let (a, n) = (addr.to_string(), nd.to_string_lossy().into_owned());
    let mut north = spawn(
        &[
            "join", "--seat", "north", "--addr", &a, "--yes", "--ai", "random", "--seed", "5",
            "--state", &n,
        ],
        &log,
    );
    // Until North's device has played a while, then it crashes.
    let give_up = Instant::now() + Duration::from_secs(120);
    loop {
        host.poll();
        let events = std::fs::read_to_string(&log)
            .unwrap_or_default()
            .lines()
            .filter(|l| l.starts_with("event: "))
            .count();
        if events >= 30 {
            break;
        }
        assert!(host.verdict.is_none(), "the game ended before the crash");
        assert!(Instant::now() < give_up, "North plays");
        std::thread::sleep(Duration::from_millis(5));
    }
    north.0.kill().unwrap();
    let _ = north.0.wait();
    assert!(nd.join(junqi_net::table_journal::JOURNAL_FILE).exists());
    // The app's handle takes the seat up again (it dials the host it joined).
    std::fs::write(nd.join(LINK_FILE), format!("join {addr}\n")).unwrap();
    let mut back = Person::new(
        TableHandle::start(TableRole::Resume, Some(nd.clone()), || {}),
        9,
    );
    let give_up = Instant::now() + Duration::from_secs(600);
    while !(host.stopped && back.stopped) {
        assert!(Instant::now() < give_up, "the table ends");
        host.poll();
        back.poll();
        std::thread::sleep(Duration::from_millis(5));
    }
    let (hv, _) = host.verdict.expect("the host's verdict");
    let (bv, kept) = back.verdict.expect("the resumed seat's verdict");
    assert_eq!(hv.ending, Ending::Played, "{hv:?}");
    assert!(hv.blame.is_none() && bv.blame.is_none());
    assert!(hv.record.is_some());
    assert_eq!(hv.record, bv.record);
    assert!(kept.is_some());
    // The resumed seat's seat table knows the names again (from its journal's hellos).
    assert_eq!(back.seats.expect("seats")[0].name.as_deref(), Some("alice"));
}

#[test]
fn a_guest_sees_another_guests_killed_device_go_down() {
    let scratch = Scratch::new("handle-links");
    let (mut host, addr) = start_host_with(&scratch.0.join("host"), Vec::new());
    let layout = Ai::new(Level::Novice, 2).layout(&Rules::four_player(Mode::Dark));
    let mut north = Person::new(
        TableHandle::start(
            TableRole::Join {
                addr,
                seat: FourSeat::North,
                name: "bob".into(),
                layout,
                computers: Vec::new(),
                hand_over: false,
            },
            None,
            || {},
        ),
        8,
    );
    let a = addr.to_string();
    let peer = |seat: &str, seed: &str| {
        let log = scratch.0.join(format!("{seat}.log"));
        let args = [
            "join", "--seat", seat, "--addr", &a, "--yes", "--ai", "random", "--seed", seed,
        ];
        (spawn(&args, &log), log)
    };
    let (_east, _) = peer("east", "5");
    let (mut west, west_log) = peer("west", "6");
    let link = |p: &Person, seat: FourSeat| p.seats.as_ref().and_then(|s| s[seat.index()].link);
    // North's seat table: every other guest's device up as the host reports it, once play is
    // under way.
    let give_up = Instant::now() + Duration::from_secs(120);
    loop {
        host.poll();
        north.poll();
        let events = std::fs::read_to_string(&west_log)
            .unwrap_or_default()
            .lines()
            .filter(|l| l.starts_with("event: "))
            .count();
        if events >= 10 && link(&north, FourSeat::West) == Some(true) {
            break;
        }
        assert!(north.verdict.is_none(), "the game ended first");
        assert!(
            Instant::now() < give_up,
            "North's seat table shows West's link: {:?}",
            north.seats
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(link(&north, FourSeat::East), Some(true));
    assert_eq!(link(&north, FourSeat::South), Some(true));
    // West's device dies: the host sees its connection time out, and North hears of it.
    west.0.kill().unwrap();
    let _ = west.0.wait();
    let give_up = Instant::now() + Duration::from_secs(30);
    while link(&north, FourSeat::West) != Some(false) {
        host.poll();
        north.poll();
        assert!(
            Instant::now() < give_up,
            "North sees West down: {:?}",
            north.seats
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(link(&host, FourSeat::West), Some(false));
    assert_eq!(link(&north, FourSeat::East), Some(true));
    assert_eq!(link(&north, FourSeat::South), Some(true));
    // An advisory notice: nothing in the game follows from it (West is timed out by the clock).
    assert!(north.verdict.is_none() && host.verdict.is_none());
}

fn join(
    addr: std::net::SocketAddr,
    seat: FourSeat,
    name: &str,
    dir: &std::path::Path,
    computers: Vec<(FourSeat, u8)>,
    hand_over: bool,
    seed: u64,
) -> Person {
    let layout = Ai::new(Level::Novice, seed).layout(&Rules::four_player(Mode::Dark));
    Person::new(
        TableHandle::start(
            TableRole::Join {
                addr,
                seat,
                name: name.into(),
                layout,
                computers,
                hand_over,
            },
            Some(dir.to_path_buf()),
            || {},
        ),
        seed,
    )
}

/// Polls every person until each one's table stopped.
fn play_out(people: &mut [&mut Person]) {
    let give_up = Instant::now() + Duration::from_secs(600);
    while !people.iter().all(|p| p.stopped) {
        assert!(Instant::now() < give_up, "the table ends");
        for p in people.iter_mut() {
            p.poll();
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn a_guests_device_runs_its_partner_seats_computer_and_the_table_plays_out_clean() {
    let scratch = Scratch::new("handle-partner-computer");
    let (hd, nd, wd) = (
        scratch.0.join("host"),
        scratch.0.join("north"),
        scratch.0.join("west"),
    );
    // East is a computer whose partner, West, is a player: it comes with
    // West's seat to the device that takes it, not to the host's.
    let (mut host, addr) = start_host_with(&hd, vec![(FourSeat::East, 1)]);
    let mut north = join(addr, FourSeat::North, "bob", &nd, Vec::new(), false, 8);
    let mut west = join(
        addr,
        FourSeat::West,
        "carol",
        &wd,
        vec![(FourSeat::East, 1)],
        false,
        9,
    );
    play_out(&mut [&mut host, &mut north, &mut west]);
    assert!(host.code.is_some());
    assert_eq!(host.code, north.code);
    assert_eq!(host.code, west.code);
    // Every seat table names East as a computer run by its partner's
    // device, before the code was confirmed (the names are the hellos').
    for p in [&host, &north, &west] {
        let seats = p.seats.as_ref().expect("the seat table");
        assert_eq!(seats[1].name, Some(partner_computer_name(1)));
        assert_eq!(seats[1].computer(), Some(1));
        assert_eq!(seats[1].computer_home(), Some(ComputerHome::Partner));
        assert_eq!(seats[3].name.as_deref(), Some("carol"));
        assert_eq!(seats[3].computer(), None);
    }
    // East's seat ran on West's device (its journal folder), not the host's.
    assert!(wd.join("computer-1").is_dir());
    assert!(!hd.join("computer-1").exists());
    let verdicts: Vec<FourVerdict> = [host, north, west]
        .into_iter()
        .map(|p| p.verdict.expect("a verdict").0)
        .collect();
    for v in &verdicts {
        assert_eq!(v.ending, Ending::Played, "{v:?}");
        assert!(v.blame.is_none(), "{v:?}");
        assert!(v.record.is_some());
        assert_eq!(v.record, verdicts[0].record);
        assert_eq!(v.result, verdicts[0].result);
    }
}

#[test]
fn a_seat_that_leaves_after_agreeing_is_played_on_by_its_partners_handle() {
    let scratch = Scratch::new("handle-hand-over");
    let (hd, nd) = (scratch.0.join("host"), scratch.0.join("north"));
    let (mut host, addr) = start_host(&hd);
    // North agreed to a hand-over and leaves on its fourth turn.
    let mut north = join(addr, FourSeat::North, "bob", &nd, Vec::new(), true, 8);
    north.leave_after = Some(3);
    play_out(&mut [&mut host, &mut north]);
    let (nv, _) = north.verdict.expect("the leaver's verdict");
    assert_eq!(nv.ending, Ending::Left(FourSeat::North), "{nv:?}");
    assert!(nv.blame.is_none(), "{nv:?}");
    // The host's device played North's seat on to the end of the game:
    // nobody blamed, a clean audit, North marked as handed over.
    let (hv, kept) = host.verdict.expect("the host's verdict");
    assert_eq!(hv.ending, Ending::Played, "{hv:?}");
    assert!(hv.blame.is_none(), "{hv:?}");
    assert!(hv.record.is_some() && hv.result.is_some(), "{hv:?}");
    let seats = host.seats.expect("the seat table");
    assert!(seats[2].hand_over && seats[2].handed_over, "{seats:?}");
    // A seat that agreed to a hand-over is named like any other (its hello is of its own kind).
    assert_eq!(seats[2].name.as_deref(), Some("bob"));
    assert!(!seats[0].hand_over && !seats[0].handed_over, "{seats:?}");
    assert!(!seats[1].hand_over && !seats[3].handed_over, "{seats:?}");
    let log = load_log(&std::fs::read(kept.expect("a kept game file")).unwrap()).unwrap();
    // North's seat moved on after its hand-over (its moves signed by the
    // host's device), not only timed out.
    let north = |e: &&junqi_net::four::log::Envelope4| e.signed.header.sender == FourSeat::North;
    let handed = log
        .envelopes()
        .filter(north)
        .position(|e| matches!(e.body, Body4::HandOver { .. }))
        .expect("North's hand-over in the log");
    let after = log
        .envelopes()
        .filter(north)
        .skip(handed + 1)
        .filter(|e| matches!(e.body, Body4::Move { .. } | Body4::Attack { .. }))
        .count();
    assert!(after >= 3, "North's seat played on: {after} moves");
    let audit = junqi_net::four::audit_table(&log);
    assert!(
        matches!(&audit, junqi_net::four::AuditOutcome::Clean { record, .. } if Some(record) == hv.record.as_ref()),
        "{audit:?}"
    );
}
