//! The four seats of a table and their fixed wire codes.

use junqi_game::{Board, Layout, Point, Side};
use serde::{Deserialize, Serialize};

use crate::commit::Owner;
use crate::rank::WireRank;
use crate::wire::{rank_from_game, rank_to_game};

/// A seat of a four-seat table (RULES.md §9): the wire code goes into hashes
/// and commitments, so it never follows an engine reordering; [`FourSeat::side`]
/// is the one mapping to the engine's [`Side`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[repr(u8)]
pub enum FourSeat {
    /// 南, partner of North.
    South = 0,
    /// 东, partner of West.
    East = 1,
    /// 北, partner of South.
    North = 2,
    /// 西, partner of East.
    West = 3,
}

impl FourSeat {
    /// The four seats in wire-code order (which is also the engine's [`Side::FOUR`]).
    pub const ALL: [FourSeat; 4] = [
        FourSeat::South,
        FourSeat::East,
        FourSeat::North,
        FourSeat::West,
    ];

    /// The wire code, 0–3.
    #[must_use]
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// Index for per-seat arrays.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The seat of a wire code.
    #[must_use]
    pub const fn from_code(code: u8) -> Option<FourSeat> {
        match code {
            0 => Some(FourSeat::South),
            1 => Some(FourSeat::East),
            2 => Some(FourSeat::North),
            3 => Some(FourSeat::West),
            _ => None,
        }
    }

    /// The engine's side for this seat.
    #[must_use]
    pub const fn side(self) -> Side {
        match self {
            FourSeat::South => Side::South,
            FourSeat::East => Side::East,
            FourSeat::North => Side::North,
            FourSeat::West => Side::West,
        }
    }

    /// The seat of an engine side.
    #[must_use]
    pub const fn of_side(side: Side) -> FourSeat {
        match side {
            Side::South => FourSeat::South,
            Side::East => FourSeat::East,
            Side::North => FourSeat::North,
            Side::West => FourSeat::West,
        }
    }

    /// The partner (opposite seat).
    #[must_use]
    pub const fn partner(self) -> FourSeat {
        FourSeat::of_side(self.side().partner())
    }
}

impl Owner for FourSeat {
    fn owner_code(self) -> u8 {
        // Distinct from the two-player seats' 0 and 1 as well, although the
        // game id already keeps the two kinds of game apart.
        0x40 | self.code()
    }
}

impl std::fmt::Display for FourSeat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.side().fmt(f)
    }
}

/// A seat's 25 ranks by slot (the index in the four-player board's
/// `setup_points` of its side): what its commitments cover.
#[must_use]
pub fn slots_of(layout: &Layout, seat: FourSeat) -> Vec<WireRank> {
    let board = Board::four_player();
    board
        .setup_points(seat.side())
        .iter()
        .map(|&p| {
            let i = board.info(p);
            layout
                .get(i.row, i.col)
                .map_or(WireRank::Flag, rank_from_game)
        })
        .collect()
}

/// The layout of a seat from its 25 ranks by slot (may break the setup rules).
#[must_use]
pub fn layout_of(ranks: &[WireRank], seat: FourSeat) -> Layout {
    let board = Board::four_player();
    let mut l = Layout::empty();
    for (&p, &r) in board.setup_points(seat.side()).iter().zip(ranks) {
        let i = board.info(p);
        l.set(i.row, i.col, Some(rank_to_game(r)));
    }
    l
}

/// The point of a seat's slot on the four-player board.
#[must_use]
pub fn slot_point(seat: FourSeat, slot: u8) -> Option<Point> {
    Board::four_player()
        .setup_points(seat.side())
        .get(slot as usize)
        .copied()
}
