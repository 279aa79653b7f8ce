//! The profile screen: rating level, score and results against each opponent.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::{Navigate, Screen};
use crate::{
    i18n::Lang,
    profile::{LEVELS, Profile, ProfileStatus, level_index, level_name},
    theme,
};

pub(super) fn plugin(app: &mut App) {
    super::add_ui(app, Screen::Profile, ui);
}

/// The name shown for an opponent key (`ai-N` → "电脑 · 普通", `four:P-N-U` → the four-player
/// table's levels, `lan:NAME` → NAME; a `+undo` game is marked 悔棋).
pub fn opponent_label(key: &str, lang: Lang) -> String {
    if let Some(base) = key.strip_suffix(crate::profile::UNDO_SUFFIX) {
        return format!("{} ({})", opponent_label(base, lang), lang.t("game.undo"));
    }
    let level = |n: u8| crate::game_text::level_name(crate::ai::level(n), lang);
    if let Some(n) = key.strip_prefix("ai-").and_then(|n| n.parse::<u8>().ok()) {
        format!("{} · {}", lang.t("profile.ai"), level(n))
    } else if let Some(levels) = key.strip_prefix("four:") {
        let names: Vec<&str> = levels
            .split('-')
            .filter_map(|n| n.parse::<u8>().ok())
            .map(level)
            .collect();
        let seats = ["seat.partner", "seat.next", "seat.previous"];
        let parts: Vec<String> = seats
            .iter()
            .zip(&names)
            .map(|(k, n)| format!("{}{n}", lang.t(k)))
            .collect();
        format!("{} · {}", lang.t("four.title"), parts.join(" "))
    } else {
        key.strip_prefix("lan:").unwrap_or(key).to_owned()
    }
}

fn ui(
    mut contexts: EguiContexts,
    lang: Res<Lang>,
    profile: Res<Profile>,
    status: Res<ProfileStatus>,
    mut nav: MessageWriter<Navigate>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    if profile_page(ctx, &profile, &status, *lang) {
        nav.write(Navigate(Screen::Title));
    }
    Ok(())
}

/// Lays out the profile page (also used by the layout tests); returns whether 返回 was pressed.
pub fn profile_page(
    ctx: &egui::Context,
    profile: &Profile,
    status: &ProfileStatus,
    lang: Lang,
) -> bool {
    theme::page(ctx, lang.t("menu.back"), lang.t("profile.title"), |ui| {
        if let Some(err) = &status.0 {
            ui.colored_label(
                theme::palette::WARN,
                err.notice("err.profile_damaged", lang),
            );
        }
        if let Some(n) = status.1 {
            ui.colored_label(
                theme::palette::OK,
                lang.tr("profile.rebuilt", &[("games", n.into())]),
            );
        }
        let idx = level_index(profile.score);
        ui.horizontal(|ui| {
            ui.label(egui::RichText::new(lang.t("profile.level")).size(22.0));
            ui.label(
                egui::RichText::new(level_name(profile.score, lang))
                    .size(34.0)
                    .strong()
                    .color(theme::palette::HEADING),
            );
            ui.add_space(20.0);
            ui.label(
                egui::RichText::new(format!("{} {}", lang.t("profile.score"), profile.score))
                    .size(22.0),
            );
        });
        if let Some((next, key)) = LEVELS.get(idx + 1) {
            let name = lang.t(key);
            let prev = LEVELS[idx].0;
            let frac = (profile.score.max(0) - prev) as f32 / (next - prev) as f32;
            ui.add(
                egui::ProgressBar::new(frac.clamp(0.0, 1.0))
                    .desired_width(ui.available_width().min(420.0))
                    .text(format!("{} {name} ({next})", lang.t("profile.next"))),
            );
        }
        ui.add_space(16.0);
        // On a phone the opponent comes last, where its name may wrap: the numbers keep their
        // columns in the window's width.
        let narrow = ui.available_width() < 640.0;
        egui::Grid::new("profile_grid")
            .striped(true)
            .num_columns(5)
            .spacing([if narrow { 14.0 } else { 28.0 }, 8.0])
            .show(ui, |ui| {
                let row = |ui: &mut egui::Ui, who: egui::RichText, cells: [egui::RichText; 4]| {
                    if !narrow {
                        ui.label(who.clone());
                    }
                    for c in cells {
                        ui.label(c);
                    }
                    if narrow {
                        ui.add(egui::Label::new(who).wrap());
                    }
                    ui.end_row();
                };
                let strong = |t: &str| egui::RichText::new(t).strong();
                row(
                    ui,
                    strong(lang.t("profile.vs")),
                    [
                        "profile.games",
                        "profile.wins",
                        "profile.losses",
                        "profile.draws",
                    ]
                    .map(|k| strong(lang.t(k))),
                );
                let mut total = crate::profile::Tally::default();
                for (who, t) in &profile.opponents {
                    let counts = [t.wins + t.losses + t.draws, t.wins, t.losses, t.draws];
                    row(
                        ui,
                        egui::RichText::new(opponent_label(who, lang)),
                        counts.map(|n| egui::RichText::new(n.to_string())),
                    );
                    total.wins += t.wins;
                    total.losses += t.losses;
                    total.draws += t.draws;
                }
                let counts = [
                    total.wins + total.losses + total.draws,
                    total.wins,
                    total.losses,
                    total.draws,
                ];
                row(ui, strong("Σ"), counts.map(|n| strong(&n.to_string())));
            });
        ui.add_space(16.0);
        egui::CollapsingHeader::new(lang.t("profile.level"))
            .default_open(false)
            .show(ui, |ui| {
                for (i, (s, key)) in LEVELS.iter().enumerate() {
                    let name = lang.t(key);
                    let text = egui::RichText::new(format!("{s:>6}  {name}"));
                    ui.label(if i == idx {
                        text.strong().color(theme::palette::HEADING)
                    } else {
                        text
                    });
                }
            });
    })
}
