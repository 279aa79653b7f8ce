//! A four-seat LAN table on the game and result screens: who plays each seat (the network
//! seats' names, the computer seats and the device that runs each) with its connection in the HUD's
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

/// Characters of a player's name the seat table shows (the panel is narrow; the whole name is
/// on the pairing screen).
const NAME_CHARS: usize = 6;

/// The seat table's "who" cell: the name (shortened to fit the panel), then the connection
/// where this device knows it: a link down is marked ○ and coloured (the word on hover).
pub fn who_ui(ui: &mut egui::Ui, t: &LanTable, side: Side, lang: Lang) {
    let info = t.seat(side);
    let who = seat_who(junqi_net::four::FourSeat::of_side(side), info, lang);
    // A computer seat by its level, as round a table against the computer; a seat handed over
    // as the computer (the hover says whose device runs it).
    let who_short = match info.computer() {
        _ if info.handed_over => lang.t("table.computer").to_owned(),
        Some(level) => crate::game_text::level_name(crate::ai::level(level), lang).to_owned(),
        None => who.clone(),
    };
    // The app's default names all start with "junqi-": what follows tells players apart.
    let who_short = match who_short.strip_prefix(crate::lan::DEFAULT_NAME_PREFIX) {
        Some(rest) if !rest.is_empty() => rest.to_owned(),
        _ => who_short,
    };
    let short: String = if who_short.chars().count() > NAME_CHARS {
        who_short
            .chars()
            .take(NAME_CHARS - 1)
            .chain(['…'])
            .collect()
    } else {
        who_short
    };
    let text = match (info.link, link_text(info, lang)) {
        (Some(false), Some(_)) => {
            egui::RichText::new(format!("○{short}")).color(theme::palette::WARN)
        }
        _ => egui::RichText::new(short),
    };
    let r = ui.label(text);
    match link_text(info, lang) {
        Some(link) => r.on_hover_text(format!("{who} · {link}")),
        None => r.on_hover_text(who),
    };
}

/// The banner above the board: the pairing code, a warning while this device's link to the
/// table is down, and how the table ended when it ended without a result.
pub fn banner(ui: &mut egui::Ui, l: &LanGame, t: &LanTable, me: Side, lang: Lang) {
    // One line: the board keeps its room on a phone.
    ui.horizontal_wrapped(|ui| {
        ui.label(egui::RichText::new(lang.t("lobby.code")).strong());
        ui.label(
            egui::RichText::new(&l.code)
                .size(20.0)
                .strong()
                .color(egui::Color32::from_rgb(250, 210, 80)),
        );
        if !t.host && !l.connected {
            ui.colored_label(
                egui::Color32::from_rgb(230, 90, 70),
                egui::RichText::new(lang.t("table.link_down")).strong(),
            );
        }
    });
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
