//! [`RankSet`]: a set of ranks, one bit per rank, with the set operations
//! (`|` union, `&` intersection, `-` difference, `!` complement among the
//! twelve ranks), membership and iteration in rank order.

use crate::piece::Rank;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not, Sub, SubAssign};

impl Rank {
    /// This rank as a one-element [`RankSet`].
    pub const fn bit(self) -> RankSet {
        RankSet::only(self)
    }
}

/// A set of ranks (bit `rank as u16`; serialized as that mask).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RankSet(u16);

impl RankSet {
    /// No rank.
    pub const EMPTY: RankSet = RankSet(0);
    /// Every rank.
    pub const ALL: RankSet = RankSet((1 << 12) - 1);
    /// The ranks that can ever move (all but the landmine and the flag).
    pub const MOVABLE: RankSet =
        RankSet(Self::ALL.0 & !(1 << Rank::Landmine as u16) & !(1 << Rank::Flag as u16));

    /// The set of `rank` alone.
    pub const fn only(rank: Rank) -> RankSet {
        RankSet(1 << rank as u16)
    }

    /// Whether `rank` is in the set.
    pub const fn contains(self, rank: Rank) -> bool {
        self.0 & (1 << rank as u16) != 0
    }

    /// How many ranks the set holds.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set holds no rank.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the two sets share a rank.
    pub const fn intersects(self, other: RankSet) -> bool {
        self.0 & other.0 != 0
    }

    /// The rank when the set holds exactly one.
    pub fn single(self) -> Option<Rank> {
        (self.len() == 1).then(|| self.iter().next().expect("one rank"))
    }

    /// The set with `rank` added.
    pub const fn with(self, rank: Rank) -> RankSet {
        RankSet(self.0 | 1 << rank as u16)
    }

    /// The set without `rank`.
    pub const fn without(self, rank: Rank) -> RankSet {
        RankSet(self.0 & !(1 << rank as u16))
    }

    /// The ranks, in [`Rank::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Rank> {
        Rank::ALL.into_iter().filter(move |&r| self.contains(r))
    }

    /// The bit mask (bit `rank as u16`).
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// The set of a bit mask; bits beyond the twelve ranks are dropped.
    pub const fn from_bits(bits: u16) -> RankSet {
        RankSet(bits & Self::ALL.0)
    }
}

impl BitOr for RankSet {
    type Output = RankSet;
    fn bitor(self, rhs: RankSet) -> RankSet {
        RankSet(self.0 | rhs.0)
    }
}

impl BitAnd for RankSet {
    type Output = RankSet;
    fn bitand(self, rhs: RankSet) -> RankSet {
        RankSet(self.0 & rhs.0)
    }
}

impl Sub for RankSet {
    type Output = RankSet;
    fn sub(self, rhs: RankSet) -> RankSet {
        RankSet(self.0 & !rhs.0)
    }
}

impl Not for RankSet {
    type Output = RankSet;
    fn not(self) -> RankSet {
        RankSet(!self.0 & Self::ALL.0)
    }
}

impl BitOrAssign for RankSet {
    fn bitor_assign(&mut self, rhs: RankSet) {
        self.0 |= rhs.0;
    }
}

impl BitAndAssign for RankSet {
    fn bitand_assign(&mut self, rhs: RankSet) {
        self.0 &= rhs.0;
    }
}

impl SubAssign for RankSet {
    fn sub_assign(&mut self, rhs: RankSet) {
        self.0 &= !rhs.0;
    }
}

impl FromIterator<Rank> for RankSet {
    fn from_iter<I: IntoIterator<Item = Rank>>(iter: I) -> RankSet {
        iter.into_iter().fold(RankSet::EMPTY, RankSet::with)
    }
}

impl From<Rank> for RankSet {
    fn from(rank: Rank) -> RankSet {
        RankSet::only(rank)
    }
}

impl fmt::Debug for RankSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter().map(Rank::key)).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_operations_are_the_set_operations() {
        // Every pair of subsets of a few ranks: the operators agree with membership.
        let few = [Rank::Commander, Rank::Engineer, Rank::Landmine, Rank::Flag];
        let subsets: Vec<RankSet> = (0..16u8)
            .map(|m| {
                few.iter()
                    .enumerate()
                    .filter(|(i, _)| m & (1 << i) != 0)
                    .map(|(_, &r)| r)
                    .collect()
            })
            .collect();
        for &a in &subsets {
            assert_eq!(a.len(), a.iter().count());
            assert_eq!(a.is_empty(), a == RankSet::EMPTY);
            assert_eq!(!!a, a);
            assert_eq!(a | !a, RankSet::ALL);
            for &b in &subsets {
                for r in Rank::ALL {
                    assert_eq!((a | b).contains(r), a.contains(r) || b.contains(r));
                    assert_eq!((a & b).contains(r), a.contains(r) && b.contains(r));
                    assert_eq!((a - b).contains(r), a.contains(r) && !b.contains(r));
                }
                assert_eq!(a.intersects(b), !(a & b).is_empty());
            }
        }
        assert_eq!(RankSet::MOVABLE.len(), 10);
        assert!(!RankSet::MOVABLE.contains(Rank::Flag) && RankSet::MOVABLE.contains(Rank::Bomb));
        assert_eq!(RankSet::only(Rank::Bomb).single(), Some(Rank::Bomb));
        assert_eq!(
            (RankSet::only(Rank::Bomb) | Rank::Flag.bit()).single(),
            None
        );
        assert_eq!(RankSet::ALL.iter().collect::<Vec<_>>(), Rank::ALL.to_vec());
        assert_eq!(RankSet::from_bits(u16::MAX), RankSet::ALL);
    }

    #[test]
    fn it_serializes_as_its_mask() {
        let s = RankSet::only(Rank::Commander) | Rank::Flag.bit();
        assert_eq!(serde_json::to_string(&s).unwrap(), "2049");
        assert_eq!(serde_json::from_str::<RankSet>("2049").unwrap(), s);
    }
}
