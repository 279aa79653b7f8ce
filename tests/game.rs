//! Headless tests of the game and setup screens' logic: clicks → moves, the computer's reply,
//! the move clock and timeouts, refused swaps, layouts saved and loaded, corrupt files.

mod common;

use std::time::Duration;

use bevy::{prelude::*, time::TimeUpdateStrategy};
use junqi::{
    board::{BoardClick, BoardDrag, BoardScene},
    demo::demo_match,
    model::{ActiveGame, LastGame},
    screens::{
        Navigate, Screen,
        game_hud::GameAction,
        setup::{SetupAction, SetupState, load_layout, save_layout},
    },
    storage::{DataDir, StoreError},
};
use junqi_game::{Move, Side};

fn temp_dir(tag: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("junqi-game-test-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn app_with_step(dir: &std::path::Path, step_ms: u64) -> App {
    let mut app = junqi::headless_app(dir.to_path_buf());
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
        step_ms,
    )));
    app.update();
    app
}

fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

fn start_game(app: &mut App) {
    let game_match = demo_match(Some(0), 3);
    assert_eq!(game_match.turn(), Side::South);
    app.insert_resource(ActiveGame::new(game_match, 1));
    app.world_mut().write_message(Navigate(Screen::Game));
    app.update();
    app.update();
    assert_eq!(screen(app), Screen::Game);
}

fn ply(app: &App) -> u16 {
    app.world().resource::<ActiveGame>().game_match.plies()
}

#[test]
fn click_piece_then_target_moves_and_the_computer_replies() {
    let dir = temp_dir("click");
    let mut app = app_with_step(&dir, 50);
    start_game(&mut app);
    let (from, to) = game_move(&app);
    app.world_mut().write_message(BoardClick(from));
    app.update();
    {
        let g = app.world().resource::<ActiveGame>();
        assert_eq!(g.selected, Some(from));
        assert!(g.targets().contains(&to));
        let scene = app.world().resource::<BoardScene>();
        assert!(scene.active);
        assert_eq!(scene.selected, Some(from));
        assert!(scene.targets.contains(&to));
        // Hidden enemy pieces are backs in a dark game.
        assert!(
            scene
                .pieces
                .iter()
                .any(|(_, t)| t.face == junqi::board::Face::Back)
        );
    }
    app.world_mut().write_message(BoardClick(to));
    app.update();
    assert_eq!(ply(&app), 1);
    assert_eq!(
        app.world()
            .resource::<ActiveGame>()
            .game_match
            .view
            .last_move(),
        Some((from, to))
    );
    // The computer answers off the main thread, after a short pause.
    for _ in 0..100 {
        app.update();
        if ply(&app) == 2 {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(ply(&app), 2, "the computer did not move");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn drag_and_drop_moves_and_illegal_targets_are_ignored() {
    let dir = temp_dir("drag");
    let mut app = app_with_step(&dir, 10);
    start_game(&mut app);
    let (from, to) = {
        let g = app.world().resource::<ActiveGame>();
        let mv = g.game_match.view.legal_moves()[0];
        match mv {
            Move::Step { from, to } => (from, to),
            _ => unreachable!(),
        }
    };
    // Dropping on its own point or an unreachable point does nothing.
    app.world_mut().write_message(BoardDrag { from, to: from });
    app.update();
    assert_eq!(ply(&app), 0);
    app.world_mut().write_message(BoardDrag { from, to });
    app.update();
    assert_eq!(ply(&app), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn timeouts_pass_the_turn_and_too_many_lose_and_the_record_is_saved() {
    let dir = temp_dir("clock");
    // Quarter-second steps (virtual time clamps larger ones): 240 updates run out a 60 s clock.
    let mut app = app_with_step(&dir, 250);
    start_game(&mut app);
    for _ in 0..242 {
        app.update();
    }
    {
        let g = app.world().resource::<ActiveGame>();
        assert_eq!(g.game_match.view.timeouts(Side::South), 1);
    }
    // Keep letting the clock run on the player's turns until the game is lost.
    for _ in 0..5000 {
        app.update();
        if screen(&app) == Screen::GameOver {
            break;
        }
        // Give the computer real time to think on its turns (its search has a wall-clock cap).
        if app
            .world()
            .get_resource::<ActiveGame>()
            .is_some_and(|g| !g.game_match.my_turn())
        {
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    assert_eq!(screen(&app), Screen::GameOver);
    let last = app.world().resource::<LastGame>();
    assert!(matches!(
        last.result,
        Some(junqi_game::GameResult::Win {
            winner: Side::North,
            reason: junqi_game::WinReason::Timeouts
        })
    ));
    let path = last.saved.clone().expect("record saved");
    assert!(path.starts_with(dir.join("records")));
    let opponent = last.opponent.clone();
    let profile = app.world().resource::<junqi::profile::Profile>();
    assert_eq!(profile.opponents[&opponent].losses, 1);
    assert!(dir.join("profile.json").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn refused_swap_shows_the_reason_and_keeps_the_layout() {
    let mut state = SetupState::default();
    let before = state.layout;
    // The flag (row 6, column 2) may not leave the headquarters.
    assert!(!state.try_swap((6, 2), (1, 1), junqi::i18n::Lang::Zh));
    assert_eq!(state.layout, before);
    let (msg, is_error) = state.message.clone().unwrap();
    assert!(is_error);
    assert!(msg.contains("军旗只能放在大本营"), "{msg}");
    // The point as the player counts it, not a bare code like "12：".
    assert!(
        msg.contains("第 1 行第 1 列") || msg.contains("第 6 行第 2 列"),
        "{msg}"
    );
    assert!(!msg.contains("12：") && !msg.contains("62："), "{msg}");
    assert!(!state.warn.is_empty());
    // Nothing may stand in a camp.
    assert!(!state.try_swap((1, 1), (2, 2), junqi::i18n::Lang::En));
    assert!(
        state
            .message
            .clone()
            .unwrap()
            .0
            .contains("Camps start empty (row 2, column 2)")
    );
    // A legal swap happens.
    assert!(state.try_swap((1, 1), (1, 2), junqi::i18n::Lang::Zh));
    assert_eq!(state.layout.get(1, 1), before.get(1, 2));
}

#[test]
fn setup_clicks_swap_and_march_starts_a_game() {
    let dir = temp_dir("setup");
    let mut app = app_with_step(&dir, 10);
    app.world_mut().write_message(Navigate(Screen::Setup));
    app.update();
    app.update();
    let board = junqi_game::Board::classic();
    let a = board.point(Side::South, 1, 1).unwrap();
    let b = board.point(Side::South, 1, 2).unwrap();
    let before = app.world().resource::<SetupState>().layout;
    app.world_mut().write_message(BoardClick(a));
    app.update();
    app.world_mut().write_message(BoardClick(b));
    app.update();
    let after = app.world().resource::<SetupState>().layout;
    assert_eq!(after.get(1, 1), before.get(1, 2));
    assert_eq!(after.get(1, 2), before.get(1, 1));
    app.world_mut().write_message(SetupAction::March);
    app.update();
    app.update();
    app.update();
    assert_eq!(screen(&app), Screen::Game);
    assert!(app.world().contains_resource::<ActiveGame>());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn layouts_save_load_and_corrupt_files() {
    let dir = temp_dir("layouts");
    let data = DataDir(dir.clone());
    let layout = SetupState::default().layout.mirrored();
    assert_eq!(
        save_layout(&data, " 我的 布阵 ", &layout).unwrap(),
        "我的 布阵"
    );
    assert_eq!(load_layout(&data, "我的 布阵").unwrap().layout, layout);
    assert!(matches!(
        load_layout(&data, "none"),
        Err(StoreError::Missing(_))
    ));
    assert!(matches!(
        save_layout(&data, "../escape", &layout),
        Err(StoreError::BadName(_))
    ));
    assert!(!dir.join("escape.json").exists());
    // A damaged file is moved aside untouched (and reported), so no save can overwrite it.
    std::fs::write(dir.join("layouts/bad.json"), "{\"name\": 1").unwrap();
    let moved = match load_layout(&data, "bad") {
        Err(StoreError::MovedAside { to, .. }) => to,
        other => panic!("{other:?}"),
    };
    assert_eq!(moved, dir.join("layouts/bad.damaged-1.json"));
    assert_eq!(std::fs::read_to_string(&moved).unwrap(), "{\"name\": 1");
    assert!(!dir.join("layouts/bad.json").exists());
    // A save under the old name writes a new file beside it; the damaged copy is unchanged.
    save_layout(&data, "bad", &layout).unwrap();
    assert_eq!(std::fs::read_to_string(&moved).unwrap(), "{\"name\": 1");
    std::fs::remove_file(dir.join("layouts/bad.json")).unwrap();
    // Loading a damaged one in the app shows a message, changes nothing, and drops it from the
    // list of saved layouts.
    std::fs::write(dir.join("layouts/worse.json"), "[").unwrap();
    let mut app = app_with_step(&dir, 10);
    app.world_mut().write_message(Navigate(Screen::Setup));
    app.update();
    let before = app.world().resource::<SetupState>().layout;
    assert!(
        app.world()
            .resource::<SetupState>()
            .saved
            .contains(&"worse".to_owned())
    );
    app.world_mut()
        .write_message(SetupAction::Load("worse".into()));
    app.update();
    let state = app.world().resource::<SetupState>();
    assert_eq!(state.layout, before);
    let (msg, err) = state.message.clone().unwrap();
    assert!(err && msg.contains("worse.damaged-1.json"), "{msg}");
    assert_eq!(state.saved, vec!["我的 布阵".to_owned()]);
    assert_eq!(
        std::fs::read_to_string(dir.join("layouts/worse.damaged-1.json")).unwrap(),
        "["
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn resigning_asks_for_confirmation_first() {
    let dir = temp_dir("resign");
    let mut app = app_with_step(&dir, 50);
    let game_match = demo_match(Some(24), 3);
    assert!(game_match.plies() >= 20, "resigning is allowed");
    app.insert_resource(ActiveGame::new(game_match, 1));
    app.world_mut().write_message(Navigate(Screen::Game));
    app.update();
    app.update();
    let state = |app: &App| {
        let g = app.world().resource::<ActiveGame>();
        (g.confirm_resign, g.game_match.result().is_some())
    };
    // 认输 only asks; 继续下棋 takes it back; nothing is given up.
    app.world_mut().write_message(GameAction::AskResign);
    app.update();
    assert_eq!(state(&app), (true, false));
    app.world_mut().write_message(GameAction::CancelResign);
    app.update();
    assert_eq!(state(&app), (false, false));
    // Asked and confirmed: the game is lost.
    app.world_mut().write_message(GameAction::AskResign);
    app.update();
    app.world_mut().write_message(GameAction::Resign);
    app.update();
    assert_eq!(state(&app), (false, true));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn undo_takes_back_the_players_move_and_the_computers_reply_exactly() {
    let dir = temp_dir("undo");
    let mut app = app_with_step(&dir, 50);
    start_game(&mut app);
    // Two full turns: the position to come back to is the one after the first.
    for target in [2u16, 4] {
        let mv = game_move(&app);
        app.world_mut().write_message(BoardClick(mv.0));
        app.update();
        app.world_mut().write_message(BoardClick(mv.1));
        app.update();
        for _ in 0..200 {
            app.update();
            if ply(&app) == target {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(ply(&app), target, "the computer did not move");
    }
    let before = {
        let s = &app.world().resource::<ActiveGame>().game_match;
        let mut back = s.saved().unwrap();
        back.record.actions.truncate(2);
        junqi::game_match::Match::from_saved(&back, None).unwrap()
    };
    app.world_mut().write_message(GameAction::Undo);
    app.update();
    let g = app.world().resource::<ActiveGame>();
    assert_eq!(
        g.game_match.plies(),
        2,
        "the move and its reply are taken back"
    );
    assert_eq!(g.game_match.undos, 1);
    let (now, then) = (g.game_match.game().unwrap(), before.game().unwrap());
    assert_eq!(now.position(), then.position());
    assert_eq!(now.record().actions, then.record().actions);
    assert_eq!(g.game_match.log, before.log);
    assert_eq!(g.game_match.removed, before.removed);
    assert_eq!(
        g.game_match.view.timeouts(Side::South),
        then.timeouts(Side::South)
    );
    // A fresh move clock (one 50 ms frame has run since).
    assert!(
        g.game_match.clock > then.rules().move_seconds as f32 - 0.1,
        "{}",
        g.game_match.clock
    );
    assert!(g.game_match.my_turn());
    // The limit holds: with none left, nothing is taken back.
    app.world_mut().resource_mut::<ActiveGame>().undo_limit = 1;
    app.world_mut().write_message(GameAction::Undo);
    app.update();
    assert_eq!(ply(&app), 2);
    assert_eq!(
        app.world()
            .resource::<ActiveGame>()
            .game_match
            .saved()
            .unwrap()
            .undos,
        1
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The player's first legal step.
fn game_move(app: &App) -> (junqi_game::Point, junqi_game::Point) {
    let g = app.world().resource::<ActiveGame>();
    common::first_step(&g.game_match.view)
}

#[test]
fn a_damaged_record_is_moved_aside_and_leaves_the_replay_list() {
    let dir = temp_dir("record");
    let data = DataDir(dir.clone());
    std::fs::create_dir_all(data.records()).unwrap();
    std::fs::write(data.records().join("game-5.json"), "{\"version\":").unwrap();
    assert_eq!(junqi::storage::list_names(&data.records()), ["game-5"]);
    let mut replay = junqi::screens::replay::ReplayState::default();
    let e = replay.open_file(&data, "game-5").unwrap_err();
    // The player reads the name the damaged file is kept under, never its folder.
    let shown = e.message(junqi::i18n::Lang::En);
    assert!(shown.contains("game-5.damaged-1.json"), "{shown}");
    assert!(!shown.contains(&*dir.to_string_lossy()), "{shown}");
    let kept = data.records().join("game-5.damaged-1.json");
    assert_eq!(std::fs::read_to_string(kept).unwrap(), "{\"version\":");
    assert!(junqi::storage::list_names(&data.records()).is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_inference_board_labels_hidden_enemy_pieces_from_the_players_view() {
    let dir = temp_dir("infer");
    let mut app = app_with_step(&dir, 50);
    start_game(&mut app);
    app.world_mut().write_message(GameAction::Inference);
    app.update();
    app.update();
    let g = app.world().resource::<ActiveGame>();
    let (_, inf) = g.inference.as_ref().expect("switched on");
    let game = g.game_match.game().unwrap();
    assert!(!inf.guesses.is_empty());
    for guess in &inf.guesses {
        assert_eq!(guess.side, Side::North);
        let truth = game.position().at(guess.at).unwrap().rank;
        assert!(guess.probabilities[truth.index()] > 0.0);
    }
    // Each hidden enemy piece shows its most likely rank.
    let scene = app.world().resource::<BoardScene>();
    let labelled = scene
        .pieces
        .iter()
        .filter(|(_, t)| t.face == junqi::board::Face::Back)
        .filter(|(_, t)| t.marker.as_deref().is_some_and(|m| m.ends_with('?')))
        .count();
    assert_eq!(labelled, inf.guesses.len());
    // And off again.
    app.world_mut().write_message(GameAction::Inference);
    app.update();
    assert!(app.world().resource::<ActiveGame>().inference.is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn leaving_a_running_game_asks_first() {
    let dir = temp_dir("leave");
    let mut app = app_with_step(&dir, 50);
    start_game(&mut app);
    app.world_mut().write_message(GameAction::AskLeave(true));
    app.update();
    assert!(app.world().resource::<ActiveGame>().confirm_leave);
    assert_eq!(screen(&app), Screen::Game, "asking leaves nothing yet");
    app.world_mut().write_message(GameAction::AskLeave(false));
    app.update();
    assert!(!app.world().resource::<ActiveGame>().confirm_leave);
    assert_eq!(screen(&app), Screen::Game);
    let _ = std::fs::remove_dir_all(&dir);
}

/// With the room rule off (a LAN host's choice, carried to both by the rules), the inference
/// board does not open.
#[test]
fn the_inference_board_stays_closed_when_the_rules_forbid_it() {
    let dir = temp_dir("no-inference");
    let mut app = app_with_step(&dir, 50);
    let mut options = junqi::screens::setup::MatchOptions::default();
    options.rules.inference_board = false;
    let layout = SetupState::default().layout;
    let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(2);
    let game_match = junqi::screens::setup::new_match(&options, &layout, &mut rng).unwrap();
    app.insert_resource(ActiveGame::new(game_match, 1));
    app.world_mut().write_message(Navigate(Screen::Game));
    app.update();
    app.update();
    app.world_mut().write_message(GameAction::Inference);
    app.update();
    assert!(app.world().resource::<ActiveGame>().inference.is_none());
    assert_eq!(
        junqi_net::discovery::rules_summary(&options.rules),
        "dark 60s no-inference"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// 认输 in the first 20 moves is refused at once, with no confirmation asked first, and the
/// refusal goes at the next move instead of staying on screen.
#[test]
fn resigning_early_is_refused_at_once_and_the_refusal_goes_with_the_next_move() {
    let dir = temp_dir("resign-early");
    let mut app = app_with_step(&dir, 50);
    start_game(&mut app);
    app.world_mut().write_message(GameAction::AskResign);
    app.update();
    {
        let g = app.world().resource::<ActiveGame>();
        assert!(
            !g.confirm_resign,
            "no confirmation for a resignation that is refused"
        );
        let said = g.status.clone().unwrap_or_default();
        assert!(said.contains("20"), "{said}");
        assert!(g.game_match.result().is_none());
    }
    let (from, to) = game_move(&app);
    app.world_mut().write_message(BoardClick(from));
    app.update();
    app.world_mut().write_message(BoardClick(to));
    app.update();
    app.update();
    assert_eq!(ply(&app), 1);
    assert_eq!(
        app.world().resource::<ActiveGame>().status,
        None,
        "the refusal stayed"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
