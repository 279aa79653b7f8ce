//! Demo states of two-player LAN games on the big board (两人四国棋盘) for screenshots (feature
//! `dev`), without a network: `JUNQI_DEMO=lan-big-host` (the host's form with the big board
//! chosen), `lan-big-lobby` (the lobby listing a big-board game beside a classic one) and
//! `lan-big-game` (the guest's board, North, in play: its own half at the bottom).

use bevy::prelude::*;
use junqi_game::Side;
use junqi_net::discovery::{Discovery, HostInfo};

use crate::{
    ai,
    demo::{FourDemo, demo_four_match},
    game_match::Match,
    model::{ActiveGame, LanGame},
    screens::{
        Navigate, Screen,
        lobby::{LobbyAction, LobbyState},
        setup::{SetupState, Table},
    },
};

/// Registers the big-board LAN demos (rendering app only).
pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, drive);
}

/// A LAN game on the big board as the guest (North) sees it after `plies` moves chosen by the
/// computer for both sides: a remote match that followed North's events one by one, as the
/// LAN plugin's does.
pub fn demo_lan_big_match(plies: usize, seed: u64) -> Match {
    let (mut local, _) = demo_four_match(FourDemo::TwoBig, 0, seed);
    let me = Side::North;
    let start = local.game().expect("a local game").view(me);
    let mut seen = start.events().len();
    let mut remote = Match::remote(start, "lan:junqi-alice".into(), local.started);
    for n in 0..plies {
        let Some(game) = local.game() else { break };
        let side = game.turn();
        let Some(mv) = ai::choose(&game.view(side), 1, seed.wrapping_add(n as u64)) else {
            break;
        };
        if local.play(mv).is_err() {
            break;
        }
        let view = local.game().expect("a local game").view(me);
        for e in &view.events()[seen..] {
            if let Err(err) = remote.follow(e) {
                warn!("the demo's LAN board cannot take {e:?}: {err}");
            }
        }
        seen = view.events().len();
        if local.result().is_some() {
            break;
        }
    }
    let mine = remote.turn() == me;
    remote.set_turn(mine);
    remote
}

fn drive(
    mut commands: Commands,
    mut lobby: ResMut<LobbyState>,
    mut setup: ResMut<SetupState>,
    mut frame: Local<u32>,
    mut nav: MessageWriter<Navigate>,
    mut actions: MessageWriter<LobbyAction>,
) {
    *frame += 1;
    let demo = std::env::var("JUNQI_DEMO").unwrap_or_default();
    if !demo.starts_with("lan-big-") {
        return;
    }
    if *frame == 3 {
        match demo.as_str() {
            "lan-big-game" => {
                let lan = LanGame {
                    peer: "junqi-alice".into(),
                    code: "482-913".into(),
                    connected: true,
                    ..default()
                };
                commands.insert_resource(ActiveGame::lan(demo_lan_big_match(30, 3), lan));
                nav.write(Navigate(Screen::Game));
            }
            _ => {
                nav.write(Navigate(Screen::Lobby));
            }
        }
    }
    if *frame == 6 {
        match demo.as_str() {
            "lan-big-lobby" => {
                lobby.mdns = false;
                let found = |name: &str, rules: &str, ip: u8| HostInfo {
                    fullname: format!("{name}._junqi._udp.local."),
                    name: name.into(),
                    version: 1,
                    rules: rules.into(),
                    addrs: vec![std::net::SocketAddr::from(([192, 168, 1, ip], 4433))],
                    free_seats: None,
                };
                lobby.apply(Discovery::Found(found("junqi-alice", "dark 60s big", 7)));
                lobby.apply(Discovery::Found(found("junqi-dave", "open 30s", 5)));
            }
            "lan-big-host" => {
                actions.write(LobbyAction::Host);
            }
            _ => {}
        }
    }
    // The host's form, once the setup screen is open for hosting: the big board chosen.
    if *frame == 9 && demo == "lan-big-host" {
        setup.options.set_table(Table::TwoOnBig);
    }
}
