//! The one-word move-generation tables of boards of at most 64 points
//! ([`SmallTables`]) and the search for their multiply-shift ("magic")
//! lookups.

use super::point::{Point, PointInfo, PointKind};
use arrayvec::ArrayVec;

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
pub(super) fn walk_targets(p: Point, road: u64, lines: &[Vec<Point>], occupied: u64) -> u64 {
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
pub(super) const CLASSIC_MAGICS: [(u64, u64, u32); 32] = [
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
pub(super) fn fill_magic(
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
pub(super) fn relevant_mask(p: Point, lines: &[Vec<Point>]) -> u64 {
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
pub(super) fn find_magic(
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
    pub(super) fn new(
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
