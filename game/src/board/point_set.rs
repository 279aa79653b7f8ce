//! [`PointSet`]: a fixed-size set of points, one bit per point, with the
//! set operators (`|`, `&`, `-`).

use super::point::Point;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Sub, SubAssign};

/// A fixed-size set of points (one bit per point).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct PointSet([u64; 3]);

impl PointSet {
    /// The empty set.
    pub const EMPTY: PointSet = PointSet([0; 3]);
    /// Whether `p` is in the set.
    #[inline]
    pub fn contains(&self, p: Point) -> bool {
        self.0[p.index() >> 6] & (1 << (p.0 & 63)) != 0
    }
    /// Adds `p`; returns whether it was new.
    #[inline]
    pub fn insert(&mut self, p: Point) -> bool {
        let w = &mut self.0[p.index() >> 6];
        let bit = 1 << (p.0 & 63);
        let new = *w & bit == 0;
        *w |= bit;
        new
    }
    /// Removes `p`.
    #[inline]
    pub fn remove(&mut self, p: Point) {
        self.0[p.index() >> 6] &= !(1 << (p.0 & 63));
    }
    /// Number of points in the set.
    #[inline]
    pub fn len(&self) -> usize {
        // One software popcount for the three words (the portable x86-64
        // target has no `popcnt`): per-byte counts of each word, summed
        // (at most 24 per byte), then one multiply adds the bytes.
        const M1: u64 = 0x5555_5555_5555_5555;
        const M2: u64 = 0x3333_3333_3333_3333;
        const M4: u64 = 0x0F0F_0F0F_0F0F_0F0F;
        let bytes = |w: u64| {
            let c = w - ((w >> 1) & M1);
            let c = (c & M2) + ((c >> 2) & M2);
            (c + (c >> 4)) & M4
        };
        let sum = bytes(self.0[0]) + bytes(self.0[1]) + bytes(self.0[2]);
        (sum.wrapping_mul(0x0101_0101_0101_0101) >> 56) as usize
    }
    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 3]
    }
    /// The points in either set.
    #[inline]
    pub fn union(&self, other: &PointSet) -> PointSet {
        PointSet(std::array::from_fn(|i| self.0[i] | other.0[i]))
    }
    /// The points in both sets.
    #[inline]
    pub fn intersection(&self, other: &PointSet) -> PointSet {
        PointSet(std::array::from_fn(|i| self.0[i] & other.0[i]))
    }
    /// The points in `self` but not in `other`.
    #[inline]
    pub fn difference(&self, other: &PointSet) -> PointSet {
        PointSet(std::array::from_fn(|i| self.0[i] & !other.0[i]))
    }
    /// Calls `f` for each point in the set, in index order (faster than `iter`).
    #[inline(always)]
    pub fn for_each(&self, mut f: impl FnMut(Point)) {
        for (w, &word) in self.0.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let b = bits.trailing_zeros();
                bits &= bits - 1;
                f(Point((w as u32 * 64 + b) as u8));
            }
        }
    }

    /// The `k`-th point of the set in index order (0-based), if there is one.
    pub fn nth(&self, mut k: usize) -> Option<Point> {
        for (w, &word) in self.0.iter().enumerate() {
            let n = word.count_ones() as usize;
            if k < n {
                return Some(Point((w as u32 * 64 + nth_bit(word, k)) as u8));
            }
            k -= n;
        }
        None
    }

    /// The set's three 64-point words (bit `i % 64` of word `i / 64` is point `i`).
    #[inline(always)]
    pub(crate) const fn words(&self) -> &[u64; 3] {
        &self.0
    }

    /// The first 64 points (indices 0…63) as a bit mask.
    #[inline(always)]
    pub(crate) const fn low_word(&self) -> u64 {
        self.0[0]
    }

    /// The set whose points are the bits of `bits` (indices 0…63).
    #[inline(always)]
    pub(crate) const fn from_low_word(bits: u64) -> PointSet {
        PointSet([bits, 0, 0])
    }

    /// The points in the set, in index order.
    pub fn iter(&self) -> impl Iterator<Item = Point> + '_ {
        (0..3).flat_map(move |w| {
            let mut bits = self.0[w];
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let b = bits.trailing_zeros();
                bits &= bits - 1;
                Some(Point((w as u32 * 64 + b) as u8))
            })
        })
    }
}

/// `SELECT[b][j]`: the index of the `j`-th set bit of the byte `b` (8 if
/// there is none).
const SELECT: [[u8; 8]; 256] = {
    let mut table = [[8u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let (mut bit, mut j) = (0, 0);
        while bit < 8 {
            if b >> bit & 1 != 0 {
                table[b][j] = bit as u8;
                j += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    table
};

/// The index of the `k`-th set bit of `word` (`k` < number of set bits),
/// without a data-dependent branch: byte counts and their running sums in
/// parallel (the portable x86-64 target has no `popcnt`), the byte that holds
/// the bit, then a table lookup within the byte.
#[inline]
pub(crate) fn nth_bit(word: u64, k: usize) -> u32 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let c = word - ((word >> 1) & 0x5555_5555_5555_5555);
    let c = (c & 0x3333_3333_3333_3333) + ((c >> 2) & 0x3333_3333_3333_3333);
    let c = (c + (c >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    // Byte `i` of `sums`: the set bits in bytes 0..=i (at most 64).
    let sums = c.wrapping_mul(ONES);
    let k = k as u64 & 63;
    // Bit 7 of byte `i` is set exactly when `sums` byte `i` <= k (no byte
    // borrows from the next); those bytes come first.
    let at_most_k = ((0x80 | k) * ONES).wrapping_sub(sums) & (0x80 * ONES);
    let byte = (!at_most_k & (0x80 * ONES)).trailing_zeros() & !7;
    let before = (sums << 8) >> byte & 0xFF;
    let within = (word >> byte & 0xFF) as usize;
    byte + SELECT[within][(k.wrapping_sub(before) & 7) as usize] as u32
}

impl BitOr for PointSet {
    type Output = PointSet;
    /// The union.
    #[inline]
    fn bitor(self, other: PointSet) -> PointSet {
        self.union(&other)
    }
}

impl BitAnd for PointSet {
    type Output = PointSet;
    /// The intersection.
    #[inline]
    fn bitand(self, other: PointSet) -> PointSet {
        self.intersection(&other)
    }
}

impl Sub for PointSet {
    type Output = PointSet;
    /// The difference.
    #[inline]
    fn sub(self, other: PointSet) -> PointSet {
        self.difference(&other)
    }
}

impl BitOrAssign for PointSet {
    #[inline]
    fn bitor_assign(&mut self, other: PointSet) {
        *self = *self | other;
    }
}

impl BitAndAssign for PointSet {
    #[inline]
    fn bitand_assign(&mut self, other: PointSet) {
        *self = *self & other;
    }
}

impl SubAssign for PointSet {
    #[inline]
    fn sub_assign(&mut self, other: PointSet) {
        *self = *self - other;
    }
}

impl FromIterator<Point> for PointSet {
    fn from_iter<I: IntoIterator<Item = Point>>(points: I) -> PointSet {
        let mut set = PointSet::EMPTY;
        for p in points {
            set.insert(p);
        }
        set
    }
}
