//! Headless tests of four-seat LAN tables (四国大战 over the LAN, `MinimalPlugins`, no window):
//! two apps in this process (two data folders) at one table over QUIC on 127.0.0.1 — one opens
//! the table from its lobby with East and West given to computer players (which its device
//! runs, each a seat of its own dialling the table over loopback), the other finds it in its
//! lobby's list with its free seat and takes North; the one pairing code is the same on both
//! screens, the rules line says the host's device runs the computer seats, nothing starts
//! before both confirmed, both boards are played by clicks to the end, and both result screens
//! hold the same result, a clean audit and a saved record with its signed log beside it. A
//! second table gives East to the computer and West to a player: the app that takes West from
//! the list runs East's computer seat on its own device, as the rules line says.

mod lan_support;
use lan_support::{click_a_move, lobby_app, run_until, screen, temp_dir};

use std::net::SocketAddr;
use std::time::Duration;

use bevy::prelude::*;
use junqi::{
    i18n::Lang,
    model::{ActiveGame, LastGame},
    screens::{
        Screen,
        lobby::LobbyState,
        lobby_table::{SeatChoice, TableAction, TableLobby, TablePhase, is_table},
    },
    storage::DataDir,
    table_text::rules_lines,
};
use junqi_game::Side;
use junqi_net::discovery::{Discovery, FreeSeats, HostInfo, read_seats};
use junqi_net::four::FourSeat;
use junqi_net::table_handle::ComputerHome;

fn phase(app: &App) -> TablePhase {
    app.world().resource::<TableLobby>().phase.clone()
}

#[test]
fn two_apps_and_two_computer_seats_play_a_whole_table_from_the_lobby() {
    let (da, db) = (temp_dir("host"), temp_dir("guest"));
    let (mut a, _ta) = lobby_app(&da);
    a.world_mut().resource_mut::<LobbyState>().name = "alice".into();
    let (mut b, tb) = lobby_app(&db);
    b.world_mut().resource_mut::<LobbyState>().name = "bob".into();

    // The host chooses: East and West the computer (新手), North open for a player.
    a.world_mut().write_message(TableAction::Setup);
    a.update();
    assert_eq!(phase(&a), TablePhase::Setup);
    a.world_mut().resource_mut::<TableLobby>().setup.seats = [
        SeatChoice::Computer(1),
        SeatChoice::Player,
        SeatChoice::Computer(1),
    ];
    a.world_mut().write_message(TableAction::Host);
    let mut port = None;
    run_until(&mut [&mut a], 20, |apps| {
        if let TablePhase::Waiting { port: Some(p) } = phase(apps[0]) {
            port = Some(p);
        }
        port.is_some()
    });
    let addr: SocketAddr = format!("127.0.0.1:{}", port.unwrap()).parse().unwrap();
    // The waiting room's seat table fills as the seats come: the host's computer seats first.
    run_until(&mut [&mut a], 20, |apps| {
        let seats = &apps[0].world().resource::<TableLobby>().seats;
        seats[1].computer() == Some(1) && seats[3].computer() == Some(1)
    });
    assert_eq!(
        a.world().resource::<TableLobby>().seats[2].name,
        None,
        "North is still free"
    );

    // The guest's lobby lists the table with its free seat, apart from two-player hosts.
    let info = HostInfo {
        fullname: "alice._junqi._udp.local.".into(),
        name: "alice".into(),
        version: 1,
        rules: "four dark 30s".into(),
        addrs: vec![addr],
        free_seats: FreeSeats::parse("N"),
    };
    assert!(is_table(&info));
    tb.send(Discovery::Found(info.clone())).unwrap();
    b.update();
    let listed = b.world().resource::<LobbyState>().hosts.hosts()[0].clone();
    assert_eq!(
        listed.free_seats.unwrap().seats().collect::<Vec<_>>(),
        [FourSeat::North]
    );
    b.world_mut().write_message(TableAction::Join {
        fullname: info.fullname.clone(),
        seat: FourSeat::North,
    });

    // One code on both screens, the same seat table, the rules line naming the host's
    // computer seats; nothing starts before both confirmed.
    run_until(&mut [&mut a, &mut b], 60, |apps| {
        apps.iter()
            .all(|x| matches!(phase(x), TablePhase::Pairing { .. }))
    });
    let code = |x: &App| match phase(x) {
        TablePhase::Pairing { code, rules, .. } => (code, rules),
        p => panic!("not pairing: {p:?}"),
    };
    let (ca, rules) = code(&a);
    assert_eq!(ca, code(&b).0);
    let seats = b.world().resource::<TableLobby>().seats.clone();
    assert_eq!(seats[0].name.as_deref(), Some("alice"));
    assert_eq!(seats[2].name.as_deref(), Some("bob"));
    assert_eq!(seats[1].computer(), Some(1));
    assert_eq!(seats[3].computer(), Some(1));
    let lines = rules_lines(&rules, &seats, Lang::En);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("the host can see its pieces")),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l.contains("other team")), "{lines:?}");
    // The guest agreed to a hand-over (the lobby's default with a player as partner).
    assert!(seats[2].hand_over);
    assert!(
        lines.iter().any(|l| l.starts_with("If North leaves")),
        "{lines:?}"
    );
    a.world_mut().write_message(TableAction::Confirm);
    for _ in 0..50 {
        a.update();
        b.update();
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(
        screen(&a),
        Screen::Lobby,
        "no play before every player confirmed"
    );
    b.world_mut().write_message(TableAction::Confirm);
    run_until(&mut [&mut a, &mut b], 60, |apps| {
        apps.iter().all(|x| screen(x) == Screen::Game)
    });
    let me = |x: &App| x.world().resource::<ActiveGame>().game_match.me();
    assert_eq!(me(&a), Side::South);
    assert_eq!(me(&b), Side::North);
    // The seat table of the game knows every seat's player.
    let g = b.world().resource::<ActiveGame>();
    let t = g
        .lan_state()
        .and_then(|l| l.table.as_ref())
        .expect("a table");
    assert_eq!(t.name(Side::South), Some("alice"));
    assert_eq!(t.name(Side::North), Some("bob"));
    assert_eq!(t.seat(Side::East).computer(), Some(1));
    assert_eq!(t.seat(Side::West).computer(), Some(1));
    assert_eq!(g.lan_state().unwrap().code, ca);

    // Both boards played by clicks to the end.
    let mut n = 0usize;
    run_until(&mut [&mut a, &mut b], 900, |apps| {
        for x in apps.iter_mut() {
            n += 1;
            click_a_move(x, n);
        }
        apps.iter().all(|x| screen(x) == Screen::GameOver)
    });
    // The audit's verdict and the saved record follow the end.
    run_until(&mut [&mut a, &mut b], 60, |apps| {
        apps.iter().all(|x| {
            x.world()
                .get_resource::<LastGame>()
                .is_some_and(|l| l.game.is_some())
        })
    });
    let last = |x: &App| x.world().resource::<LastGame>().clone();
    let (la, lb) = (last(&a), last(&b));
    assert!(la.result.is_some());
    assert_eq!(la.result, lb.result);
    assert!(la.four);
    // The profile's and the record's key names the other players, the same in every language.
    assert!(la.opponent.starts_with("lan:") && la.opponent.contains("bob"));
    assert_eq!(la.opponent.matches("ai-1").count(), 2, "{}", la.opponent);
    assert!(lb.opponent.contains("alice"));
    for l in [&la, &lb] {
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
        // The signed log beside it, for junqi-audit.
        let log = junqi::lan::files::record_journal(saved);
        let bytes = std::fs::read(&log).expect("the table's log kept beside the record");
        assert!(junqi_net::table::load_log(&bytes).is_ok());
    }
    assert_eq!(
        la.game.as_ref().unwrap().record,
        lb.game.as_ref().unwrap().record
    );
    let _ = std::fs::remove_dir_all(&da);
    let _ = std::fs::remove_dir_all(&db);
}

#[test]
fn the_app_that_takes_west_runs_its_partner_easts_computer_seat() {
    let (da, db) = (temp_dir("host-east"), temp_dir("guest-west"));
    let (mut a, _ta) = lobby_app(&da);
    a.world_mut().resource_mut::<LobbyState>().name = "alice".into();
    let (mut b, tb) = lobby_app(&db);
    b.world_mut().resource_mut::<LobbyState>().name = "carol".into();

    // East the computer (新手), North the computer on the host, West open for a player.
    a.world_mut().write_message(TableAction::Setup);
    a.update();
    a.world_mut().resource_mut::<TableLobby>().setup.seats = [
        SeatChoice::Computer(1),
        SeatChoice::Computer(1),
        SeatChoice::Player,
    ];
    a.world_mut().write_message(TableAction::Host);
    let mut port = None;
    run_until(&mut [&mut a], 20, |apps| {
        if let TablePhase::Waiting { port: Some(p) } = phase(apps[0]) {
            port = Some(p);
        }
        port.is_some()
    });
    let addr: SocketAddr = format!("127.0.0.1:{}", port.unwrap()).parse().unwrap();
    // The host's device runs North only: East waits for West's device.
    run_until(&mut [&mut a], 20, |apps| {
        apps[0].world().resource::<TableLobby>().seats[2].computer() == Some(1)
    });
    assert_eq!(a.world().resource::<TableLobby>().seats[1].name, None);

    // The table as its host advertises it: West free, with East's computer.
    let info = HostInfo {
        fullname: "alice._junqi._udp.local.".into(),
        name: "alice".into(),
        version: 1,
        rules: "four dark 30s".into(),
        addrs: vec![addr],
        free_seats: read_seats(Some("W"), Some("E1")),
    };
    tb.send(Discovery::Found(info.clone())).unwrap();
    b.update();
    b.world_mut().write_message(TableAction::Join {
        fullname: info.fullname.clone(),
        seat: FourSeat::West,
    });
    run_until(&mut [&mut a, &mut b], 60, |apps| {
        apps.iter()
            .all(|x| matches!(phase(x), TablePhase::Pairing { .. }))
    });
    let TablePhase::Pairing { rules, .. } = phase(&a) else {
        unreachable!()
    };
    // Both rules lines say West's device runs East; no computer of the other team on the host,
    // so no agreement to it; West's player did not agree to a hand-over to a partner that is
    // its own device's computer.
    for x in [&a, &b] {
        let seats = x.world().resource::<TableLobby>().seats.clone();
        assert_eq!(seats[1].computer(), Some(1));
        assert_eq!(seats[1].computer_home(), Some(ComputerHome::Partner));
        assert_eq!(seats[2].computer_home(), Some(ComputerHome::Host));
        assert!(!seats[3].hand_over);
        let lines = rules_lines(&rules, &seats, Lang::En);
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("East: a computer seat run by West's device")),
            "{lines:?}"
        );
        assert!(!lines.iter().any(|l| l.contains("other team")), "{lines:?}");
    }
    // East's seat keeps its journal on West's device, not on the host's.
    let dir = |x: &App| junqi::lan::table::table_dir(x.world().resource::<DataDir>());
    assert!(dir(&b).join("computer-1").is_dir());
    assert!(!dir(&a).join("computer-1").exists());
    assert!(dir(&a).join("computer-2").is_dir());

    a.world_mut().write_message(TableAction::Confirm);
    b.world_mut().write_message(TableAction::Confirm);
    run_until(&mut [&mut a, &mut b], 60, |apps| {
        apps.iter().all(|x| screen(x) == Screen::Game)
    });
    let mut n = 0usize;
    run_until(&mut [&mut a, &mut b], 900, |apps| {
        for x in apps.iter_mut() {
            n += 1;
            click_a_move(x, n);
        }
        apps.iter().all(|x| screen(x) == Screen::GameOver)
    });
    run_until(&mut [&mut a, &mut b], 60, |apps| {
        apps.iter().all(|x| {
            x.world()
                .get_resource::<LastGame>()
                .is_some_and(|l| l.game.is_some())
        })
    });
    let last = |x: &App| x.world().resource::<LastGame>().clone();
    let (la, lb) = (last(&a), last(&b));
    assert!(la.result.is_some());
    assert_eq!(la.result, lb.result);
    for l in [&la, &lb] {
        let v = l
            .lan
            .as_ref()
            .and_then(|l| l.table.as_ref())
            .and_then(|t| t.verdict.as_ref())
            .expect("the verdict");
        assert!(v.blame.is_none() && v.record.is_some(), "{v:?}");
    }
    let _ = std::fs::remove_dir_all(&da);
    let _ = std::fs::remove_dir_all(&db);
}
