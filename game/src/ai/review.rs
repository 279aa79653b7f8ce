//! The post-game review (复盘): a finished game's record replayed with an
//! evaluation of every position from each side's own view, the loss of each
//! move for its mover, and the largest losses marked as mistakes with the
//! move the AI would have played and its one-line reason.
//!
//! Honest like the rest of the AI: a side's evaluation and a mover's loss
//! are computed from that side's [`PlayerView`] at that point of the game,
//! never from the truth the record holds, so a move is judged on what its
//! mover could know (an attack on a piece that turned out to be a bomb is
//! not a mistake if a bomb was unlikely). Budgets count nodes and samples,
//! and every position's random source is seeded from the review's seed and
//! the ply, so a review is the same on every machine.

use super::belief::{Belief, Priors};
use super::eval::{Knowledge, WIN};
use super::score::evaluate;
use super::search::{self, Interior, SearchParams};
use super::team::friends;
use super::weights::Weights;
use super::{Hint, Level, explain};
use crate::game::{Action, Game, Record, SetupError};
use crate::piece::Side;
use crate::position::{GameResult, Move};
use crate::view::PlayerView;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// What a review may spend.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReviewParams {
    /// The search that judges each move (its noise is ignored: a review
    /// ranks moves by their score alone).
    pub search: SearchParams,
    /// Sampled positions averaged for each side's evaluation of a position.
    pub eval_samples: usize,
    /// How many mistakes to mark at most.
    pub mistakes: usize,
    /// The smallest loss (centi-units) that counts as a mistake: below it a
    /// move is as good as the best within the search's accuracy.
    pub min_loss: f32,
}

impl Default for ReviewParams {
    /// 熟练-level judging (one ply and the exchanges after it, on six
    /// samples) with the full evaluation, so a missed flag threat counts,
    /// and attacks below the first ply judged by the belief instead of the
    /// sample's truth: a 150-ply game reviews in seconds even in a debug
    /// build.
    fn default() -> ReviewParams {
        let mut search = Level::Skilled.params().search;
        search.eval = Knowledge::Full;
        search.interior = Interior::Chance;
        search.noise = 0;
        ReviewParams {
            search,
            eval_samples: 8,
            mistakes: 6,
            min_loss: 60.0,
        }
    }
}

/// The evaluation of one position from each side's own view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EvalPoint {
    /// Actions of the record applied before this position.
    pub actions: usize,
    /// For each seat (by [`Side::index`]) still in the game: how good the
    /// position is for it as it can tell (centi-units, ±100000 a won or lost
    /// game; positive is good for that seat).
    pub eval: [Option<f32>; 4],
}

/// One move as its mover's search judged it just before playing it.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview {
    /// The move's index in the record's actions.
    pub action: usize,
    /// Who moved.
    pub side: Side,
    /// The move played.
    pub played: Move,
    /// Its score for the mover.
    pub played_score: f32,
    /// The AI's move with its reason.
    pub best: Hint,
    /// Its score for the mover.
    pub best_score: f32,
    /// What the played move gave away against the AI's (never negative).
    pub loss: f32,
}

/// A whole game reviewed.
#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    /// One point per position: before the first action, then after each
    /// action of the record (`actions + 1` points).
    pub curve: Vec<EvalPoint>,
    /// Every move of the record with more than one legal choice, in order.
    pub moves: Vec<MoveReview>,
    /// Indices into `moves` of the mistakes, the largest loss first.
    pub mistakes: Vec<usize>,
}

impl Review {
    /// The mistakes, the largest loss first.
    pub fn mistakes(&self) -> impl Iterator<Item = &MoveReview> {
        self.mistakes.iter().map(|&i| &self.moves[i])
    }
}

/// Reviews a record from its start to its last action. `progress` is told
/// the actions done and their total after each one (for a progress bar).
///
/// # Errors
/// The record does not replay.
pub fn review(
    record: &Record,
    params: &ReviewParams,
    seed: u64,
    progress: &dyn Fn(usize, usize),
) -> Result<Review, SetupError> {
    let mut game = Game::replay(record, Some(0))?;
    let total = record.actions.len();
    let mut curve = Vec::with_capacity(total + 1);
    let mut moves = Vec::new();
    curve.push(point(&game, 0, params, seed));
    for (index, &(side, action)) in record.actions.iter().enumerate() {
        if let Action::Move(m) = action
            && let Some(r) = judge(&game.view(side), m, index, params, seed)
        {
            moves.push(r);
        }
        game.apply(side, action)
            .map_err(|error| SetupError::Action { index, error })?;
        curve.push(point(&game, index + 1, params, seed));
        progress(index + 1, total);
    }
    let mistakes = largest_losses(&moves, params);
    Ok(Review {
        curve,
        moves,
        mistakes,
    })
}

/// A random source for one position and seat, independent of every other.
fn rng_for(seed: u64, actions: usize, side: Side, salt: u64) -> Pcg64Mcg {
    Pcg64Mcg::seed_from_u64(
        seed ^ (actions as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ ((side.index() as u64 + 1) << 56)
            ^ salt,
    )
}

/// Every seat's evaluation of the game's position from its own view.
fn point(game: &Game, actions: usize, params: &ReviewParams, seed: u64) -> EvalPoint {
    let mut eval = [None; 4];
    let sides: &[Side] = if game.position().is_team_game() {
        &Side::FOUR
    } else {
        &Side::TWO
    };
    for &side in sides {
        if !game.is_in(side) {
            continue;
        }
        let view = game.view(side);
        eval[side.index()] = Some(evaluate_view(&view, actions, params, seed));
    }
    EvalPoint { actions, eval }
}

/// How good the view's position is for its owner: the result once the game
/// is over, else the static evaluation (material and pressure on the flags)
/// averaged over positions sampled from the owner's belief. Not the full
/// evaluation nor a search: those score whose turn it is (a piece beside a
/// headquarters that may hold the flag counts as a third of a won game for
/// the side to move), and the curve would jump at every ply.
fn evaluate_view(view: &PlayerView, actions: usize, params: &ReviewParams, seed: u64) -> f32 {
    let me = view.me();
    if let Some(result) = view.result() {
        return match result {
            GameResult::Win { winner, .. } => {
                let won = if view.is_team_game() {
                    winner.team() == me.team()
                } else {
                    winner == me
                };
                if won { WIN as f32 } else { -(WIN as f32) }
            }
            GameResult::Draw { .. } => 0.0,
        };
    }
    let belief = Belief::new(view, Priors::Hand);
    let mut rng = rng_for(seed, actions, me, 0x4556_414c);
    let n = params.eval_samples.max(1);
    let mut sum = 0f64;
    for _ in 0..n {
        let pos = belief.position(view, &belief.sample(&mut rng));
        let v = evaluate(&pos, Knowledge::Basic, &Weights::HAND, None, 0, None);
        sum += f64::from(if friends(&pos, pos.turn(), me) { v } else { -v });
    }
    (sum / n as f64) as f32
}

/// The mover's search just before `played`: its best move and what the
/// played one gave away. `None` for a forced move, or when the budget did
/// not let the search score every move (no fair comparison then).
fn judge(
    view: &PlayerView,
    played: Move,
    action: usize,
    params: &ReviewParams,
    seed: u64,
) -> Option<MoveReview> {
    if view.legal_moves().len() < 2 {
        return None;
    }
    let belief = Belief::new(view, Priors::Hand);
    let mut rng = rng_for(seed, action, view.me(), 0x4a55_4447);
    let mut p = params.search;
    p.noise = 0;
    // The loss of the played move needs its exact score: the full-width
    // open search scores only its best move exactly (the rest by the
    // bound they failed low on), the screened search scores them all.
    p.open_full = 0;
    let a = search::analyse(view, &belief, &p, &mut rng, &|| false);
    if !a.complete {
        return None;
    }
    let best = *a.moves.first()?;
    let played_score = a.moves.iter().find(|s| s.mv == played)?.score;
    Some(MoveReview {
        action,
        side: view.me(),
        played,
        played_score,
        best: explain(view, &belief, best),
        best_score: best.score,
        loss: (best.score - played_score).max(0.0),
    })
}

/// The moves that lost the most, at least `min_loss` each, the largest
/// first (an earlier move first among equal losses).
fn largest_losses(moves: &[MoveReview], params: &ReviewParams) -> Vec<usize> {
    let mut order: Vec<usize> = (0..moves.len())
        .filter(|&i| moves[i].loss >= params.min_loss)
        .collect();
    order.sort_by(|&a, &b| moves[b].loss.total_cmp(&moves[a].loss).then(a.cmp(&b)));
    order.truncate(params.mistakes);
    order
}
