//! The title screen and main menu, with the notices a player should see at start (a settings
//! or profile file that was damaged and replaced).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::{Navigate, Screen};
use crate::{
    i18n::Lang,
    profile::ProfileStatus,
    settings::{SaveSettings, Settings, SettingsStatus},
    suspend::{Resumable, ResumeGame},
    theme, version,
};

pub(super) fn plugin(app: &mut App) {
    super::add_ui(app, Screen::Title, ui);
}

/// What the title screen shows besides its menu.
#[derive(Clone, Debug, Default)]
pub struct TitleView {
    /// Moves played in the unfinished game offered by 继续上局, if there is one.
    pub resumable: Option<usize>,
    /// Warnings about files found damaged at start, in the player's language.
    pub notices: Vec<String>,
}

/// What the player chose on the title screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TitleChoice {
    /// A screen of the menu.
    Go(Screen),
    /// 继续上局.
    Resume,
    /// 中文 / English.
    ToggleLanguage,
    /// 退出.
    Quit,
}

/// The files found damaged at start, as the player reads them (no path, no parser's words).
pub fn file_notices(settings: &SettingsStatus, profile: &ProfileStatus, lang: Lang) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(e) = &settings.loaded {
        out.push(e.notice("err.settings_damaged", lang));
    }
    if let Some(e) = &profile.0 {
        out.push(e.notice("err.profile_damaged", lang));
    }
    out
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
    (settings_status, profile_status): (Res<SettingsStatus>, Res<ProfileStatus>),
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let view = TitleView {
        resumable: resumable.0.as_ref().map(|u| u.game.record.actions.len()),
        notices: file_notices(&settings_status, &profile_status, *lang),
    };
    match title_panels(ctx, &view, *lang) {
        Some(TitleChoice::Go(s)) => {
            nav.write(Navigate(s));
        }
        Some(TitleChoice::Resume) => {
            resume.write(ResumeGame);
        }
        Some(TitleChoice::ToggleLanguage) => {
            settings.lang = settings.lang.toggled();
            save.write(SaveSettings);
        }
        Some(TitleChoice::Quit) => {
            exit.write(AppExit::Success);
        }
        None => {}
    }
    Ok(())
}

/// Lays out the title screen (also used by the layout tests) and returns what was chosen.
pub fn title_panels(ctx: &egui::Context, view: &TitleView, lang: Lang) -> Option<TitleChoice> {
    let mut choice = None;
    let mut root = theme::root_ui(ctx);
    egui::CentralPanel::default()
        .frame(egui::Frame::new().fill(theme::palette::SCREEN))
        .show(&mut root, |ui| {
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Min), |ui| {
                ui.add_space(12.0);
                if ui.button(lang.t("menu.language")).clicked() {
                    choice = Some(TitleChoice::ToggleLanguage);
                }
            });
            // Scrolls only if the window is too low for the whole menu; the space above the
            // title gives way first, so that 退出 stays in view with 继续上局 and notices shown.
            let extra = 80.0 * f32::from(u8::from(view.resumable.is_some()))
                + 30.0 * view.notices.len() as f32;
            let top = (ui.available_height() * 0.12 - extra).max(8.0);
            egui::ScrollArea::vertical()
                .auto_shrink([false, false])
                .show(ui, |ui| {
                    ui.vertical_centered(|ui| {
                        ui.add_space(top);
                        menu(ui, view, lang, &mut choice);
                    });
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
    choice
}

fn menu(ui: &mut egui::Ui, view: &TitleView, lang: Lang, choice: &mut Option<TitleChoice>) {
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
    for notice in &view.notices {
        ui.colored_label(theme::palette::WARN, notice);
    }
    ui.add_space(24.0);
    // The game the app was closed (or sent away) in the middle of, first.
    if let Some(moves) = view.resumable {
        if theme::menu_button(ui, lang.t("menu.resume")).clicked() {
            *choice = Some(TitleChoice::Resume);
        }
        ui.weak(lang.tr("menu.resume_detail", &[("moves", moves.into())]));
    }
    let items = [
        ("menu.vs_ai", TitleChoice::Go(Screen::Setup)),
        ("menu.lan", TitleChoice::Go(Screen::Lobby)),
        ("menu.replay", TitleChoice::Go(Screen::Replay)),
        ("menu.profile", TitleChoice::Go(Screen::Profile)),
        ("menu.settings", TitleChoice::Go(Screen::Settings)),
        ("menu.rules", TitleChoice::Go(Screen::Rules)),
        ("menu.quit", TitleChoice::Quit),
    ];
    for (key, target) in items {
        if theme::menu_button(ui, lang.t(key)).clicked() {
            *choice = Some(target);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::StoreError;
    use std::path::PathBuf;

    fn damaged(name: &str) -> StoreError {
        StoreError::MovedAside {
            to: PathBuf::from(format!(
                "/home/someone/.local/share/junqi/{name}.damaged-1.json"
            )),
            detail: "expected value at line 1 column 3".into(),
        }
    }

    /// A damaged settings or profile file is announced at start in the player's language, with
    /// the kept copy's file name but neither its path nor the parser's English words.
    #[test]
    fn damaged_files_are_announced_in_the_players_words() {
        let settings = SettingsStatus {
            loaded: Some(damaged("settings")),
            saved: None,
        };
        let profile = ProfileStatus(Some(damaged("profile")), Some(0));
        for lang in [Lang::Zh, Lang::En] {
            let notices = file_notices(&settings, &profile, lang);
            assert_eq!(notices.len(), 2, "{notices:?}");
            assert!(
                notices[0].contains("settings.damaged-1.json"),
                "{notices:?}"
            );
            assert!(notices[1].contains("profile.damaged-1.json"), "{notices:?}");
            for n in &notices {
                assert!(!n.contains("/home"), "{n}");
                assert!(!n.contains("expected value"), "{n}");
                let chinese = n.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
                assert_eq!(chinese, lang == Lang::Zh, "{n}");
            }
        }
        let none = file_notices(
            &SettingsStatus::default(),
            &ProfileStatus::default(),
            Lang::Zh,
        );
        assert!(none.is_empty());
    }
}
