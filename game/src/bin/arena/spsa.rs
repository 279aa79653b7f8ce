//! Simultaneous perturbation stochastic approximation (SPSA, Spall 1992),
//! the tuner's optimiser: every step moves all weights at once by a random
//! sign each, plays the two perturbed settings against each other, and
//! moves the weights towards the side that won. Two matches' worth of games
//! per step whatever the number of weights, which is why engines tune this
//! way. Pure: the caller plays the games.

use rand::Rng;

/// One tuned value.
#[derive(Clone, Debug)]
pub(crate) struct Param {
    pub name: String,
    pub value: f64,
    /// The perturbation at the first step, in the value's own units.
    pub c: f64,
    pub min: f64,
    pub max: f64,
}

/// The optimiser's state.
#[derive(Clone, Debug)]
pub(crate) struct Spsa {
    pub params: Vec<Param>,
    /// Step size at the first step, relative to each value's `c`: a step
    /// moves a value by about `a * c * result` (result in −1 … 1).
    pub a: f64,
    /// Stability constant: the step size decays from step `big_a`, not from 0.
    pub big_a: f64,
    /// Steps taken.
    pub k: u32,
}

/// Spall's decay exponents of the step size and the perturbation.
const ALPHA: f64 = 0.602;
const GAMMA: f64 = 0.101;

/// The two settings one step plays against each other.
#[derive(Clone, Debug)]
pub(crate) struct Trial {
    /// The random sign of each value's perturbation.
    pub signs: Vec<f64>,
    pub plus: Vec<f64>,
    pub minus: Vec<f64>,
}

impl Spsa {
    pub(crate) fn new(params: Vec<Param>, a: f64, big_a: f64) -> Spsa {
        Spsa {
            params,
            a,
            big_a,
            k: 0,
        }
    }

    /// The perturbation of parameter `i` at this step.
    fn c_k(&self, i: usize) -> f64 {
        self.params[i].c / f64::from(self.k + 1).powf(GAMMA)
    }

    /// The settings of the next step: every value moved by its perturbation
    /// up in `plus` and down in `minus`, by a random sign each, within bounds.
    pub(crate) fn trial(&self, rng: &mut impl Rng) -> Trial {
        let signs: Vec<f64> = self
            .params
            .iter()
            .map(|_| if rng.random::<bool>() { 1.0 } else { -1.0 })
            .collect();
        let at = |dir: f64| -> Vec<f64> {
            self.params
                .iter()
                .enumerate()
                .map(|(i, p)| (p.value + dir * signs[i] * self.c_k(i)).clamp(p.min, p.max))
                .collect()
        };
        Trial {
            plus: at(1.0),
            minus: at(-1.0),
            signs,
        }
    }

    /// Moves the values after `trial`, given how `plus` did against
    /// `minus`: `result` is its mean score less its opponent's, −1 … 1.
    pub(crate) fn update(&mut self, trial: &Trial, result: f64) {
        let a_k = self.a / (f64::from(self.k + 1) + self.big_a).powf(ALPHA);
        for i in 0..self.params.len() {
            let c_k = self.c_k(i);
            let p = &mut self.params[i];
            // The gradient estimate result / (2 c_k sign) scaled by c², so
            // every value moves in proportion to its own perturbation.
            let step = a_k * p.c * p.c * result / (2.0 * c_k) * trial.signs[i];
            p.value = (p.value + step).clamp(p.min, p.max);
        }
        self.k += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;

    fn param(name: &str, value: f64) -> Param {
        Param {
            name: name.into(),
            value,
            c: 20.0,
            min: 0.0,
            max: 300.0,
        }
    }

    /// A match between two settings whose strength peaks at `best`: the
    /// better one scores more, through noise as large as a short match's.
    fn noisy_match(best: &[f64], plus: &[f64], minus: &[f64], rng: &mut impl Rng) -> f64 {
        let strength = |x: &[f64]| -> f64 {
            -x.iter()
                .zip(best)
                .map(|(v, b)| (v - b).powi(2))
                .sum::<f64>()
        };
        let gap = (strength(plus) - strength(minus)) / 2000.0;
        (gap.tanh() + rng.random_range(-0.3..0.3)).clamp(-1.0, 1.0)
    }

    #[test]
    fn noisy_matches_lead_the_weights_to_the_strongest_setting() {
        let best = [140.0, 60.0, 100.0];
        let mut spsa = Spsa::new(
            vec![param("x", 100.0), param("y", 100.0), param("z", 100.0)],
            2.0,
            10.0,
        );
        let mut rng = Pcg64Mcg::seed_from_u64(3);
        let distance = |s: &Spsa| -> f64 {
            s.params
                .iter()
                .zip(best)
                .map(|(p, b)| (p.value - b).abs())
                .sum()
        };
        let before = distance(&spsa);
        for _ in 0..400 {
            let t = spsa.trial(&mut rng);
            let r = noisy_match(&best, &t.plus, &t.minus, &mut rng);
            spsa.update(&t, r);
        }
        let after = distance(&spsa);
        assert!(
            after < before / 3.0,
            "{before} → {after}: {:?}",
            spsa.params
        );
    }

    #[test]
    fn a_drawn_step_leaves_the_weights_and_the_bounds_hold() {
        let mut spsa = Spsa::new(vec![param("x", 1.0), param("y", 299.0)], 2.0, 10.0);
        let mut rng = Pcg64Mcg::seed_from_u64(1);
        let t = spsa.trial(&mut rng);
        for (v, p) in t
            .plus
            .iter()
            .chain(&t.minus)
            .zip(spsa.params.iter().cycle())
        {
            assert!((p.min..=p.max).contains(v), "{v} outside {p:?}");
        }
        spsa.update(&t, 0.0);
        assert_eq!(spsa.params[0].value, 1.0);
        assert_eq!(spsa.params[1].value, 299.0);
        assert_eq!(spsa.k, 1);
        // A won step moves every value towards its plus side.
        let t = spsa.trial(&mut rng);
        let before: Vec<f64> = spsa.params.iter().map(|p| p.value).collect();
        spsa.update(&t, 1.0);
        for (i, p) in spsa.params.iter().enumerate() {
            let moved = p.value - before[i];
            assert!(moved * t.signs[i] >= 0.0, "{} moved the wrong way", p.name);
        }
    }
}
