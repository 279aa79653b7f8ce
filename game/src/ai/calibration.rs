//! Learning the behaviour table ([`Table`]) from self-play: the hidden
//! enemy pieces of games where the truth is known ([`observe`], collected
//! by the arena's `calibrate`), how a model weighs their ranks ([`Model`])
//! and the table of largest likelihood ([`fit`]).

use super::behaviour::{BUCKETS, Behaviour, Table};
use super::belief::{Belief, Priors, layout_weights};
use crate::piece::{PieceId, Rank};
use crate::view::PlayerView;

/// One hidden enemy piece on the board at one moment of a game: what a
/// belief without soft evidence allows, the layout weights of its starting
/// point, what the hand-set rules make of it, its bucket, and its true rank.
#[derive(Clone, Debug)]
pub struct Observation {
    /// `Behaviour::bucket`.
    pub bucket: u8,
    /// The layout weights of its starting point, zero outside the ranks
    /// the hard facts and the counts allow.
    pub layout: [f32; 12],
    /// The hand-set behaviour multipliers.
    pub hand: [f32; 12],
    /// Its rank.
    pub truth: Rank,
}

/// The hidden enemy pieces on the board of `view`, each with its true rank
/// from `truth` (pieces `truth` does not know are left out).
pub fn observe(view: &PlayerView, truth: impl Fn(PieceId) -> Option<Rank>) -> Vec<Observation> {
    let belief = Belief::new(view, Priors::None);
    let behaviour = Behaviour::from_events(view);
    let mut out = Vec::new();
    for p in belief.pieces().iter().filter(|p| p.at.is_some()) {
        let Some(rank) = truth(p.id) else { continue };
        let layout = layout_weights(view.board(), p.side, p.id);
        let (mut l, mut hand) = ([0f32; 12], [0f32; 12]);
        for r in p.possible.iter() {
            l[r.index()] = layout[r.index()];
            hand[r.index()] = behaviour.hand_factor(p.id, r);
        }
        out.push(Observation {
            bucket: behaviour.bucket(p.id, view.ply()) as u8,
            layout: l,
            hand,
            truth: rank,
        });
    }
    out
}

/// How an [`Observation`]'s ranks are weighed.
#[derive(Clone, Copy)]
pub enum Model<'a> {
    /// Every allowed rank the same.
    Flat,
    /// The layout weights alone.
    Layout,
    /// The layout weights times the hand-set rules.
    Hand,
    /// The layout weights times a table's bucket.
    Table(&'a Table),
}

impl Model<'_> {
    /// The probability of each rank of `o` under this model.
    pub fn probabilities(&self, o: &Observation) -> [f32; 12] {
        let mut w = [0f32; 12];
        for (i, x) in w.iter_mut().enumerate() {
            if o.layout[i] > 0.0 {
                *x = match self {
                    Model::Flat => 1.0,
                    Model::Layout => o.layout[i],
                    Model::Hand => o.layout[i] * o.hand[i],
                    Model::Table(t) => o.layout[i] * t[o.bucket as usize][i],
                };
            }
        }
        let total: f32 = w.iter().sum();
        if total > 0.0 {
            w.iter_mut().for_each(|x| *x /= total);
        }
        w
    }

    /// The mean negative log-likelihood (nats) of the true ranks.
    pub fn log_loss(&self, obs: &[Observation]) -> f64 {
        if obs.is_empty() {
            return 0.0;
        }
        let total: f64 = obs
            .iter()
            .map(|o| -(self.probabilities(o)[o.truth.index()].max(1e-4) as f64).ln())
            .sum();
        total / obs.len() as f64
    }
}

/// The table of largest likelihood for `obs` (generalised iterative
/// scaling: each bucket's predicted rank counts are moved towards the
/// observed ones), with `prior` pseudo-observations per bucket and rank
/// pulling towards 1, each multiplier kept within 0.05–20 and each bucket
/// scaled to a mean of 1 over its ranks.
pub fn fit(obs: &[Observation], rounds: usize, prior: f32) -> Table {
    let mut t: Table = [[1.0; 12]; BUCKETS];
    let mut seen = [[0f32; 12]; BUCKETS];
    for o in obs {
        seen[o.bucket as usize][o.truth.index()] += 1.0;
    }
    for _ in 0..rounds {
        let mut predicted = [[0f32; 12]; BUCKETS];
        for o in obs {
            let p = Model::Table(&t).probabilities(o);
            for (x, y) in predicted[o.bucket as usize].iter_mut().zip(p) {
                *x += y;
            }
        }
        for b in 0..BUCKETS {
            for r in 0..12 {
                let step = (seen[b][r] + prior) / (predicted[b][r] + prior);
                t[b][r] = (t[b][r] * step).clamp(0.05, 20.0);
            }
            let mean = t[b].iter().sum::<f32>() / 12.0;
            t[b].iter_mut().for_each(|x| *x /= mean);
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64Mcg;

    /// Observations drawn from `table` over uniform layout weights.
    fn drawn(table: &Table, n: usize, rng: &mut Pcg64Mcg) -> Vec<Observation> {
        (0..n)
            .map(|i| {
                let mut o = Observation {
                    bucket: (i % BUCKETS) as u8,
                    layout: [1.0; 12],
                    hand: [1.0; 12],
                    truth: Rank::Flag,
                };
                let p = Model::Table(table).probabilities(&o);
                let mut x: f32 = rng.random();
                o.truth = Rank::ALL
                    .into_iter()
                    .find(|r| {
                        x -= p[r.index()];
                        x <= 0.0
                    })
                    .unwrap_or(Rank::Flag);
                o
            })
            .collect()
    }

    #[test]
    fn fitting_recovers_the_table_that_made_the_data() {
        let mut rng = Pcg64Mcg::seed_from_u64(7);
        let mut truth: Table = [[1.0; 12]; BUCKETS];
        for (b, row) in truth.iter_mut().enumerate() {
            // Each bucket favours one rank eight to one.
            row[b % 12] = 8.0;
        }
        let train = drawn(&truth, 30_000, &mut rng);
        let test = drawn(&truth, 10_000, &mut rng);
        let fitted = fit(&train, 100, 3.0);
        for (b, row) in fitted.iter().enumerate() {
            let top = (0..12).max_by(|&i, &j| row[i].total_cmp(&row[j]));
            assert_eq!(top, Some(b % 12), "bucket {b}: {row:?}");
        }
        let (flat, learned, best) = (
            Model::Flat.log_loss(&test),
            Model::Table(&fitted).log_loss(&test),
            Model::Table(&truth).log_loss(&test),
        );
        assert!(learned < flat - 0.2, "{learned} against {flat}");
        assert!(learned < best + 0.01, "{learned} against {best}");
    }
}
