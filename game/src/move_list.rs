//! [`MoveList`]: the legal moves of a position, in a list that cannot
//! overflow.
//!
//! No fixed capacity holds every position: with flying bombs a side on the
//! four-player board can have over 500 legal moves with a valid army, and a
//! position built by hand may hold any number of pieces. The list keeps the
//! first [`MAX_MOVES`] moves inline (so generating the moves of any position
//! of an ordinary game does not allocate) and moves to the heap beyond that.

use crate::moves::Move;
use arrayvec::ArrayVec;
use std::ops::{Deref, DerefMut};

/// How many moves a [`MoveList`] holds without allocating. Not a bound on
/// the number of legal moves: a longer list grows on the heap.
pub const MAX_MOVES: usize = 384;

/// A list of moves; generating it allocates only past [`MAX_MOVES`] moves.
/// It derefs to a slice of moves.
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct MoveList {
    /// The moves while there are at most [`MAX_MOVES`]; empty once spilled.
    inline: ArrayVec<Move, MAX_MOVES>,
    /// The moves once there were more than [`MAX_MOVES`] (then never empty
    /// until [`MoveList::clear`]).
    heap: Vec<Move>,
}

impl MoveList {
    /// An empty list.
    pub fn new() -> MoveList {
        MoveList::default()
    }

    /// Whether the moves live on the heap.
    #[inline(always)]
    fn spilled(&self) -> bool {
        !self.heap.is_empty()
    }

    /// Appends a move.
    #[inline]
    pub fn push(&mut self, m: Move) {
        if self.spilled() {
            self.heap.push(m);
        } else if let Err(full) = self.inline.try_push(m) {
            self.heap.reserve(2 * MAX_MOVES);
            self.heap.extend(self.inline.drain(..));
            self.heap.push(full.element());
        }
    }

    /// Removes every move (keeps the heap's allocation for reuse).
    #[inline]
    pub fn clear(&mut self) {
        self.inline.clear();
        self.heap.clear();
    }

    /// Keeps only the moves for which `keep` is true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&mut Move) -> bool) {
        if self.spilled() {
            self.heap.retain_mut(|m| keep(m));
            if self.heap.len() <= MAX_MOVES {
                // Back inline, so that "spilled" keeps meaning "heap non-empty".
                self.inline.extend(self.heap.drain(..));
            }
        } else {
            self.inline.retain(keep);
        }
    }

    /// Shortens the list to at most `len` moves.
    pub fn truncate(&mut self, len: usize) {
        self.retain({
            let mut i = 0;
            move |_| {
                i += 1;
                i <= len
            }
        });
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        if self.spilled() {
            &self.heap
        } else {
            &self.inline
        }
    }

    /// The moves as a mutable slice.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        if self.spilled() {
            &mut self.heap
        } else {
            &mut self.inline
        }
    }
}

impl Deref for MoveList {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl DerefMut for MoveList {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Move] {
        self.as_mut_slice()
    }
}

impl std::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Extend<Move> for MoveList {
    fn extend<I: IntoIterator<Item = Move>>(&mut self, moves: I) {
        for m in moves {
            self.push(m);
        }
    }
}

impl FromIterator<Move> for MoveList {
    fn from_iter<I: IntoIterator<Item = Move>>(moves: I) -> MoveList {
        let mut out = MoveList::new();
        out.extend(moves);
        out
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl IntoIterator for MoveList {
    type Item = Move;
    type IntoIter = std::iter::Chain<arrayvec::IntoIter<Move, MAX_MOVES>, std::vec::IntoIter<Move>>;
    /// The moves in order (one part is always empty).
    fn into_iter(self) -> Self::IntoIter {
        self.inline.into_iter().chain(self.heap)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Point;

    fn step(i: usize) -> Move {
        Move::Step {
            from: Point((i % 200) as u8),
            to: Point((i / 200) as u8),
        }
    }

    #[test]
    fn grows_past_the_inline_capacity_and_keeps_the_order() {
        for n in [0, 1, MAX_MOVES - 1, MAX_MOVES, MAX_MOVES + 1, 3 * MAX_MOVES] {
            let mut list = MoveList::new();
            for i in 0..n {
                list.push(step(i));
            }
            let want: Vec<Move> = (0..n).map(step).collect();
            assert_eq!(list.len(), n);
            assert_eq!(list.as_slice(), &want[..]);
            assert_eq!(list.clone().into_iter().collect::<Vec<_>>(), want);
            assert_eq!((0..n).map(step).collect::<MoveList>(), list);
            // Keeping every third move, then dropping to a prefix.
            let mut kept = list.clone();
            let mut i = 0;
            kept.retain(|_| {
                i += 1;
                i % 3 == 1
            });
            let third: Vec<Move> = want.iter().copied().step_by(3).collect();
            assert_eq!(&kept[..], &third[..]);
            kept.truncate(5);
            assert_eq!(&kept[..], &third[..third.len().min(5)]);
            // A cleared list is empty and fills again from the start.
            list.clear();
            assert!(list.is_empty());
            list.push(step(7));
            assert_eq!(&list[..], &[step(7)]);
        }
    }
}
