//! The replay viewer: pick a saved game, step through it from the player's view (or the whole
//! board, for finished games).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::{Navigate, Screen, game::scene_of, review::ReviewState};
use crate::{
    board::{BoardArea, BoardScene},
    form::Form,
    i18n::Lang,
    profile::{Outcome, outcome_of},
    redraw::Redraw,
    session::{SavedGame, Session, reason_key},
    settings::Settings,
    storage::{self, DataDir},
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
    pub outcome: Option<Outcome>,
}

impl ReplayEntry {
    /// The entry of the record `rec` saved as `name`.
    pub fn of(name: &str, rec: &SavedGame) -> Self {
        let team = rec.opponent.starts_with("four:");
        Self {
            name: name.to_owned(),
            started: rec.started,
            opponent: rec.opponent.clone(),
            outcome: rec.result.map(|r| outcome_of(r, rec.me, team)),
        }
    }

    /// The list's text: the date, then the opponent and the outcome.
    pub fn label(&self, lang: Lang) -> String {
        let outcome = lang.t(match self.outcome {
            Some(Outcome::Win) => "profile.wins",
            Some(Outcome::Loss) => "profile.losses",
            Some(Outcome::Draw) => "profile.draws",
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
    pub record: Option<SavedGame>,
    /// How many turns are applied.
    pub step: usize,
    /// Show every piece.
    pub full: bool,
    /// Auto-play.
    pub playing: bool,
    /// Seconds since the last auto-play step.
    pub timer: f32,
    /// A load problem.
    pub error: Option<String>,
    /// The open record's file name (without `.json`).
    pub name: Option<String>,
    /// Whether the open record is a LAN game with its signed log kept (it can be exported).
    pub auditable: bool,
    /// The last audit export: the file written, or why it failed.
    pub export: Option<Result<std::path::PathBuf, String>>,
}

impl ReplayState {
    /// Opens a record at its start.
    pub fn open(&mut self, record: SavedGame) {
        self.record = Some(record);
        self.step = 0;
        self.playing = false;
        self.error = None;
        self.name = None;
        self.auditable = false;
        self.export = None;
    }

    /// Lists the saved games of `dir`'s records folder, newest first. A record that cannot be
    /// read is moved aside (kept, never overwritten) and reported in [`Self::error`], so the
    /// list offers only games that open.
    pub fn list(&mut self, dir: &DataDir, lang: Lang) {
        self.files.clear();
        let mut damaged = Vec::new();
        for name in storage::list_names(&dir.records()).into_iter().rev() {
            let path = dir.records().join(format!("{name}.json"));
            match storage::load_or_move_aside::<SavedGame>(&path) {
                Ok(rec) => self.files.push(ReplayEntry::of(&name, &rec)),
                Err(e) => {
                    warn!("{e}");
                    damaged.push(e.message(lang));
                }
            }
        }
        if !damaged.is_empty() {
            self.error = Some(damaged.join("\n"));
        }
    }

    /// Opens the record saved as `name` in `dir`'s records folder. A record that does not
    /// open leaves the list (a damaged one is moved aside, so it is not offered again).
    ///
    /// # Errors
    /// The file is missing or damaged, or its record does not replay: what the player reads.
    pub fn open_file(&mut self, dir: &DataDir, name: &str, lang: Lang) -> Result<(), String> {
        let opened = self.read_file(dir, name, lang);
        if opened.is_err() {
            self.files.retain(|e| e.name != name);
        }
        opened
    }

    fn read_file(&mut self, dir: &DataDir, name: &str, lang: Lang) -> Result<(), String> {
        let path = dir.records().join(format!("{name}.json"));
        let rec = storage::load_or_move_aside::<SavedGame>(&path).map_err(|e| {
            warn!("{e}");
            e.message(lang)
        })?;
        if Session::from_saved(&rec, None).is_err() {
            return Err(lang.t("err.corrupt").to_owned());
        }
        self.open(rec);
        self.name = Some(name.to_owned());
        self.auditable = crate::lan::record_journal(&path).exists();
        Ok(())
    }

    /// Exports the open record's signed log for a third party's audit.
    pub fn export_for_audit(&mut self, dir: &DataDir) {
        let Some(name) = &self.name else { return };
        let record = dir.records().join(format!("{name}.json"));
        self.export = Some(crate::lan::export_for_audit(dir, &record).map_err(|e| e.to_string()));
    }

    /// The session after `step` actions.
    pub fn session(&self) -> Option<Session> {
        Session::from_saved(self.record.as_ref()?, Some(self.step)).ok()
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

fn enter(mut state: ResMut<ReplayState>, dir: Res<DataDir>, lang: Res<Lang>) {
    state.error = None;
    state.list(&dir, *lang);
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
        redraw.within(super::replay::until_next_step(s.timer));
    }
}

/// Seconds between two steps of 播放.
const STEP_SECS: f32 = 0.8;

/// The time until 播放's next step, `timer` seconds after the last.
pub(super) fn until_next_step(timer: f32) -> std::time::Duration {
    std::time::Duration::from_secs_f32((STEP_SECS - timer).max(0.0) + 0.01)
}

/// 播放: one step every [`STEP_SECS`] while `playing`, stopping at the end (`n` steps).
pub(super) fn autoplay_step(
    step: &mut usize,
    playing: &mut bool,
    timer: &mut f32,
    dt: f32,
    n: usize,
) {
    if !*playing {
        return;
    }
    *timer += dt;
    if *timer > STEP_SECS {
        *timer = 0.0;
        if *step < n {
            *step += 1;
        } else {
            *playing = false;
        }
    }
}

/// For a record's `actions`, how many are applied after each ply: entry `p` is the position
/// right after the `p`-th move or timeout (the log's move numbers; a draw offer, its answer or
/// a resignation is no ply), entry 0 the start; the last ply's entry is the record's end, so
/// that a resignation or an agreed draw after it is shown there.
pub fn ply_steps(actions: &[(junqi_game::Side, junqi_game::Action)]) -> Vec<usize> {
    use junqi_game::Action;
    let mut steps = vec![0];
    for (i, (_, a)) in actions.iter().enumerate() {
        if matches!(a, Action::Move(_) | Action::Timeout) {
            steps.push(i + 1);
        }
    }
    if let Some(last) = steps.last_mut()
        && *last != 0
    {
        *last = actions.len();
    }
    steps
}

/// The ply shown after `step` actions: the last entry of `steps` at or before it.
pub fn ply_of(steps: &[usize], step: usize) -> usize {
    steps.partition_point(|&s| s <= step).saturating_sub(1)
}

/// 开始 上一步 播放/暂停 下一步 结尾, over `n` steps.
pub(super) fn step_buttons(
    ui: &mut egui::Ui,
    step: &mut usize,
    playing: &mut bool,
    n: usize,
    lang: Lang,
) {
    ui.horizontal_wrapped(|ui| {
        if ui.button(lang.t("replay.first")).clicked() {
            *step = 0;
        }
        if ui.button(lang.t("replay.prev")).clicked() {
            *step = step.saturating_sub(1);
        }
        let play = if *playing {
            "replay.pause"
        } else {
            "replay.play"
        };
        if ui.button(lang.t(play)).clicked() {
            *playing = !*playing;
        }
        if ui.button(lang.t("replay.next")).clicked() {
            *step = (*step + 1).min(n);
        }
        if ui.button(lang.t("replay.last")).clicked() {
            *step = n;
        }
    });
}

fn show(state: Res<ReplayState>, settings: Res<Settings>, mut scene: ResMut<BoardScene>) {
    if !state.is_changed() && !settings.is_changed() {
        return;
    }
    let new = match state.session() {
        Some(s) => scene_of(&s, &settings, state.full),
        None => BoardScene::default(),
    };
    if *scene != new {
        *scene = new;
    }
}

/// A date and time (UTC) from seconds since 1970.
pub fn format_time(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Civil from days (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}",
        rem / 3600,
        rem % 3600 / 60
    )
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
                theme::message_slot(ui, "replay_error", 2.0, |ui| {
                    if let Some(e) = &state.error {
                        ui.colored_label(theme::palette::WARN, e);
                    }
                });
            });
        egui::Panel::bottom("replay_controls")
            .frame(frame.inner_margin(8))
            .show(&mut root, |ui| {
                controls(ui, state, dir, lang);
                review_button(ui, state, &mut out, lang);
                if let Some(s) = state.session() {
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
                    if let Some(e) = &state.error {
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
                if let Some(s) = state.session() {
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
            state.error = state.open_file(dir, &entry.name, lang).err();
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
        ui.label(format!("{ply} / {plies}"));
    });
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
            ui.label(format!("{}：{}", lang.t("replay.exported"), path.display()));
            ui.label(lang.t("replay.audit_cmd"));
            let cmd = format!("junqi-audit {}", path.display());
            ui.add(egui::Label::new(egui::RichText::new(cmd).monospace()).selectable(true));
        }
        Some(Err(e)) => {
            ui.colored_label(
                theme::palette::WARN,
                format!("{}：{e}", lang.t("replay.export_failed")),
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
        let saved = crate::demo::demo_session(None, 11)
            .saved()
            .expect("a local game");
        storage::save_json(&dir.records().join("game-1700000000.json"), &saved).unwrap();
        storage::save_json(&dir.records().join("game-1700000100.json"), &saved).unwrap();
        std::fs::write(dir.records().join("game-1700000200.json"), "{ damaged").unwrap();

        let mut state = ReplayState::default();
        state.list(&dir, Lang::Zh);
        let names: Vec<&str> = state.files.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(
            names,
            ["game-1700000100", "game-1700000000"],
            "newest first"
        );
        let error = state.error.clone().expect("the damaged record is reported");
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
        let err = state
            .open_file(&dir, "game-1700000100", Lang::En)
            .unwrap_err();
        assert_eq!(err, Lang::En.t("err.missing"));
        let names: Vec<&str> = state.files.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["game-1700000000"]);
        state.open_file(&dir, "game-1700000000", Lang::Zh).unwrap();
        assert_eq!(state.len(), saved.record.actions.len());

        // Listed again, nothing damaged is left to report.
        state.error = None;
        state.list(&dir, Lang::Zh);
        assert_eq!(state.error, None);
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn formats_dates() {
        assert_eq!(format_time(0), "1970-01-01 00:00");
        assert_eq!(format_time(1_764_513_000), "2025-11-30 14:30");
    }
}
