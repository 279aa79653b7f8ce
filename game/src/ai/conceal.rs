//! What the enemy learns about our pieces: keeping the big officers hidden.
//!
//! In a dark game the referee announces only who survived, but the enemy
//! knows what its own piece was: a piece of ours that beats its division is
//! a corps or the commander, and from then on its bombs know where to go.
//! The search does not see that cost. Inside each sample the enemy already
//! knows every piece of ours, so being found out changes nothing there, and
//! the bomb that hunts an exposed commander down strikes many plies later.
//! Against greedy, Master lost games in which its commander took two pieces
//! in its first moves and was bombed at once.
//!
//! So a root attack by one of our officers worth more than a bomb is charged
//! the chance that the enemy then picks it out among our pieces that could
//! have won that battle, times what a bomb trade would cost it, while the
//! enemy may still have a bomb. A piece the enemy has already singled
//! out by an earlier win has little left to give away: the charge is
//! scaled by the chance that it has not ([`shown`]).

use super::Belief;
use super::behaviour::walk;
use super::eval::value;
use crate::game::Event;
use crate::piece::{PieceId, Rank, Side};
use crate::position::Move;
use crate::rules::Outcome;
use crate::view::{PlayerView, Seen};

/// The cost (centi-units) of root move `m` for `view`'s owner: nonzero only
/// for an attack by a commander, corps or division of its own on an enemy
/// piece it cannot see, while that enemy may keep a bomb; `percent` scales
/// it (0 turns it off).
pub fn cost(view: &PlayerView, belief: &Belief, m: Move, percent: i32) -> f32 {
    if percent <= 0 {
        return 0.0;
    }
    let Some((attacker, enemy, defender)) = super::probe::blind_attack(view, m) else {
        return 0.0;
    };
    let Move::Step { from, .. } = m else {
        return 0.0;
    };
    if !(attacker.is_officer() && value(attacker) > value(Rank::Bomb)) {
        return 0.0;
    }
    let bombs = belief
        .hidden_counts(enemy)
        .map_or(0, |c| c[Rank::Bomb.index()]);
    if bombs == 0 {
        return 0.0;
    }
    // The piece's own evidence, not the chances balanced against the
    // army's counts: with those Master scored 0.014 a seed less over seven
    // paired seeds (game/README.md, *Chances that add up*).
    let Some(p) = belief.evidence(defender) else {
        return 0.0;
    };
    let ours = own_officers(view, view.me());
    let unseen = match view.at(from) {
        Some(Seen::Piece { id, .. }) => 1.0 - shown(view, belief, id, attacker, &ours),
        _ => 1.0,
    };
    percent as f32 / 100.0
        * unseen
        * exposure(view.rules(), attacker, &p, &ours)
        * (value(attacker) - value(Rank::Bomb)) as f32
}

/// The chance that the enemy has already singled out our piece `id` (of
/// rank `rank`) by the battles it won so far, each as [`exposure`] prices
/// it with what we now believe of the enemy piece it beat.
pub fn shown(view: &PlayerView, belief: &Belief, id: PieceId, rank: Rank, ours: &[u8]) -> f32 {
    let mut hidden = 1.0;
    walk(view, |e, mover, target| {
        let Event::Battle { announcement, .. } = e else {
            return;
        };
        let beaten = match announcement.outcome {
            Outcome::AttackerWins if mover == Some(id) => target,
            Outcome::DefenderWins if target == Some(id) => mover,
            _ => None,
        };
        let Some(beaten) = beaten else {
            return;
        };
        let p = match view.piece(beaten).and_then(|k| k.known()) {
            Some(r) => certain(r),
            None => match belief.evidence(beaten) {
                Some(p) => p,
                None => return,
            },
        };
        hidden *= 1.0 - exposure(view.rules(), rank, &p, ours);
    });
    1.0 - hidden
}

/// Rank chances for a piece known to be `r`.
fn certain(r: Rank) -> [f32; 12] {
    let mut p = [0.0; 12];
    p[r.index()] = 1.0;
    p
}

/// The chance that the enemy, after `attacker` beats a piece with rank
/// probabilities `p`, singles it out: for each rank it may beat, one over
/// the number of our officers (`ours`, by officer level) that beat that
/// rank too, weighted by the rank's probability.
pub fn exposure(rules: &crate::Rules, attacker: Rank, p: &[f32; 12], ours: &[u8]) -> f32 {
    Rank::ALL
        .iter()
        .filter(|&&k| k.is_officer() || k == Rank::Engineer)
        .filter(|&&k| rules.clash(attacker, k).outcome == Outcome::AttackerWins)
        .map(|&k| {
            let rivals = ours.iter().filter(|&&l| l > k.officer_level()).count();
            p[k.index()] / rivals.max(1) as f32
        })
        .sum()
}

/// The officer levels of `side`'s officers on the board.
fn own_officers(view: &PlayerView, side: Side) -> Vec<u8> {
    view.pieces()
        .filter(|k| k.side == side && k.at.is_some())
        .filter_map(|k| k.known())
        .filter(|r| r.is_officer())
        .map(|r| r.officer_level())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use Rank::*;

    fn levels(ranks: &[Rank]) -> Vec<u8> {
        ranks.iter().map(|r| r.officer_level()).collect()
    }

    #[test]
    fn beating_a_division_gives_the_commander_away_more_than_beating_a_platoon() {
        let rules = crate::Rules::default();
        let ours = levels(&[Commander, Corps, Division, Brigade, Regiment, Platoon]);
        let big = exposure(&rules, Commander, &certain(Division), &ours);
        let small = exposure(&rules, Commander, &certain(Platoon), &ours);
        // Only the commander and the corps beat a division; five beat a platoon.
        assert!((big - 0.5).abs() < 1e-6, "{big}");
        assert!((small - 0.2).abs() < 1e-6, "{small}");
    }

    #[test]
    fn a_battle_it_may_lose_or_trade_gives_nothing_away() {
        let rules = crate::Rules::default();
        let ours = levels(&[Commander, Corps]);
        for r in [Commander, Landmine, Bomb, Flag] {
            assert_eq!(exposure(&rules, Commander, &certain(r), &ours), 0.0);
        }
    }

    #[test]
    fn a_piece_is_shown_only_by_the_battles_it_won() {
        use crate::ai::Priors;
        use crate::{Action, Game, Layout, Mode};
        use rand::seq::IndexedRandom;
        use rand::{Rng, SeedableRng};
        use rand_pcg::Pcg64Mcg;
        let rules = crate::Rules::for_mode(Mode::Dark);
        let mut rng = Pcg64Mcg::seed_from_u64(5);
        let (mut winners, mut shown_winners) = (0, 0);
        for _ in 0..12 {
            let (a, b) = (
                Layout::random(&rules, &mut rng),
                Layout::random(&rules, &mut rng),
            );
            let mut g = Game::new(rules, a, b, Side::South).unwrap();
            // South's pieces that won a battle, by id, from the true board.
            let mut won = [false; 50];
            let plies = rng.random_range(20..160);
            for _ in 0..plies {
                if g.result().is_some() {
                    break;
                }
                let side = g.turn();
                let moves = g.view(side).legal_moves();
                let Some(&m) = moves.choose(&mut rng) else {
                    break;
                };
                if let Move::Step { from, to } = m {
                    let pos = g.position();
                    if let (Some(x), Some(d)) = (pos.at(from), pos.at(to)) {
                        match rules.clash(x.rank, d.rank).outcome {
                            Outcome::AttackerWins if x.side == Side::South => {
                                won[x.id.0 as usize] = true
                            }
                            Outcome::DefenderWins if d.side == Side::South => {
                                won[d.id.0 as usize] = true
                            }
                            _ => {}
                        }
                    }
                }
                g.apply(side, Action::Move(m)).unwrap();
            }
            let view = g.view(Side::South);
            let belief = Belief::new(&view, Priors::Hand);
            let ours = own_officers(&view, Side::South);
            for (_, piece) in g.position().pieces() {
                if piece.side != Side::South || !piece.rank.is_officer() {
                    continue;
                }
                let s = shown(&view, &belief, piece.id, piece.rank, &ours);
                assert!((0.0..=1.0).contains(&s), "{s}");
                if won[piece.id.0 as usize] {
                    winners += 1;
                    shown_winners += usize::from(s > 0.0);
                } else {
                    assert_eq!(s, 0.0, "{:?} never won a battle", piece.rank);
                }
            }
        }
        // Most winners beat a piece that may have been an officer.
        assert!(
            winners > 5 && shown_winners * 2 > winners,
            "{shown_winners} of {winners}"
        );
    }

    #[test]
    fn the_last_big_officer_is_known_whatever_it_beats() {
        let rules = crate::Rules::default();
        let ours = levels(&[Commander]);
        assert_eq!(exposure(&rules, Commander, &certain(Company), &ours), 1.0);
    }
}
