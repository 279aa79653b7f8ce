//! The title screen and main menu.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::{Navigate, Screen};
use crate::{
    i18n::Lang,
    settings::{SaveSettings, Settings},
    suspend::{Resumable, ResumeGame},
    theme, version,
};

pub(super) fn plugin(app: &mut App) {
    super::add_ui(app, Screen::Title, ui);
}

#[allow(clippy::too_many_arguments)]
fn ui(
    mut contexts: EguiContexts,
    lang: Res<Lang>,
    mut settings: ResMut<Settings>,
    mut nav: MessageWriter<Navigate>,
    mut save: MessageWriter<SaveSettings>,
    mut exit: MessageWriter<AppExit>,
    resumable: Res<Resumable>,
    mut resume: MessageWriter<ResumeGame>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let lang = *lang;
    let mut root = theme::root_ui(ctx);
    egui::CentralPanel::default()
        .frame(egui::Frame::new().fill(theme::palette::SCREEN))
        .show(&mut root, |ui| {
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Min), |ui| {
                ui.add_space(12.0);
                if ui.button(lang.t("menu.language")).clicked() {
                    settings.lang = settings.lang.toggled();
                    save.write(SaveSettings);
                }
            });
            ui.vertical_centered(|ui| {
                ui.add_space((ui.available_height() * 0.12).max(8.0));
                ui.label(
                    egui::RichText::new("军 棋")
                        .family(egui::FontFamily::Name("bold".into()))
                        .size(96.0)
                        .color(theme::palette::HEADING),
                );
                ui.label(
                    egui::RichText::new(lang.t("app.subtitle"))
                        .size(22.0)
                        .color(egui::Color32::from_rgb(220, 200, 170)),
                );
                ui.add_space(32.0);
                // The game the app was closed (or sent away) in the middle of, first.
                if let Some(u) = &resumable.0 {
                    let moves = u.game.record.actions.len();
                    if theme::menu_button(ui, lang.t("menu.resume")).clicked() {
                        resume.write(ResumeGame);
                    }
                    ui.weak(
                        lang.t("menu.resume_detail")
                            .replace("{}", &moves.to_string()),
                    );
                }
                let items = [
                    ("menu.vs_ai", Some(Screen::Setup)),
                    ("menu.lan", Some(Screen::Lobby)),
                    ("menu.replay", Some(Screen::Replay)),
                    ("menu.profile", Some(Screen::Profile)),
                    ("menu.settings", Some(Screen::Settings)),
                    ("menu.rules", Some(Screen::Rules)),
                    ("menu.quit", None),
                ];
                for (key, target) in items {
                    if theme::menu_button(ui, lang.t(key)).clicked() {
                        match target {
                            Some(s) => {
                                nav.write(Navigate(s));
                            }
                            None => {
                                exit.write(AppExit::Success);
                            }
                        }
                    }
                }
            });
        });
    // The build's version, small in the bottom-left corner (a player reporting a problem can
    // quote it).
    egui::Area::new("title_version".into())
        .anchor(egui::Align2::LEFT_BOTTOM, [10.0, -8.0])
        .interactable(false)
        .show(ctx, |ui| {
            ui.label(
                egui::RichText::new(format!("v{}", version::VERSION))
                    .size(13.0)
                    .color(egui::Color32::from_rgb(150, 135, 115)),
            );
        });
    Ok(())
}
