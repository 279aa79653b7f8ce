//! Tests of the boards, point sets and magic tables.

use super::*;
use crate::board::magics::{CLASSIC_MAGICS, find_magic, relevant_mask, walk_targets};

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
