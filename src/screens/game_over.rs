//! The result of the last game: who won and why, the final board with both armies (where the
//! record is known: a LAN game once the audit has opened both setups), where the record was
//! saved, what next.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use junqi_game::{GameResult, Side};

use crate::model::{LanGame, LastGame, NotSaved};

use super::{Navigate, Screen, replay::ReplayState, review::ReviewState};
use crate::{
    board::{BoardArea, BoardScene},
    form::Form,
    game_match::{Match, reason_key},
    i18n::Lang,
    settings::Settings,
    theme,
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, show_board.run_if(in_state(Screen::GameOver)))
        .add_systems(OnExit(Screen::GameOver), |mut s: ResMut<BoardScene>| {
            *s = BoardScene::default()
        });
    super::add_ui(app, Screen::GameOver, ui);
}

/// The final position with every piece face up, from the saved record.
fn show_board(
    last: Option<Res<LastGame>>,
    settings: Res<Settings>,
    mut scene: ResMut<BoardScene>,
    mut shown: Local<Option<u64>>,
) {
    let Some(last) = last else { return };
    let Some(saved) = &last.game else {
        *scene = BoardScene::default();
        return;
    };
    // Rebuilt once a record (and when the settings change the colours).
    if *shown == Some(saved.started) && !settings.is_changed() && scene.active {
        return;
    }
    *shown = Some(saved.started);
    if let Ok(s) = Match::from_saved(saved, None) {
        *scene = super::game::scene_of(&s, &settings, true);
    }
}

#[allow(clippy::too_many_arguments)]
fn ui(
    mut contexts: EguiContexts,
    lang: Res<Lang>,
    last: Option<Res<LastGame>>,
    mut replay: ResMut<ReplayState>,
    mut review: ResMut<ReviewState>,
    mut nav: MessageWriter<Navigate>,
    mut area: ResMut<BoardArea>,
    form: Res<Form>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let lang = *lang;
    let mut root = theme::root_ui(ctx);
    // With a board to show, the result goes to a side panel (in portrait below the board) and
    // the board takes the rest.
    let board = last.as_ref().is_some_and(|l| l.game.is_some());
    let portrait = *form == Form::Portrait && board;
    let panel = if portrait {
        egui::Panel::bottom("over_panel").resizable(false)
    } else if board {
        egui::Panel::right("over_panel")
            .exact_size(400.0)
            .resizable(false)
    } else {
        egui::Panel::right("over_panel")
            .exact_size(root.available_width())
            .resizable(false)
    };
    // In portrait the buttons share a row.
    let button = |ui: &mut egui::Ui, text: &str| {
        if portrait {
            ui.add_sized(
                [128.0, 44.0],
                egui::Button::new(egui::RichText::new(text).size(19.0)),
            )
        } else {
            theme::menu_button(ui, text)
        }
    };
    panel
        .frame(
            egui::Frame::new()
                .fill(theme::palette::SCREEN)
                .inner_margin(12),
        )
        .show(&mut root, |ui| {
            ui.vertical_centered(|ui| {
                if !portrait {
                    ui.add_space(ui.available_height() * if board { 0.06 } else { 0.15 });
                }
                let Some(last) = last else {
                    theme::heading(ui, lang.t("over.title"));
                    if theme::menu_button(ui, lang.t("menu.main")).clicked() {
                        nav.write(Navigate(Screen::Title));
                    }
                    return;
                };
                let (title, colour) = match last.result {
                    Some(GameResult::Win { .. }) if last.won() => {
                        (lang.t("over.win"), egui::Color32::from_rgb(250, 210, 80))
                    }
                    Some(GameResult::Win { .. }) => {
                        (lang.t("over.loss"), egui::Color32::from_rgb(200, 200, 210))
                    }
                    _ => (lang.t("over.draw"), egui::Color32::from_rgb(200, 220, 255)),
                };
                ui.label(
                    egui::RichText::new(title)
                        .size(if portrait { 48.0 } else { 72.0 })
                        .family(egui::FontFamily::Name("bold".into()))
                        .color(colour),
                );
                if last.four {
                    ui.label(
                        egui::RichText::new(lang.t(if last.won() {
                            "over.team_win"
                        } else {
                            "over.team_loss"
                        }))
                        .size(22.0),
                    );
                }
                if let Some(r) = &last.result {
                    // The reason stands alone here: a capital, though the table's text is a
                    // fragment also used inside sentences.
                    let why = lang.t(reason_key(r));
                    let mut chars = why.chars();
                    let why: String = chars
                        .next()
                        .map(|c| c.to_uppercase().chain(chars).collect())
                        .unwrap_or_default();
                    ui.label(egui::RichText::new(why).size(26.0));
                }
                // "积分 +0" says why: takebacks, a quick win or a draw score nothing.
                let why = last.unscored_key().map(|k| lang.t(k)).unwrap_or_default();
                ui.label(format!("{} {:+}{why}", lang.t("over.score"), last.score));
                ui.label(lang.tr("game.move", &[("n", last.plies.into())]));
                if let Some(lan) = &last.lan {
                    verdict_ui(ui, lan, last.me, lang);
                }
                match (&last.saved, &last.game) {
                    // The file's name (the records folder is in the README and the replay list).
                    (Ok(path), _) => {
                        let name = path
                            .file_name()
                            .map(|n| n.to_string_lossy())
                            .unwrap_or_default();
                        ui.weak(format!("{}{}{name}", lang.t("over.saved"), lang.colon()));
                    }
                    (Err(NotSaved::AwaitingAudit), _) => {}
                    (Err(NotSaved::Store(e)), _) => {
                        ui.colored_label(theme::palette::WARN, e.message(lang));
                    }
                };
                ui.add_space(if portrait { 8.0 } else { 24.0 });
                let mut buttons = |ui: &mut egui::Ui| {
                    if button(ui, lang.t("over.again")).clicked() {
                        // Another LAN game starts from the lobby, another computer game from
                        // setup.
                        nav.write(Navigate(if last.lan.is_some() {
                            Screen::Lobby
                        } else {
                            Screen::Setup
                        }));
                    }
                    if let Some(rec) = &last.game
                        && button(ui, lang.t("over.replay")).clicked()
                    {
                        replay.open(rec.clone());
                        nav.write(Navigate(Screen::Replay));
                    }
                    if let Some(rec) = &last.game
                        && rec.result.is_some()
                        && button(ui, lang.t("over.review")).clicked()
                    {
                        review.open(rec.clone(), Screen::GameOver);
                        nav.write(Navigate(Screen::Review));
                    }
                    if button(ui, lang.t("menu.main")).clicked() {
                        nav.write(Navigate(Screen::Title));
                    }
                };
                if portrait {
                    ui.horizontal_wrapped(buttons);
                } else {
                    buttons(ui);
                }
            });
        });
    area.0 = Some(crate::form::board_area(
        root.available_rect_before_wrap(),
        ctx,
    ));
    Ok(())
}

/// The LAN audit's verdict: clean, or who cheated, why and where the evidence is.
fn verdict_ui(ui: &mut egui::Ui, lan: &LanGame, me: Side, lang: Lang) {
    ui.add_space(12.0);
    if let Some(t) = &lan.table {
        return super::seat_table::verdict_ui(ui, t, me, lang);
    }
    match &lan.verdict {
        None => {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label(lang.t("lan.auditing"));
            });
        }
        Some(v) if v.is_clean() => {
            ui.label(
                egui::RichText::new(lang.t("lan.clean"))
                    .size(24.0)
                    .color(theme::palette::OK),
            );
        }
        Some(v) => {
            let who = match v.cheater {
                Some(s) if s == me => lang.t("game.you"),
                _ => lang.t("game.enemy"),
            };
            ui.label(
                egui::RichText::new(format!("{}{}{who}", lang.t("lan.cheat"), lang.colon()))
                    .size(24.0)
                    .color(egui::Color32::from_rgb(230, 90, 70)),
            );
            if let Some(reason) = &v.reason {
                let (kind, detail) = crate::lan_text::fault_text(reason, lang);
                ui.label(egui::RichText::new(kind).size(20.0));
                if let Some(d) = detail {
                    ui.weak(format!("{}{}{d}", lang.t("lan.detail"), lang.colon()));
                }
            }
            if let Some(e) = v.evidence {
                ui.weak(format!("{}{}{e}", lang.t("lan.evidence"), lang.colon()));
            }
        }
    }
}
