//! 规则说明: the rules page, in the current language.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::{Navigate, Screen, rules_text};
use crate::{i18n::Lang, theme};

pub(super) fn plugin(app: &mut App) {
    super::add_ui(app, Screen::Rules, ui);
}

fn ui(mut contexts: EguiContexts, lang: Res<Lang>, mut nav: MessageWriter<Navigate>) -> Result {
    let ctx = contexts.ctx_mut()?;
    let lang = *lang;
    let back = theme::page(ctx, lang.t("menu.back"), lang.t("rules.title"), |ui| {
        ui.set_max_width(ui.available_width().min(900.0));
        for (heading, paragraphs) in rules_text::sections(lang) {
            ui.add_space(6.0);
            ui.label(
                egui::RichText::new(heading)
                    .size(22.0)
                    .strong()
                    .color(theme::palette::HEADING),
            );
            for p in paragraphs {
                ui.label(egui::RichText::new(p).size(17.0));
            }
        }
    });
    if back {
        nav.write(Navigate(Screen::Title));
    }
    Ok(())
}
