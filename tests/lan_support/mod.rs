//! Helpers shared by the LAN tests of the app (`tests/lan.rs`, two players; `tests/lan_four.rs`,
//! four-seat tables): apps in the lobby fed by a channel instead of mDNS, stepping them together,
//! and playing by clicks; four-seat tables and `junqi-peer` seats in [`table`].

// The four-seat helpers: `tests/lan.rs` (two players) leaves them unused.
#[allow(dead_code)]
pub(crate) mod table;

use std::sync::mpsc;
use std::time::{Duration, Instant};

use bevy::prelude::*;
use junqi::{
    board::BoardClick,
    model::ActiveGame,
    screens::{Navigate, Screen, lobby::LobbyState},
};
use junqi_game::Move;
use junqi_net::discovery::Discovery;

/// An empty scratch folder for this test process.
pub(crate) fn temp_dir(tag: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("junqi-lan-test-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// The screen the app shows.
pub(crate) fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

/// An app in the lobby whose host list comes from a channel instead of mDNS.
pub(crate) fn lobby_app(dir: &std::path::Path) -> (App, mpsc::Sender<Discovery>) {
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

/// Steps every app until `done`, failing after `secs` seconds with the screens they show.
pub(crate) fn run_until(
    apps: &mut [&mut App],
    secs: u64,
    mut done: impl FnMut(&mut [&mut App]) -> bool,
) {
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

/// Clicks the `nth` legal move (modulo their count) for the app's player when it is its turn;
/// `true` if it played.
pub(crate) fn click_a_move(app: &mut App, nth: usize) -> bool {
    let Some(g) = app.world().get_resource::<ActiveGame>() else {
        return false;
    };
    if !g.game_match.my_turn() || g.game_match.result().is_some() {
        return false;
    }
    let moves = g.game_match.view.legal_moves().to_vec();
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
