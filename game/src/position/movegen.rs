//! Legal move generation for a [`Position`]: each movable piece's targets
//! by road and railway (one-word tables on the classic board, point sets on
//! larger boards), handed to a sink that lists, counts or groups them.

use super::Position;
use crate::board::{Point, PointSet, SmallTables};
use crate::move_list::MoveList;
use crate::move_sets::MoveSets;
use crate::moves::Move;
use crate::piece::{Piece, Rank, Side};
use crate::rules::{Mode, Outcome};
use crate::targets::{AnyTarget, CountTargets, TargetSink};

/// The sets the one-word generator works with, for the side to move.
struct SmallContext {
    occupied: u64,
    /// Railway points holding a piece that runs the railway like an engineer.
    flooders: u64,
    blocked: u64,
    enemy_up: u64,
}

impl Position {
    /// Whether a piece on `from` is allowed to move at all.
    #[inline]
    pub(super) fn can_move_from(&self, from: Point, piece: Piece) -> bool {
        piece.face_up
            && piece.rank.is_movable()
            && (!self.board.is_headquarters(from) || self.rules.may_leave_headquarters())
    }

    /// Whether `mover` may end its move on `to` (empty, or an attack it may make).
    #[inline(always)]
    pub(super) fn may_end_on(&self, mover: Piece, to: Point) -> bool {
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
    pub(super) fn legal_moves_generic(&self) -> MoveList {
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
        let mut writer = out.writer(self.board.small().is_some());
        if self.over() {
            return;
        }
        self.piece_targets(self.turn, &mut writer);
        writer.finish(if self.rules.mode == Mode::Flip {
            self.face_down
        } else {
            PointSet::EMPTY
        });
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
}
