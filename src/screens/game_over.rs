//! The result of the last game: who won and why, where the record was saved, what next.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use junqi_game::{GameResult, Side};

use super::{
    Navigate, Screen,
    game::{LanGame, LastGame},
    replay::ReplayState,
};
use crate::{i18n::Lang, session::reason_key, theme};

pub(super) fn plugin(app: &mut App) {
    super::add_ui(app, Screen::GameOver, ui);
}

fn ui(
    mut contexts: EguiContexts,
    lang: Res<Lang>,
    last: Option<Res<LastGame>>,
    mut replay: ResMut<ReplayState>,
    mut nav: MessageWriter<Navigate>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let lang = *lang;
    let mut root = theme::root_ui(ctx);
    egui::CentralPanel::default()
        .frame(egui::Frame::new().fill(theme::palette::SCREEN))
        .show(&mut root, |ui| {
            ui.vertical_centered(|ui| {
                ui.add_space(ui.available_height() * 0.15);
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
                        .size(72.0)
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
                    ui.label(egui::RichText::new(lang.t(reason_key(r))).size(26.0));
                }
                ui.label(format!("{} {:+}", lang.t("over.score"), last.score));
                ui.label(lang.t("game.move").replace("{}", &last.plies.to_string()));
                if let Some(lan) = &last.lan {
                    verdict_ui(ui, lan, last.me, lang);
                }
                match (&last.saved, &last.game) {
                    (Ok(path), _) => {
                        ui.weak(format!("{}：{}", lang.t("over.saved"), path.display()));
                    }
                    (Err(_), None) => {}
                    (Err(e), Some(_)) => {
                        ui.colored_label(theme::palette::WARN, e);
                    }
                };
                ui.add_space(24.0);
                if theme::menu_button(ui, lang.t("over.again")).clicked() {
                    // Another LAN game starts from the lobby, another computer game from setup.
                    nav.write(Navigate(if last.lan.is_some() {
                        Screen::Lobby
                    } else {
                        Screen::Setup
                    }));
                }
                if let Some(rec) = &last.game
                    && theme::menu_button(ui, lang.t("over.replay")).clicked()
                {
                    replay.open(rec.clone());
                    nav.write(Navigate(Screen::Replay));
                }
                if theme::menu_button(ui, lang.t("menu.main")).clicked() {
                    nav.write(Navigate(Screen::Title));
                }
            });
        });
    Ok(())
}

/// The LAN audit's verdict: clean, or who cheated, why and where the evidence is.
fn verdict_ui(ui: &mut egui::Ui, lan: &LanGame, me: Side, lang: Lang) {
    ui.add_space(12.0);
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
                egui::RichText::new(format!("{}：{who}", lang.t("lan.cheat")))
                    .size(24.0)
                    .color(egui::Color32::from_rgb(230, 90, 70)),
            );
            if let Some(reason) = &v.reason {
                let (kind, detail) = crate::lan_text::fault_text(reason, lang);
                ui.label(egui::RichText::new(kind).size(20.0));
                if let Some(d) = detail {
                    ui.weak(format!("{}：{d}", lang.t("lan.detail")));
                }
            }
            if !v.evidence.is_empty() {
                ui.weak(format!("{}：{}", lang.t("lan.evidence"), v.evidence));
            }
        }
    }
}
