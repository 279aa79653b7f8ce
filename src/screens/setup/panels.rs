//! The setup screen's panels: the options, the layout tools, 出征, and a LAN game's status, laid
//! out for a wide window or a phone held upright.

use bevy_egui::egui;
use junqi_game::{Mode, classic_layouts};

use super::{
    options::MatchOptions,
    options_ui::options_ui,
    state::{SetupAction, SetupState},
};
use crate::{form::Form, i18n::Lang, theme};

/// What the setup screen's panels asked for this frame.
pub type SetupOut = crate::screens::PanelsOut<SetupAction>;

/// The portrait layout's tabs below the board (the one shown is a resource: a LAN host opens
/// the screen on its options).
#[derive(bevy::prelude::Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SetupTab {
    /// 布阵: default, random, classic, saved layouts.
    #[default]
    Layout,
    /// 选项: the game's options.
    Options,
}

/// The setup screen's panels for `form` (the options may be edited in place); the board gets
/// what is left. In a wide window the options are left of the board and the layout tools right
/// of it; in portrait a bar above the board holds 出征 and tabs below it the rest.
pub fn setup_panels(
    ctx: &egui::Context,
    state: &mut SetupState,
    lang: Lang,
    form: Form,
    tab: &mut SetupTab,
) -> SetupOut {
    let mut out = SetupOut::default();
    let mut root = theme::root_ui(ctx);
    let panel_frame = theme::panel(12);
    let mut opts = state.options.clone();
    match form {
        Form::Wide => {
            egui::Panel::left("setup_options")
                .exact_size(300.0)
                .resizable(false)
                .frame(panel_frame)
                .show(&mut root, |ui| {
                    ui.horizontal(|ui| {
                        back_button(ui, lang, &mut out);
                        theme::heading(ui, lang.t("setup.title"));
                    });
                    ui.separator();
                    egui::ScrollArea::vertical()
                        .show(ui, |ui| lan_options_ui(ui, &mut opts, lang, state));
                });
            egui::Panel::right("setup_tools")
                .exact_size(280.0)
                .resizable(false)
                .frame(panel_frame)
                .show(&mut root, |ui| {
                    ui.add_space(4.0);
                    lan_status(ui, state, lang);
                    march_button(ui, state, lang, &mut out, [250.0, 56.0]);
                    ui.add_space(6.0);
                    // A place of its own height: 保存布阵 and the list stay put.
                    theme::message_slot(ui, "setup_message", 3.0, |ui| message(ui, state));
                    tools_ui(ui, state, lang, &mut out, 220.0);
                });
        }
        Form::Portrait => {
            let height = root.available_height();
            egui::Panel::top("setup_top")
                .frame(panel_frame.inner_margin(8))
                .show(&mut root, |ui| {
                    ui.horizontal(|ui| {
                        back_button(ui, lang, &mut out);
                        theme::heading(ui, lang.t("setup.title"));
                        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                            march_button(ui, state, lang, &mut out, [120.0, 44.0]);
                        });
                    });
                    lan_status(ui, state, lang);
                    // A place of its own height: the board stays put.
                    theme::message_slot(ui, "setup_message", 2.0, |ui| message(ui, state));
                });
            egui::Panel::bottom("setup_bottom")
                .frame(panel_frame.inner_margin(8))
                .show(&mut root, |ui| {
                    ui.horizontal(|ui| {
                        for (t, key) in [
                            (SetupTab::Layout, "setup.tab.layout"),
                            (SetupTab::Options, "setup.tab.options"),
                        ] {
                            if ui.selectable_label(*tab == t, lang.t(key)).clicked() {
                                *tab = t;
                            }
                        }
                    });
                    ui.separator();
                    // A fixed height whatever the tab, so that the board does not jump.
                    let h = (height * 0.3).max(120.0);
                    let w = ui.available_width();
                    ui.allocate_ui_with_layout(
                        egui::vec2(w, h),
                        egui::Layout::top_down(egui::Align::Min),
                        |ui| {
                            ui.set_min_size(egui::vec2(w, h));
                            egui::ScrollArea::vertical()
                                .max_height(h)
                                .auto_shrink([false, false])
                                .show(ui, |ui| match tab {
                                    SetupTab::Layout => tools_ui(ui, state, lang, &mut out, h),
                                    SetupTab::Options => lan_options_ui(ui, &mut opts, lang, state),
                                });
                        },
                    );
                });
        }
    }
    if opts != state.options {
        state.options = opts;
    }
    out.board = root.available_rect_before_wrap();
    out
}

fn back_button(ui: &mut egui::Ui, lang: Lang, out: &mut SetupOut) {
    if ui.button(format!("◀ {}", lang.t("menu.back"))).clicked() {
        out.actions.push(SetupAction::Back);
    }
}

/// The options: editable for a game against the computer or a LAN game about to be hosted
/// (then only what applies to it); in a LAN game's setup the host's rules, shown, not editable.
fn lan_options_ui(ui: &mut egui::Ui, opts: &mut MatchOptions, lang: Lang, state: &SetupState) {
    match &state.lan {
        Some(l) => {
            ui.strong(lang.t(if l.host {
                "setup.lan.my_rules"
            } else {
                "setup.lan.host_rules"
            }));
            ui.add_enabled_ui(false, |ui| options_ui(ui, opts, lang, true));
        }
        None => options_ui(ui, opts, lang, state.lan_host),
    }
}

/// A LAN game's setup: whom it is against, the pairing code, and who is ready.
fn lan_status(ui: &mut egui::Ui, state: &SetupState, lang: Lang) {
    let Some(l) = &state.lan else { return };
    // One line each, so that the code is never wrapped in two.
    ui.strong(format!("{} {}", lang.t("lan.vs"), l.peer));
    ui.strong(format!("{} {}", lang.t("lobby.code"), l.code));
    if l.peer_ready {
        ui.colored_label(theme::palette::OK, lang.t("setup.lan.peer_ready"));
    } else {
        ui.weak(lang.t("setup.lan.peer_arranging"));
    }
}

/// 出征 (or, for a LAN host, the button that opens the room).
fn march_button(
    ui: &mut egui::Ui,
    state: &SetupState,
    lang: Lang,
    out: &mut SetupOut,
    size: [f32; 2],
) {
    let label = match &state.lan {
        Some(l) if l.ready => "setup.lan.is_ready",
        Some(_) => "setup.lan.ready",
        None if state.lan_host => "lobby.host_here",
        None => "setup.go",
    };
    let go = ui
        .add_enabled_ui(state.editable(), |ui| {
            ui.add_sized(
                size,
                egui::Button::new(
                    egui::RichText::new(lang.t(label))
                        .size(size[1] * 0.54)
                        .strong()
                        .color(egui::Color32::WHITE),
                )
                .fill(egui::Color32::from_rgb(178, 34, 34)),
            )
        })
        .inner;
    if go.clicked() {
        out.actions.push(SetupAction::March);
    }
}

fn message(ui: &mut egui::Ui, state: &SetupState) {
    if let Some((msg, err)) = &state.message {
        let c = if *err {
            theme::palette::WARN
        } else {
            theme::palette::OK
        };
        ui.colored_label(c, msg);
    }
}

/// Default, random, mirror, the classic layouts, saving and loading layouts.
fn tools_ui(
    ui: &mut egui::Ui,
    state: &mut SetupState,
    lang: Lang,
    out: &mut SetupOut,
    list_height: f32,
) {
    if state.options.rules.mode == Mode::Flip {
        ui.label(lang.t("game.flip_hint"));
        return;
    }
    ui.label(egui::RichText::new(lang.t("setup.hint")).small());
    ui.separator();
    ui.horizontal_wrapped(|ui| {
        if ui.button(lang.t("setup.default")).clicked() {
            out.actions.push(SetupAction::Default);
        }
        if ui.button(lang.t("setup.random")).clicked() {
            out.actions.push(SetupAction::Random);
        }
        if ui.button(lang.t("setup.mirror")).clicked() {
            out.actions.push(SetupAction::Mirror);
        }
    });
    ui.horizontal(|ui| {
        let n = classic_count();
        ui.label(lang.t("setup.classic"));
        if ui.button("◀").clicked() {
            out.actions
                .push(SetupAction::Classic((state.classic + n - 1) % n.max(1)));
        }
        ui.label(format!("{}/{}", state.classic + 1, n));
        if ui.button("▶").clicked() {
            out.actions
                .push(SetupAction::Classic((state.classic + 1) % n.max(1)));
        }
    });
    ui.separator();
    ui.label(lang.t("setup.name"));
    ui.horizontal(|ui| {
        ui.add(egui::TextEdit::singleline(&mut state.name).desired_width(110.0));
        if ui.button(lang.t("setup.save")).clicked() {
            out.actions.push(SetupAction::Save(state.name.clone()));
        }
    });
    ui.label(lang.t("setup.load"));
    egui::ScrollArea::vertical()
        .id_salt("saved_layouts")
        .max_height(list_height)
        .show(ui, |ui| {
            if state.saved.is_empty() {
                ui.weak(lang.t("setup.no_layouts"));
            }
            for name in state.saved.clone() {
                ui.horizontal(|ui| {
                    if ui.button(&name).clicked() {
                        out.actions.push(SetupAction::Load(name.clone()));
                    }
                    if ui
                        .small_button("×")
                        .on_hover_text(lang.t("setup.delete"))
                        .clicked()
                    {
                        out.actions.push(SetupAction::Delete(name.clone()));
                    }
                });
            }
        });
}

fn classic_count() -> usize {
    static COUNT: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *COUNT.get_or_init(|| classic_layouts().len())
}
