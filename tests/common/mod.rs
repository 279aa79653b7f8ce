//! Helpers shared by the app's headless tests.

use junqi_game::{Move, PlayerView, Point};

/// The first legal step (not a flip) in `view`.
pub(crate) fn first_step(view: &PlayerView) -> (Point, Point) {
    view.legal_moves()
        .iter()
        .find_map(|m| match *m {
            Move::Step { from, to } => Some((from, to)),
            Move::Flip { .. } => None,
        })
        .expect("a legal step")
}
