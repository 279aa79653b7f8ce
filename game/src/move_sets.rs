//! [`MoveSets`]: the legal moves grouped by piece, cheap to build, count
//! and index (what random playouts use), and the generator's sink that
//! fills them.

use crate::board::{MAX_POINTS, Point, PointSet, nth_bit};
use crate::moves::Move;
use crate::targets::{TargetSink, Targets};

/// The legal moves grouped by piece (see [`crate::Position::legal_move_sets`]):
/// each movable piece's point with the set of points it may move to, and the
/// face-down pieces that may be flipped. Like the bitboard move sets of chess
/// libraries, it is cheap to build and to count; [`MoveSets::get`] and
/// [`MoveSets::iter`] give the moves in [`crate::Position::legal_moves`] order.
#[derive(Clone, Debug)]
pub struct MoveSets {
    /// Entries `0..pieces` are the pieces that have a step.
    pieces: usize,
    from: [Point; MAX_POINTS],
    /// `ends[i + 1]`: the number of steps of the pieces up to and including
    /// entry `i`; `ends[0]` is 0.
    ends: [u16; MAX_POINTS + 1],
    /// The targets, as one word each on a board of at most 64 points.
    low: [u64; MAX_POINTS],
    /// The targets on larger boards.
    targets: [PointSet; MAX_POINTS],
    /// Whether `low` holds the targets (else `targets`).
    small: bool,
    flips: PointSet,
    len: usize,
}

impl Default for MoveSets {
    fn default() -> MoveSets {
        MoveSets {
            pieces: 0,
            from: [Point(0); MAX_POINTS],
            ends: [0; MAX_POINTS + 1],
            low: [0; MAX_POINTS],
            targets: [PointSet::EMPTY; MAX_POINTS],
            small: true,
            flips: PointSet::EMPTY,
            len: 0,
        }
    }
}

impl MoveSets {
    /// No moves.
    pub fn new() -> MoveSets {
        MoveSets::default()
    }

    /// Removes every move.
    pub fn clear(&mut self) {
        self.pieces = 0;
        self.flips = PointSet::EMPTY;
        self.len = 0;
    }

    /// The number of legal moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there is no legal move.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The `k`-th move in [`crate::Position::legal_moves`] order (`None` if `k >= len`).
    pub fn get(&self, k: usize) -> Option<Move> {
        let n = self.pieces.min(MAX_POINTS);
        let steps = self.ends[n] as usize;
        if k >= steps {
            return self.flips.nth(k - steps).map(|at| Move::Flip { at });
        }
        // The piece: the first whose steps end after `k` (a binary search
        // whose steps depend only on `n`, with a conditional move).
        let ends = &self.ends[1..=n];
        let (mut i, mut len) = (0, n);
        while len > 1 {
            let half = len / 2;
            i = std::hint::select_unpredictable(ends[i + half - 1] as usize <= k, i + half, i);
            len -= half;
        }
        let k = k - self.ends[i] as usize;
        let to = if self.small {
            Point(nth_bit(self.low[i], k) as u8)
        } else {
            self.targets[i].nth(k)?
        };
        Some(Move::Step {
            from: self.from[i],
            to,
        })
    }

    /// The targets of entry `i`.
    #[inline]
    fn targets_of(&self, i: usize) -> PointSet {
        if self.small {
            PointSet::from_low_word(self.low[i])
        } else {
            self.targets[i]
        }
    }

    /// Each piece that has a step with the points it may step to, by point.
    pub fn steps(&self) -> impl Iterator<Item = (Point, PointSet)> + '_ {
        let n = self.pieces.min(MAX_POINTS);
        (0..n).map(|i| (self.from[i], self.targets_of(i)))
    }

    /// The face-down pieces that may be flipped.
    pub fn flips(&self) -> PointSet {
        self.flips
    }

    /// Whether `m` is one of the moves.
    pub fn contains(&self, m: Move) -> bool {
        match m {
            Move::Step { from, to } => self
                .steps()
                .any(|(f, t)| f == from && to.index() < MAX_POINTS && t.contains(to)),
            Move::Flip { at } => at.index() < MAX_POINTS && self.flips.contains(at),
        }
    }

    /// The moves in [`crate::Position::legal_moves`] order.
    pub fn iter(&self) -> impl Iterator<Item = Move> + '_ {
        self.steps()
            .flat_map(|(from, mut targets)| {
                std::iter::from_fn(move || {
                    let to = targets.nth(0)?;
                    targets.remove(to);
                    Some(Move::Step { from, to })
                })
            })
            .chain(self.flips.iter().map(|at| Move::Flip { at }))
    }

    /// A sink that fills these sets from the generator, for a board with
    /// one-word target sets (`small`) or not; [`SetsWriter::finish`] adds
    /// the flips.
    pub(crate) fn writer(&mut self, small: bool) -> SetsWriter<'_> {
        self.clear();
        self.small = small;
        SetsWriter {
            out: self,
            pieces: 0,
            len: 0,
        }
    }
}

/// Fills a [`MoveSets`], with its counters in locals (registers) while the
/// generator runs.
pub(crate) struct SetsWriter<'a> {
    out: &'a mut MoveSets,
    pieces: usize,
    len: usize,
}

impl TargetSink for SetsWriter<'_> {
    #[inline(always)]
    fn piece(&mut self, from: Point, targets: impl Targets) -> bool {
        // Branch-free: the entry is kept only when the piece has a target
        // (there are never more pieces than points).
        let count = targets.count();
        let i = self.pieces;
        self.len += count;
        self.out.from[i] = from;
        self.out.ends[i + 1] = self.len as u16;
        targets.store(&mut self.out.low[i], &mut self.out.targets[i]);
        self.pieces += (count != 0) as usize;
        true
    }
}

impl SetsWriter<'_> {
    /// Stores the counters and adds the face-down pieces `flips` may turn over.
    pub(crate) fn finish(self, flips: PointSet) {
        self.out.pieces = self.pieces;
        self.out.len = self.len + flips.len();
        self.out.flips = flips;
    }
}
