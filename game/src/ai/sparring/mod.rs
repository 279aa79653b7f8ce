//! Sparring partners of other kinds than the levels, for the arena: they
//! share nothing with Master's evaluation, search or belief sampling
//! (`ai::eval`, `ai::search`, `ai::belief`), so Master's score against them
//! says what it does against engines that are not its own kind. Each plays
//! from a player's view only ([`Guess`] reads nothing else), in two-player
//! games.
//!
//! - `alphabeta` ([`AlphaBetaPlayer`], [`alphabeta`]): a full-width
//!   alpha-beta searcher in the style of the commercial apps.
//! - `guard` ([`GuardPlayer`], [`guard`]): a cautious defender that keeps
//!   its flag boxed in and trades only when it must.

pub mod alphabeta;
pub mod guard;
pub mod guess;
pub mod steps;
pub mod values;

pub use alphabeta::AbParams;
pub use guess::Guess;

use super::Player;
use super::setup::flag_boxed;
use crate::{Action, Layout, PlayerView, Rules, classic_layouts};
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// A classic layout (mirrored half the time), among those `keep` admits.
fn classic(rng: &mut Pcg64Mcg, keep: impl Fn(&Layout) -> bool) -> Layout {
    let all: Vec<Layout> = classic_layouts()
        .into_iter()
        .map(|n| n.layout)
        .filter(|l| keep(l))
        .collect();
    let l = *all.choose(rng).expect("classic layouts of every kind");
    if rng.random_bool(0.5) {
        l.mirrored()
    } else {
        l
    }
}

/// The alpha-beta searcher as an arena player; classic layouts.
pub struct AlphaBetaPlayer {
    rng: Pcg64Mcg,
    params: AbParams,
    last: (u64, u8),
}

impl AlphaBetaPlayer {
    /// A player from `seed` (its layouts), with the default settings.
    pub fn new(seed: u64) -> AlphaBetaPlayer {
        AlphaBetaPlayer::with_params(AbParams::default(), seed)
    }

    /// A player with custom settings.
    pub fn with_params(params: AbParams, seed: u64) -> AlphaBetaPlayer {
        AlphaBetaPlayer {
            rng: Pcg64Mcg::seed_from_u64(seed ^ 0x0041_4245_5441),
            params,
            last: (0, 0),
        }
    }
}

impl Player for AlphaBetaPlayer {
    fn name(&self) -> String {
        "alphabeta".into()
    }
    fn layout(&mut self, _rules: &Rules) -> Layout {
        classic(&mut self.rng, |_| true)
    }
    fn act(&mut self, view: &PlayerView, stop: &dyn Fn() -> bool) -> Action {
        let c = alphabeta::choose(view, &self.params, stop);
        self.last = (c.nodes, c.depth);
        c.mv.map_or(Action::Timeout, Action::Move)
    }
    fn last_stats(&self) -> (u64, u8) {
        self.last
    }
}

/// The cautious defender as an arena player; classic layouts with the flag
/// boxed in by three landmines.
pub struct GuardPlayer {
    rng: Pcg64Mcg,
}

impl GuardPlayer {
    /// A player from `seed` (its layouts and its choice among equal moves).
    pub fn new(seed: u64) -> GuardPlayer {
        GuardPlayer {
            rng: Pcg64Mcg::seed_from_u64(seed ^ 0x0047_5541_5244),
        }
    }
}

impl Player for GuardPlayer {
    fn name(&self) -> String {
        "guard".into()
    }
    fn layout(&mut self, _rules: &Rules) -> Layout {
        classic(&mut self.rng, flag_boxed)
    }
    fn act(&mut self, view: &PlayerView, _stop: &dyn Fn() -> bool) -> Action {
        let scored = guard::scored(view);
        let Some(top) = scored.iter().map(|x| x.1).max_by(f32::total_cmp) else {
            return Action::Timeout;
        };
        let best: Vec<_> = scored.iter().filter(|x| x.1 >= top - 1e-3).collect();
        Action::Move(best.choose(&mut self.rng).expect("a move").0)
    }
}
