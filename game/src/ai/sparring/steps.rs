//! Steps between points along roads and railways (one a hop), the sparring
//! partners' own table for their distance terms.

use crate::{Board, Point};
use std::sync::OnceLock;

/// Hops between every two points of one board.
pub struct Steps {
    n: usize,
    hops: Vec<u8>,
}

impl Steps {
    fn of(board: &Board) -> Steps {
        let n = board.len();
        let mut hops = vec![u8::MAX; n * n];
        let mut queue = Vec::with_capacity(n);
        for start in board.points() {
            let row = start.index() * n;
            hops[row + start.index()] = 0;
            queue.clear();
            queue.push(start);
            let mut head = 0;
            while let Some(&p) = queue.get(head) {
                head += 1;
                let d = hops[row + p.index()];
                for &q in board
                    .road_neighbours(p)
                    .iter()
                    .chain(board.rail_neighbours(p))
                {
                    if hops[row + q.index()] == u8::MAX {
                        hops[row + q.index()] = d + 1;
                        queue.push(q);
                    }
                }
            }
        }
        Steps { n, hops }
    }

    /// Hops from `a` to `b`.
    #[inline]
    pub fn between(&self, a: Point, b: Point) -> u8 {
        self.hops[a.index() * self.n + b.index()]
    }
}

/// The table of `board` (built once per board).
pub fn steps(board: &'static Board) -> &'static Steps {
    static CLASSIC: OnceLock<Steps> = OnceLock::new();
    static FOUR: OnceLock<Steps> = OnceLock::new();
    if std::ptr::eq(board, Board::classic()) {
        CLASSIC.get_or_init(|| Steps::of(board))
    } else {
        FOUR.get_or_init(|| Steps::of(board))
    }
}
