//! Demo states of four-seat LAN tables for screenshots (feature `dev`), without a network:
//! `JUNQI_DEMO=table-lobby` (the lobby listing a table with its free seats, West with East's
//! computer), `table-setup` (the host's choices: East a computer that West's device will run,
//! North one on the host), `table-pairing` (the one code, the seat table and the rules line) and
//! `table-game` (a 四暗 table in play, the seat table with the players' names and links).

use bevy::prelude::*;
use junqi_net::discovery::{Discovery, HostInfo, read_seats};
use junqi_net::table_handle::{SeatInfo, partner_computer_name};

use crate::{
    demo::{FourDemo, demo_four_match},
    model::{ActiveGame, LanGame, LanTable},
    screens::{
        Navigate, Screen,
        lobby::LobbyState,
        lobby_table::{SeatChoice, TableLobby, TablePhase, Way},
    },
};

/// Registers the table demos (rendering app only).
pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, drive);
}

/// The seats of the demo table: a guest offline, East a computer on its partner West's device.
fn demo_seats() -> [SeatInfo; 4] {
    let seat = |name: &str, link: Option<bool>| SeatInfo {
        name: Some(name.into()),
        link,
        ..SeatInfo::default()
    };
    [
        seat("junqi-alice", Some(true)),
        seat(&partner_computer_name(2), Some(true)),
        seat("junqi-bob", Some(false)),
        seat("junqi-carol", Some(true)),
    ]
}

fn drive(
    mut commands: Commands,
    mut lobby: ResMut<LobbyState>,
    mut table: ResMut<TableLobby>,
    mut frame: Local<u32>,
    mut nav: MessageWriter<Navigate>,
) {
    *frame += 1;
    let demo = std::env::var("JUNQI_DEMO").unwrap_or_default();
    if !demo.starts_with("table-") {
        return;
    }
    if *frame == 3 {
        match demo.as_str() {
            "table-game" => {
                let (s, _) = demo_four_match(FourDemo::Dark, 30, 3);
                let mut t = LanTable {
                    host: true,
                    seats: demo_seats(),
                    ..default()
                };
                t.seats[2].link = Some(false);
                let lan = LanGame {
                    peer: "junqi-bob · junqi-carol".into(),
                    code: "482-913".into(),
                    connected: true,
                    table: Some(Box::new(t)),
                    ..default()
                };
                commands.insert_resource(ActiveGame::lan(s, lan));
                nav.write(Navigate(Screen::Game));
            }
            _ => {
                nav.write(Navigate(Screen::Lobby));
            }
        }
    }
    if *frame == 6 {
        match demo.as_str() {
            "table-lobby" => {
                lobby.mdns = false;
                let found = |name: &str, rules: &str, seats: Option<&str>, ip: u8| HostInfo {
                    fullname: format!("{name}._junqi._udp.local."),
                    name: name.into(),
                    version: 1,
                    rules: rules.into(),
                    addrs: vec![std::net::SocketAddr::from(([192, 168, 1, ip], 4433))],
                    free_seats: seats.and_then(|s| {
                        let (free, with) = s.split_once('+').unwrap_or((s, ""));
                        read_seats(Some(free), (!with.is_empty()).then_some(with))
                    }),
                };
                lobby.apply(Discovery::Found(found("junqi-dave", "dark 60s", None, 5)));
                lobby.apply(Discovery::Found(found(
                    "junqi-alice",
                    "four dark 30s",
                    Some("NW+E2"),
                    7,
                )));
                lobby.apply(Discovery::Found(found(
                    "junqi-erin",
                    "four partners 30s",
                    Some("E"),
                    9,
                )));
            }
            "table-setup" => {
                table.phase = TablePhase::Setup;
                table.setup.way = Way::Partners;
                table.setup.seats = [
                    SeatChoice::Computer(2),
                    SeatChoice::Computer(3),
                    SeatChoice::Player,
                ];
            }
            "table-pairing" => {
                table.seat = Some(junqi_net::four::FourSeat::North);
                table.seats = demo_seats();
                table.seats[2].link = None;
                table.seats[2].hand_over = true;
                table.phase = TablePhase::Pairing {
                    code: "482-913".into(),
                    rules: Way::Dark.rules(),
                    confirmed: false,
                };
            }
            _ => {}
        }
    }
}
