//! A full-width alpha-beta searcher in the style of the commercial apps:
//! iterative deepening to a fixed depth (4) under a node budget, negamax
//! with a capture quiescence, its own material-and-mobility evaluation
//! (`evaluate`), its own move ordering (MVV-LVA for attacks, two killer
//! moves a ply, the last iteration's order at the root). Pieces it cannot
//! see are handled by expected values, never samples ([`Guess`]): an
//! unidentified enemy piece counts its expected value, stands on the board
//! at its fixed guess, and a battle it fights is split into its outcome
//! classes, weighed by their chances; in flip games turning a piece over
//! (or striking a face-down one) is searched at the root only, split over
//! the pool of face-down pieces, one reply deep.

use super::guess::{Guess, Guessed, is_guessed};
use super::steps::{Steps, steps};
use super::values::{WIN, value};
use crate::{GameResult, Move, PlayerView, Position};
use arrayvec::ArrayVec;

/// Its settings.
#[derive(Clone, Copy, Debug)]
pub struct AbParams {
    /// The deepest iteration, in plies.
    pub max_depth: u8,
    /// Plies of captures after the last full ply.
    pub qdepth: u8,
    /// Nodes a move (the budget that keeps games reproducible).
    pub nodes: u64,
}

impl Default for AbParams {
    fn default() -> AbParams {
        AbParams {
            max_depth: 4,
            qdepth: 3,
            nodes: 120_000,
        }
    }
}

/// A decision and what it cost.
#[derive(Clone, Copy, Debug)]
pub struct AbChoice {
    /// The move (`None` with no legal move).
    pub mv: Option<Move>,
    /// Its score for the side to move.
    pub score: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// The deepest iteration completed.
    pub depth: u8,
}

/// Mobility: per legal move more than the other side.
const MOBILITY: i32 = 2;
/// A movable piece in the enemy half, plus [`DEPTH`] per row into it.
const ADVANCE: i32 = 6;
const DEPTH: i32 = 2;
/// Closing in on a point that may hold the enemy flag: per hop inside 7, times its chance.
const PULL: f32 = 10.0;
const INF: i32 = 1 << 28;
const MAX_PLY: usize = 32;

/// The move `view`'s player makes, searched under `params` until the budget
/// or `stop`.
pub fn choose(view: &PlayerView, params: &AbParams, stop: &dyn Fn() -> bool) -> AbChoice {
    let guess = Guess::new(view);
    let (pos, guessed) = guess.board(view);
    let mut s = Searcher::new(&guess, params, stop, pos.board());
    s.root(&pos, guessed, params.max_depth)
}

struct Searcher<'a> {
    guess: &'a Guess,
    /// Expected value and chance of being the flag of each guessed piece, by id.
    ev: Vec<i32>,
    flag_p: Vec<f32>,
    nodes: u64,
    budget: u64,
    stop: &'a dyn Fn() -> bool,
    aborted: bool,
    killers: [[Option<Move>; 2]; MAX_PLY],
    qdepth: u8,
    steps: &'static Steps,
}

impl<'a> Searcher<'a> {
    fn new(
        guess: &'a Guess,
        params: &AbParams,
        stop: &'a dyn Fn() -> bool,
        board: &'static crate::Board,
    ) -> Searcher<'a> {
        let mut ev = vec![0; 256];
        let mut flag_p = vec![0.0; 256];
        for id in 0..=255u8 {
            if let Some(c) = guess.chances(crate::PieceId(id)) {
                let e: f32 = crate::Rank::ALL
                    .iter()
                    .map(|&r| c[r.index()] * value(r) as f32)
                    .sum();
                ev[id as usize] = e.round() as i32;
                flag_p[id as usize] = c[crate::Rank::Flag.index()];
            }
        }
        Searcher {
            guess,
            ev,
            flag_p,
            nodes: 0,
            budget: params.nodes,
            stop,
            aborted: false,
            killers: [[None; 2]; MAX_PLY],
            qdepth: params.qdepth,
            steps: steps(board),
        }
    }

    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.budget || (self.nodes & 255 == 0 && (self.stop)()) {
            self.aborted = true;
        }
        self.aborted
    }

    fn root(&mut self, pos: &Position, guessed: Guessed, max_depth: u8) -> AbChoice {
        let moves = pos.legal_moves();
        let mut out = AbChoice {
            mv: moves.first().copied(),
            score: 0,
            nodes: 0,
            depth: 0,
        };
        if moves.len() <= 1 {
            return out;
        }
        // Moves into the pool of face-down pieces: valued once, one reply deep.
        let mut fixed: Vec<Option<i32>> = vec![None; moves.len()];
        for (i, &m) in moves.iter().enumerate() {
            if into_pool(pos, m) {
                let mut v = 0.0;
                for (p, child, g) in self.guess.turned(pos, guessed, m) {
                    v += p * -self.negamax(&child, g, 1, 1, -INF, INF) as f32;
                }
                fixed[i] = Some(v.round() as i32);
            }
        }
        let mut order: Vec<usize> = (0..moves.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(self.order_key(pos, guessed, moves[i], 0)));
        let mut scores = vec![-INF; moves.len()];
        for depth in 1..=max_depth.max(1) {
            if self.aborted {
                break;
            }
            let mut alpha = -INF;
            let mut best = None;
            for &i in &order {
                let m = moves[i];
                let v = match fixed[i] {
                    Some(v) => v,
                    None => self.child(pos, guessed, m, depth, 0, alpha, INF, false),
                };
                if self.aborted {
                    break;
                }
                scores[i] = v;
                if v > alpha {
                    alpha = v;
                    best = Some(i);
                }
            }
            // A cut-short iteration still searched the last best move first.
            if let Some(i) = best {
                out.mv = Some(moves[i]);
                out.score = scores[i];
            }
            if self.aborted {
                break;
            }
            out.depth = depth;
            order.sort_by_key(|&i| std::cmp::Reverse(scores[i]));
        }
        out.nodes = self.nodes;
        out
    }

    /// The value of `m` in `pos` for the side to move there.
    #[allow(clippy::too_many_arguments)]
    fn child(
        &mut self,
        pos: &Position,
        guessed: Guessed,
        m: Move,
        depth: u8,
        ply: usize,
        alpha: i32,
        beta: i32,
        quiesce: bool,
    ) -> i32 {
        if let Move::Step { from, to } = m
            && pos.at(to).is_some()
            && let Some(branches) = self.guess.battle(pos, guessed, from, to)
        {
            let mut v = 0.0;
            for (p, c, g) in branches {
                let s = if quiesce {
                    -self.quiesce(&c, g, depth.saturating_sub(1), ply + 1, -INF, INF)
                } else {
                    -self.negamax(&c, g, depth - 1, ply + 1, -INF, INF)
                };
                v += p * s as f32;
            }
            return v.round() as i32;
        }
        let mut c = pos.clone();
        c.play_unchecked(m);
        if quiesce {
            -self.quiesce(&c, guessed, depth.saturating_sub(1), ply + 1, -beta, -alpha)
        } else {
            -self.negamax(&c, guessed, depth - 1, ply + 1, -beta, -alpha)
        }
    }

    fn negamax(
        &mut self,
        pos: &Position,
        guessed: Guessed,
        depth: u8,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        if self.tick() {
            return 0;
        }
        if let Some(v) = terminal(pos, ply) {
            return v;
        }
        if depth == 0 {
            return self.quiesce(pos, guessed, self.qdepth, ply, alpha, beta);
        }
        let mut moves = pos.legal_moves();
        moves.retain(|m| !into_pool(pos, *m));
        if moves.is_empty() {
            return self.evaluate(pos, guessed);
        }
        let p = ply.min(MAX_PLY - 1);
        moves.sort_by_cached_key(|&m| std::cmp::Reverse(self.order_key(pos, guessed, m, p)));
        let mut best = -INF;
        for m in moves {
            let v = self.child(pos, guessed, m, depth, ply, alpha, beta, false);
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
            }
            if v > alpha {
                alpha = v;
            }
            if alpha >= beta {
                if !is_attack(pos, m) && self.killers[p][0] != Some(m) {
                    self.killers[p][1] = self.killers[p][0];
                    self.killers[p][0] = Some(m);
                }
                break;
            }
        }
        best
    }

    fn quiesce(
        &mut self,
        pos: &Position,
        guessed: Guessed,
        left: u8,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        if self.tick() {
            return 0;
        }
        if let Some(v) = terminal(pos, ply) {
            return v;
        }
        let stand = self.evaluate(pos, guessed);
        if stand >= beta || left == 0 {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut moves = pos.legal_moves();
        moves.retain(|m| is_attack(pos, *m) && !into_pool(pos, *m));
        moves.sort_by_cached_key(|&m| {
            std::cmp::Reverse(self.order_key(pos, guessed, m, MAX_PLY - 1))
        });
        let mut best = stand;
        for m in moves {
            let v = self.child(pos, guessed, m, left, ply, alpha, beta, true);
            if self.aborted {
                return 0;
            }
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// Higher first: a sure flag, attacks by most valuable victim and least
    /// valuable attacker, the killers, the rest.
    fn order_key(&self, pos: &Position, guessed: Guessed, m: Move, ply: usize) -> i32 {
        let Move::Step { from, to } = m else {
            return 0;
        };
        if let (Some(a), Some(d)) = (pos.at(from), pos.at(to)) {
            if !d.face_up {
                return 500;
            }
            if d.rank == crate::Rank::Flag && !is_guessed(guessed, d) {
                return 1 << 24;
            }
            let victim = self.worth(d, guessed);
            let attacker = self.worth(a, guessed);
            return 100_000 + 16 * victim - attacker;
        }
        if self.killers[ply.min(MAX_PLY - 1)][0] == Some(m) {
            90_000
        } else if self.killers[ply.min(MAX_PLY - 1)][1] == Some(m) {
            80_000
        } else {
            0
        }
    }

    fn worth(&self, pc: crate::Piece, guessed: Guessed) -> i32 {
        if is_guessed(guessed, pc) {
            self.ev[pc.id.0 as usize]
        } else {
            value(pc.rank)
        }
    }

    /// Material (expected for guessed pieces), mobility, advance into the
    /// enemy half and pull towards the points that may hold the enemy flag,
    /// for the side to move less the other's.
    fn evaluate(&self, pos: &Position, guessed: Guessed) -> i32 {
        let board = pos.board();
        let mut score = [0i32; 2];
        let mut pull = [0f32; 2];
        let pieces: ArrayVec<(crate::Point, crate::Piece), 100> =
            pos.pieces().filter(|(_, pc)| pc.side.index() < 2).collect();
        for &(p, pc) in &pieces {
            let s = pc.side.index();
            score[s] += self.worth(pc, guessed);
            if pc.face_up && pc.rank.is_movable() {
                let info = board.info(p);
                if info.half == Some(pc.side.opponent()) {
                    score[s] += ADVANCE + DEPTH * info.row as i32;
                }
            }
            // A point that may hold this side's flag, and who is nearest to it.
            let flag_p = if !pc.face_up {
                0.0
            } else if is_guessed(guessed, pc) {
                self.flag_p[pc.id.0 as usize]
            } else if pc.rank == crate::Rank::Flag {
                1.0
            } else {
                0.0
            };
            if flag_p > 0.0 {
                let near = pieces
                    .iter()
                    .filter(|(_, q)| q.side != pc.side && q.face_up && q.rank.is_movable())
                    .map(|&(q, _)| self.steps.between(q, p))
                    .min()
                    .unwrap_or(u8::MAX);
                pull[1 - s] += PULL * flag_p * 7u8.saturating_sub(near) as f32;
            }
        }
        let turn = pos.turn();
        let mine = pos.legal_move_count() as i32;
        let mut other = pos.clone();
        other.pass();
        let theirs = other.legal_move_count() as i32;
        let (t, o) = (turn.index().min(1), 1 - turn.index().min(1));
        score[t] - score[o] + MOBILITY * (mine - theirs) + (pull[t] - pull[o]).round() as i32
    }
}

/// The value of a finished game for the side to move, `None` while it goes on.
fn terminal(pos: &Position, ply: usize) -> Option<i32> {
    match pos.result()? {
        GameResult::Win { winner, .. } => Some(if winner == pos.turn() {
            WIN - ply as i32
        } else {
            ply as i32 - WIN
        }),
        GameResult::Draw { .. } => Some(0),
    }
}

/// A step onto a piece.
fn is_attack(pos: &Position, m: Move) -> bool {
    matches!(m, Move::Step { to, .. } if pos.at(to).is_some())
}

/// A flip, or a step onto a face-down piece: its outcome is drawn from the pool.
fn into_pool(pos: &Position, m: Move) -> bool {
    match m {
        Move::Flip { .. } => true,
        Move::Step { to, .. } => pos.at(to).is_some_and(|pc| !pc.face_up),
    }
}
