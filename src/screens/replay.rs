//! The replay viewer: pick a saved game, step through it from the player's view (or the whole
//! board, for finished games).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use junqi_game::SetupError;

use super::{
    Navigate, Screen,
    game::scene_of,
    review::ReviewState,
    stepping::{autoplay_step, format_time, ply_of, ply_steps, step_buttons, until_next_step},
};
use crate::{
    board::{BoardArea, BoardScene},
    form::Form,
    game_match::{GameFile, Match, reason_key, record_error_text},
    i18n::Lang,
    lan::ExportError,
    profile::WinLossDraw,
    redraw::Redraw,
    settings::Settings,
    storage::{self, DataDir, StoreError},
    theme,
};

/// A saved game in the replay list: its file and what the list says of it.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplayEntry {
    /// The file name without `.json`.
    pub name: String,
    /// When the game started (seconds since 1970).
    pub started: u64,
    /// The opponent key (as the profile's: `ai-N`, `four:…`, `lan:NAME`).
    pub opponent: String,
    /// The player's outcome, if the game ended.
    pub outcome: Option<WinLossDraw>,
}

impl ReplayEntry {
    /// The entry of the record `rec` saved as `name`.
    pub fn of(name: &str, rec: &GameFile) -> Self {
        let team = rec.opponent.starts_with("four:");
        Self {
            name: name.to_owned(),
            started: rec.started,
            opponent: rec.opponent.clone(),
            outcome: rec.result.map(|r| WinLossDraw::of(r, rec.me, team)),
        }
    }

    /// The list's text: the date, then the opponent and the outcome.
    pub fn label(&self, lang: Lang) -> String {
        let outcome = lang.t(match self.outcome {
            Some(WinLossDraw::Win) => "profile.wins",
            Some(WinLossDraw::Loss) => "profile.losses",
            Some(WinLossDraw::Draw) => "profile.draws",
            None => "replay.unfinished",
        });
        format!(
            "{}\n{} · {outcome}",
            format_time(self.started),
            super::profile::opponent_label(&self.opponent, lang)
        )
    }
}

/// The replay viewer's state.
#[derive(Resource, Default, Clone, Debug)]
pub struct ReplayState {
    /// The saved games that can be read, newest first.
    pub files: Vec<ReplayEntry>,
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
    /// Why the record last chosen did not open.
    pub error: Option<OpenError>,
    /// The records found damaged (and moved aside) when the list was made.
    pub damaged: Vec<StoreError>,
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

    /// Lists the saved games of `dir`'s records folder, newest first. A record that cannot be
    /// read is moved aside (kept, never overwritten) and reported in [`Self::damaged`], so the
    /// list offers only games that open.
    pub fn list(&mut self, dir: &DataDir) {
        self.files.clear();
        self.damaged.clear();
        for name in storage::list_names(&dir.records()).into_iter().rev() {
            let path = dir.records().join(format!("{name}.json"));
            match storage::load_or_move_aside::<GameFile>(&path) {
                Ok(rec) => self.files.push(ReplayEntry::of(&name, &rec)),
                Err(e) => {
                    warn!("{e}");
                    self.damaged.push(e);
                }
            }
        }
    }

    /// Opens the record saved as `name` in `dir`'s records folder. A record that does not
    /// open leaves the list (a damaged one is moved aside, so it is not offered again).
    ///
    /// # Errors
    /// The file is missing or damaged, or its record does not replay.
    pub fn open_file(&mut self, dir: &DataDir, name: &str) -> Result<(), OpenError> {
        let opened = self.read_file(dir, name);
        if opened.is_err() {
            self.files.retain(|e| e.name != name);
        }
        opened
    }

    fn read_file(&mut self, dir: &DataDir, name: &str) -> Result<(), OpenError> {
        let path = dir.records().join(format!("{name}.json"));
        let rec = storage::load_or_move_aside::<GameFile>(&path).map_err(OpenError::Store)?;
        Match::from_saved(&rec, None).map_err(OpenError::Replay)?;
        self.open(rec);
        self.name = Some(name.to_owned());
        self.auditable = crate::lan::record_journal(&path).exists();
        Ok(())
    }

    /// What the player reads about files that did not open, in `lang`.
    pub fn problems(&self, lang: Lang) -> Vec<String> {
        let damaged = self.damaged.iter().map(|e| e.message(lang));
        damaged
            .chain(self.error.iter().map(|e| e.message(lang)))
            .collect()
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
    state.error = None;
    state.list(&dir);
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
    let out = replay_panels(ctx, &mut state, &dir, *lang, *form);
    area.0 = Some(crate::form::board_area(out.board, ctx));
    if out.actions.contains(&ReplayAction::Review)
        && let Some(rec) = state.record.as_ref().filter(|r| r.result.is_some())
    {
        // 复盘 for a finished record: the review screen at the step shown, 返回 leading back.
        review.open(rec.clone(), Screen::Replay);
        review.step = state.step;
        nav.write(Navigate(Screen::Review));
    }
    if let Some(to) = out.nav {
        nav.write(Navigate(to));
    }
    Ok(())
}

/// What the replay screen's panels ask for besides what they change in the state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayAction {
    /// 复盘 the open (finished) record.
    Review,
}

/// Lays out the replay screen's panels for `form` (also used by the layout tests); the board
/// gets what is left.
pub fn replay_panels(
    ctx: &egui::Context,
    state: &mut ReplayState,
    dir: &DataDir,
    lang: Lang,
    form: Form,
) -> super::PanelsOut<ReplayAction> {
    let mut out = super::PanelsOut::default();
    let mut root = theme::root_ui(ctx);
    let frame = theme::panel(12);
    let header = |ui: &mut egui::Ui, out: &mut super::PanelsOut<ReplayAction>| {
        ui.horizontal(|ui| {
            if ui.button(format!("◀ {}", lang.t("menu.back"))).clicked() {
                out.nav = Some(Screen::Title);
            }
            theme::heading(ui, lang.t("replay.title"));
        });
    };
    if form == Form::Portrait {
        // The records in a drop-down above the board, the controls and the log below it.
        let height = root.available_height();
        egui::Panel::top("replay_top")
            .frame(frame.inner_margin(8))
            .show(&mut root, |ui| {
                header(ui, &mut out);
                let current = match (&state.record, &state.name) {
                    (Some(r), Some(name)) => ReplayEntry::of(name, r).label(lang),
                    (Some(r), None) => format_time(r.started),
                    (None, _) if state.files.is_empty() => lang.t("replay.none").to_owned(),
                    (None, _) => lang.t("replay.pick").to_owned(),
                };
                egui::ComboBox::from_id_salt("replay_files")
                    .selected_text(current.replace('\n', " · "))
                    .width(ui.available_width() - 16.0)
                    .show_ui(ui, |ui| file_list(ui, state, dir, lang));
                // A place of its own height: the board stays put when a file fails to open.
                theme::message_slot(ui, "replay_error", 1.0, |ui| {
                    for e in state.problems(lang) {
                        ui.colored_label(theme::palette::WARN, e);
                    }
                });
            });
        egui::Panel::bottom("replay_controls")
            .frame(frame.inner_margin(8))
            .show(&mut root, |ui| {
                controls(ui, state, dir, lang);
                review_button(ui, state, &mut out, lang);
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
                header(ui, &mut out);
                ui.separator();
                theme::message_slot(ui, "replay_error", 3.0, |ui| {
                    for e in state.problems(lang) {
                        ui.colored_label(theme::palette::WARN, e);
                    }
                });
                egui::ScrollArea::vertical().show(ui, |ui| file_list(ui, state, dir, lang));
            });
        egui::Panel::right("replay_controls")
            .exact_size(320.0)
            .resizable(false)
            .frame(frame)
            .show(&mut root, |ui| {
                controls(ui, state, dir, lang);
                review_button(ui, state, &mut out, lang);
                ui.separator();
                if let Some(s) = state.game_match() {
                    super::game_hud::log_view(ui, &s.log, &s.view, lang, f32::INFINITY);
                }
            });
    }
    out.board = root.available_rect_before_wrap();
    out
}

/// 复盘 for a finished record.
fn review_button(
    ui: &mut egui::Ui,
    state: &ReplayState,
    out: &mut super::PanelsOut<ReplayAction>,
    lang: Lang,
) {
    if state.record.as_ref().is_some_and(|r| r.result.is_some())
        && ui.button(lang.t("replay.review")).clicked()
    {
        out.actions.push(ReplayAction::Review);
    }
}

/// The saved records, newest first; a click opens one.
fn file_list(ui: &mut egui::Ui, state: &mut ReplayState, dir: &DataDir, lang: Lang) {
    if state.files.is_empty() {
        ui.weak(lang.t("replay.none"));
    }
    for entry in state.files.clone() {
        let open = state.name.as_deref() == Some(entry.name.as_str());
        if ui.selectable_label(open, entry.label(lang)).clicked() {
            state.error = state.open_file(dir, &entry.name).err();
        }
    }
}

/// The open record's date and result, the step slider and buttons, the audit export.
fn controls(ui: &mut egui::Ui, state: &mut ReplayState, dir: &DataDir, lang: Lang) {
    let Some(rec) = state.record.clone() else {
        // Nothing open: there are no records, or the player has not chosen one yet.
        ui.weak(lang.t(if state.files.is_empty() {
            "replay.none"
        } else {
            "replay.pick"
        }));
        return;
    };
    // In moves as the log numbers them (a draw offer or its answer is no move).
    let steps = ply_steps(&rec.record.actions);
    let plies = steps.len() - 1;
    let mut ply = ply_of(&steps, state.step);
    let before = ply;
    ui.horizontal_wrapped(|ui| {
        ui.label(format_time(rec.started));
        if let Some(r) = &rec.result {
            ui.label(lang.t(reason_key(r)));
        }
    });
    ui.label(format!("{ply} / {plies}"));
    // Across the panel: a finger finds it and moves it in fine steps.
    ui.spacing_mut().slider_width = ui.available_width() - 8.0;
    ui.add(egui::Slider::new(&mut ply, 0..=plies).show_value(false));
    step_buttons(ui, &mut ply, &mut state.playing, plies, lang);
    if ply != before {
        state.step = steps[ply];
    }
    if rec.result.is_some() {
        ui.checkbox(&mut state.full, lang.t("replay.full"));
    }
    if state.auditable && ui.button(lang.t("replay.export")).clicked() {
        state.export_for_audit(dir);
    }
    match &state.export {
        Some(Ok(path)) => {
            ui.label(format!(
                "{}{}{}",
                lang.t("replay.exported"),
                lang.colon(),
                path.display()
            ));
            ui.label(lang.t("replay.audit_cmd"));
            let cmd = format!("junqi-audit {}", path.display());
            ui.add(egui::Label::new(egui::RichText::new(cmd).monospace()).selectable(true));
        }
        Some(Err(e)) => {
            ui.colored_label(
                theme::palette::WARN,
                format!(
                    "{}{}{}",
                    lang.t("replay.export_failed"),
                    lang.colon(),
                    e.message(lang)
                ),
            );
        }
        None => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A damaged record is moved aside when the list is made and reported in the player's
    /// language without a path; a record that disappears after listing leaves the list when
    /// chosen, instead of staying there to fail again.
    #[test]
    fn the_list_offers_only_records_that_open() {
        let root = std::env::temp_dir().join(format!("junqi-replay-list-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let dir = DataDir(root.clone());
        std::fs::create_dir_all(dir.records()).unwrap();
        let saved = crate::demo::demo_match(None, 11)
            .saved()
            .expect("a local game");
        storage::save_json(&dir.records().join("game-1700000000.json"), &saved).unwrap();
        storage::save_json(&dir.records().join("game-1700000100.json"), &saved).unwrap();
        std::fs::write(dir.records().join("game-1700000200.json"), "{ damaged").unwrap();

        let mut state = ReplayState::default();
        state.list(&dir);
        let names: Vec<&str> = state.files.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(
            names,
            ["game-1700000100", "game-1700000000"],
            "newest first"
        );
        let error = state.problems(Lang::Zh).join("\n");
        assert!(error.contains("损坏") && error.contains("game-1700000200.damaged-1.json"));
        assert!(
            !error.contains(&*root.to_string_lossy()),
            "no path: {error}"
        );
        assert!(
            dir.records()
                .join("game-1700000200.damaged-1.json")
                .exists()
        );

        // Each entry says whom the game was against and how it ended.
        let label = state.files[0].label(Lang::Zh);
        assert!(label.contains("电脑"), "{label}");
        assert!(
            ["胜", "负", "和"].iter().any(|w| label.ends_with(w)),
            "{label}"
        );
        assert!(state.files[0].label(Lang::En).contains("Computer"));

        std::fs::remove_file(dir.records().join("game-1700000100.json")).unwrap();
        let err = state.open_file(&dir, "game-1700000100").unwrap_err();
        let err = err.message(Lang::En);
        assert!(err.starts_with(Lang::En.t("err.missing")), "{err}");
        let names: Vec<&str> = state.files.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["game-1700000000"]);
        state.open_file(&dir, "game-1700000000").unwrap();
        assert_eq!(state.len(), saved.record.actions.len());

        // Listed again, nothing damaged is left to report.
        state.error = None;
        state.list(&dir);
        assert!(state.problems(Lang::Zh).is_empty());
        let _ = std::fs::remove_dir_all(&root);
    }
}
