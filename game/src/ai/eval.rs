//! Static evaluation of a full (determinized) position.

use super::means::can_win;
use super::weights::{Weights, scaled};
use crate::board::{Board, MAX_POINTS, Point, PointKind};
use crate::piece::{Rank, Side};
use crate::position::Position;
use crate::rules::{Mode, Outcome};
use std::sync::OnceLock;

/// A won game (the flag taken or the enemy out of moves), in centi-pawns.
pub const WIN: i32 = 100_000;

/// What an evaluation knows, from the weaker levels' to Master's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Knowledge {
    /// Material and the pieces' distance to the enemy flag.
    Basic,
    /// Also direct threats to both flags, closing in on weaker pieces in
    /// thin positions, and the drift towards the quiet-move draw.
    Full,
    /// Also endgame technique (`technique`) in flip and open games:
    /// keeping the means to take a flag its landmines shut in, digging
    /// those mines with engineers, sending a bomb at the enemy's officer
    /// nothing else beats, and in flip games trading down when ahead
    /// (`TRADE_DOWN`).
    Technique,
}

/// What putting an enemy player out of a team game is worth beyond the
/// pieces it takes off the board (the team left alone moves once for the
/// other team's twice).
pub const SEAT_OUT: i32 = 6000;

/// Material value of each rank (centi-units), in [`Rank::ALL`] order.
pub const VALUE: [i32; 12] = [
    1000, // commander
    720,  // corps
    480,  // division
    330,  // brigade
    240,  // regiment
    170,  // battalion
    120,  // company
    85,   // platoon
    110,  // engineer
    130,  // landmine
    420,  // bomb
    0,    // flag (the game itself)
];

/// Value of a piece of rank `r`.
#[inline]
pub fn value(r: Rank) -> i32 {
    VALUE[r.index()]
}

/// What one whole army is worth in [`VALUE`]'s units.
const ARMY: i32 = {
    let mut total = 0;
    let mut i = 0;
    while i < Rank::ALL.len() {
        total += VALUE[i] * Rank::ALL[i].count() as i32;
        i += 1;
    }
    total
};

/// The share (percent) of a material lead added once every piece of both
/// armies has gone, in proportion on the way: the side ahead gains by even
/// trades (a brigade for a brigade), since a lead over a thin army is the
/// one that ends in its last piece taken or its flag open, while the same
/// lead among full armies can still be held to a draw.
pub(crate) const TRADE_DOWN: i32 = 40;

/// The trading-down bonus of a lead of `lead` with `left` of both armies'
/// material still on the board ([`TRADE_DOWN`]).
fn trade_down(lead: i32, left: i32, weight: i32) -> i32 {
    let full = 2 * ARMY;
    let gone = (full - left).clamp(0, full);
    scaled(lead * gone / full * TRADE_DOWN / 100, weight)
}

/// The share (percent) of its value a movable piece keeps once it stands on
/// a headquarters it may not leave (RULES.md §5: a piece that enters one is
/// locked there): it only defends that point. A commander that strikes at a
/// suspected flag and finds a landmine-free headquarters without it is lost
/// to play, which is why the cheapest piece should make that strike.
pub(crate) const LOCKED: i32 = 25;

/// What the piece of rank `rank` on `p` counts for: [`value`], less when
/// it is locked on a headquarters.
#[inline]
pub fn worth(pos: &Position, p: Point, rank: Rank) -> i32 {
    let v = value(rank);
    if rank.is_movable() && pos.board().is_headquarters(p) && !pos.rules().may_leave_headquarters()
    {
        v * LOCKED / 100
    } else {
        v
    }
}

/// Board tables that never change.
pub struct Tables {
    /// Steps between two points along roads and railways (ignoring pieces).
    pub dist: Vec<[u8; MAX_POINTS]>,
}

/// The tables of `board` (the classic or the four-player board).
pub fn tables(board: &Board) -> &'static Tables {
    static CLASSIC: OnceLock<Tables> = OnceLock::new();
    static FOUR: OnceLock<Tables> = OnceLock::new();
    if std::ptr::eq(board, Board::four_player()) {
        FOUR.get_or_init(|| build_tables(Board::four_player()))
    } else {
        CLASSIC.get_or_init(|| build_tables(Board::classic()))
    }
}

/// Steps between every pair of points by breadth-first search.
fn build_tables(board: &Board) -> Tables {
    let n = board.len();
    let mut dist = vec![[u8::MAX; MAX_POINTS]; n];
    for s in board.points() {
        let d = &mut dist[s.index()];
        d[s.index()] = 0;
        let mut queue = vec![s];
        let mut head = 0;
        while head < queue.len() {
            let q = queue[head];
            head += 1;
            let dq = d[q.index()];
            for &nb in board
                .road_neighbours(q)
                .iter()
                .chain(board.rail_neighbours(q))
            {
                if d[nb.index()] == u8::MAX {
                    d[nb.index()] = dq + 1;
                    queue.push(nb);
                }
            }
        }
    }
    Tables { dist }
}

/// Bonus for a piece `d` steps from the enemy flag.
pub(crate) const NEAR_FLAG: [i32; 8] = [0, 70, 36, 18, 9, 4, 2, 1];
/// The stronger levels' penalty for an enemy piece `d` steps from our flag.
pub(crate) const DEFEND_FLAG: [i32; 8] = [0, 220, 120, 50, 18, 6, 2, 0];

/// What the root player of a search really knows, for searches that keep
/// sampled knowledge out of their own later decisions (no strategy fusion).
#[derive(Clone, Debug)]
pub struct Guard {
    /// The player the search is for.
    pub root: Side,
    /// Per piece id: `None` if the root player knows its rank, else the
    /// belief's chance of each rank ([`Rank::ALL`] order).
    pub hidden: Box<[Option<[f32; 12]>; 256]>,
}

impl Guard {
    /// Whether the root player does not know the rank of piece `id`.
    #[inline]
    pub fn is_hidden(&self, id: u8) -> bool {
        self.hidden[id as usize].is_some()
    }
    /// The chance that piece `id` is the flag, as far as the root player knows.
    #[inline]
    pub fn flag_chance(&self, id: u8) -> f32 {
        self.hidden[id as usize].map_or(1.0, |p| p[Rank::Flag.index()])
    }

    /// The belief's chance of each rank for piece `id`, if the root player does not know it.
    #[inline]
    pub fn chances(&self, id: u8) -> Option<&[f32; 12]> {
        self.hidden[id as usize].as_ref()
    }
}

/// Bonus for a piece `d` steps from an enemy piece it beats.
pub(crate) const HUNT: [i32; 8] = [0, 24, 14, 8, 5, 3, 2, 1];

/// The share (percent) of [`HUNT`]'s bonus for closing in on an enemy
/// piece that ours only trades with, for the side ahead in material (two
/// corps against one: the trade leaves the other to win).
pub(crate) const TRADE_HUNT: i32 = 50;

/// In thin positions: how close `side`'s pieces are to enemy pieces they
/// beat (so a stronger army closes in instead of wandering), and with
/// `trades` to the movable ones they trade with ([`TRADE_HUNT`] scaled
/// by `trades`' percent; 0: not at all).
fn hunt(pos: &Position, side: usize, weight: i32, trades: i32) -> i32 {
    let board = pos.board();
    let t = tables(board);
    let mut mine: arrayvec::ArrayVec<(Point, Rank), 50> = arrayvec::ArrayVec::new();
    let mut theirs: arrayvec::ArrayVec<(Point, Rank), 50> = arrayvec::ArrayVec::new();
    for p in board.points() {
        let Some(pc) = pos.at(p) else { continue };
        if !pc.face_up {
            continue;
        }
        if pc.side.index() & 1 == side {
            if pc.rank.is_movable() && pc.rank != Rank::Bomb {
                mine.push((p, pc.rank));
            }
        } else if pc.rank != Rank::Flag {
            theirs.push((p, pc.rank));
        }
    }
    if mine.len() + theirs.len() > 20 {
        return 0;
    }
    let mut total = 0;
    for &(p, r) in &mine {
        let mut best = 0;
        for &(q, e) in &theirs {
            if board.kind(q) == PointKind::Camp {
                continue;
            }
            let share = match pos.rules().clash(r, e).outcome {
                Outcome::AttackerWins => 100,
                Outcome::BothRemoved if trades > 0 && e.is_movable() => scaled(TRADE_HUNT, trades),
                _ => continue,
            };
            let d = t.dist[p.index()][q.index()] as usize;
            if d < HUNT.len() {
                best = best.max(HUNT[d] * value(e).min(400) / 100 * share / 100);
            }
        }
        total += best;
    }
    scaled(total, weight)
}

/// What losing the last of the means to open a shut flag costs (no
/// engineer and no bomb left), and what being down to one costs.
pub(crate) const NO_MEANS: i32 = 320;
pub(crate) const LAST_MEANS: i32 = 90;
/// Bonus for `side`'s nearest engineer `d` steps from a mine that shuts
/// the enemy flag in.
pub(crate) const DIG: [i32; 8] = [0, 60, 32, 16, 8, 4, 2, 1];
/// Bonus for a bomb `d` steps from the enemy officer that beats all of ours.
pub(crate) const BOMB_HUNT: [i32; 8] = [0, 48, 28, 14, 7, 3, 2, 1];

/// Flip games: the enemy's last landmine gone, its flag lies open to any
/// piece, worth spending a bomb on the mine (a bomb and a mine trade, 290
/// of material), plus `OPEN_FLAG_STEP` for each step our nearest movable
/// piece stands inside `OPEN_FLAG_REACH` of the flag.
pub(crate) const OPEN_FLAG: i32 = 400;
pub(crate) const OPEN_FLAG_STEP: i32 = 10;
pub(crate) const OPEN_FLAG_REACH: i32 = 12;
/// Flip games: one enemy landmine left, face up; `LAST_MINE_STEP` for each
/// step our nearest engineer or bomb stands inside `LAST_MINE_REACH` of
/// it (a gradient across the whole board, where [`DIG`] fades after
/// seven steps).
pub(crate) const LAST_MINE_STEP: i32 = 10;
pub(crate) const LAST_MINE_REACH: i32 = 14;

/// Engineers and bombs: the only pieces that open a flag its landmines shut in.
pub(crate) fn opens_shut_flags(r: Rank) -> bool {
    matches!(r, Rank::Engineer | Rank::Bomb)
}

/// Whether point `q` holds a landmine of `owner`'s: beside its flag, a
/// point no way in leads through.
fn own_mine_at(pos: &Position, q: Point, owner: Side) -> bool {
    pos.at(q)
        .is_some_and(|pc| pc.side == owner && pc.rank == Rank::Landmine)
}

/// Whether every point beside the flag on `flag` holds a landmine of the
/// flag's side: only an engineer or a bomb opens the way.
pub(crate) fn boxed_in(pos: &Position, flag: Point) -> bool {
    let Some(owner) = pos.at(flag).map(|pc| pc.side) else {
        return false;
    };
    let around = pos.board().road_neighbours(flag);
    !around.is_empty() && around.iter().all(|&q| own_mine_at(pos, q, owner))
}

/// The most a flag's guard earns: a division or better (or a bomb) standing
/// in or beside a way in to a flag not boxed in by its landmines.
pub(crate) const HOME_GUARD: i32 = 100;
/// The guard's share (percent) by its steps to the nearest way in.
const GUARD_STEP: [i32; 6] = [100, 100, 75, 50, 25, 10];

/// A flag with a way in (a point beside it without its own landmine: never
/// boxed in, or a box mine dug) needs a piece near that beats what comes
/// through: the best of the flag side's officers and bombs, by its strength
/// (a division's worth or more counts in full) and its steps to the way in.
fn home_guard(pos: &Position, flag: Point, lock: bool) -> i32 {
    let Some(owner) = pos.at(flag).map(|pc| pc.side) else {
        return 0;
    };
    let board = pos.board();
    let ways: arrayvec::ArrayVec<Point, 8> = board
        .road_neighbours(flag)
        .iter()
        .copied()
        .filter(|&q| !own_mine_at(pos, q, owner))
        .collect();
    if ways.is_empty() {
        return 0;
    }
    let t = tables(board);
    let mut best = 0;
    for (p, pc) in pos.pieces() {
        if pc.side != owner || !pc.rank.is_movable() || pc.rank == Rank::Engineer {
            continue;
        }
        if lock && board.kind(p) == PointKind::Headquarters {
            continue;
        }
        let d = ways
            .iter()
            .map(|w| t.dist[p.index()][w.index()] as usize)
            .min()
            .unwrap_or(usize::MAX);
        if d < GUARD_STEP.len() {
            let strength = value(pc.rank).min(value(Rank::Division));
            best = best.max(HOME_GUARD * strength / value(Rank::Division) * GUARD_STEP[d] / 100);
        }
    }
    best
}

/// What an own piece standing in a way in to its flag is worth: whatever
/// comes through must beat it first, in sight of the guard beside it.
pub(crate) const PLUG: i32 = 60;

/// [`PLUG`] for each point beside the flag on `flag` that holds no landmine
/// of the flag's side but some other piece of that side.
fn plugged(pos: &Position, flag: Point) -> i32 {
    let Some(owner) = pos.at(flag).map(|pc| pc.side) else {
        return 0;
    };
    let held = pos
        .board()
        .road_neighbours(flag)
        .iter()
        .filter(|&&q| {
            pos.at(q)
                .is_some_and(|pc| pc.side == owner && pc.rank != Rank::Landmine)
        })
        .count() as i32;
    PLUG * held
}

/// What an own piece standing next to a landmine by the flag is worth: an
/// engineer must beat it before it can dig the mine (most box mines Expert
/// dug were reached along the railway, the corner one only from the rail
/// corner above it).
pub(crate) const SHIELD: i32 = 40;

/// [`SHIELD`] for each point, held by a piece of the flag's side, from
/// which one of that side's landmines beside the flag on `flag` can be
/// attacked (by road or along the railway), counted once per mine.
fn shielded(pos: &Position, flag: Point) -> i32 {
    let Some(owner) = pos.at(flag).map(|pc| pc.side) else {
        return 0;
    };
    let board = pos.board();
    let held = board
        .road_neighbours(flag)
        .iter()
        .filter(|&&m| own_mine_at(pos, m, owner))
        .map(|&m| {
            let mut from = board.road_mask(m).union(board.rail_mask(m));
            from.remove(flag);
            from.iter()
                .filter(|&q| pos.at(q).is_some_and(|pc| pc.side == owner))
                .count()
        })
        .sum::<usize>() as i32;
    SHIELD * held
}

/// What [`technique`] reads of one army.
#[derive(Default)]
struct Army {
    flag: Option<Point>,
    engineers: arrayvec::ArrayVec<Point, 12>,
    bombs: arrayvec::ArrayVec<Point, 8>,
    /// Landmines on the board, and the face-up ones' points.
    mines: u8,
    mines_up: arrayvec::ArrayVec<Point, 8>,
    /// The highest officer level, engineers left out (a bomb still answers
    /// an enemy that beats every officer above them), and the strongest
    /// face-up officer, engineers included.
    best_level: u8,
    best_up: Option<(Point, Rank)>,
    /// The face-up movable pieces (flip games' open flag).
    movers: arrayvec::ArrayVec<Point, 25>,
}

/// Endgame technique for the side `me` (0 South, 1 North): the plans a
/// short search does not find by itself.
/// A flag is shut in when only engineers and bombs can open the way: in
/// flip games while its side has any landmine left (RULES.md §6),
/// otherwise when it is [`boxed_in`]. Against a shut flag the side that has
/// lost its last engineer and bomb can no longer win by the flag, and one
/// that still has them should bring an engineer to those mines before the
/// quiet-move draw. Against an enemy officer stronger than any of ours, a
/// bomb is the only answer, so it closes in. Both armies are read in one
/// pass; the result is `me`'s terms less the other side's.
fn technique(pos: &Position, me: usize, w: &Weights) -> i32 {
    let mut armies = [Army::default(), Army::default()];
    for (p, pc) in pos.pieces() {
        let a = &mut armies[pc.side.index() & 1];
        match pc.rank {
            Rank::Flag => a.flag = Some(p),
            Rank::Landmine => {
                a.mines += 1;
                if pc.face_up && !a.mines_up.is_full() {
                    a.mines_up.push(p);
                }
            }
            Rank::Engineer if !a.engineers.is_full() => a.engineers.push(p),
            Rank::Bomb if !a.bombs.is_full() => a.bombs.push(p),
            _ => {}
        }
        if pc.face_up && pc.rank.is_movable() && !a.movers.is_full() {
            a.movers.push(p);
        }
        let level = pc.rank.officer_level();
        if level > 0 {
            if pc.rank != Rank::Engineer {
                a.best_level = a.best_level.max(level);
            }
            if pc.face_up && a.best_up.is_none_or(|(_, b)| level > b.officer_level()) {
                a.best_up = Some((p, pc.rank));
            }
        }
    }
    let board = pos.board();
    let t = tables(board);
    let flip = pos.rules().mode == Mode::Flip;
    let terms = |own: &Army, enemy: &Army| -> i32 {
        let mut score = 0;
        if let Some(f) = enemy.flag {
            let shut = if flip {
                enemy.mines > 0
            } else {
                boxed_in(pos, f)
            };
            if shut {
                let targets: arrayvec::ArrayVec<Point, 8> = if flip {
                    enemy.mines_up.clone()
                } else {
                    board.road_neighbours(f).iter().copied().collect()
                };
                score -= match own.engineers.len() + own.bombs.len() {
                    0 => scaled(NO_MEANS, w.no_means),
                    1 => scaled(LAST_MEANS, w.last_means),
                    _ => 0,
                };
                let nearest = own
                    .engineers
                    .iter()
                    .flat_map(|e| {
                        targets
                            .iter()
                            .map(|m| t.dist[e.index()][m.index()] as usize)
                    })
                    .min();
                if let Some(d) = nearest.filter(|&d| d < DIG.len()) {
                    score += scaled(DIG[d], w.dig);
                }
                if flip && enemy.mines == 1 && enemy.mines_up.len() == 1 {
                    let m = enemy.mines_up[0];
                    let nearest = own
                        .engineers
                        .iter()
                        .chain(&own.bombs)
                        .map(|e| t.dist[e.index()][m.index()] as i32)
                        .min();
                    if let Some(d) = nearest {
                        let steps = (LAST_MINE_REACH - d).max(0);
                        score += scaled(LAST_MINE_STEP * steps, w.last_mine);
                    }
                }
            } else if flip
                && let Some(d) = own
                    .movers
                    .iter()
                    .map(|p| t.dist[p.index()][f.index()] as i32)
                    .min()
            {
                let steps = (OPEN_FLAG_REACH - d).max(0);
                score += scaled(OPEN_FLAG + OPEN_FLAG_STEP * steps, w.open_flag);
            }
        }
        let target = enemy.best_up.filter(|&(q, r)| {
            r.officer_level() > own.best_level && board.kind(q) != PointKind::Camp
        });
        if let Some((q, r)) = target {
            let nearest = own
                .bombs
                .iter()
                .map(|b| t.dist[b.index()][q.index()] as usize)
                .min();
            if let Some(d) = nearest.filter(|&d| d < BOMB_HUNT.len()) {
                score += scaled(BOMB_HUNT[d] * value(r) / 1000, w.bomb_hunt);
            }
        }
        score
    };
    let (mine, theirs) = (&armies[me], &armies[1 - me]);
    terms(mine, theirs) - terms(theirs, mine)
}

/// The material swing for the side making an attack of `attacker` on `defender`
/// (positive is good for the attacker); a captured flag counts as a win.
#[inline]
pub fn attack_swing(pos: &Position, attacker: Rank, defender: Rank) -> i32 {
    let c = pos.rules().clash(attacker, defender);
    if c.flag_captured {
        // In a team game a flag puts one player out, and the game goes on.
        return if pos.is_team_game() { SEAT_OUT } else { WIN };
    }
    match c.outcome {
        Outcome::AttackerWins => value(defender),
        Outcome::DefenderWins => -value(attacker),
        Outcome::BothRemoved => value(defender) - value(attacker),
    }
}

/// The evaluation of the two-player position `pos` (team games:
/// [`super::team::evaluate`]) for the side to move (positive is good for it),
/// with what `knowledge` knows ([`Knowledge`]) and its terms scaled by
/// `weights`; the drift towards a quiet-move draw of the full evaluation
/// ends at `draw`, the draw's worth to the side to move; `home` is the
/// searcher's own side, whose flag wants a guard, its ways in held and its
/// mines' approaches too (`Weights::home_guard`, `plug`, `shield`).
pub fn evaluate(
    pos: &Position,
    knowledge: Knowledge,
    weights: &Weights,
    guard: Option<&Guard>,
    draw: i32,
    home: Option<Side>,
) -> i32 {
    debug_assert!(!pos.is_team_game(), "team games: ai::team::evaluate");
    let side = pos.turn();
    let board = pos.board();
    let t = tables(board);
    let flip = pos.rules().mode == Mode::Flip;
    let mut material = [0i32; 2];
    let mut movable = [0u8; 2];
    let mut flag_at: [Option<Point>; 2] = [None; 2];
    let mut flag_id = [0u8; 2];
    let mut mines = [0u8; 2];
    let mut big = [0u8; 2]; // strongest officer level alive
    let mut bombs = [0u8; 2];
    let mut engineers = [0u8; 2];
    for p in board.points() {
        let Some(pc) = pos.at(p) else { continue };
        let s = pc.side.index() & 1;
        material[s] += worth(pos, p, pc.rank);
        if pc.rank == Rank::Engineer {
            engineers[s] += 1;
        }
        match pc.rank {
            Rank::Flag => {
                flag_at[s] = Some(p);
                flag_id[s] = pc.id.0;
            }
            Rank::Landmine => mines[s] += 1,
            Rank::Bomb => {
                bombs[s] += 1;
                movable[s] += 1
            }
            r => {
                movable[s] += 1;
                big[s] = big[s].max(r.officer_level());
            }
        }
    }
    let me = side.index() & 1;
    let op = 1 - me;
    if flip && pos.colours_fixed() {
        match (movable[me] == 0, movable[op] == 0) {
            (true, true) => return 0,
            (true, false) => return -WIN / 2,
            (false, true) => return WIN / 2,
            _ => {}
        }
    }
    let mut score = material[me] - material[op];
    // The strongest officer left is worth more when the enemy has nothing
    // that beats it (bombs still can).
    for (s, sign) in [(me, 1), (op, -1)] {
        let o = 1 - s;
        if big[s] > big[o] {
            score += sign * scaled(if bombs[o] == 0 { 120 } else { 50 }, weights.top_officer);
        }
    }
    // Pressure on the flags: pieces close to the enemy flag, and pieces that
    // could take it on their next move.
    let mut pressure = [0i32; 2];
    let mut danger = [0i32; 2];
    let mut strikers = [0u8; 2];
    let lock = !pos.rules().may_leave_headquarters();
    for p in board.points() {
        let Some(pc) = pos.at(p) else { continue };
        if !pc.face_up || !pc.rank.is_movable() {
            continue;
        }
        if lock && board.kind(p) == PointKind::Headquarters {
            continue;
        }
        let s = pc.side.index() & 1;
        let o = 1 - s;
        let Some(f) = flag_at[o] else { continue };
        if flip && mines[o] > 0 {
            continue;
        }
        let d = t.dist[p.index()][f.index()] as usize;
        if d < NEAR_FLAG.len() {
            pressure[s] += scaled(NEAR_FLAG[d], weights.near_flag);
            danger[o] += scaled(DEFEND_FLAG[d], weights.defend_flag);
        }
        if d == 1 || (board.info(p).rail && board.info(f).rail && d <= 8) {
            let reach =
                board.is_road_edge(p, f) || board.straight_rail_path(p, f, |q| pos.at(q).is_none());
            if reach {
                strikers[s] += 1;
            }
        }
    }
    if knowledge == Knowledge::Basic {
        return score + pressure[me] - pressure[op] * 5 / 4;
    }
    score += pressure[me] - danger[me];
    // The searcher's own flag only: the enemy's lies where the sample put
    // it, and counting its guard too played worse (game/README.md).
    let at_home = weights.home_guard > 0 || weights.plug > 0 || weights.shield > 0;
    if let Some(home) = home.filter(|_| at_home && pos.rules().mode == Mode::Dark) {
        let s = home.index() & 1;
        if let Some(f) = flag_at[s] {
            let sign = if s == me { 1 } else { -1 };
            score += sign
                * (scaled(home_guard(pos, f, lock), weights.home_guard)
                    + scaled(plugged(pos, f), weights.plug)
                    + scaled(shielded(pos, f), weights.shield));
        }
    }
    // The keys (dark games, the searcher's own side only, `Weights::keys`):
    // against an enemy flag the sample boxes in, only engineers and bombs
    // open the way, so the last of them are worth the win they keep.
    if let Some(home) = home.filter(|_| weights.keys > 0 && pos.rules().mode == Mode::Dark) {
        let s = home.index() & 1;
        if flag_at[1 - s].is_some_and(|f| boxed_in(pos, f)) {
            let cost = match engineers[s] + bombs[s] {
                0 => NO_MEANS,
                1 => LAST_MEANS,
                _ => 0,
            };
            let sign = if s == me { 1 } else { -1 };
            score -= sign * scaled(cost, weights.keys);
        }
    }
    // Trading down (Master, flip games): the side ahead also closes in on
    // what it trades with. Not in open games, where Master lost more with
    // it (0.915 against 0.965 in 100 games).
    let technical = knowledge == Knowledge::Technique && pos.rules().mode != Mode::Dark;
    let trading = knowledge == Knowledge::Technique && flip;
    let ahead = |s: usize| {
        if trading && material[s] > material[1 - s] {
            weights.trade_down
        } else {
            0
        }
    };
    score += hunt(pos, me, weights.hunt, ahead(me)) - hunt(pos, op, weights.hunt, ahead(op));
    // Not in dark games: there the samples, not the player, know which
    // pieces are the mines and the engineers, and Master played worse with
    // it (0.67 against Expert in 64 games instead of 0.78 in 100).
    if technical {
        if trading {
            let lead = material[me] - material[op];
            score += trade_down(lead, material[me] + material[op], weights.trade_down);
        }
        score += technique(pos, me, weights);
    }
    // Side to move can take the flag: as good as won. The other side
    // threatens ours: one defender move left.
    // A searcher that must not use what only the sample knows credits a
    // strike at a hidden flag by the belief's chance that it is the flag.
    let sure = |s: usize| -> i32 {
        match guard {
            Some(g) if Side::TWO[s] == g.root => (g.flag_chance(flag_id[1 - s]) * 1000.0) as i32,
            _ => 1000,
        }
    };
    if strikers[me] > 0 {
        score += WIN / 3 * sure(me) / 1000;
    }
    score -= match strikers[op] {
        0 => 0,
        1 => WIN / 4,
        _ => WIN / 2,
    } * sure(op)
        / 1000;
    // A lead without the means to win (`super::means`) is a draw: it fades
    // to the draw's value, so the side ahead keeps its keys and hunters.
    if knowledge == Knowledge::Technique && weights.means > 0 {
        let lead = score - draw;
        let ahead = if lead > 0 { side } else { side.opponent() };
        if lead != 0 && !can_win(pos, ahead, |f| boxed_in(pos, f)) {
            score = draw + lead * (100 - weights.means.min(100)) / 100;
        }
    }
    // Without attacks the game drifts to a draw: an advantage fades as the
    // quiet-move counter runs up, so the side ahead keeps attacking.
    let limit = pos.rules().quiet_draw_plies.max(1) as i32;
    let quiet = pos.quiet_plies() as i32;
    let drift = (quiet - limit / 3).max(0);
    score - (score - draw) * drift / (limit * 3 / 2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece::{Piece, PieceId};
    use crate::rules::Rules;

    /// South a corps up, with the quiet-move counter at `quiet`.
    fn corps_up(quiet: u16) -> Position {
        let board = Board::classic();
        let mut pos = Position::empty(board, Rules::default(), Side::South);
        let put = |pos: &mut Position, side, row, col, rank, id| {
            let p = board.point(side, row, col).expect("point");
            pos.set(
                p,
                Some(Piece {
                    side,
                    rank,
                    face_up: true,
                    id: PieceId(id),
                }),
            );
        };
        put(&mut pos, Side::South, 6, 2, Rank::Flag, 0);
        put(&mut pos, Side::South, 3, 1, Rank::Corps, 1);
        put(&mut pos, Side::South, 3, 5, Rank::Platoon, 2);
        put(&mut pos, Side::North, 6, 2, Rank::Flag, 25);
        put(&mut pos, Side::North, 3, 5, Rank::Platoon, 26);
        pos.set_counters(40, quiet);
        pos
    }

    /// A position of `mode` with South to move, pieces by point name.
    fn study(mode: Mode, pieces: &[(&str, Side, Rank)]) -> Position {
        study_to_move(mode, pieces, Side::South)
    }

    /// [`study`] with `turn` to move.
    fn study_to_move(mode: Mode, pieces: &[(&str, Side, Rank)], turn: Side) -> Position {
        let board = Board::classic();
        let mut pos = Position::empty(board, Rules::for_mode(mode), turn);
        for (i, &(name, side, rank)) in pieces.iter().enumerate() {
            let p = board.parse_point(name).expect("point");
            pos.set(
                p,
                Some(Piece {
                    side,
                    rank,
                    face_up: true,
                    id: PieceId(i as u8 + if side == Side::North { 25 } else { 0 }),
                }),
            );
        }
        pos.set_colours_fixed(true);
        pos.set_counters(120, 0);
        pos
    }

    #[test]
    fn an_officer_locked_on_a_headquarters_counts_a_quarter() {
        use Rank::*;
        let free = [("N62", Side::North, Flag), ("S62", Side::South, Flag)];
        let at = |p: &str| {
            let mut v = free.to_vec();
            v.push((p, Side::South, Commander));
            study(Mode::Dark, &v)
        };
        let board = Board::classic();
        let pos = at("N64");
        let hq = board.parse_point("N64").expect("point");
        let road = board.parse_point("N54").expect("point");
        assert_eq!(worth(&pos, hq, Commander), value(Commander) * LOCKED / 100);
        assert_eq!(worth(&pos, road, Commander), value(Commander));
        // Mines and the flag lose nothing on a headquarters.
        assert_eq!(worth(&pos, hq, Landmine), value(Landmine));
        let e = |p: &Position| evaluate(p, Knowledge::Full, &Weights::HAND, None, 0, None);
        assert!(e(&at("N54")) > e(&at("N64")) + value(Commander) / 2);
        // Where pieces may leave a headquarters, nothing is locked.
        let mut rules = Rules::for_mode(Mode::Dark);
        rules.hq_exit = true;
        let open = Position::empty(board, rules, Side::South);
        assert_eq!(worth(&open, hq, Commander), value(Commander));
    }

    /// Both flags boxed in by three landmines, South a commander up.
    fn boxed(extra: &[(&'static str, Side, Rank)]) -> Vec<(&'static str, Side, Rank)> {
        use Rank::*;
        let mut v = vec![
            ("S62", Side::South, Flag),
            ("S61", Side::South, Landmine),
            ("S63", Side::South, Landmine),
            ("S52", Side::South, Landmine),
            ("S35", Side::South, Commander),
            ("N62", Side::North, Flag),
            ("N61", Side::North, Landmine),
            ("N63", Side::North, Landmine),
            ("N52", Side::North, Landmine),
            ("N34", Side::North, Division),
        ];
        v.extend_from_slice(extra);
        v
    }

    #[test]
    fn a_flag_with_a_way_in_wants_a_strong_piece_beside_it() {
        use Rank::*;
        let board = Board::classic();
        let flag = board.parse_point("S62").expect("point");
        let guard =
            |v: &[(&'static str, Side, Rank)]| home_guard(&study(Mode::Dark, v), flag, true);
        // Boxed in by three landmines: no way in, no guard needed.
        assert_eq!(guard(&boxed(&[("S51", Side::South, Division)])), 0);
        // One box mine dug (S52 free) and South's commander gone: a
        // division in the hole or beside it counts in full, a regiment by its
        // strength, a far one not at all.
        let dug = |extra: (&'static str, Side, Rank)| {
            let mut v = boxed(&[extra]);
            v.retain(|&(p, _, r)| !(p == "S52" && r == Landmine) && r != Commander);
            guard(&v)
        };
        assert_eq!(dug(("S52", Side::South, Division)), HOME_GUARD);
        assert_eq!(dug(("S42", Side::South, Division)), HOME_GUARD);
        assert_eq!(
            dug(("S42", Side::South, Regiment)),
            HOME_GUARD * value(Regiment) / value(Division)
        );
        assert!(dug(("S32", Side::South, Division)) < HOME_GUARD);
        assert_eq!(dug(("N14", Side::South, Division)), 0);
        // An engineer guards nothing.
        assert_eq!(dug(("S52", Side::South, Engineer)), 0);
        // Only Master's weights and the searcher's own flag count it.
        let mut v = boxed(&[("S42", Side::South, Division)]);
        v.retain(|&(p, _, r)| !(p == "S52" && r == Landmine));
        let pos = study(Mode::Dark, &v);
        let w = Weights {
            home_guard: 100,
            ..Weights::HAND
        };
        let e = |w: &Weights, home| evaluate(&pos, Knowledge::Full, w, None, 0, home);
        assert_eq!(e(&w, Some(Side::South)) - e(&w, None), HOME_GUARD);
        assert_eq!(e(&w, Some(Side::North)), e(&w, None));
        assert_eq!(e(&Weights::HAND, Some(Side::South)), e(&w, None));
        assert_eq!(
            super::super::Level::Master.params().search.weights,
            Weights {
                plug: 100,
                shield: 100,
                ..w
            }
        );
        assert_eq!(
            super::super::Level::Expert.params().search.weights,
            Weights::HAND
        );
    }

    #[test]
    fn a_way_in_wants_a_piece_in_it_and_a_box_mine_its_approaches_held() {
        use Rank::*;
        let board = Board::classic();
        let flag = board.parse_point("S62").expect("point");
        let pos = |extra: &[(&'static str, Side, Rank)], dig: bool| {
            let mut v = boxed(extra);
            if dig {
                v.retain(|&(p, _, r)| !(p == "S52" && r == Landmine));
            }
            study(Mode::Dark, &v)
        };
        // Boxed in: no way in to plug.
        assert_eq!(
            plugged(&pos(&[("S51", Side::South, Platoon)], false), flag),
            0
        );
        // The box mine on S52 dug: a piece of ours in the hole plugs it,
        // an enemy there or ours beside it does not.
        assert_eq!(
            plugged(&pos(&[("S52", Side::South, Platoon)], true), flag),
            PLUG
        );
        assert_eq!(
            plugged(&pos(&[("S52", Side::North, Platoon)], true), flag),
            0
        );
        assert_eq!(
            plugged(&pos(&[("S51", Side::South, Platoon)], true), flag),
            0
        );
        // S52 is reached from S51, S53 (both on the railway) and the camp
        // S42; the corner mine S61 only from S51, S63 from S53 and the
        // other headquarters S64. A piece of ours on S51 or S53 stands
        // before two mines.
        let both = [("S51", Side::South, Platoon), ("S53", Side::South, Company)];
        let one =
            |at: &'static str, side: Side| shielded(&pos(&[(at, side, Platoon)], false), flag);
        assert_eq!(shielded(&pos(&both, false), flag), 4 * SHIELD);
        assert_eq!(one("S51", Side::South), 2 * SHIELD);
        assert_eq!(one("S42", Side::South), SHIELD);
        assert_eq!(one("S64", Side::South), SHIELD);
        assert_eq!(one("S32", Side::South), 0);
        // An enemy there shields nothing; a dug mine needs no shield.
        assert_eq!(one("S51", Side::North), 0);
        assert_eq!(shielded(&pos(&both, true), flag), 2 * SHIELD);
        // Both count for the searcher's own flag only, with their weights.
        let w = Weights {
            plug: 100,
            shield: 100,
            ..Weights::HAND
        };
        let plugged_in = pos(
            &[("S52", Side::South, Platoon), ("S51", Side::South, Company)],
            true,
        );
        let e = |w: &Weights, home| evaluate(&plugged_in, Knowledge::Full, w, None, 0, home);
        assert_eq!(e(&w, Some(Side::South)) - e(&w, None), PLUG + SHIELD);
        assert_eq!(e(&w, Some(Side::North)), e(&w, None));
        assert_eq!(e(&Weights::HAND, Some(Side::South)), e(&w, None));
    }

    #[test]
    fn the_last_engineer_against_a_shut_flag_is_worth_its_rank_and_the_win() {
        use Rank::*;
        // The keys' terms alone: trading down also grows a lead.
        let w = without_trading();
        for mode in [Mode::Open, Mode::Flip] {
            let with = study(mode, &boxed(&[("S23", Side::South, Engineer)]));
            let without = study(mode, &boxed(&[]));
            let gap = |k| {
                evaluate(&with, k, &w, None, 0, None) - evaluate(&without, k, &w, None, 0, None)
            };
            let (full, tech) = (gap(Knowledge::Full), gap(Knowledge::Technique));
            assert!(full < value(Engineer) + 60, "{mode:?}: full {full}");
            assert!(
                tech >= full + NO_MEANS - LAST_MEANS,
                "{mode:?}: {tech} against {full}"
            );
        }
        // Dark games leave it out: there only a sample knows the mines.
        let dark = study(Mode::Dark, &boxed(&[("S23", Side::South, Engineer)]));
        assert_eq!(
            evaluate(&dark, Knowledge::Technique, &w, None, 0, None),
            evaluate(&dark, Knowledge::Full, &w, None, 0, None)
        );
        // A flag with a free point beside it is not shut in (outside flip
        // games, where any landmine left shuts it): the engineer is worth
        // its rank only.
        let mut open_side = boxed(&[("S23", Side::South, Engineer)]);
        open_side.retain(|e| e.0 != "N52");
        let mut open_side_without = boxed(&[]);
        open_side_without.retain(|e| e.0 != "N52");
        let gap = |k| {
            evaluate(&study(Mode::Open, &open_side), k, &w, None, 0, None)
                - evaluate(&study(Mode::Open, &open_side_without), k, &w, None, 0, None)
        };
        assert_eq!(gap(Knowledge::Technique), gap(Knowledge::Full));
        let flip_gap = |k| {
            evaluate(&study(Mode::Flip, &open_side), k, &w, None, 0, None)
                - evaluate(&study(Mode::Flip, &open_side_without), k, &w, None, 0, None)
        };
        assert!(
            flip_gap(Knowledge::Technique) >= flip_gap(Knowledge::Full) + NO_MEANS - LAST_MEANS
        );
    }

    #[test]
    fn the_keys_in_dark_games_count_for_the_searchers_own_side_only() {
        use Rank::*;
        let mut w = without_trading();
        let dark = |extra: &[(&'static str, Side, Rank)]| study(Mode::Dark, &boxed(extra));
        let with = dark(&[("S23", Side::South, Engineer)]);
        let without = dark(&[]);
        let gap = |w: &Weights, home| {
            evaluate(&with, Knowledge::Full, w, None, 0, home)
                - evaluate(&without, Knowledge::Full, w, None, 0, home)
        };
        let off = gap(&w, Some(Side::South));
        w.keys = 100;
        // South's engineer, its last key to North's boxed flag, is worth the
        // win it keeps when South searches...
        assert!(gap(&w, Some(Side::South)) >= off + LAST_MEANS, "{off}");
        // ...and only its rank when North searches (the sample's enemy
        // engineers are guesses), or with the weight off.
        assert_eq!(gap(&w, Some(Side::North)), off);
        assert_eq!(gap(&w, None), off);
    }

    #[test]
    fn an_engineer_goes_to_dig_the_mines_that_shut_the_flag_in() {
        use Rank::*;
        let near = study(Mode::Open, &boxed(&[("N42", Side::South, Engineer)]));
        let far = study(Mode::Open, &boxed(&[("S23", Side::South, Engineer)]));
        let gain = |k| {
            evaluate(&near, k, &Weights::HAND, None, 0, None)
                - evaluate(&far, k, &Weights::HAND, None, 0, None)
        };
        assert!(
            gain(Knowledge::Technique) >= gain(Knowledge::Full) + DIG[1] - DIG[5],
            "{} against {}",
            gain(Knowledge::Technique),
            gain(Knowledge::Full)
        );
    }

    #[test]
    fn a_bomb_is_spent_on_the_last_mine_that_shuts_a_flip_flag() {
        use Rank::*;
        // Flip game, everything face up: North keeps one landmine, so its
        // flag cannot be attacked; South's bomb stands beside the mine and
        // its commander far off. Trading the bomb for the mine costs 290 of
        // material and opens the flag: worth it with the technique, not
        // without.
        let rest = [
            ("S62", Side::South, Flag),
            ("S33", Side::South, Commander),
            ("N62", Side::North, Flag),
            ("N23", Side::North, Regiment),
        ];
        let with = |extra: &[(&'static str, Side, Rank)]| {
            let mut v = rest.to_vec();
            v.extend_from_slice(extra);
            study(Mode::Flip, &v)
        };
        let before = with(&[("N31", Side::South, Bomb), ("N41", Side::North, Landmine)]);
        let after = with(&[]);
        let gain = |k| {
            evaluate(&after, k, &Weights::HAND, None, 0, None)
                - evaluate(&before, k, &Weights::HAND, None, 0, None)
        };
        assert!(gain(Knowledge::Full) < 0, "{}", gain(Knowledge::Full));
        assert!(
            gain(Knowledge::Technique) > 0,
            "{}",
            gain(Knowledge::Technique)
        );
        // And the bomb is drawn to that mine from across the board.
        let far = with(&[("S25", Side::South, Bomb), ("N41", Side::North, Landmine)]);
        let closer = with(&[("N25", Side::South, Bomb), ("N41", Side::North, Landmine)]);
        let gain = |k| {
            evaluate(&closer, k, &Weights::HAND, None, 0, None)
                - evaluate(&far, k, &Weights::HAND, None, 0, None)
        };
        assert!(gain(Knowledge::Technique) > gain(Knowledge::Full));
    }

    /// The hand-set weights with trading down off.
    fn without_trading() -> Weights {
        Weights {
            trade_down: 0,
            ..Weights::HAND
        }
    }

    #[test]
    fn the_side_ahead_gains_by_an_even_trade() {
        use Rank::*;
        // South is a corps up; its brigade and North's trade off. The
        // trading-down term (the evaluation with and without it) grows for
        // South with the trade and falls for North in flip games, and is
        // not there in open or dark games or at Expert's knowledge.
        let rest = [
            ("S62", Side::South, Flag),
            ("S35", Side::South, Corps),
            ("S45", Side::South, Platoon),
            ("N62", Side::North, Flag),
            ("N45", Side::North, Platoon),
        ];
        let brigades = [("S31", Side::South, Brigade), ("N31", Side::North, Brigade)];
        let without = without_trading();
        for mode in [Mode::Open, Mode::Flip, Mode::Dark] {
            let term = |turn: Side, traded: bool, k: Knowledge| {
                let mut v = rest.to_vec();
                if !traded {
                    v.extend_from_slice(&brigades);
                }
                let pos = study_to_move(mode, &v, turn);
                evaluate(&pos, k, &Weights::HAND, None, 0, None)
                    - evaluate(&pos, k, &without, None, 0, None)
            };
            for turn in Side::TWO {
                let sign = if turn == Side::South { 1 } else { -1 };
                let (before, after) = (
                    sign * term(turn, false, Knowledge::Technique),
                    sign * term(turn, true, Knowledge::Technique),
                );
                if mode != Mode::Flip {
                    assert_eq!((before, after), (0, 0));
                } else {
                    assert!(
                        0 < before && before < after,
                        "{mode:?} {turn:?}: {before} {after}"
                    );
                }
                assert_eq!(term(turn, true, Knowledge::Full), 0);
            }
        }
    }

    #[test]
    fn the_side_ahead_closes_in_on_what_it_only_trades_with() {
        use Rank::*;
        // South, a corps and a division against North's corps: only a
        // trade takes North's corps, and it wins (the division is left).
        // With trading down South's corps is drawn towards it; North,
        // behind, is not drawn towards the trade.
        let at = |corps: &'static str, turn: Side| {
            let v = [
                ("S62", Side::South, Flag),
                ("N62", Side::North, Flag),
                ("S65", Side::South, Division),
                ("N31", Side::North, Corps),
                (corps, Side::South, Corps),
            ];
            study_to_move(Mode::Flip, &v, turn)
        };
        let without = without_trading();
        let closing = |turn: Side, w: &Weights| {
            let k = Knowledge::Technique;
            evaluate(&at("N21", turn), k, w, None, 0, None)
                - evaluate(&at("S55", turn), k, w, None, 0, None)
        };
        // South's corps one step from North's against far back at home:
        // worth more to South with the term.
        let (with, plain) = (
            closing(Side::South, &Weights::HAND),
            closing(Side::South, &without),
        );
        assert!(with > plain, "{with} against {plain}");
        assert_eq!(
            closing(Side::North, &Weights::HAND) - closing(Side::North, &without),
            plain - with
        );
    }

    #[test]
    fn a_bomb_closes_in_on_the_officer_nothing_else_beats() {
        use Rank::*;
        // North's commander outranks South's corps: only the bomb answers it.
        let pieces = |bomb: &'static str| {
            vec![
                ("S62", Side::South, Flag),
                ("S31", Side::South, Corps),
                (bomb, Side::South, Bomb),
                ("N62", Side::North, Flag),
                ("S45", Side::North, Commander),
            ]
        };
        let gain = |k| {
            evaluate(
                &study(Mode::Open, &pieces("S55")),
                k,
                &Weights::HAND,
                None,
                0,
                None,
            ) - evaluate(
                &study(Mode::Open, &pieces("S21")),
                k,
                &Weights::HAND,
                None,
                0,
                None,
            )
        };
        assert!(gain(Knowledge::Technique) >= gain(Knowledge::Full) + BOMB_HUNT[1] - BOMB_HUNT[3]);
        // Against a commander of its own South's bomb has no such errand.
        let level = |bomb: &'static str| {
            let mut v = pieces(bomb);
            v.push(("S11", Side::South, Commander));
            study(Mode::Open, &v)
        };
        let gain = |k| {
            evaluate(&level("S55"), k, &Weights::HAND, None, 0, None)
                - evaluate(&level("S21"), k, &Weights::HAND, None, 0, None)
        };
        assert_eq!(gain(Knowledge::Technique), gain(Knowledge::Full));
    }

    #[test]
    fn a_lead_without_the_means_to_win_is_worth_a_draw() {
        use Rank::*;
        // North's flag boxed in, its last runner a company; South a
        // commander and a battalion up, no engineer and no bomb.
        let with = |south: &[(&'static str, Rank)]| {
            let mut v = vec![
                ("N62", Side::North, Flag),
                ("N61", Side::North, Landmine),
                ("N63", Side::North, Landmine),
                ("N52", Side::North, Landmine),
                ("N45", Side::North, Company),
                ("S62", Side::South, Flag),
            ];
            v.extend(south.iter().map(|&(p, r)| (p, Side::South, r)));
            study(Mode::Open, &v)
        };
        let two = with(&[("S35", Commander), ("N51", Battalion)]);
        let one = with(&[("S35", Commander)]);
        let mut w = Weights::HAND;
        let e = |pos: &Position, w: &Weights, draw| {
            evaluate(pos, Knowledge::Technique, w, None, draw, None)
        };
        // Without the term a lone commander still counts as a big lead.
        let lone = e(&one, &w, -250);
        assert!(lone > 0, "{lone}");
        w.means = 100;
        // With it the lone hunter's lead is the draw, the two hunters' is not.
        assert_eq!(e(&one, &w, -250), -250);
        assert!(
            e(&two, &w, -250) > lone,
            "{} against {lone}",
            e(&two, &w, -250)
        );
        // Half the weight, half the lead; other knowledge ignores it.
        w.means = 50;
        let half = e(&one, &w, 0);
        w.means = 0;
        assert_eq!(half, e(&one, &w, 0) / 2);
        let full = |w: &Weights| evaluate(&one, Knowledge::Full, w, None, 0, None);
        assert_eq!(
            full(&Weights {
                means: 100,
                ..Weights::HAND
            }),
            full(&Weights::HAND)
        );
    }

    #[test]
    fn an_advantage_fades_towards_the_value_of_a_draw() {
        let limit = Rules::default().quiet_draw_plies;
        let fresh = evaluate(&corps_up(0), Knowledge::Full, &Weights::HAND, None, 0, None);
        assert!(fresh > 500, "a corps up: {fresh}");
        let late = evaluate(
            &corps_up(limit - 1),
            Knowledge::Full,
            &Weights::HAND,
            None,
            0,
            None,
        );
        assert!(late < fresh && late > 0, "{late} against {fresh}");
        // A draw that costs the side to move pulls the late score below the plain one.
        let with_contempt = evaluate(
            &corps_up(limit - 1),
            Knowledge::Full,
            &Weights::HAND,
            None,
            -300,
            None,
        );
        assert!(with_contempt < late, "{with_contempt} against {late}");
        // The fresh position is no nearer a draw, so contempt changes nothing there.
        assert_eq!(
            evaluate(
                &corps_up(0),
                Knowledge::Full,
                &Weights::HAND,
                None,
                -300,
                None
            ),
            fresh
        );
    }
}
