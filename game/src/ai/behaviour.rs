//! What an enemy piece's behaviour tells of its rank: counters read from
//! the public events (moves, attacks, plies spent in our half), and the
//! weight of each rank given them, either the hand-set rules or a table
//! learned from self-play ([`super::calibration`]).

use crate::board::Board;
use crate::game::Event;
use crate::piece::{PieceId, Rank, Side};
use crate::rules::Outcome;
use crate::view::PlayerView;

/// Soft evidence from how enemy pieces behaved.
pub(crate) struct Behaviour {
    /// Per piece id: moves made, attacks made, plies spent in the enemy (my) half.
    moves: [u16; 100],
    attacks: [u16; 100],
    deep: [u16; 100],
}

impl Default for Behaviour {
    fn default() -> Behaviour {
        Behaviour {
            moves: [0; 100],
            attacks: [0; 100],
            deep: [0; 100],
        }
    }
}

impl Behaviour {
    /// The counters of every piece, replayed from the view's events.
    pub(crate) fn from_events(view: &PlayerView) -> Behaviour {
        let mut b = Behaviour::default();
        let board: &Board = view.board();
        let me = view.me();
        walk(view, |e, mover, _| match *e {
            Event::Moved { side, to, .. } if side != me => {
                if let Some(id) = mover {
                    b.moves[id.0 as usize] += 1;
                    // Deep: in my half (or, four players, my partner's).
                    let half = board.info(to).half;
                    if half == Some(me) || (view.is_team_game() && half == Some(me.partner())) {
                        b.deep[id.0 as usize] += 1;
                    }
                }
            }
            Event::Battle { side, .. } if side != me => {
                if let Some(id) = mover {
                    b.attacks[id.0 as usize] += 1;
                }
            }
            _ => {}
        });
        b
    }

    /// The hand-set multiplier on the weight of rank `r` for piece `id`.
    pub(crate) fn hand_factor(&self, id: PieceId, r: Rank) -> f32 {
        let i = id.0 as usize;
        let (moves, attacks, deep) = (self.moves[i], self.attacks[i], self.deep[i]);
        let mut f = 1.0;
        if attacks > 0 {
            // A piece that attacks is usually a big one (or a bomb on a mission).
            f *= match r {
                Rank::Commander | Rank::Corps | Rank::Division => 2.0,
                Rank::Brigade | Rank::Regiment => 1.4,
                Rank::Bomb => 1.2,
                Rank::Engineer | Rank::Platoon => 0.6,
                _ => 1.0,
            };
        }
        if deep > 2 {
            f *= match r {
                Rank::Commander | Rank::Corps | Rank::Division | Rank::Engineer => 1.3,
                _ => 1.0,
            };
        }
        if moves > 6 && r == Rank::Bomb {
            f *= 0.7;
        }
        f
    }

    /// The bucket of piece `id` at ply `ply` in a [`Table`]: attacks made
    /// (0, 1, 2 or more), moves made (none before ply [`LATE`], none from
    /// then on, 1–2, 3–6, 7 or more) and whether it has been in our half.
    pub(crate) fn bucket(&self, id: PieceId, ply: u16) -> usize {
        let i = id.0 as usize;
        let attacks = self.attacks[i].min(2) as usize;
        let moves = match self.moves[i] {
            0 if ply < LATE => 0,
            0 => 1,
            1..=2 => 2,
            3..=6 => 3,
            _ => 4,
        };
        let deep = usize::from(self.deep[i] > 0);
        (attacks * 5 + moves) * 2 + deep
    }
}

/// Replays the view's events with the identity of the pieces in them:
/// `f` gets each event with the piece that moved or attacked and the piece
/// it attacked (ids follow the pieces from their starting points).
pub(crate) fn walk(view: &PlayerView, mut f: impl FnMut(&Event, Option<PieceId>, Option<PieceId>)) {
    let board: &Board = view.board();
    let mut ids: [Option<PieceId>; 129] = [None; 129];
    let seats: &[Side] = if view.is_team_game() {
        &Side::FOUR
    } else {
        &Side::TWO
    };
    for &side in seats {
        for (slot, &p) in board.setup_points(side).iter().enumerate() {
            ids[p.index()] = Some(PieceId((side.index() * 25 + slot) as u8));
        }
    }
    for e in view.events() {
        match *e {
            Event::Moved { from, to, .. } => {
                let id = ids[from.index()].take();
                ids[to.index()] = id;
                f(e, id, None);
            }
            Event::Battle {
                from,
                to,
                announcement,
                ..
            } => {
                let a = ids[from.index()].take();
                f(e, a, ids[to.index()]);
                match announcement.outcome {
                    Outcome::AttackerWins => ids[to.index()] = a,
                    Outcome::DefenderWins => {}
                    Outcome::BothRemoved => ids[to.index()] = None,
                }
            }
            _ => f(e, None, None),
        }
    }
}

/// The ply from which a piece that never moved falls in a bucket of its own.
pub const LATE: u16 = 40;

/// Buckets of `Behaviour::bucket`.
pub const BUCKETS: usize = 30;

/// A multiplier per bucket and rank ([`Rank::ALL`] order) on the layout
/// weights of a hidden piece.
pub type Table = [[f32; 12]; BUCKETS];

/// The table learned by `arena calibrate` (game/README.md, *Learned
/// behaviour*).
#[rustfmt::skip]
pub const LEARNED: Table = [
    [0.708, 0.754, 0.833, 0.967, 1.228, 1.095, 1.183, 1.281, 1.181, 1.214, 0.915, 0.641], // 0
    [1.000, 1.000, 1.000, 1.000, 1.000, 1.000, 1.000, 1.000, 1.000, 1.000, 1.000, 1.000], // 1
    [0.426, 0.348, 0.474, 0.639, 1.199, 1.011, 1.295, 2.198, 1.141, 2.037, 0.883, 0.349], // 2
    [1.000, 1.000, 1.000, 1.000, 1.000, 1.000, 1.000, 1.000, 1.000, 1.000, 1.000, 1.000], // 3
    [0.521, 0.529, 0.541, 1.059, 1.305, 1.293, 1.086, 1.060, 0.931, 1.046, 1.583, 1.046], // 4
    [0.388, 0.355, 0.429, 0.824, 0.908, 1.499, 2.238, 2.087, 0.653, 1.117, 0.385, 1.117], // 5
    [0.285, 0.237, 0.349, 0.749, 1.100, 1.444, 1.504, 1.748, 0.836, 1.085, 1.577, 1.085], // 6
    [0.326, 0.129, 0.240, 0.928, 1.156, 1.139, 2.221, 1.916, 0.186, 1.020, 1.717, 1.020], // 7
    [0.050, 0.050, 0.395, 0.804, 2.016, 1.503, 1.145, 2.628, 0.595, 0.322, 2.172, 0.322], // 8
    [0.199, 0.050, 0.343, 0.405, 0.455, 1.204, 1.063, 2.941, 0.066, 0.404, 4.466, 0.404], // 9
    [0.780, 1.016, 0.923, 0.962, 0.890, 0.861, 1.152, 1.629, 0.946, 0.946, 0.946, 0.946], // 10
    [1.000, 1.000, 1.000, 1.000, 1.000, 1.000, 1.000, 1.000, 1.000, 1.000, 1.000, 1.000], // 11
    [0.507, 0.276, 0.073, 0.514, 2.390, 0.927, 2.698, 1.080, 0.884, 0.884, 0.884, 0.884], // 12
    [1.000, 1.000, 1.000, 1.000, 1.000, 1.000, 1.000, 1.000, 1.000, 1.000, 1.000, 1.000], // 13
    [0.754, 0.471, 0.441, 0.875, 0.883, 1.045, 2.091, 2.056, 0.846, 0.846, 0.846, 0.846], // 14
    [0.624, 0.697, 0.790, 0.993, 0.863, 0.708, 1.485, 2.335, 0.876, 0.876, 0.876, 0.876], // 15
    [0.175, 0.157, 0.108, 0.266, 1.684, 1.240, 1.956, 3.598, 0.704, 0.704, 0.704, 0.704], // 16
    [0.678, 0.186, 0.536, 1.213, 0.592, 0.852, 2.724, 1.594, 0.906, 0.906, 0.906, 0.906], // 17
    [0.049, 0.263, 0.049, 0.360, 2.326, 0.528, 6.153, 2.076, 0.049, 0.049, 0.049, 0.049], // 18
    [0.539, 0.269, 0.401, 0.768, 0.698, 1.462, 1.909, 2.839, 0.779, 0.779, 0.779, 0.779], // 19
    [0.993, 1.296, 1.407, 1.386, 0.636, 1.105, 0.605, 0.050, 1.131, 1.131, 1.131, 1.131], // 20
    [1.000, 1.000, 1.000, 1.000, 1.000, 1.000, 1.000, 1.000, 1.000, 1.000, 1.000, 1.000], // 21
    [1.845, 0.550, 3.120, 0.355, 0.050, 2.651, 0.555, 0.074, 0.700, 0.700, 0.700, 0.700], // 22
    [1.000, 1.000, 1.000, 1.000, 1.000, 1.000, 1.000, 1.000, 1.000, 1.000, 1.000, 1.000], // 23
    [1.168, 0.758, 1.148, 1.757, 0.988, 1.432, 0.714, 0.050, 0.996, 0.996, 0.996, 0.996], // 24
    [1.116, 1.224, 0.955, 1.182, 0.593, 0.840, 1.921, 0.050, 1.030, 1.030, 1.030, 1.030], // 25
    [1.266, 0.281, 0.188, 0.464, 2.822, 0.179, 3.611, 0.050, 0.785, 0.785, 0.785, 0.785], // 26
    [0.907, 0.589, 0.255, 1.215, 0.886, 0.299, 4.758, 0.050, 0.760, 0.760, 0.760, 0.760], // 27
    [0.440, 0.046, 0.046, 0.651, 0.046, 0.046, 10.492, 0.046, 0.046, 0.046, 0.046, 0.046], // 28
    [0.616, 0.049, 0.080, 0.806, 0.879, 3.217, 6.108, 0.049, 0.049, 0.049, 0.049, 0.049], // 29
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_read_attacks_moves_and_depth() {
        let mut b = Behaviour::default();
        let id = PieceId(30);
        assert_eq!(b.bucket(id, 0), 0);
        assert_eq!(b.bucket(id, LATE), 2);
        b.moves[30] = 4;
        b.deep[30] = 1;
        assert_eq!(b.bucket(id, LATE), 7);
        b.attacks[30] = 5;
        b.moves[30] = 9;
        assert_eq!(b.bucket(id, 3), BUCKETS - 1);
    }
}
