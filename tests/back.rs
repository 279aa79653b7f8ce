//! Headless tests of the phone's back button: a menu screen goes back to the title (the lobby
//! stops looking), a game is kept when Back closes the app, and Back never leads to the screen
//! it was pressed on.

mod common;

use std::time::Duration;

use bevy::{input::keyboard::Key, prelude::*, time::TimeUpdateStrategy};
use junqi::{
    back::{Back, back_from},
    board::BoardClick,
    demo::demo_match,
    model::ActiveGame,
    screens::{Navigate, Screen},
    suspend::Resumable,
};

fn temp_dir(tag: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("junqi-back-test-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn app(dir: &std::path::Path) -> App {
    let mut app = junqi::headless_app(dir.to_path_buf());
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
        100,
    )));
    app.init_resource::<ButtonInput<Key>>();
    app.update();
    app
}

fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

/// Presses and releases Back (no input plugin here clears the press).
fn press_back(app: &mut App) {
    let mut keys = app.world_mut().resource_mut::<ButtonInput<Key>>();
    keys.press(Key::BrowserBack);
    app.update();
    let mut keys = app.world_mut().resource_mut::<ButtonInput<Key>>();
    keys.release(Key::BrowserBack);
    keys.clear();
    app.update();
}

fn exits(app: &App) -> usize {
    app.world().resource::<Messages<AppExit>>().len()
}

#[test]
fn back_never_stays_and_leaves_a_game_only_by_closing_the_app() {
    for screen in Screen::ALL {
        for review_from in Screen::ALL {
            match back_from(screen, review_from) {
                Back::To(to) => {
                    assert_ne!(to, screen, "Back on {screen:?} stays");
                    assert_ne!(to, Screen::Game, "Back never enters a game");
                }
                Back::Close => {
                    assert!(matches!(screen, Screen::Title | Screen::Game), "{screen:?}")
                }
            }
        }
    }
    assert_eq!(back_from(Screen::Game, Screen::Title), Back::Close);
    assert_eq!(
        back_from(Screen::Review, Screen::GameOver),
        Back::To(Screen::GameOver)
    );
}

#[test]
fn back_on_a_menu_screen_returns_to_the_title() {
    let dir = temp_dir("menu");
    for from in [
        Screen::Settings,
        Screen::Rules,
        Screen::Profile,
        Screen::Lobby,
    ] {
        let mut app = app(&dir);
        app.world_mut().write_message(Navigate(from));
        app.update();
        app.update();
        assert_eq!(screen(&app), from);
        press_back(&mut app);
        assert_eq!(screen(&app), Screen::Title, "from {from:?}");
        assert_eq!(exits(&app), 0);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn back_in_a_game_closes_the_app_and_keeps_the_game() {
    let dir = temp_dir("game");
    let mut app = app(&dir);
    app.insert_resource(ActiveGame::new(demo_match(Some(0), 3), 2));
    app.world_mut().write_message(Navigate(Screen::Game));
    app.update();
    app.update();
    let (from, to) = common::first_step(&app.world().resource::<ActiveGame>().game_match.view);
    app.world_mut().write_message(BoardClick(from));
    app.update();
    app.world_mut().write_message(BoardClick(to));
    app.update();
    assert!(app.world().resource::<ActiveGame>().game_match.plies() >= 1);
    press_back(&mut app);
    assert!(exits(&app) > 0, "Back in a game closes the app");
    assert_eq!(
        screen(&app),
        Screen::Game,
        "not left for the menu, which gives it up"
    );
    drop(app);
    let next = self::app(&dir);
    let offered = next.world().resource::<Resumable>().0.clone();
    assert!(offered.is_some_and(|u| !u.game.record.actions.is_empty()));
    let _ = std::fs::remove_dir_all(&dir);
}
