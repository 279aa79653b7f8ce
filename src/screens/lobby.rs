//! The LAN lobby: discovered hosts, hosting and joining.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::{Navigate, Screen};
use crate::{i18n::Lang, theme};

pub(super) fn plugin(app: &mut App) {
    super::add_ui(app, Screen::Lobby, ui);
}

fn ui(mut contexts: EguiContexts, lang: Res<Lang>, mut nav: MessageWriter<Navigate>) -> Result {
    let ctx = contexts.ctx_mut()?;
    let lang = *lang;
    let back = theme::page(ctx, lang.t("menu.back"), lang.t("lobby.title"), |ui| {
        ui.horizontal(|ui| {
            ui.spinner();
            ui.label(lang.t("lobby.searching"));
        });
        ui.add_space(8.0);
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.set_min_size(egui::vec2(600.0, 200.0));
            ui.weak(lang.t("lobby.none"));
        });
        ui.add_space(8.0);
        ui.add_enabled(false, egui::Button::new(lang.t("lobby.host")));
        ui.colored_label(theme::palette::WARN, lang.t("lobby.unavailable"));
    });
    if back {
        nav.write(Navigate(Screen::Title));
    }
    Ok(())
}
