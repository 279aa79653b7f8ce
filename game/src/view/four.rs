//! A four-player player's view (RULES.md §9): four armies, the partner's
//! pieces known in 双明, turns round the seats still in, players going out.

use super::{PieceKnowledge, PlayerView, Seen, ViewError, setup_possible};
use crate::board::{Board, Point};
use crate::event::TableEvent;
use crate::layout::Deployment;
use crate::piece::{PieceId, Rank, Side};
use crate::position::WinReason;
use crate::rules::Rules;

impl PlayerView {
    /// The view of `me` in a four-player game before any event: its own
    /// pieces, its partner's when `partner` is given (双明), every other
    /// piece as an identity whose rank is unknown.
    pub fn new_four(
        rules: Rules,
        me: Side,
        own: &Deployment,
        partner: Option<&Deployment>,
        first: Side,
    ) -> PlayerView {
        let board = Board::four_player();
        let mut view = PlayerView::blank(rules, me, first);
        view.board = board;
        view.pieces = vec![None; 100];
        view.teams = true;
        view.in_play = Side::FOUR.iter().fold(0, |m, s| m | s.bit());
        for side in Side::FOUR {
            let known = if side == me {
                Some(own)
            } else if side == me.partner() {
                partner
            } else {
                None
            };
            let ranks: Option<Vec<(Point, Rank)>> = known.map(|d| d.placements(board, side));
            for (slot, &p) in board.setup_points(side).iter().enumerate() {
                let id = PieceId((side.index() * 25 + slot) as u8);
                let rank = ranks.as_ref().map(|v| v[slot].1);
                view.squares[p.index()] = Some(Seen::Piece { side, id, rank });
                view.pieces[id.0 as usize] = Some(PieceKnowledge {
                    id,
                    side,
                    at: Some(p),
                    possible: rank.map_or_else(|| setup_possible(board, p, &rules), Rank::bit),
                    moved: false,
                    turned_corner: false,
                });
            }
        }
        view
    }

    /// Whether this is a four-player team game.
    pub fn is_team_game(&self) -> bool {
        self.teams
    }

    /// Whether `side` is still in the game.
    pub fn is_in(&self, side: Side) -> bool {
        self.in_play & side.bit() != 0
    }

    /// Why `side` went out of a four-player game (`None` while it is in).
    pub fn out_reason(&self, side: Side) -> Option<WinReason> {
        self.outs[side.index()]
    }

    /// The seat that moves after the one to move now.
    pub(super) fn next_turn(&self) -> Side {
        if !self.teams {
            return self.turn.opponent();
        }
        let mut s = self.turn;
        for _ in 0..4 {
            s = s.next(self.rules.clockwise);
            if self.is_in(s) {
                return s;
            }
        }
        self.turn
    }

    /// Whose piece `side` attacks on `to`: the opponent, or in a team game
    /// the enemy whose piece stands there.
    pub(super) fn defender_side(&self, side: Side, to: Point) -> Result<Side, ViewError> {
        if !self.teams {
            return Ok(side.opponent());
        }
        match self.squares.get(to.index()).copied().flatten() {
            Some(Seen::Piece { side: s, .. }) if s.team() != side.team() => Ok(s),
            _ => Err(ViewError::NoEnemyPiece {
                side,
                at: self.board.name_of(to),
            }),
        }
    }

    /// Applies one announcement of the table (an [`crate::Event`] or a
    /// four-player one). An announcement that does not fit is refused and
    /// the view is left as it was.
    pub fn apply_table(&mut self, event: &TableEvent) -> Result<(), ViewError> {
        match *event {
            TableEvent::Event(ref e) => self.apply(e),
            TableEvent::PlayerOut { side, reason } => {
                if !self.teams || !self.is_in(side) || self.result.is_some() {
                    return Err(ViewError::CannotGoOut(side));
                }
                for p in self.board.points() {
                    if let Some(Seen::Piece { side: s, id, .. }) = self.squares[p.index()]
                        && s == side
                    {
                        self.squares[p.index()] = None;
                        if let Some(k) = self.pieces.get_mut(id.0 as usize).and_then(Option::as_mut)
                        {
                            k.at = None;
                        }
                    }
                }
                self.outs[side.index()] = Some(reason);
                // The turn passes on if it was the player's (skipping it).
                let was_turn = self.turn == side;
                self.in_play &= !side.bit();
                if was_turn {
                    self.turn = self.next_turn();
                }
                if self.draw_offer == Some(side) {
                    self.draw_offer = None;
                }
                Ok(())
            }
            TableEvent::DrawAccepted { side } => {
                if self.draw_offer.is_none_or(|o| o == side) || !self.is_in(side) {
                    return Err(ViewError::NoOfferToAccept(side));
                }
                Ok(())
            }
        }
    }

    /// Applies announcements in order, stopping at the first that does not fit.
    pub fn apply_all(&mut self, events: &[TableEvent]) -> Result<(), ViewError> {
        events.iter().try_for_each(|e| self.apply_table(e))
    }
}
