//! Checking and playing a move on a [`Position`]: the path-by-path check
//! (independent of the generator) and the referee's verdict on the board.

use super::Position;
use super::square::Square;
use crate::board::{Point, PointSet};
use crate::effect::Effect;
use crate::game_result::WinReason;
use crate::illegal_move::IllegalMove;
use crate::moves::Move;
use crate::piece::{Rank, Side};
use crate::rules::{Mode, Outcome};

impl Position {
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
}
