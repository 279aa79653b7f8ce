//! The settings screen: language, board colours, piece colour, default clock, sound, the
//! version.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::{Navigate, Screen};
use crate::{
    i18n::Lang,
    settings::{BoardTheme, PieceColour, SaveSettings, Settings, SettingsStatus},
    theme, version,
};

pub(super) fn plugin(app: &mut App) {
    super::add_ui(app, Screen::Settings, ui);
}

fn ui(
    mut contexts: EguiContexts,
    lang: Res<Lang>,
    mut settings: ResMut<Settings>,
    status: Res<SettingsStatus>,
    mut nav: MessageWriter<Navigate>,
    mut save: MessageWriter<SaveSettings>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut edited = settings.clone();
    let back = settings_page(ctx, &mut edited, &status, *lang);
    if edited != *settings {
        *settings = edited;
        save.write(SaveSettings);
    }
    if back {
        nav.write(Navigate(Screen::Title));
    }
    Ok(())
}

/// Lays out the settings page (also used by the layout tests), editing `edited` in place;
/// returns whether 返回 was pressed.
pub fn settings_page(
    ctx: &egui::Context,
    edited: &mut Settings,
    status: &SettingsStatus,
    lang: Lang,
) -> bool {
    theme::page(ctx, lang.t("menu.back"), lang.t("settings.title"), |ui| {
        egui::Grid::new("settings_grid")
            .num_columns(2)
            .spacing([24.0, 14.0])
            .show(ui, |ui| {
                ui.label(lang.t("settings.language"));
                ui.horizontal(|ui| {
                    ui.selectable_value(&mut edited.lang, Lang::Zh, "中文");
                    ui.selectable_value(&mut edited.lang, Lang::En, "English");
                });
                ui.end_row();

                ui.label(lang.t("settings.board_colours"));
                // Wrapped: four colour schemes do not fit a phone's width on one line.
                ui.horizontal_wrapped(|ui| {
                    for t in BoardTheme::ALL {
                        let (_, board, _) = t.colours();
                        let swatch = egui::RichText::new("■ ")
                            .color(egui::Color32::from_rgb(board[0], board[1], board[2]));
                        ui.label(swatch);
                        ui.selectable_value(&mut edited.theme, t, lang.t(t.key()));
                    }
                });
                ui.end_row();

                ui.label(lang.t("settings.my_colour"));
                ui.horizontal(|ui| {
                    ui.selectable_value(
                        &mut edited.my_colour,
                        PieceColour::Red,
                        lang.t("settings.red"),
                    );
                    ui.selectable_value(
                        &mut edited.my_colour,
                        PieceColour::Blue,
                        lang.t("settings.blue"),
                    );
                });
                ui.end_row();

                ui.label(lang.t("settings.default_clock"));
                ui.add(egui::Slider::new(&mut edited.clock_secs, 10..=300).step_by(5.0));
                ui.end_row();

                ui.label(lang.t("opt.nicknames"));
                ui.checkbox(&mut edited.nicknames, "");
                ui.end_row();

                ui.label(lang.t("opt.coordinates"));
                ui.checkbox(&mut edited.coordinates, "");
                ui.end_row();

                ui.label(lang.t("settings.sound"));
                ui.checkbox(&mut edited.sound, "");
                ui.end_row();

                ui.label(lang.t("settings.animations"));
                ui.checkbox(&mut edited.animations, "");
                ui.end_row();

                ui.label(lang.t("settings.about"));
                ui.label(format!("{} {}", lang.t("app.title"), version::VERSION));
                ui.end_row();
            });
        ui.add_space(12.0);
        for (text, good) in status_lines(status, lang) {
            let colour = if good {
                theme::palette::OK
            } else {
                theme::palette::WARN
            };
            ui.colored_label(colour, text);
        }
    })
}

/// The settings file's notices in `lang`, each with whether it is good news: a damaged file
/// found at start (a warning), the last save (done, or a warning).
pub fn status_lines(status: &SettingsStatus, lang: Lang) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    if let Some(e) = &status.loaded {
        out.push((e.notice("err.settings_damaged", lang), false));
    }
    match &status.saved {
        Some(Ok(())) => out.push((lang.t("settings.saved").to_owned(), true)),
        Some(Err(e)) => out.push((e.message(lang), false)),
        None => {}
    }
    out
}
