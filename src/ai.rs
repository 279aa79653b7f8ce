//! The computer opponent behind an asynchronous interface: [`think`] runs the engine's AI
//! (`junqi_game::ai`) on Bevy's async compute pool and returns a task, so the window never
//! freezes. The AI sees only its own [`PlayerView`], never the referee's position.

use std::time::{Duration, Instant};

use bevy::tasks::{AsyncComputeTaskPool, Task};
use junqi_game::{
    Action, Move, PlayerView,
    ai::{Ai, Hint, Level, concede},
};

use crate::redraw::Waker;

/// The level for a 1-based number (1 新手 … 4 大师).
pub fn level(n: u8) -> Level {
    Level::ALL[(n.clamp(1, 4) - 1) as usize]
}

/// What a task produces.
#[derive(Clone, Debug)]
pub enum Thought {
    /// The computer's turn: first, like a person, whether it resigns or offers a draw
    /// ([`concede::turn_action`]); then its move (`None`: it has none), played if it does
    /// neither (or the offer cannot be made).
    Turn {
        /// Resign or offer a draw.
        concede: Option<Action>,
        /// The move.
        mv: Option<Move>,
    },
    /// A hint for the player.
    Hint(Option<Hint>),
}

fn stopper(level: Level) -> impl Fn() -> bool {
    let deadline = Instant::now() + Duration::from_millis(level.max_millis());
    move || Instant::now() >= deadline
}

/// Chooses a move for the view's owner (blocking; the level's time cap applies).
pub fn choose(view: &PlayerView, level_n: u8, seed: u64) -> Option<Move> {
    let lv = level(level_n);
    Ai::new(lv, seed).choose_move(view, &stopper(lv))
}

/// Starts deciding the view's owner's turn (off the main thread: judging a resignation samples
/// the belief, as the move's search does); `waker` wakes the app when the answer is ready.
pub fn think(view: PlayerView, level_n: u8, seed: u64, waker: Waker) -> Task<Thought> {
    AsyncComputeTaskPool::get().spawn(async move {
        let thought = Thought::Turn {
            concede: concede::turn_action(&view, level(level_n).plays_for_win()),
            mv: choose(&view, level_n, seed),
        };
        waker.wake();
        thought
    })
}

/// Starts computing a hint for the view's owner (at the 熟练 level); `waker` wakes the app when
/// it is ready.
pub fn hint(view: PlayerView, seed: u64, waker: Waker) -> Task<Thought> {
    AsyncComputeTaskPool::get().spawn(async move {
        let lv = Level::Skilled;
        let thought = Thought::Hint(Ai::new(lv, seed).hint(&view, &stopper(lv)));
        waker.wake();
        thought
    })
}
