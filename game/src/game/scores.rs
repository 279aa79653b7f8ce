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
        let team = self.position.is_team_game();
        let seats: &[Side] = if team {
            &Side::FOUR
        } else {
            &[Side::South, Side::North]
        };
        let mut out = [0i8; 4];
        for &side in seats {
            out[side.index()] = room_score(result, self.position.ply(), team, side);
        }
        Some(out)
    }
}

/// The room score of `side` for a game that ended in `result` after `plies` plies (see
/// [`Game::scores`]); `team_game` for four players. The one place the scoring rule lives, for
/// games whose referee is not local (LAN games) as for the others.
pub fn room_score(result: GameResult, plies: u16, team_game: bool, side: Side) -> i8 {
    let GameResult::Win { winner, .. } = result else {
        return 0;
    };
    if team_game {
        if side.team() != winner.team() {
            -2
        } else if plies <= 40 {
            0
        } else {
            2
        }
    } else if side == winner {
        if plies < 30 { 0 } else { 1 }
    } else {
        -1
    }
}
