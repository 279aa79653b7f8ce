//! Headless tests of touch input: a game played by injected finger events only, in a phone-sized
//! portrait window: tap a piece, tap a target; drag a piece with a finger; hold a finger on an
//! enemy piece for its marker menu.

mod common;

use std::time::Duration;

use bevy::{
    input::touch::{TouchInput, TouchPhase},
    prelude::*,
    time::TimeUpdateStrategy,
    window::{PrimaryWindow, WindowResolution},
};
use junqi::{
    board::CurrentView,
    demo::demo_session,
    form::Form,
    screens::{Navigate, Screen, game::ActiveGame},
};
use junqi_game::{Point, Side};

fn temp_dir(tag: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("junqi-touch-test-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// A game against the computer in a 720 × 1600 window, the player to move.
fn phone_game(dir: &std::path::Path) -> (App, Entity) {
    let mut app = junqi::headless_app(dir.to_path_buf());
    app.add_plugins(bevy::input::InputPlugin);
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
        100,
    )));
    let window = app
        .world_mut()
        .spawn((
            Window {
                resolution: WindowResolution::new(720, 1600),
                ..default()
            },
            PrimaryWindow,
        ))
        .id();
    app.update();
    let session = demo_session(Some(0), 3);
    assert_eq!(session.turn(), Side::South);
    app.insert_resource(ActiveGame::new(session, 1));
    app.world_mut().write_message(Navigate(Screen::Game));
    app.update();
    app.update();
    assert_eq!(*app.world().resource::<Form>(), Form::Portrait);
    (app, window)
}

/// Where a board point is in the window (top-left origin, logical pixels).
fn at(app: &App, p: Point) -> Vec2 {
    let view = app
        .world()
        .resource::<CurrentView>()
        .0
        .expect("the board is shown");
    let w = view.world(p);
    Vec2::new(w.x + 360.0, 800.0 - w.y)
}

fn finger(app: &mut App, window: Entity, phase: TouchPhase, position: Vec2) {
    app.world_mut().write_message(TouchInput {
        phase,
        position,
        window,
        force: None,
        id: 7,
    });
    app.update();
}

fn tap(app: &mut App, window: Entity, position: Vec2) {
    finger(app, window, TouchPhase::Started, position);
    finger(app, window, TouchPhase::Ended, position);
}

fn game(app: &App) -> &ActiveGame {
    app.world().resource::<ActiveGame>()
}

fn a_move(app: &App) -> (Point, Point) {
    common::first_step(&game(app).session.view)
}

/// Updates until it is the player's turn again (the computer has replied).
fn until_my_turn(app: &mut App) {
    for _ in 0..200 {
        if game(app).session.my_turn() && game(app).thinking.is_none() {
            return;
        }
        app.update();
    }
    panic!("the computer never replied");
}

#[test]
fn a_game_is_played_with_a_finger_tap_tap_drag_and_long_press() {
    let dir = temp_dir("play");
    let (mut app, window) = phone_game(&dir);

    // Tap a piece: selected, its targets shown; tap a target, a little off its centre as a
    // finger lands: the move is played.
    let (from, to) = a_move(&app);
    let a = at(&app, from);
    tap(&mut app, window, a);
    assert_eq!(game(&app).selected, Some(from));
    let off = (at(&app, to) - at(&app, from)).normalize() * 10.0;
    let b = at(&app, to) - off;
    tap(&mut app, window, b);
    assert_eq!(game(&app).session.plies(), 1, "tap, tap plays the move");
    until_my_turn(&mut app);
    assert_eq!(game(&app).session.plies(), 2);

    // Drag a piece with the finger and lift it on a target.
    let (from, to) = a_move(&app);
    let (a, b) = (at(&app, from), at(&app, to));
    finger(&mut app, window, TouchPhase::Started, a);
    finger(&mut app, window, TouchPhase::Moved, a.lerp(b, 0.5));
    finger(&mut app, window, TouchPhase::Moved, b);
    assert_eq!(
        game(&app).session.plies(),
        2,
        "nothing moves before the finger lifts"
    );
    finger(&mut app, window, TouchPhase::Ended, b);
    assert_eq!(game(&app).session.plies(), 3, "the drag plays the move");
    until_my_turn(&mut app);

    // Hold a finger on an enemy piece: the marker menu opens while it is still down.
    let me = game(&app).session.me();
    let enemy = game(&app)
        .session
        .view
        .pieces()
        .find(|k| k.side != me && k.at.is_some())
        .and_then(|k| k.at)
        .expect("an enemy piece on the board");
    let p = at(&app, enemy);
    finger(&mut app, window, TouchPhase::Started, p);
    assert_eq!(game(&app).marking, None);
    for _ in 0..6 {
        finger(&mut app, window, TouchPhase::Moved, p + Vec2::new(1.0, 0.0));
    }
    assert_eq!(
        game(&app).marking,
        Some(enemy),
        "a long press opens the marker menu"
    );
    finger(&mut app, window, TouchPhase::Ended, p);
    assert_eq!(game(&app).marking, Some(enemy));
    assert_eq!(
        game(&app).session.plies(),
        4,
        "the long press played nothing"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
