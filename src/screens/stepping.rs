//! Stepping through a saved game, shared by the replay viewer and the review: the step
//! buttons, 播放's auto-play, and the record's date.

use bevy_egui::egui;

use crate::i18n::Lang;

/// Seconds between two steps of 播放.
pub const STEP_SECS: f32 = 0.8;

/// The time until 播放's next step, `timer` seconds after the last.
pub fn until_next_step(timer: f32) -> std::time::Duration {
    std::time::Duration::from_secs_f32((STEP_SECS - timer).max(0.0) + 0.01)
}

/// 播放: one step every [`STEP_SECS`] while `playing`, stopping at the end (`n` steps).
pub fn autoplay_step(step: &mut usize, playing: &mut bool, timer: &mut f32, dt: f32, n: usize) {
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
pub fn step_buttons(ui: &mut egui::Ui, step: &mut usize, playing: &mut bool, n: usize, lang: Lang) {
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

#[cfg(test)]
mod tests {
    #[test]
    fn formats_dates() {
        assert_eq!(super::format_time(0), "1970-01-01 00:00");
        assert_eq!(super::format_time(1_764_513_000), "2025-11-30 14:30");
    }
}
