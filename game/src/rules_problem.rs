//! Which rule options a networked game can be played under. RULES.md leaves the options'
//! bounds open; these are the engine's, so that a host's offer is checked in one place by
//! every program (the app's options form, `junqi-peer`, a guest reading a host's hello).

use crate::rules::{Mode, Rules};
use std::ops::RangeInclusive;

/// The quiet-move draw's counts a game may use: a count of 0 ends the game before the first
/// move, when nobody's message has ended it.
pub const QUIET_DRAW_PLIES: RangeInclusive<u16> = 10..=1000;

/// A move's time in seconds a networked game may use: under a few seconds an honest side
/// cannot answer across a LAN (the protocol waits two round trips before a timeout claim).
pub const MOVE_SECONDS: RangeInclusive<u16> = 5..=3600;

/// Why no game can be played under some rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesProblem {
    /// Flip games are dealt on the classic board only.
    #[error("flip games are played on the classic board only")]
    FlipOnFourPlayerBoard,
    /// Four seats play dark (四暗, 双明) or open (全明) games.
    #[error("four-player games are dark or open, never flip")]
    FourPlayerFlip,
    /// [`Rules::four_player_board`] is the two-player option; four seats always play on it.
    #[error("the two-player big-board option at a four-seat table")]
    TwoPlayerBoardAtFour,
    /// The quiet-move draw's count is outside [`QUIET_DRAW_PLIES`].
    #[error("the quiet-move draw after {plies} plies (allowed 10 to 1000)")]
    QuietDrawPlies {
        /// The count offered.
        plies: u16,
    },
    /// A move's time is outside [`MOVE_SECONDS`].
    #[error("{seconds} s a move (allowed 5 to 3600)")]
    MoveSeconds {
        /// The time offered.
        seconds: u16,
    },
}

impl Rules {
    /// Why two players cannot play a game under these rules, if they cannot (the classic
    /// board, or the four-player board with [`Rules::four_player_board`]).
    #[must_use]
    pub fn two_player_problem(&self) -> Option<RulesProblem> {
        if self.four_player_board && self.mode == Mode::Flip {
            return Some(RulesProblem::FlipOnFourPlayerBoard);
        }
        self.common_problem()
    }

    /// Why four players cannot play a table under these rules, if they cannot.
    #[must_use]
    pub fn four_player_problem(&self) -> Option<RulesProblem> {
        if self.mode == Mode::Flip {
            return Some(RulesProblem::FourPlayerFlip);
        }
        if self.four_player_board {
            return Some(RulesProblem::TwoPlayerBoardAtFour);
        }
        self.common_problem()
    }

    fn common_problem(&self) -> Option<RulesProblem> {
        if !QUIET_DRAW_PLIES.contains(&self.quiet_draw_plies) {
            return Some(RulesProblem::QuietDrawPlies {
                plies: self.quiet_draw_plies,
            });
        }
        if !MOVE_SECONDS.contains(&self.move_seconds) {
            return Some(RulesProblem::MoveSeconds {
                seconds: self.move_seconds,
            });
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_rules_of_every_mode_are_playable() {
        for mode in [Mode::Dark, Mode::Open, Mode::Flip] {
            assert_eq!(Rules::for_mode(mode).two_player_problem(), None);
            let big = Rules {
                four_player_board: true,
                ..Rules::for_mode(mode)
            };
            assert_eq!(
                big.two_player_problem().is_some(),
                mode == Mode::Flip,
                "{mode:?}"
            );
            assert_eq!(
                Rules::four_player(mode).four_player_problem().is_some(),
                mode == Mode::Flip,
                "{mode:?}"
            );
            let big = Rules {
                four_player_board: true,
                ..Rules::four_player(mode)
            };
            assert!(big.four_player_problem().is_some(), "{mode:?}");
        }
    }

    #[test]
    fn counts_and_clocks_outside_their_bounds_are_refused() {
        let r = Rules::default();
        for (plies, ok) in [
            (0, false),
            (9, false),
            (10, true),
            (1000, true),
            (1001, false),
        ] {
            let q = Rules {
                quiet_draw_plies: plies,
                ..r
            };
            assert_eq!(q.two_player_problem().is_none(), ok, "{plies} plies");
            assert_eq!(q.four_player_problem().is_none(), ok, "{plies} plies");
        }
        for (seconds, ok) in [
            (0, false),
            (4, false),
            (5, true),
            (3600, true),
            (3601, false),
        ] {
            let m = Rules {
                move_seconds: seconds,
                ..r
            };
            assert_eq!(m.two_player_problem().is_none(), ok, "{seconds} s");
        }
    }
}
