//! The board as a graph: points, road edges, railway lines.
//!
//! The two-player board of RULES.md §2 is one instance ([`Board::classic`]);
//! the four-player board of BOARD4.md is another instance of the same type
//! ([`Board::four_player`]). Everything board-specific lives in the
//! construction data (`build`), not in the move generator.

use crate::piece::Side;
use arrayvec::ArrayVec;

mod build;
mod magics;
mod point;
mod point_name;
pub(crate) mod point_serde;
mod point_set;

pub(crate) use magics::SmallTables;
pub use point::{MAX_POINTS, Point, PointInfo, PointKind};
pub use point_name::{PointName, PointNameError};
pub use point_set::PointSet;
pub(crate) use point_set::nth_bit;

/// The most railway lines a board has (the four-player board has 18).
pub(crate) const MAX_LINES: usize = 18;

/// The most points on one railway line (the long four-player lines have 13).
pub(crate) const MAX_LINE: usize = 13;

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

impl Board {
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

#[cfg(test)]
mod tests;
