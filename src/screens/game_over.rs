//! The result of the last game: who won and why, where the record was saved, what next.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use junqi_game::GameResult;

use super::{Navigate, Screen, game::LastGame, replay::ReplayState};
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
        .frame(egui::Frame::new().fill(egui::Color32::from_rgb(48, 36, 28)))
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
                let rec = &last.game;
                let (title, colour) = match rec.result {
                    Some(GameResult::Win { winner, .. }) if winner == rec.me => {
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
                if let Some(r) = &rec.result {
                    ui.label(egui::RichText::new(lang.t(reason_key(r))).size(26.0));
                }
                let plies = rec.record.actions.len();
                ui.label(lang.t("game.move").replace("{}", &plies.to_string()));
                match &last.saved {
                    Ok(path) => ui.weak(format!("{}：{}", lang.t("over.saved"), path.display())),
                    Err(e) => ui.colored_label(theme::palette::WARN, e),
                };
                ui.add_space(24.0);
                if theme::menu_button(ui, lang.t("over.again")).clicked() {
                    nav.write(Navigate(Screen::Setup));
                }
                if theme::menu_button(ui, lang.t("over.replay")).clicked() {
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
