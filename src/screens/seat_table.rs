//! A four-seat LAN table on the game and result screens: who plays each seat (the network
//! seats' names, the computer seats run by the host's device) with its connection in the HUD's
//! seat table, the pairing code and this device's link in the banner, and the table's verdict
//! on the result screen.

use bevy_egui::egui;
use junqi_game::Side;

use crate::{
    i18n::Lang,
    model::{LanGame, LanTable},
    table_text::{ending_text, link_text, seat_who},
    theme,
};

/// The seat table's "who" cell: the name, then the connection where this device knows it.
pub fn who_ui(ui: &mut egui::Ui, t: &LanTable, side: Side, lang: Lang) {
    let info = &t.seats[side.index()];
    ui.horizontal(|ui| {
        ui.label(seat_who(info, lang));
        if let Some(text) = link_text(info, lang) {
            let colour = if info.link == Some(false) {
                theme::palette::WARN
            } else {
                theme::palette::OK
            };
            ui.colored_label(colour, egui::RichText::new(text).size(13.0));
        }
    });
}

/// The banner above the board: the pairing code, a warning while this device's link to the
/// table is down, and how the table ended when it ended without a result.
pub fn banner(ui: &mut egui::Ui, l: &LanGame, t: &LanTable, me: Side, lang: Lang) {
    ui.horizontal_wrapped(|ui| {
        ui.label(egui::RichText::new(lang.t("lobby.code")).strong());
        ui.label(
            egui::RichText::new(&l.code)
                .size(20.0)
                .strong()
                .color(egui::Color32::from_rgb(250, 210, 80)),
        );
    });
    let down = if t.host { false } else { !l.connected };
    if down {
        ui.colored_label(
            egui::Color32::from_rgb(230, 90, 70),
            egui::RichText::new(lang.t("lan.dropped")).strong(),
        );
    }
    // A table over without a result (a seat left, the table broke off) stays on the board.
    if let Some(v) = &t.verdict
        && v.result.is_none()
    {
        ui.colored_label(
            theme::palette::WARN,
            egui::RichText::new(ending_text(v, me, lang)).strong(),
        );
    }
}

/// The result screen's line on the table's end: the audit (clean, or the seat blamed), or why
/// there is no result.
pub fn verdict_ui(ui: &mut egui::Ui, t: &LanTable, me: Side, lang: Lang) {
    match &t.verdict {
        None => {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label(lang.t("lan.auditing"));
            });
        }
        Some(v) => {
            let clean = v.blame.is_none() && v.record.is_some();
            let colour = if clean {
                theme::palette::OK
            } else {
                egui::Color32::from_rgb(230, 90, 70)
            };
            ui.label(
                egui::RichText::new(ending_text(v, me, lang))
                    .size(24.0)
                    .color(colour),
            );
        }
    }
}
