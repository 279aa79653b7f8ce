//! Headless tests of LAN play (`MinimalPlugins`, no window): the lobby's live host list, and a
//! whole LAN game between two apps in this process (two data folders) over QUIC on 127.0.0.1,
//! each through junqi-net's one handle — hosted from the setup screen's options, joined from the
//! lobby's list, the same pairing code confirmed in both lobbies, each player's army arranged on
//! its own setup screen and nothing started before both are ready, played by clicks on both
//! boards, a resignation and a clean audit on both result screens; the same on the big board
//! (两人四国棋盘: the lobby's row says so, each side arranges a half of it and sees its own half
//! at the bottom). Also: the guest app killed with SIGKILL mid-game (run as a child
//! process) and a new app resuming from its journal; leaving at the pairing code; a damaged
//! journal reported in the lobby.

mod lan_support;
use lan_support::{click_a_move, lobby_app, run_until, screen, temp_dir};

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use bevy::prelude::*;
use junqi::{
    board::BoardScene,
    i18n::Lang,
    lan::{LanLink, LanRequest},
    model::{ActiveGame, LastGame},
    screens::{
        Screen,
        game_hud::GameAction,
        lobby::{LobbyAction, LobbyPhase, LobbyState, rules_text},
        replay::ReplayState,
        setup::{SetupAction, SetupState, Table},
    },
    storage::DataDir,
};
use junqi_game::{Board, GameResult, Layout, Mode, Setup, Side, WinReason, classic_layouts};
use junqi_net::discovery::{Discovery, HostInfo};
use junqi_net::peer::{PeerCmd, PeerError};

fn host_info(name: &str, addr: SocketAddr) -> HostInfo {
    HostInfo {
        fullname: format!("{name}._junqi._udp.local."),
        name: name.into(),
        version: 1,
        rules: "flip 30s".into(),
        addrs: vec![addr],
        free_seats: None,
    }
}

#[test]
fn the_lobby_lists_hosts_as_they_appear_and_disappear() {
    let dir = temp_dir("lobby");
    let (mut app, tx) = lobby_app(&dir);
    let a = host_info("alice", "192.168.1.5:4000".parse().unwrap());
    let b = host_info("bob", "192.168.1.6:4000".parse().unwrap());
    tx.send(Discovery::Found(a.clone())).unwrap();
    tx.send(Discovery::Found(b.clone())).unwrap();
    app.update();
    let names: Vec<String> = app
        .world()
        .resource::<LobbyState>()
        .hosts
        .hosts()
        .iter()
        .map(|h| h.name.clone())
        .collect();
    assert_eq!(names, ["alice", "bob"]);
    // A four-seat table (it advertises its free seats) is listed too, as a table (apart from
    // the two-player hosts, with a seat picker: tests/lan_four.rs).
    let mut table = host_info("carol", "192.168.1.7:4000".parse().unwrap());
    table.free_seats = junqi_net::discovery::FreeSeats::parse("ENW");
    table.rules = "four dark 30s".into();
    tx.send(Discovery::Found(table.clone())).unwrap();
    app.update();
    let lobby = app.world().resource::<LobbyState>();
    assert_eq!(lobby.hosts.len(), 3);
    let tables: Vec<bool> = lobby
        .hosts
        .hosts()
        .iter()
        .map(|h| junqi::screens::lobby_table::is_table(h))
        .collect();
    assert_eq!(tables, [false, false, true]);
    tx.send(Discovery::Lost(table.fullname.clone())).unwrap();
    app.update();
    // A host seen again is updated in place, not listed twice.
    let mut a2 = a.clone();
    a2.rules = "dark 60s".into();
    tx.send(Discovery::Found(a2)).unwrap();
    tx.send(Discovery::Lost(b.fullname.clone())).unwrap();
    app.update();
    let lobby = app.world().resource::<LobbyState>();
    assert_eq!(lobby.hosts.len(), 1);
    assert_eq!(lobby.hosts.hosts()[0].rules, "dark 60s");
    assert_eq!(
        rules_text("dark 60s", junqi::i18n::Lang::Zh),
        "暗棋 · 每步 60 秒"
    );
    assert_eq!(
        rules_text("flip 30s", junqi::i18n::Lang::En),
        "Flip · 30 s per move"
    );
    // "Host a game" opens the setup screen for hosting.
    app.world_mut().write_message(LobbyAction::Host);
    app.update();
    app.update();
    assert_eq!(screen(&app), Screen::Setup);
    assert!(app.world().resource::<SetupState>().lan_host);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The pairing code the lobby shows, once both nonces are in, and whether the player is past it
/// (arranging its army).
fn shown_code(app: &App) -> Option<(String, bool)> {
    match &app.world().resource::<LobbyState>().phase {
        LobbyPhase::Pairing { code, .. } => Some((code.clone(), false)),
        LobbyPhase::Arranging { code, .. } => Some((code.clone(), true)),
        _ => None,
    }
}

/// Whether the app shows its LAN setup screen: (ready, the peer ready).
fn arranging(app: &App) -> Option<(bool, bool)> {
    let lan = app.world().resource::<SetupState>().lan.clone()?;
    (screen(app) == Screen::Setup).then_some((lan.ready, lan.peer_ready))
}

/// On the LAN setup screen and not ready yet: be ready with the layout shown.
fn ready_if_arranging(app: &mut App) {
    if arranging(app).is_some_and(|(ready, _)| !ready) {
        app.world_mut().write_message(SetupAction::March);
    }
}

/// Both lobbies show the pairing code and wait: nothing starts before both players press
/// "codes match", each then arranges its army on its own setup screen, and nothing starts
/// before both are ready. `guest_layout`: the guest's army, arranged before it is ready.
/// Returns the code (the same on both).
fn confirm_pairing(host: &mut App, guest: &mut App, guest_layout: Option<Layout>) -> String {
    run_until(&mut [&mut *host, &mut *guest], 20, |a| {
        a.iter().all(|app| shown_code(app).is_some())
    });
    let (hc, gc) = (shown_code(host).unwrap().0, shown_code(guest).unwrap().0);
    assert_eq!(hc, gc, "both screens show the same code");
    assert_eq!(hc.len(), 7);
    assert_eq!(hc.as_bytes()[3], b'-');
    // The host confirms; the game does not start until the guest does too.
    host.world_mut().write_message(LobbyAction::ConfirmPairing);
    let t0 = Instant::now();
    while t0.elapsed() < Duration::from_millis(500) {
        host.update();
        guest.update();
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(shown_code(host), Some((hc.clone(), true)));
    assert_eq!(shown_code(guest), Some((hc.clone(), false)));
    assert_eq!(screen(host), Screen::Setup, "the host arranges its army");
    assert_eq!(screen(guest), Screen::Lobby);
    // The host is ready while the guest still looks at the code: nothing starts.
    host.world_mut().write_message(SetupAction::March);
    let t0 = Instant::now();
    while t0.elapsed() < Duration::from_millis(500) {
        host.update();
        guest.update();
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(arranging(host), Some((true, false)));
    for app in [&*host, &*guest] {
        assert!(!app.world().contains_resource::<ActiveGame>());
    }
    // The guest confirms the code and arranges under the host's rules (shown, not its own to
    // change), seeing the host ready; nothing starts while the guest is not.
    guest.world_mut().write_message(LobbyAction::ConfirmPairing);
    run_until(&mut [&mut *host, &mut *guest], 10, |a| {
        arranging(a[1]).is_some()
    });
    assert_eq!(
        arranging(guest),
        Some((false, true)),
        "the host is shown ready"
    );
    let rules = host.world().resource::<SetupState>().options.rules;
    assert_eq!(guest.world().resource::<SetupState>().options.rules, rules);
    // Each arranges a half of the host's board, its own at the bottom (on the big board North
    // and South face each other through the centre, East and West empty).
    for app in [&mut *host, &mut *guest] {
        app.update();
        let options = app.world().resource::<SetupState>().options.clone();
        assert!(std::ptr::eq(
            options.rules.two_player_board(),
            options.board()
        ));
        let scene = app.world().resource::<BoardScene>();
        assert_eq!(scene.four, rules.four_player_board);
        assert_eq!(scene.bottom, Some(Side::South));
        if rules.four_player_board {
            assert_eq!(scene.dim_halves, [Side::East, Side::West]);
        }
    }
    if let Some(l) = guest_layout {
        guest.world_mut().resource_mut::<SetupState>().layout = l;
    }
    let t0 = Instant::now();
    while t0.elapsed() < Duration::from_millis(300) {
        host.update();
        guest.update();
        std::thread::sleep(Duration::from_millis(5));
    }
    for app in [&*host, &*guest] {
        assert_eq!(screen(app), Screen::Setup);
        assert!(!app.world().contains_resource::<ActiveGame>());
    }
    guest.world_mut().write_message(SetupAction::March);
    hc
}

/// An app that hosts a game on `table` (two players, on the classic or the big board) from the
/// lobby: "host a game", the options on the setup screen, then host. Returns it with the port it
/// listens on and the rules summary it advertises.
fn hosting_app(dir: &std::path::Path, mode: Mode, table: Table) -> (App, u16, String) {
    let (mut host, _htx) = lobby_app(dir);
    // Host: the lobby's "host a game", the options on the setup screen, then host.
    host.world_mut().write_message(LobbyAction::Host);
    host.update();
    host.update();
    assert_eq!(screen(&host), Screen::Setup);
    host.world_mut()
        .resource_mut::<SetupState>()
        .options
        .set_table(table);
    if table == Table::TwoOnBig {
        // Flip is not hosted on the big board: 出征 says why and hosts nothing.
        host.world_mut()
            .resource_mut::<SetupState>()
            .options
            .rules
            .mode = Mode::Flip;
        host.world_mut().write_message(SetupAction::March);
        host.update();
        host.update();
        let state = host.world().resource::<SetupState>();
        let (said, warn) = state.message.clone().unwrap();
        assert!(warn);
        assert_eq!(said, host.world().resource::<Lang>().t("opt.big_no_flip"));
        assert_eq!(screen(&host), Screen::Setup);
        assert_eq!(
            host.world().resource::<LobbyState>().phase,
            LobbyPhase::Browsing
        );
        assert!(!host.world().contains_resource::<LanLink>());
    }
    host.world_mut()
        .resource_mut::<SetupState>()
        .options
        .rules
        .mode = mode;
    assert_eq!(host.world().resource::<SetupState>().options.table, table);
    host.world_mut().write_message(SetupAction::March);
    let mut port = None;
    run_until(&mut [&mut host], 10, |a| {
        if let LobbyPhase::Hosting { port: Some(p), .. } =
            a[0].world().resource::<LobbyState>().phase
        {
            port = Some(p);
        }
        port.is_some()
    });
    host.update();
    host.update();
    assert_eq!(screen(&host), Screen::Lobby);
    let LobbyPhase::Hosting { rules, .. } = host.world().resource::<LobbyState>().phase.clone()
    else {
        panic!("not hosting");
    };
    (host, port.unwrap(), rules)
}

/// Plays by clicks until the host may resign, resigns, and checks that both sides reach the
/// result screen with a clean audit and the same saved record. `same_log`: also compare the
/// board logs (not after a resume, whose log starts from the restored view).
fn finish(host: &mut App, guest: &mut App, mut n: usize, same_log: bool) {
    let plies = |app: &App| {
        app.world()
            .get_resource::<ActiveGame>()
            .map_or(0, |g| g.game_match.plies())
    };
    // Play by clicks until the host may resign.

    run_until(&mut [&mut *host, &mut *guest], 60, |a| {
        for app in a.iter_mut() {
            if click_a_move(app, n) {
                n += 1;
            }
        }
        let over = a.iter().any(|app| {
            app.world()
                .resource::<ActiveGame>()
                .game_match
                .result()
                .is_some()
        });
        over || (plies(a[0]) >= 22 && plies(a[1]) >= 22)
    });
    // Let the last move arrive, and let the guest move if it is its turn, until it is the host's
    // turn: then no move of the guest's can be in flight when the host resigns (a resignation
    // that crosses a move is placed differently in the two records), and both saw the same
    // plies, log lines and removed pieces.
    run_until(&mut [&mut *host, &mut *guest], 10, |a| {
        if click_a_move(a[1], n) {
            n += 1;
        }
        let host_turn = {
            let s = &a[0].world().resource::<ActiveGame>().game_match;
            s.result().is_some() || s.my_turn()
        };
        let p = |app: &App| {
            let s = &app.world().resource::<ActiveGame>().game_match;
            (
                s.plies(),
                if same_log { s.log.len() } else { 0 },
                s.result().is_some(),
            )
        };
        host_turn && p(a[0]) == p(a[1])
    });
    let (hg, gg) = (
        host.world().resource::<ActiveGame>().clone(),
        guest.world().resource::<ActiveGame>().clone(),
    );
    assert_eq!(hg.game_match.plies(), gg.game_match.plies());
    if same_log {
        assert_eq!(hg.game_match.log.len(), gg.game_match.log.len());
        assert_eq!(hg.game_match.removed.len(), gg.game_match.removed.len());
    }
    let resigned = hg.game_match.result().is_none();
    if resigned {
        host.world_mut().write_message(GameAction::Resign);
    }
    // Both reach the result screen, and the audit comes in clean on both.
    run_until(&mut [&mut *host, &mut *guest], 30, |a| {
        a.iter().all(|app| {
            screen(app) == Screen::GameOver
                && app
                    .world()
                    .get_resource::<LastGame>()
                    .and_then(|l| l.lan.as_ref())
                    .is_some_and(|l| l.verdict.is_some())
        })
    });
    // The audit's record is saved like any other game's.
    host.update();
    guest.update();
    let mut records = Vec::new();
    for app in [&*host, &*guest] {
        let last = app.world().resource::<LastGame>();
        let v = last.lan.as_ref().unwrap().verdict.as_ref().unwrap();
        assert!(v.is_clean(), "{v:?}");
        let saved = last.game.as_ref().expect("the audited record is kept");
        let path = last.saved.as_ref().expect("the record is saved");
        let on_disk: junqi::game_match::GameFile =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        assert_eq!(&on_disk, saved);
        let replayed = junqi_game::Game::replay(&saved.record, None).unwrap();
        assert_eq!(replayed.result(), last.result);
        // Its signed log is kept next to it, and the replay screen exports it as a file a
        // third party audits to the same verdict.
        let dir = app.world().resource::<DataDir>().clone();
        let name = path.file_stem().unwrap().to_str().unwrap();
        let mut replay = ReplayState::default();
        replay.open_file(&dir, name).unwrap();
        assert!(replay.auditable, "no journal next to {}", path.display());
        replay.export_for_audit(&dir);
        let exported = replay.export.clone().unwrap().unwrap();
        assert!(
            exported.starts_with(dir.exports()),
            "{}",
            exported.display()
        );
        let log = junqi_net::resume::load(&exported).unwrap().log;
        let audited = junqi_net::log_audit::audit_log(&log, std::time::Instant::now()).unwrap();
        assert!(audited.is_clean(), "{audited:?}");
        assert_eq!(audited.result, v.result);
        assert_eq!(
            audited.record, v.record,
            "the third party rebuilds the same record"
        );
        assert_eq!(saved.me, last.me);
        records.push(saved.record.clone());
        if resigned {
            assert!(matches!(
                last.result,
                Some(GameResult::Win {
                    reason: WinReason::Resignation,
                    ..
                })
            ));
        }
        assert!(last.opponent.starts_with("lan:"));
    }
    assert_eq!(records[0], records[1], "both sides keep the same record");
}

/// A whole game on `table`; `guest_layout`: the guest arranges this army (else both keep the
/// default).
fn lan_game(mode: Mode, table: Table, guest_layout: Option<Layout>) {
    let tag = format!("{mode:?}-{table:?}");
    let (dh, dg) = (
        temp_dir(&format!("host-{tag}")),
        temp_dir(&format!("guest-{tag}")),
    );
    let (mut host, port, summary) = hosting_app(&dh, mode, table);
    let (mut guest, gtx) = lobby_app(&dg);
    // Guest: the host appears in the list with the rules it advertises (the big board said
    // in the row); join it.
    let big = table == Table::TwoOnBig;
    for (lang, name) in [
        (Lang::Zh, "两人四国棋盘"),
        (Lang::En, "Two players, big board"),
    ] {
        assert_eq!(rules_text(&summary, lang).contains(name), big, "{summary}");
    }
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    let info = HostInfo {
        rules: summary,
        ..host_info("host", addr)
    };
    gtx.send(Discovery::Found(info.clone())).unwrap();
    guest.update();
    guest
        .world_mut()
        .write_message(LobbyAction::Join(info.fullname));
    let pairing = confirm_pairing(&mut host, &mut guest, guest_layout);
    // Both reach the board with the same pairing code.
    run_until(&mut [&mut host, &mut guest], 20, |a| {
        a.iter()
            .all(|a| screen(a) == Screen::Game && a.world().contains_resource::<ActiveGame>())
    });
    let code = |a: &App| {
        a.world()
            .resource::<ActiveGame>()
            .lan_state()
            .unwrap()
            .code
            .clone()
    };
    assert_eq!(code(&host), code(&guest));
    assert_eq!(code(&host), pairing);
    assert_eq!(
        host.world()
            .resource::<ActiveGame>()
            .game_match
            .rules()
            .mode,
        mode
    );
    // Both play on the host's board, North against South, each with its own half at the
    // bottom (East and West empty on the big board).
    let mut sides = Vec::new();
    for app in [&mut host, &mut guest] {
        app.update();
        let s = &app.world().resource::<ActiveGame>().game_match;
        let (me, four) = (s.me(), s.rules().four_player_board);
        let board = s.view.board();
        assert_eq!(four, big);
        assert_eq!(
            std::ptr::eq(board, Board::four_player()),
            big,
            "the board of the host's rules"
        );
        let scene = app.world().resource::<BoardScene>();
        assert_eq!(scene.bottom, Some(me));
        assert_eq!(scene.four, big);
        if big {
            assert_eq!(scene.dim_halves, [Side::East, Side::West]);
        }
        sides.push(me);
    }
    sides.sort_by_key(|s| s.index());
    assert_eq!(sides, [Side::South, Side::North]);
    // Play a few moves, then the network fails under the guest: both sides see the drop,
    // reconnect and resume where they were.
    let mut n = 0;
    let plies = |app: &App| {
        app.world()
            .get_resource::<ActiveGame>()
            .map_or(0, |g| g.game_match.plies())
    };
    run_until(&mut [&mut host, &mut guest], 30, |a| {
        for app in a.iter_mut() {
            if click_a_move(app, n) {
                n += 1;
            }
        }
        plies(a[0]) >= 6 && plies(a[0]) == plies(a[1])
    });
    guest
        .world_mut()
        .write_message(LanRequest::Send(PeerCmd::Disconnect));
    let lan = |app: &App| {
        app.world()
            .resource::<ActiveGame>()
            .lan_state()
            .cloned()
            .unwrap()
    };
    run_until(&mut [&mut host, &mut guest], 30, |a| {
        a.iter().all(|app| {
            let l = lan(app);
            l.drops >= 1 && l.connected
        })
    });
    finish(&mut host, &mut guest, n, true);
    if let Some(mine) = guest_layout {
        // Both records keep the guest's own army on the guest's side, not the host's.
        let me = guest.world().resource::<LastGame>().me;
        let host_layout = host.world().resource::<SetupState>().layout;
        assert_ne!(
            mine, host_layout,
            "the guest's army differs from the host's"
        );
        for app in [&host, &guest] {
            let saved = app.world().resource::<LastGame>().game.clone().unwrap();
            let Setup::Layouts { south, north } = saved.record.setup else {
                panic!("a game with layouts");
            };
            let (guests, hosts) = if me == junqi_game::Side::South {
                (south, north)
            } else {
                (north, south)
            };
            assert_eq!(guests, mine);
            assert_eq!(hosts, host_layout);
        }
    }
    // A finished game leaves no journal to resume.
    for d in [&dh, &dg] {
        assert!(!d.join("lan/game.bin").exists());
        assert!(!d.join("lan/link.json").exists());
    }
    let _ = std::fs::remove_dir_all(&dh);
    let _ = std::fs::remove_dir_all(&dg);
}

#[test]
fn a_dark_game_over_quic_between_two_apps() {
    lan_game(Mode::Dark, Table::Two, None);
}

/// Two players on the big board (两人四国棋盘), hosted from the lobby's form and joined from
/// its list: to the result screen with a clean audit and the same record on both.
#[test]
fn a_big_board_game_over_quic_between_two_apps() {
    lan_game(Mode::Dark, Table::TwoOnBig, None);
}

#[test]
fn a_flip_game_over_quic_between_two_apps() {
    lan_game(Mode::Flip, Table::Two, None);
}

/// The guest arranges an army other than the host's on its own setup screen: it is the one
/// played, and both sides' audited records show it on the guest's side.
#[test]
fn the_guest_arranges_its_own_army_and_the_record_keeps_it() {
    let default = SetupState::default().layout;
    let mine = classic_layouts()
        .into_iter()
        .map(|l| l.layout)
        .find(|l| *l != default)
        .expect("a classic layout other than the default");
    lan_game(Mode::Dark, Table::Two, Some(mine));
}

/// The environment variables that make [`app_child_process`] run: its data directory, and the
/// host's address (or `host`).
const CHILD_DIR: &str = "JUNQI_LAN_TEST_CHILD_DIR";
const CHILD_ADDR: &str = "JUNQI_LAN_TEST_CHILD_ADDR";

/// Not a test of its own: the app that [`a_guest_app_killed_mid_game_resumes_from_its_journal`]
/// and [`a_host_app_killed_mid_game_resumes_from_its_journal`] kill, run in a child process
/// (this test binary again) so that it can be killed with SIGKILL. As the guest it joins the
/// address in [`CHILD_ADDR`]; as the host ([`CHILD_ADDR`] = `host`) it hosts and prints its
/// port. Then it confirms the pairing, prints the code and its plies, and plays by clicks until
/// it is killed.
#[test]
#[ignore = "run by the tests that kill an app mid-game"]
fn app_child_process() {
    let (Some(dir), Some(addr)) = (std::env::var_os(CHILD_DIR), std::env::var_os(CHILD_ADDR))
    else {
        return;
    };
    let dir = std::path::PathBuf::from(dir);
    let mut app = if addr == "host" {
        let (app, port, _) = hosting_app(&dir, Mode::Dark, Table::Two);
        println!("port {port}");
        app
    } else {
        let addr: SocketAddr = addr.to_str().unwrap().parse().unwrap();
        let (mut guest, gtx) = lobby_app(&dir);
        let info = host_info("host", addr);
        gtx.send(Discovery::Found(info.clone())).unwrap();
        guest.update();
        guest
            .world_mut()
            .write_message(LobbyAction::Join(info.fullname));
        guest
    };
    run_until(&mut [&mut app], 30, |a| shown_code(a[0]).is_some());
    println!("code {}", shown_code(&app).unwrap().0);
    app.world_mut().write_message(LobbyAction::ConfirmPairing);
    let (mut n, mut shown) = (0, u16::MAX);
    let t0 = Instant::now();
    // Until killed (or, should the parent die, for a while).
    while t0.elapsed() < Duration::from_secs(120) {
        app.update();
        ready_if_arranging(&mut app);
        if click_a_move(&mut app, n) {
            n += 1;
        }
        let p = app
            .world()
            .get_resource::<ActiveGame>()
            .map_or(0, |g| g.game_match.plies());
        if p != shown {
            shown = p;
            println!("plies {p}");
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Starts [`app_child_process`] on `dir`, as the host (`addr` = `host`) or the guest joining
/// `addr`, printing to `out`.
fn spawn_child(dir: &std::path::Path, addr: &str, out: &std::path::Path) -> Killed {
    Killed(
        std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "app_child_process",
                "--ignored",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD_DIR, dir)
            .env(CHILD_ADDR, addr)
            .stdin(std::process::Stdio::null())
            .stdout(std::fs::File::create(out).unwrap())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap(),
    )
}

/// A child process, killed when the test ends (or fails).
struct Killed(std::process::Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The plies the child app reports having played.
fn child_plies(out: &std::path::Path) -> u16 {
    child_says(out, "plies ")
        .and_then(|p| p.parse::<u16>().ok())
        .unwrap_or(0)
}

/// The in-process app and the child app show the same pairing code and both confirm it (the
/// child on its own), then play until both are `plies` moves in. Returns the code and the
/// number of the next move to click.
fn pair_and_play_with_child(app: &mut App, out: &std::path::Path, plies: u16) -> (String, usize) {
    run_until(&mut [&mut *app], 60, |a| {
        shown_code(a[0]).is_some() && child_says(out, "code ").is_some()
    });
    let code = shown_code(app).unwrap().0;
    assert_eq!(child_says(out, "code ").unwrap(), code);
    app.world_mut().write_message(LobbyAction::ConfirmPairing);
    let mut n = 1;
    run_until(&mut [&mut *app], 60, |a| {
        ready_if_arranging(a[0]);
        if click_a_move(a[0], n) {
            n += 1;
        }
        let mine = a[0]
            .world()
            .get_resource::<ActiveGame>()
            .map_or(0, |g| g.game_match.plies());
        mine >= plies && child_plies(out) >= plies
    });
    (code, n)
}

/// The last number printed after `prefix` in the child's output.
fn child_says(out: &std::path::Path, prefix: &str) -> Option<String> {
    std::fs::read_to_string(out)
        .unwrap_or_default()
        .lines()
        // libtest prints the test's name on the line the first output follows.
        .filter_map(|l| l.split_once(prefix).map(|(_, rest)| rest))
        .next_back()
        .map(str::to_owned)
}

#[test]
fn a_guest_app_killed_mid_game_resumes_from_its_journal() {
    let (dh, dg) = (temp_dir("crash-host"), temp_dir("crash-guest"));
    std::fs::create_dir_all(&dg).unwrap();
    let (mut host, port, _) = hosting_app(&dh, Mode::Dark, Table::Two);
    let out = dg.join("child.out");
    let mut child = spawn_child(&dg, &format!("127.0.0.1:{port}"), &out);
    // Pairing: the child confirms on its side; the host sees the same code and confirms.
    let (code, n) = pair_and_play_with_child(&mut host, &out, 8);
    let journal = dg.join("lan/game.bin");
    let saved = junqi_net::resume::load(&journal).expect("the guest's journal");
    assert!(saved.log.len() > 10, "{} messages saved", saved.log.len());
    child.0.kill().unwrap(); // SIGKILL: no clean shutdown of anything
    child.0.wait().unwrap();
    let before = child_plies(&out);
    // A new app on the guest's data directory offers the unfinished game and resumes it.
    let (mut guest, _gtx) = lobby_app(&dg);
    let offer = guest
        .world()
        .resource::<LobbyState>()
        .unfinished
        .clone()
        .expect("the unfinished game is offered");
    assert!(!offer.host);
    assert_eq!(offer.mode, Mode::Dark);
    assert_eq!(offer.big_board, saved.rules.four_player_board);
    assert!(offer.messages >= saved.log.len());
    guest.world_mut().write_message(LobbyAction::Resume);
    run_until(&mut [&mut host, &mut guest], 60, |a| {
        screen(a[1]) == Screen::Game && a[1].world().contains_resource::<ActiveGame>()
    });
    {
        let g = guest.world().resource::<ActiveGame>();
        assert_eq!(g.lan_state().unwrap().code, code);
        assert!(g.game_match.plies() >= before);
    }
    finish(&mut host, &mut guest, n, false);
    for d in [&dh, &dg] {
        assert!(!d.join("lan/game.bin").exists());
    }
    let _ = std::fs::remove_dir_all(&dh);
    let _ = std::fs::remove_dir_all(&dg);
}

/// "Codes differ, leave": the guest leaves at the pairing step; nothing starts on either side
/// and the guest keeps no game to resume.
#[test]
fn leaving_at_the_pairing_code_starts_nothing() {
    let (dh, dg) = (temp_dir("differ-host"), temp_dir("differ-guest"));
    let (mut host, port, _) = hosting_app(&dh, Mode::Dark, Table::Two);
    let (mut guest, gtx) = lobby_app(&dg);
    let info = host_info("host", format!("127.0.0.1:{port}").parse().unwrap());
    gtx.send(Discovery::Found(info.clone())).unwrap();
    guest.update();
    guest
        .world_mut()
        .write_message(LobbyAction::Join(info.fullname));
    run_until(&mut [&mut host, &mut guest], 20, |a| {
        a.iter().all(|app| shown_code(app).is_some())
    });
    // The guest's journal already holds the hellos…
    assert!(dg.join("lan/game.bin").exists());
    // …the host confirms; the guest sees another code than its opponent says and leaves.
    host.world_mut().write_message(LobbyAction::ConfirmPairing);
    guest.world_mut().write_message(LobbyAction::Cancel);
    let t0 = Instant::now();
    while t0.elapsed() < Duration::from_secs(1) {
        host.update();
        guest.update();
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(
        guest.world().resource::<LobbyState>().phase,
        LobbyPhase::Browsing
    );
    assert!(!guest.world().contains_resource::<LanLink>());
    assert_eq!(screen(&guest), Screen::Lobby);
    assert_eq!(
        screen(&host),
        Screen::Setup,
        "the host was arranging its army"
    );
    for app in [&host, &guest] {
        assert!(!app.world().contains_resource::<ActiveGame>());
    }
    assert!(!dg.join("lan/game.bin").exists(), "nothing kept to resume");
    assert_eq!(
        junqi_net::peer::unfinished(&dg.join("lan")).unwrap(),
        None,
        "nothing offered"
    );
    let _ = std::fs::remove_dir_all(&dh);
    let _ = std::fs::remove_dir_all(&dg);
}

/// A damaged journal in the data folder is reported in the lobby, not offered and not a panic.
#[test]
fn a_damaged_journal_is_reported_in_the_lobby() {
    let dir = temp_dir("damaged");
    let lan = dir.join("lan");
    std::fs::create_dir_all(&lan).unwrap();
    std::fs::write(lan.join("game.bin"), b"JQJRNL01\x00\x00\x00\x05garbage").unwrap();
    std::fs::write(
        lan.join("link.json"),
        r#"{"host":false,"port":0,"mdns":false,"addr":"127.0.0.1:9","name":"g"}"#,
    )
    .unwrap();
    let (app, _tx) = lobby_app(&dir);
    let lobby = app.world().resource::<LobbyState>();
    assert_eq!(lobby.unfinished, None);
    let e = lobby.error.clone().expect("the damage is reported");
    assert!(matches!(e, PeerError::Journal(_)), "{e}");
    let (text, detail) = junqi::lan_text::peer_error_text(&e, Lang::En);
    assert!(text.contains("damaged"), "{text}");
    assert!(detail.is_some_and(|d| d.contains("journal")));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_host_app_killed_mid_game_resumes_from_its_journal() {
    let (dh, dg) = (temp_dir("crash2-host"), temp_dir("crash2-guest"));
    std::fs::create_dir_all(&dh).unwrap();
    let out = dh.join("child.out");
    let mut child = spawn_child(&dh, "host", &out);
    let t0 = Instant::now();
    let port = loop {
        if let Some(p) = child_says(&out, "port ") {
            break p;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(60),
            "the host child never listened"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let (mut guest, gtx) = lobby_app(&dg);
    let info = host_info("host", format!("127.0.0.1:{port}").parse().unwrap());
    gtx.send(Discovery::Found(info.clone())).unwrap();
    guest.update();
    guest
        .world_mut()
        .write_message(LobbyAction::Join(info.fullname));
    let (code, n) = pair_and_play_with_child(&mut guest, &out, 8);
    child.0.kill().unwrap(); // SIGKILL
    child.0.wait().unwrap();
    // A new host app finds the game and listens again on the same port; the guest reconnects.
    let (mut host, _htx) = lobby_app(&dh);
    let offer = host
        .world()
        .resource::<LobbyState>()
        .unfinished
        .clone()
        .expect("the unfinished game is offered");
    assert!(offer.host);
    host.world_mut().write_message(LobbyAction::Resume);
    run_until(&mut [&mut host, &mut guest], 60, |a| {
        screen(a[0]) == Screen::Game && a[0].world().contains_resource::<ActiveGame>()
    });
    assert_eq!(
        host.world()
            .resource::<ActiveGame>()
            .lan_state()
            .unwrap()
            .code,
        code
    );
    finish(&mut host, &mut guest, n, false);
    for d in [&dh, &dg] {
        assert!(!d.join("lan/game.bin").exists());
    }
    let _ = std::fs::remove_dir_all(&dh);
    let _ = std::fs::remove_dir_all(&dg);
}
