//! Headless tests of four-seat LAN tables (四国大战 over the LAN, `MinimalPlugins`, no window):
//! two apps in this process (two data folders) at one table over QUIC on 127.0.0.1 — one opens
//! the table from its lobby, the other finds it in its lobby's list with its free seat and takes
//! North; the one pairing code is the same on every screen, nothing starts before every player
//! confirmed, both boards are played by clicks to the end, and both result screens hold the same
//! result, a clean audit and a saved record with its signed log beside it. East and West are
//! played either by computer players the host's device runs (each a seat of its own dialling
//! the table over loopback; the rules line says so), or by two `junqi-peer` processes that take
//! those seats as any other device would (the proof: two app instances and two
//! `junqi-peer` seats), which must print the same code, result and record and a clean audit.
//! A third table gives East to the computer and West to a player: the app that takes West from
//! the list runs East's computer seat on its own device, as the rules line says.

mod lan_support;
use lan_support::table::{
    PeerSeat, check_same_clean_end, confirm_alone_starts_nothing, host_table, pairing, phase,
    play_to_the_end, take_seat,
};
use lan_support::{lobby_app, run_until, screen, temp_dir};

use std::time::Instant;

use bevy::prelude::*;
use junqi::{
    i18n::Lang,
    model::ActiveGame,
    screens::{
        Screen,
        lobby::LobbyState,
        lobby_table::{SeatChoice, TableAction, TableLobby, TablePhase},
    },
    storage::DataDir,
    table_text::rules_lines,
};
use junqi_game::Side;
use junqi_net::four::FourSeat;
use junqi_net::table_handle::ComputerHome;

fn named_lobby_app(
    dir: &std::path::Path,
    name: &str,
) -> (
    App,
    std::sync::mpsc::Sender<junqi_net::discovery::Discovery>,
) {
    let (mut app, feed) = lobby_app(dir);
    app.world_mut().resource_mut::<LobbyState>().name = name.into();
    (app, feed)
}

#[test]
fn two_apps_and_two_computer_seats_play_a_whole_table_from_the_lobby() {
    let (da, db) = (temp_dir("host"), temp_dir("guest"));
    let (mut a, _ta) = named_lobby_app(&da, "alice");
    let (mut b, tb) = named_lobby_app(&db, "bob");

    // The host chooses: East and West the computer (新手), North open for a player.
    let addr = host_table(
        &mut a,
        [
            SeatChoice::Computer(1),
            SeatChoice::Player,
            SeatChoice::Computer(1),
        ],
    );
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
    take_seat(&mut b, &tb, "alice", addr, ("N", None), FourSeat::North);

    // One code on both screens, the same seat table, the rules line naming the host's
    // computer seats; nothing starts before both confirmed.
    let (ca, rules) = pairing(&mut [&mut a, &mut b]);
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
    confirm_alone_starts_nothing(&mut a, &mut b);
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
    let lasts = play_to_the_end(&mut [&mut a, &mut b]);
    check_same_clean_end(&lasts);
    let (la, lb) = (&lasts[0], &lasts[1]);
    // The profile's and the record's key names the other players, the same in every language.
    assert!(la.opponent.starts_with("lan:") && la.opponent.contains("bob"));
    assert_eq!(la.opponent.matches("ai-1").count(), 2, "{}", la.opponent);
    assert!(lb.opponent.contains("alice"));
    let _ = std::fs::remove_dir_all(&da);
    let _ = std::fs::remove_dir_all(&db);
}

#[test]
fn two_apps_and_two_junqi_peer_seats_play_a_whole_table_from_the_lobby() {
    let t0 = Instant::now();
    let (da, db, dp) = (
        temp_dir("peers-host"),
        temp_dir("peers-guest"),
        temp_dir("peers-logs"),
    );
    let (mut a, _ta) = named_lobby_app(&da, "alice");
    let (mut b, tb) = named_lobby_app(&db, "bob");

    // The host leaves East, North and West to players: two junqi-peer processes take East and
    // West at its address, the other app takes North from its lobby's list.
    let addr = host_table(&mut a, [SeatChoice::Player; 3]);
    let mut east = PeerSeat::join(&dp, "east", addr, "carol", ("greedy", 11));
    let mut west = PeerSeat::join(&dp, "west", addr, "dave", ("greedy", 12));
    take_seat(&mut b, &tb, "alice", addr, ("ENW", None), FourSeat::North);

    // One code on both apps' screens and in both peers' output; the seat table names the
    // peers' seats as players (not the host's computers).
    let (code, rules) = pairing(&mut [&mut a, &mut b]);
    let printed = |p: &PeerSeat| p.line("pairing code: ");
    run_until(&mut [&mut a, &mut b], 20, |_| {
        printed(&east).is_some() && printed(&west).is_some()
    });
    assert_eq!(printed(&east).as_deref(), Some(code.as_str()));
    assert_eq!(printed(&west).as_deref(), Some(code.as_str()));
    let seats = b.world().resource::<TableLobby>().seats.clone();
    for (i, name) in [(0, "alice"), (1, "carol"), (2, "bob"), (3, "dave")] {
        assert_eq!(seats[i].name.as_deref(), Some(name), "{seats:?}");
        assert_eq!(seats[i].computer(), None);
    }
    let lines = rules_lines(&rules, &seats, Lang::En);
    assert!(
        !lines.iter().any(|l| l.contains("the host can see")),
        "no seat runs on the host: {lines:?}"
    );

    // The peers confirmed at once; the table starts only when both apps did too (by the
    // pairing screen's button).
    confirm_alone_starts_nothing(&mut a, &mut b);
    assert!(matches!(phase(&b), TablePhase::Pairing { .. }));
    assert_eq!(east.line("started: "), None);
    b.world_mut().write_message(TableAction::Confirm);
    run_until(&mut [&mut a, &mut b], 60, |apps| {
        apps.iter().all(|x| screen(x) == Screen::Game)
    });

    // The guest's seat table shows the peers' devices online, as the host reports them.
    run_until(&mut [&mut a, &mut b], 20, |apps| {
        let g = apps[1].world().resource::<ActiveGame>();
        let t = g
            .lan_state()
            .and_then(|l| l.table.as_ref())
            .expect("a table");
        [Side::East, Side::West]
            .iter()
            .all(|s| t.seat(*s).link == Some(true))
    });

    // Both boards played by clicks, the peers by their computer players, to the end.
    let lasts = play_to_the_end(&mut [&mut a, &mut b]);
    check_same_clean_end(&lasts);
    let la = &lasts[0];
    let result = format!("{:?}", la.result.expect("a result"));
    let record = serde_json::to_string(&la.game.as_ref().unwrap().record).unwrap();
    for (seat, p) in [("east", &mut east), ("west", &mut west)] {
        let out = p.finish(60);
        let line = |prefix: &str| {
            out.lines()
                .find_map(|l| l.strip_prefix(prefix))
                .unwrap_or_else(|| panic!("{seat} printed no {prefix:?}:\n{out}"))
                .to_owned()
        };
        assert_eq!(line("ending: "), "Played", "{seat}");
        assert_eq!(line("result: "), result, "{seat}");
        assert_eq!(line("record: "), record, "{seat}");
        assert_eq!(line("verdict: "), "clean audit", "{seat}");
    }
    println!("two apps and two junqi-peer seats: {:?}", t0.elapsed());
    for d in [&da, &db, &dp] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn the_app_that_takes_west_runs_its_partner_easts_computer_seat() {
    let (da, db) = (temp_dir("host-east"), temp_dir("guest-west"));
    let (mut a, _ta) = named_lobby_app(&da, "alice");
    let (mut b, tb) = named_lobby_app(&db, "carol");

    // East the computer (新手), North the computer on the host, West open for a player.
    let addr = host_table(
        &mut a,
        [
            SeatChoice::Computer(1),
            SeatChoice::Computer(1),
            SeatChoice::Player,
        ],
    );
    // The host's device runs North only: East waits for West's device.
    run_until(&mut [&mut a], 20, |apps| {
        apps[0].world().resource::<TableLobby>().seats[2].computer() == Some(1)
    });
    assert_eq!(a.world().resource::<TableLobby>().seats[1].name, None);

    // The table as its host advertises it: West free, with East's computer.
    take_seat(
        &mut b,
        &tb,
        "alice",
        addr,
        ("W", Some("E1")),
        FourSeat::West,
    );
    let (_, rules) = pairing(&mut [&mut a, &mut b]);
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
    let lasts = play_to_the_end(&mut [&mut a, &mut b]);
    check_same_clean_end(&lasts);
    let _ = std::fs::remove_dir_all(&da);
    let _ = std::fs::remove_dir_all(&db);
}
