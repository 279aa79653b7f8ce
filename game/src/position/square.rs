//! [`Square`]: what stands on one point of a [`Position`](super::Position),
//! packed in two bytes.

use crate::piece::{Piece, PieceId, Rank, Side};

/// What stands on a point, packed in two bytes (a [`Position`] holds one per
/// point, so this keeps it small to clone): 0 for an empty point, else bit 15
/// set, bit 14 face up, bits 12–13 the side, bits 8–11 the rank, bits 0–7 the id.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub(super) struct Square(u16);

impl Square {
    pub(super) const EMPTY: Square = Square(0);

    #[inline]
    pub(super) fn of(piece: Option<Piece>) -> Square {
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
    pub(super) fn piece(self) -> Option<Piece> {
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
    pub(super) fn is_empty(self) -> bool {
        self.0 & 0x8000 == 0
    }
}
