//! What the move generator hands out: each movable piece's target points
//! ([`Targets`], one word or a [`PointSet`]) to a [`TargetSink`] that lists,
//! counts or looks for moves.

use crate::board::{Point, PointSet};
use crate::move_list::MoveList;
use crate::moves::Move;

/// A set of target points as the generator produces it: one word on boards
/// of at most 64 points, a [`PointSet`] otherwise.
pub(crate) trait Targets: Copy {
    fn is_empty(self) -> bool;
    fn count(self) -> usize;
    /// Stores the set in the slot its representation uses.
    fn store(self, low: &mut u64, set: &mut PointSet);
    fn for_each(self, f: impl FnMut(Point));
}

impl Targets for u64 {
    #[inline(always)]
    fn is_empty(self) -> bool {
        self == 0
    }
    #[inline(always)]
    fn count(self) -> usize {
        self.count_ones() as usize
    }
    #[inline(always)]
    fn store(self, low: &mut u64, _set: &mut PointSet) {
        *low = self;
    }
    #[inline(always)]
    fn for_each(self, mut f: impl FnMut(Point)) {
        let mut bits = self;
        while bits != 0 {
            f(Point(bits.trailing_zeros() as u8));
            bits &= bits - 1;
        }
    }
}

impl Targets for PointSet {
    #[inline(always)]
    fn is_empty(self) -> bool {
        PointSet::is_empty(&self)
    }
    #[inline(always)]
    fn count(self) -> usize {
        self.len()
    }
    #[inline(always)]
    fn store(self, _low: &mut u64, set: &mut PointSet) {
        *set = self;
    }
    #[inline(always)]
    fn for_each(self, f: impl FnMut(Point)) {
        PointSet::for_each(&self, f)
    }
}

/// Receives each movable piece's targets from the generator.
pub(crate) trait TargetSink {
    /// Takes the targets of the piece on `from`; `false` stops the generator.
    fn piece(&mut self, from: Point, targets: impl Targets) -> bool;
}

impl TargetSink for MoveList {
    #[inline(always)]
    fn piece(&mut self, from: Point, targets: impl Targets) -> bool {
        targets.for_each(|to| self.push(Move::Step { from, to }));
        true
    }
}

/// Counts the targets.
pub(crate) struct CountTargets(pub(crate) usize);

impl TargetSink for CountTargets {
    #[inline(always)]
    fn piece(&mut self, _from: Point, targets: impl Targets) -> bool {
        self.0 += targets.count();
        true
    }
}

/// Stops at the first piece with a target.
pub(crate) struct AnyTarget(pub(crate) bool);

impl TargetSink for AnyTarget {
    #[inline(always)]
    fn piece(&mut self, _from: Point, targets: impl Targets) -> bool {
        self.0 = !targets.is_empty();
        !self.0
    }
}
