//! Headless tests of the four-player game (四国大战) in the app: setup → 出征 → the player's move
//! → the three computer seats' moves in turn order → the player's turn again; resigning (the
//! player is out, its pieces leave, the others play on); the team's result saved to the
//! profile with the four-player score; a saved four-player game replayed.

mod common;

use std::time::Duration;

use bevy::{prelude::*, time::TimeUpdateStrategy};
use junqi::{
    board::{BoardClick, BoardScene, Colour},
    game_match::LogEntry,
    model::{ActiveGame, LastGame},
    profile::Profile,
    screens::{
        Navigate, Screen,
        game_hud::GameAction,
        replay::ReplayState,
        setup::{First, SetupAction, SetupState, Table},
    },
    storage::DataDir,
};
use junqi_game::{Action, GameResult, Side};

fn temp_dir(tag: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("junqi-four-test-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

/// An app at the setup screen with a four-player table chosen: the player in `seat`, moving
/// first, the three computer seats at 新手.
fn four_player_game(dir: &std::path::Path, seat: Side) -> App {
    let mut app = junqi::headless_app(dir.to_path_buf());
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
        50,
    )));
    app.update();
    app.world_mut().write_message(Navigate(Screen::Setup));
    app.update();
    app.update();
    {
        let mut setup = app.world_mut().resource_mut::<SetupState>();
        setup.options.set_table(Table::Four);
        setup.options.seat = seat;
        setup.options.first = First::Me;
        setup.options.levels = [1; 4];
    }
    app.world_mut().write_message(SetupAction::March);
    app.update();
    app.update();
    assert_eq!(screen(&app), Screen::Game);
    app
}

fn game(app: &App) -> &ActiveGame {
    app.world().resource::<ActiveGame>()
}

/// Runs frames until `done` or `secs` of wall time pass.
fn run_until(app: &mut App, secs: u64, mut done: impl FnMut(&App) -> bool) {
    let end = std::time::Instant::now() + Duration::from_secs(secs);
    while std::time::Instant::now() < end {
        app.update();
        if done(app) {
            return;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    panic!("timed out");
}

/// Runs frames, the player's moves played by clicks, until `done` or `secs` of wall time pass.
fn play_until(app: &mut App, secs: u64, mut done: impl FnMut(&App) -> bool) {
    let end = std::time::Instant::now() + Duration::from_secs(secs);
    while std::time::Instant::now() < end {
        if done(app) {
            return;
        }
        if game(app).game_match.my_turn() {
            click_a_move(app);
        } else {
            app.update();
            std::thread::sleep(Duration::from_millis(2));
        }
    }
    panic!("timed out");
}

/// Plays the player's first legal step by two clicks.
fn click_a_move(app: &mut App) {
    let (from, to) = common::first_step(&game(app).game_match.view);
    app.world_mut().write_message(BoardClick(from));
    app.update();
    app.world_mut().write_message(BoardClick(to));
    app.update();
}

#[test]
fn the_player_moves_then_the_three_computer_seats_move_in_turn_order() {
    let dir = temp_dir("flow");
    // East: the player's half is still drawn at the bottom.
    let mut app = four_player_game(&dir, Side::East);
    {
        let g = game(&app);
        assert!(g.game_match.view.is_team_game());
        assert_eq!(g.game_match.me(), Side::East);
        assert!(g.game_match.my_turn());
        let scene = app.world().resource::<BoardScene>();
        assert!(scene.four);
        assert_eq!(scene.bottom, Some(Side::East));
        assert_eq!(scene.pieces.len(), 100, "four armies of 25");
        // Each army in its seat's colour; the enemies' ranks hidden.
        for side in Side::FOUR {
            assert!(
                scene
                    .pieces
                    .iter()
                    .any(|(_, t)| t.colour == Colour::of_seat(side))
            );
        }
        assert!(
            scene
                .pieces
                .iter()
                .any(|(_, t)| t.face == junqi::board::Face::Back)
        );
    }
    click_a_move(&mut app);
    assert_eq!(game(&app).game_match.plies(), 1);
    // North, West and South (the player's partner is West) move, one at a time.
    run_until(&mut app, 120, |a| game(a).game_match.my_turn());
    let g = game(&app);
    assert_eq!(g.game_match.plies(), 4);
    let movers: Vec<Side> = g
        .game_match
        .log
        .iter()
        .filter_map(|e| match e {
            LogEntry::Move { side, .. } => Some(*side),
            _ => None,
        })
        .collect();
    assert_eq!(
        movers,
        [Side::East, Side::North, Side::West, Side::South],
        "every computer seat moved (no timeouts), in turn order"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_player_who_resigns_is_out_and_the_others_play_on() {
    let dir = temp_dir("resign");
    let mut app = four_player_game(&dir, Side::South);
    // Resigning is refused in the first 20 plies: play until then.
    play_until(&mut app, 300, |a| {
        let g = game(a);
        g.game_match.plies() >= 20 && g.game_match.my_turn() || g.game_match.result().is_some()
    });
    if game(&app).game_match.result().is_some() {
        // A game that ended this early (a flag taken) proves nothing here.
        return;
    }
    app.world_mut().write_message(GameAction::AskResign);
    app.update();
    app.world_mut().write_message(GameAction::Resign);
    app.update();
    let plies = {
        let g = game(&app);
        assert!(!g.game_match.view.is_in(Side::South), "the player is out");
        assert!(g.game_match.result().is_none(), "the partner plays on");
        let scene = app.world().resource::<BoardScene>();
        assert!(
            !scene
                .pieces
                .iter()
                .any(|(_, t)| t.colour == Colour::of_seat(Side::South)),
            "the player's pieces left the board"
        );
        assert!(scene.dim_halves.contains(&Side::South));
        assert!(g.game_match.log.iter().any(|e| matches!(
            e,
            LogEntry::Out {
                side: Side::South,
                ..
            }
        )));
        g.game_match.plies()
    };
    // The next seats move; South is skipped.
    run_until(&mut app, 120, |a| {
        let s = &game(a).game_match;
        s.plies() >= plies + 3 || s.result().is_some()
    });
    assert_ne!(game(&app).game_match.turn(), Side::South);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Plays the player's moves by clicks until `plies` are played.
fn play_to(app: &mut App, plies: u16) {
    play_until(app, 300, |a| {
        let s = &game(a).game_match;
        s.plies() >= plies || s.result().is_some()
    });
}

#[test]
fn the_teams_result_is_saved_with_the_four_player_score_and_replays() {
    let dir = temp_dir("result");
    let mut app = four_player_game(&dir, Side::South);
    // The player's moves by clicks, the computers' by themselves, past the 40 quick plies.
    play_to(&mut app, 44);
    let plies = game(&app).game_match.plies();
    // The player's team gives up: South and North resign (RULES.md §9: each is out, and the
    // team with nobody left loses), through the engine as a computer seat's resignation would.
    let end = std::time::Instant::now() + Duration::from_secs(30);
    while screen(&app) != Screen::GameOver && std::time::Instant::now() < end {
        {
            let mut g = app.world_mut().resource_mut::<ActiveGame>();
            for side in [Side::South, Side::North] {
                if g.game_match.result().is_none() && g.game_match.view.is_in(side) {
                    // Refused unless the engine allows it now; tried again next frame.
                    let _ = g.game_match.act(side, Action::Resign);
                }
            }
        }
        app.update();
    }
    assert_eq!(screen(&app), Screen::GameOver);
    // The final board, every army face up.
    app.update();
    let scene = app.world().resource::<BoardScene>();
    assert!(scene.active && scene.four);
    assert!(!scene.pieces.is_empty());
    assert!(
        scene
            .pieces
            .iter()
            .all(|(_, t)| matches!(t.face, junqi::board::Face::Rank(_))),
        "both teams' pieces shown"
    );
    let last = app.world().resource::<LastGame>().clone();
    let result = last.result.expect("a result");
    let path = last.saved.clone().expect("the record is saved");
    let profile = app.world().resource::<Profile>();
    let key = profile
        .opponents
        .keys()
        .find(|k| k.starts_with("four:"))
        .expect("a four-player table in the profile");
    let tally = profile.opponents[key];
    let won =
        matches!(result, GameResult::Win { winner, .. } if winner.team() == Side::South.team());
    match result {
        GameResult::Win { .. } if won => {
            assert_eq!(tally.wins, 1);
            assert_eq!(profile.score, if plies <= 40 { 0 } else { 2 });
        }
        GameResult::Win { .. } => {
            assert_eq!(tally.losses, 1);
            assert_eq!(profile.score, -2, "a four-player loss costs two points");
        }
        GameResult::Draw { .. } => assert_eq!(profile.score, 0),
    }
    // The saved game replays, from the player's view and with the whole board.
    let dir_res = app.world().resource::<DataDir>().clone();
    let name = path.file_stem().unwrap().to_str().unwrap().to_owned();
    let mut replay = ReplayState::default();
    replay.open_file(&dir_res, &name).unwrap();
    replay.step = replay.len();
    let s = replay.game_match().expect("the record replays");
    assert!(s.view.is_team_game());
    assert_eq!(s.result(), Some(result));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_draw_offered_early_is_declined_by_the_next_computer_seat_and_play_goes_on() {
    let dir = temp_dir("draw");
    let mut app = four_player_game(&dir, Side::South);
    app.world_mut().write_message(GameAction::OfferDraw);
    app.update();
    let g = game(&app);
    assert!(g.game_match.result().is_none());
    // 下家 (East, who moves after the player) answers first and declines before ply 40.
    assert!(
        g.game_match
            .log
            .iter()
            .any(|e| matches!(e, LogEntry::DrawDeclined { side: Side::East })),
        "{:?}",
        g.game_match.log
    );
    assert!(
        g.game_match.my_turn(),
        "the offer does not use up the player's move"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn two_players_on_the_four_player_board_leave_east_and_west_empty() {
    let dir = temp_dir("big");
    let mut app = junqi::headless_app(dir.to_path_buf());
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
        50,
    )));
    app.update();
    app.world_mut().write_message(Navigate(Screen::Setup));
    app.update();
    app.world_mut()
        .resource_mut::<SetupState>()
        .options
        .set_table(Table::TwoOnBig);
    app.update();
    {
        let scene = app.world().resource::<BoardScene>();
        assert!(scene.four, "the setup shows the big board");
        assert_eq!(scene.dim_halves, [Side::East, Side::West]);
    }
    app.world_mut().write_message(SetupAction::March);
    app.update();
    app.update();
    assert_eq!(screen(&app), Screen::Game);
    let scene = app.world().resource::<BoardScene>().clone();
    assert!(scene.four);
    assert_eq!(scene.pieces.len(), 50, "two armies");
    click_a_move(&mut app);
    run_until(&mut app, 60, |a| game(a).game_match.plies() >= 2);
    assert_eq!(game(&app).game_match.plies(), 2);
    assert!(
        matches!(
            game(&app).game_match.log.last(),
            Some(LogEntry::Move {
                side: Side::North,
                ..
            })
        ),
        "the computer answered with a move, not a timeout: {:?}",
        game(&app).game_match.log
    );
    let _ = std::fs::remove_dir_all(&dir);
}
