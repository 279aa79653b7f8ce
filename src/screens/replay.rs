//! The replay viewer: pick a saved game, step through it from the player's view (or the whole
//! board, for finished games).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use junqi_game::SetupError;

use super::{
    Navigate, Screen,
    game::scene_of,
    review::ReviewState,
    stepping::{autoplay_step, format_time, step_buttons, until_next_step},
};
use crate::{
    board::{BoardArea, BoardScene},
    form::Form,
    game_match::{GameFile, Match, reason_key, record_error_text},
    i18n::Lang,
    lan::ExportError,
    redraw::Redraw,
    settings::Settings,
    storage::{self, DataDir, StoreError},
    theme,
};

/// The replay viewer's state.
#[derive(Resource, Default, Clone, Debug)]
pub struct ReplayState {
    /// Saved games (file names without `.json`), newest first.
    pub files: Vec<String>,
    /// The open game.
    pub record: Option<GameFile>,
    /// How many turns are applied.
    pub step: usize,
    /// Show every piece.
    pub full: bool,
    /// Auto-play.
    pub playing: bool,
    /// Seconds since the last auto-play step.
    pub timer: f32,
    /// A load problem.
    pub error: Option<OpenError>,
    /// The open record's file name (without `.json`).
    pub name: Option<String>,
    /// Whether the open record is a LAN game with its signed log kept (it can be exported).
    pub auditable: bool,
    /// The last audit export: the file written, or why it failed.
    pub export: Option<Result<std::path::PathBuf, ExportError>>,
}

/// Why a saved game could not be opened.
#[derive(Clone, Debug, PartialEq)]
pub enum OpenError {
    /// The file could not be read (missing, unreadable, or damaged and moved aside).
    Store(StoreError),
    /// The file reads, but its record does not replay.
    Replay(SetupError),
}

impl OpenError {
    /// What the player reads, in `lang`.
    pub fn message(&self, lang: Lang) -> String {
        match self {
            OpenError::Store(e) => e.message(lang),
            OpenError::Replay(e) => record_error_text(e, lang),
        }
    }
}

impl ReplayState {
    /// Opens a record at its start.
    pub fn open(&mut self, record: GameFile) {
        self.record = Some(record);
        self.step = 0;
        self.playing = false;
        self.error = None;
        self.name = None;
        self.auditable = false;
        self.export = None;
    }

    /// Opens the record saved as `name` in `dir`'s records folder.
    ///
    /// # Errors
    /// The file is missing or damaged, or its record does not replay.
    pub fn open_file(&mut self, dir: &DataDir, name: &str) -> Result<(), OpenError> {
        let path = dir.records().join(format!("{name}.json"));
        // A damaged record is moved aside (and reported), so it is not offered again.
        let rec = storage::load_or_move_aside::<GameFile>(&path).map_err(OpenError::Store)?;
        Match::from_saved(&rec, None).map_err(OpenError::Replay)?;
        self.open(rec);
        self.name = Some(name.to_owned());
        self.auditable = crate::lan::record_journal(&path).exists();
        Ok(())
    }

    /// Exports the open record's signed log for a third party's audit.
    pub fn export_for_audit(&mut self, dir: &DataDir) {
        let Some(name) = &self.name else { return };
        let record = dir.records().join(format!("{name}.json"));
        self.export = Some(crate::lan::export_for_audit(dir, &record));
    }

    /// The match after `step` actions.
    pub fn game_match(&self) -> Option<Match> {
        Match::from_saved(self.record.as_ref()?, Some(self.step)).ok()
    }

    /// Number of turns in the open record.
    pub fn len(&self) -> usize {
        self.record.as_ref().map_or(0, |r| r.record.actions.len())
    }

    /// Whether no record is open.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ReplayState>()
        .add_systems(OnEnter(Screen::Replay), enter)
        .add_systems(OnExit(Screen::Replay), |mut s: ResMut<BoardScene>| {
            *s = BoardScene::default()
        })
        .add_systems(
            Update,
            (autoplay, show).chain().run_if(in_state(Screen::Replay)),
        );
    super::add_ui(app, Screen::Replay, ui);
}

fn enter(mut state: ResMut<ReplayState>, dir: Res<DataDir>) {
    let mut files = storage::list_names(&dir.records());
    files.reverse();
    state.files = files;
}

fn autoplay(mut state: ResMut<ReplayState>, time: Res<Time>, mut redraw: ResMut<Redraw>) {
    // Not touched while paused: the board is redrawn only when the state changes.
    if !state.playing {
        return;
    }
    let n = state.len();
    let s = &mut *state;
    autoplay_step(
        &mut s.step,
        &mut s.playing,
        &mut s.timer,
        time.delta_secs(),
        n,
    );
    if s.playing {
        redraw.within(until_next_step(s.timer));
    }
}

fn show(state: Res<ReplayState>, settings: Res<Settings>, mut scene: ResMut<BoardScene>) {
    if !state.is_changed() && !settings.is_changed() {
        return;
    }
    let new = match state.game_match() {
        Some(s) => scene_of(&s, &settings, state.full),
        None => BoardScene::default(),
    };
    if *scene != new {
        *scene = new;
    }
}

#[allow(clippy::too_many_arguments)]
fn ui(
    mut contexts: EguiContexts,
    lang: Res<Lang>,
    form: Res<Form>,
    mut state: ResMut<ReplayState>,
    mut review: ResMut<ReviewState>,
    dir: Res<DataDir>,
    mut area: ResMut<BoardArea>,
    mut nav: MessageWriter<Navigate>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let lang = *lang;
    let mut root = theme::root_ui(ctx);
    let frame = theme::panel(12);
    let header = |ui: &mut egui::Ui, nav: &mut MessageWriter<Navigate>| {
        ui.horizontal(|ui| {
            if ui.button(format!("◀ {}", lang.t("menu.back"))).clicked() {
                nav.write(Navigate(Screen::Title));
            }
            theme::heading(ui, lang.t("replay.title"));
        });
    };
    if *form == Form::Portrait {
        // The records in a drop-down above the board, the controls and the log below it.
        let height = root.available_height();
        egui::Panel::top("replay_top")
            .frame(frame.inner_margin(8))
            .show(&mut root, |ui| {
                header(ui, &mut nav);
                let current = state
                    .record
                    .as_ref()
                    .map(|r| format_time(r.started))
                    .unwrap_or_else(|| lang.t("replay.none").to_owned());
                egui::ComboBox::from_id_salt("replay_files")
                    .selected_text(current)
                    .width(ui.available_width() - 16.0)
                    .show_ui(ui, |ui| file_list(ui, &mut state, &dir, lang));
                if let Some(e) = &state.error {
                    ui.colored_label(theme::palette::WARN, e.message(lang));
                }
            });
        egui::Panel::bottom("replay_controls")
            .frame(frame.inner_margin(8))
            .show(&mut root, |ui| {
                controls(ui, &mut state, &dir, lang);
                review_button(ui, &state, &mut review, &mut nav, lang);
                if let Some(s) = state.game_match() {
                    let h = (height * 0.15).max(90.0);
                    ui.allocate_ui(egui::vec2(ui.available_width(), h), |ui| {
                        ui.set_min_height(h);
                        super::game_hud::log_view(ui, &s.log, &s.view, lang, h);
                    });
                }
            });
    } else {
        egui::Panel::left("replay_list")
            .exact_size(260.0)
            .resizable(false)
            .frame(frame)
            .show(&mut root, |ui| {
                header(ui, &mut nav);
                ui.separator();
                if let Some(e) = &state.error {
                    ui.colored_label(theme::palette::WARN, e.message(lang));
                }
                egui::ScrollArea::vertical().show(ui, |ui| file_list(ui, &mut state, &dir, lang));
            });
        egui::Panel::right("replay_controls")
            .exact_size(320.0)
            .resizable(false)
            .frame(frame)
            .show(&mut root, |ui| {
                controls(ui, &mut state, &dir, lang);
                review_button(ui, &state, &mut review, &mut nav, lang);
                ui.separator();
                if let Some(s) = state.game_match() {
                    super::game_hud::log_view(ui, &s.log, &s.view, lang, f32::INFINITY);
                }
            });
    }
    area.0 = Some(crate::form::board_area(
        root.available_rect_before_wrap(),
        ctx,
    ));
    Ok(())
}

/// 复盘 for a finished record: the review screen at the step shown, 返回 leading back here.
fn review_button(
    ui: &mut egui::Ui,
    state: &ReplayState,
    review: &mut ReviewState,
    nav: &mut MessageWriter<Navigate>,
    lang: Lang,
) {
    let Some(rec) = state.record.as_ref().filter(|r| r.result.is_some()) else {
        return;
    };
    if ui.button(lang.t("replay.review")).clicked() {
        review.open(rec.clone(), Screen::Replay);
        review.step = state.step;
        nav.write(Navigate(Screen::Review));
    }
}

/// The saved records, newest first; a click opens one.
fn file_list(ui: &mut egui::Ui, state: &mut ReplayState, dir: &DataDir, lang: Lang) {
    if state.files.is_empty() {
        ui.weak(lang.t("replay.none"));
    }
    for name in state.files.clone() {
        let label = name
            .strip_prefix("game-")
            .and_then(|s| s.parse().ok())
            .map(format_time)
            .unwrap_or_else(|| name.clone());
        if ui.button(label).clicked()
            && let Err(e) = state.open_file(dir, &name)
        {
            state.error = Some(e);
        }
    }
}

/// The open record's date and result, the step slider and buttons, the audit export.
fn controls(ui: &mut egui::Ui, state: &mut ReplayState, dir: &DataDir, lang: Lang) {
    let n = state.len();
    let Some(rec) = state.record.clone() else {
        ui.weak(lang.t("replay.none"));
        return;
    };
    ui.horizontal_wrapped(|ui| {
        ui.label(format_time(rec.started));
        if let Some(r) = &rec.result {
            ui.label(lang.t(reason_key(r)));
        }
        ui.label(format!("{} / {n}", state.step));
    });
    // Across the panel: a finger finds it and moves it in fine steps.
    ui.spacing_mut().slider_width = ui.available_width() - 8.0;
    ui.add(egui::Slider::new(&mut state.step, 0..=n).show_value(false));
    step_buttons(ui, &mut state.step, &mut state.playing, n, lang);
    if rec.result.is_some() {
        ui.checkbox(&mut state.full, lang.t("replay.full"));
    }
    if state.auditable && ui.button(lang.t("replay.export")).clicked() {
        state.export_for_audit(dir);
    }
    match &state.export {
        Some(Ok(path)) => {
            ui.label(format!("{}：{}", lang.t("replay.exported"), path.display()));
            ui.label(lang.t("replay.audit_cmd"));
            let cmd = format!("junqi-audit {}", path.display());
            ui.add(egui::Label::new(egui::RichText::new(cmd).monospace()).selectable(true));
        }
        Some(Err(e)) => {
            ui.colored_label(
                theme::palette::WARN,
                format!("{}：{}", lang.t("replay.export_failed"), e.message(lang)),
            );
        }
        None => {}
    }
}
