//! The sparring partners' own piece values (not Master's `ai::eval`): a
//! commercial app's flat table, one number a rank.

use crate::Rank;

/// A won game, less the plies it takes (so the nearer win is preferred).
pub const WIN: i32 = 100_000;

/// What a piece of `rank` is worth to the sparring partners.
pub const fn value(rank: Rank) -> i32 {
    match rank {
        Rank::Commander => 1000,
        Rank::Corps => 700,
        Rank::Division => 450,
        Rank::Brigade => 300,
        Rank::Regiment => 200,
        Rank::Battalion => 130,
        Rank::Company => 80,
        Rank::Platoon => 50,
        Rank::Engineer => 120,
        Rank::Landmine => 150,
        Rank::Bomb => 380,
        Rank::Flag => 0,
    }
}
