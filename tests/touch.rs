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
    board::{BoardZoom, CurrentView},
    demo::{FourDemo, demo_four_match, demo_match},
    form::{Form, UiZoom},
    model::ActiveGame,
    screens::{Navigate, Screen, game_hud::GameAction},
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
    let game_match = demo_match(Some(0), 3);
    assert_eq!(game_match.turn(), Side::South);
    app.insert_resource(ActiveGame::new(game_match, 1));
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
    common::first_step(&game(app).game_match.view)
}

/// Updates until it is the player's turn again (the computer has replied).
/// The computer thinks on its own thread, so each update leaves it a little
/// real time (three seats reply in a four-player game): 200 bare updates
/// were over before a loaded machine had scheduled it.
fn until_my_turn(app: &mut App) {
    for _ in 0..400 {
        if game(app).game_match.my_turn() && game(app).thinking.is_none() {
            return;
        }
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(5));
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
    assert_eq!(game(&app).game_match.plies(), 1, "tap, tap plays the move");
    until_my_turn(&mut app);
    assert_eq!(game(&app).game_match.plies(), 2);

    // Drag a piece with the finger and lift it on a target.
    let (from, to) = a_move(&app);
    let (a, b) = (at(&app, from), at(&app, to));
    finger(&mut app, window, TouchPhase::Started, a);
    finger(&mut app, window, TouchPhase::Moved, a.lerp(b, 0.5));
    finger(&mut app, window, TouchPhase::Moved, b);
    assert_eq!(
        game(&app).game_match.plies(),
        2,
        "nothing moves before the finger lifts"
    );
    finger(&mut app, window, TouchPhase::Ended, b);
    assert_eq!(game(&app).game_match.plies(), 3, "the drag plays the move");
    until_my_turn(&mut app);

    // Hold a finger on an enemy piece: the marker menu opens while it is still down.
    let me = game(&app).game_match.me();
    let enemy = game(&app)
        .game_match
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
        game(&app).game_match.plies(),
        4,
        "the long press played nothing"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A four-player game against three computer seats in a 720 × 1600 window, the player to move.
fn phone_four_game(dir: &std::path::Path) -> (App, Entity) {
    let (mut app, window) = phone_game(dir);
    let (game_match, options) = demo_four_match(FourDemo::Dark, 0, 3);
    app.insert_resource(ActiveGame::table(game_match, options.levels));
    app.world_mut().write_message(Navigate(Screen::Title));
    app.update();
    app.world_mut().write_message(Navigate(Screen::Game));
    app.update();
    app.update();
    until_my_turn(&mut app);
    (app, window)
}

/// The distance in logical pixels between neighbouring points of the board shown.
fn spacing(app: &App) -> f32 {
    app.world()
        .resource::<CurrentView>()
        .0
        .expect("the board is shown")
        .sx
}

#[test]
fn the_four_player_board_zooms_in_to_a_fingers_width_and_moves_under_a_finger() {
    let dir = temp_dir("zoom");
    let (mut app, window) = phone_four_game(&dir);
    let whole = spacing(&app);
    let dp = *app.world().resource::<UiZoom>();
    assert!(
        whole / dp.0 < 30.0,
        "the whole board on a phone: points {:.0} dp apart",
        whole / dp.0
    );

    // 放大: neighbouring points a finger's width (48 dp) apart.
    app.world_mut().write_message(GameAction::Zoom);
    app.update();
    app.update();
    let zoomed = spacing(&app);
    assert!(
        zoomed / dp.0 >= 47.0,
        "zoomed in: points {:.0} dp apart",
        zoomed / dp.0
    );
    assert_eq!(app.world().resource::<BoardZoom>().0, Some(BoardZoom::HOME));

    // Tap, tap still plays a move on the zoomed board.
    let plies = game(&app).game_match.plies();
    let (from, to) = a_move(&app);
    let (a, b) = (at(&app, from), at(&app, to));
    tap(&mut app, window, a);
    assert_eq!(game(&app).selected, Some(from));
    tap(&mut app, window, b);
    assert_eq!(
        game(&app).game_match.plies(),
        plies + 1,
        "the move is played"
    );
    until_my_turn(&mut app);

    // A finger dragged where no piece is moves the board with it, and is no tap.
    let empty = game(&app)
        .game_match
        .view
        .board()
        .points()
        .find(|&p| {
            game(&app).game_match.view.pieces().all(|k| k.at != Some(p)) && {
                let a = at(&app, p);
                (100.0..620.0).contains(&a.x) && (300.0..700.0).contains(&a.y)
            }
        })
        .expect("an empty point in sight");
    let a = at(&app, empty);
    let before = at(&app, empty);
    let plies = game(&app).game_match.plies();
    finger(&mut app, window, TouchPhase::Started, a);
    finger(
        &mut app,
        window,
        TouchPhase::Moved,
        a + Vec2::new(0.0, 40.0),
    );
    finger(
        &mut app,
        window,
        TouchPhase::Moved,
        a + Vec2::new(0.0, 80.0),
    );
    app.update();
    let moved = at(&app, empty) - before;
    assert!(
        (moved.y - 80.0).abs() < 1.0 && moved.x.abs() < 1.0,
        "the board follows the finger: moved {moved}"
    );
    finger(
        &mut app,
        window,
        TouchPhase::Ended,
        a + Vec2::new(0.0, 80.0),
    );
    assert_eq!(
        game(&app).game_match.plies(),
        plies,
        "panning plays nothing"
    );
    assert_eq!(game(&app).selected, None, "and selects nothing");

    // 全图: the whole board again; leaving the game forgets the zoom.
    app.world_mut().write_message(GameAction::Zoom);
    app.update();
    app.update();
    assert!((spacing(&app) - whole).abs() < 0.01);
    app.world_mut().write_message(GameAction::Zoom);
    app.world_mut().write_message(Navigate(Screen::Title));
    app.update();
    app.update();
    assert_eq!(app.world().resource::<BoardZoom>().0, None);
    let _ = std::fs::remove_dir_all(&dir);
}
