//! Headless tests of the review screen (复盘): a saved game opened for review is computed off the
//! main thread into the engine's review of that record, the board shows both armies and, at a
//! mistake, the computer's move; the same record is not reviewed twice; leaving stops the work.

use std::time::{Duration, Instant};

use bevy::{prelude::*, time::TimeUpdateStrategy};
use junqi::{
    board::{BoardScene, Face},
    game_match::GameFile,
    screens::{Navigate, Screen, review::ReviewState},
};
use junqi_game::ai::review::{ReviewParams, review};
use junqi_game::ai::{Ai, GreedyPlayer, Level, Player};
use junqi_game::{Action, Game, Move, Rules, Side, classic_layouts};

fn temp_dir(tag: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("junqi-review-test-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

/// A finished game of `plies` plies (新手 as South, the player, against a greedy North), as the
/// app saves it.
fn saved_game(plies: usize, started: u64) -> GameFile {
    let layouts = classic_layouts();
    let mut game = Game::new(
        Rules::default(),
        layouts[0].layout,
        layouts[3].layout,
        Side::South,
    )
    .unwrap();
    let mut players: [Box<dyn Player>; 2] = [
        Box::new(Ai::new(Level::Novice, started)),
        Box::new(GreedyPlayer::new(started)),
    ];
    for _ in 0..plies {
        if game.result().is_some() {
            break;
        }
        let side = game.turn();
        let action = players[side.index()].act(&game.view(side), &|| false);
        game.apply(side, action).unwrap();
    }
    if game.result().is_none() {
        game.apply(game.turn(), Action::Resign).unwrap();
    }
    GameFile {
        version: 1,
        started,
        opponent: "ai-1".into(),
        me: Side::South,
        record: game.record().clone(),
        result: game.result(),
        undos: 0,
    }
}

fn app(dir: &std::path::Path) -> App {
    let mut app = junqi::headless_app(dir.to_path_buf());
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
        50,
    )));
    app.update();
    app
}

fn open(app: &mut App, saved: &GameFile) {
    app.world_mut()
        .resource_mut::<ReviewState>()
        .open(saved.clone(), Screen::Replay);
    app.world_mut().write_message(Navigate(Screen::Review));
    app.update();
    app.update();
    assert_eq!(screen(app), Screen::Review);
}

fn state(app: &App) -> &ReviewState {
    app.world().resource::<ReviewState>()
}

/// Runs frames until the review is in (at most `secs` of wall time).
fn wait_for_review(app: &mut App, secs: u64) {
    let end = Instant::now() + Duration::from_secs(secs);
    while state(app).review.is_none() {
        assert!(Instant::now() < end, "the review did not finish");
        app.update();
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn a_saved_game_is_reviewed_off_the_main_thread_and_shown_with_both_armies() {
    let dir = temp_dir("shown");
    let mut app = app(&dir);
    let saved = saved_game(90, 1_764_513_000);
    open(&mut app, &saved);
    // The frames go on while the review is computed.
    assert!(state(&app).computing() || state(&app).review.is_some());
    wait_for_review(&mut app, 120);
    assert!(!state(&app).computing());
    let got = state(&app).done().expect("the review succeeded").clone();
    // Exactly the engine's review of the record, seeded by the game's start.
    let expected = review(
        &saved.record,
        &ReviewParams::default(),
        saved.started,
        &|_, _| {},
    )
    .unwrap();
    assert_eq!(got, expected);
    assert_eq!(got.curve.len(), saved.record.actions.len() + 1);
    assert!(
        !got.mistakes.is_empty(),
        "新手 and a greedy player make mistakes"
    );

    // At the first mistake: the position after it, every piece face up in both colours, and
    // the computer's move drawn as a hint.
    let m = got.mistakes().next().unwrap().clone();
    app.world_mut().resource_mut::<ReviewState>().step = m.action + 1;
    app.update();
    let scene = app.world().resource::<BoardScene>();
    assert!(scene.active);
    assert!(
        scene
            .pieces
            .iter()
            .all(|(_, t)| matches!(t.face, Face::Rank(_)))
    );
    let colours: std::collections::HashSet<_> =
        scene.pieces.iter().map(|(_, t)| t.colour).collect();
    assert_eq!(colours.len(), 2, "both armies");
    if let Move::Step { from, to } = m.best.mv {
        assert_eq!(scene.hint, vec![from, to]);
    }
    assert_eq!(state(&app).current_move(), Some(&m));

    // Back to where it was opened from; the same record opened again keeps its review.
    let back = state(&app).back;
    app.world_mut().write_message(Navigate(back));
    app.update();
    app.update();
    assert_eq!(screen(&app), Screen::Replay);
    open(&mut app, &saved);
    assert_eq!(state(&app).done(), Some(&got));
    assert_eq!(state(&app).step, 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn leaving_the_review_while_it_is_computed_stops_it() {
    let dir = temp_dir("leave");
    let mut app = app(&dir);
    let saved = saved_game(160, 1_764_600_000);
    open(&mut app, &saved);
    assert!(
        state(&app).computing(),
        "a long game is still being reviewed"
    );
    app.world_mut().write_message(Navigate(Screen::Title));
    app.update();
    app.update();
    assert_eq!(screen(&app), Screen::Title);
    assert!(!state(&app).computing());
    assert!(state(&app).review.is_none());
    // Opened again, it starts over and finishes.
    open(&mut app, &saved);
    wait_for_review(&mut app, 120);
    assert_eq!(
        state(&app).done().map(|r| r.curve.len()),
        Some(saved.record.actions.len() + 1)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The review counts moves as the log numbers them: a draw offer and its refusal between two
/// moves is no move, so the review's 第 N 手 of every move is the log's number for it, and its
/// slider ends at the game's last move number.
#[test]
fn the_reviews_move_numbers_are_the_logs() {
    use junqi::game_match::{LogEntry, Match};
    let layouts = classic_layouts();
    let mut game = Game::new(
        Rules::default(),
        layouts[0].layout,
        layouts[3].layout,
        Side::South,
    )
    .unwrap();
    let mut players: [Box<dyn Player>; 2] = [
        Box::new(GreedyPlayer::new(3)),
        Box::new(GreedyPlayer::new(4)),
    ];
    for ply in 0..30 {
        if game.result().is_some() {
            break;
        }
        let side = game.turn();
        if ply % 7 == 3 {
            game.apply(side, Action::OfferDraw).unwrap();
            game.apply(side.opponent(), Action::DeclineDraw).unwrap();
        }
        let action = players[side.index()].act(&game.view(side), &|| false);
        game.apply(side, action).unwrap();
    }
    let record = game.record().clone();
    let saved = GameFile {
        version: 1,
        started: 1,
        opponent: "ai-1".into(),
        me: Side::South,
        record: record.clone(),
        result: game.result(),
        undos: 0,
    };
    let log = Match::from_saved(&saved, None).unwrap().log;
    let log_plies: Vec<usize> = log
        .iter()
        .filter_map(|e| match e {
            LogEntry::Move { ply, .. } | LogEntry::Flip { ply, .. } => Some(usize::from(*ply)),
            _ => None,
        })
        .collect();
    let mut state = ReviewState::default();
    state.open(saved, Screen::Replay);
    let review_plies: Vec<usize> = record
        .actions
        .iter()
        .enumerate()
        .filter(|(_, (_, a))| matches!(a, Action::Move(_)))
        .map(|(i, _)| state.ply_of_action(i))
        .collect();
    assert!(
        record.actions.len() > review_plies.len(),
        "draw offers in the record"
    );
    assert_eq!(review_plies, log_plies);
    let steps = state.ply_steps();
    assert_eq!(
        steps.len() - 1,
        *log_plies.last().unwrap(),
        "the slider's end"
    );
    assert_eq!(*steps.last().unwrap(), record.actions.len());
}
