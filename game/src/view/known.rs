//! A view of a position that hides nothing: open games (明棋), where every
//! piece is public, set up at any point of the game (an endgame study, a
//! position file). The AI can be asked about such a position without a
//! history of events, and it still gets nothing it could not see.

use super::{PieceKnowledge, PlayerView, Seen, ViewError};
use crate::piece::Side;
use crate::position::Position;
use crate::rules::Mode;

impl PlayerView {
    /// The view of `me` of an open two-player game standing at `pos`: every
    /// piece and its rank, the side to move and the counters as `pos` has
    /// them. Refused for dark and flip games (their views come from the
    /// game's events, which say what is hidden) and for team games.
    pub fn of_open_position(pos: &Position, me: Side) -> Result<PlayerView, ViewError> {
        let rules = *pos.rules();
        if rules.mode != Mode::Open {
            return Err(ViewError::NotOpen(rules.mode));
        }
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
            *slot = Some(PieceKnowledge {
                id: piece.id,
                side: piece.side,
                at: Some(p),
                possible: piece.rank.bit(),
                moved: false,
                turned_corner: false,
            });
            view.squares[p.index()] = Some(Seen::Piece {
                side: piece.side,
                id: piece.id,
                rank: Some(piece.rank),
            });
        }
        Ok(view)
    }
}
