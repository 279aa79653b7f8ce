//! Headless tests of the phone life cycle: a game against the computer kept when the app is
//! sent to the background and offered on the next start with its clock; a game left through
//! the menu is not; a damaged file is moved aside, not offered.

mod common;

use std::time::Duration;

use bevy::{prelude::*, time::TimeUpdateStrategy, window::AppLifecycle};
use junqi::{
    board::BoardClick,
    demo::demo_match,
    model::{ActiveGame, Opponent},
    screens::{Navigate, Screen},
    suspend::{Resumable, ResumeGame},
};

fn temp_dir(tag: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("junqi-suspend-test-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn app(dir: &std::path::Path) -> App {
    let mut app = junqi::headless_app(dir.to_path_buf());
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
        100,
    )));
    app.update();
    app
}

fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

fn game(app: &App) -> &ActiveGame {
    app.world().resource::<ActiveGame>()
}

/// A game at level 2 with the player's first move and the computer's reply played.
fn game_under_way(dir: &std::path::Path) -> App {
    let mut app = app(dir);
    app.insert_resource(ActiveGame::new(demo_match(Some(0), 3), 2));
    app.world_mut().write_message(Navigate(Screen::Game));
    app.update();
    app.update();
    let (from, to) = common::first_step(&game(&app).game_match.view);
    app.world_mut().write_message(BoardClick(from));
    app.update();
    app.world_mut().write_message(BoardClick(to));
    app.update();
    for _ in 0..200 {
        if game(&app).game_match.plies() == 2 && game(&app).thinking.is_none() {
            break;
        }
        app.update();
        // The computer thinks on its own thread: leave it real time.
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert_eq!(game(&app).game_match.plies(), 2);
    app
}

#[test]
fn a_game_sent_to_the_background_is_offered_again_with_its_clock() {
    let dir = temp_dir("resume");
    let mut first = game_under_way(&dir);
    first
        .world_mut()
        .resource_mut::<ActiveGame>()
        .game_match
        .clock = 33.0;
    first.world_mut().write_message(AppLifecycle::WillSuspend);
    first.update();
    let record = game(&first).game_match.saved().unwrap();
    drop(first);

    // The next start: offered on the title screen, and played on where it stood.
    let mut next = app(&dir);
    assert_eq!(screen(&next), Screen::Title);
    let offered = next
        .world()
        .resource::<Resumable>()
        .0
        .clone()
        .expect("offered");
    assert_eq!(offered.game.record.actions, record.record.actions);
    next.world_mut().write_message(ResumeGame);
    next.update();
    next.update();
    assert_eq!(screen(&next), Screen::Game);
    let g = game(&next);
    assert_eq!(g.game_match.plies(), 2);
    assert!(matches!(g.opponent, Opponent::Ai { level: 2 }));
    assert!(
        (g.game_match.clock - 33.0).abs() < 1.0,
        "clock {}",
        g.game_match.clock
    );
    assert!(g.game_match.my_turn());
    assert_eq!(next.world().resource::<Resumable>().0, None, "offered once");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_game_left_through_the_menu_is_not_offered_and_a_damaged_file_is_moved_aside() {
    let dir = temp_dir("left");
    let mut first = game_under_way(&dir);
    assert!(
        dir.join("unfinished.json").exists(),
        "kept after every move"
    );
    first.world_mut().write_message(Navigate(Screen::Title));
    first.update();
    first.update();
    drop(first);
    assert!(!dir.join("unfinished.json").exists());
    assert_eq!(app(&dir).world().resource::<Resumable>().0, None);

    std::fs::write(dir.join("unfinished.json"), "{\"version\": 1, \"game\":").unwrap();
    let again = app(&dir);
    assert_eq!(again.world().resource::<Resumable>().0, None);
    assert!(dir.join("unfinished.damaged-1.json").exists(), "kept aside");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A game killed between two moves (no life-cycle message, no exit: `kill -9`) comes back with
/// its clock within a few seconds of where it stood, not from the last move, and with the
/// player's markers.
#[test]
fn a_killed_game_comes_back_with_its_clock_and_markers() {
    let dir = temp_dir("killed");
    let mut first = game_under_way(&dir);
    let enemy = {
        let g = game(&first);
        let me = g.game_match.me();
        g.game_match
            .view
            .pieces()
            .find(|k| k.side != me && k.at.is_some())
            .map(|k| k.id)
            .expect("an enemy piece")
    };
    {
        let mut g = first.world_mut().resource_mut::<ActiveGame>();
        g.game_match.markers.insert(enemy, "炸".into());
        g.game_match.clock = 31.0;
    }
    first.update();
    first.update();
    // Killed: dropped without any message.
    drop(first);

    let mut next = app(&dir);
    next.world_mut().write_message(ResumeGame);
    next.update();
    next.update();
    assert_eq!(screen(&next), Screen::Game);
    let g = game(&next);
    assert_eq!(
        g.game_match.markers.get(&enemy).map(String::as_str),
        Some("炸")
    );
    assert!(
        g.game_match.clock <= 36.0,
        "the clock restarted from the last move: {}",
        g.game_match.clock
    );
    let _ = std::fs::remove_dir_all(&dir);
}
