//! The progress line of long runs (the benches, the arena, tuning, fuzzing): the work done
//! out of the total, a score or the stage, the rate and the time left, redrawn in place on
//! standard error.
//!
//! It is drawn only when standard error and standard output are both terminals and the run
//! is not quiet (`--json`): a pipe, a file or a script reading the output gets nothing extra.
//! Long runs call it from their workers, so every method takes `&self` and is cheap (the line
//! is redrawn at most 20 times a second); a silent line does nothing.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::IsTerminal as _;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

/// A progress line on standard error, or nothing (see the module's documentation).
#[derive(Debug)]
pub struct Progress {
    bar: Option<ProgressBar>,
}

/// Whether a progress line may be drawn: both standard error (where it goes) and standard
/// output (what the user reads) are terminals.
pub fn on_terminal() -> bool {
    std::io::stderr().is_terminal() && std::io::stdout().is_terminal()
}

impl Progress {
    /// A line for `total` steps counted in `unit` (`"games"`, `"battles"`), labelled `label`:
    /// `label [=====>    ] 57/200 games NOTE 3.2/s, 45s left`, the bar as wide as the
    /// terminal allows. Silent when `quiet` (e.g. `--json`) or not on a terminal.
    pub fn new(label: &str, total: u64, unit: &str, quiet: bool) -> Progress {
        if quiet || !on_terminal() {
            return Progress::hidden();
        }
        Progress {
            bar: Some(counting_bar(label, total, unit)),
        }
    }

    /// A line for work bounded by time rather than by count (a bench's measuring rounds):
    /// `label [=====>    ] 2.1/4.5 s  NOTE`. It moves with the clock, redrawn from a thread
    /// of its own, so the measured loops never call it.
    pub fn timed(label: &str, total: Duration, quiet: bool) -> Progress {
        if quiet || !on_terminal() {
            return Progress::hidden();
        }
        let total_s = total.as_secs_f64();
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr())
            .with_prefix(label.to_string())
            .with_style(
                style(TIMED)
                    .with_key(
                        "clock_bar",
                        move |s: &ProgressState, w: &mut dyn std::fmt::Write| {
                            let _ = w.write_str(&clock_bar(
                                s.elapsed().as_secs_f64() / total_s,
                                CLOCK_BAR,
                            ));
                        },
                    )
                    .with_key(
                        "seconds",
                        |s: &ProgressState, w: &mut dyn std::fmt::Write| {
                            let _ = write!(w, "{:.1}", s.elapsed().as_secs_f64());
                        },
                    )
                    .with_key(
                        "total_seconds",
                        move |_: &ProgressState, w: &mut dyn std::fmt::Write| {
                            let _ = write!(w, "{total_s:.1}");
                        },
                    ),
            );
        bar.enable_steady_tick(Duration::from_millis(100));
        Progress { bar: Some(bar) }
    }

    /// A line that never draws.
    pub fn hidden() -> Progress {
        Progress { bar: None }
    }

    /// Whether the line is drawn.
    pub fn is_shown(&self) -> bool {
        self.bar.is_some()
    }

    /// `steps` more steps done.
    pub fn inc(&self, steps: u64) {
        if let Some(bar) = &self.bar {
            bar.inc(steps);
        }
    }

    /// `steps` steps done in all.
    pub fn set_done(&self, steps: u64) {
        if let Some(bar) = &self.bar {
            bar.set_position(steps);
        }
    }

    /// What the line shows after the count: a score, the stage, a figure so far.
    pub fn note(&self, text: impl Into<Cow<'static, str>>) {
        if let Some(bar) = &self.bar {
            bar.set_message(text);
        }
    }

    /// Shows a score from the first player's view: `+W =D -L (P%)`, P the points (a win 1,
    /// a draw ½) over the games played.
    pub fn score(&self, wins: u64, draws: u64, losses: u64) {
        if self.bar.is_some() {
            self.note(score_text(wins, draws, losses));
        }
    }

    /// Starts the next stage on the same line: a new label, total and unit; the count, the
    /// rate and the time left start again.
    pub fn stage(&mut self, label: &str, total: u64, unit: &str) {
        // A new bar, made whole before it draws: changing the old one piece by piece could
        // draw a mix of the two stages.
        if let Some(old) = self.bar.take() {
            old.finish_and_clear();
            let bar = counting_bar(label, total, unit);
            bar.tick();
            self.bar = Some(bar);
        }
    }

    /// Runs `f`, which writes to the terminal (a result line of a long run), with the line
    /// cleared, then redraws the line below what `f` wrote.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.bar {
            Some(bar) => bar.suspend(f),
            None => f(),
        }
    }

    /// Clears the line (also done when the `Progress` is dropped), so that what the run
    /// prints next starts on a clean line.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

/// `+W =D -L (P%)`: wins, draws and losses of the first player, and its points (a win 1, a
/// draw ½) in per cent of the games played.
pub fn score_text(wins: u64, draws: u64, losses: u64) -> String {
    let games = wins + draws + losses;
    let mut text = format!("+{wins} ={draws} -{losses}");
    if games > 0 {
        let points = wins as f64 + draws as f64 / 2.0;
        let _ = write!(text, " ({:.1}%)", 100.0 * points / games as f64);
    }
    text
}

/// A [`Progress::new`] line on standard error, not drawn yet.
fn counting_bar(label: &str, total: u64, unit: &str) -> ProgressBar {
    let rate = |s: &ProgressState, w: &mut dyn std::fmt::Write| {
        let r = s.per_sec();
        let _ = if r >= 100.0 {
            write!(w, "{r:.0}")
        } else {
            write!(w, "{r:.1}")
        };
    };
    ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
        .with_style(style(&counting(unit)).with_key("rate", rate))
        .with_prefix(label.to_string())
}

/// The template of a [`Progress::new`] line counting `unit`s.
fn counting(unit: &str) -> String {
    // The unit is text in the template: braces would read as keys.
    let unit: String = unit.chars().filter(|c| !matches!(c, '{' | '}')).collect();
    format!("{{prefix}} [{{wide_bar}}] {{pos}}/{{len}} {unit} {{msg}} {{rate}}/s, {{eta}} left")
}

/// The template of a [`Progress::timed`] line.
const TIMED: &str = "{prefix} [{clock_bar}] {seconds}/{total_seconds} s  {msg}";

/// The width of a [`Progress::timed`] line's bar: the line fits 80 columns.
const CLOCK_BAR: usize = 24;

/// A bar `width` characters wide, `fraction` of it (clamped to 0…1) filled: `===>      `.
fn clock_bar(fraction: f64, width: usize) -> String {
    let filled = ((fraction.clamp(0.0, 1.0) * width as f64) as usize).min(width);
    let mut bar = "=".repeat(filled);
    if filled < width {
        bar.push('>');
        bar.push_str(&" ".repeat(width - filled - 1));
    }
    bar
}

/// A style from one of this module's templates, which are known to parse.
fn style(template: &str) -> ProgressStyle {
    ProgressStyle::with_template(template)
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_score_counts_a_draw_as_half_a_point() {
        assert_eq!(score_text(0, 0, 0), "+0 =0 -0");
        assert_eq!(score_text(3, 2, 5), "+3 =2 -5 (40.0%)");
        assert_eq!(score_text(1, 1, 0), "+1 =1 -0 (75.0%)");
    }

    #[test]
    fn a_quiet_line_draws_nothing_and_takes_every_call() {
        for mut p in [
            Progress::new("arena", 10, "games", true),
            Progress::timed("bench", Duration::from_secs(3), true),
            Progress::hidden(),
        ] {
            assert!(!p.is_shown());
            p.inc(3);
            p.score(1, 1, 1);
            p.stage("next", 5, "inputs");
            assert_eq!(p.suspend(|| 7), 7);
            p.finish();
        }
    }

    #[test]
    fn the_clock_bar_fills_with_time_and_keeps_its_width() {
        assert_eq!(clock_bar(0.0, 5), ">    ");
        assert_eq!(clock_bar(0.5, 6), "===>  ");
        assert_eq!(clock_bar(1.0, 5), "=====");
        assert_eq!(clock_bar(7.0, 5), "=====");
        assert_eq!(clock_bar(f64::NAN, 5).chars().count(), 5);
    }

    #[test]
    fn every_template_parses() {
        for unit in ["games", "battles", "odd {unit} }{"] {
            let t = counting(unit);
            assert!(ProgressStyle::with_template(&t).is_ok(), "{t}");
            assert!(t.contains("} games {") || !unit.starts_with('g'), "{t}");
        }
        assert!(ProgressStyle::with_template(TIMED).is_ok());
    }
}
