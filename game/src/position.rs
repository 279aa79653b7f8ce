//! The whole truth of a game in progress: every piece, the side to move, the
//! counters; legal move generation and playing moves (RULES.md §4–§7).

use crate::board::{Board, MAX_LINES, MAX_POINTS, Point, PointSet, SmallTables, nth_bit};
use crate::layout::Deployment;
use crate::piece::{Piece, PieceId, Rank, Side};
use crate::rules::{Clash, Mode, Outcome, Rules};
use serde::{Deserialize, Serialize};
use std::fmt;

mod seats;

pub use crate::move_list::{MAX_MOVES, MoveList};

/// One move: a step (a move or an attack along road or railway) or, in flip
/// games, turning a face-down piece over.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Move {
    /// Move the piece on `from` to `to` (an attack if `to` holds an enemy or face-down piece).
    Step {
        /// Where the piece stands.
        from: Point,
        /// Where it goes.
        to: Point,
    },
    /// Flip games: turn the face-down piece on `at` face up.
    Flip {
        /// The face-down piece.
        at: Point,
    },
}

/// The legal moves grouped by piece (see [`Position::legal_move_sets`]):
/// each movable piece's point with the set of points it may move to, and the
/// face-down pieces that may be flipped. Like the bitboard move sets of chess
/// libraries, it is cheap to build and to count; [`MoveSets::get`] and
/// [`MoveSets::iter`] give the moves in [`Position::legal_moves`] order.
#[derive(Clone, Debug)]
pub struct MoveSets {
    /// Entries `0..pieces` are the pieces that have a step.
    pieces: usize,
    from: [Point; MAX_POINTS],
    /// `ends[i + 1]`: the number of steps of the pieces up to and including
    /// entry `i`; `ends[0]` is 0.
    ends: [u16; MAX_POINTS + 1],
    /// The targets, as one word each on a board of at most 64 points.
    low: [u64; MAX_POINTS],
    /// The targets on larger boards.
    targets: [PointSet; MAX_POINTS],
    /// Whether `low` holds the targets (else `targets`).
    small: bool,
    flips: PointSet,
    len: usize,
}

impl Default for MoveSets {
    fn default() -> MoveSets {
        MoveSets {
            pieces: 0,
            from: [Point(0); MAX_POINTS],
            ends: [0; MAX_POINTS + 1],
            low: [0; MAX_POINTS],
            targets: [PointSet::EMPTY; MAX_POINTS],
            small: true,
            flips: PointSet::EMPTY,
            len: 0,
        }
    }
}

impl MoveSets {
    /// No moves.
    pub fn new() -> MoveSets {
        MoveSets::default()
    }

    /// Removes every move.
    pub fn clear(&mut self) {
        self.pieces = 0;
        self.flips = PointSet::EMPTY;
        self.len = 0;
    }

    /// The number of legal moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there is no legal move.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The `k`-th move in [`Position::legal_moves`] order (`None` if `k >= len`).
    pub fn get(&self, k: usize) -> Option<Move> {
        let n = self.pieces.min(MAX_POINTS);
        let steps = self.ends[n] as usize;
        if k >= steps {
            return self.flips.nth(k - steps).map(|at| Move::Flip { at });
        }
        // The piece: the first whose steps end after `k` (a binary search
        // whose steps depend only on `n`, with a conditional move).
        let ends = &self.ends[1..=n];
        let (mut i, mut len) = (0, n);
        while len > 1 {
            let half = len / 2;
            i = std::hint::select_unpredictable(ends[i + half - 1] as usize <= k, i + half, i);
            len -= half;
        }
        let k = k - self.ends[i] as usize;
        let to = if self.small {
            Point(nth_bit(self.low[i], k) as u8)
        } else {
            self.targets[i].nth(k)?
        };
        Some(Move::Step {
            from: self.from[i],
            to,
        })
    }

    /// The targets of entry `i`.
    #[inline]
    fn targets_of(&self, i: usize) -> PointSet {
        if self.small {
            PointSet::from_low_word(self.low[i])
        } else {
            self.targets[i]
        }
    }

    /// Each piece that has a step with the points it may step to, by point.
    pub fn steps(&self) -> impl Iterator<Item = (Point, PointSet)> + '_ {
        let n = self.pieces.min(MAX_POINTS);
        (0..n).map(|i| (self.from[i], self.targets_of(i)))
    }

    /// The face-down pieces that may be flipped.
    pub fn flips(&self) -> PointSet {
        self.flips
    }

    /// Whether `m` is one of the moves.
    pub fn contains(&self, m: Move) -> bool {
        match m {
            Move::Step { from, to } => self
                .steps()
                .any(|(f, t)| f == from && to.index() < MAX_POINTS && t.contains(to)),
            Move::Flip { at } => at.index() < MAX_POINTS && self.flips.contains(at),
        }
    }

    /// The moves in [`Position::legal_moves`] order.
    pub fn iter(&self) -> impl Iterator<Item = Move> + '_ {
        self.steps()
            .flat_map(|(from, mut targets)| {
                std::iter::from_fn(move || {
                    let to = targets.nth(0)?;
                    targets.remove(to);
                    Some(Move::Step { from, to })
                })
            })
            .chain(self.flips.iter().map(|at| Move::Flip { at }))
    }
}

/// A set of target points as the generator produces it: one word on boards
/// of at most 64 points, a [`PointSet`] otherwise.
trait Targets: Copy {
    fn is_empty(self) -> bool;
    fn count(self) -> usize;
    /// Stores the set in the slot its representation uses.
    fn store(self, low: &mut u64, set: &mut PointSet);
    fn for_each(self, f: impl FnMut(Point));
}

impl Targets for u64 {
    #[inline(always)]
    fn is_empty(self) -> bool {
        self == 0
    }
    #[inline(always)]
    fn count(self) -> usize {
        self.count_ones() as usize
    }
    #[inline(always)]
    fn store(self, low: &mut u64, _set: &mut PointSet) {
        *low = self;
    }
    #[inline(always)]
    fn for_each(self, mut f: impl FnMut(Point)) {
        let mut bits = self;
        while bits != 0 {
            f(Point(bits.trailing_zeros() as u8));
            bits &= bits - 1;
        }
    }
}

impl Targets for PointSet {
    #[inline(always)]
    fn is_empty(self) -> bool {
        PointSet::is_empty(&self)
    }
    #[inline(always)]
    fn count(self) -> usize {
        self.len()
    }
    #[inline(always)]
    fn store(self, _low: &mut u64, set: &mut PointSet) {
        *set = self;
    }
    #[inline(always)]
    fn for_each(self, f: impl FnMut(Point)) {
        PointSet::for_each(&self, f)
    }
}

/// Receives each movable piece's targets from the generator.
trait TargetSink {
    /// Takes the targets of the piece on `from`; `false` stops the generator.
    fn piece(&mut self, from: Point, targets: impl Targets) -> bool;
}

impl TargetSink for MoveList {
    #[inline(always)]
    fn piece(&mut self, from: Point, targets: impl Targets) -> bool {
        targets.for_each(|to| self.push(Move::Step { from, to }));
        true
    }
}

/// Fills a [`MoveSets`], with its counters in locals (registers) while the
/// generator runs.
struct SetsWriter<'a> {
    out: &'a mut MoveSets,
    pieces: usize,
    len: usize,
}

impl TargetSink for SetsWriter<'_> {
    #[inline(always)]
    fn piece(&mut self, from: Point, targets: impl Targets) -> bool {
        // Branch-free: the entry is kept only when the piece has a target
        // (there are never more pieces than points).
        let count = targets.count();
        let i = self.pieces;
        self.len += count;
        self.out.from[i] = from;
        self.out.ends[i + 1] = self.len as u16;
        targets.store(&mut self.out.low[i], &mut self.out.targets[i]);
        self.pieces += (count != 0) as usize;
        true
    }
}

/// Counts the targets.
struct CountTargets(usize);

impl TargetSink for CountTargets {
    #[inline(always)]
    fn piece(&mut self, _from: Point, targets: impl Targets) -> bool {
        self.0 += targets.count();
        true
    }
}

/// Stops at the first piece with a target.
struct AnyTarget(bool);

impl TargetSink for AnyTarget {
    #[inline(always)]
    fn piece(&mut self, _from: Point, targets: impl Targets) -> bool {
        self.0 = !targets.is_empty();
        !self.0
    }
}

/// The sets the one-word generator works with, for the side to move.
struct SmallContext {
    occupied: u64,
    /// Railway points holding a piece that runs the railway like an engineer.
    flooders: u64,
    blocked: u64,
    enemy_up: u64,
}

/// What playing a move did, as the referee saw it (ranks included).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Effect {
    /// A move to an empty point.
    Moved {
        /// From.
        from: Point,
        /// To.
        to: Point,
    },
    /// An attack.
    Battle {
        /// From.
        from: Point,
        /// To.
        to: Point,
        /// The attacking piece.
        attacker: Piece,
        /// The defending piece (face up afterwards in flip games).
        defender: Piece,
        /// The verdict.
        clash: Clash,
        /// Flip games: the defender was face down and got turned over.
        defender_was_face_down: bool,
    },
    /// Flip games: a face-up piece attacked a face-down piece of its own
    /// colour, or a flag still guarded by mines: the piece is turned over and
    /// nothing else happens.
    VoidAttack {
        /// From.
        from: Point,
        /// To.
        to: Point,
        /// The piece turned over.
        revealed: Piece,
    },
    /// Flip games: a piece was turned over.
    Flipped {
        /// Where.
        at: Point,
        /// What it is.
        piece: Piece,
    },
}

/// Why a move was refused.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
pub enum IllegalMove {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// There is no piece of the side to move there (or it is face down).
    #[error("no piece of the side to move on the starting point")]
    NotYourPiece,
    /// Landmines and the flag never move; pieces in a headquarters stay.
    #[error("this piece cannot move")]
    Immovable,
    /// The target is not reachable or not attackable.
    #[error("the piece cannot reach that point")]
    Unreachable,
    /// Flip is only for face-down pieces in flip games.
    #[error("nothing face down to flip there")]
    NotFlippable,
}

/// How a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameResult {
    /// One side won.
    Win {
        /// The winner; in a four-player game a player of the winning team
        /// who is still in (South before North, East before West), the team
        /// being [`Side::team`].
        winner: Side,
        /// Why.
        reason: WinReason,
    },
    /// Nobody won.
    Draw {
        /// Why.
        reason: DrawReason,
    },
}

/// Why a side won.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WinReason {
    /// The loser's flag was captured.
    FlagCaptured,
    /// The loser could not move on its turn (无棋可走).
    NoLegalMove,
    /// Flip games: the loser has no movable piece left; also the last-pieces
    /// rule (RULES.md §9), where the loser's last movable piece died trading
    /// with the winner's.
    NoMovablePieces,
    /// The loser ran out of time too often.
    Timeouts,
    /// The loser resigned.
    Resignation,
    /// The loser broke the fair-play protocol or left the game.
    Forfeit,
}

/// Why a game was drawn.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DrawReason {
    /// Neither side can move.
    NoMovesEither,
    /// Too many plies without an attack.
    QuietMoves,
    /// Both players agreed.
    Agreed,
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameResult::Win { winner, reason } => write!(f, "{winner} wins ({reason:?})"),
            GameResult::Draw { reason } => write!(f, "draw ({reason:?})"),
        }
    }
}

/// What stands on a point, packed in two bytes (a [`Position`] holds one per
/// point, so this keeps it small to clone): 0 for an empty point, else bit 15
/// set, bit 14 face up, bits 12–13 the side, bits 8–11 the rank, bits 0–7 the id.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
struct Square(u16);

impl Square {
    const EMPTY: Square = Square(0);

    #[inline]
    fn of(piece: Option<Piece>) -> Square {
        match piece {
            None => Square::EMPTY,
            Some(pc) => Square(
                0x8000
                    | (pc.face_up as u16) << 14
                    | (pc.side as u16) << 12
                    | (pc.rank as u16) << 8
                    | pc.id.0 as u16,
            ),
        }
    }

    #[inline]
    fn piece(self) -> Option<Piece> {
        if self.0 & 0x8000 == 0 {
            return None;
        }
        const SIDES: [Side; 4] = [Side::South, Side::North, Side::East, Side::West];
        // Rank::ALL padded to 16 entries (only 0…11 are ever stored).
        const RANKS: [Rank; 16] = {
            let mut ranks = [Rank::Flag; 16];
            let mut i = 0;
            while i < 12 {
                ranks[i] = Rank::ALL[i];
                i += 1;
            }
            ranks
        };
        Some(Piece {
            side: SIDES[(self.0 >> 12 & 3) as usize],
            rank: RANKS[(self.0 >> 8 & 15) as usize],
            face_up: self.0 & 0x4000 != 0,
            id: PieceId(self.0 as u8),
        })
    }

    #[inline]
    fn is_empty(self) -> bool {
        self.0 & 0x8000 == 0
    }
}

/// A position: the referee's whole truth.
pub struct Position {
    board: &'static Board,
    rules: Rules,
    /// What stands on each point, two bytes per point.
    squares: [Square; MAX_POINTS],
    turn: Side,
    ply: u16,
    quiet: u16,
    flag_captured: Option<Side>,
    /// Flip games: whether the first flip has fixed who plays which colour.
    colours_fixed: bool,
    /// Flip games: the first player's colour is the second army of [`Rank::army`].
    colours_swapped: bool,
    /// Landmines left per side (face up or down), for the flip games' flag guard.
    mines: [u8; 4],
    /// Points held by each side (face up or down), by [`Side::index`];
    /// derived from `squares`.
    by_side: [PointSet; 4],
    /// Four-player team game (RULES.md §9): partners neither attack nor pass
    /// each other, turns go round the seats still in.
    teams: bool,
    /// The seats still in the game, one bit per [`Side::bit`].
    in_play: u8,
    /// Why each seat went out (team games), by [`Side::index`].
    outs: [Option<WinReason>; 4],
    /// The result once a team game (or the last-pieces rule) has decided it.
    decided: Option<GameResult>,
    /// Points holding a face-down piece; derived from `squares`.
    face_down: PointSet,
    /// Points holding a piece that never moves (landmine, flag; either side,
    /// face up or down); derived from `squares`.
    immobile: PointSet,
    /// Points holding a piece that runs the railway like an engineer
    /// ([`Rules::rail_runner`]); derived from `squares`.
    runners: PointSet,
    /// Boards without one-word tables: per railway line, bit `i` set when
    /// its `i`-th point is occupied (a straight run ends at the nearest set
    /// bit each way); derived from `squares`.
    lines: [u16; MAX_LINES],
}

impl Clone for Position {
    /// One block copy (every field is plain data).
    #[inline]
    fn clone(&self) -> Position {
        Position { ..*self }
    }
}

impl PartialEq for Position {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.board, other.board)
            && self.rules == other.rules
            && self.squares[..self.board.len()] == other.squares[..other.board.len()]
            && self.turn == other.turn
            && self.ply == other.ply
            && self.quiet == other.quiet
            && self.flag_captured == other.flag_captured
            && self.colours_fixed == other.colours_fixed
            && self.colours_swapped == other.colours_swapped
            && self.mines == other.mines
            && self.teams == other.teams
            && self.in_play == other.in_play
            && self.outs == other.outs
            && self.decided == other.decided
    }
}
impl Eq for Position {}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "Position {{ turn: {}, ply: {}, quiet: {} }}",
            self.turn, self.ply, self.quiet
        )?;
        for p in self.board.points() {
            if let Some(pc) = self.squares[p.index()].piece() {
                writeln!(
                    f,
                    "  {} {} {}{}",
                    self.board.name_of(p),
                    pc.side,
                    pc.rank.key(),
                    if pc.face_up { "" } else { " (face down)" }
                )?;
            }
        }
        Ok(())
    }
}

impl Position {
    /// A dark or open game from two deployments, on the classic board (or,
    /// with [`Rules::four_player_board`], South against North on the
    /// four-player board).
    pub fn new(rules: Rules, south: &Deployment, north: &Deployment, first: Side) -> Position {
        let board = rules.two_player_board();
        let mut pos = Position::empty(board, rules, first);
        for (side, dep) in [(Side::South, south), (Side::North, north)] {
            for (slot, (p, rank)) in dep.placements(board, side).into_iter().enumerate() {
                pos.set(
                    p,
                    Some(Piece {
                        side,
                        rank,
                        face_up: true,
                        id: PieceId((side.index() * 25 + slot) as u8),
                    }),
                );
            }
        }
        pos
    }

    /// A four-player dark or open game (四国大战) on the four-player board:
    /// `armies` are the deployments of South, East, North and West in that
    /// order ([`Side::FOUR`]); a half is the same half on either board, so any
    /// valid layout fits any seat. Piece ids are `side.index() * 25 + slot`.
    pub fn new_four(rules: Rules, armies: [&Deployment; 4], first: Side) -> Position {
        let board = Board::four_player();
        let mut pos = Position::empty(board, rules, first);
        for (side, dep) in Side::FOUR.into_iter().zip(armies) {
            for (slot, (p, rank)) in dep.placements(board, side).into_iter().enumerate() {
                pos.set(
                    p,
                    Some(Piece {
                        side,
                        rank,
                        face_up: true,
                        id: PieceId((side.index() * 25 + slot) as u8),
                    }),
                );
            }
        }
        pos.settle();
        pos
    }

    /// A flip game on the classic board: `arrangement[i]` is the piece id
    /// (colour `id / 25`, rank `Rank::army()[id % 25]`) face down on the
    /// `i`-th non-camp point (South's 25 setup points, then North's).
    /// Returns `None` unless `arrangement` is a permutation of 0…49. With
    /// [`Rules::four_player_board`] the 50 points are South's and North's
    /// halves of the four-player board.
    pub fn new_flip(rules: Rules, arrangement: &[u8; 50], first: Side) -> Option<Position> {
        let mut seen = [false; 50];
        for &id in arrangement {
            if id >= 50 || std::mem::replace(&mut seen[id as usize], true) {
                return None;
            }
        }
        let board = rules.two_player_board();
        let mut pos = Position::empty(
            board,
            Rules {
                mode: Mode::Flip,
                ..rules
            },
            first,
        );
        let army = Rank::army();
        let points = board
            .setup_points(Side::South)
            .iter()
            .chain(board.setup_points(Side::North));
        for (&p, &id) in points.zip(arrangement.iter()) {
            pos.set(
                p,
                Some(Piece {
                    side: Side::TWO[id as usize / 25],
                    rank: army[id as usize % 25],
                    face_up: false,
                    id: PieceId(id),
                }),
            );
        }
        Some(pos)
    }

    /// An empty board (for tests and position files). On the four-player
    /// board this is a team game with all four seats in, unless the rules
    /// seat two players there ([`Rules::four_player_board`]).
    pub fn empty(board: &'static Board, rules: Rules, turn: Side) -> Position {
        let teams = board.sides().len() == 4 && !rules.four_player_board;
        let seats: &[Side] = if teams { board.sides() } else { &Side::TWO };
        Position {
            teams,
            in_play: seats.iter().fold(0, |m, s| m | s.bit()),
            outs: [None; 4],
            decided: None,
            board,
            rules,
            squares: [Square::EMPTY; MAX_POINTS],
            turn,
            ply: 0,
            quiet: 0,
            flag_captured: None,
            colours_fixed: rules.mode != Mode::Flip,
            colours_swapped: false,
            mines: [0; 4],
            by_side: [PointSet::EMPTY; 4],
            face_down: PointSet::EMPTY,
            immobile: PointSet::EMPTY,
            runners: PointSet::EMPTY,
            lines: [0; MAX_LINES],
        }
    }

    /// Puts (or removes) a piece; for building positions by hand.
    pub fn set(&mut self, p: Point, piece: Option<Piece>) {
        if let Some(old) = self.squares[p.index()].piece()
            && old.rank == Rank::Landmine
        {
            self.mines[old.side.index()] = self.mines[old.side.index()].saturating_sub(1);
        }
        if let Some(new) = piece
            && new.rank == Rank::Landmine
        {
            self.mines[new.side.index()] += 1;
        }
        for set in &mut self.by_side {
            set.remove(p);
        }
        self.face_down.remove(p);
        self.immobile.remove(p);
        self.runners.remove(p);
        self.mark_line_occupancy(p, piece.is_some());
        if let Some(new) = piece {
            self.by_side[new.side.index()].insert(p);
            if !new.face_up {
                self.face_down.insert(p);
            }
            self.mark_rank(p, new.rank);
        }
        self.squares[p.index()] = Square::of(piece);
    }

    /// Keeps [`Position::lines`] for `p` (boards without one-word tables:
    /// the classic board's generator does not need them).
    #[inline(always)]
    fn mark_line_occupancy(&mut self, p: Point, occupied: bool) {
        if self.board.small().is_some() {
            return;
        }
        for &(l, i) in self.board.lines_through(p) {
            let bit = 1u16 << i;
            let word = &mut self.lines[l as usize];
            *word = if occupied { *word | bit } else { *word & !bit };
        }
    }

    /// Records the rank class of a piece of rank `rank` arriving on `p` in
    /// the derived sets (which must not hold `p` yet).
    #[inline]
    fn mark_rank(&mut self, p: Point, rank: Rank) {
        if !rank.is_movable() {
            self.immobile.insert(p);
        }
        if self.rules.rail_runner(rank) {
            self.runners.insert(p);
        }
    }

    /// Overrides the count of `side`'s landmines left (a view that knows the
    /// count but not where they are uses this when it builds a position).
    pub fn set_mines_left(&mut self, side: Side, count: u8) {
        self.mines[side.index()] = count;
    }

    /// Sets the counters; for building positions by hand.
    pub fn set_counters(&mut self, ply: u16, quiet_plies: u16) {
        self.ply = ply;
        self.quiet = quiet_plies;
    }

    /// Flip games: marks the colours as already decided (for positions built by hand).
    pub fn set_colours_fixed(&mut self, fixed: bool) {
        self.colours_fixed = fixed;
    }

    /// The board.
    pub fn board(&self) -> &'static Board {
        self.board
    }
    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    /// What stands on `p`.
    #[inline]
    pub fn at(&self, p: Point) -> Option<Piece> {
        self.squares[p.index()].piece()
    }
    /// The side to move.
    pub fn turn(&self) -> Side {
        self.turn
    }
    /// Plies played so far.
    pub fn ply(&self) -> u16 {
        self.ply
    }
    /// Plies since the last attack.
    pub fn quiet_plies(&self) -> u16 {
        self.quiet
    }
    /// Whose flag was captured, if any (two-player games: it ends the game;
    /// in four-player games a captured flag puts its player out instead, see
    /// [`Position::out_reason`]).
    pub fn flag_captured(&self) -> Option<Side> {
        self.flag_captured
    }
    /// Flip games: whether the first flip has decided the colours.
    pub fn colours_fixed(&self) -> bool {
        self.colours_fixed
    }
    /// Flip games: whether the first player plays the colour whose ids are 25…49.
    pub fn colours_swapped(&self) -> bool {
        self.colours_swapped
    }

    /// Every piece with its point.
    pub fn pieces(&self) -> impl Iterator<Item = (Point, Piece)> + '_ {
        self.board
            .points()
            .filter_map(|p| self.squares[p.index()].piece().map(|pc| (p, pc)))
    }

    /// Whether the derived point sets and mine counts agree with the squares
    /// (a self-check for tests).
    pub fn is_consistent(&self) -> bool {
        let mut fresh = Position::empty(self.board, self.rules, self.turn);
        for (p, pc) in self.pieces() {
            fresh.set(p, Some(pc));
        }
        let mines_ok = self.rules.mode != Mode::Flip || fresh.mines == self.mines;
        fresh.by_side == self.by_side
            && fresh.face_down == self.face_down
            && fresh.immobile == self.immobile
            && fresh.runners == self.runners
            && fresh.lines == self.lines
            && mines_ok
    }

    /// The points held by `side` (face up or down).
    pub fn points_of(&self, side: Side) -> PointSet {
        self.by_side[side.index()]
    }

    /// Passes the turn without a move (a timeout).
    pub fn pass(&mut self) {
        self.ply += 1;
        self.quiet += 1;
        self.end_turn();
    }

    /// Whether a piece on `from` is allowed to move at all.
    #[inline]
    fn can_move_from(&self, from: Point, piece: Piece) -> bool {
        piece.face_up
            && piece.rank.is_movable()
            && (!self.board.is_headquarters(from) || self.rules.may_leave_headquarters())
    }

    /// Whether `mover` may end its move on `to` (empty, or an attack it may make).
    #[inline(always)]
    fn may_end_on(&self, mover: Piece, to: Point) -> bool {
        match self.squares[to.index()].piece() {
            None => true,
            Some(_) if self.board.is_camp(to) => false,
            Some(target) if !target.face_up => !self.rules.facedown_immune,
            Some(target) if self.is_friend(mover.side, target.side) => false,
            Some(target) => self.may_attack_face_up(mover, target),
        }
    }

    /// Flip-game restrictions on attacking a face-up enemy.
    #[inline]
    fn may_attack_face_up(&self, mover: Piece, target: Piece) -> bool {
        if self.rules.mode != Mode::Flip {
            return true;
        }
        if target.rank == Rank::Flag && self.mines_left(target.side) > 0 {
            return false;
        }
        // No suicide (RULES.md §6): only an attack the defender wins outright
        // is refused; a trade is allowed, so a bomb may take a face-up mine
        // (and under the standard mine rule an engineer, and nothing else).
        if self.rules.no_suicide {
            return self.rules.clash(mover.rank, target.rank).outcome != Outcome::DefenderWins;
        }
        true
    }

    /// Landmines of `side` still on the board (face up or down).
    #[inline]
    pub fn mines_left(&self, side: Side) -> u8 {
        self.mines[side.index()]
    }

    /// Points a piece of `side` may never end on: its own face-up pieces,
    /// occupied camps, and face-down pieces where those are immune.
    #[inline]
    fn blocked_for(&self, side: Side) -> PointSet {
        let own_up = self.friends(side).difference(&self.face_down);
        let occupied = self.occupied();
        let mut blocked = own_up.union(&occupied.intersection(&self.board.camps_set()));
        if self.rules.facedown_immune {
            blocked = blocked.union(&self.face_down);
        }
        blocked
    }

    /// The generator's view of the position for `side` on a board of at most
    /// 64 points: every set is one word.
    #[inline(always)]
    fn small_context(&self, small: &SmallTables, side: Side) -> SmallContext {
        // Boards this small have two sides only (see `SmallTables`).
        let own = self.by_side[side.index()].low_word();
        let other = self.by_side[side.opponent().index()].low_word();
        let down = self.face_down.low_word();
        let occupied = own | other;
        let mut blocked = (own & !down) | (occupied & small.camps);
        if self.rules.facedown_immune {
            blocked |= down;
        }
        SmallContext {
            occupied,
            flooders: self.runners.low_word() & small.rail_points,
            blocked,
            enemy_up: other & !down,
        }
    }

    /// The points the piece on `from` may move to (one-word board; the piece
    /// is known to be free to move).
    #[inline(always)]
    fn small_targets(&self, small: &SmallTables, cx: &SmallContext, from: usize) -> u64 {
        let mut targets = small.step_targets(from, cx.occupied);
        if cx.flooders >> from & 1 != 0 {
            // Flood over the railway: empty points pass the path on,
            // occupied points end it.
            let mut reach = 1u64 << from;
            let mut frontier = reach;
            while frontier != 0 {
                let mut next = 0;
                let mut bits = frontier;
                while bits != 0 {
                    next |= small.rail(bits.trailing_zeros() as usize);
                    bits &= bits - 1;
                }
                let new = next & !reach;
                reach |= new;
                frontier = new & !cx.occupied;
            }
            targets |= reach;
        }
        targets & !cx.blocked & !(1u64 << from)
    }

    /// Flip games: drops from `targets` the face-up enemies the piece on
    /// `from` may not attack.
    fn small_flip_filter(&self, cx: &SmallContext, from: usize, mut targets: u64) -> u64 {
        let Some(piece) = self.squares[from].piece() else {
            return targets;
        };
        let mut enemies = targets & cx.enemy_up;
        while enemies != 0 {
            let q = enemies.trailing_zeros() as usize;
            enemies &= enemies - 1;
            if let Some(target) = self.squares[q].piece()
                && !self.may_attack_face_up(piece, target)
            {
                targets &= !(1u64 << q);
            }
        }
        targets
    }

    /// The points the piece on `from` may move to (any board; the piece is
    /// known to be free to move).
    #[inline(always)]
    fn generic_targets(&self, from: Point, occupied: &PointSet, blocked: &PointSet) -> PointSet {
        let board = self.board;
        let mut targets = board.road_mask(from).difference(blocked);
        if board.info(from).rail {
            if self.runners.contains(from) {
                // Flood over the railway: empty points pass the path on,
                // occupied points end it.
                let mut reach = PointSet::EMPTY;
                reach.insert(from);
                let mut frontier = reach;
                while !frontier.is_empty() {
                    let mut next = PointSet::EMPTY;
                    frontier.for_each(|q| next = next.union(board.rail_mask(q)));
                    let new = next.difference(&reach);
                    reach = reach.union(&new);
                    frontier = new.difference(occupied);
                }
                reach.remove(from);
                targets = targets.union(&reach.difference(blocked));
            } else if board.small().is_some() {
                // The classic board keeps no line words (its own generator
                // uses tables); this path is its test reference.
                for ray in board.rail_rays(from) {
                    for &q in ray {
                        targets.insert(q);
                        if occupied.contains(q) {
                            break;
                        }
                    }
                }
                targets = targets.difference(blocked);
            } else {
                // Along each line: up to the nearest occupied point each way
                // (included; blocked points are all occupied, so removing
                // them keeps the empty points and the attacks).
                let mut runs = PointSet::EMPTY;
                for &(l, i) in board.lines_through(from) {
                    let occ = self.lines[l as usize];
                    let above = occ >> (i + 1);
                    let len = board.rail_lines()[l as usize].len() as u8;
                    let hi = if above == 0 {
                        len - 1
                    } else {
                        i + 1 + above.trailing_zeros() as u8
                    };
                    let below = occ & ((1u16 << i) - 1);
                    let lo = if below == 0 {
                        0
                    } else {
                        15 - below.leading_zeros() as u8
                    };
                    runs = runs.union(&board.line_segment(l, lo, hi));
                }
                targets = targets.union(&runs.difference(blocked));
            }
        }
        if self.rules.mode == Mode::Flip
            && let Some(piece) = self.squares[from.index()].piece()
        {
            // Flip games restrict attacks on some face-up enemies.
            let candidates = targets.intersection(occupied);
            candidates.for_each(|to| {
                if let Some(target) = self.squares[to.index()].piece()
                    && target.face_up
                    && !self.may_attack_face_up(piece, target)
                {
                    targets.remove(to);
                }
            });
        }
        targets
    }

    /// Hands each movable piece of `side` with its targets to `sink`, in
    /// point order, until the sink asks to stop. Flips are not included.
    #[inline(always)]
    fn piece_targets<S: TargetSink>(&self, side: Side, sink: &mut S) {
        match self.board.small() {
            Some(small) => self.small_piece_targets(small, side, sink),
            None => self.generic_piece_targets(side, sink),
        }
    }

    /// [`Position::piece_targets`] on a board of at most 64 points.
    #[inline(always)]
    fn small_piece_targets<S: TargetSink>(&self, small: &SmallTables, side: Side, sink: &mut S) {
        let cx = self.small_context(small, side);
        let mut movers = self.by_side[side.index()].low_word()
            & !self.face_down.low_word()
            & !self.immobile.low_word();
        if !self.rules.may_leave_headquarters() {
            movers &= !small.headquarters;
        }
        let flip = self.rules.mode == Mode::Flip;
        while movers != 0 {
            let from = movers.trailing_zeros() as usize;
            movers &= movers - 1;
            let mut targets = self.small_targets(small, &cx, from);
            if flip {
                targets = self.small_flip_filter(&cx, from, targets);
            }
            if !sink.piece(Point(from as u8), targets) {
                return;
            }
        }
    }

    /// [`Position::piece_targets`] on any board (with [`PointSet`]s).
    fn generic_piece_targets<S: TargetSink>(&self, side: Side, sink: &mut S) {
        let blocked = self.blocked_for(side);
        let occupied = self.occupied();
        let mut movers = self.by_side[side.index()]
            .difference(&self.face_down)
            .difference(&self.immobile);
        if !self.rules.may_leave_headquarters() {
            movers = movers.difference(&self.board.headquarters_set());
        }
        // Word by word (faster than `PointSet::iter`), stopping when the sink asks.
        for (w, &word) in movers.words().iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let from = Point((w as u32 * 64 + bits.trailing_zeros()) as u8);
                bits &= bits - 1;
                let targets = self.generic_targets(from, &occupied, &blocked);
                if !sink.piece(from, targets) {
                    return;
                }
            }
        }
    }

    /// The legal moves by the [`PointSet`] generator that larger boards use,
    /// whatever the board (to test the one-word generator against it).
    #[cfg(test)]
    fn legal_moves_generic(&self) -> MoveList {
        let mut out = MoveList::new();
        if !self.over() {
            self.generic_piece_targets(self.turn, &mut out);
            if self.rules.mode == Mode::Flip {
                self.face_down.for_each(|at| out.push(Move::Flip { at }));
            }
        }
        out
    }

    /// The legal moves of the side to move (empty once the game is over).
    pub fn legal_moves(&self) -> MoveList {
        let mut out = MoveList::new();
        self.legal_moves_into(&mut out);
        out
    }

    /// Replaces the contents of `out` with the legal moves of the side to move
    /// (the fast path for loops that reuse one list). The order: steps by
    /// starting point, then by target point (both in index order), then flips
    /// by point.
    pub fn legal_moves_into(&self, out: &mut MoveList) {
        out.clear();
        if !self.over() {
            self.moves_of(self.turn, out);
        }
    }

    /// The legal moves of the side to move grouped by piece, without listing
    /// them one by one: each movable piece with the set of points it may go
    /// to, and the face-down pieces it may flip (empty once the game is over).
    /// [`MoveSets::len`] counts the moves and [`MoveSets::get`] picks one by
    /// its index in [`Position::legal_moves`] order, which is what a random
    /// playout needs.
    pub fn legal_move_sets(&self) -> MoveSets {
        let mut out = MoveSets::new();
        self.legal_move_sets_into(&mut out);
        out
    }

    /// [`Position::legal_move_sets`] into a reused value (the fastest way to
    /// count the legal moves or to pick one uniformly at random).
    pub fn legal_move_sets_into(&self, out: &mut MoveSets) {
        out.clear();
        out.small = self.board.small().is_some();
        if self.over() {
            return;
        }
        let mut writer = SetsWriter {
            out,
            pieces: 0,
            len: 0,
        };
        self.piece_targets(self.turn, &mut writer);
        let (pieces, len) = (writer.pieces, writer.len);
        out.pieces = pieces;
        out.len = len;
        if self.rules.mode == Mode::Flip {
            out.flips = self.face_down;
            out.len += self.face_down.len();
        }
    }

    /// The number of legal moves of the side to move (`legal_moves().len()`
    /// without listing them; perft's bulk count).
    pub fn legal_move_count(&self) -> usize {
        if self.over() {
            return 0;
        }
        let mut count = CountTargets(0);
        self.piece_targets(self.turn, &mut count);
        if self.rules.mode == Mode::Flip {
            count.0 += self.face_down.len();
        }
        count.0
    }

    /// Appends every move `side` could make if it were its turn.
    fn moves_of(&self, side: Side, out: &mut MoveList) {
        self.piece_targets(side, out);
        if self.rules.mode == Mode::Flip {
            self.face_down.for_each(|at| out.push(Move::Flip { at }));
        }
    }

    /// Whether `side` would have any legal move if it were its turn.
    pub fn has_legal_move(&self, side: Side) -> bool {
        if self.rules.mode == Mode::Flip && !self.face_down.is_empty() {
            return true;
        }
        if self.rules.mode != Mode::Flip && self.board.small().is_none() {
            return self.has_free_neighbour(side);
        }
        let mut found = AnyTarget(false);
        self.piece_targets(side, &mut found);
        found.0
    }

    /// Outside flip games a piece free to move has a legal move exactly when
    /// one of its neighbours (road or railway) is a point it may end on: a
    /// railway run or an engineer's path starts with a one-segment step
    /// that is legal on its own (every railway edge lies on a line), so no
    /// run or flood is needed to tell (the four-player board asks this
    /// every ply).
    fn has_free_neighbour(&self, side: Side) -> bool {
        let blocked = self.blocked_for(side);
        let mut movers = self.by_side[side.index()]
            .difference(&self.face_down)
            .difference(&self.immobile);
        if !self.rules.may_leave_headquarters() {
            movers = movers.difference(&self.board.headquarters_set());
        }
        for (w, &word) in movers.words().iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let p = Point((w as u32 * 64 + bits.trailing_zeros()) as u8);
                bits &= bits - 1;
                let reach = self.board.road_mask(p).union(self.board.rail_mask(p));
                if !reach.difference(&blocked).is_empty() {
                    return true;
                }
            }
        }
        false
    }

    /// The legal moves of the piece on `from` (for the app: where it may go).
    pub fn moves_from(&self, from: Point) -> MoveList {
        let mut out = MoveList::new();
        if let Some(pc) = self.squares[from.index()].piece()
            && pc.side == self.turn
            && !self.over()
            && self.can_move_from(from, pc)
        {
            if let Some(small) = self.board.small() {
                let cx = self.small_context(small, pc.side);
                let mut targets = self.small_targets(small, &cx, from.index());
                if self.rules.mode == Mode::Flip {
                    targets = self.small_flip_filter(&cx, from.index(), targets);
                }
                out.piece(from, targets);
            } else {
                let occupied = self.occupied();
                let blocked = self.blocked_for(pc.side);
                let targets = self.generic_targets(from, &occupied, &blocked);
                out.piece(from, targets);
            }
        }
        out
    }

    /// Checks a move against the rules directly (path by path, independently
    /// of the generator); `Ok` exactly when [`Position::legal_moves`] has it.
    pub fn check(&self, m: Move) -> Result<(), IllegalMove> {
        if self.over() {
            return Err(IllegalMove::GameOver);
        }
        match m {
            Move::Flip { at } => match self.squares.get(at.index()).and_then(|sq| sq.piece()) {
                Some(pc)
                    if !pc.face_up
                        && self.rules.mode == Mode::Flip
                        && at.index() < self.board.len() =>
                {
                    Ok(())
                }
                _ => Err(IllegalMove::NotFlippable),
            },
            Move::Step { from, to } => {
                if from.index() >= self.board.len() || to.index() >= self.board.len() {
                    return Err(IllegalMove::Unreachable);
                }
                let piece = match self.squares[from.index()].piece() {
                    Some(pc) if pc.side == self.turn && pc.face_up => pc,
                    _ => return Err(IllegalMove::NotYourPiece),
                };
                if !self.can_move_from(from, piece) {
                    return Err(IllegalMove::Immovable);
                }
                if from == to || !self.may_end_on(piece, to) {
                    return Err(IllegalMove::Unreachable);
                }
                let board = self.board;
                let empty = |q: Point| self.squares[q.index()].is_empty();
                let by_road = board.is_road_edge(from, to);
                let by_rail = board.info(from).rail
                    && board.info(to).rail
                    && (board.straight_rail_path(from, to, empty)
                        || (self.rules.rail_runner(piece.rank) && self.rail_connected(from, to)));
                if by_road || by_rail {
                    Ok(())
                } else {
                    Err(IllegalMove::Unreachable)
                }
            }
        }
    }

    /// Whether `to` is reachable from `from` along railway through empty points only.
    fn rail_connected(&self, from: Point, to: Point) -> bool {
        let mut visited = PointSet::EMPTY;
        let mut stack: Vec<Point> = vec![from];
        visited.insert(from);
        while let Some(q) = stack.pop() {
            for &n in self.board.rail_neighbours(q) {
                if n == to {
                    return true;
                }
                if self.squares[n.index()].is_empty() && visited.insert(n) {
                    stack.push(n);
                }
            }
        }
        false
    }

    /// Whether the move is legal.
    pub fn is_legal(&self, m: Move) -> bool {
        self.check(m).is_ok()
    }

    /// Plays a legal move; an illegal one is refused and the position is untouched.
    pub fn play(&mut self, m: Move) -> Result<Effect, IllegalMove> {
        self.check(m)?;
        Ok(self.play_unchecked(m))
    }

    /// Plays a move known to be legal (e.g. from [`Position::legal_moves`]).
    pub fn play_unchecked(&mut self, m: Move) -> Effect {
        let effect = match m {
            Move::Flip { at } => {
                let mut pc = self.squares[at.index()]
                    .piece()
                    .expect("flip needs a piece");
                pc.face_up = true;
                if !self.colours_fixed {
                    self.fix_colours(pc.side);
                    pc.side = self.turn;
                }
                self.squares[at.index()] = Square::of(Some(pc));
                self.face_down.remove(at);
                self.quiet += 1;
                Effect::Flipped { at, piece: pc }
            }
            Move::Step { from, to } => {
                let attacker = self.squares[from.index()]
                    .piece()
                    .expect("move needs a piece");
                match self.squares[to.index()].piece() {
                    None => {
                        self.squares[to.index()] = self.squares[from.index()];
                        self.squares[from.index()] = Square::EMPTY;
                        let own = &mut self.by_side[attacker.side.index()];
                        own.remove(from);
                        own.insert(to);
                        if self.runners.contains(from) {
                            self.runners.remove(from);
                            self.runners.insert(to);
                        }
                        self.mark_line_occupancy(from, false);
                        self.mark_line_occupancy(to, true);
                        self.quiet += 1;
                        Effect::Moved { from, to }
                    }
                    Some(mut defender) => {
                        let was_face_down = !defender.face_up;
                        defender.face_up = true;
                        let guarded_flag = self.rules.mode == Mode::Flip
                            && defender.rank == Rank::Flag
                            && self.mines_left(defender.side) > 0;
                        if was_face_down && (defender.side == attacker.side || guarded_flag) {
                            self.squares[to.index()] = Square::of(Some(defender));
                            self.face_down.remove(to);
                            self.quiet += 1;
                            Effect::VoidAttack {
                                from,
                                to,
                                revealed: defender,
                            }
                        } else {
                            let clash = self.rules.clash(attacker.rank, defender.rank);
                            let last_trade = self.is_last_trade(attacker, defender, clash);
                            self.squares[from.index()] = Square::EMPTY;
                            self.squares[to.index()] = Square::of(match clash.outcome {
                                Outcome::AttackerWins => Some(attacker),
                                Outcome::DefenderWins => Some(defender),
                                Outcome::BothRemoved => None,
                            });
                            if defender.rank == Rank::Landmine && clash.defender_removed() {
                                self.mines[defender.side.index()] -= 1;
                            }
                            self.face_down.remove(to);
                            self.by_side[attacker.side.index()].remove(from);
                            self.by_side[defender.side.index()].remove(to);
                            self.runners.remove(from);
                            self.runners.remove(to);
                            self.immobile.remove(to);
                            self.mark_line_occupancy(from, false);
                            if clash.outcome == Outcome::BothRemoved {
                                self.mark_line_occupancy(to, false);
                            }
                            if let Some(winner) = self.squares[to.index()].piece() {
                                self.by_side[winner.side.index()].insert(to);
                                self.mark_rank(to, winner.rank);
                            }
                            if clash.flag_captured {
                                if self.teams {
                                    self.remove_seat(defender.side, WinReason::FlagCaptured);
                                } else {
                                    self.flag_captured = Some(defender.side);
                                }
                            }
                            if last_trade {
                                self.decide_last_trade(attacker.side, defender.side);
                            }
                            self.quiet = 0;
                            Effect::Battle {
                                from,
                                to,
                                attacker,
                                defender,
                                clash,
                                defender_was_face_down: was_face_down,
                            }
                        }
                    }
                }
            }
        };
        self.ply += 1;
        self.end_turn();
        effect
    }

    /// Flip games: the first flip shows `colour`; the side to move takes it.
    fn fix_colours(&mut self, colour: Side) {
        self.colours_fixed = true;
        if colour != self.turn {
            self.colours_swapped = true;
            for sq in self.squares.iter_mut() {
                if let Some(mut pc) = sq.piece() {
                    pc.side = pc.side.opponent();
                    *sq = Square::of(Some(pc));
                }
            }
            self.mines.swap(0, 1);
            self.by_side.swap(0, 1);
        }
    }

    /// Whether `side` still has a movable piece (face up or down) on the board.
    pub fn has_movable_piece(&self, side: Side) -> bool {
        !self.by_side[side.index()]
            .difference(&self.immobile)
            .is_empty()
    }

    /// The result if the game is over by the board alone (flag, no moves,
    /// quiet-move draw); `None` while it goes on.
    pub fn result(&self) -> Option<GameResult> {
        if let Some(result) = self.decided {
            return Some(result);
        }
        if self.teams {
            // The seat to move always has a legal move here (see `settle`).
            return (self.rules.is_quiet_draw(self.quiet)).then_some(GameResult::Draw {
                reason: DrawReason::QuietMoves,
            });
        }
        if let Some(loser) = self.flag_captured {
            return Some(GameResult::Win {
                winner: loser.opponent(),
                reason: WinReason::FlagCaptured,
            });
        }
        if self.rules.mode == Mode::Flip && self.colours_fixed {
            let south = self.has_movable_piece(Side::South);
            let north = self.has_movable_piece(Side::North);
            match (south, north) {
                (false, false) => {
                    return Some(GameResult::Draw {
                        reason: DrawReason::NoMovesEither,
                    });
                }
                (true, false) | (false, true) => {
                    return Some(GameResult::Win {
                        winner: if south { Side::South } else { Side::North },
                        reason: WinReason::NoMovablePieces,
                    });
                }
                _ => {}
            }
        }
        if !self.has_legal_move(self.turn) {
            return Some(if self.has_legal_move(self.turn.opponent()) {
                GameResult::Win {
                    winner: self.turn.opponent(),
                    reason: WinReason::NoLegalMove,
                }
            } else {
                GameResult::Draw {
                    reason: DrawReason::NoMovesEither,
                }
            });
        }
        if self.rules.is_quiet_draw(self.quiet) {
            return Some(GameResult::Draw {
                reason: DrawReason::QuietMoves,
            });
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{FlagCapture, MineRule};
    use Rank::*;
    use Side::{North as N, South as S};

    fn pt(name: &str) -> Point {
        Board::classic().parse_point(name).unwrap()
    }

    /// A position from (point, side, rank) triples; South to move.
    fn position(rules: Rules, pieces: &[(&str, Side, Rank)]) -> Position {
        let mut pos = Position::empty(Board::classic(), rules, S);
        for (i, &(p, side, rank)) in pieces.iter().enumerate() {
            pos.set(
                pt(p),
                Some(Piece {
                    side,
                    rank,
                    face_up: true,
                    id: PieceId(i as u8),
                }),
            );
        }
        pos
    }

    /// The sorted destination names of the piece on `from`.
    fn targets(pos: &Position, from: &str) -> Vec<String> {
        let mut v: Vec<String> = pos
            .moves_from(pt(from))
            .iter()
            .map(|m| match *m {
                Move::Step { to, .. } => Board::classic().name_of(to).to_string(),
                Move::Flip { at } => format!("flip {}", Board::classic().name_of(at)),
            })
            .collect();
        v.sort();
        v
    }

    fn step(from: &str, to: &str) -> Move {
        Move::Step {
            from: pt(from),
            to: pt(to),
        }
    }

    #[test]
    fn road_step_from_a_station() {
        let pos = position(Rules::default(), &[("S43", S, Platoon)]);
        // 43 touches camps 42, 44, 33 by road (no diagonals from a station) and 53 on row 5.
        assert_eq!(targets(&pos, "S43"), ["S33", "S42", "S44", "S53"]);
    }

    #[test]
    fn railway_runs_straight_and_stops_at_the_first_piece() {
        let pos = position(
            Rules::default(),
            &[("S51", S, Corps), ("S21", S, Platoon), ("S54", N, Engineer)],
        );
        // Column 1 up to 31 (21 is own), row 5 to 52, 53 and the attack on 54; road 42 (camp) and 61.
        assert_eq!(
            targets(&pos, "S51"),
            ["S31", "S41", "S42", "S52", "S53", "S54", "S61"]
        );
    }

    #[test]
    fn long_railway_crosses_the_mountain_straight() {
        let pos = position(Rules::default(), &[("S51", S, Corps)]);
        let t = targets(&pos, "S51");
        assert!(t.contains(&"N55".to_string()));
        assert!(t.contains(&"S55".to_string()));
        // Turning the corner at 11 into row 1 is not straight.
        assert!(!t.contains(&"S12".to_string()));
        assert!(!t.contains(&"N14".to_string()));
    }

    #[test]
    fn engineers_turn_corners_through_empty_rail_points() {
        let pos = position(
            Rules::default(),
            &[("S51", S, Engineer), ("S13", N, Bomb), ("S11", S, Platoon)],
        );
        let t = targets(&pos, "S51");
        // Row 5, up column 5, across into North's half, along North's row 1.
        for p in [
            "S55", "S15", "S14", "S13", "N11", "N13", "N15", "N55", "N51", "S21",
        ] {
            assert!(t.contains(&p.to_string()), "{p} missing from {t:?}");
        }
        // 12 lies behind the enemy on 13 and the own piece on 11.
        assert!(!t.contains(&"S12".to_string()));
        assert!(pos.is_legal(step("S51", "S13")));
        assert!(!pos.is_legal(step("S51", "S12")));
        // The same paths are not open to other pieces.
        let pos2 = position(Rules::default(), &[("S51", S, Corps)]);
        assert!(!pos2.is_legal(step("S51", "S12")));
        assert!(!pos2.is_legal(step("S51", "N11")));
    }

    #[test]
    fn the_generator_runs_unchanged_on_the_four_player_board() {
        let b = Board::four_player();
        let q = |n: &str| b.parse_point(n).unwrap();
        let mut pos = Position::empty(b, Rules::default(), S);
        let piece = |rank| {
            Some(Piece {
                side: S,
                rank,
                face_up: true,
                id: PieceId(0),
            })
        };
        pos.set(q("S:51"), piece(Engineer));
        // An engineer on an empty board reaches every other railway point, plus its road step.
        let rail_points = b.points().filter(|&p| b.info(p).rail).count();
        assert_eq!(pos.moves_from(q("S:51")).len(), rail_points - 1 + 2);
        // A straight mover follows the curve line from S:35 to E:31 (BOARD4.md §3).
        pos.set(q("S:51"), None);
        pos.set(q("S:35"), piece(Corps));
        let moves = pos.moves_from(q("S:35"));
        assert!(moves.contains(&Move::Step {
            from: q("S:35"),
            to: q("E:31")
        }));
        assert!(moves.contains(&Move::Step {
            from: q("S:35"),
            to: q("N:51")
        }));
        assert!(!moves.contains(&Move::Step {
            from: q("S:35"),
            to: q("C:8")
        }));
    }

    #[test]
    fn camps_are_entered_only_when_empty_and_never_attacked() {
        let pos = position(
            Rules::default(),
            &[
                ("S43", S, Commander),
                ("S42", N, Platoon),
                ("S33", N, Engineer),
            ],
        );
        let t = targets(&pos, "S43");
        assert!(!t.contains(&"S42".to_string()));
        assert!(!t.contains(&"S33".to_string()));
        assert!(t.contains(&"S44".to_string()));
        assert_eq!(pos.check(step("S43", "S42")), Err(IllegalMove::Unreachable));
    }

    #[test]
    fn camp_diagonals_work_both_ways() {
        let pos = position(
            Rules::default(),
            &[("S33", S, Platoon), ("S11", S, Company)],
        );
        assert_eq!(
            targets(&pos, "S33"),
            ["S22", "S23", "S24", "S32", "S34", "S42", "S43", "S44"]
        );
        assert!(targets(&pos, "S11").contains(&"S22".to_string()));
    }

    #[test]
    fn mines_flags_and_headquarters_pieces_never_move() {
        let pos = position(
            Rules::default(),
            &[("S51", S, Landmine), ("S62", S, Flag), ("S64", S, Corps)],
        );
        assert!(pos.legal_moves().is_empty());
        assert_eq!(pos.check(step("S51", "S41")), Err(IllegalMove::Immovable));
        assert_eq!(pos.check(step("S64", "S54")), Err(IllegalMove::Immovable));
        let exit = Rules {
            hq_exit: true,
            ..Rules::default()
        };
        let pos = position(
            exit,
            &[("S51", S, Landmine), ("S62", S, Flag), ("S64", S, Corps)],
        );
        assert_eq!(targets(&pos, "S64"), ["S54", "S63", "S65"]);
        assert!(targets(&pos, "S62").is_empty());
    }

    #[test]
    fn a_piece_that_enters_a_headquarters_is_locked() {
        let mut pos = position(
            Rules::default(),
            &[("N52", S, Division), ("S11", N, Platoon)],
        );
        pos.play(step("N52", "N62")).unwrap();
        pos.play(step("S11", "S21")).unwrap();
        assert!(targets(&pos, "N62").is_empty());
    }

    #[test]
    fn flying_bombs_run_like_engineers() {
        let rules = Rules {
            flying_bombs: true,
            ..Rules::default()
        };
        let pos = position(rules, &[("S51", S, Bomb)]);
        assert!(targets(&pos, "S51").contains(&"S12".to_string()));
        let plain = position(Rules::default(), &[("S51", S, Bomb)]);
        assert!(!targets(&plain, "S51").contains(&"S12".to_string()));
    }

    #[test]
    fn no_own_targets() {
        let pos = position(Rules::default(), &[("S53", S, Corps), ("S43", S, Platoon)]);
        assert!(!targets(&pos, "S53").contains(&"S43".to_string()));
        assert_eq!(pos.check(step("S53", "S43")), Err(IllegalMove::Unreachable));
    }

    #[test]
    fn battles_apply_the_table() {
        let mut pos = position(
            Rules::default(),
            &[("S13", S, Division), ("N13", N, Brigade)],
        );
        let e = pos.play(step("S13", "N13")).unwrap();
        assert!(
            matches!(e, Effect::Battle { clash, .. } if clash.outcome == Outcome::AttackerWins)
        );
        assert_eq!(pos.at(pt("N13")).unwrap().rank, Division);
        assert_eq!(pos.at(pt("S13")), None);
        assert_eq!(pos.quiet_plies(), 0);

        let mut pos = position(
            Rules::default(),
            &[("S13", S, Engineer), ("N13", N, Landmine)],
        );
        pos.play(step("S13", "N13")).unwrap();
        assert_eq!(pos.at(pt("N13")).unwrap().rank, Engineer);

        let mut pos = position(Rules::default(), &[("S13", S, Corps), ("N13", N, Landmine)]);
        pos.play(step("S13", "N13")).unwrap();
        assert_eq!(pos.at(pt("N13")).unwrap().rank, Landmine);
        assert_eq!(pos.at(pt("S13")), None);

        let trades = Rules {
            mines: MineRule::Trades,
            ..Rules::default()
        };
        let mut pos = position(trades, &[("S13", S, Corps), ("N13", N, Landmine)]);
        pos.play(step("S13", "N13")).unwrap();
        assert_eq!(pos.at(pt("N13")), None);
    }

    #[test]
    fn capturing_the_flag_ends_the_game() {
        let mut pos = position(
            Rules::default(),
            &[("N52", S, Platoon), ("N62", N, Flag), ("N11", N, Corps)],
        );
        pos.play(step("N52", "N62")).unwrap();
        assert_eq!(pos.flag_captured(), Some(N));
        assert_eq!(
            pos.result(),
            Some(GameResult::Win {
                winner: S,
                reason: WinReason::FlagCaptured
            })
        );
        assert!(pos.legal_moves().is_empty());
    }

    #[test]
    fn refused_flag_attack_kills_the_attacker() {
        let rules = Rules {
            flag_capture: FlagCapture::NotCommander,
            ..Rules::default()
        };
        let mut pos = position(
            rules,
            &[("N52", S, Commander), ("N62", N, Flag), ("N11", N, Corps)],
        );
        pos.play(step("N52", "N62")).unwrap();
        assert_eq!(pos.flag_captured(), None);
        assert_eq!(pos.at(pt("N62")).unwrap().rank, Flag);
        assert_eq!(pos.at(pt("N52")), None);
    }

    #[test]
    fn no_legal_move_loses_and_nobody_moving_draws() {
        let pos = position(Rules::default(), &[("S51", S, Landmine), ("N11", N, Corps)]);
        assert_eq!(
            pos.result(),
            Some(GameResult::Win {
                winner: N,
                reason: WinReason::NoLegalMove
            })
        );
        let pos = position(
            Rules::default(),
            &[("S51", S, Landmine), ("N51", N, Landmine)],
        );
        assert_eq!(
            pos.result(),
            Some(GameResult::Draw {
                reason: DrawReason::NoMovesEither
            })
        );
    }

    #[test]
    fn quiet_moves_draw() {
        let mut pos = position(Rules::default(), &[("S53", S, Corps), ("N53", N, Corps)]);
        pos.set_counters(59, 59);
        assert_eq!(pos.result(), None);
        pos.play(step("S53", "S43")).unwrap();
        assert_eq!(
            pos.result(),
            Some(GameResult::Draw {
                reason: DrawReason::QuietMoves
            })
        );
    }

    #[test]
    fn illegal_play_leaves_the_position_untouched() {
        let mut pos = position(Rules::default(), &[("S53", S, Corps), ("N53", N, Corps)]);
        let before = pos.clone();
        assert_eq!(pos.play(step("N53", "N43")), Err(IllegalMove::NotYourPiece));
        assert_eq!(pos.play(step("S53", "S31")), Err(IllegalMove::Unreachable));
        assert_eq!(
            pos.play(Move::Flip { at: pt("S53") }),
            Err(IllegalMove::NotFlippable)
        );
        assert_eq!(pos, before);
    }

    fn face_down(pos: &mut Position, p: &str, side: Side, rank: Rank, id: u8) {
        pos.set(
            pt(p),
            Some(Piece {
                side,
                rank,
                face_up: false,
                id: PieceId(id),
            }),
        );
    }

    #[test]
    fn flip_attacks_on_face_down_pieces() {
        let rules = Rules::for_mode(Mode::Flip);
        let mut pos = position(rules, &[("S53", S, Corps)]);
        pos.set_colours_fixed(true);
        face_down(&mut pos, "S43", S, Platoon, 40);
        face_down(&mut pos, "S52", N, Platoon, 41);
        face_down(&mut pos, "N11", N, Engineer, 42);
        // Own colour under the tile: void, the piece is turned over, the turn ends.
        let e = pos.play(step("S53", "S43")).unwrap();
        assert!(matches!(e, Effect::VoidAttack { .. }));
        assert!(pos.at(pt("S43")).unwrap().face_up);
        assert_eq!(pos.at(pt("S53")).unwrap().rank, Corps);
        assert_eq!(pos.turn(), N);
        pos.play(Move::Flip { at: pt("N11") }).unwrap();
        // Enemy under the tile: a real battle.
        let e = pos.play(step("S53", "S52")).unwrap();
        assert!(matches!(
            e,
            Effect::Battle {
                defender_was_face_down: true,
                ..
            }
        ));
        assert_eq!(pos.at(pt("S52")).unwrap().rank, Corps);

        let immune = Rules {
            facedown_immune: true,
            ..rules
        };
        let mut pos = position(immune, &[("S53", S, Corps)]);
        pos.set_colours_fixed(true);
        face_down(&mut pos, "S43", N, Platoon, 40);
        assert!(!targets(&pos, "S53").contains(&"S43".to_string()));
    }

    #[test]
    fn flip_flag_is_guarded_while_its_mines_live() {
        let rules = Rules::for_mode(Mode::Flip);
        let mut pos = position(
            rules,
            &[("N52", S, Corps), ("N62", N, Flag), ("N11", N, Landmine)],
        );
        pos.set_colours_fixed(true);
        assert!(!targets(&pos, "N52").contains(&"N62".to_string()));
        let mut pos = position(
            rules,
            &[("N52", S, Corps), ("N62", N, Flag), ("N11", N, Platoon)],
        );
        pos.set_colours_fixed(true);
        assert!(targets(&pos, "N52").contains(&"N62".to_string()));
        pos.play(step("N52", "N62")).unwrap();
        assert_eq!(pos.flag_captured(), Some(N));
    }

    #[test]
    fn flip_pieces_leave_headquarters_and_flip_no_suicide() {
        let rules = Rules {
            no_suicide: true,
            ..Rules::for_mode(Mode::Flip)
        };
        let mut pos = position(
            rules,
            &[
                ("S62", S, Platoon),
                ("S61", N, Corps),
                ("S63", N, Landmine),
                ("S52", N, Engineer),
            ],
        );
        pos.set_colours_fixed(true);
        let t = targets(&pos, "S62");
        assert!(!t.contains(&"S61".to_string()), "suicide attack allowed");
        assert!(
            !t.contains(&"S63".to_string()),
            "a platoon may not attack a face-up mine"
        );
        assert!(t.contains(&"S52".to_string()));
    }

    #[test]
    fn flip_no_suicide_allows_trades_such_as_a_bomb_on_a_mine() {
        let rules = Rules {
            no_suicide: true,
            ..Rules::for_mode(Mode::Flip)
        };
        let mut pos = position(
            rules,
            &[
                ("S62", S, Bomb),
                ("S63", N, Landmine),
                ("S53", S, Engineer),
                ("S52", N, Landmine),
                ("S55", S, Regiment),
                ("S65", N, Landmine),
                ("S54", N, Regiment),
                ("S45", N, Division),
            ],
        );
        pos.set_colours_fixed(true);
        let bomb = targets(&pos, "S62");
        assert!(bomb.contains(&"S63".to_string()), "bomb on a face-up mine");
        let engineer = targets(&pos, "S53");
        assert!(engineer.contains(&"S63".to_string()), "engineer on a mine");
        let regiment = targets(&pos, "S55");
        assert!(!regiment.contains(&"S65".to_string()), "regiment on a mine");
        assert!(
            !regiment.contains(&"S45".to_string()),
            "regiment on a division"
        );
        assert!(
            regiment.contains(&"S54".to_string()),
            "regiment trades regiment"
        );
        let mut played = pos.clone();
        played.play(step("S62", "S63")).unwrap();
        assert!(played.at(pt("S63")).is_none(), "bomb and mine both removed");
    }

    #[test]
    fn first_flip_decides_colours() {
        let rules = Rules::for_mode(Mode::Flip);
        let arrangement: [u8; 50] = std::array::from_fn(|i| (49 - i) as u8);
        let mut pos = Position::new_flip(rules, &arrangement, S).unwrap();
        assert!(!pos.colours_fixed());
        // The first non-camp point of South's half holds id 49: North's colour (the flag).
        let first = Board::classic().setup_points(S)[0];
        let e = pos.play(Move::Flip { at: first }).unwrap();
        assert!(matches!(e, Effect::Flipped { piece, .. } if piece.side == S));
        assert!(pos.colours_swapped());
        assert_eq!(pos.mines_left(S), 3);
        assert_eq!(pos.turn(), N);
        assert!(Position::new_flip(rules, &[0; 50], S).is_none());
    }

    #[test]
    fn flip_side_without_movable_pieces_loses() {
        let rules = Rules::for_mode(Mode::Flip);
        let mut pos = position(rules, &[("S53", S, Corps), ("N53", N, Landmine)]);
        pos.set_colours_fixed(true);
        assert_eq!(
            pos.result(),
            Some(GameResult::Win {
                winner: S,
                reason: WinReason::NoMovablePieces
            })
        );
    }

    /// A random position: pieces of random sides and ranks scattered over
    /// `board` (face down at random in flip games) under random rule options.
    fn scattered(board: &'static Board, rng: &mut rand_pcg::Pcg64Mcg) -> Position {
        use rand::Rng;
        let four = board.sides().len() == 4;
        // Flip games are two-player only.
        let mode =
            [Mode::Dark, Mode::Open, Mode::Flip][rng.random_range(0..if four { 2 } else { 3 })];
        let rules = Rules {
            mode,
            flying_bombs: rng.random_bool(0.3),
            hq_exit: rng.random_bool(0.3),
            facedown_immune: rng.random_bool(0.3),
            no_suicide: rng.random_bool(0.3),
            clockwise: rng.random_bool(0.3),
            ..Rules::default()
        };
        let sides = board.sides();
        let turn = sides[rng.random_range(0..sides.len())];
        let mut pos = Position::empty(board, rules, turn);
        let density = rng.random_range(0.05..0.8);
        for (i, p) in board.points().enumerate() {
            if rng.random_bool(density) {
                let piece = Piece {
                    side: sides[rng.random_range(0..sides.len())],
                    rank: Rank::ALL[rng.random_range(0..12)],
                    face_up: mode != Mode::Flip || rng.random_bool(0.6),
                    id: PieceId(i as u8),
                };
                pos.set(p, Some(piece));
            }
        }
        pos.set_colours_fixed(true);
        if four && rng.random_bool(0.3) {
            pos.set_out(sides[rng.random_range(0..4)], WinReason::Resignation);
        }
        pos
    }

    /// The one-word generator, the [`PointSet`] generator, the move sets and
    /// the path-by-path [`Position::check`] all give the same moves in the
    /// same order (steps by starting point, then target, then flips).
    fn assert_generators_agree(pos: &Position) {
        let board = pos.board();
        let mut by_check = Vec::new();
        for from in board.points() {
            for to in board.points() {
                let m = Move::Step { from, to };
                if pos.check(m).is_ok() {
                    by_check.push(m);
                }
            }
        }
        for at in board.points() {
            if pos.check(Move::Flip { at }).is_ok() {
                by_check.push(Move::Flip { at });
            }
        }
        let fast = pos.legal_moves();
        assert_eq!(
            fast.as_slice(),
            by_check.as_slice(),
            "legal_moves of {pos:?}"
        );
        let generic = pos.legal_moves_generic();
        assert_eq!(
            generic.as_slice(),
            by_check.as_slice(),
            "generic of {pos:?}"
        );
        assert_eq!(pos.legal_move_count(), by_check.len());
        let sets = pos.legal_move_sets();
        assert_eq!(sets.len(), by_check.len(), "{pos:?}");
        assert_eq!(sets.is_empty(), by_check.is_empty());
        let picked: Vec<Move> = (0..sets.len()).filter_map(|k| sets.get(k)).collect();
        assert_eq!(picked, by_check, "MoveSets::get of {pos:?}");
        assert_eq!(sets.get(sets.len()), None);
        assert_eq!(sets.iter().collect::<Vec<_>>(), by_check);
        assert!(by_check.iter().all(|&m| sets.contains(m)));
        let steps: usize = sets.steps().map(|(_, t)| t.len()).sum();
        assert_eq!(steps + sets.flips().len(), sets.len());
        if !pos.over() {
            assert_eq!(pos.has_legal_move(pos.turn()), !by_check.is_empty());
        }
        for from in board.points() {
            let mine: Vec<Move> = by_check
                .iter()
                .copied()
                .filter(|m| matches!(m, Move::Step { from: f, .. } if *f == from))
                .collect();
            assert_eq!(pos.moves_from(from).as_slice(), mine.as_slice());
        }
    }

    #[test]
    fn fast_generator_matches_check_on_scattered_positions() {
        use rand::SeedableRng;
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(11);
        assert!(Board::classic().small().is_some());
        for _ in 0..600 {
            assert_generators_agree(&scattered(Board::classic(), &mut rng));
        }
    }

    #[test]
    fn generator_matches_check_on_the_four_player_board() {
        use rand::SeedableRng;
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(12);
        assert!(Board::four_player().small().is_none());
        for _ in 0..150 {
            let pos = scattered(Board::four_player(), &mut rng);
            assert_generators_agree(&pos);
            // Partners' pieces are never targets.
            for m in pos.legal_moves() {
                if let Move::Step { to, .. } = m
                    && let Some(target) = pos.at(to)
                {
                    assert_ne!(target.side.team(), pos.turn().team(), "{pos:?}");
                }
            }
        }
    }

    #[test]
    fn generator_matches_check_in_random_four_player_games() {
        use crate::layout::Layout;
        use rand::seq::IndexedRandom;
        use rand::{Rng, SeedableRng};
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(14);
        for game in 0..6 {
            let rules = Rules {
                flying_bombs: game % 2 == 1,
                hq_exit: game % 3 == 2,
                clockwise: game % 4 == 3,
                ..Rules::four_player([Mode::Dark, Mode::Open][game % 2])
            };
            let deps: Vec<_> = (0..4)
                .map(|_| Layout::random(&rules, &mut rng).validate(&rules).unwrap())
                .collect();
            let mut pos = Position::new_four(rules, [&deps[0], &deps[1], &deps[2], &deps[3]], S);
            for ply in 0.. {
                assert!(pos.is_consistent(), "game {game} ply {ply}");
                if ply % 7 == 0 || rng.random_bool(0.03) {
                    assert_generators_agree(&pos);
                }
                if pos.result().is_some() {
                    break;
                }
                let moves = pos.legal_moves();
                let &m = moves.choose(&mut rng).expect("the seat to move can move");
                pos.play_unchecked(m);
            }
        }
    }

    #[test]
    fn fast_generator_matches_check_in_random_games() {
        use crate::layout::Layout;
        use rand::seq::IndexedRandom;
        use rand::{Rng, SeedableRng};
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(13);
        for game in 0..12 {
            let mode = [Mode::Dark, Mode::Open, Mode::Flip][game % 3];
            let rules = Rules {
                flying_bombs: game % 4 == 1,
                hq_exit: game % 5 == 2,
                no_suicide: game % 6 == 5,
                ..Rules::for_mode(mode)
            };
            let mut pos = if mode == Mode::Flip {
                let mut arrangement: [u8; 50] = std::array::from_fn(|i| i as u8);
                rand::seq::SliceRandom::shuffle(&mut arrangement[..], &mut rng);
                Position::new_flip(rules, &arrangement, S).unwrap()
            } else {
                let a = Layout::random(&rules, &mut rng).validate(&rules).unwrap();
                let b = Layout::random(&rules, &mut rng).validate(&rules).unwrap();
                Position::new(rules, &a, &b, S)
            };
            for ply in 0.. {
                // The derived sets (sides, face-down, immobile, rail
                // runners) follow every move.
                assert!(pos.is_consistent(), "game {game} ply {ply}");
                if ply % 5 == 0 || rng.random_bool(0.05) {
                    assert_generators_agree(&pos);
                }
                let moves = pos.legal_moves();
                let Some(&m) = moves.choose(&mut rng) else {
                    break;
                };
                if rules.is_quiet_draw(pos.quiet_plies()) {
                    break;
                }
                pos.play_unchecked(m);
            }
        }
    }
}
