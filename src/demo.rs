//! Scripted runs for screenshots and measurements, driven by environment variables:
//!
//! - `JUNQI_DEMO=setup` (any [`Screen::slug`]) opens that screen, with demo content where the
//!   screen needs some (a game in progress, a finished game, a replay);
//! - `JUNQI_SCREENSHOT=path.png` saves a screenshot of the window after `JUNQI_DEMO_FRAMES`
//!   frames (default 90) and then exits;
//! - `JUNQI_DEMO=four-game` (四暗), `four-partners` (双明), `four-setup`, `four-out` (a player
//!   out) and `two-big` (two players on the four-player board) show the four-player screens;
//! - `JUNQI_DEMO=lan-game` opens the LAN lobby, joins the first host it discovers (e.g. a
//!   `junqi-peer host` on the LAN) and plays the computer's moves for the player;
//! - `JUNQI_DIAG=1` logs frame time and resident memory every second (see [`crate::diag`]).

use bevy::{
    prelude::*,
    render::view::screenshot::{Screenshot, save_to_disk},
};
use junqi_game::{Move, Side};
use rand::{SeedableRng, rngs::StdRng};

use crate::{
    ai,
    game_match::Match,
    model::ActiveGame,
    screens::{
        Navigate, Screen,
        replay::ReplayState,
        review::ReviewState,
        setup::{MatchOptions, SetupState, new_match},
    },
    storage::{self, DataDir},
};

/// The demo run asked for in the environment.
#[derive(Resource, Clone, Debug, Default)]
pub struct Demo {
    /// The screen to open.
    pub screen: Option<Screen>,
    /// Where to save a screenshot.
    pub screenshot: Option<String>,
    /// Frames to wait before the screenshot.
    pub frames: u32,
    /// `lan-game`: join the first LAN host found and play it.
    pub lan: bool,
    /// `lan-pairing`: join, and stay at the pairing code (never confirm).
    pub hold_pairing: bool,
    /// `lan-setup`: join, confirm the code, and stay on the guest's setup screen (never ready).
    pub hold_setup: bool,
    /// `game-resign`: the game screen with 认输 pressed (its confirmation shown).
    pub ask_resign: bool,
    /// The four-player demos: which one.
    pub four: Option<FourDemo>,
    /// `game-inference`: the game screen with the inference board on and an enemy piece picked.
    pub inference: bool,
    /// `four-zoom`: the four-player game zoomed in (放大), a piece selected.
    pub zoom: bool,
}

/// A four-player (or big-board) demo.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FourDemo {
    /// The setup screen with a four-player table chosen.
    Setup,
    /// A 四暗 game in progress.
    Dark,
    /// A 双明 game in progress.
    Partners,
    /// A 四暗 game with a player out.
    Out,
    /// Two players on the four-player board.
    TwoBig,
    /// A four-player game over (the player's team resigned).
    Over,
}

impl Demo {
    /// Reads `JUNQI_DEMO`, `JUNQI_SCREENSHOT` and `JUNQI_DEMO_FRAMES`.
    pub fn from_env() -> Self {
        let demo = std::env::var("JUNQI_DEMO").unwrap_or_default();
        let hold_pairing = demo == "lan-pairing";
        let hold_setup = demo == "lan-setup";
        let lan = demo == "lan-game" || hold_pairing || hold_setup;
        let ask_resign = demo == "game-resign";
        let inference = demo == "game-inference";
        let four = match demo.as_str() {
            "four-setup" => Some(FourDemo::Setup),
            "four-game" | "four-zoom" => Some(FourDemo::Dark),
            "four-partners" => Some(FourDemo::Partners),
            "four-out" => Some(FourDemo::Out),
            "two-big" => Some(FourDemo::TwoBig),
            "four-over" => Some(FourDemo::Over),
            _ => None,
        };
        let screen = if four == Some(FourDemo::Setup) {
            Some(Screen::Setup)
        } else if four.is_some() {
            Some(Screen::Game)
        } else if lan {
            Some(Screen::Lobby)
        } else if ask_resign || inference {
            Some(Screen::Game)
        } else {
            Screen::from_slug(&demo)
        };
        let default_frames = if screen == Some(Screen::GameOver) || four == Some(FourDemo::Over) {
            150
        } else {
            90
        };
        Self {
            screen,
            screenshot: std::env::var("JUNQI_SCREENSHOT").ok(),
            frames: std::env::var("JUNQI_DEMO_FRAMES")
                .ok()
                .and_then(|s| s.parse().ok())
                .unwrap_or(default_frames),
            lan,
            hold_pairing,
            hold_setup,
            ask_resign,
            four,
            inference,
            zoom: demo == "four-zoom",
        }
    }
}

/// Registers the demo driver (rendering app only).
pub(super) fn plugin(app: &mut App) {
    app.insert_resource(Demo::from_env())
        .add_systems(Update, (drive, lan_demo));
}

/// A match with `plies` computer-chosen moves played (seeded, so screenshots repeat), or
/// played to the end when `plies` is `None`. The player's side plays at level 2, the other at 1.
pub fn demo_match(plies: Option<usize>, seed: u64) -> Match {
    let mut rng = StdRng::seed_from_u64(seed);
    let setup = SetupState::default();
    let options = MatchOptions::default();
    let mut s = new_match(&options, &setup.layout, &mut rng).expect("default layout is legal");
    s.started = 1_764_513_000 + seed;
    let mut n = 0;
    while s.result().is_none() && plies.is_none_or(|p| n < p) && n < 1000 {
        let side = s.turn();
        let level = if side == Side::South { 2 } else { 1 };
        let Some(view) = s.game().map(|g| g.view(side)) else {
            break;
        };
        match ai::choose(&view, level, seed.wrapping_add(n as u64)) {
            Some(mv) => {
                if s.play(mv).is_err() {
                    break;
                }
            }
            None => break,
        }
        n += 1;
    }
    s
}

/// A four-player game (or, `TwoBig`, a two-player one on the big board) with `plies` moves
/// chosen by the computer for every seat; `Out`: played on until a player is out.
pub fn demo_four_match(which: FourDemo, plies: usize, seed: u64) -> (Match, MatchOptions) {
    let mut rng = StdRng::seed_from_u64(seed);
    let setup = SetupState::default();
    let mut options = MatchOptions::default();
    if which == FourDemo::TwoBig {
        options.set_table(crate::screens::setup::Table::TwoOnBig);
    } else {
        options.set_table(crate::screens::setup::Table::Four);
        options.rules.partners_open = which == FourDemo::Partners;
        options.levels = [1, 2, 2, 1];
    }
    let mut s = new_match(&options, &setup.layout, &mut rng).expect("default layout is legal");
    s.started = 1_764_513_000 + seed;
    let out = |s: &Match| Side::FOUR.iter().any(|&side| !s.view.is_in(side));
    let mut n = 0;
    while s.result().is_none() && n < 1000 && (n < plies || (which == FourDemo::Out && !out(&s))) {
        let side = s.turn();
        let Some(view) = s.game().map(|g| g.view(side)) else {
            break;
        };
        match ai::choose(&view, 1, seed.wrapping_add(n as u64)) {
            Some(mv) => {
                if s.play(mv).is_err() {
                    break;
                }
            }
            None => {
                let _ = s.act(side, junqi_game::Action::Timeout);
            }
        }
        n += 1;
    }
    (s, options)
}

#[allow(clippy::too_many_arguments)]
fn drive(
    mut commands: Commands,
    demo: Res<Demo>,
    dir: Res<DataDir>,
    mut replay: ResMut<ReplayState>,
    mut review: ResMut<ReviewState>,
    mut setup: ResMut<SetupState>,
    mut frame: Local<u32>,
    mut positioned: Local<bool>,
    mut nav: MessageWriter<Navigate>,
    mut exit: MessageWriter<AppExit>,
) {
    // The review demo waits for the review (the screenshot shows it, not the spinner), then
    // shows the player's first mistake.
    if demo.screen == Some(Screen::Review) && *frame > 5 && !*positioned {
        if review.review.is_none() {
            return;
        }
        let me = review.record.as_ref().map(|r| r.me);
        let first = review.done().and_then(|r| {
            r.mistakes()
                .min_by_key(|m| (Some(m.side) != me, m.action))
                .map(|m| m.action + 1)
        });
        if let Some(step) = first {
            review.step = step;
        }
        *positioned = true;
    }
    *frame += 1;
    if *frame == 3
        && let Some(screen) = demo.screen
    {
        match (screen, demo.four) {
            (Screen::Setup, Some(_)) => {
                setup.options.set_table(crate::screens::setup::Table::Four);
                nav.write(Navigate(Screen::Setup));
            }
            (Screen::Game, Some(which)) => {
                let plies = if which == FourDemo::Over { 44 } else { 30 };
                let (mut s, options) = demo_four_match(which, plies, 3);
                if which == FourDemo::Over {
                    for side in [Side::South, Side::North] {
                        let _ = s.act(side, junqi_game::Action::Resign);
                    }
                }
                let mut game = if which == FourDemo::TwoBig {
                    ActiveGame::new(s, options.level)
                } else {
                    ActiveGame::table(s, options.levels)
                };
                if demo.zoom {
                    commands.insert_resource(crate::board::BoardZoom(Some(
                        crate::board::BoardZoom::HOME,
                    )));
                    game.selected =
                        game.game_match
                            .view
                            .legal_moves()
                            .iter()
                            .find_map(|m| match *m {
                                Move::Step { from, .. } => Some(from),
                                _ => None,
                            });
                }
                commands.insert_resource(game);
                nav.write(Navigate(Screen::Game));
            }
            (Screen::Game, None) => {
                let s = demo_match(Some(24), 7);
                let mut game = ActiveGame::new(s, 2);
                // Show a selected piece with its targets, and a marker on an enemy piece.
                let me = game.game_match.me();
                let pick = game
                    .game_match
                    .view
                    .legal_moves()
                    .iter()
                    .find_map(|m| match *m {
                        Move::Step { from, .. } if game.game_match.my_turn() => Some(from),
                        _ => None,
                    });
                game.selected = pick;
                game.confirm_resign = demo.ask_resign;
                let enemy = game
                    .game_match
                    .view
                    .pieces()
                    .find(|k| k.side != me && k.at.is_some())
                    .map(|k| k.id);
                if let Some(id) = enemy {
                    game.game_match.markers.insert(id, "炸".into());
                }
                if demo.inference {
                    game.inference = Some((usize::MAX, Default::default()));
                    game.selected = None;
                    // An enemy piece that has fought, to show what its battles allow.
                    game.marking = game
                        .game_match
                        .view
                        .pieces()
                        .filter(|k| k.side != me && k.at.is_some())
                        .min_by_key(|k| k.possible.count_ones())
                        .and_then(|k| k.at);
                }
                commands.insert_resource(game);
                nav.write(Navigate(Screen::Game));
            }
            (Screen::GameOver, _) => {
                let mut s = demo_match(None, 11);
                if s.result().is_none() {
                    let me = s.me();
                    let _ = s.act(me, junqi_game::Action::Resign);
                }
                commands.insert_resource(ActiveGame::new(s, 2));
                nav.write(Navigate(Screen::Game));
            }
            (Screen::Review, _) => {
                let mut s = demo_match(None, 11);
                if s.result().is_none() {
                    let me = s.me();
                    let _ = s.act(me, junqi_game::Action::Resign);
                }
                review.open(s.saved().expect("a local game"), Screen::Title);
                nav.write(Navigate(Screen::Review));
            }
            (Screen::Replay, _) => {
                let s = demo_match(None, 11);
                let saved = s.saved().expect("a local game");
                let path = dir.records().join(format!("game-{}.json", saved.started));
                if let Err(e) = storage::save_json(&path, &saved) {
                    warn!("{e}");
                }
                replay.open(saved);
                replay.step = 30.min(replay.len());
                nav.write(Navigate(Screen::Replay));
            }
            (other, _) => {
                nav.write(Navigate(other));
            }
        }
    }
    if let Some(path) = &demo.screenshot {
        if *frame == demo.frames {
            info!("saving screenshot to {path}");
            commands
                .spawn(Screenshot::primary_window())
                .observe(save_to_disk(path.clone()));
        }
        if *frame == demo.frames + 30 {
            exit.write(AppExit::Success);
        }
    }
}

/// `JUNQI_DEMO=lan-game`: joins the first host listed, confirms the pairing code after showing it
/// for 60 frames (`lan-pairing`: never, for a picture of the code), is ready with its layout
/// after 60 frames on the setup screen (`lan-setup`: never, for a picture of the guest's setup),
/// then plays the computer's moves (level 1) for the player, one every 20 frames.
#[allow(clippy::too_many_arguments)] // a Bevy system's parameters
fn lan_demo(
    demo: Res<Demo>,
    lobby: Res<crate::screens::lobby::LobbyState>,
    game: Option<Res<ActiveGame>>,
    mut joined: Local<bool>,
    mut frame: Local<u32>,
    mut shown: Local<u32>,
    mut lobby_actions: MessageWriter<crate::screens::lobby::LobbyAction>,
    mut clicks: MessageWriter<crate::board::BoardClick>,
    setup: Res<crate::screens::setup::SetupState>,
    mut setup_actions: MessageWriter<crate::screens::setup::SetupAction>,
    mut arranging: Local<u32>,
) {
    if !demo.lan {
        return;
    }
    *frame += 1;
    if !*joined && let Some(h) = lobby.hosts.hosts().first() {
        *joined = true;
        lobby_actions.write(crate::screens::lobby::LobbyAction::Join(h.fullname.clone()));
    }
    // The pairing code stays on screen a moment (for a screenshot), then the demo confirms it as
    // a player would after comparing.
    if setup.lan.as_ref().is_some_and(|l| !l.ready) {
        *arranging += 1;
        if *arranging == 60 && !demo.hold_setup {
            setup_actions.write(crate::screens::setup::SetupAction::March);
        }
    } else {
        *arranging = 0;
    }
    if let crate::screens::lobby::LobbyPhase::Pairing { .. } = lobby.phase {
        *shown += 1;
        if *shown == 60 && !demo.hold_pairing {
            lobby_actions.write(crate::screens::lobby::LobbyAction::ConfirmPairing);
        }
    } else {
        *shown = 0;
    }
    let Some(g) = game.filter(|g| g.lan_state().is_some()) else {
        return;
    };
    if !frame.is_multiple_of(20) || !g.game_match.my_turn() {
        return;
    }
    match ai::choose(&g.game_match.view, 1, u64::from(g.game_match.plies())) {
        Some(Move::Step { from, to }) => {
            if g.selected == Some(from) {
                clicks.write(crate::board::BoardClick(to));
            } else {
                clicks.write(crate::board::BoardClick(from));
            }
        }
        Some(Move::Flip { at }) => {
            clicks.write(crate::board::BoardClick(at));
        }
        None => {}
    }
}
