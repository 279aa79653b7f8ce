//! A view of a position set up at any point of the game (an endgame study,
//! a position file): in open games (明棋) every piece is public; in a dark
//! game's study the caller says what the player knows of each enemy piece.
//! The AI can be asked about such a position without a history of events,
//! and it still gets nothing it could not see.

use super::{PieceKnowledge, PlayerView, Seen, ViewError};
use crate::piece::{Piece, Side};
use crate::position::Position;
use crate::rank_set::RankSet;
use crate::rules::Mode;

impl PlayerView {
    /// The view of `me` of an open two-player game standing at `pos`: every
    /// piece and its rank, the side to move and the counters as `pos` has
    /// them. Refused for dark and flip games (their views come from the
    /// game's events, which say what is hidden) and for team games.
    pub fn of_open_position(pos: &Position, me: Side) -> Result<PlayerView, ViewError> {
        if pos.rules().mode != Mode::Open {
            return Err(ViewError::NotOpen(pos.rules().mode));
        }
        PlayerView::of_position(pos, me, |piece| piece.rank.bit())
    }

    /// The view of `me` of a dark two-player game (暗棋) standing at `pos`,
    /// where `knows` says which ranks each enemy piece may still have (what
    /// the game's battles and counts told `me`; its own pieces are known).
    /// Refused for other modes, for team games and when `knows` rules out a
    /// piece's true rank.
    pub fn of_dark_position(
        pos: &Position,
        me: Side,
        knows: impl Fn(Piece) -> RankSet,
    ) -> Result<PlayerView, ViewError> {
        if pos.rules().mode != Mode::Dark {
            return Err(ViewError::NotDark(pos.rules().mode));
        }
        PlayerView::of_position(pos, me, |piece| {
            if piece.side == me {
                piece.rank.bit()
            } else {
                knows(piece)
            }
        })
    }

    /// A two-player view of `pos` where each piece may have the ranks
    /// `possible` gives it.
    fn of_position(
        pos: &Position,
        me: Side,
        possible: impl Fn(Piece) -> RankSet,
    ) -> Result<PlayerView, ViewError> {
        let rules = *pos.rules();
        if pos.is_team_game() || !Side::TWO.contains(&me) {
            return Err(ViewError::NotTwoPlayer);
        }
        let mut view = PlayerView::blank(rules, me, pos.turn());
        if !std::ptr::eq(view.board, pos.board()) {
            return Err(ViewError::WrongBoard);
        }
        view.ply = pos.ply();
        view.quiet = pos.quiet_plies();
        view.result = pos.result();
        for (p, piece) in pos.pieces() {
            let slot = view
                .pieces
                .get_mut(piece.id.0 as usize)
                .ok_or(ViewError::NotTwoPlayerId(piece.id))?;
            if slot.is_some() {
                return Err(ViewError::StandsTwice(piece.id));
            }
            let may_be = possible(piece);
            if !may_be.contains(piece.rank) {
                return Err(ViewError::TruthRuledOut(piece.id));
            }
            *slot = Some(PieceKnowledge {
                id: piece.id,
                side: piece.side,
                at: Some(p),
                possible: may_be,
                moved: false,
                turned_corner: false,
            });
            view.squares[p.index()] = Some(Seen::Piece {
                side: piece.side,
                id: piece.id,
                rank: may_be.single(),
            });
        }
        Ok(view)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Board;
    use crate::piece::{PieceId, Rank};
    use crate::rules::Rules;

    fn position(mode: Mode) -> Position {
        let board = Board::classic();
        let mut pos = Position::empty(board, Rules::for_mode(mode), Side::South);
        let pieces = [
            ("S62", Side::South, Rank::Flag, 0),
            ("N62", Side::North, Rank::Flag, 25),
            ("N33", Side::North, Rank::Regiment, 26),
        ];
        for (p, side, rank, id) in pieces {
            let piece = Piece {
                side,
                rank,
                face_up: true,
                id: PieceId(id),
            };
            pos.set(board.parse_point(p).unwrap(), Some(piece));
        }
        pos
    }

    #[test]
    fn a_dark_view_shows_only_what_it_is_told_and_refuses_a_lie() {
        let pos = position(Mode::Dark);
        let officers = Rank::Regiment.bit() | Rank::Brigade.bit();
        let told = |pc: Piece| {
            if pc.rank == Rank::Flag {
                Rank::Flag.bit()
            } else {
                officers
            }
        };
        let view = PlayerView::of_dark_position(&pos, Side::South, told).unwrap();
        let at = Board::classic().parse_point("N33").unwrap();
        assert_eq!(
            view.at(at),
            Some(Seen::Piece {
                side: Side::North,
                id: PieceId(26),
                rank: None
            })
        );
        assert_eq!(view.piece(PieceId(26)).unwrap().possible, officers);
        // Knowledge that leaves out a piece's true rank is refused.
        let wrong = |pc: Piece| {
            if pc.rank == Rank::Flag {
                Rank::Flag.bit()
            } else {
                Rank::Brigade.bit()
            }
        };
        let refused = PlayerView::of_dark_position(&pos, Side::South, wrong);
        assert!(matches!(
            refused,
            Err(ViewError::TruthRuledOut(PieceId(26)))
        ));
        // Only dark games.
        let open = position(Mode::Open);
        assert!(matches!(
            PlayerView::of_dark_position(&open, Side::South, told),
            Err(ViewError::NotDark(Mode::Open))
        ));
    }
}
