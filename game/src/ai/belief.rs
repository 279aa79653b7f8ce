//! What one player may believe about the pieces it cannot see.
//!
//! Dark games: every enemy piece whose rank is not known (on the board or
//! already removed) gets the set of ranks the view's hard facts allow,
//! narrowed further by the remaining counts of the 25-piece army (an exact
//! Hall-condition check over the 12 ranks), and soft weights from the classic
//! layouts (which rank stands where) and from how the piece behaved.
//! Flip games: the face-down pieces are a uniform shuffle of the pieces not
//! yet turned over. Open games hide nothing.
//!
//! [`Belief::sample`] draws complete assignments (determinizations) that
//! satisfy every hard fact and the counts exactly.

use super::behaviour::{Behaviour, LEARNED};
use crate::board::{Board, Point};
use crate::layout::classic_layouts;
use crate::piece::{PieceId, Rank, Side};
use crate::position::Position;
use crate::rank_set::RankSet;
use crate::rules::Mode;
use crate::view::{Hidden, PlayerView, Seen};
use rand::Rng;
use rand::seq::SliceRandom;
use std::sync::OnceLock;

/// One hidden piece of a dark game (an enemy's, or in 四暗 the partner's).
#[derive(Clone, Debug)]
pub struct HiddenPiece {
    /// Its identity.
    pub id: PieceId,
    /// Its owner.
    pub side: Side,
    /// Where it stands (`None` once removed).
    pub at: Option<Point>,
    /// The ranks it can still have, hard facts and counts together.
    pub possible: RankSet,
    /// Soft weight per rank (zero outside `possible`).
    pub weight: [f32; 12],
    /// The chance of each rank: the weights balanced against the army's
    /// counts ([`balance`]).
    chances: [f32; 12],
}

impl HiddenPiece {
    /// Its weights normalized alone (see [`Belief::evidence`]).
    fn evidence(&self) -> [f32; 12] {
        let total: f32 = self.weight.iter().sum();
        let mut out = [0f32; 12];
        for r in self.possible.iter() {
            out[r.index()] = if total > 0.0 {
                self.weight[r.index()] / total
            } else {
                1.0 / self.possible.len() as f32
            };
        }
        out
    }
}

/// A player's belief about everything hidden from it.
#[derive(Clone, Debug)]
pub struct Belief {
    me: Side,
    mode: Mode,
    /// Dark games: the other armies' pieces whose rank is unknown, army by army.
    pieces: Vec<HiddenPiece>,
    /// Dark games: per army with hidden pieces, its owner, the range of its
    /// pieces in `pieces`, and how many of each rank they hold together.
    armies: Vec<Army>,
    /// Flip games: face-down points.
    face_down: Vec<Point>,
    /// Flip games: the (colour, rank) of every piece not yet turned over.
    pool: Vec<(Side, Rank)>,
}

/// The hidden pieces of one army: every army is 25 pieces of its own, so
/// the counts (and the Hall condition) hold army by army.
#[derive(Clone, Debug)]
struct Army {
    start: usize,
    end: usize,
    remaining: [u8; 12],
}

/// A complete assignment of the hidden identities.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// Dark games: the rank of every hidden piece, by piece id (ids of
    /// four-player games run to 99).
    pub ranks: [Option<Rank>; 100],
    /// Flip games: the piece under each face-down point, by point index.
    pub face_down: Vec<(Point, Side, Rank)>,
}

/// The soft evidence a belief weighs hidden ranks by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Priors {
    /// None: every allowed rank weighs the same.
    None,
    /// The classic layouts' habits and the hand-set behaviour rules.
    Hand,
    /// The classic layouts' habits and the behaviour table learned from
    /// self-play ([`super::behaviour::LEARNED`]).
    Learned,
}

/// The layout weights of each rank for the piece `id` of `side`: how often
/// the classic layouts put it on the piece's starting point.
pub(crate) fn layout_weights(board: &Board, side: Side, id: PieceId) -> [f32; 12] {
    let start = board.setup_points(side)[id.0 as usize % 25];
    let info = board.info(start);
    layout_prior()[info.row as usize - 1][info.col as usize - 1]
}

/// How often each rank stands on each (row, col) of the classic layouts,
/// mirrors included: `[row-1][col-1][rank]`, smoothed.
fn layout_prior() -> &'static [[[f32; 12]; 5]; 6] {
    static PRIOR: OnceLock<[[[f32; 12]; 5]; 6]> = OnceLock::new();
    PRIOR.get_or_init(|| {
        let mut n = [[[0f32; 12]; 5]; 6];
        for named in classic_layouts() {
            for l in [named.layout, named.layout.mirrored()] {
                for (r, row) in l.rows.iter().enumerate() {
                    for (c, cell) in row.iter().enumerate() {
                        if let Some(rank) = cell {
                            n[r][c][rank.index()] += 1.0;
                        }
                    }
                }
            }
        }
        for row in n.iter_mut() {
            for cell in row.iter_mut() {
                let total: f32 = cell.iter().sum();
                for w in cell.iter_mut() {
                    // Smoothed so every legal rank keeps a non-zero weight.
                    *w = (*w + 0.3) / (total + 3.6);
                }
            }
        }
        n
    })
}

/// Whether every piece can get a rank: for every set S of ranks, the pieces
/// confined to S are no more than the ranks S holds (Hall's condition).
/// Returns the sets that are exactly full ("tight"), or `None` if infeasible.
fn tight_sets(masks: &[RankSet], counts: &[u8; 12]) -> Option<Vec<u16>> {
    let mut need = vec![0u16; 1 << 12];
    for &m in masks {
        need[m.bits() as usize] += 1;
    }
    let mut cap = vec![0u16; 1 << 12];
    for (r, &c) in counts.iter().enumerate() {
        cap[1 << r] = c as u16;
    }
    for b in 0..12 {
        let bit = 1usize << b;
        for s in 0..(1usize << 12) {
            if s & bit != 0 {
                need[s] += need[s ^ bit];
                cap[s] += cap[s ^ bit];
            }
        }
    }
    let mut tight = Vec::new();
    for s in 1..(1usize << 12) {
        if need[s] > cap[s] {
            return None;
        }
        if need[s] == cap[s] && need[s] > 0 && s != (1 << 12) - 1 {
            tight.push(s as u16);
        }
    }
    Some(tight)
}

impl Belief {
    /// Builds the belief of the view's owner with the soft evidence of
    /// `priors` (layout habits, behaviour); without it every allowed rank
    /// weighs the same.
    pub fn new(view: &PlayerView, priors: Priors) -> Belief {
        let me = view.me();
        let mode = view.rules().mode;
        let mut b = Belief {
            me,
            mode,
            pieces: Vec::new(),
            armies: Vec::new(),
            face_down: Vec::new(),
            pool: Vec::new(),
        };
        if mode == Mode::Flip {
            b.build_flip(view);
        } else {
            b.build_dark(view, priors);
        }
        b
    }

    fn build_flip(&mut self, view: &PlayerView) {
        let board = view.board();
        self.face_down = board
            .points()
            .filter(|&p| view.at(p) == Some(Seen::FaceDown))
            .collect();
        let mut left = [[0u8; 12]; 2];
        for side in Side::TWO {
            for r in Rank::ALL {
                left[side.index()][r.index()] = r.count();
            }
        }
        for k in view.pieces() {
            if let Some(r) = k.known() {
                let slot = &mut left[k.side.index() & 1][r.index()];
                *slot = slot.saturating_sub(1);
            }
        }
        for side in Side::TWO {
            for r in Rank::ALL {
                for _ in 0..left[side.index()][r.index()] {
                    self.pool.push((side, r));
                }
            }
        }
        // The view and the pool always agree in a real game; guard anyway.
        self.pool.truncate(self.face_down.len());
    }

    fn build_dark(&mut self, view: &PlayerView, priors: Priors) {
        let behaviour = if priors == Priors::None {
            Behaviour::default()
        } else {
            Behaviour::from_events(view)
        };
        // Two players: the opponent. Four: everyone else still in (in 双明
        // and 全明 the partner's pieces are all known and add nothing).
        let others: Vec<Side> = if view.is_team_game() {
            Side::FOUR
                .into_iter()
                .filter(|&s| s != self.me && view.is_in(s))
                .collect()
        } else {
            vec![self.me.opponent()]
        };
        for side in others {
            self.build_army(view, side, priors, &behaviour);
        }
    }

    fn build_army(&mut self, view: &PlayerView, side: Side, priors: Priors, behaviour: &Behaviour) {
        let mut remaining = [0u8; 12];
        for r in Rank::ALL {
            remaining[r.index()] = r.count();
        }
        let start = self.pieces.len();
        for k in view.pieces().filter(|k| k.side == side) {
            if let Some(r) = k.known() {
                remaining[r.index()] = remaining[r.index()].saturating_sub(1);
                continue;
            }
            let mut weight = [0f32; 12];
            let layout = layout_weights(view.board(), side, k.id);
            for r in k.possible.iter() {
                let i = r.index();
                weight[i] = match priors {
                    Priors::None => 1.0,
                    Priors::Hand => layout[i] * behaviour.hand_factor(k.id, r),
                    Priors::Learned => layout[i] * LEARNED[behaviour.bucket(k.id, view.ply())][i],
                };
            }
            self.pieces.push(HiddenPiece {
                id: k.id,
                side,
                at: k.at,
                possible: k.possible,
                weight,
                chances: [0.0; 12],
            });
        }
        let end = self.pieces.len();
        if end > start {
            self.armies.push(Army {
                start,
                end,
                remaining,
            });
            self.prune(self.armies.len() - 1);
            balance(&mut self.pieces[start..end], &remaining);
        }
    }

    /// Removes every rank that no complete assignment can give a piece of
    /// army `a`.
    fn prune(&mut self, a: usize) {
        let Army {
            start,
            end,
            remaining,
        } = self.armies[a].clone();
        loop {
            let masks: Vec<RankSet> = self.pieces[start..end].iter().map(|p| p.possible).collect();
            let Some(tight) = tight_sets(&masks, &remaining) else {
                return; // inconsistent view: keep the hard facts as they are
            };
            let mut changed = false;
            for p in &mut self.pieces[start..end] {
                for r in p.possible.iter() {
                    // Fixing p to r breaks a tight set S with r in S that p
                    // could otherwise leave.
                    let bad = tight
                        .iter()
                        .map(|&s| RankSet::from_bits(s))
                        .any(|s| s.contains(r) && !(p.possible - s).is_empty());
                    if bad {
                        p.possible &= !r.bit();
                        p.weight[r.index()] = 0.0;
                        changed = true;
                    }
                }
            }
            if !changed {
                return;
            }
        }
    }

    /// Whose belief this is.
    pub fn me(&self) -> Side {
        self.me
    }

    /// Dark games: the hidden pieces of the other armies (alive and removed).
    pub fn pieces(&self) -> &[HiddenPiece] {
        &self.pieces
    }

    /// Dark games: how many of each rank `side`'s hidden pieces (alive and removed) hold
    /// together, by [`Rank::index`]; `None` when none of its pieces is hidden.
    pub fn hidden_counts(&self, side: Side) -> Option<[u8; 12]> {
        self.armies
            .iter()
            .find(|a| self.pieces.get(a.start).is_some_and(|p| p.side == side))
            .map(|a| a.remaining)
    }

    /// The probability of each rank for a hidden enemy piece: its soft
    /// weights balanced so that every piece holds one rank and the army's
    /// pieces together hold each rank as often as it has them left
    /// (`balance`). `None` when the piece is not hidden.
    pub fn probabilities(&self, id: PieceId) -> Option<[f32; 12]> {
        self.pieces.iter().find(|p| p.id == id).map(|p| p.chances)
    }

    /// A hidden enemy piece's own evidence: its soft weights over the ranks
    /// it may have, normalized alone, without the army's counts (so pieces
    /// that look alike may together hold more of a rank than is left).
    /// `None` when the piece is not hidden.
    pub fn evidence(&self, id: PieceId) -> Option<[f32; 12]> {
        self.pieces
            .iter()
            .find(|p| p.id == id)
            .map(HiddenPiece::evidence)
    }

    /// Flip games: the probability that the face-down piece on `p` is of `side` and `rank`.
    pub fn flip_probability(&self, side: Side, rank: Rank) -> f32 {
        if self.pool.is_empty() {
            return 0.0;
        }
        let n = self.pool.iter().filter(|&&x| x == (side, rank)).count();
        n as f32 / self.pool.len() as f32
    }

    /// Draws one complete assignment consistent with every hard fact.
    pub fn sample(&self, rng: &mut impl Rng) -> Sample {
        let mut out = Sample {
            ranks: [None; 100],
            face_down: Vec::new(),
        };
        if self.mode == Mode::Flip {
            let mut pool = self.pool.clone();
            pool.shuffle(rng);
            out.face_down = self
                .face_down
                .iter()
                .zip(pool)
                .map(|(&p, (s, r))| (p, s, r))
                .collect();
            return out;
        }
        for army in &self.armies {
            let pieces = &self.pieces[army.start..army.end];
            if !sample_army(pieces, &army.remaining, rng, &mut out) {
                sample_by_matching(pieces, &army.remaining, rng, &mut out);
            }
        }
        out
    }

    /// Brings a drawn sample closer to the belief's joint weights: `sweeps`
    /// rounds (one per hidden piece each) of proposed swaps of two pieces'
    /// ranks within an army, each kept by the Metropolis rule on the
    /// product of their weights, so the counts and the hard facts hold. The
    /// draw of [`Self::sample`] leaves the ranks no piece favours to the
    /// last pieces drawn: late in a game, a commander in a headquarters.
    pub fn settle(&self, sample: &mut Sample, sweeps: u32, rng: &mut impl Rng) {
        // Flip games have no armies of hidden pieces: nothing to settle.
        let w = |p: &HiddenPiece, r: Rank| p.weight[r.index()].max(1e-6);
        for army in &self.armies {
            let pieces = &self.pieces[army.start..army.end];
            let n = pieces.len();
            if n < 2 {
                continue;
            }
            for _ in 0..sweeps as usize * n {
                let (a, b) = (
                    &pieces[rng.random_range(0..n)],
                    &pieces[rng.random_range(0..n)],
                );
                let (ia, ib) = (a.id.0 as usize, b.id.0 as usize);
                let (Some(ra), Some(rb)) = (sample.ranks[ia], sample.ranks[ib]) else {
                    continue;
                };
                if ra == rb || !a.possible.contains(rb) || !b.possible.contains(ra) {
                    continue;
                }
                let ratio = w(a, rb) * w(b, ra) / (w(a, ra) * w(b, rb));
                if ratio >= 1.0 || rng.random::<f32>() < ratio {
                    sample.ranks[ia] = Some(rb);
                    sample.ranks[ib] = Some(ra);
                }
            }
        }
    }

    /// The full position of a sample, for search.
    pub fn position(&self, view: &PlayerView, sample: &Sample) -> Position {
        let enemy = self.me.opponent();
        view.determinize(|h| match h {
            Hidden::Enemy(id) => (
                enemy,
                sample.ranks[id.0 as usize].unwrap_or_else(|| {
                    view.piece(id)
                        .and_then(|k| k.possible.iter().next())
                        .unwrap_or(Rank::Engineer)
                }),
            ),
            Hidden::FaceDown(p) => sample
                .face_down
                .iter()
                .find(|x| x.0 == p)
                .map(|&(_, s, r)| (s, r))
                .unwrap_or((enemy, Rank::Engineer)),
        })
    }
}

/// Sets the chances of one army's hidden pieces: their weights scaled, by
/// rows and columns in turn (Sinkhorn), until each piece's chances sum to
/// one and each rank's chances over the pieces sum to how many of it the
/// army has left. Normalising each piece alone let the army hold more of a
/// rank than it has: a dead commander's rank on the living, a shown flag's
/// on the other headquarters (and the big officers two to three times the truth
/// among the pieces that never moved).
fn balance(pieces: &mut [HiddenPiece], remaining: &[u8; 12]) {
    let n: f32 = pieces.len() as f32;
    let total: f32 = remaining.iter().map(|&c| c as f32).sum();
    if total <= 0.0 {
        return;
    }
    // An inconsistent view (never in a real game) may not add up: scale.
    let target = remaining.map(|c| c as f32 * n / total);
    for p in pieces.iter_mut() {
        for r in Rank::ALL {
            let i = r.index();
            p.chances[i] = if p.possible.contains(r) && target[i] > 0.0 {
                p.weight[i].max(1e-6)
            } else {
                0.0
            };
        }
    }
    for _ in 0..BALANCE_ROUNDS {
        let mut column = [0f32; 12];
        for p in pieces.iter() {
            for (c, x) in column.iter_mut().zip(p.chances) {
                *c += x;
            }
        }
        let mut off = 0f32;
        for p in pieces.iter_mut() {
            for (i, x) in p.chances.iter_mut().enumerate() {
                if column[i] > 0.0 {
                    *x *= target[i] / column[i];
                }
            }
            let row: f32 = p.chances.iter().sum();
            if row > 0.0 {
                off = off.max((row - 1.0).abs());
                p.chances.iter_mut().for_each(|x| *x /= row);
            }
        }
        if off < 1e-4 {
            break;
        }
    }
    // A piece left with nothing (an inconsistent view): its own evidence.
    for p in pieces.iter_mut() {
        if p.chances.iter().sum::<f32>() <= 0.0 {
            p.chances = p.evidence();
        }
    }
}

/// Rounds of [`balance`] at most: on the armies of 200 arena games at ply
/// 40 it met its sums to 1e-4 within 6 to 36.
const BALANCE_ROUNDS: usize = 200;

/// Draws ranks for the hidden pieces of one army holding `remaining`
/// between them, most constrained first; `false` (and nothing written)
/// when 64 attempts run into a dead end.
fn sample_army(
    pieces: &[HiddenPiece],
    remaining: &[u8; 12],
    rng: &mut impl Rng,
    out: &mut Sample,
) -> bool {
    // Most constrained first, random among equals.
    let mut order: Vec<usize> = (0..pieces.len()).collect();
    for _attempt in 0..64 {
        order.shuffle(rng);
        order.sort_by_key(|&i| pieces[i].possible.len());
        let mut left = *remaining;
        let mut ok = true;
        for &i in &order {
            let p = &pieces[i];
            let mut total = 0f32;
            for r in p.possible.iter() {
                if left[r.index()] > 0 {
                    total += p.weight[r.index()].max(1e-6) * left[r.index()] as f32;
                }
            }
            if total <= 0.0 {
                ok = false;
                break;
            }
            let mut x = rng.random::<f32>() * total;
            let mut pick = None;
            for r in p.possible.iter() {
                if left[r.index()] > 0 {
                    pick = Some(r);
                    x -= p.weight[r.index()].max(1e-6) * left[r.index()] as f32;
                    if x <= 0.0 {
                        break;
                    }
                }
            }
            let r = pick.expect("total > 0");
            left[r.index()] -= 1;
            out.ranks[p.id.0 as usize] = Some(r);
        }
        if ok {
            return true;
        }
        for p in pieces {
            out.ranks[p.id.0 as usize] = None;
        }
    }
    false
}

/// Fallback: a random complete matching of one army's hidden pieces by
/// augmenting paths (always succeeds when the view is consistent).
fn sample_by_matching(
    pieces: &[HiddenPiece],
    remaining: &[u8; 12],
    rng: &mut impl Rng,
    out: &mut Sample,
) {
    // Rank slots: one per remaining piece of each rank.
    let mut slots: Vec<Rank> = Vec::new();
    for r in Rank::ALL {
        for _ in 0..remaining[r.index()] {
            slots.push(r);
        }
    }
    slots.shuffle(rng);
    let n = pieces.len();
    let mut slot_owner: Vec<Option<usize>> = vec![None; slots.len()];
    let mut order: Vec<usize> = (0..n).collect();
    order.shuffle(rng);
    fn augment(
        i: usize,
        pieces: &[HiddenPiece],
        slots: &[Rank],
        owner: &mut [Option<usize>],
        seen: &mut [bool],
    ) -> bool {
        for s in 0..slots.len() {
            if seen[s] || !pieces[i].possible.contains(slots[s]) {
                continue;
            }
            seen[s] = true;
            if owner[s].is_none_or(|j| augment(j, pieces, slots, owner, seen)) {
                owner[s] = Some(i);
                return true;
            }
        }
        false
    }
    for &i in &order {
        let mut seen = vec![false; slots.len()];
        augment(i, pieces, &slots, &mut slot_owner, &mut seen);
    }
    for (s, owner) in slot_owner.iter().enumerate() {
        if let Some(i) = owner {
            out.ranks[pieces[*i].id.0 as usize] = Some(slots[s]);
        }
    }
    // An inconsistent view (never in a real game) leaves some unmatched: fill them.
    for p in pieces {
        let slot = &mut out.ranks[p.id.0 as usize];
        if slot.is_none() {
            *slot = p.possible.iter().next().or(Some(Rank::Engineer));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hall_condition() {
        let c = |x: &[(Rank, u8)]| {
            let mut out = [0u8; 12];
            for &(r, n) in x {
                out[r.index()] = n;
            }
            out
        };
        let one = Rank::Commander.bit();
        let both = one | Rank::Corps.bit();
        let counts = c(&[(Rank::Commander, 1), (Rank::Corps, 1)]);
        assert!(tight_sets(&[one, both], &counts).is_some());
        assert!(tight_sets(&[one, one], &counts).is_none());
    }

    /// A hidden North piece with these weights (its possible ranks).
    fn piece(id: u8, ranks: &[(Rank, f32)]) -> HiddenPiece {
        let mut weight = [0f32; 12];
        let mut possible = RankSet::EMPTY;
        for &(r, w) in ranks {
            weight[r.index()] = w;
            possible |= r.bit();
        }
        HiddenPiece {
            id: PieceId(id),
            side: Side::North,
            at: None,
            possible,
            weight,
            chances: [0.0; 12],
        }
    }

    #[test]
    fn settled_samples_leave_no_rank_where_no_piece_favours_it() {
        // Two headquarters that never hold the commander, two pieces that
        // may: drawn one by one, the commander is left to a headquarters
        // whenever the two others draw the platoons first (a third of the time).
        use Rank::{Commander, Flag, Platoon};
        let hq = [(Commander, 0.0), (Platoon, 0.3), (Flag, 0.7)];
        let field = [(Commander, 0.5), (Platoon, 0.5)];
        let mut remaining = [0u8; 12];
        remaining[Commander.index()] = 1;
        remaining[Platoon.index()] = 2;
        remaining[Flag.index()] = 1;
        let b = Belief {
            me: Side::South,
            mode: Mode::Dark,
            pieces: vec![
                piece(25, &hq),
                piece(26, &hq),
                piece(27, &field),
                piece(28, &field),
            ],
            armies: vec![Army {
                start: 0,
                end: 4,
                remaining,
            }],
            face_down: Vec::new(),
            pool: Vec::new(),
        };
        let mut rng = rand_pcg::Pcg64Mcg::new(5);
        let n = 3000;
        let (mut drawn, mut settled, mut flag_first) = (0, 0, 0);
        for _ in 0..n {
            let mut s = b.sample(&mut rng);
            let in_hq = |s: &Sample| [25, 26].iter().any(|&i| s.ranks[i] == Some(Commander));
            drawn += in_hq(&s) as u32;
            b.settle(&mut s, 20, &mut rng);
            settled += in_hq(&s) as u32;
            flag_first += (s.ranks[25] == Some(Flag)) as u32;
            let mut counts = [0u8; 12];
            for i in 25..29 {
                counts[s.ranks[i].expect("every piece drawn").index()] += 1;
            }
            assert_eq!(counts, remaining, "settling keeps the counts");
        }
        assert!(drawn > n / 5, "the plain draw: {drawn} of {n}");
        assert!(settled < n / 100, "settled: {settled} of {n}");
        // The two headquarters alike: the flag in either half the time.
        assert!(
            (flag_first as i32 - n as i32 / 2).abs() < 150,
            "{flag_first}"
        );
    }

    #[test]
    fn chances_give_each_rank_as_often_as_the_army_has_it_left() {
        // The commander is dead (its rank is spent) and one flag is left for
        // two headquarters that each favour it: alone, each piece would say
        // "flag" at 0.7 and the field pieces "commander" at 0.4.
        use Rank::{Commander, Flag, Landmine, Platoon};
        let hq = [(Flag, 0.7), (Landmine, 0.2), (Platoon, 0.1)];
        let field = [(Commander, 0.4), (Landmine, 0.2), (Platoon, 0.4)];
        let mut pieces = vec![
            piece(25, &hq),
            piece(26, &hq),
            piece(27, &field),
            piece(28, &field),
        ];
        let mut remaining = [0u8; 12];
        remaining[Flag.index()] = 1;
        remaining[Landmine.index()] = 1;
        remaining[Platoon.index()] = 2;
        balance(&mut pieces, &remaining);
        for p in &pieces {
            let sum: f32 = p.chances.iter().sum();
            assert!((sum - 1.0).abs() < 1e-3, "piece {:?} sums to {sum}", p.id);
            assert_eq!(p.chances[Commander.index()], 0.0, "the commander is spent");
        }
        for r in Rank::ALL {
            let column: f32 = pieces.iter().map(|p| p.chances[r.index()]).sum();
            let left = remaining[r.index()] as f32;
            assert!(
                (column - left).abs() < 1e-3,
                "{r:?}: {column} for {left} left"
            );
        }
        // The two headquarters alike: the one flag half each.
        assert!((pieces[0].chances[Flag.index()] - 0.5).abs() < 1e-3);
        assert!(pieces[2].chances[Flag.index()] == 0.0);
    }
}
