//! The protocol's own names for ranks and seats, with fixed wire codes.
//!
//! The rules engine has its own types; the protocol fixes the numbering that
//! goes into hashes and into the oblivious-transfer index `j`, so it must not
//! change when the engine's enums are reordered. This module knows nothing of
//! the rules: the mapping to `junqi_game::Rank` lives in [`crate::wire`]
//! (`rank_from_game`, `rank_to_game`) and only there.

use serde::{Deserialize, Serialize};

/// One of the 12 piece kinds. The first 10 ([`WireRank::MOVABLE`]) can attack; their
/// index is the attacker index `c`/`j` of the oblivious transfer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[repr(u8)]
pub enum WireRank {
    /// 司令, 40.
    Commander = 0,
    /// 军长, 39.
    Corps = 1,
    /// 师长, 38.
    Division = 2,
    /// 旅长, 37.
    Brigade = 3,
    /// 团长, 36.
    Regiment = 4,
    /// 营长, 35.
    Battalion = 5,
    /// 连长, 34.
    Company = 6,
    /// 排长, 33.
    Platoon = 7,
    /// 工兵, 32.
    Engineer = 8,
    /// 炸弹.
    Bomb = 9,
    /// 地雷 (never moves).
    Mine = 10,
    /// 军旗 (never moves).
    Flag = 11,
}

impl WireRank {
    /// All 12 ranks in code order.
    pub const ALL: [WireRank; 12] = [
        WireRank::Commander,
        WireRank::Corps,
        WireRank::Division,
        WireRank::Brigade,
        WireRank::Regiment,
        WireRank::Battalion,
        WireRank::Company,
        WireRank::Platoon,
        WireRank::Engineer,
        WireRank::Bomb,
        WireRank::Mine,
        WireRank::Flag,
    ];
    /// Number of ranks that can move (and so attack).
    pub const MOVABLE: usize = 10;

    /// The wire code, 0..12.
    #[must_use]
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// The rank for a wire code.
    #[must_use]
    pub fn from_code(code: u8) -> Option<WireRank> {
        WireRank::ALL.get(code as usize).copied()
    }

    /// Whether this rank can ever move.
    #[must_use]
    pub const fn is_movable(self) -> bool {
        (self as usize) < WireRank::MOVABLE
    }
}

/// The two seats of a two-player game. The host created the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[repr(u8)]
pub enum Seat {
    /// The side that advertised the game and chose the rules.
    Host = 0,
    /// The side that joined.
    Guest = 1,
}

impl Seat {
    /// The other seat.
    #[must_use]
    pub const fn other(self) -> Seat {
        match self {
            Seat::Host => Seat::Guest,
            Seat::Guest => Seat::Host,
        }
    }

    /// The wire code, 0 or 1.
    #[must_use]
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// Index for per-seat arrays.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for r in WireRank::ALL {
            assert_eq!(WireRank::from_code(r.code()), Some(r));
        }
        assert_eq!(WireRank::from_code(12), None);
        assert_eq!(Seat::Host.other(), Seat::Guest);
    }
}
