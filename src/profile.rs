//! The local profile: results against each opponent and the rating level names of the rule book.

use std::collections::BTreeMap;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use junqi_game::{GameResult, Side};

use crate::{
    game_match::{GameFile, Match},
    i18n::Lang,
    storage::{self, DataDir},
};

/// Rating levels by cumulative score: `(score, key of its name)`.
pub const LEVELS: &[(i32, &str)] = &[
    (0, "rating.private"),
    (10, "rating.vice_squad"),
    (20, "rating.squad"),
    (30, "rating.vice_platoon"),
    (50, "rating.platoon"),
    (100, "rating.vice_company"),
    (150, "rating.company"),
    (220, "rating.vice_battalion"),
    (350, "rating.battalion"),
    (500, "rating.vice_regiment"),
    (750, "rating.regiment"),
    (1000, "rating.vice_brigade"),
    (1550, "rating.brigade"),
    (2150, "rating.vice_division"),
    (3150, "rating.division"),
    (5000, "rating.vice_corps"),
    (6350, "rating.corps"),
    (12750, "rating.commander"),
];

/// The index into [`LEVELS`] of a score (negative scores are 小兵).
pub fn level_index(score: i32) -> usize {
    LEVELS.iter().rposition(|(s, _)| score >= *s).unwrap_or(0)
}

/// The level name of a score.
pub fn level_name(score: i32, lang: Lang) -> &'static str {
    lang.t(LEVELS[level_index(score)].1)
}

/// Appended to the opponent key of a game with takebacks (悔棋): it counts apart.
pub const UNDO_SUFFIX: &str = "+undo";

/// A game's result for the player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WinLossDraw {
    /// The player won.
    Win,
    /// The player lost.
    Loss,
    /// Drawn.
    Draw,
}

impl WinLossDraw {
    /// The player `me`'s result (round a four-player table, `team`, its team's).
    pub fn of(result: GameResult, me: Side, team: bool) -> Self {
        match result {
            GameResult::Win { winner, .. }
                if winner == me || (team && winner.team() == me.team()) =>
            {
                WinLossDraw::Win
            }
            GameResult::Win { .. } => WinLossDraw::Loss,
            GameResult::Draw { .. } => WinLossDraw::Draw,
        }
    }
}

/// Wins, losses and draws against one opponent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games lost.
    pub losses: u32,
    /// Games drawn.
    pub draws: u32,
}

/// The player's results.
#[derive(Resource, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Profile {
    /// Cumulative room score (RULES.md §8, the engine's [`junqi_game::room_score`]: +1 / −1 in
    /// two-player games, +2 / −2 in four-player ones, nothing for a quick win).
    pub score: i32,
    /// Results by opponent (e.g. `ai-1`, `ai-2`, `lan:NAME`).
    pub opponents: BTreeMap<String, Tally>,
}

/// What one finished game counts in the profile: the opponent key (a game with takebacks
/// apart, [`UNDO_SUFFIX`]), the player's outcome (round a four-player table, the team's) and
/// the room score (none with takebacks).
pub fn entry(
    result: GameResult,
    me: Side,
    team: bool,
    plies: u16,
    undos: u32,
    opponent: &str,
) -> (String, WinLossDraw, i8) {
    let outcome = WinLossDraw::of(result, me, team);
    if undos > 0 {
        (format!("{opponent}{UNDO_SUFFIX}"), outcome, 0)
    } else {
        (
            opponent.to_owned(),
            outcome,
            junqi_game::room_score(result, plies, team, me),
        )
    }
}

impl Profile {
    /// The profile as the saved records tell it (after a damaged profile was moved aside):
    /// every finished game in the records folder that replays, and how many there were.
    pub fn rebuild(dir: &DataDir) -> (Self, usize) {
        let mut p = Self::default();
        let mut n = 0;
        for name in storage::list_names(&dir.records()) {
            let Ok(path) = storage::named_file(&dir.records(), &name) else {
                continue;
            };
            let Ok(saved) = storage::load_json::<GameFile>(&path) else {
                continue;
            };
            let (Some(result), Ok(s)) = (saved.result, Match::from_saved(&saved, None)) else {
                continue;
            };
            let (key, outcome, score) = entry(
                result,
                saved.me,
                s.view.is_team_game(),
                s.plies(),
                saved.undos,
                &saved.opponent,
            );
            p.record(&key, outcome, score);
            n += 1;
        }
        (p, n)
    }

    /// Records one finished game against `opponent` (`ai-N`, `lan:NAME`, `four:…` for a
    /// four-player table) and the room score it earned.
    pub fn record(&mut self, opponent: &str, outcome: WinLossDraw, score: i8) {
        let tally = self.opponents.entry(opponent.to_owned()).or_default();
        match outcome {
            WinLossDraw::Win => tally.wins += 1,
            WinLossDraw::Loss => tally.losses += 1,
            WinLossDraw::Draw => tally.draws += 1,
        }
        self.score += i32::from(score);
    }

    /// Loads the profile (a missing file is an empty profile; a damaged one is moved aside and
    /// reported, so the next save cannot overwrite the player's record).
    pub fn load(dir: &DataDir) -> Result<Self, storage::StoreError> {
        match storage::load_or_move_aside(&dir.profile_file()) {
            Err(storage::StoreError::Missing(_)) => Ok(Self::default()),
            other => other,
        }
    }

    /// Saves the profile.
    pub fn save(&self, dir: &DataDir) -> Result<(), storage::StoreError> {
        storage::save_json(&dir.profile_file(), self)
    }
}

/// The last profile load problem, shown on the profile screen, and how many saved records the
/// profile was rebuilt from after it.
#[derive(Resource, Default, Debug)]
pub struct ProfileStatus(pub Option<storage::StoreError>, pub Option<usize>);

/// Loads the profile at startup.
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Profile>()
        .init_resource::<ProfileStatus>()
        .add_systems(PreStartup, load_profile);
}

fn load_profile(mut commands: Commands, dir: Res<DataDir>) {
    match Profile::load(&dir) {
        Ok(p) => commands.insert_resource(p),
        Err(e) => {
            warn!("{e}");
            // The damaged file is kept aside; the games it counted are in the records.
            let rebuilt = matches!(e, storage::StoreError::MovedAside { .. }).then(|| {
                let (p, n) = Profile::rebuild(&dir);
                if let Err(e) = p.save(&dir) {
                    warn!("{e}");
                }
                commands.insert_resource(p);
                n
            });
            commands.insert_resource(ProfileStatus(Some(e), rebuilt));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels() {
        assert_eq!(level_name(-5, Lang::Zh), "小兵");
        assert_eq!(level_name(0, Lang::Zh), "小兵");
        assert_eq!(level_name(10, Lang::Zh), "副班长");
        assert_eq!(level_name(349, Lang::Zh), "副营长");
        assert_eq!(level_name(12750, Lang::En), "Commander");
    }

    #[test]
    fn scoring() {
        let mut p = Profile::default();
        p.record("ai-1", WinLossDraw::Win, 1);
        p.record("ai-1", WinLossDraw::Win, 0);
        p.record("ai-1", WinLossDraw::Loss, -1);
        p.record("ai-2", WinLossDraw::Draw, 0);
        p.record("four:4-2-2", WinLossDraw::Win, 2);
        assert_eq!(p.score, 2);
        assert_eq!(
            p.opponents["ai-1"],
            Tally {
                wins: 2,
                losses: 1,
                draws: 0
            }
        );
    }
}
