//! Caution with blind strikes: what an officer sent at a piece that never
//! moved may cost.
//!
//! The samples value a root strike at an unidentified piece by its expected
//! result, so a division sent at an unmoved piece that is a platoon in most
//! samples and the commander or a bomb in the rest scores well. Against a
//! defender that never gives anything back (the `guard` sparring partner)
//! the deals in which those strikes met the commander, a corps or a bomb
//! were the drawn ones: Master fell behind in the opening, the defender
//! never converted, and the quiet-move rule ended the game. Here the
//! strike's expected loss is charged once more, so the charge grows with
//! the striker's value and a cheap piece does the probing: a risk premium,
//! not a new estimate.

use super::Belief;
use super::eval::value;
use crate::position::Move;
use crate::rules::{Mode, Outcome};
use crate::view::PlayerView;

/// The charge (centi-units) on root move `m` of `view`'s owner: in a dark
/// game, for an attack on an enemy piece it cannot identify and that has
/// never moved, `percent`% of the attacker's expected loss by the belief's
/// chances (its value where the defender wins, its value less the
/// defender's where both go); 0 otherwise and with `percent` 0.
pub fn cost(view: &PlayerView, belief: &Belief, m: Move, percent: i32) -> f32 {
    if percent <= 0 || view.rules().mode != Mode::Dark {
        return 0.0;
    }
    let Some((attacker, _, defender)) = super::probe::blind_attack(view, m) else {
        return 0.0;
    };
    if view.piece(defender).is_none_or(|k| k.moved) {
        return 0.0;
    }
    let Some(p) = belief.probabilities(defender) else {
        return 0.0;
    };
    percent as f32 / 100.0 * expected_loss(view.rules(), attacker, &p)
}

/// What `attacker` loses on average against a piece with rank chances `p`.
pub fn expected_loss(rules: &crate::Rules, attacker: crate::Rank, p: &[f32; 12]) -> f32 {
    crate::Rank::ALL
        .iter()
        .map(|&r| {
            let c = rules.clash(attacker, r);
            let lost = if c.flag_captured {
                0
            } else {
                match c.outcome {
                    Outcome::AttackerWins => 0,
                    Outcome::DefenderWins => value(attacker),
                    Outcome::BothRemoved => (value(attacker) - value(r)).max(0),
                }
            };
            p[r.index()] * lost as f32
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rank::{self, *};

    fn mix(ranks: &[(Rank, f32)]) -> [f32; 12] {
        let mut p = [0.0; 12];
        for &(r, x) in ranks {
            p[r.index()] = x;
        }
        p
    }

    #[test]
    fn the_charge_grows_with_the_strikers_value() {
        let rules = crate::Rules::default();
        // An unmoved front piece: mostly small, sometimes the commander,
        // a corps or a bomb.
        let p = mix(&[
            (Platoon, 0.3),
            (Company, 0.3),
            (Commander, 0.1),
            (Corps, 0.1),
            (Bomb, 0.2),
        ]);
        let loss = |r| expected_loss(&rules, r, &p);
        assert!(loss(Division) > loss(Regiment), "{}", loss(Division));
        assert!(loss(Regiment) > loss(Company));
        // A division loses to the commander and the corps, trades with a bomb.
        let div = 0.2 * value(Division) as f32 + 0.2 * (value(Division) - value(Bomb)) as f32;
        assert!((loss(Division) - div).abs() < 1.0, "{}", loss(Division));
        // Nothing is lost against pieces it beats, or the flag.
        assert_eq!(
            expected_loss(&rules, Corps, &mix(&[(Platoon, 0.5), (Flag, 0.5)])),
            0.0
        );
        // An engineer digs a landmine; a platoon dies on it.
        let mine = mix(&[(Landmine, 1.0)]);
        assert_eq!(expected_loss(&rules, Engineer, &mine), 0.0);
        assert_eq!(expected_loss(&rules, Platoon, &mine), value(Platoon) as f32);
    }

    #[test]
    fn only_blind_strikes_at_pieces_that_never_moved_are_charged() {
        use crate::ai::Priors;
        use crate::{Action, Game, Layout, Side};
        use rand::seq::IndexedRandom;
        use rand::{Rng, SeedableRng};
        use rand_pcg::Pcg64Mcg;
        let mut rng = Pcg64Mcg::seed_from_u64(17);
        let (mut unmoved, mut moved) = (0, 0);
        for mode in [Mode::Dark, Mode::Open] {
            let rules = crate::Rules::for_mode(mode);
            for _ in 0..30 {
                let (a, b) = (
                    Layout::random(&rules, &mut rng),
                    Layout::random(&rules, &mut rng),
                );
                let mut g = Game::new(rules, a, b, Side::South).unwrap();
                let plies = rng.random_range(0..120);
                for _ in 0..plies {
                    if g.result().is_some() {
                        break;
                    }
                    let side = g.turn();
                    let Some(&m) = g.view(side).legal_moves().choose(&mut rng) else {
                        break;
                    };
                    g.apply(side, Action::Move(m)).unwrap();
                }
                if g.result().is_some() || g.turn() != Side::South {
                    continue;
                }
                let view = g.view(Side::South);
                let belief = Belief::new(&view, Priors::Hand);
                for &m in view.legal_moves().iter() {
                    let c = cost(&view, &belief, m, 100);
                    assert_eq!(cost(&view, &belief, m, 0), 0.0);
                    let blind = super::super::probe::blind_attack(&view, m);
                    let Some((attacker, _, defender)) = blind.filter(|_| mode == Mode::Dark) else {
                        assert_eq!(c, 0.0, "{m:?} is no blind strike");
                        continue;
                    };
                    if view.piece(defender).unwrap().moved {
                        moved += 1;
                        assert_eq!(c, 0.0, "{m:?} strikes a piece that moved");
                    } else {
                        unmoved += 1;
                        let p = belief.probabilities(defender).unwrap();
                        let want = expected_loss(view.rules(), attacker, &p);
                        assert!((c - want).abs() < 1e-3, "{m:?}: {c} against {want}");
                        assert!((cost(&view, &belief, m, 50) - want / 2.0).abs() < 1e-3);
                    }
                }
            }
        }
        assert!(unmoved > 5 && moved > 5, "{unmoved} unmoved, {moved} moved");
    }
}
