//! The inference board (推理): what a player's own view allows about the other armies, from
//! the same belief the AI plays with (so it is fair: it uses nothing the player could not work
//! out from the public events). For each hidden piece on the board, the probability of each
//! rank (zero for the ranks the facts rule out: "has moved, so not a mine or the flag", "beat
//! your 师长, so 军长 or 司令 or a bomb", the counts); for each other army, how many of each
//! rank are still on the board, as a sure range.

use super::belief::{Belief, Priors};
use crate::board::Point;
use crate::piece::{PieceId, Rank, Side};
use crate::rules::Mode;
use crate::view::PlayerView;

/// One hidden piece on the board and what it may be.
#[derive(Clone, Debug, PartialEq)]
pub struct Guess {
    /// Its identity.
    pub id: PieceId,
    /// Its owner.
    pub side: Side,
    /// Where it stands.
    pub at: Point,
    /// The probability of each rank, by [`Rank::index`]; zero exactly for the ranks ruled out.
    pub probabilities: [f32; 12],
}

impl Guess {
    /// The ranks still possible, most likely first.
    pub fn likely(&self) -> Vec<(Rank, f32)> {
        let mut out: Vec<(Rank, f32)> = Rank::ALL
            .into_iter()
            .map(|r| (r, self.probabilities[r.index()]))
            .filter(|&(_, p)| p > 0.0)
            .collect();
        out.sort_by(|a, b| b.1.total_cmp(&a.1));
        out
    }
}

/// How many of each rank one army still has on the board: at least `.0`, at most `.1`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Remaining {
    /// Whose army.
    pub side: Side,
    /// By [`Rank::index`].
    pub alive: [(u8, u8); 12],
}

/// Everything the inference board shows.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Inference {
    /// The hidden pieces on the board.
    pub guesses: Vec<Guess>,
    /// The other armies' remaining pieces (dark and open games).
    pub remaining: Vec<Remaining>,
}

impl Inference {
    /// The guess for the piece on `p`, if a hidden one stands there.
    pub fn at(&self, p: Point) -> Option<&Guess> {
        self.guesses.iter().find(|g| g.at == p)
    }
}

/// What `view` allows about every piece its owner cannot see. Flip games have no hidden
/// armies (face-down pieces belong to nobody yet): only their remaining counts are given.
pub fn infer(view: &PlayerView) -> Inference {
    let me = view.me();
    let belief = Belief::new(view, Priors::Hand);
    let mut guesses = Vec::new();
    for h in belief.pieces() {
        let Some(at) = h.at else { continue };
        if let Some(probabilities) = belief.probabilities(h.id) {
            guesses.push(Guess {
                id: h.id,
                side: h.side,
                at,
                probabilities,
            });
        }
    }
    let mut remaining = Vec::new();
    if view.rules().mode != Mode::Flip {
        let sides: Vec<Side> = if view.is_team_game() {
            Side::FOUR.into_iter().filter(|&s| s != me).collect()
        } else {
            vec![me.opponent()]
        };
        for side in sides {
            remaining.push(remaining_of(view, &belief, side));
        }
    }
    Inference { guesses, remaining }
}

/// The sure range of each rank still on the board for `side`: the pieces whose rank the view
/// knows, plus what the hidden ones can hold given how many of each rank they hold together.
fn remaining_of(view: &PlayerView, belief: &Belief, side: Side) -> Remaining {
    // Known as the belief knows them: the rank is the only one the facts leave.
    let mut known_alive = [0u8; 12];
    for k in view.pieces().filter(|k| k.side == side && k.at.is_some()) {
        if let Some(r) = k.known() {
            known_alive[r.index()] += 1;
        }
    }
    let hidden: Vec<_> = belief.pieces().iter().filter(|h| h.side == side).collect();
    let counts = belief.hidden_counts(side).unwrap_or([0; 12]);
    let mut alive = [(0u8, 0u8); 12];
    for r in Rank::ALL {
        let i = r.index();
        let can = |alive: bool| {
            hidden
                .iter()
                .filter(|h| h.at.is_some() == alive && h.possible.contains(r))
                .count() as u8
        };
        let forced = hidden
            .iter()
            .filter(|h| h.at.is_some() && h.possible == r.bit())
            .count() as u8;
        // The hidden pieces hold `counts[i]` of the rank; at most as many as could be removed
        // are gone, at most as many as could stand are alive.
        let lo = forced.max(counts[i].saturating_sub(can(false)));
        let hi = counts[i].min(can(true));
        alive[i] = (known_alive[i] + lo, (known_alive[i] + hi).min(r.count()));
    }
    Remaining { side, alive }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Game, Layout, Rules};
    use rand::{Rng, SeedableRng, rngs::StdRng};

    /// Random dark games, two- and four-player: every hidden piece's true rank is among the
    /// ranks shown possible, each shown rank has a positive probability that sums to one, and
    /// the true number of each rank on the board lies in the range shown.
    #[test]
    fn the_inference_never_rules_out_the_truth() {
        let mut rng = StdRng::seed_from_u64(41);
        for game_no in 0..12 {
            let four = game_no % 3 == 2;
            let rules = if four {
                Rules::four_player(Mode::Dark)
            } else {
                Rules::for_mode(Mode::Dark)
            };
            let mut g = if four {
                let layouts = Side::FOUR.map(|_| Layout::random(&rules, &mut rng));
                Game::new_four(rules, layouts, Side::South).unwrap()
            } else {
                let (a, b) = (
                    Layout::random(&rules, &mut rng),
                    Layout::random(&rules, &mut rng),
                );
                Game::new(rules, a, b, Side::South).unwrap()
            };
            let plies = rng.random_range(10..80);
            for _ in 0..plies {
                if g.result().is_some() {
                    break;
                }
                let side = g.turn();
                let moves = g.view(side).legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.random_range(0..moves.len())];
                g.apply(side, crate::Action::Move(m)).unwrap();
            }
            for me in if four {
                Side::FOUR.to_vec()
            } else {
                vec![Side::South, Side::North]
            } {
                let view = g.view(me);
                let inf = infer(&view);
                for guess in &inf.guesses {
                    let truth = g.position().at(guess.at).expect("a piece there").rank;
                    assert!(
                        guess.probabilities[truth.index()] > 0.0,
                        "{guess:?} is {truth:?}"
                    );
                    let total: f32 = guess.probabilities.iter().sum();
                    assert!((total - 1.0).abs() < 1e-3, "{total}");
                    assert!(guess.likely().iter().all(|&(_, p)| p > 0.0));
                }
                for rem in &inf.remaining {
                    for r in Rank::ALL {
                        let n = g
                            .position()
                            .pieces()
                            .filter(|(_, p)| p.side == rem.side && p.rank == r)
                            .count() as u8;
                        let (lo, hi) = rem.alive[r.index()];
                        assert!(
                            lo <= n && n <= hi,
                            "{:?} {r:?}: {n} not in {lo}..={hi}",
                            rem.side
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn in_an_open_game_nothing_is_hidden_and_the_counts_are_exact() {
        let mut rng = StdRng::seed_from_u64(5);
        let rules = Rules::for_mode(Mode::Open);
        let (a, b) = (
            Layout::random(&rules, &mut rng),
            Layout::random(&rules, &mut rng),
        );
        let g = Game::new(rules, a, b, Side::South).unwrap();
        let inf = infer(&g.view(Side::South));
        assert!(inf.guesses.is_empty());
        for r in Rank::ALL {
            assert_eq!(inf.remaining[0].alive[r.index()], (r.count(), r.count()));
        }
    }
}
