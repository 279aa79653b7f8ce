//! The game screen's panels: in a wide window a panel beside the board and a bar above it; in
//! portrait (a phone held upright) a bar above the board with the turn and the clock, and below
//! it the notices, the actions and tabs (move log, removed pieces, the table). Drawn by [`hud`]
//! from the game alone, so that a test can lay it out at any size without a window.

use bevy::prelude::Message;
use bevy_egui::egui;
use junqi_game::ai::inference::Inference;
use junqi_game::{Mode, PlayerView, Rank, Side};

use super::Screen;
use crate::model::{ActiveGame, LanGame, Opponent};
use crate::{
    ai,
    form::Form,
    game_match::{LogEntry, log_text, person, seat_key},
    game_text::rank_short,
    i18n::Lang,
    theme,
};

/// What the game screen's panels asked for this frame.
pub type HudOut = super::PanelsOut<GameAction>;

/// The portrait layout's tabs below the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum HudTab {
    /// 棋谱: the move log.
    #[default]
    Log,
    /// 吃子: removed pieces.
    Removed,
    /// 局势: move count, timeouts or the seats, and the inference board.
    Table,
}

/// Lays out the panels for `form`; the board gets what is left. `zoomed`: the four-player board
/// is zoomed in (the portrait layout's 放大 button shows it pressed).
pub fn hud(
    ctx: &egui::Context,
    g: &ActiveGame,
    lang: Lang,
    form: Form,
    tab: &mut HudTab,
    zoomed: bool,
) -> HudOut {
    let mut out = HudOut::default();
    let mut root = theme::root_ui(ctx);
    match form {
        Form::Wide => wide(&mut root, g, lang, &mut out),
        Form::Portrait => portrait(&mut root, g, lang, tab, zoomed, &mut out),
    }
    out.board = root.available_rect_before_wrap();
    out
}

fn wide(root: &mut egui::Ui, g: &ActiveGame, lang: Lang, out: &mut HudOut) {
    let s = &g.game_match;
    egui::Panel::right("game_panel")
        .exact_size(340.0)
        .resizable(false)
        .frame(theme::panel(12))
        .show(root, |ui| {
            header(ui, g, lang);
            if let Some(l) = g.lan_state() {
                lan_banner(ui, l, s.me(), lang);
            }
            turn(ui, g, lang);
            clock(ui, g, lang, 310.0);
            counts(ui, g, lang);
            buttons(ui, g, lang, None, out);
            theme::message_slot(ui, "game_messages", 3.0, |ui| {
                confirm_resign(ui, g, lang, out);
                notices(ui, g, lang, out);
            });
            if g.marking.is_some() {
                ui.separator();
                markers(ui, lang, out);
            }
            if let Some((_, inf)) = &g.inference {
                inference_ui(ui, g, inf, lang);
            }
            ui.separator();
            removed(ui, g, lang);
            ui.separator();
            ui.label(egui::RichText::new(lang.t("game.log")).strong());
            log_view(ui, &s.log, &s.view, lang, f32::INFINITY);
        });
    egui::Panel::top("game_top")
        .frame(theme::panel(6))
        .show(root, |ui| leave_bar(ui, g, lang, out));
}

fn portrait(
    root: &mut egui::Ui,
    g: &ActiveGame,
    lang: Lang,
    tab: &mut HudTab,
    zoomed: bool,
    out: &mut HudOut,
) {
    let s = &g.game_match;
    let height = root.available_height();
    egui::Panel::top("game_top")
        .frame(theme::panel(6))
        .show(root, |ui| {
            if g.confirm_leave && s.result().is_none() {
                leave_bar(ui, g, lang, out);
            } else {
                ui.horizontal(|ui| {
                    leave_bar(ui, g, lang, out);
                    turn(ui, g, lang);
                    clock(ui, g, lang, ui.available_width());
                });
            }
            if let Some(l) = g.lan_state() {
                lan_banner(ui, l, s.me(), lang);
            }
        });
    egui::Panel::bottom("game_bottom")
        .frame(theme::panel(6))
        .show(root, |ui| {
            // Messages in a place of their own height: the board and the buttons stay put.
            theme::message_slot(ui, "game_messages", 2.0, |ui| {
                confirm_resign(ui, g, lang, out);
                notices(ui, g, lang, out);
            });
            // On a phone the four-player board's points are about 25 dp apart: 放大.
            let zoom = (s.view.board().sides().len() == 4).then_some(zoomed);
            buttons(ui, g, lang, zoom, out);
            if out.actions.contains(&GameAction::Inference) && g.inference.is_none() {
                *tab = HudTab::Table;
            }
            ui.horizontal(|ui| {
                for (t, key) in [
                    (HudTab::Log, "game.log"),
                    (HudTab::Removed, "game.captured"),
                    (HudTab::Table, "game.table"),
                ] {
                    if ui.selectable_label(*tab == t, lang.t(key)).clicked() {
                        *tab = t;
                    }
                }
            });
            // A fixed height whatever it shows, so that the board does not jump: the marker
            // menu while an enemy piece is being marked, else the tab.
            let w = ui.available_width();
            // The four-player board is square: below it there is room for more lines.
            let h = if s.view.board().sides().len() == 4 {
                (height - w - 230.0).max(height * 0.14).max(110.0)
            } else {
                (height * 0.14).max(110.0)
            };
            ui.allocate_ui_with_layout(
                egui::vec2(w, h),
                egui::Layout::top_down(egui::Align::Min),
                |ui| {
                    ui.set_min_size(egui::vec2(w, h));
                    if g.marking.is_some() {
                        // The odds of the piece being marked, which the desktop panel shows
                        // beside the board, sit above the markers here.
                        if let Some(line) = g
                            .inference
                            .as_ref()
                            .and_then(|(_, inf)| picked_odds(g, inf, lang))
                        {
                            ui.label(format!(
                                "{}{}{line}",
                                lang.t("game.inference"),
                                lang.colon()
                            ));
                        }
                        markers(ui, lang, out);
                        return;
                    }
                    match tab {
                        HudTab::Log => log_view(ui, &s.log, &s.view, lang, h),
                        HudTab::Removed => {
                            egui::ScrollArea::vertical()
                                .max_height(h)
                                .show(ui, |ui| removed(ui, g, lang));
                        }
                        HudTab::Table => {
                            egui::ScrollArea::vertical().max_height(h).show(ui, |ui| {
                                header(ui, g, lang);
                                counts(ui, g, lang);
                                if let Some((_, inf)) = &g.inference {
                                    inference_ui(ui, g, inf, lang);
                                }
                            });
                        }
                    }
                },
            );
        });
}

/// The bar above the board: back to the main menu, asking first while the game runs.
fn leave_bar(ui: &mut egui::Ui, g: &ActiveGame, lang: Lang, out: &mut HudOut) {
    ui.horizontal_wrapped(|ui| {
        let running = g.game_match.result().is_none();
        if g.confirm_leave && running {
            // A running game is left only on a second, explicit choice.
            ui.colored_label(
                egui::Color32::from_rgb(240, 170, 80),
                lang.t(if g.game_match.is_remote() {
                    "game.leave_lan"
                } else {
                    "game.leave_local"
                }),
            );
            if ui.button(lang.t("game.leave_yes")).clicked() {
                out.nav = Some(Screen::Title);
            }
            if ui.button(lang.t("game.resign_no")).clicked() {
                out.actions.push(GameAction::AskLeave(false));
            }
        } else if ui.button(format!("◀ {}", lang.t("menu.main"))).clicked() {
            if running {
                out.actions.push(GameAction::AskLeave(true));
            } else {
                out.nav = Some(Screen::Title);
            }
        }
    });
}

/// 对局 and the way it is played, against whom.
fn header(ui: &mut egui::Ui, g: &ActiveGame, lang: Lang) {
    let s = &g.game_match;
    let mode = if s.view.is_team_game() {
        crate::game_text::way_key(s.rules())
    } else {
        match s.rules().mode {
            Mode::Dark => "opt.mode.dark",
            Mode::Open => "opt.mode.open",
            Mode::Flip => "opt.mode.flip",
        }
    };
    let who = match &g.opponent {
        Opponent::Ai { level } => level_name(*level, lang).to_owned(),
        // A LAN table names its players in the seat table.
        Opponent::Lan(l) if l.table.is_some() => lang.t("four.title").to_owned(),
        Opponent::Lan(l) => format!("{} {}", lang.t("lan.vs"), l.peer),
        Opponent::Table { .. } => lang.t("four.title").to_owned(),
    };
    // Two players on the big board say so: the board alone does not tell a LAN guest.
    let board = if s.rules().four_player_board && !s.view.is_team_game() {
        format!("{} · ", lang.t("opt.table.two_big"))
    } else {
        String::new()
    };
    ui.horizontal_wrapped(|ui| {
        theme::heading(ui, lang.t("game.title"));
        ui.label(format!("{board}{} · {who}", lang.t(mode)));
    });
}

/// Whose turn it is, large, in green when it is the player's.
fn turn(ui: &mut egui::Ui, g: &ActiveGame, lang: Lang) {
    let s = &g.game_match;
    let mine = s.my_turn();
    let moving;
    let text = if s.result().is_some() {
        lang.t("over.title")
    } else if mine {
        lang.t("game.your_turn")
    } else if s.is_remote() {
        lang.t("lan.peer_turn")
    } else if s.view.is_team_game() {
        let who = lang.t(seat_key(s.turn(), s.me(), true, s.rules().clockwise));
        moving = lang.tr(
            "seat.moving",
            &[("seat", person(s.turn(), s.me())), ("who", who.into())],
        );
        &moving
    } else {
        lang.t("game.ai_turn")
    };
    ui.label(
        egui::RichText::new(text)
            .size(22.0)
            .strong()
            .color(if mine {
                theme::palette::OK
            } else {
                theme::palette::HEADING
            }),
    );
}

/// The move clock as a bar, red in its last ten seconds.
fn clock(ui: &mut egui::Ui, g: &ActiveGame, lang: Lang, width: f32) {
    let s = &g.game_match;
    let total = s.rules().move_seconds.max(1) as f32;
    let left = s.clock.max(0.0);
    ui.add(
        egui::ProgressBar::new(left / total)
            .desired_width(width)
            .fill(if left < 10.0 {
                egui::Color32::from_rgb(200, 60, 40)
            } else {
                egui::Color32::from_rgb(60, 140, 70)
            })
            .text(format!("{} {:.0} s", lang.t("game.clock"), left.ceil())),
    );
}

/// The move number and the timeouts (round a four-player table, the seats).
fn counts(ui: &mut egui::Ui, g: &ActiveGame, lang: Lang) {
    let s = &g.game_match;
    let me = s.me();
    let max = s.rules().max_timeouts;
    ui.label(lang.tr("game.move", &[("n", s.plies().into())]));
    if s.view.is_team_game() {
        seats_table(ui, g, lang);
    } else {
        ui.label(format!(
            "{}{}{} {}/{max} · {} {}/{max}",
            lang.t("game.timeouts"),
            lang.colon(),
            lang.t("game.you"),
            s.view.timeouts(me),
            lang.t("game.enemy"),
            s.view.timeouts(me.opponent()),
        ));
    }
}

fn confirm_resign(ui: &mut egui::Ui, g: &ActiveGame, lang: Lang, out: &mut HudOut) {
    if !g.confirm_resign {
        return;
    }
    ui.colored_label(
        egui::Color32::from_rgb(240, 170, 80),
        lang.t("game.resign_confirm"),
    );
    ui.horizontal(|ui| {
        if ui.button(lang.t("game.resign_yes")).clicked() {
            out.actions.push(GameAction::Resign);
        }
        if ui.button(lang.t("game.resign_no")).clicked() {
            out.actions.push(GameAction::CancelResign);
        }
    });
}

/// 认输 求和 提示 推理 悔棋, and 放大 when `zoom` is given (pressed when zoomed in).
fn buttons(ui: &mut egui::Ui, g: &ActiveGame, lang: Lang, zoom: Option<bool>, out: &mut HudOut) {
    let s = &g.game_match;
    let mine = s.my_turn();
    // Wrapped: five buttons do not fit a panel's width in English.
    ui.horizontal_wrapped(|ui| {
        if ui.button(lang.t("game.resign")).clicked() {
            out.actions.push(GameAction::AskResign);
        }
        if ui.button(lang.t("game.draw")).clicked() {
            out.actions.push(GameAction::OfferDraw);
        }
        let hint = ui.add_enabled(
            mine && !g.hint_pending,
            egui::Button::new(lang.t("game.hint")),
        );
        if hint.clicked() {
            out.actions.push(GameAction::Hint);
        }
        // A button like its neighbours, shown pressed while the board is on; none in an open
        // game, where every piece is seen.
        if s.rules().mode != Mode::Open
            && ui
                .add_enabled(
                    s.rules().inference_applies(),
                    egui::Button::new(lang.t("game.inference")).selected(g.inference.is_some()),
                )
                .on_hover_text(lang.t("game.inference_tip"))
                .on_disabled_hover_text(lang.t("opt.no_inference"))
                .clicked()
        {
            out.actions.push(GameAction::Inference);
        }
        if !s.is_remote() {
            let left = u32::from(g.undo_limit).saturating_sub(s.undos);
            let undo = ui
                .add_enabled(
                    mine && left > 0,
                    egui::Button::new(format!("{} {left}", lang.t("game.undo"))),
                )
                .on_hover_text(lang.t("game.undo_tip"));
            if undo.clicked() {
                out.actions.push(GameAction::Undo);
            }
        }
        if let Some(on) = zoom
            && ui
                .add(egui::Button::new(lang.t("game.zoom")).selected(on))
                .on_hover_text(lang.t("game.zoom_tip"))
                .clicked()
        {
            out.actions.push(GameAction::Zoom);
        }
    });
}

/// The hint, the last refusal and the peer's draw offer.
fn notices(ui: &mut egui::Ui, g: &ActiveGame, lang: Lang, out: &mut HudOut) {
    if let Some(h) = &g.hint {
        ui.colored_label(
            egui::Color32::from_rgb(120, 220, 240),
            crate::game_text::hint_text(h, lang),
        );
    }
    if let Some(st) = &g.status {
        ui.colored_label(theme::palette::WARN, st);
    }
    let offer = match g.ai_offer {
        Some(seat) => {
            let me = g.game_match.me();
            let who = lang.t(seat_key(
                seat,
                me,
                g.game_match.view.is_team_game(),
                g.game_match.rules().clockwise,
            ));
            Some(lang.tr(
                "game.offer_from",
                &[("seat", person(seat, me)), ("who", who.into())],
            ))
        }
        None if g.lan_state().is_some_and(|l| l.draw_offered) => {
            match g.lan_state().and_then(|l| l.table.as_ref()?.draw_by) {
                // At a table: which seat offers it.
                Some(by) => {
                    let me = g.game_match.me();
                    let who = lang.t(seat_key(by, me, true, g.game_match.rules().clockwise));
                    Some(lang.tr(
                        "game.offer_from",
                        &[("seat", person(by, me)), ("who", who.into())],
                    ))
                }
                None => Some(lang.t("lan.draw_offer").to_owned()),
            }
        }
        None => None,
    };
    if let Some(offer) = offer {
        ui.horizontal_wrapped(|ui| {
            ui.colored_label(theme::palette::WARN, offer);
            if ui.button(lang.t("lan.accept")).clicked() {
                out.actions.push(GameAction::AnswerDraw(true));
            }
            if ui.button(lang.t("lan.decline")).clicked() {
                out.actions.push(GameAction::AnswerDraw(false));
            }
        });
    }
}

/// The marker menu for the enemy piece being marked.
fn markers(ui: &mut egui::Ui, lang: Lang, out: &mut HudOut) {
    ui.label(lang.t("game.marker"));
    ui.horizontal_wrapped(|ui| {
        for r in MARKERS {
            if ui.button(rank_short(r, lang)).clicked() {
                out.actions.push(GameAction::Mark(Some(r)));
            }
        }
        if ui.button(lang.t("game.marker.clear")).clicked() {
            out.actions.push(GameAction::Mark(None));
        }
    });
}

/// Removed pieces, a line an army.
fn removed(ui: &mut egui::Ui, g: &ActiveGame, lang: Lang) {
    let s = &g.game_match;
    let me = s.me();
    ui.label(egui::RichText::new(lang.t("game.captured")).strong());
    for side in seats_in_order(&s.view) {
        let names: Vec<String> = s
            .removed
            .iter()
            .filter(|(o, _)| *o == side)
            .map(|(_, r)| r.map(|r| rank_short(r, lang)).unwrap_or_else(|| "?".into()))
            .collect();
        ui.label(format!(
            "{}{}{}",
            lang.t(seat_key(
                side,
                me,
                s.view.is_team_game(),
                s.rules().clockwise
            )),
            lang.colon(),
            if names.is_empty() {
                "—".to_owned()
            } else {
                names.join(" ")
            }
        ));
    }
}

/// The move log (棋谱), newest at the bottom. Only the visible lines are laid out, one line
/// each: laying out the whole log every frame cost a software renderer about a sixth of its
/// frame rate at move 24, and more as a game goes on.
pub(crate) fn log_view(
    ui: &mut egui::Ui,
    log: &[LogEntry],
    view: &PlayerView,
    lang: Lang,
    max_height: f32,
) {
    let row = ui
        .ctx()
        .fonts_mut(|f| f.row_height(&egui::FontId::proportional(15.0)));
    egui::ScrollArea::vertical()
        .stick_to_bottom(true)
        .max_height(max_height)
        .auto_shrink([false, false])
        .show_rows(ui, row, log.len(), |ui, rows| {
            for e in &log[rows] {
                let mut text = egui::RichText::new(log_text(e, view, lang)).size(15.0);
                // Round a four-player table each line in its seat's colour.
                if view.is_team_game() {
                    let [r, g, b] = crate::board::Colour::of_seat(e.side()).rgb();
                    text = text.color(egui::Color32::from_rgb(r, g, b).gamma_multiply(1.7));
                }
                ui.add(egui::Label::new(text).truncate());
            }
        });
}

/// The LAN game's pairing code and connection state.
fn lan_banner(ui: &mut egui::Ui, l: &LanGame, me: Side, lang: Lang) {
    if let Some(t) = &l.table {
        return super::seat_table::banner(ui, l, t, me, lang);
    }
    ui.horizontal(|ui| {
        ui.label(egui::RichText::new(lang.t("lobby.code")).strong());
        ui.label(
            egui::RichText::new(&l.code)
                .size(22.0)
                .strong()
                .color(egui::Color32::from_rgb(250, 210, 80)),
        );
    });
    ui.weak(lang.t("lan.code_check"));
    if !l.connected {
        ui.colored_label(
            egui::Color32::from_rgb(230, 90, 70),
            egui::RichText::new(lang.t("lan.dropped")).strong(),
        );
    }
    if let Some((side, reason)) = &l.fault {
        let who = lang.t(if *side == me {
            "game.you"
        } else {
            "game.enemy"
        });
        let (kind, detail) = crate::lan_text::fault_text(reason, lang);
        ui.colored_label(
            egui::Color32::from_rgb(230, 90, 70),
            format!("{}{}{who} {kind}", lang.t("lan.fault"), lang.colon()),
        );
        if let Some(d) = detail {
            ui.weak(format!("{}{}{d}", lang.t("lan.detail"), lang.colon()));
        }
    }
}

/// The likeliest ranks of the enemy piece being marked, as "令 52% · 军 48%".
fn picked_odds(g: &ActiveGame, inf: &Inference, lang: Lang) -> Option<String> {
    let guess = inf.at(g.marking?)?;
    let parts: Vec<String> = guess
        .likely()
        .iter()
        .take(5)
        .map(|(r, p)| format!("{} {:.0}%", rank_short(*r, lang), p * 100.0))
        .collect();
    Some(parts.join(" · "))
}

/// 推理: for the enemy piece being marked, the ranks it may be, most likely first; for each
/// other army, how many of each rank it still has on the board.
fn inference_ui(ui: &mut egui::Ui, g: &ActiveGame, inf: &Inference, lang: Lang) {
    let s = &g.game_match;
    ui.separator();
    ui.label(egui::RichText::new(lang.t("game.inference")).strong());
    match picked_odds(g, inf, lang) {
        Some(line) => {
            ui.label(line);
        }
        None => {
            ui.weak(lang.t("game.inference_pick"));
        }
    }
    let (me, four, clockwise) = (s.me(), s.view.is_team_game(), s.rules().clockwise);
    for rem in &inf.remaining {
        let parts: Vec<String> = junqi_game::Rank::ALL
            .into_iter()
            .filter(|r| rem.alive[r.index()].1 > 0)
            .map(|r| {
                let (lo, hi) = rem.alive[r.index()];
                let n = if lo == hi {
                    lo.to_string()
                } else {
                    format!("{lo}-{hi}")
                };
                format!("{}{n}", rank_short(r, lang))
            })
            .collect();
        ui.label(
            egui::RichText::new(format!(
                "{}{}{}",
                lang.t(seat_key(rem.side, me, four, clockwise)),
                lang.colon(),
                parts.join(" ")
            ))
            .size(14.0),
        );
    }
}

/// Four-player games: one row a seat in turn order, the player first: its colour, how the
/// player calls it, who plays it, its timeouts, and whether it moves now or is out.
fn seats_table(ui: &mut egui::Ui, g: &ActiveGame, lang: Lang) {
    let s = &g.game_match;
    let me = s.me();
    let max = s.rules().max_timeouts;
    let lan_table = g.lan_state().is_some_and(|l| l.table.is_some());
    ui.weak(lang.t(if lan_table {
        "table.seat_header"
    } else {
        "seat.header"
    }));
    egui::Grid::new("seats")
        .num_columns(4)
        .spacing([10.0, 2.0])
        .show(ui, |ui| {
            for side in seats_in_order(&s.view) {
                let [r, gr, b] = crate::board::Colour::of_seat(side).rgb();
                let turn = s.result().is_none() && s.turn() == side;
                let name = lang.t(seat_key(side, me, true, s.rules().clockwise));
                ui.label(
                    egui::RichText::new(if turn {
                        format!("▶ {name}")
                    } else {
                        format!("■ {name}")
                    })
                    .strong()
                    .color(egui::Color32::from_rgb(r, gr, b).gamma_multiply(1.6)),
                );
                match g.lan_state().and_then(|l| l.table.as_deref()) {
                    // A LAN table: who plays the seat, and its connection where known.
                    Some(t) => super::seat_table::who_ui(ui, t, side, lang),
                    None => {
                        ui.label(match g.opponent.level(side) {
                            Some(level) if side != me => level_name(level, lang),
                            _ => "",
                        });
                    }
                }
                // Compact, so that the row fits the panel in both languages.
                ui.label(format!("{}/{max}", s.view.timeouts(side)))
                    .on_hover_text(lang.t("game.timeouts"));
                if s.view.is_in(side) {
                    ui.label("");
                } else {
                    ui.colored_label(theme::palette::WARN, lang.t("seat.out"));
                }
                ui.end_row();
            }
        });
}

fn level_name(level: u8, lang: Lang) -> &'static str {
    crate::game_text::level_name(ai::level(level), lang)
}

/// Marker choices: the short rank name shown on the enemy tile.
const MARKERS: [Rank; 12] = Rank::ALL;

/// What the game panel's buttons ask for.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameAction {
    /// The 认输 button: ask the player to confirm (a resignation cannot be taken back).
    AskResign,
    /// 悔棋: take back the player's last move and the computer's replies.
    Undo,
    /// Switch the inference board (推理) on or off.
    Inference,
    /// 主菜单 during a game: ask first (`true`), or the player thought better of it (`false`).
    AskLeave(bool),
    /// The player thought better of it.
    CancelResign,
    /// Resign, confirmed (refused in the first moves).
    Resign,
    /// Offer a draw; the computer answers at once.
    OfferDraw,
    /// Ask for a hint.
    Hint,
    /// Put a marker on the enemy piece being marked (`None` clears it).
    Mark(Option<Rank>),
    /// Answer the LAN peer's draw offer.
    AnswerDraw(bool),
    /// 放大 / 全图: zoom the four-player board in on a phone, or show it whole.
    Zoom,
}

/// The seats of the view's game, the player first, then in turn order.
pub fn seats_in_order(view: &PlayerView) -> Vec<Side> {
    let me = view.me();
    if !view.is_team_game() {
        return vec![me, me.opponent()];
    }
    let clockwise = view.rules().clockwise;
    let mut out = vec![me];
    while out.len() < 4 {
        let last = *out.last().expect("not empty");
        out.push(last.next(clockwise));
    }
    out
}
