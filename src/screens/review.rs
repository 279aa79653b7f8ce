//! 复盘, the post-game review: a finished record stepped through with both armies on the board,
//! the evaluation curve of each side from its own view (the engine's `ai::review`, computed on
//! the async compute pool while a spinner shows), the largest losses marked as mistakes with
//! the move the AI would have played and why. Opened from the game-over screen and from the
//! replay screen.

use std::sync::{
    Arc,
    atomic::{AtomicUsize, Ordering},
};

use bevy::{
    prelude::*,
    tasks::{AsyncComputeTaskPool, Task, block_on, futures_lite::future},
};
use bevy_egui::{EguiContexts, egui};
use junqi_game::{
    Move, SetupError, Side,
    ai::review::{MoveReview, Review, ReviewParams, review},
};

use super::{
    Navigate, Screen,
    game::{colour_of, scene_of},
    stepping::format_time,
};
use crate::{
    board::{BoardArea, BoardScene},
    form::Form,
    game_match::{GameFile, Match, reason_key, record_error_text, seat_key},
    i18n::Lang,
    redraw::Redraw,
    settings::Settings,
    theme,
};

/// The review being computed.
struct Job {
    task: Task<Result<Review, SetupError>>,
    /// Actions reviewed so far (written by the task).
    done: Arc<AtomicUsize>,
}

/// The review screen's state.
#[derive(Resource, Default)]
pub struct ReviewState {
    /// The record under review.
    pub record: Option<GameFile>,
    /// How many actions are applied on the board.
    pub step: usize,
    /// Where 返回 goes.
    pub back: Screen,
    /// Auto-play.
    pub playing: bool,
    /// Seconds since the last auto-play step.
    pub timer: f32,
    /// The finished review, or why it failed.
    pub review: Option<Result<Review, SetupError>>,
    job: Option<Job>,
    /// The record's board and whether it is a four-player team game (for names and colours).
    table: Option<(&'static junqi_game::Board, bool)>,
}

impl ReviewState {
    /// Opens `saved` for review at its start; 返回 leads to `back`. The review of the same
    /// record is kept (not computed again).
    pub fn open(&mut self, saved: GameFile, back: Screen) {
        let same = self
            .record
            .as_ref()
            .is_some_and(|r| r.record == saved.record);
        if !same {
            self.review = None;
            self.job = None;
        }
        self.table = junqi_game::Game::replay(&saved.record, Some(0))
            .ok()
            .map(|g| (g.position().board(), g.position().is_team_game()));
        self.record = Some(saved);
        self.step = 0;
        self.back = back;
        self.playing = false;
    }

    /// Whether the review is being computed.
    pub fn computing(&self) -> bool {
        self.job.is_some()
    }

    /// Actions reviewed so far while computing.
    pub fn progress(&self) -> usize {
        self.job
            .as_ref()
            .map_or(0, |j| j.done.load(Ordering::Relaxed))
    }

    /// Number of actions in the record.
    pub fn len(&self) -> usize {
        self.record.as_ref().map_or(0, |r| r.record.actions.len())
    }

    /// Whether no record is open.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The match after `step` actions.
    pub fn game_match(&self) -> Option<Match> {
        Match::from_saved(self.record.as_ref()?, Some(self.step)).ok()
    }

    /// The actions applied after each ply (see [`super::stepping::ply_steps`]).
    pub fn ply_steps(&self) -> Vec<usize> {
        let actions = self.record.as_ref().map(|r| r.record.actions.as_slice());
        super::stepping::ply_steps(actions.unwrap_or_default())
    }

    /// The move number the log gives the move of action `action`.
    pub fn ply_of_action(&self, action: usize) -> usize {
        super::stepping::ply_of(&self.ply_steps(), action + 1)
    }

    /// The computed review.
    pub fn done(&self) -> Option<&Review> {
        self.review.as_ref()?.as_ref().ok()
    }

    /// The judged move that led to the position shown, if any.
    pub fn current_move(&self) -> Option<&MoveReview> {
        let action = self.step.checked_sub(1)?;
        self.done()?.moves.iter().find(|m| m.action == action)
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ReviewState>()
        .add_systems(OnEnter(Screen::Review), start)
        .add_systems(
            OnExit(Screen::Review),
            |mut s: ResMut<BoardScene>, mut state: ResMut<ReviewState>| {
                *s = BoardScene::default();
                // Dropping the task cancels it: nobody waits for it any more.
                state.job = None;
            },
        )
        .add_systems(
            Update,
            (poll, autoplay, show)
                .chain()
                .run_if(in_state(Screen::Review)),
        );
    super::add_ui(app, Screen::Review, ui);
}

/// Starts computing the review of the open record, unless it is there already.
fn start(mut state: ResMut<ReviewState>) {
    if state.review.is_some() || state.job.is_some() {
        return;
    }
    let Some(saved) = state.record.clone() else {
        return;
    };
    let done = Arc::new(AtomicUsize::new(0));
    let counter = done.clone();
    let task = AsyncComputeTaskPool::get().spawn(async move {
        // Seeded by the game's start: the same record always gets the same review.
        review(
            &saved.record,
            &ReviewParams::default(),
            saved.started,
            &|d, _| counter.store(d, Ordering::Relaxed),
        )
    });
    state.job = Some(Job { task, done });
}

fn poll(mut state: ResMut<ReviewState>) {
    let Some(job) = state.bypass_change_detection().job.as_mut() else {
        return;
    };
    if !job.task.is_finished() {
        return;
    }
    if let Some(result) = block_on(future::poll_once(&mut job.task)) {
        state.job = None;
        state.review = Some(result);
    }
}

fn autoplay(mut state: ResMut<ReviewState>, time: Res<Time>, mut redraw: ResMut<Redraw>) {
    // Not touched while paused: the board is redrawn only when the state changes.
    if !state.playing {
        return;
    }
    let n = state.len();
    let s = &mut *state;
    super::stepping::autoplay_step(
        &mut s.step,
        &mut s.playing,
        &mut s.timer,
        time.delta_secs(),
        n,
    );
    if s.playing {
        redraw.within(super::stepping::until_next_step(s.timer));
    }
}

/// The board after `step` actions with every piece shown, and where the shown move was a
/// mistake, the AI's move instead.
fn show(state: Res<ReviewState>, settings: Res<Settings>, mut scene: ResMut<BoardScene>) {
    if !state.is_changed() && !settings.is_changed() {
        return;
    }
    let mut new = match state.game_match() {
        Some(s) => scene_of(&s, &settings, true),
        None => BoardScene::default(),
    };
    if let Some(m) = state.current_move().filter(|m| is_mistake(m))
        && let Move::Step { from, to } = m.best.mv
    {
        new.hint = vec![from, to];
    }
    if *scene != new {
        *scene = new;
    }
}

/// Whether a move lost enough to count as a mistake.
fn is_mistake(m: &MoveReview) -> bool {
    m.loss >= ReviewParams::default().min_loss && m.best.mv != m.played
}

/// A move's name on the board (`S31→S41`, or the point turned over).
fn move_name(mv: Move, board: &junqi_game::Board, lang: Lang) -> String {
    match mv {
        Move::Step { from, to } => format!("{}→{}", board.name_of(from), board.name_of(to)),
        Move::Flip { at } => lang.tr(
            "review.flip",
            &[("at", board.name_of(at).to_string().into())],
        ),
    }
}

/// The seats whose evaluation the curve shows, and whether each is on the player's team.
fn seats(four: bool, me: Side) -> Vec<(Side, bool)> {
    let all: &[Side] = if four { &Side::FOUR } else { &Side::TWO };
    all.iter()
        .map(|&s| (s, if four { s.team() == me.team() } else { s == me }))
        .collect()
}

/// Squashes an evaluation to −1…1: a piece's worth is visible, a won game is at the edge.
fn squash(v: f32) -> f32 {
    (v / 1500.0).tanh()
}

#[allow(clippy::too_many_arguments)]
fn ui(
    mut contexts: EguiContexts,
    lang: Res<Lang>,
    form: Res<Form>,
    settings: Res<Settings>,
    mut state: ResMut<ReviewState>,
    mut area: ResMut<BoardArea>,
    mut nav: MessageWriter<Navigate>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let out = review_panels(ctx, &mut state, &settings, *lang, *form);
    area.0 = Some(crate::form::board_area(out.board, ctx));
    if let Some(to) = out.nav {
        nav.write(Navigate(to));
    }
    Ok(())
}

/// Lays out the review screen's panels for `form` (also used by the layout tests); the board
/// gets what is left.
pub fn review_panels(
    ctx: &egui::Context,
    state: &mut ReviewState,
    settings: &Settings,
    lang: Lang,
    form: Form,
) -> super::PanelsOut<()> {
    let mut out = super::PanelsOut::default();
    let mut root = theme::root_ui(ctx);
    let frame = theme::panel(12);
    let back = state.back;
    let header = |ui: &mut egui::Ui, out: &mut super::PanelsOut<()>| {
        ui.horizontal(|ui| {
            if ui.button(format!("◀ {}", lang.t("menu.back"))).clicked() {
                out.nav = Some(back);
            }
            theme::heading(ui, lang.t("review.title"));
        });
    };
    if form == Form::Portrait {
        // The curve above the board; the controls, the move shown and the mistakes below it,
        // each in a place of fixed height, so that the board keeps its size whatever move is
        // shown and once the mistakes are found.
        egui::Panel::top("review_top")
            .resizable(false)
            .frame(frame.inner_margin(8))
            .show(&mut root, |ui| {
                header(ui, &mut out);
                summary(ui, state, lang);
                curve_ui(ui, state, settings, lang, 84.0, false);
            });
        egui::Panel::bottom("review_bottom")
            .resizable(false)
            .frame(frame.inner_margin(8))
            .show(&mut root, |ui| {
                controls(ui, state, lang);
                theme::message_slot(ui, "review_current", 2.0, |ui| current_ui(ui, state, lang));
                theme::message_slot(ui, "review_mistakes", 3.0, |ui| {
                    mistakes_ui(ui, state, lang, false)
                });
            });
    } else {
        egui::Panel::left("review_left")
            .exact_size(330.0)
            .resizable(false)
            .frame(frame)
            .show(&mut root, |ui| {
                header(ui, &mut out);
                ui.separator();
                summary(ui, state, lang);
                curve_ui(ui, state, settings, lang, 190.0, true);
                ui.separator();
                mistakes_ui(ui, state, lang, true);
            });
        egui::Panel::right("review_right")
            .exact_size(320.0)
            .resizable(false)
            .frame(frame)
            .show(&mut root, |ui| {
                controls(ui, state, lang);
                ui.separator();
                theme::message_slot(ui, "review_current", 3.0, |ui| current_ui(ui, state, lang));
                ui.separator();
                if let Some(s) = state.game_match() {
                    super::game_hud::log_view(ui, &s.log, &s.view, lang, f32::INFINITY);
                }
            });
    }
    out.board = root.available_rect_before_wrap();
    out
}

/// The record's date and result.
fn summary(ui: &mut egui::Ui, state: &ReviewState, lang: Lang) {
    let Some(rec) = &state.record else {
        ui.weak(lang.t("replay.none"));
        return;
    };
    ui.horizontal_wrapped(|ui| {
        ui.label(format_time(rec.started));
        if let Some(r) = &rec.result {
            ui.label(lang.t(reason_key(r)));
        }
    });
}

/// The evaluation curve of every seat (up: good for the player's team), the shown position as
/// a line, the mistakes as dots on their mover's curve; a click or a drag moves the board there.
/// The explanation below it only with `explain` (in portrait it is the curve's tooltip).
fn curve_ui(
    ui: &mut egui::Ui,
    state: &mut ReviewState,
    settings: &Settings,
    lang: Lang,
    height: f32,
    explain: bool,
) {
    let failed = state
        .review
        .as_ref()
        .and_then(|r| r.as_ref().err())
        .cloned();
    if let Some(e) = failed {
        ui.colored_label(
            theme::palette::WARN,
            format!(
                "{}{}{}",
                lang.t("review.failed"),
                lang.colon(),
                record_error_text(&e, lang)
            ),
        );
        return;
    }
    let Some(rec) = state.record.clone() else {
        return;
    };
    let Some(review) = state.done().cloned() else {
        // Computing (or about to start): a spinner where the curve will be.
        ui.allocate_ui(egui::vec2(ui.available_width(), height), |ui| {
            ui.set_min_height(height);
            ui.centered_and_justified(|ui| {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label(format!(
                        "{} {}/{}",
                        lang.t("review.computing"),
                        state.progress(),
                        state.len()
                    ));
                });
            });
        });
        return;
    };
    let me = rec.me;
    let four = state.table.is_some_and(|t| t.1);
    let n = review.curve.len().saturating_sub(1).max(1);
    let (resp, painter) = ui.allocate_painter(
        egui::vec2(ui.available_width(), height),
        egui::Sense::click_and_drag(),
    );
    let r = resp.rect;
    painter.rect_filled(r, 4.0, egui::Color32::from_rgb(24, 20, 18));
    let x = |k: usize| r.left() + 4.0 + (r.width() - 8.0) * k as f32 / n as f32;
    let y = |v: f32| r.center().y - (r.height() / 2.0 - 6.0) * squash(v);
    painter.hline(
        r.x_range(),
        r.center().y,
        egui::Stroke::new(1.0, egui::Color32::from_gray(80)),
    );
    let colour = |s: Side| {
        let [cr, cg, cb] = colour_of(s, me, four, settings).rgb();
        egui::Color32::from_rgb(cr, cg, cb).gamma_multiply(1.6)
    };
    // Each seat's own evaluation, turned to the player's team's point of view.
    let value = |k: usize, s: Side, ours: bool| {
        review.curve[k].eval[s.index()].map(|v| if ours { v } else { -v })
    };
    for (s, ours) in seats(four, me) {
        let pts: Vec<egui::Pos2> = (0..review.curve.len())
            .filter_map(|k| value(k, s, ours).map(|v| egui::pos2(x(k), y(v))))
            .collect();
        painter.add(egui::Shape::line(pts, egui::Stroke::new(2.0, colour(s))));
    }
    painter.vline(
        x(state.step.min(n)),
        r.y_range(),
        egui::Stroke::new(1.5, egui::Color32::from_gray(230)),
    );
    for m in review.mistakes() {
        let ours = seats(four, me)
            .into_iter()
            .find(|&(s, _)| s == m.side)
            .is_some_and(|(_, o)| o);
        let k = m.action + 1;
        if let Some(v) = value(k, m.side, ours).or_else(|| value(m.action, m.side, ours)) {
            let p = egui::pos2(x(k), y(v));
            painter.circle_filled(p, 5.0, theme::palette::WARN);
            painter.circle_stroke(p, 5.0, egui::Stroke::new(1.0, egui::Color32::BLACK));
        }
    }
    let resp = if explain {
        resp
    } else {
        resp.on_hover_text(lang.t("review.curve"))
    };
    if let Some(p) = resp.interact_pointer_pos() {
        let k = ((p.x - r.left() - 4.0) / (r.width() - 8.0) * n as f32).round();
        state.step = (k.max(0.0) as usize).min(state.len());
        state.playing = false;
    }
    ui.horizontal_wrapped(|ui| {
        for (s, _) in seats(four, me) {
            if review.curve.iter().all(|p| p.eval[s.index()].is_none()) {
                continue;
            }
            let (dot, _) = ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
            ui.painter().rect_filled(dot, 2.0, colour(s));
            let who = lang.t(seat_key(s, me, four, rec.record.rules.clockwise));
            let label = lang.tr(
                "review.view_of",
                &[
                    ("seat", crate::game_match::person(s, me)),
                    ("who", who.into()),
                ],
            );
            ui.label(label);
        }
    });
    if explain {
        ui.weak(lang.t("review.curve"));
    }
}

/// The move counter, slider and buttons, in moves as the log numbers them (a draw offer or
/// its answer is no move).
fn controls(ui: &mut egui::Ui, state: &mut ReviewState, lang: Lang) {
    let steps = state.ply_steps();
    let n = steps.len() - 1;
    let mut ply = super::stepping::ply_of(&steps, state.step);
    let before = ply;
    ui.horizontal(|ui| {
        ui.label(format!("{ply} / {n}"));
        ui.spacing_mut().slider_width = (ui.available_width() - 8.0).max(80.0);
        ui.add(egui::Slider::new(&mut ply, 0..=n).show_value(false));
    });
    super::stepping::step_buttons(ui, &mut ply, &mut state.playing, n, lang);
    if ply != before {
        state.step = steps[ply];
    }
}

/// The move that led to the position shown: who played what, and the AI's move and reason if
/// it would have played another.
fn current_ui(ui: &mut egui::Ui, state: &ReviewState, lang: Lang) {
    let (Some(rec), Some(m)) = (&state.record, state.current_move()) else {
        return;
    };
    let Some((board, four)) = state.table else {
        return;
    };
    let who = lang.t(seat_key(m.side, rec.me, four, rec.record.rules.clockwise));
    ui.horizontal_wrapped(|ui| {
        ui.label(lang.tr("review.ply", &[("n", state.ply_of_action(m.action).into())]));
        ui.label(format!("{who} {}", move_name(m.played, board, lang)));
        if is_mistake(m) {
            ui.colored_label(theme::palette::WARN, lang.t("review.mistake"));
        } else {
            ui.colored_label(theme::palette::OK, lang.t("review.good"));
        }
    });
    if is_mistake(m) {
        // The reason names the computer's move itself.
        let sep = lang.colon();
        ui.add(egui::Label::new(format!("{}{sep}{}", lang.t("review.ai"), reason(m, lang))).wrap());
    }
}

/// The AI's one-line reason in the UI language.
fn reason(m: &MoveReview, lang: Lang) -> String {
    crate::game_text::hint_text(&m.best, lang)
}

/// The marked mistakes in game order; a click shows the position after one, the AI's move
/// drawn as a hint. In full (`detail`) each with both moves and the reason; else (portrait) a
/// row of buttons by move number and mover, the move on the board telling the rest.
fn mistakes_ui(ui: &mut egui::Ui, state: &mut ReviewState, lang: Lang, detail: bool) {
    let Some(review) = state.done().cloned() else {
        return;
    };
    let Some(rec) = state.record.clone() else {
        return;
    };
    ui.label(egui::RichText::new(lang.t("review.mistakes")).strong());
    if review.mistakes.is_empty() {
        ui.weak(lang.t("review.no_mistakes"));
        return;
    }
    let Some((board, four)) = state.table else {
        return;
    };
    let mut order: Vec<&MoveReview> = review.mistakes().collect();
    order.sort_by_key(|m| m.action);
    let mut row = |ui: &mut egui::Ui, m: &MoveReview| {
        let who = lang.t(seat_key(m.side, rec.me, four, rec.record.rules.clockwise));
        let ply = lang.tr("review.ply", &[("n", state.ply_of_action(m.action).into())]);
        let text = if detail {
            format!(
                "{ply} {who} {} · {} {}",
                move_name(m.played, board, lang),
                lang.t("review.ai"),
                move_name(m.best.mv, board, lang),
            )
        } else {
            format!("{} {who}", ply.trim_end_matches(':'))
        };
        let selected = state.step == m.action + 1;
        if ui.selectable_label(selected, text).clicked() {
            state.step = m.action + 1;
            state.playing = false;
        }
        if detail {
            ui.add(egui::Label::new(egui::RichText::new(reason(m, lang)).weak().size(14.0)).wrap());
        }
    };
    if detail {
        egui::ScrollArea::vertical()
            .auto_shrink([false, true])
            .show(ui, |ui| order.iter().for_each(|m| row(ui, m)));
    } else {
        ui.horizontal_wrapped(|ui| order.iter().for_each(|m| row(ui, m)));
    }
}
