//! Search over determinizations: perfect-information Monte Carlo with a
//! screened, depth-limited alpha-beta (plus an attack quiescence search) on
//! each sampled position, and the scores of each root move averaged over the
//! samples, so an attack on an unknown piece is valued by what it may be.

use super::belief::Belief;
use super::eval::{Guard, Knowledge, WIN, attack_swing};
use super::score;
use super::team::friends;
use super::weights::Weights;
use super::{caution, conceal, probe};
use crate::board::{Point, PointKind, PointSet};
use crate::piece::{Rank, Side};
use crate::position::{GameResult, MAX_MOVES, Move, MoveList, Position};
use crate::rules::Mode;
use crate::view::PlayerView;
use arrayvec::ArrayVec;
use rand::Rng;

mod open;

const INF: i32 = WIN * 2;

/// How much work one search may do.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchParams {
    /// Determinizations drawn from the belief.
    pub samples: usize,
    /// Of those, how many screen every root move (depth 1 + quiescence).
    pub screen_samples: usize,
    /// Root moves kept after screening for the deeper search.
    pub candidates: usize,
    /// Deepest full-width depth (plies, root move included); 1 = screening only.
    pub max_depth: u8,
    /// Deepest full-width depth when nothing is hidden (open games): one
    /// position instead of many samples, so the budget goes into depth.
    pub open_depth: u8,
    /// What the evaluation knows ([`Knowledge`]).
    pub eval: Knowledge,
    /// How much each of its terms counts ([`Weights`]).
    pub weights: Weights,
    /// How the root player's attacks on pieces it cannot identify are
    /// judged inside the tree.
    pub interior: Interior,
    /// Plies of attack-only quiescence after the full-width part.
    pub qdepth: u8,
    /// Node budget for the whole decision (keeps games reproducible).
    pub nodes: u64,
    /// Random spread added to root scores (centi-units) for variety.
    pub noise: i32,
    /// What a draw costs the searching player (centi-units): above zero it
    /// plays on for a win instead of letting a level game run out.
    pub contempt: i32,
    /// How much finding out counts (percent of [`super::probe::PER_BIT`];
    /// 0 = not at all): root attacks on unidentified pieces earn what their
    /// announcement may tell ([`super::probe`]).
    pub probe: i32,
    /// How much giving a big officer away counts (percent of a bomb trade's
    /// cost; 0 = not at all): root attacks by our commander, corps or
    /// division on unidentified pieces are charged it ([`super::conceal`]).
    pub conceal: i32,
    /// Swap rounds per hidden piece that settle each drawn sample towards
    /// the belief's joint weights ([`super::Belief::settle`]; 0 = as drawn).
    pub mixing: u32,
    /// Softness of the average over samples in dark games (centi-units;
    /// 0 = the plain mean): each root move's scores are averaged as chances
    /// of winning, about `tanh(v / soft)`, and read back into the score
    /// scale. Open games have one sample, where any softness reads back
    /// the plain score.
    pub soft: i32,
    /// The same in flip games, where a softer average shuns the attacks
    /// that break a level game open, and more games end drawn.
    pub flip_soft: i32,
    /// Extra weight (percent; 0 = none) on the samples in which a root
    /// attack by anything but an engineer on an enemy piece we cannot see
    /// meets a landmine: the strikes go where the samples' mines are
    /// fewest, so there they are too few.
    pub mine_doubt: i32,
    /// How open games (two players, nothing hidden) are searched: 0 as the
    /// samples are (every root move screened, the best `candidates` deeper
    /// to `open_depth`); 1 every move, iterative deepening alpha-beta with a
    /// transposition table until the budget runs out (the `open` module).
    pub open_full: u8,
    /// How much a blind strike's expected loss counts once more (percent;
    /// 0 = not at all): root attacks in dark games on unidentified enemy
    /// pieces that never moved are charged it ([`super::caution`]).
    pub caution: i32,
}

/// How a search treats the root player's attacks on unidentified enemy
/// pieces below the root (at the root, averaging over samples already
/// values them by what they may be).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interior {
    /// As the sample has it: the searcher "knows" every hidden piece, so
    /// later attacks pick exactly the weak ones (strategy fusion).
    Clairvoyant,
    /// Not made at all; a strike at a hidden flag counts by its chance.
    Blind,
    /// Judged by the belief: the attack ends the line with the static score
    /// plus its expected result over the piece's possible ranks; strikes at
    /// a hidden flag count by their chance.
    Chance,
}

/// One root move and its averaged score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scored {
    /// The move.
    pub mv: Move,
    /// Average score for the mover (centi-units; ±100000 is a won or lost game).
    pub score: f32,
}

/// What a search found.
#[derive(Clone, Debug, Default)]
pub struct Analysis {
    /// Root moves, best first (screened-out moves at the end with their screening score).
    pub moves: Vec<Scored>,
    /// Nodes searched.
    pub nodes: u64,
    /// Samples searched at the deepest completed depth.
    pub samples: usize,
    /// Deepest completed full-width depth.
    pub depth: u8,
    /// Every root move was screened on every screening sample (the node
    /// budget or the stop check did not cut the first stage short), so every
    /// score in `moves` is a real one.
    pub complete: bool,
}

/// The searcher's counters and limits.
pub(crate) struct Searcher<'a> {
    pub nodes: u64,
    limit: u64,
    stop: &'a dyn Fn() -> bool,
    pub aborted: bool,
    qdepth: u8,
    eval: Knowledge,
    weights: Weights,
    interior: Interior,
    guard: Option<Guard>,
    /// The searching player and the cost of a draw to it.
    root: Side,
    contempt: i32,
}

/// Whether a move attacks, and the ranks involved (in a full position).
#[inline]
fn attack(pos: &Position, m: Move) -> Option<(Rank, Rank, bool)> {
    if let Move::Step { from, to } = m {
        let a = pos.at(from)?;
        let d = pos.at(to)?;
        Some((a.rank, d.rank, d.face_up && d.side != a.side))
    } else {
        None
    }
}

/// Ordering key of a move: good attacks first.
#[inline]
fn order_key(pos: &Position, m: Move) -> i32 {
    match attack(pos, m) {
        Some((a, d, true)) => attack_swing(pos, a, d),
        Some((_, _, false)) => -20, // flip games: attacking a face-down piece
        None => 0,
    }
}

/// The moves, best first by [`order_key`]. Keyed inline as the move list is; a position with
/// more moves than that (flying bombs on the big board) is keyed on the heap.
fn ordered(pos: &Position, moves: &MoveList) -> MoveList {
    if moves.len() > MAX_MOVES {
        let mut v: Vec<(i32, Move)> = moves.iter().map(|&m| (order_key(pos, m), m)).collect();
        v.sort_unstable_by_key(|e| -e.0);
        return v.into_iter().map(|e| e.1).collect();
    }
    let mut v: ArrayVec<(i32, Move), MAX_MOVES> =
        moves.iter().map(|&m| (order_key(pos, m), m)).collect();
    v.sort_unstable_by_key(|e| -e.0);
    v.into_iter().map(|e| e.1).collect()
}

/// The attacks of the side to move on face-up enemy pieces (for quiescence),
/// each confirmed by the rules engine: those that do not lose material, or
/// every one with `all`.
fn attacks(pos: &Position, all: bool) -> ArrayVec<(i32, Move), 96> {
    let board = pos.board();
    let me = pos.turn();
    let mut out: ArrayVec<(i32, Move), 96> = ArrayVec::new();
    if pos.flag_captured().is_some() {
        return out;
    }
    let lock = !pos.rules().may_leave_headquarters();
    for from in board.points() {
        let Some(pc) = pos.at(from) else { continue };
        if pc.side != me || !pc.face_up || !pc.rank.is_movable() {
            continue;
        }
        if lock && board.kind(from) == PointKind::Headquarters {
            continue;
        }
        let mut seen = PointSet::EMPTY;
        let mut consider = |to: Point, out: &mut ArrayVec<(i32, Move), 96>| {
            if !seen.insert(to) {
                return;
            }
            let Some(d) = pos.at(to) else { return };
            if !d.face_up || friends(pos, d.side, me) || board.kind(to) == PointKind::Camp {
                return;
            }
            let swing = attack_swing(pos, pc.rank, d.rank);
            if swing < 0 && !all {
                return;
            }
            let m = Move::Step { from, to };
            if !out.is_full() && pos.is_legal(m) {
                out.push((swing, m));
            }
        };
        for &to in board.road_neighbours(from) {
            consider(to, &mut out);
        }
        if board.info(from).rail {
            if pos.rules().rail_runner(pc.rank) {
                // Every occupied railway point reachable through empty ones.
                let mut visited = PointSet::EMPTY;
                visited.insert(from);
                let mut stack: ArrayVec<Point, 64> = ArrayVec::new();
                stack.push(from);
                while let Some(q) = stack.pop() {
                    for &n in board.rail_neighbours(q) {
                        if !visited.insert(n) {
                            continue;
                        }
                        if pos.at(n).is_none() {
                            if !stack.is_full() {
                                stack.push(n);
                            }
                        } else {
                            consider(n, &mut out);
                        }
                    }
                }
            } else {
                for ray in board.rail_rays(from) {
                    if let Some(&q) = ray.iter().find(|&&q| pos.at(q).is_some()) {
                        consider(q, &mut out);
                    }
                }
            }
        }
    }
    out.sort_unstable_by_key(|e| -e.0);
    out
}

impl<'a> Searcher<'a> {
    /// A searcher for `root` with the budget and options of `p`.
    pub(crate) fn new(p: &SearchParams, root: Side, stop: &'a dyn Fn() -> bool) -> Searcher<'a> {
        Searcher {
            nodes: 0,
            limit: p.nodes,
            stop,
            aborted: false,
            qdepth: p.qdepth,
            eval: p.eval,
            weights: p.weights,
            interior: p.interior,
            guard: None,
            root,
            contempt: p.contempt,
        }
    }

    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & 255 == 0 && (self.nodes >= self.limit || (self.stop)()) {
            self.aborted = true;
        }
        self.aborted
    }

    /// The value of a draw for the side to move.
    #[inline]
    fn draw_value(&self, pos: &Position) -> i32 {
        if friends(pos, pos.turn(), self.root) {
            -self.contempt
        } else {
            self.contempt
        }
    }

    /// The static evaluation of `pos` for the side to move: the team
    /// games' in a team game, else the two-player one.
    fn stand(&self, pos: &Position) -> i32 {
        let draw = self.draw_value(pos);
        let guard = self.guard.as_ref();
        score::evaluate(pos, self.eval, &self.weights, guard, draw, Some(self.root))
    }

    /// Terminal score for the side to move, if the game is over by the board.
    #[inline]
    fn terminal(&self, pos: &Position, ply: i32) -> Option<i32> {
        if pos.is_team_game() {
            // Players going out are part of the play; only the end counts here.
            return match pos.result()? {
                GameResult::Win { winner, .. } if friends(pos, winner, pos.turn()) => {
                    Some(WIN - ply)
                }
                GameResult::Win { .. } => Some(-WIN + ply),
                GameResult::Draw { .. } => Some(self.draw_value(pos)),
            };
        }
        if let Some(loser) = pos.flag_captured() {
            return Some(if loser == pos.turn() {
                -WIN + ply
            } else {
                WIN - ply
            });
        }
        if pos.rules().is_quiet_draw(pos.quiet_plies()) {
            return Some(self.draw_value(pos));
        }
        None
    }

    /// Negamax alpha-beta for the side to move.
    pub(crate) fn negamax(
        &mut self,
        pos: &Position,
        depth: u8,
        mut alpha: i32,
        beta: i32,
        ply: i32,
    ) -> i32 {
        if self.tick() {
            return 0;
        }
        if let Some(v) = self.terminal(pos, ply) {
            return v;
        }
        if depth == 0 {
            return self.qsearch(pos, alpha, beta, ply, self.qdepth);
        }
        let mut moves = pos.legal_moves();
        if moves.is_empty() {
            return -WIN + ply;
        }
        if pos.rules().mode == Mode::Flip {
            // Inside the tree, turning pieces over is speculation the
            // samples already make: search the moves of face-up pieces only.
            moves.retain(|m| matches!(m, Move::Step { .. }));
            if moves.is_empty() {
                return self.qsearch(pos, alpha, beta, ply, self.qdepth);
            }
        }
        let mut best = -INF;
        let mut stand = None;
        for m in ordered(pos, &moves) {
            let v = if self.blind(pos, m) {
                if self.interior != Interior::Chance {
                    continue;
                }
                let st = *stand.get_or_insert_with(|| self.stand(pos));
                match self.chance_value(pos, m, st) {
                    Some(v) => v,
                    None => continue,
                }
            } else {
                let mut child = pos.clone();
                child.play_unchecked(m);
                self.child(pos.turn(), &child, depth - 1, alpha, beta, ply + 1)
            };
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if best == -INF {
            // Every move was a blind attack: judge the position as it stands.
            return self.qsearch(pos, alpha, beta, ply, 0);
        }
        best
    }

    /// Whether `m` is an attack by the root player on a piece it cannot
    /// identify, made inside the tree of an honest search.
    #[inline]
    fn blind(&self, pos: &Position, m: Move) -> bool {
        let Some(g) = &self.guard else { return false };
        if pos.turn() != g.root {
            return false;
        }
        match m {
            Move::Step { to, .. } => pos.at(to).is_some_and(|d| {
                !friends(pos, d.side, g.root) && (!d.face_up || g.is_hidden(d.id.0))
            }),
            Move::Flip { .. } => false,
        }
    }

    /// For a root-player attack on an unidentified piece (a [`Self::blind`]
    /// move) in a chance search: the belief-weighted score of the attack for
    /// the mover, given the static score `stand` (`None` in other searches).
    #[inline]
    fn chance_value(&self, pos: &Position, m: Move, stand: i32) -> Option<i32> {
        if self.interior != Interior::Chance {
            return None;
        }
        let g = self.guard.as_ref()?;
        let Move::Step { from, to } = m else {
            return None;
        };
        let a = pos.at(from)?.rank;
        let d = pos.at(to)?;
        let Some(p) = g.chances(d.id.0).filter(|_| d.face_up) else {
            return Some(-INF);
        };
        let flag = p[Rank::Flag.index()];
        let mut v = stand as f32 * (1.0 - flag) + flag * WIN as f32;
        for r in Rank::ALL {
            if r != Rank::Flag && p[r.index()] > 0.0 {
                v += p[r.index()] * attack_swing(pos, a, r) as f32;
            }
        }
        Some(v as i32)
    }

    /// Attack-only quiescence: stand pat or make a non-losing attack.
    pub(crate) fn qsearch(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: i32,
        q: u8,
    ) -> i32 {
        if self.tick() {
            return 0;
        }
        if let Some(v) = self.terminal(pos, ply) {
            return v;
        }
        let me = pos.turn();
        let stand = self.stand(pos);
        if q == 0 || stand >= beta {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut best = stand;
        let chance =
            self.interior == Interior::Chance && self.guard.as_ref().is_some_and(|g| g.root == me);
        for (swing, m) in attacks(pos, chance) {
            let v = if self.blind(pos, m) {
                match self.chance_value(pos, m, stand) {
                    Some(v) => v,
                    None => continue,
                }
            } else {
                if swing < 0 {
                    // Listed only in case the piece was unidentified; this one is known.
                    continue;
                }
                let mut child = pos.clone();
                child.play_unchecked(m);
                if friends(&child, child.turn(), me) {
                    // Team games: the partner moves next (the enemy between is out).
                    self.qsearch(&child, alpha, beta, ply + 1, q - 1)
                } else {
                    -self.qsearch(&child, -beta, -alpha, ply + 1, q - 1)
                }
            };
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// The exact score of playing `m` in `pos` for the mover, searching `depth` plies in all.
    fn root_move(&mut self, pos: &Position, m: Move, depth: u8) -> i32 {
        let mut child = pos.clone();
        child.play_unchecked(m);
        self.child(pos.turn(), &child, depth.saturating_sub(1), -INF, INF, 1)
    }

    /// The value for `mover` of the position after its move: negated when
    /// the other side moves next, as it is when the seat to move next is
    /// its partner's (a team game with an enemy out: one team, two moves).
    #[inline]
    fn child(
        &mut self,
        mover: Side,
        child: &Position,
        depth: u8,
        alpha: i32,
        beta: i32,
        ply: i32,
    ) -> i32 {
        if friends(child, child.turn(), mover) {
            self.negamax(child, depth, alpha, beta, ply)
        } else {
            -self.negamax(child, depth, -beta, -alpha, ply)
        }
    }
}

/// Searches the view's position over sampled determinizations.
pub fn analyse(
    view: &PlayerView,
    belief: &Belief,
    p: &SearchParams,
    rng: &mut impl Rng,
    stop: &dyn Fn() -> bool,
) -> Analysis {
    let root = view.legal_moves();
    let mut out = Analysis::default();
    if root.is_empty() {
        out.complete = true;
        return out;
    }
    let hides_nothing =
        view.rules().mode == Mode::Open || (belief.pieces().is_empty() && view.hidden().is_empty());
    let n_samples = if hides_nothing { 1 } else { p.samples.max(1) };
    let positions: Vec<Position> = (0..n_samples)
        .map(|_| {
            let mut s = belief.sample(rng);
            belief.settle(&mut s, p.mixing, rng);
            belief.position(view, &s)
        })
        .collect();
    // The random spread and the value of what an attack tells, per root move.
    let bonus: Vec<f32> = root
        .iter()
        .map(|&m| {
            let noise = if p.noise > 0 {
                rng.random_range(0..p.noise)
            } else {
                0
            };
            noise as f32 + probe::bonus(view, belief, m, p.probe)
                - conceal::cost(view, belief, m, p.conceal)
                - caution::cost(view, belief, m, p.caution)
        })
        .collect();
    let mut s = Searcher::new(p, view.me(), stop);
    if p.open_full > 0
        && view.rules().mode == Mode::Open
        && !view.is_team_game()
        && !open::hunting(&positions[0])
    {
        let mut o = open::Open::new(&mut s);
        let (moves, depth, complete) = o.search(&positions[0], &root, &bonus, u8::MAX);
        out.moves = moves;
        out.depth = depth;
        out.complete = complete;
        out.samples = 1;
        out.nodes = s.nodes;
        return out;
    }
    if p.interior != Interior::Clairvoyant {
        let mut hidden = Box::new([None; 256]);
        for k in belief.pieces() {
            hidden[k.id.0 as usize] = Some(belief.probabilities(k.id).unwrap_or([0.0; 12]));
        }
        // Face-down pieces of flip games carry id 255 in a determinization.
        hidden[255] = Some([0.0; 12]);
        s.guard = Some(Guard {
            root: view.me(),
            hidden,
        });
    }

    let soft = if view.rules().mode == Mode::Flip {
        p.flip_soft
    } else {
        p.soft
    };

    // Stage 1: screen every root move at depth 1 + quiescence.
    let n1 = p.screen_samples.clamp(1, positions.len());
    let mut tally = vec![Tally::new(soft); root.len()];
    let doubts: Vec<f64> = root.iter().map(|&m| doubt(view, m, p.mine_doubt)).collect();
    'screen: for pos in &positions[..n1] {
        for (i, &m) in root.iter().enumerate() {
            let v = s.root_move(pos, m, 1);
            if s.aborted {
                break 'screen;
            }
            tally[i].add_weighted(v, sample_weight(doubts[i], pos, m));
        }
    }
    let mut screened: Vec<Scored> = root
        .iter()
        .enumerate()
        .map(|(i, &m)| Scored {
            mv: m,
            score: if tally[i].weight > 0.0 {
                tally[i].mean() + bonus[i]
            } else {
                // Never reached (stopped at once): order by the attack heuristic.
                order_key(&positions[0], m) as f32 - WIN as f32
            },
        })
        .collect();
    sort_scored(&mut screened);
    out.complete = !s.aborted;
    out.moves = screened.clone();
    out.depth = 1;
    out.samples = n1;
    let max_depth = if n_samples == 1 {
        p.max_depth.max(p.open_depth)
    } else {
        p.max_depth
    };
    if s.aborted || max_depth <= 1 || root.len() == 1 {
        out.nodes = s.nodes;
        return out;
    }

    // Stage 2: the best candidates, deeper, over all samples; iterative deepening.
    let k = p.candidates.clamp(1, screened.len());
    let cands: Vec<Move> = screened[..k].iter().map(|x| x.mv).collect();
    let bonus_of = |m: Move| -> f32 { root.iter().position(|&x| x == m).map_or(0.0, |i| bonus[i]) };
    let cand_doubts: Vec<f64> = cands
        .iter()
        .map(|&m| doubt(view, m, p.mine_doubt))
        .collect();
    for depth in 2..=max_depth {
        let mut tally = vec![Tally::new(soft); k];
        for pos in &positions {
            for (j, &m) in cands.iter().enumerate() {
                let v = s.root_move(pos, m, depth);
                if s.aborted {
                    break;
                }
                tally[j].add_weighted(v, sample_weight(cand_doubts[j], pos, m));
            }
            if s.aborted {
                break;
            }
        }
        if s.aborted {
            break;
        }
        let mut deep: Vec<Scored> = cands
            .iter()
            .zip(&tally)
            .map(|(&m, t)| Scored {
                mv: m,
                score: t.mean() + bonus_of(m),
            })
            .collect();
        sort_scored(&mut deep);
        deep.extend(screened[k..].iter().copied());
        out.moves = deep;
        out.depth = depth;
        out.samples = positions.len();
    }
    out.nodes = s.nodes;
    out
}

/// What a sample in which root move `m` meets a landmine counts for
/// ([`SearchParams::mine_doubt`]): more than 1 for a blind attack by
/// anything but an engineer in a dark game, 1 otherwise.
fn doubt(view: &PlayerView, m: Move, percent: i32) -> f64 {
    if percent <= 0 || view.rules().mode != Mode::Dark {
        return 1.0;
    }
    match probe::blind_attack(view, m) {
        Some((attacker, _, _)) if attacker != Rank::Engineer => 1.0 + percent as f64 / 100.0,
        _ => 1.0,
    }
}

/// The weight of sample `pos` for a root move `m` whose [`doubt`] is `doubt`.
fn sample_weight(doubt: f64, pos: &Position, m: Move) -> f64 {
    match m {
        Move::Step { to, .. } if pos.at(to).is_some_and(|d| d.rank == Rank::Landmine) => doubt,
        _ => 1.0,
    }
}

/// One root move's scores over the samples: their mean, or with a
/// softness `k` (centi-units) the mean of [`soften`]ed scores read back,
/// so that a game won in some samples and a piece lost in the others weigh
/// as chances of winning, not as 100,000 against a few hundred. Moves
/// decisive in every sample keep the plain mean.
#[derive(Clone, Copy)]
struct Tally {
    k: i32,
    sum: f64,
    soft: f64,
    /// The samples' weights added up.
    weight: f64,
    open: bool,
}

impl Tally {
    fn new(k: i32) -> Tally {
        Tally {
            k,
            sum: 0.0,
            soft: 0.0,
            weight: 0.0,
            open: false,
        }
    }

    /// Adds score `v` of a sample that counts `w` times.
    fn add_weighted(&mut self, v: i32, w: f64) {
        self.sum += v as f64 * w;
        self.weight += w;
        if self.k > 0 {
            self.soft += soften(v as f64, self.k) * w;
            self.open |= v.abs() < WIN / 2;
        }
    }

    fn mean(&self) -> f32 {
        let k = self.k;
        let n = if self.weight > 0.0 { self.weight } else { 1.0 };
        if k <= 0 || !self.open {
            return (self.sum / n) as f32;
        }
        // `soften` rises strictly: bisect for the score it maps to the mean.
        let target = self.soft / n;
        let (mut lo, mut hi) = (-2.0 * WIN as f64, 2.0 * WIN as f64);
        for _ in 0..64 {
            let mid = (lo + hi) / 2.0;
            if soften(mid, k) < target {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo as f32
    }
}

/// A score as a chance of winning, roughly: `tanh(v / k)`, plus a small
/// slope that keeps large scores apart (so one sample reads back as itself).
#[inline]
fn soften(v: f64, k: i32) -> f64 {
    let x = v / k as f64;
    x.tanh() + x / 1000.0
}

fn sort_scored(v: &mut [Scored]) {
    v.sort_by(|a, b| b.score.total_cmp(&a.score));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::Level;
    use crate::ai::team::tests::team_position;
    use Rank::*;
    use Side::{East as E, North as N, South as S, West as W};

    #[test]
    fn moves_past_the_inline_capacity_are_all_ordered() {
        // Flying bombs on the big board: over 500 legal moves (the ordering once panicked).
        for text in [
            include_str!("../../tests/data/many_moves_four.json"),
            include_str!("../../tests/data/many_moves_two_on_four.json"),
        ] {
            let pos = crate::position_from_json(text).expect("a valid position");
            let moves = pos.legal_moves();
            assert!(moves.len() > MAX_MOVES);
            let sorted = ordered(&pos, &moves);
            let keys: Vec<i32> = sorted.iter().map(|&m| order_key(&pos, m)).collect();
            assert!(keys.windows(2).all(|w| w[0] >= w[1]), "best first");
            let mut a: Vec<String> = moves.iter().map(|m| format!("{m:?}")).collect();
            let mut b: Vec<String> = sorted.iter().map(|m| format!("{m:?}")).collect();
            a.sort();
            b.sort();
            assert_eq!(a, b, "every move, once");
        }
    }

    /// The best move for the side to move by a full-width search of `depth` plies.
    fn best(pos: &Position, depth: u8) -> Move {
        let p = Level::Expert.params().search;
        let stop = || false;
        let mut s = Searcher::new(&p, pos.turn(), &stop);
        let moves = pos.legal_moves();
        let mut scored: Vec<(i32, Move)> = moves
            .iter()
            .map(|&m| (s.root_move(pos, m, depth), m))
            .collect();
        scored.sort_by_key(|e| -e.0);
        scored[0].1
    }

    fn step(from: &str, to: &str) -> Move {
        let b = crate::Board::four_player();
        Move::Step {
            from: b.parse_point(from).unwrap(),
            to: b.parse_point(to).unwrap(),
        }
    }

    #[test]
    fn south_saves_the_partners_flag_from_the_next_enemy_before_taking_material() {
        // East's engineer stands beside North's flag and East moves next;
        // South could take a West division instead, but then North is out.
        let pos = team_position(
            S,
            &[
                ("S:62", S, Flag),
                ("N:53", S, Corps),
                ("S:31", S, Commander),
                ("N:62", N, Flag),
                ("N:14", N, Platoon),
                ("E:62", E, Flag),
                ("N:52", E, Engineer),
                ("E:14", E, Platoon),
                ("W:62", W, Flag),
                ("S:21", W, Division),
                // Without a piece to move West would go out by itself.
                ("W:14", W, Platoon),
            ],
        );
        for depth in [2, 3] {
            assert_eq!(best(&pos, depth), step("N:53", "N:52"), "depth {depth}");
        }
    }

    #[test]
    fn a_seat_takes_an_enemy_flag_it_can_reach() {
        let pos = team_position(
            E,
            &[
                ("S:62", S, Flag),
                ("S:52", E, Regiment),
                ("S:14", S, Platoon),
                ("N:62", N, Flag),
                ("N:14", N, Platoon),
                ("E:62", E, Flag),
                ("W:62", W, Flag),
                ("W:14", W, Platoon),
                ("E:31", E, Commander),
                ("E:41", S, Division),
            ],
        );
        assert_eq!(best(&pos, 2), step("S:52", "S:62"));
    }

    #[test]
    fn a_soft_average_weighs_a_won_game_against_a_lost_corps_as_chances() {
        let tally = |scores: &[i32], k: i32| {
            let mut t = Tally::new(k);
            for &v in scores {
                t.add_weighted(v, 1.0);
            }
            t.mean()
        };
        // One sample, or scores alike, read back as themselves.
        for v in [-700, 0, 250, 33_000] {
            assert!((tally(&[v], 2000) - v as f32).abs() < 1.0, "{v}");
            assert!((tally(&[v, v, v], 2000) - v as f32).abs() < 1.0, "{v}");
        }
        // A strike that takes the flag in one sample of five and loses the
        // corps on a landmine in the others: worth it by the plain mean, not
        // as chances of winning.
        let strike = [WIN - 3, -720, -720, -720, -720];
        assert!(tally(&strike, 0) > 0.0);
        // As chances of winning (Master's softness in dark games and in flip
        // games): not one in five, but two in five are worth it.
        let strikes = [WIN - 3, WIN - 3, -720, -720, -720];
        for k in [1000, 2000] {
            assert!(tally(&strike, k) < 0.0, "{k}");
            assert!(tally(&strikes, k) > 0.0, "{k}");
        }
        // Won in every sample: the plain mean, which prefers the quicker win.
        assert!(tally(&[WIN - 1, WIN - 1], 2000) > tally(&[WIN - 3, WIN - 1], 2000));
    }

    #[test]
    fn doubt_weighs_the_samples_where_a_strike_meets_a_landmine() {
        let rules = crate::Rules::default();
        let board = rules.two_player_board();
        let own = crate::layout::classic_layouts()[0]
            .layout
            .validate(&rules)
            .expect("a classic layout");
        // South sees its own army; every North piece is hidden.
        let view = PlayerView::new(rules, S, &own, S);
        let at = |name: &str| board.parse_point(name).unwrap();
        // N54 holds a North piece South cannot see, S11 one of South's own;
        // the striker stands where South's layout has one of its rank.
        let (hidden, own_piece) = (at("N54"), at("S11"));
        let placements = own.placements(board, S);
        let from_of = |striker: Rank| placements.iter().find(|x| x.1 == striker).unwrap().0;
        let sample = |striker: Rank, target: Rank, to| {
            let from = from_of(striker);
            let mut pos = Position::empty(board, rules, S);
            let piece = |side, rank, n| {
                Some(crate::Piece {
                    side,
                    rank,
                    face_up: true,
                    id: crate::PieceId(n),
                })
            };
            pos.set(from, piece(S, striker, 0));
            pos.set(to, piece(N, target, 30));
            pos
        };
        let w = |striker, target, to, percent| {
            let m = Move::Step {
                from: from_of(striker),
                to,
            };
            sample_weight(doubt(&view, m, percent), &sample(striker, target, to), m)
        };
        // A division that meets a landmine the view cannot see: twice.
        assert_eq!(w(Division, Landmine, hidden, 100), 2.0);
        assert_eq!(w(Bomb, Landmine, hidden, 50), 1.5);
        // Off, an engineer (it digs the mine), another rank, a piece South knows.
        assert_eq!(w(Division, Landmine, hidden, 0), 1.0);
        assert_eq!(w(Engineer, Landmine, hidden, 100), 1.0);
        assert_eq!(w(Division, Platoon, hidden, 100), 1.0);
        assert_eq!(w(Division, Landmine, own_piece, 100), 1.0);
        // The weighted mean: a sample counted twice moves the mean its way.
        let mut t = Tally::new(0);
        t.add_weighted(-480, 2.0);
        t.add_weighted(120, 1.0);
        assert_eq!(t.mean(), -280.0);
    }
}
