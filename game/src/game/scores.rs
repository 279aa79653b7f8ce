//! Room scores of a finished game (RULES.md §8 and §9, seed 004).

use super::Game;
use crate::piece::Side;
use crate::position::GameResult;

impl Game {
    /// The room score of each seat once the game is over, by
    /// [`Side::index`] (South, North, East, West); `None` while it runs.
    ///
    /// Two players: the winner +1, the loser −1, and no point for a winner
    /// in under 30 plies (RULES.md §8). Four players: both winners +2 (a
    /// partner who went out included), both losers −2, and no points for
    /// a win within 40 plies (§9). The losers lose their points either way;
    /// draws score nothing. Seats that do not play score 0.
    pub fn scores(&self) -> Option<[i8; 4]> {
        let result = self.result?;
        let mut out = [0i8; 4];
        let GameResult::Win { winner, .. } = result else {
            return Some(out);
        };
        let ply = self.position.ply();
        if self.position.is_team_game() {
            let quick = ply <= 40;
            for side in Side::FOUR {
                out[side.index()] = if side.team() == winner.team() {
                    if quick { 0 } else { 2 }
                } else {
                    -2
                };
            }
        } else {
            out[winner.index()] = if ply < 30 { 0 } else { 1 };
            out[winner.opponent().index()] = -1;
        }
        Some(out)
    }
}
