//! The value of finding out: what an attack on an unidentified enemy piece
//! tells about it.
//!
//! Perfect-information Monte Carlo cannot see this value: in every sample
//! the searcher already knows what the piece is, so a probe (a small officer
//! sent at a suspected commander, an engineer at a suspected mine) counts
//! only by the material it risks. Here the announcement the referee will
//! make is treated as an experiment on the piece's rank: its outcomes split
//! the belief, and a piece that stays on the board after the battle is then
//! known better for the rest of the game. The bonus is that reduction in
//! uncertainty (entropy over the ranks, in bits) weighted by how much the
//! piece may be worth, so identifying what may be a commander counts more
//! than telling two platoons apart.

use super::Belief;
use super::eval::value;
use crate::piece::{PieceId, Rank, Side};
use crate::position::Move;
use crate::rules::{Outcome, Rules};
use crate::view::{PlayerView, Seen};

/// Centi-units per bit learnt about a piece worth a commander, at 100%.
pub const PER_BIT: f32 = 300.0;

/// The information an attack from a piece of rank `attacker` on a piece
/// with rank probabilities `p` (by [`Rank::index`]) gives about a defender
/// that survives it: the expected drop of the rank's entropy (bits) over
/// the announcements in which the defender stays, each weighted by the
/// defender's expected value then (as a share of a commander's).
pub fn information(rules: &Rules, attacker: Rank, p: &[f32; 12]) -> f32 {
    let total: f32 = p.iter().sum();
    if total <= 0.0 {
        return 0.0;
    }
    let prior = entropy(p.iter().map(|&x| x / total));
    // Announcements have codes below 64; only those in which the defender
    // wins leave it standing (and only those matter for later play).
    let mut split = [[0f32; 12]; 64];
    for r in Rank::ALL {
        let q = p[r.index()];
        if q <= 0.0 {
            continue;
        }
        let a = rules.announce(attacker, r);
        if a.outcome == Outcome::DefenderWins && !a.flag_captured {
            split[a.code() as usize][r.index()] += q;
        }
    }
    let top = value(Rank::Commander) as f32;
    split
        .iter()
        .map(|part| {
            let mass: f32 = part.iter().sum();
            if mass <= 0.0 {
                return 0.0;
            }
            let after = entropy(part.iter().map(|&x| x / mass));
            let worth: f32 = Rank::ALL
                .iter()
                .map(|r| part[r.index()] / mass * value(*r) as f32)
                .sum::<f32>()
                / top;
            (mass / total) * (prior - after).max(0.0) * worth
        })
        .sum()
}

/// Entropy in bits of a distribution.
fn entropy(p: impl Iterator<Item = f32>) -> f32 {
    p.filter(|&x| x > 0.0).map(|x| -x * x.log2()).sum()
}

/// The bonus (centi-units) for root move `m` of `view`'s owner: nonzero
/// only for an attack by one of its pieces on an enemy piece whose rank it
/// does not know; `percent` scales [`PER_BIT`] (0 turns it off).
pub fn bonus(view: &PlayerView, belief: &Belief, m: Move, percent: i32) -> f32 {
    if percent <= 0 {
        return 0.0;
    }
    let Some((attacker, _, defender)) = blind_attack(view, m) else {
        return 0.0;
    };
    let Some(p) = belief.probabilities(defender) else {
        return 0.0;
    };
    information(view.rules(), attacker, &p) * PER_BIT * percent as f32 / 100.0
}

/// Root move `m` as an attack by one of the owner's pieces (its rank) on
/// an enemy piece whose rank the owner does not know (its side and id).
pub(super) fn blind_attack(view: &PlayerView, m: Move) -> Option<(Rank, Side, PieceId)> {
    let Move::Step { from, to } = m else {
        return None;
    };
    let attacker = match view.at(from) {
        Some(Seen::Piece {
            side,
            rank: Some(r),
            ..
        }) if side == view.me() => r,
        _ => return None,
    };
    match view.at(to) {
        Some(Seen::Piece {
            side,
            id,
            rank: None,
        }) if is_enemy(view, side) => Some((attacker, side, id)),
        _ => None,
    }
}

fn is_enemy(view: &PlayerView, side: Side) -> bool {
    side != view.me() && !(view.is_team_game() && side == view.me().partner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::Priors;
    use Rank::*;

    fn uniform(ranks: &[Rank]) -> [f32; 12] {
        let mut p = [0.0; 12];
        for r in ranks {
            p[r.index()] = 1.0 / ranks.len() as f32;
        }
        p
    }

    #[test]
    fn only_root_attacks_on_unseen_pieces_earn_it() {
        use crate::{Game, Layout, Mode};
        use rand::SeedableRng;
        use rand_pcg::Pcg64Mcg;
        let mut rng = Pcg64Mcg::seed_from_u64(3);
        let rules = Rules::for_mode(Mode::Dark);
        let (a, b) = (
            Layout::random(&rules, &mut rng),
            Layout::random(&rules, &mut rng),
        );
        let g = Game::new(rules, a, b, Side::South).unwrap();
        let view = g.view(Side::South);
        let belief = Belief::new(&view, Priors::Hand);
        let (mut attacks, mut earning) = (0, 0);
        for &m in &view.legal_moves() {
            let Move::Step { to, .. } = m else {
                continue;
            };
            let b = bonus(&view, &belief, m, 100);
            assert!(b >= 0.0);
            assert_eq!(bonus(&view, &belief, m, 0), 0.0);
            if view.at(to).is_some() {
                attacks += 1;
                earning += usize::from(b > 0.0);
            } else {
                assert_eq!(b, 0.0, "{m:?} attacks nothing");
            }
        }
        // Across the front every attack is on a piece South cannot see.
        assert!(
            attacks > 0 && earning > 0,
            "{attacks} attacks, {earning} earning"
        );
    }

    #[test]
    fn a_known_piece_teaches_nothing() {
        let rules = Rules::default();
        for r in [Commander, Platoon, Landmine] {
            assert_eq!(information(&rules, Division, &uniform(&[r])), 0.0);
        }
    }

    #[test]
    fn a_middle_officer_learns_more_about_a_suspected_big_piece_than_a_platoon() {
        let rules = Rules::default();
        // Commander, corps or a brigade: a division that bounces off it
        // tells the big two apart from the brigade; a platoon bounces off
        // all three and learns nothing.
        let suspect = uniform(&[Commander, Corps, Brigade]);
        let division = information(&rules, Division, &suspect);
        let platoon = information(&rules, Platoon, &suspect);
        assert_eq!(platoon, 0.0);
        assert!(division > 0.2, "{division}");
    }

    #[test]
    fn telling_big_pieces_apart_is_worth_more_than_small_ones() {
        let rules = Rules::default();
        let big = information(&rules, Division, &uniform(&[Commander, Corps, Platoon]));
        let small = information(&rules, Platoon, &uniform(&[Company, Battalion, Engineer]));
        assert!(big > small, "{big} against {small}");
    }

    #[test]
    fn what_dies_in_the_battle_is_not_counted() {
        let rules = Rules::default();
        // A commander beats everything here but the mine: the defender
        // stays only when it is the mine, then known for sure.
        let p = uniform(&[Landmine, Platoon, Company]);
        let got = information(&rules, Commander, &p);
        let want = (1.0 / 3.0) * 3f32.log2() * (value(Landmine) as f32 / 1000.0);
        assert!((got - want).abs() < 1e-4, "{got} against {want}");
    }
}
