//! The board as a graph: points, road edges, railway lines.
//!
//! The two-player board of RULES.md §2 is one instance ([`Board::classic`]);
//! the four-player board of BOARD4.md is another instance of the same type
//! ([`Board::four_player`]). Everything board-specific lives in the
//! construction data, not in the move generator.

use crate::piece::Side;
use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::OnceLock;

mod point_serde;
pub use point_serde::with_point_names;

/// The most points any board has (the four-player board has 129).
pub const MAX_POINTS: usize = 129;

/// The most railway lines a board has (the four-player board has 18).
pub(crate) const MAX_LINES: usize = 18;

/// The most points on one railway line (the long four-player lines have 13).
pub(crate) const MAX_LINE: usize = 13;

/// A point of a board, by index.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Point(pub u8);

impl Point {
    /// The index as `usize`.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// What kind of point this is (RULES.md §2).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PointKind {
    /// 兵站: an ordinary point.
    Station,
    /// 行营: safe; entered only when empty; starts empty.
    Camp,
    /// 大本营: a piece that enters never leaves (unless HQ exit).
    Headquarters,
}

/// Everything fixed about one point.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct PointInfo {
    /// Station, camp or headquarters.
    pub kind: PointKind,
    /// The half it belongs to (`None` only for a four-player centre point).
    pub half: Option<Side>,
    /// Row 1 (front) … 6 (back) within its half.
    pub row: u8,
    /// Column 1 … 5 from the half owner's left.
    pub col: u8,
    /// Drawing position: x grows to the right as South sees the board.
    pub x: f32,
    /// Drawing position: y grows upwards (away from South).
    pub y: f32,
    /// Whether the point lies on a railway.
    pub rail: bool,
}

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

/// Move-generation tables for boards of at most 64 points, where every point
/// set fits one `u64` (bit `i` = point `i`); built once with the board.
#[derive(Debug)]
pub(crate) struct SmallTables {
    /// Per point: the lookup of its one-move targets.
    points: Box<[SmallPoint; 64]>,
    /// The targets of every point's lookup, point after point.
    steps: Vec<u64>,
    /// Per point: railway neighbours (the engineers' flood).
    rail: Box<[u64; 64]>,
    /// Points on a railway.
    pub(crate) rail_points: u64,
    /// Camps.
    pub(crate) camps: u64,
    /// Headquarters.
    pub(crate) headquarters: u64,
}

/// One point's entry in [`SmallTables`]: a multiply-shift ("magic") lookup,
/// as rook attacks use on chess bitboards, from the board occupancy to the
/// points a piece there reaches without turning: its road neighbours and,
/// along each railway line through it, every point up to and including the
/// first occupied one in each direction.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SmallPoint {
    /// The points whose occupancy matters: the other points of its railway
    /// lines, except each line's two ends (a run always reaches the end).
    mask: u64,
    magic: u64,
    shift: u32,
    /// Where the point's targets start in [`SmallTables::steps`].
    offset: u32,
}

impl SmallTables {
    /// The points a piece on `i` (`i` < 64) reaches in one move without
    /// turning (road neighbours and straight railway runs, each run up to and
    /// including the first point of `occupied`), never `i` itself.
    #[inline(always)]
    pub(crate) fn step_targets(&self, i: usize, occupied: u64) -> u64 {
        let sp = &self.points[i & 63];
        let index = (occupied & sp.mask).wrapping_mul(sp.magic) >> sp.shift;
        self.steps
            .get(sp.offset as usize + index as usize)
            .copied()
            .unwrap_or(0)
    }

    /// The railway neighbours of point `i` (`i` < 64).
    #[inline(always)]
    pub(crate) fn rail(&self, i: usize) -> u64 {
        self.rail[i & 63]
    }
}

/// The targets of a piece on `p` that does not turn (see [`SmallPoint`]),
/// by walking the lines.
fn walk_targets(p: Point, road: u64, lines: &[Vec<Point>], occupied: u64) -> u64 {
    let mut targets = road;
    for line in lines {
        let Some(k) = line.iter().position(|&q| q == p) else {
            continue;
        };
        for walk in [
            line[k + 1..].to_vec(),
            line[..k].iter().rev().copied().collect(),
        ] {
            for q in walk {
                targets |= 1 << q.0;
                if occupied & 1 << q.0 != 0 {
                    break;
                }
            }
        }
    }
    targets & !(1 << p.0)
}

/// The multipliers [`find_magic`] finds for the points of the classic board
/// (mask, multiplier, shift), stored so that building the board needs no
/// search; a test checks that a search finds exactly these.
const CLASSIC_MAGICS: [(u64, u64, u32); 32] = [
    (0x000210840000842e, 0x05200090e0082000, 53),
    (0x000000000000000c, 0x112004006040810c, 62),
    (0x000000000000000a, 0x4a64148200020002, 62),
    (0x0000000000000006, 0xa8000020020a4022, 62),
    (0x000021084008420e, 0x0020820520040008, 53),
    (0x0002108400008401, 0x80008014210208c4, 56),
    (0x0000210840084010, 0x29002180040e0002, 56),
    (0x0002108400008021, 0x1402110010028900, 56),
    (0x0000210840080210, 0x01c0220828010044, 56),
    (0x0002108400000421, 0x0808000801002000, 56),
    (0x0000210840004210, 0x0040800201020000, 56),
    (0x0002108400e08421, 0x0501908008080020, 52),
    (0x0000000000c00000, 0x04400b0a04088000, 62),
    (0x0000000000a00000, 0x01400c8280004200, 62),
    (0x0000000000600000, 0x00001d0820008070, 62),
    (0x0000210840e84210, 0x8084081400810008, 52),
    (0x0000210b80084210, 0x8002040120414000, 53),
    (0x0000000300000000, 0x0028080048001010, 62),
    (0x0000000280000000, 0x1036102ec0004014, 62),
    (0x0000000180000000, 0x10c0408880004024, 62),
    (0x0002108380008421, 0x2080100300804092, 53),
    (0x0000210040084210, 0x0804080290210000, 56),
    (0x0002100400008421, 0x0600c00042014042, 56),
    (0x0000200840084210, 0x202438008c040020, 56),
    (0x0002008400008421, 0xe820c0a080800800, 56),
    (0x0000010840084210, 0x20202400c1880012, 56),
    (0x0000108400008421, 0x0110802002204230, 56),
    (0x0038210840084210, 0x0d00120250004020, 52),
    (0x0030000000000000, 0x0010022000a00400, 62),
    (0x0028000000000000, 0x9002100000090c22, 62),
    (0x0018000000000000, 0x1400800020004860, 62),
    (0x003a108400008421, 0x0040220100080300, 52),
];

/// Whether `magic` and `shift` send the `subsets` (with their values) to
/// slots where subsets sharing a slot share their value; fills `table` if so.
/// `used[i] == stamp` marks slot `i` as filled in this try.
fn fill_magic(
    subsets: &[(u64, u64)],
    magic: u64,
    shift: u32,
    used: &mut [u32],
    stamp: u32,
    table: &mut [u64],
) -> bool {
    subsets.iter().all(|&(s, v)| {
        let i = (s.wrapping_mul(magic) >> shift) as usize;
        if std::mem::replace(&mut used[i], stamp) == stamp {
            table[i] == v
        } else {
            table[i] = v;
            true
        }
    })
}

/// The points whose occupancy decides where a piece on `p` goes without
/// turning: the other points of its railway lines, except each line's ends.
fn relevant_mask(p: Point, lines: &[Vec<Point>]) -> u64 {
    lines
        .iter()
        .filter(|line| line.contains(&p))
        .flat_map(|line| &line[1..line.len().saturating_sub(1).max(1)])
        .fold(0u64, |m, q| m | 1 << q.0)
        & !(1 << p.0)
}

/// Finds a multiplier that sends the subsets of `mask` to slots of a table
/// of at most `1 << (bits + 3)` entries (`bits` = size of `mask`) such that
/// subsets sharing a slot share their value; returns it with the shift and
/// the table. Tries the `stored` multipliers for `mask` first, then searches
/// (deterministically: xorshift from a fixed seed).
fn find_magic(
    mask: u64,
    value: impl Fn(u64) -> u64,
    stored: &[(u64, u64, u32)],
) -> Option<(u64, u32, Vec<u64>)> {
    let mut subsets = Vec::new();
    let mut sub = 0u64;
    loop {
        subsets.push((sub, value(sub)));
        sub = sub.wrapping_sub(mask) & mask;
        if sub == 0 {
            break;
        }
    }
    let n = mask.count_ones() as usize;
    if n == 0 {
        return Some((0, 63, vec![subsets[0].1]));
    }
    for &(_, magic, shift) in stored.iter().filter(|m| m.0 == mask) {
        if !(64 - n as u32 - 3..=64 - n as u32).contains(&shift) {
            continue;
        }
        let size = 1 << (64 - shift);
        let mut table = vec![0u64; size];
        if fill_magic(&subsets, magic, shift, &mut vec![0; size], 1, &mut table) {
            return Some((magic, shift, table));
        }
    }
    let mut seed = 0x9E37_79B9_7F4A_7C15u64 ^ mask;
    let mut random = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for bits in n..=n + 3 {
        let shift = 64 - bits as u32;
        let mut used = vec![0u32; 1 << bits];
        let mut table = vec![0u64; 1 << bits];
        // A table of the minimal size is rarely worth a long search.
        let attempts = if bits > n {
            20_000
        } else if n < 7 {
            1_000
        } else {
            0
        };
        for attempt in 1..=attempts {
            let magic = random() & random() & random();
            if fill_magic(&subsets, magic, shift, &mut used, attempt, &mut table) {
                return Some((magic, shift, table));
            }
        }
    }
    None
}

impl SmallTables {
    /// The tables for a board of at most 64 points, or `None`.
    fn new(
        points: &[PointInfo],
        road: &[ArrayVec<Point, 8>],
        rail: &[ArrayVec<Point, 6>],
        lines: &[Vec<Point>],
    ) -> Option<SmallTables> {
        if points.len() > 64 {
            return None;
        }
        let mask = |v: &[Point]| v.iter().fold(0u64, |m, p| m | 1 << p.0);
        let mut small = Box::new([SmallPoint::default(); 64]);
        let mut rail_masks = Box::new([0u64; 64]);
        let mut steps = Vec::new();
        for i in 0..points.len() {
            let p = Point(i as u8);
            rail_masks[i] = mask(&rail[i]);
            let relevant = relevant_mask(p, lines);
            let road_mask = mask(&road[i]);
            let (magic, shift, table) = find_magic(
                relevant,
                |occ| walk_targets(p, road_mask, lines, occ),
                &CLASSIC_MAGICS,
            )?;
            small[i] = SmallPoint {
                mask: relevant,
                magic,
                shift,
                offset: u32::try_from(steps.len()).ok()?,
            };
            steps.extend(table);
        }
        let of_kind = |kind: PointKind| {
            (0..points.len())
                .filter(|&i| points[i].kind == kind)
                .fold(0u64, |m, i| m | 1 << i)
        };
        Some(SmallTables {
            points: small,
            steps,
            rail: rail_masks,
            rail_points: (0..points.len())
                .filter(|&i| points[i].rail)
                .fold(0u64, |m, i| m | 1 << i),
            camps: of_kind(PointKind::Camp),
            headquarters: of_kind(PointKind::Headquarters),
        })
    }
}

/// A straight run along one railway line from a point, in one direction.
#[derive(Clone, Copy, Debug)]
struct Ray {
    start: u16,
    len: u8,
}

/// A board: points, their road and railway connections.
#[derive(Debug)]
pub struct Board {
    name: &'static str,
    points: Vec<PointInfo>,
    sides: Vec<Side>,
    /// Per side, the point at (row - 1, col - 1).
    halves: Vec<[[Option<Point>; 5]; 6]>,
    road: Vec<ArrayVec<Point, 8>>,
    rail: Vec<ArrayVec<Point, 6>>,
    rays: Vec<ArrayVec<Ray, 6>>,
    ray_points: Vec<Point>,
    lines: Vec<Vec<Point>>,
    /// Per point, each railway line through it and its place on the line.
    on_lines: Vec<ArrayVec<(u8, u8), 3>>,
    /// Per line, `prefix[k]`: its first `k` points (k = 0 … length).
    line_prefixes: Vec<ArrayVec<PointSet, { MAX_LINE + 1 }>>,
    road_edges: Vec<(Point, Point)>,
    /// Per side, its 25 setup points (non-camp points of its half, by row then column).
    setup_points: Vec<Vec<Point>>,
    camps: PointSet,
    headquarters: PointSet,
    /// Four-player centre points by keypad number (index 1…9).
    centre: [Option<Point>; 10],
    road_masks: Vec<PointSet>,
    rail_masks: Vec<PointSet>,
    /// One-word tables when the board has at most 64 points.
    small: Option<SmallTables>,
}

/// How a point name failed to parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown point {name:?}: expected a side letter and row/column digits such as S53 or N13")]
pub struct PointNameError {
    /// The text that failed.
    pub name: String,
}

impl Board {
    /// The classic two-player board of RULES.md §2.
    pub fn classic() -> &'static Board {
        static CLASSIC: OnceLock<Board> = OnceLock::new();
        CLASSIC.get_or_init(build_classic)
    }

    /// The four-player board of BOARD4.md (129 points), the board of
    /// [`crate::Game::new_four`] and [`crate::Position::new_four`].
    pub fn four_player() -> &'static Board {
        static FOUR: OnceLock<Board> = OnceLock::new();
        FOUR.get_or_init(build_four_player)
    }

    /// A short name of this board.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Number of points.
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// Whether the board has no points (never true for a real board).
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// All points.
    pub fn points(&self) -> impl Iterator<Item = Point> + '_ {
        (0..self.points.len()).map(|i| Point(i as u8))
    }

    /// The sides that play on this board, in seating order.
    pub fn sides(&self) -> &[Side] {
        &self.sides
    }

    /// Fixed facts about a point.
    #[inline]
    pub fn info(&self, p: Point) -> &PointInfo {
        &self.points[p.index()]
    }

    /// The kind of a point.
    #[inline]
    pub fn kind(&self, p: Point) -> PointKind {
        self.points[p.index()].kind
    }

    /// Whether `p` is a camp.
    #[inline]
    pub fn is_camp(&self, p: Point) -> bool {
        self.camps.contains(p)
    }

    /// All camps.
    #[inline]
    pub fn camps_set(&self) -> PointSet {
        self.camps
    }

    /// All headquarters.
    #[inline]
    pub fn headquarters_set(&self) -> PointSet {
        self.headquarters
    }

    /// Whether `p` is a headquarters.
    #[inline]
    pub fn is_headquarters(&self, p: Point) -> bool {
        self.headquarters.contains(p)
    }

    /// Road neighbours as a set.
    #[inline]
    pub fn road_mask(&self, p: Point) -> &PointSet {
        &self.road_masks[p.index()]
    }

    /// One-word move-generation tables (boards of at most 64 points).
    #[inline(always)]
    pub(crate) fn small(&self) -> Option<&SmallTables> {
        self.small.as_ref()
    }

    /// Railway neighbours as a set.
    #[inline]
    pub fn rail_mask(&self, p: Point) -> &PointSet {
        &self.rail_masks[p.index()]
    }

    /// The point at row `row` (1 = front) and column `col` (1 = left) of `side`'s half.
    pub fn point(&self, side: Side, row: u8, col: u8) -> Option<Point> {
        let half = self.halves.get(self.side_slot(side)?)?;
        if !(1..=6).contains(&row) || !(1..=5).contains(&col) {
            return None;
        }
        half[row as usize - 1][col as usize - 1]
    }

    fn side_slot(&self, side: Side) -> Option<usize> {
        self.sides.iter().position(|&s| s == side)
    }

    /// The 25 points where `side` sets up its pieces (its half without camps),
    /// by row then column. A piece's slot in dark and open games is its index here.
    pub fn setup_points(&self, side: Side) -> &[Point] {
        self.side_slot(side)
            .map(|i| self.setup_points[i].as_slice())
            .unwrap_or(&[])
    }

    /// Road neighbours (one step; includes camp diagonals; excludes railway edges).
    #[inline]
    pub fn road_neighbours(&self, p: Point) -> &[Point] {
        &self.road[p.index()]
    }

    /// Railway neighbours (what an engineer may step to along the rails).
    #[inline]
    pub fn rail_neighbours(&self, p: Point) -> &[Point] {
        &self.rail[p.index()]
    }

    /// Straight railway runs from `p`, one per direction along each line through it.
    #[inline]
    pub fn rail_rays(&self, p: Point) -> impl Iterator<Item = &[Point]> + '_ {
        self.rays[p.index()]
            .iter()
            .map(|r| &self.ray_points[r.start as usize..r.start as usize + r.len as usize])
    }

    /// The railway lines through `p`, each with `p`'s place on it.
    #[inline(always)]
    pub(crate) fn lines_through(&self, p: Point) -> &[(u8, u8)] {
        &self.on_lines[p.index()]
    }

    /// The points of line `l` from place `lo` to place `hi`, both included.
    #[inline(always)]
    pub(crate) fn line_segment(&self, l: u8, lo: u8, hi: u8) -> PointSet {
        let prefix = &self.line_prefixes[l as usize];
        prefix[hi as usize + 1].difference(&prefix[lo as usize])
    }

    /// The railway lines, each a sequence of points a straight move follows.
    pub fn rail_lines(&self) -> &[Vec<Point>] {
        &self.lines
    }

    /// Every road edge once (for drawing).
    pub fn road_edges(&self) -> &[(Point, Point)] {
        &self.road_edges
    }

    /// Whether `a` and `b` are joined by a road edge.
    pub fn is_road_edge(&self, a: Point, b: Point) -> bool {
        self.road[a.index()].contains(&b)
    }

    /// Whether `to` is reachable from `from` in a straight line along one
    /// railway line with every point in between in `empty`.
    pub fn straight_rail_path(
        &self,
        from: Point,
        to: Point,
        empty: impl Fn(Point) -> bool,
    ) -> bool {
        self.rail_rays(from).any(|ray| {
            for &q in ray {
                if q == to {
                    return true;
                }
                if !empty(q) {
                    return false;
                }
            }
            false
        })
    }

    /// The point's name: side letter, row, column (`S53`), or `C` and the
    /// keypad number for a four-player centre point (`C5`).
    pub fn name_of(&self, p: Point) -> PointName {
        let i = self.info(p);
        PointName {
            half: i.half,
            row: i.row,
            col: i.col,
        }
    }

    /// The point's name as files write it: `S53` on the classic board,
    /// BOARD4.md's `S:35` and `C:5` on the four-player board.
    pub fn file_name_of(&self, p: Point) -> String {
        let name = self.name_of(p);
        if self.sides().len() < 4 {
            return name.to_string();
        }
        match name.half {
            Some(side) => format!("{}:{}{}", side.letter(), name.row, name.col),
            None => format!("C:{}", name.col),
        }
    }

    /// Parses a point name such as `S53`, `n13`, `E:35` or `C5`.
    pub fn parse_point(&self, s: &str) -> Result<Point, PointNameError> {
        let err = || PointNameError {
            name: s.to_string(),
        };
        let mut chars = s.trim().chars().filter(|&c| c != ':');
        let letter = chars.next().ok_or_else(err)?;
        let digits: Vec<u32> = chars
            .map(|c| c.to_digit(10))
            .collect::<Option<_>>()
            .ok_or_else(err)?;
        if letter.eq_ignore_ascii_case(&'C') {
            return match digits[..] {
                [k] => self
                    .centre
                    .get(k as usize)
                    .copied()
                    .flatten()
                    .ok_or_else(err),
                _ => Err(err()),
            };
        }
        let side = Side::from_letter(letter).ok_or_else(err)?;
        match digits[..] {
            [row, col] => self.point(side, row as u8, col as u8).ok_or_else(err),
            _ => Err(err()),
        }
    }

    /// The point facing `p` across the board (left-right mirrored within its half).
    pub fn mirror(&self, p: Point) -> Point {
        let i = self.info(p);
        i.half
            .and_then(|s| self.point(s, i.row, 6 - i.col))
            .unwrap_or(p)
    }
}

/// A printable point name.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PointName {
    /// The half (`None` for a four-player centre point).
    pub half: Option<Side>,
    /// Row within the half (0 for a centre point).
    pub row: u8,
    /// Column within the half (the keypad number 1…9 for a centre point).
    pub col: u8,
}

impl fmt::Display for PointName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.half {
            Some(side) => write!(f, "{}{}{}", side.letter(), self.row, self.col),
            None => write!(f, "C{}", self.col),
        }
    }
}

/// The kind of a point at (row, col) of a standard half.
fn half_kind(row: u8, col: u8) -> PointKind {
    match (row, col) {
        (2, 2) | (2, 4) | (3, 3) | (4, 2) | (4, 4) => PointKind::Camp,
        (6, 2) | (6, 4) => PointKind::Headquarters,
        _ => PointKind::Station,
    }
}

/// Whether (row, col) - (row2, col2) inside one half is a railway segment.
fn half_rail_edge(a: (u8, u8), b: (u8, u8)) -> bool {
    let same_row = a.0 == b.0 && a.1.abs_diff(b.1) == 1;
    let same_col = a.1 == b.1 && a.0.abs_diff(b.0) == 1;
    (same_row && (a.0 == 1 || a.0 == 5))
        || (same_col && (a.1 == 1 || a.1 == 5) && a.0.max(b.0) <= 5)
}

/// Builds a board from points, road edges and railway lines.
struct Builder {
    name: &'static str,
    points: Vec<PointInfo>,
    sides: Vec<Side>,
    halves: Vec<[[Option<Point>; 5]; 6]>,
    road_edges: Vec<(Point, Point)>,
    lines: Vec<Vec<Point>>,
}

impl Builder {
    /// Adds one standard 6 x 5 half; `place(row, col)` gives the drawing position.
    fn add_half(&mut self, side: Side, place: impl Fn(u8, u8) -> (f32, f32)) {
        let mut grid = [[None; 5]; 6];
        for row in 1..=6u8 {
            for col in 1..=5u8 {
                let (x, y) = place(row, col);
                let p = Point(self.points.len() as u8);
                let rail = row == 1 || row == 5 || ((col == 1 || col == 5) && row <= 5);
                self.points.push(PointInfo {
                    kind: half_kind(row, col),
                    half: Some(side),
                    row,
                    col,
                    x,
                    y,
                    rail,
                });
                grid[row as usize - 1][col as usize - 1] = Some(p);
            }
        }
        let at = |r: u8, c: u8| grid[r as usize - 1][c as usize - 1].expect("full grid");
        for row in 1..=6u8 {
            for col in 1..=5u8 {
                for (r2, c2) in [(row, col + 1), (row + 1, col)] {
                    if r2 <= 6 && c2 <= 5 && !half_rail_edge((row, col), (r2, c2)) {
                        self.road_edges.push((at(row, col), at(r2, c2)));
                    }
                }
                if half_kind(row, col) == PointKind::Camp {
                    for (dr, dc) in [(-1i8, -1i8), (-1, 1), (1, -1), (1, 1)] {
                        let (r2, c2) = ((row as i8 + dr) as u8, (col as i8 + dc) as u8);
                        self.road_edges.push((at(row, col), at(r2, c2)));
                    }
                }
            }
        }
        for row in [1u8, 5] {
            self.lines.push((1..=5).map(|c| at(row, c)).collect());
        }
        self.sides.push(side);
        self.halves.push(grid);
    }

    /// Adds a four-player centre point (keypad number `k`).
    fn add_centre(&mut self, k: u8, x: f32, y: f32) {
        self.points.push(PointInfo {
            kind: PointKind::Station,
            half: None,
            row: 0,
            col: k,
            x,
            y,
            rail: true,
        });
    }

    /// A railway line written as point names (`"S:13 C:8 C:5"`).
    fn line(&mut self, names: &str) {
        let line = names
            .split_whitespace()
            .map(|n| {
                let n = n.replace(':', "");
                let mut c = n.chars();
                let letter = c.next().expect("name");
                let digits: Vec<u8> = c.map(|d| d.to_digit(10).expect("digit") as u8).collect();
                if letter == 'C' {
                    let i = self
                        .points
                        .iter()
                        .position(|p| p.half.is_none() && p.col == digits[0])
                        .expect("centre point");
                    Point(i as u8)
                } else {
                    self.at(
                        Side::from_letter(letter).expect("side"),
                        digits[0],
                        digits[1],
                    )
                }
            })
            .collect();
        self.lines.push(line);
    }

    fn at(&self, side: Side, row: u8, col: u8) -> Point {
        let slot = self
            .sides
            .iter()
            .position(|&s| s == side)
            .expect("side added");
        self.halves[slot][row as usize - 1][col as usize - 1].expect("point exists")
    }

    fn finish(self) -> Board {
        let n = self.points.len();
        assert!(n <= MAX_POINTS, "board too large");
        let mut road: Vec<ArrayVec<Point, 8>> = vec![ArrayVec::new(); n];
        let mut road_edges = Vec::new();
        for &(a, b) in &self.road_edges {
            if !road[a.index()].contains(&b) {
                road[a.index()].push(b);
                road[b.index()].push(a);
                road_edges.push((a, b));
            }
        }
        let mut rail: Vec<ArrayVec<Point, 6>> = vec![ArrayVec::new(); n];
        let mut rays: Vec<ArrayVec<Ray, 6>> = vec![ArrayVec::new(); n];
        let mut ray_points = Vec::new();
        for line in &self.lines {
            for w in line.windows(2) {
                let (a, b) = (w[0], w[1]);
                if !rail[a.index()].contains(&b) {
                    rail[a.index()].push(b);
                    rail[b.index()].push(a);
                }
            }
            for (i, &p) in line.iter().enumerate() {
                let forward: Vec<Point> = line[i + 1..].to_vec();
                let backward: Vec<Point> = line[..i].iter().rev().copied().collect();
                for run in [forward, backward] {
                    if !run.is_empty() {
                        rays[p.index()].push(Ray {
                            start: ray_points.len() as u16,
                            len: run.len() as u8,
                        });
                        ray_points.extend(run);
                    }
                }
            }
        }
        let setup_points = self
            .halves
            .iter()
            .map(|grid| {
                grid.iter()
                    .flatten()
                    .flatten()
                    .copied()
                    .filter(|p| self.points[p.index()].kind != PointKind::Camp)
                    .collect()
            })
            .collect();
        let mut camps = PointSet::EMPTY;
        let mut headquarters = PointSet::EMPTY;
        for (i, info) in self.points.iter().enumerate() {
            match info.kind {
                PointKind::Camp => camps.insert(Point(i as u8)),
                PointKind::Headquarters => headquarters.insert(Point(i as u8)),
                PointKind::Station => false,
            };
        }
        let to_mask = |v: &[Point]| {
            let mut s = PointSet::EMPTY;
            for &p in v {
                s.insert(p);
            }
            s
        };
        let road_masks = road.iter().map(|v| to_mask(v)).collect();
        let rail_masks = rail.iter().map(|v| to_mask(v)).collect();
        let small = SmallTables::new(&self.points, &road, &rail, &self.lines);
        assert!(self.lines.len() <= MAX_LINES, "too many railway lines");
        let mut on_lines: Vec<ArrayVec<(u8, u8), 3>> = vec![ArrayVec::new(); n];
        let mut line_prefixes = Vec::new();
        for (l, line) in self.lines.iter().enumerate() {
            assert!(line.len() <= MAX_LINE, "railway line too long");
            let mut prefix = ArrayVec::new();
            let mut set = PointSet::EMPTY;
            prefix.push(set);
            for (i, &p) in line.iter().enumerate() {
                on_lines[p.index()].push((l as u8, i as u8));
                set.insert(p);
                prefix.push(set);
            }
            line_prefixes.push(prefix);
        }
        let mut centre = [None; 10];
        for (i, info) in self.points.iter().enumerate() {
            if info.half.is_none() {
                centre[info.col as usize] = Some(Point(i as u8));
            }
        }
        Board {
            small,
            centre,
            road_masks,
            rail_masks,
            camps,
            headquarters,
            name: self.name,
            points: self.points,
            sides: self.sides,
            halves: self.halves,
            road,
            rail,
            rays,
            ray_points,
            lines: self.lines,
            on_lines,
            line_prefixes,
            road_edges,
            setup_points,
        }
    }
}

/// The four-player board of BOARD4.md: four standard halves round a 3 x 3
/// centre of railway points, with curved corner railways.
fn build_four_player() -> Board {
    let mut b = Builder {
        name: "four-player",
        points: Vec::new(),
        sides: Vec::new(),
        halves: Vec::new(),
        road_edges: Vec::new(),
        lines: Vec::new(),
    };
    // BOARD4.md §1.3 places the board on a 17 x 17 grid with y growing south;
    // drawing coordinates here grow north, so y is flipped.
    let up = |x: u8, y: u8| (x as f32, 16.0 - y as f32);
    b.add_half(Side::South, |r, c| up(5 + c, 10 + r));
    b.add_half(Side::East, |r, c| up(10 + r, 11 - c));
    b.add_half(Side::North, |r, c| up(11 - c, 6 - r));
    b.add_half(Side::West, |r, c| up(6 - r, 5 + c));
    for k in 1..=9u8 {
        let (x, y) = up(6 + 2 * ((k - 1) % 3), 6 + 2 * ((k - 1) / 3));
        b.add_centre(k, x, y);
    }
    for line in [
        "S:13 C:8 C:5 C:2 N:13",
        "W:13 C:4 C:5 C:6 E:13",
        "S:51 S:41 S:31 S:21 S:11 C:7 C:4 C:1 N:15 N:25 N:35 N:45 N:55",
        "S:55 S:45 S:35 S:25 S:15 C:9 C:6 C:3 N:11 N:21 N:31 N:41 N:51",
        "W:51 W:41 W:31 W:21 W:11 C:1 C:2 C:3 E:15 E:25 E:35 E:45 E:55",
        "W:55 W:45 W:35 W:25 W:15 C:7 C:8 C:9 E:11 E:21 E:31 E:41 E:51",
        "S:55 S:45 S:35 S:25 S:15 E:11 E:21 E:31 E:41 E:51",
        "E:55 E:45 E:35 E:25 E:15 N:11 N:21 N:31 N:41 N:51",
        "N:55 N:45 N:35 N:25 N:15 W:11 W:21 W:31 W:41 W:51",
        "W:55 W:45 W:35 W:25 W:15 S:11 S:21 S:31 S:41 S:51",
    ] {
        b.line(line);
    }
    b.finish()
}

fn build_classic() -> Board {
    let mut b = Builder {
        name: "classic",
        points: Vec::new(),
        sides: Vec::new(),
        halves: Vec::new(),
        road_edges: Vec::new(),
        lines: Vec::new(),
    };
    // South sits at the bottom: its row 6 is y = 0; North faces it, so North's
    // column 1 is on South's right.
    b.add_half(Side::South, |r, c| (c as f32 - 1.0, 6.0 - r as f32));
    b.add_half(Side::North, |r, c| (5.0 - c as f32, 5.0 + r as f32));
    let (s, n) = (Side::South, Side::North);
    // The two long side railways: South's column 1 runs into North's column 5
    // and vice versa; column 3 crosses by a single segment.
    let left: Vec<Point> = (1..=5)
        .rev()
        .map(|r| b.at(s, r, 1))
        .chain((1..=5).map(|r| b.at(n, r, 5)))
        .collect();
    let right: Vec<Point> = (1..=5)
        .rev()
        .map(|r| b.at(s, r, 5))
        .chain((1..=5).map(|r| b.at(n, r, 1)))
        .collect();
    let middle = vec![b.at(s, 1, 3), b.at(n, 1, 3)];
    b.lines.extend([left, right, middle]);
    b.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(name: &str) -> Point {
        Board::classic().parse_point(name).unwrap()
    }

    fn names(ps: &[Point]) -> Vec<String> {
        let mut v: Vec<String> = ps
            .iter()
            .map(|&q| Board::classic().name_of(q).to_string())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn classic_board_has_60_points_with_the_right_kinds() {
        let b = Board::classic();
        assert_eq!(b.len(), 60);
        let camps = b.points().filter(|&q| b.kind(q) == PointKind::Camp).count();
        let hqs = b
            .points()
            .filter(|&q| b.kind(q) == PointKind::Headquarters)
            .count();
        assert_eq!((camps, hqs), (10, 4));
        assert_eq!(b.kind(p("S22")), PointKind::Camp);
        assert_eq!(b.kind(p("N33")), PointKind::Camp);
        assert_eq!(b.kind(p("S62")), PointKind::Headquarters);
        assert_eq!(b.kind(p("S63")), PointKind::Station);
        assert_eq!(b.setup_points(Side::South).len(), 25);
        assert_eq!(b.setup_points(Side::North).len(), 25);
    }

    #[test]
    fn point_names_round_trip() {
        let b = Board::classic();
        for q in b.points() {
            assert_eq!(b.parse_point(&b.name_of(q).to_string()), Ok(q));
        }
        assert!(b.parse_point("S73").is_err());
        assert!(b.parse_point("X11").is_err());
        assert!(b.parse_point("S1").is_err());
        assert!(b.parse_point("").is_err());
    }

    #[test]
    fn camp_33_has_eight_road_neighbours() {
        let b = Board::classic();
        assert_eq!(
            names(b.road_neighbours(p("S33"))),
            ["S22", "S23", "S24", "S32", "S34", "S42", "S43", "S44"]
        );
    }

    #[test]
    fn front_corner_is_rail_only_except_its_camp_diagonal() {
        let b = Board::classic();
        assert_eq!(names(b.road_neighbours(p("S11"))), ["S22"]);
        assert_eq!(names(b.rail_neighbours(p("S11"))), ["N15", "S12", "S21"]);
        assert_eq!(names(b.rail_neighbours(p("S13"))), ["N13", "S12", "S14"]);
    }

    #[test]
    fn headquarters_neighbours() {
        let b = Board::classic();
        assert_eq!(names(b.road_neighbours(p("S62"))), ["S52", "S61", "S63"]);
        assert!(b.rail_neighbours(p("S62")).is_empty());
        // Row 5 to row 6 is road, not railway.
        assert_eq!(names(b.road_neighbours(p("S51"))), ["S42", "S61"]);
    }

    #[test]
    fn columns_two_and_four_do_not_cross_the_mountain() {
        let b = Board::classic();
        for q in ["S12", "S14"] {
            assert!(
                b.rail_neighbours(p(q))
                    .iter()
                    .all(|&r| b.info(r).half == Some(Side::South))
            );
            assert!(
                b.road_neighbours(p(q))
                    .iter()
                    .all(|&r| b.info(r).half == Some(Side::South))
            );
        }
    }

    #[test]
    fn long_side_railway_is_straight_across_the_board() {
        let b = Board::classic();
        let ray: Vec<Point> = b
            .rail_rays(p("S51"))
            .find(|r| r.contains(&p("S41")))
            .unwrap()
            .to_vec();
        assert_eq!(ray.len(), 9);
        assert_eq!(*ray.last().unwrap(), p("N55"));
        assert!(b.straight_rail_path(p("S51"), p("N55"), |_| true));
        assert!(b.straight_rail_path(p("S51"), p("S55"), |_| true));
        assert!(!b.straight_rail_path(p("S51"), p("S15"), |_| true));
    }

    #[test]
    fn geometry_puts_facing_columns_together() {
        let b = Board::classic();
        assert_eq!(b.info(p("S11")).x, b.info(p("N15")).x);
        assert_eq!(b.info(p("S13")).x, b.info(p("N13")).x);
        assert!(b.info(p("N11")).y > b.info(p("S11")).y);
    }

    #[test]
    fn four_player_board_matches_board4_counts() {
        let b = Board::four_player();
        assert_eq!(b.len(), 129);
        let rail_points = b.points().filter(|&q| b.info(q).rail).count();
        assert_eq!(rail_points, 73);
        let rail_edges: usize = b
            .points()
            .map(|q| b.rail_neighbours(q).len())
            .sum::<usize>()
            / 2;
        assert_eq!(rail_edges, 92);
        assert_eq!(b.road_edges().len(), 196);
        assert_eq!(b.rail_lines().len(), 18);
        let camps = b.points().filter(|&q| b.kind(q) == PointKind::Camp).count();
        let hqs = b
            .points()
            .filter(|&q| b.kind(q) == PointKind::Headquarters)
            .count();
        assert_eq!((camps, hqs), (20, 8));
        // Degrees "all / railway" of BOARD4.md §4, the same for every half.
        let degrees: [[(usize, usize); 5]; 6] = [
            [(5, 4), (3, 2), (6, 3), (3, 2), (5, 4)],
            [(3, 2), (8, 0), (4, 0), (8, 0), (3, 2)],
            [(5, 2), (4, 0), (8, 0), (4, 0), (5, 2)],
            [(3, 2), (8, 0), (4, 0), (8, 0), (3, 2)],
            [(4, 2), (4, 2), (6, 2), (4, 2), (4, 2)],
            [(2, 0), (3, 0), (3, 0), (3, 0), (2, 0)],
        ];
        for side in [Side::South, Side::East, Side::North, Side::West] {
            for row in 1..=6u8 {
                for col in 1..=5u8 {
                    let q = b.point(side, row, col).unwrap();
                    let rail = b.rail_neighbours(q).len();
                    let all = rail + b.road_neighbours(q).len();
                    assert_eq!(
                        (all, rail),
                        degrees[row as usize - 1][col as usize - 1],
                        "{side} {row}{col}"
                    );
                }
            }
        }
        for k in 1..=9 {
            let c = b.parse_point(&format!("C{k}")).unwrap();
            assert_eq!(b.rail_neighbours(c).len(), 4);
            assert_eq!(b.name_of(c).to_string(), format!("C{k}"));
        }
        // BOARD4.md §3 examples: straight along a curve line; a turn at C7 is not.
        let p = |n: &str| b.parse_point(n).unwrap();
        assert!(b.straight_rail_path(p("S:35"), p("E:31"), |_| true));
        assert!(b.straight_rail_path(p("S:55"), p("N:51"), |_| true));
        assert!(b.straight_rail_path(p("S:13"), p("N:13"), |_| true));
        assert!(!b.straight_rail_path(p("S:11"), p("C:8"), |_| true));
        assert!(!b.straight_rail_path(p("S:12"), p("C:8"), |_| true));
    }

    #[test]
    fn road_and_rail_edges_never_overlap() {
        let b = Board::classic();
        for q in b.points() {
            for r in b.road_neighbours(q) {
                assert!(!b.rail_neighbours(q).contains(r));
            }
        }
        // 2 x (49 orthogonal - 16 rail + 16 diagonals)
        assert_eq!(b.road_edges().len(), 2 * (49 - 16 + 16));
    }

    #[test]
    fn point_set_len_counts_every_point() {
        let mut set = PointSet::EMPTY;
        assert_eq!(set.len(), 0);
        for i in 0..MAX_POINTS {
            set.insert(Point(i as u8));
            assert_eq!(set.len(), i + 1);
        }
        let mut odd = PointSet::EMPTY;
        for i in (1..MAX_POINTS).step_by(2) {
            odd.insert(Point(i as u8));
        }
        assert_eq!(odd.len(), MAX_POINTS / 2);
        assert_eq!(odd.iter().count(), odd.len());
    }

    #[test]
    fn nth_bit_finds_every_set_bit() {
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        let mut words = vec![0, 1, 1 << 63, u64::MAX, 0xFF00_0000_0000_00FF];
        for _ in 0..2_000 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            // Sparse and dense words.
            words.push(rng & rng >> 7 & rng >> 19);
            words.push(rng);
        }
        for word in words {
            let mut bits = word;
            let mut k = 0;
            while bits != 0 {
                assert_eq!(nth_bit(word, k), bits.trailing_zeros(), "{word:#x} {k}");
                bits &= bits - 1;
                k += 1;
            }
        }
    }

    #[test]
    fn the_stored_classic_multipliers_are_what_the_search_finds() {
        let b = Board::classic();
        let mut found = Vec::new();
        for p in b.points() {
            let road = b.road_neighbours(p).iter().fold(0u64, |m, q| m | 1 << q.0);
            let mask = relevant_mask(p, b.rail_lines());
            let value = |occ| walk_targets(p, road, b.rail_lines(), occ);
            let (magic, shift, _) = find_magic(mask, value, &[]).expect("a multiplier");
            if mask != 0 {
                found.push((mask, magic, shift));
            }
        }
        assert_eq!(found, CLASSIC_MAGICS);
    }

    #[test]
    fn step_tables_find_the_first_blocker_both_ways() {
        let b = Board::classic();
        let small = b.small().expect("the classic board fits one word");
        assert!(Board::four_player().small().is_none());
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        for p in b.points() {
            // Every occupancy of the point's lines (ends included), with
            // other points occupied at random.
            let lines: u64 = b
                .rail_lines()
                .iter()
                .filter(|line| line.contains(&p))
                .flatten()
                .fold(0, |m, q| m | 1 << q.0);
            let mut sub = 0u64;
            loop {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                let occupied = sub | (rng & !lines & ((1 << b.len()) - 1));
                // Walk each ray separately (independently of `walk_targets`).
                let mut expected = 0u64;
                for q in b.road_neighbours(p) {
                    expected |= 1 << q.0;
                }
                for ray in b.rail_rays(p) {
                    for q in ray {
                        expected |= 1 << q.0;
                        if occupied & 1 << q.0 != 0 {
                            break;
                        }
                    }
                }
                assert_eq!(
                    small.step_targets(p.index(), occupied),
                    expected,
                    "point {} occupancy {occupied:#x}",
                    b.name_of(p)
                );
                sub = sub.wrapping_sub(lines) & lines;
                if sub == 0 {
                    break;
                }
            }
        }
    }
}
