//! Look and feel: the bundled CJK font (for Bevy text and egui), egui styling, the camera and
//! small UI helpers shared by the screens.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// Noto Sans CJK SC Regular, subset to the characters the app shows (see `scripts/font-subset.py`).
pub const FONT_REGULAR: &[u8] =
    include_bytes!("../../assets/fonts/NotoSansCJKsc-Regular-subset.otf");
/// Noto Sans CJK SC Bold, subset likewise (piece labels).
pub const FONT_BOLD: &[u8] = include_bytes!("../../assets/fonts/NotoSansCJKsc-Bold-subset.otf");

/// Handles of the bundled fonts for Bevy text.
#[derive(Resource, Clone, Debug)]
pub struct Fonts {
    /// Regular weight.
    pub regular: Handle<Font>,
    /// Bold weight (piece labels).
    pub bold: Handle<Font>,
}

/// Colours used around the app.
pub mod palette {
    use bevy_egui::egui::Color32;
    /// Headings.
    pub const HEADING: Color32 = Color32::from_rgb(250, 220, 150);
    /// Red side.
    pub const RED: Color32 = Color32::from_rgb(200, 40, 40);
    /// Blue side.
    pub const BLUE: Color32 = Color32::from_rgb(40, 80, 190);
    /// Warnings and errors.
    pub const WARN: Color32 = Color32::from_rgb(255, 140, 90);
    /// Good news.
    pub const OK: Color32 = Color32::from_rgb(140, 220, 140);
    /// Side panels and top bars.
    pub const PANEL: Color32 = Color32::from_rgb(34, 28, 24);
    /// Full-window screens (title, result).
    pub const SCREEN: Color32 = Color32::from_rgb(48, 36, 28);
}

/// Registers the fonts, the camera and the egui style (rendering app only).
pub(super) fn plugin(app: &mut App) {
    let [r, g, b, _] = palette::PANEL.to_array();
    // The panels' colour: panels beside the board are not filled (see `panel`).
    app.insert_resource(ClearColor(Color::srgb_u8(r, g, b)))
        .add_systems(Startup, (load_fonts, spawn_camera))
        .add_systems(Update, no_msaa_on_software_rendering)
        .add_systems(EguiPrimaryContextPass, setup_egui.run_if(run_once));
}

fn load_fonts(mut commands: Commands, mut fonts: ResMut<Assets<Font>>) {
    commands.insert_resource(Fonts {
        regular: fonts.add(Font::from_bytes(FONT_REGULAR.to_vec())),
        bold: fonts.add(Font::from_bytes(FONT_BOLD.to_vec())),
    });
}

fn spawn_camera(mut commands: Commands) {
    commands.spawn((Name::new("Camera"), Camera2d));
}

/// A software renderer (e.g. llvmpipe on a machine without a GPU) spends most of each frame on
/// 4x multisampling: it runs without it there, at about 2.7 times the frame rate.
fn no_msaa_on_software_rendering(
    adapter: Option<Res<bevy::render::renderer::RenderAdapterInfo>>,
    mut cameras: Query<&mut Msaa, With<Camera2d>>,
) {
    let Some(adapter) = adapter else { return };
    // Bevy does not re-export wgpu's `DeviceType`; its `Debug` name is stable ("Cpu").
    if format!("{:?}", adapter.device_type) != "Cpu" {
        return;
    }
    for mut msaa in &mut cameras {
        if *msaa != Msaa::Off {
            *msaa = Msaa::Off;
        }
    }
}

/// Present once the egui fonts and style are set (screens draw from the next frame on: egui
/// applies new fonts at the start of a pass).
#[derive(Resource, Debug)]
pub struct EguiReady;

/// Registers the CJK font with egui (first for proportional text, fallback for monospace) and
/// sets text sizes and colours fit for Chinese.
fn setup_egui(mut commands: Commands, mut contexts: EguiContexts) -> Result {
    let ctx = contexts.ctx_mut()?;
    commands.insert_resource(EguiReady);
    style(ctx);
    Ok(())
}

/// The app's fonts, text sizes and colours on an egui context (also used by layout tests).
pub fn style(ctx: &egui::Context) {
    ctx.set_fonts(egui_fonts());
    ctx.all_styles_mut(|style| {
        use egui::{FontFamily::Proportional, FontId, TextStyle};
        style.text_styles = [
            (TextStyle::Heading, FontId::new(30.0, Proportional)),
            (TextStyle::Body, FontId::new(17.0, Proportional)),
            (
                TextStyle::Monospace,
                FontId::new(15.0, egui::FontFamily::Monospace),
            ),
            (TextStyle::Button, FontId::new(18.0, Proportional)),
            (TextStyle::Small, FontId::new(13.0, Proportional)),
        ]
        .into();
        style.spacing.button_padding = egui::vec2(12.0, 6.0);
        // Brighter text than egui's default dark theme: Chinese strokes need the contrast.
        style.visuals.widgets.noninteractive.fg_stroke.color = egui::Color32::from_gray(215);
        style.visuals.widgets.inactive.fg_stroke.color = egui::Color32::from_gray(230);
        style.spacing.item_spacing = egui::vec2(8.0, 8.0);
        // Scroll bars always drawn beside what scrolls (egui's default floating bars show only
        // under a hovering pointer, so a player does not see that more is hidden below).
        style.spacing.scroll = egui::style::ScrollStyle::solid();
    });
}

/// egui's default fonts plus the bundled CJK font.
pub fn egui_fonts() -> egui::FontDefinitions {
    let mut defs = egui::FontDefinitions::default();
    defs.font_data.insert(
        "noto_sc".to_owned(),
        std::sync::Arc::new(egui::FontData::from_static(FONT_REGULAR)),
    );
    defs.font_data.insert(
        "noto_sc_bold".to_owned(),
        std::sync::Arc::new(egui::FontData::from_static(FONT_BOLD)),
    );
    defs.families
        .entry(egui::FontFamily::Proportional)
        .or_default()
        .insert(0, "noto_sc".to_owned());
    defs.families
        .entry(egui::FontFamily::Monospace)
        .or_default()
        .push("noto_sc".to_owned());
    defs.families.insert(
        egui::FontFamily::Name("bold".into()),
        vec!["noto_sc_bold".to_owned()],
    );
    defs
}

/// A `Ui` covering the whole window, for panels (egui 0.36 panels show inside a `Ui`).
pub fn root_ui(ctx: &egui::Context) -> egui::Ui {
    egui::Ui::new(
        ctx.clone(),
        "root".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    )
}

/// A large menu button of fixed width.
pub fn menu_button(ui: &mut egui::Ui, text: &str) -> egui::Response {
    ui.add_sized(
        [260.0, 46.0],
        egui::Button::new(egui::RichText::new(text).size(22.0)),
    )
}

/// A fixed-height place for messages that come and go (a hint, a refusal, a confirmation, a
/// draw offer): it takes `lines` lines of the window whether it shows anything or not, so that
/// neither the board nor a control moves under the pointer when a message appears or goes. A
/// longer message scrolls inside it.
pub fn message_slot(ui: &mut egui::Ui, id: &str, lines: f32, add: impl FnOnce(&mut egui::Ui)) {
    let h = lines * slot_line(ui);
    let w = ui.available_width();
    ui.allocate_ui_with_layout(
        egui::vec2(w, h),
        egui::Layout::top_down(egui::Align::Min),
        |ui| {
            ui.set_min_size(egui::vec2(w, h));
            ui.set_max_height(h);
            egui::ScrollArea::vertical()
                .id_salt(id)
                .max_height(h)
                .auto_shrink([false, false])
                .show(ui, add);
        },
    );
}

/// The height of one line of a [`message_slot`]: a button's (a draw offer's accept and decline buttons) and
/// the space below it.
pub fn slot_line(ui: &egui::Ui) -> f32 {
    let text = ui.text_style_height(&egui::TextStyle::Button);
    (text + 2.0 * ui.spacing().button_padding.y).max(ui.spacing().interact_size.y)
        + ui.spacing().item_spacing.y
}

/// A screen heading.
pub fn heading(ui: &mut egui::Ui, text: &str) {
    ui.label(
        egui::RichText::new(text)
            .size(32.0)
            .color(palette::HEADING)
            .strong(),
    );
}

/// The frame of a panel beside the board and of a page's top bar: not filled, so the window's
/// clear colour (the panel colour) shows through. A software renderer pays for every pixel egui
/// fills each frame: on llvmpipe, filling the panels cost about a sixth of the frame rate at the
/// four-player board.
pub fn panel(margin: i8) -> egui::Frame {
    egui::Frame::new().inner_margin(margin)
}

/// A full-window page: a top bar with a back button and the title, then `add_contents` in a
/// central panel that scrolls when it is taller than the window (a phone held upright), with
/// its scroll bar shown. Returns `true` when the back button was clicked.
pub fn page(
    ctx: &egui::Context,
    back_label: &str,
    title: &str,
    add_contents: impl FnOnce(&mut egui::Ui),
) -> bool {
    let mut root = root_ui(ctx);
    let mut back = false;
    egui::Panel::top("page_top")
        .frame(panel(10))
        .show(&mut root, |ui| {
            ui.horizontal(|ui| {
                back = ui.button(format!("◀ {back_label}")).clicked();
                ui.add_space(16.0);
                heading(ui, title);
            });
        });
    egui::CentralPanel::default()
        .frame(
            egui::Frame::new()
                .fill(egui::Color32::from_rgb(48, 40, 34))
                .inner_margin(20),
        )
        .show(&mut root, |ui| {
            egui::ScrollArea::vertical()
                .auto_shrink([false, false])
                .show(ui, add_contents);
        });
    back
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{battle::BattleSeen, i18n::Lang};
    use egui::{FontFamily, epaint::text::Fonts};
    use junqi_game::{Outcome, Rank};

    fn non_ascii_chars_in(dir: &std::path::Path, ext: &str, found: &mut Vec<char>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                non_ascii_chars_in(&path, ext, found);
            } else if path.extension().is_some_and(|e| e == ext) {
                let text = std::fs::read_to_string(&path).unwrap();
                found.extend(text.chars().filter(|c| !c.is_ascii()));
            }
        }
    }

    /// Every character the app's sources, layouts and Fluent files contain has a glyph in egui's fonts (the
    /// bundled subset first, egui's own after): no empty boxes after a new string is added
    /// without re-running `scripts/font-subset.py`.
    #[test]
    fn the_bundled_font_covers_every_string() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut chars = Vec::new();
        non_ascii_chars_in(&root.join("src"), "rs", &mut chars);
        non_ascii_chars_in(&root.join("game/src"), "rs", &mut chars);
        non_ascii_chars_in(&root.join("assets/layouts"), "json", &mut chars);
        // What the player reads: the Fluent files.
        non_ascii_chars_in(&root.join("assets/i18n"), "ftl", &mut chars);
        chars.sort_unstable();
        chars.dedup();
        assert!(chars.len() > 300, "only {} characters found", chars.len());
        let mut fonts = Fonts::new(Default::default(), egui_fonts());
        let mut covered = |family: FontFamily| {
            fonts
                .fonts
                .font(&family)
                .characters()
                .keys()
                .copied()
                .collect::<std::collections::BTreeSet<char>>()
        };
        let body = covered(FontFamily::Proportional);
        let missing: String = chars.iter().filter(|c| !body.contains(c)).collect();
        assert!(missing.is_empty(), "no glyph for {missing:?}");

        // The board's labels are drawn with the bold subset alone (no fallback).
        let bold = covered(FontFamily::Name("bold".into()));
        let mut labels: Vec<String> = ["山 界", "大本营", "军"].map(String::from).to_vec();
        for r in Rank::ALL {
            labels.extend([
                crate::game_text::piece_face(r).to_owned(),
                r.nickname().to_owned(),
            ]);
            labels.push(r.zh_short().to_string());
        }
        for outcome in [
            Outcome::AttackerWins,
            Outcome::DefenderWins,
            Outcome::BothRemoved,
        ] {
            for (attacker, defender, flag_captured) in [
                (None, None, false),
                (Some(Rank::Bomb), None, false),
                (None, Some(Rank::Landmine), false),
                (None, None, true),
            ] {
                let seen = BattleSeen {
                    attacker,
                    defender,
                    outcome,
                    flag_captured,
                };
                for lang in [Lang::Zh, Lang::En] {
                    labels.push(lang.t(seen.caption_key()).to_owned());
                }
            }
        }
        let lacking: String = labels
            .concat()
            .chars()
            .filter(|c| !bold.contains(c))
            .collect();
        assert!(lacking.is_empty(), "the bold font lacks {lacking:?}");
    }
}
