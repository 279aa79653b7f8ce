//! Seats and teams (RULES.md §9): who is still in, whose turn comes next,
//! putting a player out with all their pieces, and how a team game (or the
//! last-pieces rule) ends. Two-player games use only the last-pieces part.

use super::Position;
use crate::board::PointSet;
use crate::game_result::{DrawReason, GameResult, WinReason};
use crate::piece::{Piece, Side};
use crate::rules::{Clash, Outcome};

impl Position {
    /// Whether the game is over for every move: play decided it (see
    /// [`Position::decided_by_play`]) or the quiet-move draw is reached.
    /// Move generation, [`Position::check`] and [`Position::play`] obey this,
    /// so [`Position::result`] is `Some` exactly when this holds or the side
    /// to move has no legal move (the flip games' rule on movable pieces
    /// aside).
    #[inline(always)]
    pub(super) fn over(&self) -> bool {
        self.decided_by_play() || self.rules.is_quiet_draw(self.quiet)
    }

    /// Whether play has decided the game: a two-player game's flag taken, a
    /// team out, the last-pieces rule. Putting seats out goes on until then
    /// (a timeout that reaches the quiet-move draw may still put its player
    /// out, as before).
    #[inline(always)]
    fn decided_by_play(&self) -> bool {
        self.flag_captured.is_some() || self.decided.is_some()
    }

    /// Whether pieces of `a` and `b` are on one side: the same player, or
    /// partners in a team game.
    #[inline(always)]
    pub(super) fn is_friend(&self, a: Side, b: Side) -> bool {
        a == b || (self.teams && a.partner() == b)
    }

    /// The points held by `side` and, in a team game, by its partner.
    #[inline(always)]
    pub(super) fn friends(&self, side: Side) -> PointSet {
        let own = self.by_side[side.index()];
        if self.teams {
            own.union(&self.by_side[side.partner().index()])
        } else {
            own
        }
    }

    /// Every occupied point.
    #[inline(always)]
    pub(super) fn occupied(&self) -> PointSet {
        let [a, b, c, d] = &self.by_side;
        a.union(b).union(&c.union(d))
    }

    /// Passes the turn on after a ply: to the opponent, or in a team game to
    /// the next seat still in that has a legal move.
    #[inline]
    pub(super) fn end_turn(&mut self) {
        if self.teams {
            self.turn = self.next_seat(self.turn);
            self.settle();
        } else {
            self.turn = self.turn.opponent();
        }
    }

    /// The seat after `from` in the turn order that is still in (`from`
    /// itself if no other is).
    fn next_seat(&self, from: Side) -> Side {
        let mut s = from;
        for _ in 0..4 {
            s = s.next(self.rules.clockwise);
            if self.in_play & s.bit() != 0 {
                return s;
            }
        }
        from
    }

    /// Team games: while the seat to move has no legal move it is out
    /// (无棋可走) and the turn passes on; when no seat still in can move at
    /// all the game is drawn. Playing a move, a timeout and [`Position::put_out`]
    /// do this already; call it after building a team position by hand.
    pub fn settle(&mut self) {
        if !self.teams {
            return;
        }
        if !self.decided_by_play() && !self.is_in(self.turn) {
            self.turn = self.next_seat(self.turn);
        }
        while !self.decided_by_play() && !self.has_legal_move(self.turn) {
            let stuck = self.turn;
            if !self
                .seats_in()
                .any(|s| s != stuck && self.has_legal_move(s))
            {
                self.decided = Some(GameResult::Draw {
                    reason: DrawReason::NoMovesEither,
                });
                return;
            }
            self.remove_seat(stuck, WinReason::NoLegalMove);
            if !self.decided_by_play() {
                self.turn = self.next_seat(stuck);
            }
        }
    }

    /// Takes `side` out of a team game with all its pieces (撤子) and decides
    /// the game when its partner is out too. Does not move the turn.
    pub(super) fn remove_seat(&mut self, side: Side, reason: WinReason) {
        if !self.is_in(side) {
            return;
        }
        let mut points = Vec::with_capacity(25);
        self.by_side[side.index()].for_each(|p| points.push(p));
        for p in points {
            self.set(p, None);
        }
        self.in_play &= !side.bit();
        self.outs[side.index()] = Some(reason);
        if self.decided.is_none() && !self.is_in(side.partner()) {
            let winners = side.team().other().seats();
            let winner = winners
                .into_iter()
                .find(|&s| self.is_in(s))
                .unwrap_or(winners[0]);
            self.decided = Some(GameResult::Win { winner, reason });
        }
    }

    /// Team games: puts `side` out (flag captured, timeouts, resigning, a
    /// forfeit): all its pieces leave the board, the turn passes on if it
    /// was `side`'s, and the game ends when a whole team is out. Does nothing
    /// in two-player games, for a seat already out, or once the game is over.
    pub fn put_out(&mut self, side: Side, reason: WinReason) {
        if !self.teams || !self.is_in(side) || self.decided_by_play() {
            return;
        }
        self.remove_seat(side, reason);
        if !self.decided_by_play() && self.turn == side {
            self.turn = self.next_seat(side);
        }
        self.settle();
    }

    /// Team games: marks `side` out without passing the turn or settling
    /// (for positions built by hand, e.g. from a player's view); its pieces
    /// are removed.
    pub fn set_out(&mut self, side: Side, reason: WinReason) {
        if self.teams {
            self.remove_seat(side, reason);
        }
    }

    /// Whether this is a four-player team game.
    pub fn is_team_game(&self) -> bool {
        self.teams
    }

    /// Whether `side` is still in the game (always true for both sides of a
    /// two-player game).
    #[inline]
    pub fn is_in(&self, side: Side) -> bool {
        self.in_play & side.bit() != 0
    }

    /// The seats still in, in [`Side::index`] order.
    pub fn seats_in(&self) -> impl Iterator<Item = Side> + '_ {
        [Side::South, Side::North, Side::East, Side::West]
            .into_iter()
            .filter(|&s| self.is_in(s))
    }

    /// Why `side` went out of a team game (`None` while it is in).
    pub fn out_reason(&self, side: Side) -> Option<WinReason> {
        self.outs[side.index()]
    }

    /// Movable pieces (face up or down) of `side` and, in a team game, its partner.
    fn side_movable_count(&self, side: Side) -> usize {
        self.friends(side).difference(&self.immobile).len()
    }

    /// Whether `attacker` taking on `defender` with `clash` is the trade of
    /// each side's last movable piece under the last-pieces rule (called
    /// before the board changes).
    pub(super) fn is_last_trade(&self, attacker: Piece, defender: Piece, clash: Clash) -> bool {
        self.rules.last_pieces
            && clash.outcome == Outcome::BothRemoved
            && attacker.rank.is_movable()
            && defender.rank.is_movable()
            && self.side_movable_count(attacker.side) == 1
            && self.side_movable_count(defender.side) == 1
    }

    /// The last-pieces rule after the trade: the attacker's side wins (the
    /// other team's players still in go out).
    pub(super) fn decide_last_trade(&mut self, attacker: Side, defender: Side) {
        if self.decided.is_some() || self.flag_captured.is_some() {
            return;
        }
        if self.teams {
            for s in defender.team().seats() {
                self.remove_seat(s, WinReason::NoMovablePieces);
            }
        } else {
            self.decided = Some(GameResult::Win {
                winner: attacker,
                reason: WinReason::NoMovablePieces,
            });
        }
    }
}
