//! The search of a two-player position in which nothing is hidden (open
//! games): one position, every move, as deep as the budget allows. Iterative
//! deepening principal-variation alpha-beta with a transposition table, move
//! ordering by the table's move, attacks by their swing, two killers a ply
//! and a history of quiet moves, and the attack quiescence of [`Searcher::qsearch`] below the horizon (battles are
//! exact, every rank is known). The screened search of the samples keeps only
//! its best ten root moves below the first ply, which misses the two- and
//! three-move captures a full-width searcher of depth four finds.

use super::{INF, Scored, Searcher, order_key};
use crate::ai::eval::WIN;
use crate::board::MAX_POINTS;
use crate::moves::Move;
use crate::position::{MAX_MOVES, Position};
use arrayvec::ArrayVec;

/// Deepest iteration (plies); the node budget or the clock stops it first.
const MAX_DEPTH: u8 = 24;

/// Transposition table entries (a power of two).
const TABLE: usize = 1 << 17;

/// Plies tracked for killers.
const MAX_PLY: usize = 64;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    /// The score is at least this (a cut-off).
    Lower,
    /// The score is at most this (every move failed low).
    Upper,
}

#[derive(Clone, Copy)]
struct Entry {
    key: u64,
    score: i32,
    depth: u8,
    bound: Bound,
    best: Option<Move>,
}

/// What one full-width search keeps between nodes and iterations.
pub(super) struct Open<'s, 'a> {
    s: &'s mut Searcher<'a>,
    table: Vec<Option<Entry>>,
    killers: [[Option<Move>; 2]; MAX_PLY],
    history: Vec<i32>,
}

/// Whether the enemy of the side to move is down to its last two movable
/// pieces: a hunt, which the screened search, the evaluation's hunt terms
/// and the solved chase ([`crate::ai::pursuit`]) were tuned for. Searched
/// full-width, every line lets a lone runner escape within the horizon, the
/// moves score alike and the hunters wander: the study of the second hunter
/// (`ai_endgame`) was drawn on three seeds of three instead of won on two.
pub(super) fn hunting(pos: &Position) -> bool {
    let enemy = pos.turn().opponent();
    pos.pieces()
        .filter(|(_, pc)| pc.side == enemy && pc.rank.is_movable())
        .count()
        <= 2
}

/// The hash of a position for the table: the pieces where they stand, the
/// side to move and the quiet-move counter (the evaluation and the draw
/// depend on it).
fn key(pos: &Position) -> u64 {
    let mut h = mix(pos.turn().index() as u64 ^ (u64::from(pos.quiet_plies()) << 8));
    for (p, pc) in pos.pieces() {
        let k =
            ((p.index() * 4 + pc.side.index()) * 16 + pc.rank.index()) * 2 + pc.face_up as usize;
        h ^= mix(k as u64 + 0x9e37);
    }
    h
}

/// splitmix64's finaliser: a well-spread 64-bit value for each input.
#[inline]
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A won or lost score is stored relative to the node, read back relative to the root.
#[inline]
fn to_table(v: i32, ply: i32) -> i32 {
    if v > WIN / 2 {
        v + ply
    } else if v < -WIN / 2 {
        v - ply
    } else {
        v
    }
}

#[inline]
fn from_table(v: i32, ply: i32) -> i32 {
    if v > WIN / 2 {
        v - ply
    } else if v < -WIN / 2 {
        v + ply
    } else {
        v
    }
}

#[inline]
fn is_attack(pos: &Position, m: Move) -> bool {
    match m {
        Move::Step { to, .. } => pos.at(to).is_some(),
        Move::Flip { .. } => true,
    }
}

#[inline]
fn slot(m: Move) -> Option<usize> {
    match m {
        Move::Step { from, to } => Some(from.index() * MAX_POINTS + to.index()),
        Move::Flip { .. } => None,
    }
}

impl<'s, 'a> Open<'s, 'a> {
    pub(super) fn new(s: &'s mut Searcher<'a>) -> Open<'s, 'a> {
        Open {
            s,
            table: vec![None; TABLE],
            killers: [[None; 2]; MAX_PLY],
            history: vec![0; MAX_POINTS * MAX_POINTS],
        }
    }

    fn probe(&self, k: u64) -> Option<Entry> {
        self.table[(k as usize) & (TABLE - 1)].filter(|e| e.key == k)
    }

    fn store(&mut self, k: u64, e: Entry) {
        let i = (k as usize) & (TABLE - 1);
        // Keep a deeper entry of another position; replace anything else.
        if let Some(old) = self.table[i]
            && old.key != k
            && old.depth > e.depth
        {
            return;
        }
        self.table[i] = Some(e);
    }

    /// The moves of `pos`, best first: the table's move, winning and even
    /// attacks by their swing, the ply's killers, quiet moves by history,
    /// losing attacks last.
    fn ordered(
        &self,
        pos: &Position,
        moves: &[Move],
        first: Option<Move>,
        ply: usize,
    ) -> Vec<Move> {
        let killers = self.killers.get(ply).copied().unwrap_or([None; 2]);
        let mut v: ArrayVec<(i32, Move), MAX_MOVES> = ArrayVec::new();
        let mut rest: Vec<(i32, Move)> = Vec::new();
        for &m in moves {
            let k = if Some(m) == first {
                1 << 30
            } else if is_attack(pos, m) {
                let swing = order_key(pos, m);
                if swing >= 0 {
                    (1 << 24) + swing.min(1 << 22)
                } else {
                    -(1 << 24) + swing.max(-(1 << 22))
                }
            } else if killers[0] == Some(m) {
                (1 << 22) + 1
            } else if killers[1] == Some(m) {
                1 << 22
            } else {
                slot(m).map_or(0, |i| self.history[i].min((1 << 22) - 1))
            };
            if v.is_full() {
                rest.push((k, m));
            } else {
                v.push((k, m));
            }
        }
        let mut all: Vec<(i32, Move)> = v.into_iter().chain(rest).collect();
        all.sort_by_key(|e| -e.0);
        all.into_iter().map(|e| e.1).collect()
    }

    /// A quiet move that cut off: remembered for its ply and in the history.
    fn cut(&mut self, pos: &Position, m: Move, depth: u8, ply: usize) {
        if is_attack(pos, m) {
            return;
        }
        if let Some(k) = self.killers.get_mut(ply)
            && k[0] != Some(m)
        {
            k[1] = k[0];
            k[0] = Some(m);
        }
        if let Some(i) = slot(m) {
            let h = &mut self.history[i];
            *h = (*h + i32::from(depth) * i32::from(depth)).min(1 << 20);
        }
    }

    /// Principal-variation alpha-beta for the side to move.
    fn pvs(&mut self, pos: &Position, depth: u8, mut alpha: i32, beta: i32, ply: i32) -> i32 {
        if self.s.tick() {
            return 0;
        }
        if let Some(v) = self.s.terminal(pos, ply) {
            return v;
        }
        if depth == 0 {
            return self.s.qsearch(pos, alpha, beta, ply, self.s.qdepth);
        }
        let k = key(pos);
        let hit = self.probe(k);
        if let Some(e) = hit
            && e.depth >= depth
        {
            let v = from_table(e.score, ply);
            match e.bound {
                Bound::Exact => return v,
                Bound::Lower if v >= beta => return v,
                Bound::Upper if v <= alpha => return v,
                _ => {}
            }
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return -WIN + ply;
        }
        let first = hit.and_then(|e| e.best).filter(|m| moves.contains(m));
        let order = self.ordered(pos, &moves, first, ply as usize);
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = None;
        for (i, &m) in order.iter().enumerate() {
            let mut child = pos.clone();
            child.play_unchecked(m);
            let v = if i == 0 {
                -self.pvs(&child, depth - 1, -beta, -alpha, ply + 1)
            } else {
                let mut v = -self.pvs(&child, depth - 1, -alpha - 1, -alpha, ply + 1);
                if v > alpha && v < beta && !self.s.aborted {
                    v = -self.pvs(&child, depth - 1, -beta, -alpha, ply + 1);
                }
                v
            };
            if self.s.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_move = Some(m);
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        self.cut(pos, m, depth, ply as usize);
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.store(
            k,
            Entry {
                key: k,
                score: to_table(best, ply),
                depth,
                bound,
                best: best_move,
            },
        );
        best
    }

    /// Iterative deepening over the root moves `root` (each with its
    /// `bonus`: the random spread and what the level adds at the root) up
    /// to `max_depth` plies. The root moves, best first: the best with its
    /// score, the others with the bound they failed low on; the deepest
    /// depth completed (or used from a cut-short iteration); whether the
    /// first iteration completed.
    pub(super) fn search(
        &mut self,
        pos: &Position,
        root: &[Move],
        bonus: &[f32],
        max_depth: u8,
    ) -> (Vec<Scored>, u8, bool) {
        let mut order: Vec<usize> = (0..root.len()).collect();
        order.sort_by_key(|&i| -order_key(pos, root[i]));
        let mut scores: Vec<f32> = vec![-(WIN as f32) * 2.0; root.len()];
        let mut best: Option<usize> = None;
        let mut done = 0;
        for depth in 1..=max_depth.min(MAX_DEPTH) {
            let mut alpha = -INF;
            let mut it_best: Option<usize> = None;
            let mut it_scores = scores.clone();
            let mut first_done = false;
            for (n, &i) in order.iter().enumerate() {
                let b = bonus[i].round() as i32;
                let mut child = pos.clone();
                child.play_unchecked(root[i]);
                // Move i matters when its score plus its bonus beats alpha.
                let floor = alpha.saturating_sub(b);
                let mut v = if n == 0 {
                    -self.pvs(&child, depth - 1, -INF, INF, 1)
                } else {
                    -self.pvs(&child, depth - 1, -floor - 1, -floor, 1)
                };
                if n > 0 && v > floor && !self.s.aborted {
                    v = -self.pvs(&child, depth - 1, -INF, -floor, 1);
                }
                if self.s.aborted {
                    break;
                }
                if n == 0 {
                    first_done = true;
                }
                let total = v.saturating_add(b);
                it_scores[i] = total as f32;
                if total > alpha || it_best.is_none() {
                    alpha = total;
                    it_best = Some(i);
                }
            }
            if !first_done {
                break;
            }
            // A cut-short iteration still counts for the moves it finished:
            // the previous best was searched first, so a move that beat it
            // at this depth is better.
            scores = it_scores;
            best = it_best;
            done = depth;
            if self.s.aborted {
                break;
            }
            let b = best.expect("the first move was searched");
            order.sort_by(|&x, &y| scores[y].total_cmp(&scores[x]));
            if let Some(at) = order.iter().position(|&x| x == b) {
                let bi = order.remove(at);
                order.insert(0, bi);
            }
            if alpha.abs() > WIN / 2 {
                // A forced win or loss found: deeper only finds it later.
                break;
            }
        }
        let mut out: Vec<Scored> = (0..root.len())
            .map(|i| Scored {
                mv: root[i],
                score: scores[i],
            })
            .collect();
        out.sort_by(|a, b| b.score.total_cmp(&a.score));
        if let Some(b) = best
            && let Some(at) = out.iter().position(|s| s.mv == root[b])
        {
            let s = out.remove(at);
            out.insert(0, s);
        }
        (out, done, done >= 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::Level;
    use crate::{Action, Game, Layout, Mode, Rules, Side};
    use rand::seq::IndexedRandom;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64Mcg;

    /// Open-game positions of random games, some with few pieces left.
    fn positions(n: usize, seed: u64) -> Vec<Position> {
        let rules = Rules::for_mode(Mode::Open);
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut out = Vec::new();
        while out.len() < n {
            let (a, b) = (
                Layout::random(&rules, &mut rng),
                Layout::random(&rules, &mut rng),
            );
            let mut g = Game::new(rules, a, b, Side::South).unwrap();
            let plies = rng.random_range(10..300);
            for _ in 0..plies {
                if g.result().is_some() {
                    break;
                }
                let side = g.turn();
                let moves = g.view(side).legal_moves();
                let Some(&m) = moves.choose(&mut rng) else {
                    break;
                };
                g.apply(side, Action::Move(m)).unwrap();
            }
            if g.result().is_none() {
                out.push(g.position().clone());
            }
        }
        out
    }

    #[test]
    fn the_table_and_the_ordering_change_no_score_of_a_fixed_depth() {
        // Alpha-beta with a transposition table, killers, history and a
        // null window must give the plain full-width search's value at
        // every depth (the quiet-move counter is part of
        // the key, so a position is never met at two depths).
        let mut p = Level::Master.params().search;
        p.nodes = u64::MAX;
        let stop = || false;
        for (i, pos) in positions(12, 7).iter().enumerate() {
            let root = pos.legal_moves();
            let bonus = vec![0.0; root.len()];
            for depth in 1..=3 {
                let mut plain = Searcher::new(&p, pos.turn(), &stop);
                let want = root
                    .iter()
                    .map(|&m| plain.root_move(pos, m, depth))
                    .max()
                    .unwrap();
                let mut s = Searcher::new(&p, pos.turn(), &stop);
                let (moves, done, complete) = Open::new(&mut s).search(pos, &root, &bonus, depth);
                assert!(complete);
                assert_eq!(moves.len(), root.len(), "every root move is listed");
                let got = moves[0].score as i32;
                if want.abs() > WIN / 2 {
                    // A forced result may end the deepening early.
                    assert_eq!(got, want, "position {i}, depth {depth}");
                    continue;
                }
                assert_eq!(done, depth, "position {i}");
                assert_eq!(got, want, "position {i}, depth {depth}");
                let mut child = pos.clone();
                child.play_unchecked(moves[0].mv);
                let mut check = Searcher::new(&p, pos.turn(), &stop);
                assert_eq!(
                    check.root_move(pos, moves[0].mv, depth),
                    want,
                    "the best move has the best value"
                );
            }
        }
    }

    #[test]
    fn a_budget_cut_iteration_keeps_a_legal_best_move() {
        let mut p = Level::Master.params().search;
        let stop = || false;
        for (i, pos) in positions(6, 11).iter().enumerate() {
            let root = pos.legal_moves();
            let bonus = vec![0.0; root.len()];
            for nodes in [300, 3_000, 30_000] {
                p.nodes = nodes;
                let mut s = Searcher::new(&p, pos.turn(), &stop);
                let (moves, _, _) = Open::new(&mut s).search(pos, &root, &bonus, MAX_DEPTH);
                assert!(root.contains(&moves[0].mv), "position {i}, {nodes} nodes");
                assert!(s.nodes <= nodes + 256, "{} nodes over {nodes}", s.nodes);
            }
        }
    }
}
