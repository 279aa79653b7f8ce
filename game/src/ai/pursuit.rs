//! Hunting down the enemy's last movable piece (issue: an AI that wins).
//!
//! When the enemy keeps one movable piece and we have pieces that beat it,
//! taking it wins the game (its side has no move left); so does trading a
//! piece of the same rank or a bomb for it while another of ours can still
//! move (trading down: two corps against one). A runner that
//! shuttles between camps and railways escapes a three-ply search forever
//! and the game ends in the quiet-move draw. The chase of one runner by at
//! most two hunters, every other piece standing still, is small enough to
//! solve exactly: a state is where the three stand and who moves, about a
//! hundred thousand states a side on the classic board, solved backwards
//! from the captures (retrograde analysis, as endgame tables are built).
//!
//! The model is conservative for the hunters: the runner escapes as soon as
//! it can attack one of our other pieces without losing (the table would no
//! longer fit the board), and the only other move we may make is a single
//! step by a piece far from the enemy (a tempo move). So a state the table
//! calls won is won on the board, in at most that many of our moves,
//! whatever the runner does; the rules of each move come from
//! [`Position::moves_from`], the engine's own generator.
//!
//! The table is built from the view's position, never from the hidden
//! truth. Where every rank is known (open games, flip games once every
//! piece is face up) the runner is the one enemy piece that can move. In a
//! dark game it is the one enemy piece the view does not know to be a
//! landmine or the flag, and its rank is one of those the view allows: a
//! table is solved for each kind of runner that allows (how it moves, which
//! hunters it trades with, which of our pieces it may attack), and only a
//! move that wins in all of them is played.

use crate::piece::{Piece, Rank, Side};
use crate::position::{Move, Position};
use crate::rules::Outcome;
use crate::{Board, Point, RankSet};

/// How many solved chases a player keeps (a chase lasts many moves and
/// nothing but the three pieces moves during it), and the most one pair of
/// hunters uses at once (one per kind of runner in a dark game).
const KEEP: usize = 6;

/// The most hunters tried: their pairs are solved one by one.
const MAX_HUNTERS: usize = 3;

/// Which pieces take part and where everything else stands: a table is valid
/// for exactly one key.
#[derive(PartialEq, Eq, Debug)]
struct Key {
    runner: Piece,
    hunters: [Option<Piece>; 2],
    /// Every other piece, by point.
    fixed: Vec<(Point, Piece)>,
    /// We may spend a move on another piece instead (a tempo move), so the
    /// runner, which has to move every turn, can be put in zugzwang. That
    /// piece also keeps us a move after a hunter trades with the runner,
    /// which only then wins (with nothing of ours left to move either, the
    /// game would be drawn).
    tempo: bool,
}

/// The solved chase of one key.
struct Table {
    key: Key,
    n: usize,
    /// Which hunters trade with the runner ([`trades`]), read once.
    trades: [bool; 2],
    /// Hunters to move: how many of our moves win at most (0: not won).
    won: Vec<u8>,
    /// Runner to move: how many of our moves after its move win (`NOT`: it escapes).
    lost: Vec<u8>,
}

/// Runner to move and not lost.
const NOT: u8 = u8::MAX;

/// Solved chases, kept across the moves of a game.
#[derive(Default)]
pub struct Chases {
    tables: Vec<Table>,
}

impl Chases {
    /// A new, empty store.
    pub fn new() -> Chases {
        Chases::default()
    }

    /// The move that wins the chase of the enemy's last movable piece
    /// fastest, with the number of our moves it takes at most, or `None` when
    /// there is no such chase or it is not won. `pos` must have every rank
    /// known and `me` to move. A chase not won is left to the search: a
    /// policy that only maximised the runner's losing replies drew the
    /// studies the search's own hunting won (the runner sees one move ahead).
    pub fn winning_move(&mut self, pos: &Position, me: Side) -> Option<(Move, u8)> {
        let (at, runner) = last_runner(pos, me)?;
        self.winning_move_against(pos, me, at, runner.rank.bit())
    }

    /// [`Chases::winning_move`] where the rank of the runner on `runner` is
    /// known only to be one of `ranks` (dark games): the move must win the
    /// chase whichever it is. Every other enemy piece in `pos` must be one
    /// that never moves (a landmine, the flag, a piece the rules keep on its
    /// headquarters), which the caller knows; their ranks in `pos` do not
    /// matter, the runner never attacks its own side.
    pub fn winning_move_against(
        &mut self,
        pos: &Position,
        me: Side,
        runner: Point,
        ranks: RankSet,
    ) -> Option<(Move, u8)> {
        // The classic board only: on the four-player board (两人 games on
        // it) the table would hold ten times the states, beyond a move's
        // time and a phone's memory.
        if pos.board().small().is_none() || pos.turn() != me || pos.result().is_some() {
            return None;
        }
        let piece = pos.at(runner).filter(|pc| pc.side == me.opponent())?;
        let ranks: Vec<Rank> = (ranks & RankSet::MOVABLE).iter().collect();
        let hunters = hunters(pos, me, runner, &ranks);
        let mut best: Option<(Move, u8)> = None;
        // A table takes a tenth of a second or more to solve: at most the
        // store's size are solved for one move, the rest wait for the next.
        let mut budget = KEEP;
        for pair in pairs(&hunters) {
            let keys: Vec<Key> = kinds(pos, pair, &ranks)
                .into_iter()
                .map(|rank| key(pos, (runner, Piece { rank, ..piece }), pair))
                .collect();
            let new = keys
                .iter()
                .filter(|k| !self.tables.iter().any(|t| t.key == **k))
                .count();
            if new > budget || keys.len() > KEEP {
                continue;
            }
            budget -= new;
            let mut tables = Vec::with_capacity(keys.len());
            for key in keys {
                tables.push(self.solved(pos, key, &tables));
            }
            let chosen: Vec<&Table> = tables.iter().map(|&i| &self.tables[i]).collect();
            if let Some(found) = best_move(&chosen, pos, runner, pair)
                && best.is_none_or(|b| found.1 < b.1)
            {
                best = Some(found);
            }
        }
        best
    }

    /// The index of the table of `key`, solved now if it is not kept; the
    /// tables at `keep` are in use and stay.
    fn solved(&mut self, pos: &Position, key: Key, keep: &[usize]) -> usize {
        if let Some(i) = self.tables.iter().position(|t| t.key == key) {
            return i;
        }
        let table = Table::solve(pos, key);
        if self.tables.len() < KEEP {
            self.tables.push(table);
            return self.tables.len() - 1;
        }
        let old = (0..KEEP)
            .find(|i| !keep.contains(i))
            .expect("fewer in use than kept");
        self.tables[old] = table;
        old
    }
}

/// The enemy's one movable piece, when it has exactly one and no face-down
/// piece remains. A piece on a headquarters that the rules keep there is
/// not one: it stands still like a landmine (taking the runner leaves the
/// enemy without a legal move all the same).
fn last_runner(pos: &Position, me: Side) -> Option<(Point, Piece)> {
    let enemy = me.opponent();
    let lock = !pos.rules().may_leave_headquarters();
    let mut found = None;
    for (p, pc) in pos.pieces() {
        if !pc.face_up {
            return None;
        }
        if pc.side == enemy && pc.rank.is_movable() && !(lock && pos.board().is_headquarters(p)) {
            if found.is_some() {
                return None;
            }
            found = Some((p, pc));
        }
    }
    found
}

/// Whether `hunter` and the runner `runner` remove each other in a battle,
/// whichever attacks (same rank, or a bomb on either side).
fn trades(pos: &Position, hunter: Piece, runner: Piece) -> bool {
    pos.rules().clash(hunter.rank, runner.rank).outcome == Outcome::BothRemoved
}

/// Our pieces that take the runner on `runner` whichever of `ranks` it
/// has: those that always live first, then those that may trade with it,
/// nearest first within each.
fn hunters(pos: &Position, me: Side, runner: Point, ranks: &[Rank]) -> Vec<(Point, Piece)> {
    let board = pos.board();
    let clash = |h: Rank, r: Rank| pos.rules().clash(h, r).outcome;
    let mut out: Vec<(Point, Piece)> = pos
        .pieces()
        .filter(|(_, pc)| {
            pc.side == me
                && pc.rank.is_movable()
                && !ranks.is_empty()
                && ranks
                    .iter()
                    .all(|&r| clash(pc.rank, r) != Outcome::DefenderWins)
        })
        .collect();
    out.sort_by(|x, y| {
        let trade = |h: &(Point, Piece)| {
            ranks
                .iter()
                .any(|&r| clash(h.1.rank, r) == Outcome::BothRemoved)
        };
        trade(x)
            .cmp(&trade(y))
            .then(distance(board, x.0, runner).total_cmp(&distance(board, y.0, runner)))
    });
    out.truncate(MAX_HUNTERS);
    out
}

/// How far apart two points are drawn (across and along the board).
fn distance(board: &Board, a: Point, b: Point) -> f32 {
    let (a, b) = (board.info(a), board.info(b));
    (a.x - b.x).abs() + (a.y - b.y).abs()
}

/// One hunter alone, then every pair.
fn pairs(hunters: &[(Point, Piece)]) -> Vec<[Option<(Point, Piece)>; 2]> {
    let mut out = Vec::new();
    for (i, &a) in hunters.iter().enumerate() {
        for &b in &hunters[i + 1..] {
            // By identity, so that a table's key does not change when the
            // hunters swap places in distance.
            let (a, b) = if a.1.id <= b.1.id { (a, b) } else { (b, a) };
            out.push([Some(a), Some(b)]);
        }
    }
    if out.is_empty()
        && let Some(&a) = hunters.first()
    {
        out.push([Some(a), None]);
    }
    out
}

/// One rank for each table the chase of a runner of `ranks` by `pair`
/// needs: two ranks give the same table when the runner moves alike (along
/// the railway's corners or not), trades with the same hunters, and may
/// attack the same of our standing pieces without losing.
fn kinds(pos: &Position, pair: [Option<(Point, Piece)>; 2], ranks: &[Rank]) -> Vec<Rank> {
    let rules = pos.rules();
    let me = pos.turn();
    let hunting = |p: Point| pair.iter().flatten().any(|h| h.0 == p);
    let mut targets: Vec<Rank> = pos
        .pieces()
        .filter(|&(p, pc)| pc.side == me && !hunting(p))
        .map(|(_, pc)| pc.rank)
        .collect();
    targets.sort_unstable_by_key(|r| r.index());
    targets.dedup();
    let sign = |r: Rank| {
        let trades = pair.map(|h| h.is_some_and(|h| trades(pos, h.1, Piece { rank: r, ..h.1 })));
        let escapes: Vec<bool> = targets
            .iter()
            .map(|&t| rules.clash(r, t).outcome != Outcome::DefenderWins)
            .collect();
        (rules.rail_runner(r), trades, escapes)
    };
    let mut out: Vec<Rank> = Vec::new();
    for &r in ranks {
        if !out.iter().any(|&o| sign(o) == sign(r)) {
            out.push(r);
        }
    }
    out
}

fn key(pos: &Position, runner: (Point, Piece), pair: [Option<(Point, Piece)>; 2]) -> Key {
    let moving = |p: Point| p == runner.0 || pair.iter().flatten().any(|h| h.0 == p);
    Key {
        runner: runner.1,
        hunters: pair.map(|h| h.map(|h| h.1)),
        fixed: pos.pieces().filter(|(p, _)| !moving(*p)).collect(),
        tempo: tempo_move(pos, &moving).is_some(),
    }
}

/// A quiet move of one of our pieces that takes no part in the chase: a
/// single step to an empty point by the piece farthest from the enemy.
fn tempo_move(pos: &Position, moving: &dyn Fn(Point) -> bool) -> Option<Move> {
    let board = pos.board();
    pos.legal_moves()
        .into_iter()
        .filter(|&m| match m {
            Move::Step { from, to } => {
                !moving(from)
                    && pos.at(to).is_none()
                    && (board.road_neighbours(from).contains(&to)
                        || board.rail_neighbours(from).contains(&to))
            }
            Move::Flip { .. } => false,
        })
        .max_by(|x, y| far(pos, *x).total_cmp(&far(pos, *y)))
}

/// How far the moving piece of a step stands from the enemy's pieces.
fn far(pos: &Position, m: Move) -> f32 {
    let Move::Step { from, .. } = m else {
        return 0.0;
    };
    let me = pos.turn();
    pos.pieces()
        .filter(|(_, pc)| pc.side != me)
        .map(|(p, _)| distance(pos.board(), from, p))
        .fold(f32::MAX, f32::min)
}

/// A copy of `pos` with only the fixed pieces, `turn` to move.
fn fixed_position(pos: &Position, key: &Key, turn: Side) -> Position {
    let mut out = Position::empty(pos.board(), *pos.rules(), turn);
    for &(p, pc) in &key.fixed {
        out.set(p, Some(pc));
    }
    for side in Side::TWO {
        out.set_mines_left(side, pos.mines_left(side));
    }
    out.set_colours_fixed(true);
    out
}

/// Edges out of states, stored flat: the states in the order they were
/// started, each with its run of targets.
#[derive(Default)]
struct Edges {
    from: Vec<u32>,
    /// Where each started state's run begins in `to`.
    begin: Vec<u32>,
    to: Vec<u32>,
}

impl Edges {
    fn start(&mut self, s: usize) {
        self.from.push(s as u32);
        self.begin.push(self.to.len() as u32);
    }

    fn push(&mut self, target: usize) {
        self.to.push(target as u32);
    }

    /// Each started state with its targets.
    fn iter(&self) -> impl Iterator<Item = (usize, &[u32])> + '_ {
        (0..self.from.len()).map(|i| {
            let end = self.begin.get(i + 1).map_or(self.to.len(), |&e| e as usize);
            (self.from[i] as usize, &self.to[self.begin[i] as usize..end])
        })
    }

    /// The edges turned round, indexed by state (`states` of them).
    fn reversed(&self, states: usize) -> Reversed {
        let mut begin = vec![0u32; states + 1];
        for &t in &self.to {
            begin[t as usize + 1] += 1;
        }
        for i in 0..states {
            begin[i + 1] += begin[i];
        }
        let mut fill = begin.clone();
        let mut to = vec![0u32; self.to.len()];
        for (s, targets) in self.iter() {
            for &t in targets {
                to[fill[t as usize] as usize] = s as u32;
                fill[t as usize] += 1;
            }
        }
        Reversed { begin, to }
    }
}

/// [`Edges::reversed`]: for each state, the states with an edge into it.
struct Reversed {
    begin: Vec<u32>,
    to: Vec<u32>,
}

impl Reversed {
    fn of(&self, s: usize) -> &[u32] {
        &self.to[self.begin[s] as usize..self.begin[s + 1] as usize]
    }
}

impl Table {
    /// State index: runner on `r`, hunters on `a` and `b` (`b == n`: no
    /// second hunter).
    fn index(&self, r: usize, a: usize, b: usize) -> usize {
        (r * self.n + a) * (self.n + 1) + b
    }

    /// The runner's state after the hunter on `from` steps to `to`, the
    /// other hunter on `other` (`a`: where the first hunter stood).
    fn after_hunter_move(&self, r: usize, a: usize, from: usize, other: usize, to: usize) -> usize {
        if from == a {
            self.index(r, to, other)
        } else {
            self.index(r, other, to)
        }
    }

    /// Whether a battle of each hunter with the runner wins, on `pos` with
    /// our side to move and the hunters on `a` and `b`: it does unless they
    /// trade and we are left with no move (no tempo piece, and the other
    /// hunter stuck or absent; its moves asked only then).
    fn battles_win(&self, pos: &Position, a: usize, b: usize) -> [bool; 2] {
        let moves = |p: usize| p < self.n && !pos.moves_from(Point(p as u8)).is_empty();
        let wins = |i: usize, other: usize| !self.trades[i] || self.key.tempo || moves(other);
        [wins(0, b), wins(1, a)]
    }

    fn solve(pos: &Position, key: Key) -> Table {
        let n = pos.board().len();
        let states = n * n * (n + 1);
        let trades = key
            .hunters
            .map(|h| h.is_some_and(|h| trades(pos, h, key.runner)));
        let mut t = Table {
            key,
            n,
            trades,
            won: vec![0; states],
            lost: vec![NOT; states],
        };
        let ours = fixed_position(pos, &t.key, t.key.runner.side.opponent());
        let theirs = fixed_position(pos, &t.key, t.key.runner.side);
        let free: Vec<bool> = (0..n).map(|i| ours.at(Point(i as u8)).is_none()).collect();
        let bs: Vec<usize> = if t.key.hunters[1].is_some() {
            (0..n).collect()
        } else {
            vec![n]
        };
        let mut valid = Vec::new();
        for r in (0..n).filter(|&r| free[r]) {
            for a in (0..n).filter(|&a| free[a] && a != r) {
                for &b in bs
                    .iter()
                    .filter(|&&b| b == n || (free[b] && b != r && b != a))
                {
                    valid.push((r, a, b));
                }
            }
        }
        // Forward edges, state by state in `valid` order: the hunters' moves
        // into runner's states, the runner's into hunters' states, plus the
        // immediate results (a capture; a runner stuck or escaping).
        let mut h_edges = Edges::default();
        let mut r_edges = Edges::default();
        let mut escape = vec![false; states];
        let mut scratch_h = ours.clone();
        let mut scratch_r = theirs.clone();
        for &(r, a, b) in &valid {
            let s = t.index(r, a, b);
            let place = |pos: &mut Position, on: bool| {
                let piece = |pc: Piece| on.then_some(pc);
                pos.set(Point(r as u8), piece(t.key.runner));
                pos.set(Point(a as u8), t.key.hunters[0].and_then(piece));
                if b < n {
                    pos.set(Point(b as u8), t.key.hunters[1].and_then(piece));
                }
            };
            place(&mut scratch_h, true);
            let wins = t.battles_win(&scratch_h, a, b);
            h_edges.start(s);
            for (from, other) in [(a, b), (b, a)] {
                if from == n {
                    continue;
                }
                for m in scratch_h.moves_from(Point(from as u8)) {
                    let Move::Step { to, .. } = m else { continue };
                    let to = to.index();
                    if to == r {
                        if wins[usize::from(from != a)] {
                            t.won[s] = 1;
                        }
                    } else if free[to] {
                        h_edges.push(t.after_hunter_move(r, a, from, other, to));
                    }
                }
            }
            if t.key.tempo {
                h_edges.push(s);
            }
            place(&mut scratch_h, false);
            place(&mut scratch_r, true);
            r_edges.start(s);
            for m in scratch_r.moves_from(Point(r as u8)) {
                let Move::Step { to, .. } = m else { continue };
                let to = to.index();
                if to == a || to == b {
                    // It loses itself, or trades itself for a draw.
                    escape[s] |= !wins[usize::from(to != a)];
                    continue;
                }
                if free[to] {
                    r_edges.push(t.index(to, a, b));
                } else if let Some(target) = theirs.at(Point(to as u8))
                    && pos.rules().clash(t.key.runner.rank, target.rank).outcome
                        != Outcome::DefenderWins
                {
                    escape[s] = true;
                }
            }
            place(&mut scratch_r, false);
        }
        t.retrograde(&valid, &h_edges, &r_edges, &escape);
        t
    }

    /// Works back from the captures: a hunters' state is won in `d` when one
    /// move reaches a runner's state lost in `d - 1`; a runner's state is
    /// lost in the most of its moves' `d` once every move is.
    fn retrograde(
        &mut self,
        valid: &[(usize, usize, usize)],
        h_edges: &Edges,
        r_edges: &Edges,
        escape: &[bool],
    ) {
        let states = self.won.len();
        // The two sides' states share one index space: `into_hunters` lists
        // for a hunters' state the runner's states that move into it,
        // `into_runner` for a runner's state the hunters' states.
        let into_hunters = r_edges.reversed(states);
        let into_runner = h_edges.reversed(states);
        let mut left = vec![0u32; states];
        for (s, succ) in r_edges.iter() {
            left[s] = succ.len() as u32;
        }
        // Runner's states first (stuck: lost in 0), then captures (won in 1).
        let mut queue: std::collections::VecDeque<(bool, u32)> = Default::default();
        for &(r, a, b) in valid {
            let s = self.index(r, a, b);
            if left[s] == 0 && !escape[s] {
                self.lost[s] = 0;
                queue.push_back((false, s as u32));
            }
        }
        for &(r, a, b) in valid {
            let s = self.index(r, a, b);
            if self.won[s] == 1 {
                queue.push_back((true, s as u32));
            }
        }
        while let Some((hunters, s)) = queue.pop_front() {
            let s = s as usize;
            if hunters {
                let d = self.won[s];
                for &p in into_hunters.of(s) {
                    let p = p as usize;
                    left[p] -= 1;
                    if left[p] == 0 && !escape[p] && self.lost[p] == NOT {
                        self.lost[p] = d;
                        queue.push_back((false, p as u32));
                    }
                }
            } else {
                let d = self.lost[s].saturating_add(1).min(NOT - 1);
                for &p in into_runner.of(s) {
                    let p = p as usize;
                    if self.won[p] == 0 {
                        self.won[p] = d;
                        queue.push_back((true, p as u32));
                    }
                }
            }
        }
    }
}

/// The move from `pos` that wins the chase in every one of `tables` (one
/// per rank the runner on `runner` may have, all for the hunters of
/// `pair`), fastest against the worst of them, with that number of our moves.
fn best_move(
    tables: &[&Table],
    pos: &Position,
    runner: Point,
    pair: [Option<(Point, Piece)>; 2],
) -> Option<(Move, u8)> {
    let first = tables.first()?;
    let n = first.n;
    let a = pair[0]?.0.index();
    let b = pair[1].map_or(n, |h| h.0.index());
    let here = first.index(runner.index(), a, b);
    // Our moves in a table after which the runner is lost: `None` when it
    // escapes in that table.
    let after = |t: &Table, next: usize| (t.lost[next] != NOT).then(|| t.lost[next] + 1);
    let worst = |of: &dyn Fn(&Table) -> Option<u8>| {
        tables
            .iter()
            .map(|t| of(t))
            .try_fold(0u8, |w, d| d.map(|d| w.max(d)))
    };
    let mut best: Option<(Move, u8)> = None;
    let mut consider = |m: Move, d: Option<u8>| {
        if let Some(d) = d
            && best.is_none_or(|b| d < b.1)
        {
            best = Some((m, d));
        }
    };
    if first.key.tempo {
        let moving = |p: Point| p == runner || pair.iter().flatten().any(|h| h.0 == p);
        if let Some(m) = tempo_move(pos, &moving) {
            consider(m, worst(&|t| after(t, here)));
        }
    }
    for (from, other) in [(a, b), (b, a)] {
        if from == n {
            continue;
        }
        let hunter = usize::from(from != a);
        for m in pos.moves_from(Point(from as u8)) {
            let Move::Step { to, .. } = m else { continue };
            if to == runner {
                consider(m, worst(&|t| t.battles_win(pos, a, b)[hunter].then_some(1)));
            } else if pos.at(to).is_none() {
                let next = first.after_hunter_move(runner.index(), a, from, other, to.index());
                consider(m, worst(&|t| after(t, next)));
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece::PieceId;
    use crate::rules::{Mode, Rules};

    fn position(pieces: &[(&str, Side, Rank)], turn: Side) -> Position {
        position_on(Board::classic(), Rules::for_mode(Mode::Open), pieces, turn)
    }

    /// Every piece face up, ids in list order.
    fn position_on(
        board: &'static Board,
        rules: Rules,
        pieces: &[(&str, Side, Rank)],
        turn: Side,
    ) -> Position {
        let mut pos = Position::empty(board, rules, turn);
        for (i, &(p, side, rank)) in pieces.iter().enumerate() {
            let piece = Piece {
                side,
                rank,
                face_up: true,
                id: PieceId(i as u8),
            };
            pos.set(board.parse_point(p).unwrap(), Some(piece));
        }
        pos
    }

    use Rank::*;
    use Side::{North as N, South as S};

    /// Plays the table's moves for South against every runner reply
    /// (each runner position once): the capture always comes within the
    /// table's bound.
    fn capture_within(
        pos: &Position,
        bound: u8,
        chases: &mut Chases,
        seen: &mut std::collections::HashSet<Vec<Point>>,
    ) {
        let ranks = last_runner(pos, S).expect("a runner").1.rank.bit();
        capture_within_of(pos, ranks, bound, chases, seen);
    }

    /// [`capture_within`] where South knows only that the runner is one of
    /// `ranks`.
    fn capture_within_of(
        pos: &Position,
        ranks: RankSet,
        bound: u8,
        chases: &mut Chases,
        seen: &mut std::collections::HashSet<Vec<Point>>,
    ) {
        let runner = last_runner(pos, S).expect("a runner").0;
        let Some((m, d)) = chases.winning_move_against(pos, S, runner, ranks) else {
            panic!("not won: {:?}", pos.pieces().collect::<Vec<_>>());
        };
        assert!(d <= bound, "{d} > {bound}");
        let mut next = pos.clone();
        next.play(m).unwrap();
        if d == 1 {
            assert!(
                matches!(
                    next.result(),
                    Some(crate::GameResult::Win { winner: S, .. })
                ),
                "{m:?} did not win"
            );
            return;
        }
        for reply in next.legal_moves() {
            let mut after = next.clone();
            after.play(reply).unwrap();
            assert!(after.result().is_none(), "the runner got out: {reply:?}");
            if last_runner(&after, S).is_none() {
                continue; // it attacked a hunter and is gone
            }
            if seen.insert(after.pieces().map(|(p, _)| p).collect()) {
                capture_within_of(&after, ranks, d - 1, chases, seen);
            }
        }
    }

    /// Both flags boxed in by mines, North's last movable piece a regiment
    /// on `runner`, South's corps and division on `hunters`, and a company
    /// far back for tempo moves.
    fn chase_study(runner: &str, hunters: [&str; 2]) -> Position {
        chase_of(
            (runner, Regiment),
            [(hunters[0], Corps), (hunters[1], Division)],
            true,
        )
    }

    /// Both flags boxed in by mines, North's last movable piece `runner`,
    /// South's `hunters`, and with `tempo` a company far back.
    fn chase_of(runner: (&str, Rank), hunters: [(&str, Rank); 2], tempo: bool) -> Position {
        let mut pieces = vec![
            ("S62", S, Flag),
            ("S61", S, Landmine),
            ("S63", S, Landmine),
            ("S52", S, Landmine),
            ("N62", N, Flag),
            ("N61", N, Landmine),
            ("N63", N, Landmine),
            ("N52", N, Landmine),
            (runner.0, N, runner.1),
        ];
        pieces.extend(hunters.map(|(p, r)| (p, S, r)));
        if tempo {
            pieces.push(("S65", S, Company));
        }
        position(&pieces, S)
    }

    #[test]
    fn a_trade_takes_the_last_runner_only_while_another_piece_can_move() {
        // South's corps beside North's: taking it trades both away, which
        // wins while South's division can still move and draws once
        // nothing of South's could.
        let pos = chase_of(("S15", Corps), [("S14", Corps), ("S44", Division)], false);
        let (m, d) = Chases::new().winning_move(&pos, S).expect("the trade wins");
        assert_eq!(d, 1);
        let mut next = pos.clone();
        next.play(m).unwrap();
        assert_eq!(next.at(Board::classic().parse_point("S15").unwrap()), None);
        assert!(matches!(
            next.result(),
            Some(crate::GameResult::Win { winner: S, .. })
        ));
        let mut alone = pos.clone();
        alone.set(Board::classic().parse_point("S44").unwrap(), None);
        assert!(Chases::new().winning_move(&alone, S).is_none());
        let mut traded = alone.clone();
        let pt = |name: &str| Board::classic().parse_point(name).unwrap();
        traded
            .play(Move::Step {
                from: pt("S14"),
                to: pt("S15"),
            })
            .unwrap();
        assert!(matches!(
            traded.result(),
            Some(crate::GameResult::Draw { .. })
        ));
    }

    #[test]
    fn two_corps_hunt_down_the_last_corps() {
        // Neither corps beats North's: the chase ends in a trade, the other
        // corps and the company at home (tempo moves) left to move.
        let pos = chase_of(("S14", Corps), [("S22", Corps), ("S44", Corps)], true);
        let mut chases = Chases::new();
        let (_, d) = chases.winning_move(&pos, S).expect("a forced trade");
        assert!(d > 2, "a chase the search would see anyway: {d}");
        capture_within(&pos, d, &mut chases, &mut Default::default());
    }

    #[test]
    fn a_won_chase_captures_the_runner_whatever_it_does() {
        // The runner on South's front row, the corps in a camp beside it:
        // five of South's moves at most, against every defence.
        let pos = chase_study("S14", ["S22", "S44"]);
        let mut chases = Chases::new();
        let (_, d) = chases.winning_move(&pos, S).expect("a forced capture");
        assert!(d > 2, "a chase the search would see anyway: {d}");
        capture_within(&pos, d, &mut chases, &mut Default::default());
    }

    #[test]
    fn a_runner_of_unknown_rank_is_caught_whichever_rank_it_has() {
        // A dark game: South knows only that the runner is a regiment or a
        // platoon. The two are different kinds (the regiment may take the
        // company kept for tempo moves, the platoon may not), so two tables
        // are solved and the move played wins in both; each rank, chased
        // with that knowledge, is caught within the bound against every
        // defence.
        let ranks = Regiment.bit() | Platoon.bit();
        let at = |rank| chase_of(("S14", rank), [("S22", Corps), ("S44", Division)], true);
        let pos = at(Regiment);
        let hunters = hunters(&pos, S, Point(0), &[Regiment, Platoon]);
        assert_eq!(
            kinds(&pos, pairs(&hunters)[0], &[Regiment, Platoon]).len(),
            2
        );
        let mut chases = Chases::new();
        let runner = last_runner(&pos, S).unwrap().0;
        let (_, d) = chases
            .winning_move_against(&pos, S, runner, ranks)
            .expect("won");
        let (_, alone) = chases.winning_move(&pos, S).expect("won");
        assert!(d >= alone, "{d} < {alone}");
        for rank in [Regiment, Platoon] {
            capture_within_of(&at(rank), ranks, d, &mut chases, &mut Default::default());
        }
    }

    #[test]
    fn a_runner_that_may_dig_through_a_landmine_is_not_called_caught() {
        // The same chase where the runner may be an engineer: with a way
        // through South's box mines to the flag it is not won, so nothing is
        // played even though a regiment alone would be caught.
        let pos = chase_of(("S14", Regiment), [("S22", Corps), ("S44", Division)], true);
        let runner = last_runner(&pos, S).unwrap().0;
        let mut chases = Chases::new();
        assert!(chases.winning_move(&pos, S).is_some());
        let ranks = Regiment.bit() | Engineer.bit();
        assert_eq!(chases.winning_move_against(&pos, S, runner, ranks), None);
    }

    #[test]
    fn a_runner_in_the_centre_camp_is_never_caught_by_two() {
        // The camps round the centre let one runner out of every net two
        // hunters throw: the table claims no win, and the search plays on.
        let pos = chase_study("N33", ["S35", "S31"]);
        assert!(Chases::new().winning_move(&pos, S).is_none());
    }

    #[test]
    fn a_runner_that_can_take_another_piece_is_not_called_caught() {
        // The runner could take South's company instead of running: the
        // table does not model the board after that, so it claims nothing
        // for a state where that attack is open.
        let pos = position(
            &[
                ("S62", S, Flag),
                ("N62", N, Flag),
                ("N33", N, Regiment),
                ("N34", S, Company),
                ("S35", S, Corps),
            ],
            S,
        );
        assert!(Chases::new().winning_move(&pos, S).is_none());
    }

    #[test]
    fn no_chase_on_the_four_player_board() {
        let board = Board::four_player();
        let mut rules = Rules::for_mode(Mode::Open);
        rules.four_player_board = true;
        let pos = position_on(
            board,
            rules,
            &[
                ("S62", S, Flag),
                ("N62", N, Flag),
                ("N34", N, Platoon),
                ("N35", S, Corps),
                ("N31", S, Division),
            ],
            S,
        );
        // The corps takes the runner in one: a table would say so, but
        // none is built on this board.
        assert!(last_runner(&pos, S).is_some());
        let take = pos.moves_from(board.parse_point("N35").unwrap());
        assert!(
            take.iter()
                .any(|m| matches!(m, Move::Step { to, .. } if pos.at(*to).is_some()))
        );
        assert!(Chases::new().winning_move(&pos, S).is_none());
    }

    #[test]
    fn no_chase_while_the_enemy_has_two_movable_pieces() {
        let pos = position(
            &[
                ("S62", S, Flag),
                ("N62", N, Flag),
                ("N33", N, Regiment),
                ("N31", N, Company),
                ("S35", S, Corps),
            ],
            S,
        );
        assert!(Chases::new().winning_move(&pos, S).is_none());
    }
}
