//! The static evaluation of any position: the team games' ([`super::team`])
//! in a team game, the two-player one ([`super::eval`]) otherwise.

use super::eval::{self, Guard, Knowledge};
use super::team;
use super::weights::Weights;
use crate::piece::Side;
use crate::position::Position;

/// [`eval::evaluate`] for two players, [`team::evaluate`] for teams (which
/// has no `home` side).
pub(crate) fn evaluate(
    pos: &Position,
    knowledge: Knowledge,
    weights: &Weights,
    guard: Option<&Guard>,
    draw: i32,
    home: Option<Side>,
) -> i32 {
    if pos.is_team_game() {
        team::evaluate(pos, knowledge, weights, guard, draw)
    } else {
        eval::evaluate(pos, knowledge, weights, guard, draw, home)
    }
}
