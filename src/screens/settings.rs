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
        // One setting a row, its name beside it in a wide window, above it on a phone, where
        // the choices wrap (four colour schemes do not fit a phone's width on one line).
        let narrow = ui.available_width() < 640.0;
        let row = |ui: &mut egui::Ui, label: &str, add: &mut dyn FnMut(&mut egui::Ui)| {
            if narrow {
                ui.label(label);
                ui.horizontal_wrapped(|ui| add(ui));
            } else {
                ui.horizontal(|ui| {
                    ui.allocate_ui_with_layout(
                        egui::vec2(220.0, ui.spacing().interact_size.y),
                        egui::Layout::left_to_right(egui::Align::Center),
                        |ui| {
                            ui.set_min_width(220.0);
                            ui.label(label);
                        },
                    );
                    add(ui);
                });
            }
            ui.add_space(8.0);
        };
        row(ui, lang.t("settings.language"), &mut |ui| {
            ui.selectable_value(&mut edited.lang, Lang::Zh, "中文");
            ui.selectable_value(&mut edited.lang, Lang::En, "English");
        });
        row(ui, lang.t("settings.board_colours"), &mut |ui| {
            for t in BoardTheme::ALL {
                let (_, board, _) = t.colours();
                let swatch = egui::RichText::new("■ ")
                    .color(egui::Color32::from_rgb(board[0], board[1], board[2]));
                ui.label(swatch);
                ui.selectable_value(&mut edited.theme, t, lang.t(t.key()));
            }
        });
        row(ui, lang.t("settings.my_colour"), &mut |ui| {
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
        row(ui, lang.t("settings.default_clock"), &mut |ui| {
            ui.add(egui::Slider::new(&mut edited.clock_secs, 10..=300).step_by(5.0));
        });
        if narrow {
            // A switch with its name beside it, as a phone shows one.
            ui.checkbox(&mut edited.nicknames, lang.t("opt.nicknames"));
            ui.add_space(8.0);
        } else {
            row(ui, lang.t("opt.nicknames"), &mut |ui| {
                ui.checkbox(&mut edited.nicknames, "");
            });
        }
        if narrow {
            // A switch with its name beside it, as a phone shows one.
            ui.checkbox(&mut edited.coordinates, lang.t("opt.coordinates"));
            ui.add_space(8.0);
        } else {
            row(ui, lang.t("opt.coordinates"), &mut |ui| {
                ui.checkbox(&mut edited.coordinates, "");
            });
        }
        if narrow {
            // A switch with its name beside it, as a phone shows one.
            ui.checkbox(&mut edited.sound, lang.t("settings.sound"));
            ui.add_space(8.0);
        } else {
            row(ui, lang.t("settings.sound"), &mut |ui| {
                ui.checkbox(&mut edited.sound, "");
            });
        }
        if narrow {
            // A switch with its name beside it, as a phone shows one.
            ui.checkbox(&mut edited.animations, lang.t("settings.animations"));
            ui.add_space(8.0);
        } else {
            row(ui, lang.t("settings.animations"), &mut |ui| {
                ui.checkbox(&mut edited.animations, "");
            });
        }
        row(ui, lang.t("settings.about"), &mut |ui| {
            ui.label(format!("{} {}", lang.t("app.title"), version::VERSION));
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
