//! The setup screen (布阵): the new-game options ([`MatchOptions`]: mode, level, rule options,
//! who starts) and the player's layout: click two pieces (or drag one onto another) to swap
//! them, classic presets, random, mirror, named layouts saved in the data directory, and 出征.
//! In a LAN game each player arranges its own army here after the pairing
//! ([`SetupState::lan`]): the host's rules are shown, not editable, and 布好了 (ready) commits
//! the layout; play begins once both players are ready.

mod layout_files;
mod new_match;
mod options;
mod options_ui;
mod panels;
mod state;

use bevy::prelude::*;
use bevy_egui::EguiContexts;
use junqi_game::{Layout, Mode, Point, Rules, Side, classic_layouts};

pub use layout_files::{load_layout, save_layout};
pub use new_match::{four_key, new_match};
pub use options::{First, MatchOptions, Table};
pub use options_ui::options_ui;
pub use panels::{SetupOut, SetupTab, setup_panels};
pub use state::{DEFAULT_LAYOUT, LanArranging, SetupAction, SetupState};

use super::{Navigate, Screen};
use crate::{
    board::{BoardArea, BoardClick, BoardDrag, BoardScene, Colour, Face, Tile},
    form::Form,
    game_text::problem_text,
    i18n::Lang,
    model::ActiveGame,
    settings::{PieceColour, Settings},
    storage::{self, DataDir},
};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SetupState>()
        .init_resource::<SetupTab>()
        .add_message::<SetupAction>()
        .add_systems(OnEnter(Screen::Setup), enter)
        .add_systems(OnExit(Screen::Setup), exit)
        .add_systems(
            Update,
            (clicks, actions, show)
                .chain()
                .after(crate::board::BoardInput)
                .run_if(in_state(Screen::Setup)),
        );
    super::add_ui(app, Screen::Setup, ui);
}

fn enter(
    mut state: ResMut<SetupState>,
    mut tab: ResMut<SetupTab>,
    dir: Res<DataDir>,
    settings: Res<Settings>,
    mut recalled: Local<bool>,
) {
    // A LAN host comes to choose the game's options (the army is arranged after the pairing),
    // a LAN player after the pairing to arrange its army.
    if state.lan_host {
        *tab = SetupTab::Options;
    } else if state.lan.is_some() {
        *tab = SetupTab::Layout;
    }
    // The first time the screen opens: the player's last choices, if any.
    if !std::mem::replace(&mut *recalled, true)
        && state.lan.is_none()
        && !state.lan_host
        && let Some(last) = super::setup_memory::recall::<MatchOptions>(&dir)
    {
        state.options = last.options;
        // A layout that no longer passes the rules (they changed) is left for the default.
        if last.layout.validate(&state.options.rules).is_ok() {
            state.layout = last.layout;
        }
    }
    // LAN games are two-player games, on the classic board or the big one.
    if state.lan_host {
        state.options.for_lan();
    }
    state.saved = storage::list_names(&dir.layouts());
    state.selected = None;
    state.warn.clear();
    // A LAN game's rules are the host's: not the player's default clock.
    if state.lan.is_none() && state.options.rules.move_seconds == Rules::default().move_seconds {
        state.options.rules.move_seconds = settings.clock_secs as u16;
    }
}

fn exit(mut scene: ResMut<BoardScene>) {
    *scene = BoardScene::default();
}

/// The player's half's (row, col) of a board point, if it is on the player's half.
fn own_rc(p: Point, o: &MatchOptions) -> Option<(u8, u8)> {
    let info = o.board().info(p);
    (info.half == Some(o.my_side())).then_some((info.row, info.col))
}

fn clicks(
    mut state: ResMut<SetupState>,
    mut clicks: MessageReader<BoardClick>,
    mut drags: MessageReader<BoardDrag>,
    lang: Res<Lang>,
) {
    if !state.editable() {
        clicks.clear();
        drags.clear();
        return;
    }
    for BoardClick(p) in clicks.read() {
        let Some(rc) = own_rc(*p, &state.options) else {
            continue;
        };
        match state.selected {
            None if state.layout.get(rc.0, rc.1).is_some() => state.selected = Some(rc),
            None => {}
            Some(a) => {
                state.try_swap(a, rc, *lang);
            }
        }
    }
    for d in drags.read() {
        if let (Some(a), Some(b)) = (own_rc(d.from, &state.options), own_rc(d.to, &state.options)) {
            state.try_swap(a, b, *lang);
        }
    }
}

#[allow(clippy::too_many_arguments)] // a Bevy system's parameters
fn actions(
    mut commands: Commands,
    mut state: ResMut<SetupState>,
    mut reader: MessageReader<SetupAction>,
    lang: Res<Lang>,
    dir: Res<DataDir>,
    mut nav: MessageWriter<Navigate>,
    mut lobby: MessageWriter<super::lobby::LobbyAction>,
    mut lan: MessageWriter<crate::lan::LanRequest>,
) {
    let lang = *lang;
    for action in reader.read() {
        let changes = !matches!(
            action,
            SetupAction::Save(_) | SetupAction::Delete(_) | SetupAction::Back
        );
        if changes && !state.editable() {
            continue;
        }
        match action {
            SetupAction::Default => {
                let l = DEFAULT_LAYOUT.parse().expect("default layout");
                state.set_layout(l, lang, lang.t("setup.default").to_owned());
            }
            SetupAction::Random => {
                let l = Layout::random(&state.options.rules, &mut rand::rng());
                state.set_layout(l, lang, lang.t("setup.random").to_owned());
            }
            SetupAction::Mirror => {
                let l = state.layout.mirrored();
                state.set_layout(l, lang, lang.t("setup.mirror").to_owned());
            }
            SetupAction::Classic(i) => {
                let all = classic_layouts();
                if let Some(l) = all.get(*i % all.len().max(1)) {
                    state.classic = *i % all.len();
                    let note = format!("{} {}", lang.t("setup.classic"), l.name);
                    state.set_layout(l.layout, lang, note);
                }
            }
            SetupAction::Save(name) => {
                state.message = Some(match save_layout(&dir, name, &state.layout) {
                    Ok(n) => {
                        state.saved = storage::list_names(&dir.layouts());
                        (
                            format!("{}{}{n}", lang.t("setup.saved"), lang.colon()),
                            false,
                        )
                    }
                    Err(e) => (e.message(lang), true),
                });
            }
            SetupAction::Load(name) => match load_layout(&dir, name) {
                Ok(l) => {
                    let note = format!("{}{}{}", lang.t("setup.loaded"), lang.colon(), l.name);
                    state.set_layout(l.layout, lang, note);
                }
                Err(e) => {
                    state.message = Some((e.message(lang), true));
                    // A damaged file was moved aside: it leaves the list.
                    state.saved = storage::list_names(&dir.layouts());
                }
            },
            SetupAction::Delete(name) => {
                if let Ok(path) = storage::named_file(&dir.layouts(), name) {
                    let _ = std::fs::remove_file(path);
                }
                state.saved = storage::list_names(&dir.layouts());
            }
            SetupAction::March => {
                if state.options.rules.mode != Mode::Flip
                    && let Err(e) = state.layout.validate(&state.options.rules)
                {
                    let reasons: Vec<String> = e.0.iter().map(|p| problem_text(p, lang)).collect();
                    state.message = Some((reasons.join(lang.t("punct.list")), true));
                    continue;
                }
                if state.lan_host {
                    if state.options.lan_playable() {
                        lobby.write(super::lobby::LobbyAction::StartHosting);
                    } else {
                        state.message = Some((lang.t("opt.big_no_flip").to_owned(), true));
                    }
                    continue;
                }
                let layout = state.layout;
                if let Some(l) = state.lan.as_mut() {
                    l.ready = true;
                    lan.write(crate::lan::LanRequest::Send(
                        junqi_net::peer::PeerCmd::Ready(layout),
                    ));
                    state.message = Some((lang.t("setup.lan.waiting").to_owned(), false));
                    continue;
                }
                match new_match(&state.options, &state.layout, &mut rand::rng()) {
                    Some(game_match) => {
                        let mut game = if state.options.table == Table::Four {
                            ActiveGame::table(game_match, state.options.levels)
                        } else {
                            ActiveGame::new(game_match, state.options.level)
                        };
                        game.undo_limit = state.options.undos;
                        let kept =
                            super::setup_memory::remember(&dir, &state.options, state.layout);
                        if let Err(e) = kept {
                            warn!("{e}");
                        }
                        commands.insert_resource(game);
                        nav.write(Navigate(Screen::Game));
                    }
                    None => state.message = Some((lang.t("setup.cannot_start").to_owned(), true)),
                }
            }
            SetupAction::Back => {
                if state.lan.is_some() {
                    // Leaving the LAN game's setup leaves the game.
                    lobby.write(super::lobby::LobbyAction::Cancel);
                    nav.write(Navigate(Screen::Lobby));
                } else {
                    nav.write(Navigate(Screen::Title));
                }
            }
        }
    }
}

fn show(
    state: Res<SetupState>,
    settings: Res<Settings>,
    form: Res<Form>,
    mut scene: ResMut<BoardScene>,
) {
    let board = state.options.board();
    let me = state.options.my_side();
    let four = state.options.table == Table::Four;
    let colour = match settings.my_colour {
        _ if four => Colour::of_seat(me),
        PieceColour::Red => Colour::Red,
        PieceColour::Blue => Colour::Blue,
    };
    let flip = state.options.rules.mode == Mode::Flip;
    let mut pieces = Vec::new();
    for row in 1..=6u8 {
        for col in 1..=5u8 {
            let p = board.point(me, row, col).expect("point");
            if flip {
                if board.kind(p) != junqi_game::PointKind::Camp {
                    pieces.push((
                        p,
                        Tile {
                            face: Face::FaceDown,
                            colour: Colour::Neutral,
                            marker: None,
                        },
                    ));
                    let q = board.point(Side::North, row, col).expect("point");
                    pieces.push((
                        q,
                        Tile {
                            face: Face::FaceDown,
                            colour: Colour::Neutral,
                            marker: None,
                        },
                    ));
                }
            } else if let Some(rank) = state.layout.get(row, col) {
                pieces.push((
                    p,
                    Tile {
                        face: Face::Rank(rank),
                        colour,
                        marker: None,
                    },
                ));
            }
        }
    }
    let big = board.sides().len() == 4;
    let new = BoardScene {
        active: true,
        bottom: Some(me),
        pieces,
        selected: state.selected.and_then(|(r, c)| board.point(me, r, c)),
        warn: state.warn.clone(),
        show_nicknames: settings.nicknames,
        dim_enemy_half: !flip,
        four: big,
        // On a phone held upright the big board's tiles are small: the player's own half, the
        // one being arranged, fills the width instead.
        focus_own_half: big && *form == Form::Portrait,
        // Two players on the big board: East and West stay empty.
        dim_halves: if big && !four {
            vec![Side::East, Side::West]
        } else {
            Vec::new()
        },
        ..default()
    };
    if *scene != new {
        *scene = new;
    }
}

#[allow(clippy::too_many_arguments)]
fn ui(
    mut contexts: EguiContexts,
    lang: Res<Lang>,
    form: Res<Form>,
    mut state: ResMut<SetupState>,
    mut tab: ResMut<SetupTab>,
    mut actions: MessageWriter<SetupAction>,
    mut nav: MessageWriter<Navigate>,
    mut area: ResMut<BoardArea>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let out = setup_panels(ctx, &mut state, *lang, *form, &mut tab);
    area.0 = Some(crate::form::board_area(out.board, ctx));
    actions.write_batch(out.actions);
    if let Some(to) = out.nav {
        nav.write(Navigate(to));
    }
    Ok(())
}
