//! The whole truth of a game in progress: every piece, the side to move, the
//! counters, the result (RULES.md §4–§7). Move generation is in `movegen`,
//! checking and playing moves in `play`, seats and teams in `seats`.

use crate::board::{Board, MAX_LINES, MAX_POINTS, Point, PointSet};
use crate::layout::Deployment;
use crate::piece::{Piece, PieceId, Rank, Side};
use crate::rules::{Mode, Rules};
use square::Square;
use std::fmt;

mod movegen;
mod play;
mod seats;
mod square;

// The types this module held before they got files of their own.
pub use crate::effect::Effect;
pub use crate::game_result::{DrawReason, GameResult, WinReason};
pub use crate::illegal_move::IllegalMove;
pub use crate::move_list::{MAX_MOVES, MoveList};
pub use crate::move_sets::MoveSets;
pub use crate::moves::Move;

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

    /// Landmines of `side` still on the board (face up or down).
    #[inline]
    pub fn mines_left(&self, side: Side) -> u8 {
        self.mines[side.index()]
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
mod tests;
