//! Building boards: the classic board of RULES.md §2 and the four-player
//! board of BOARD4.md from standard halves, road edges and railway lines.

use super::magics::SmallTables;
use super::point::{MAX_POINTS, Point, PointInfo, PointKind};
use super::point_set::PointSet;
use super::{Board, MAX_LINE, MAX_LINES, Ray};
use crate::piece::Side;
use arrayvec::ArrayVec;
use std::sync::OnceLock;

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
