//! Headless tests of LAN play (`MinimalPlugins`, no window): the lobby's live host list, and a
//! whole LAN game between two apps in this process over QUIC on 127.0.0.1 — hosted from the
//! setup screen's options, joined from the lobby's list, played by clicks on both boards, with
//! the same pairing code on both sides, a resignation and a clean audit on both result screens.

use std::net::SocketAddr;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use bevy::prelude::*;
use junqi::{
    board::BoardClick,
    lan::{LanCmd, LanLink},
    screens::{
        Navigate, Screen,
        game::{ActiveGame, GameAction, LastGame},
        lobby::{LobbyAction, LobbyPhase, LobbyState, rules_text},
        setup::{SetupAction, SetupState},
    },
};
use junqi_game::{GameResult, Mode, Move, WinReason};
use junqi_net::discovery::{Discovery, HostInfo};

fn temp_dir(tag: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("junqi-lan-test-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

fn host_info(name: &str, addr: SocketAddr) -> HostInfo {
    HostInfo {
        fullname: format!("{name}._junqi._udp.local."),
        name: name.into(),
        version: 1,
        rules: "flip 30s".into(),
        addrs: vec![addr],
    }
}

/// An app in the lobby whose host list comes from a channel instead of mDNS.
fn lobby_app(dir: &std::path::Path) -> (App, mpsc::Sender<Discovery>) {
    let mut app = junqi::headless_app(dir.to_path_buf());
    let (tx, rx) = mpsc::channel();
    {
        let mut lobby = app.world_mut().resource_mut::<LobbyState>();
        lobby.set_feed(rx);
        lobby.mdns = false;
    }
    app.update();
    app.world_mut().write_message(Navigate(Screen::Lobby));
    app.update();
    app.update();
    assert_eq!(screen(&app), Screen::Lobby);
    (app, tx)
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
        .iter()
        .map(|h| h.name.clone())
        .collect();
    assert_eq!(names, ["alice", "bob"]);
    // A host seen again is updated in place, not listed twice.
    let mut a2 = a.clone();
    a2.rules = "dark 60s".into();
    tx.send(Discovery::Found(a2)).unwrap();
    tx.send(Discovery::Lost(b.fullname.clone())).unwrap();
    app.update();
    let lobby = app.world().resource::<LobbyState>();
    assert_eq!(lobby.hosts.len(), 1);
    assert_eq!(lobby.hosts[0].rules, "dark 60s");
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

/// Clicks a legal move for the app's player when it is its turn (the first legal step, or a
/// flip); `true` if it played.
fn click_a_move(app: &mut App, nth: usize) -> bool {
    let Some(g) = app.world().get_resource::<ActiveGame>() else {
        return false;
    };
    if !g.session.my_turn() || g.session.result().is_some() {
        return false;
    }
    let moves = g.session.view.legal_moves().to_vec();
    if moves.is_empty() {
        return false;
    }
    match moves[nth % moves.len()] {
        Move::Step { from, to } => {
            app.world_mut().write_message(BoardClick(from));
            app.update();
            app.world_mut().write_message(BoardClick(to));
        }
        Move::Flip { at } => {
            app.world_mut().write_message(BoardClick(at));
        }
    }
    app.update();
    true
}

fn run_until(apps: &mut [&mut App], secs: u64, mut done: impl FnMut(&mut [&mut App]) -> bool) {
    let t0 = Instant::now();
    while !done(apps) {
        assert!(
            t0.elapsed() < Duration::from_secs(secs),
            "timed out: screens {:?}",
            apps.iter().map(|a| screen(a)).collect::<Vec<_>>()
        );
        for a in apps.iter_mut() {
            a.update();
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn lan_game(mode: Mode) {
    let tag = format!("{mode:?}");
    let (dh, dg) = (
        temp_dir(&format!("host-{tag}")),
        temp_dir(&format!("guest-{tag}")),
    );
    let (mut host, _htx) = lobby_app(&dh);
    let (mut guest, gtx) = lobby_app(&dg);
    // Host: the lobby's "host a game", the options on the setup screen, then host.
    host.world_mut().write_message(LobbyAction::Host);
    host.update();
    host.update();
    assert_eq!(screen(&host), Screen::Setup);
    host.world_mut()
        .resource_mut::<SetupState>()
        .options
        .rules
        .mode = mode;
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
    // Guest: the host appears in the list; join it.
    let addr: SocketAddr = format!("127.0.0.1:{}", port.unwrap()).parse().unwrap();
    let info = host_info("host", addr);
    gtx.send(Discovery::Found(info.clone())).unwrap();
    guest.update();
    guest
        .world_mut()
        .write_message(LobbyAction::Join(info.fullname));
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
    assert_eq!(code(&host).len(), 7);
    assert_eq!(
        host.world().resource::<ActiveGame>().session.rules().mode,
        mode
    );
    // Play a few moves, then the network fails under the guest: both sides see the drop,
    // reconnect and resume where they were.
    let mut n = 0;
    let plies = |app: &App| {
        app.world()
            .get_resource::<ActiveGame>()
            .map_or(0, |g| g.session.plies())
    };
    run_until(&mut [&mut host, &mut guest], 30, |a| {
        for app in a.iter_mut() {
            if click_a_move(app, n) {
                n += 1;
            }
        }
        plies(a[0]) >= 6 && plies(a[0]) == plies(a[1])
    });
    guest.world().resource::<LanLink>().send(LanCmd::Disconnect);
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
    // Play by clicks until the host may resign.

    run_until(&mut [&mut host, &mut guest], 60, |a| {
        for app in a.iter_mut() {
            if click_a_move(app, n) {
                n += 1;
            }
        }
        let over = a.iter().any(|app| {
            app.world()
                .resource::<ActiveGame>()
                .session
                .result()
                .is_some()
        });
        over || (plies(a[0]) >= 22 && plies(a[1]) >= 22)
    });
    // Let the last move arrive: both then saw the same plies, log lines and removed pieces.
    run_until(&mut [&mut host, &mut guest], 10, |a| {
        let p = |app: &App| {
            let s = &app.world().resource::<ActiveGame>().session;
            (s.plies(), s.log.len(), s.result().is_some())
        };
        p(a[0]) == p(a[1])
    });
    let (hg, gg) = (
        host.world().resource::<ActiveGame>().clone(),
        guest.world().resource::<ActiveGame>().clone(),
    );
    assert_eq!(hg.session.plies(), gg.session.plies());
    assert_eq!(hg.session.log.len(), gg.session.log.len());
    assert_eq!(hg.session.removed.len(), gg.session.removed.len());
    let resigned = hg.session.result().is_none();
    if resigned {
        host.world_mut().write_message(GameAction::Resign);
    }
    // Both reach the result screen, and the audit comes in clean on both.
    run_until(&mut [&mut host, &mut guest], 30, |a| {
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
    for app in [&host, &guest] {
        let last = app.world().resource::<LastGame>();
        let v = last.lan.as_ref().unwrap().verdict.as_ref().unwrap();
        assert!(v.is_clean(), "{v:?}");
        let saved = last.game.as_ref().expect("the audited record is kept");
        let path = last.saved.as_ref().expect("the record is saved");
        let on_disk: junqi::session::SavedGame =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        assert_eq!(&on_disk, saved);
        let replayed = junqi_game::Game::replay(&saved.record, None).unwrap();
        assert_eq!(replayed.result(), last.result);
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
    let _ = std::fs::remove_dir_all(&dh);
    let _ = std::fs::remove_dir_all(&dg);
}

#[test]
fn a_dark_game_over_quic_between_two_apps() {
    lan_game(Mode::Dark);
}

#[test]
fn a_flip_game_over_quic_between_two_apps() {
    lan_game(Mode::Flip);
}
