//! The flip-game (翻棋) shuffle: two layered permutations nobody controls alone.
//!
//! The 50 pieces have fixed ids with a public (colour, rank) table
//! ([`piece_of`], the engine's numbering of `junqi_game::Position::new_flip`;
//! the first flip may swap which player owns which colour). The shuffle
//! index of a point is its place among South's 25 setup points, then
//! North's. The host draws `σA: slot → piece` (layer 0), the guest
//! `σB: point → slot` (layer 1), each from its seed, and commits to every entry
//! separately: `H("junqi v1 flip", game_id, layer, index, value, salt)`. To flip
//! point `p` the guest opens entry `p` of `σB`, giving slot `j`, and the host
//! opens entry `j` of `σA`, giving the piece `σA(σB(p))`. Neither knows or can
//! steer what lies under a face-down point. An opening that does not match its
//! commitment, or a value opened for two different indices, blames the layer's
//! owner; at the end the seeds are revealed and both maps checked to be
//! permutations.

use serde::{Deserialize, Serialize};

use crate::crypto::{Digest, Seed, ctx, h, uniform_below};
use crate::rank::Seat;

/// Number of face-down pieces and of non-camp points.
pub const FLIP_SIZE: usize = 50;

/// The public piece table: ids `0..25` are the first colour's army in the
/// engine's rank order, `25..50` the second colour's (colour index `id / 25`,
/// rank `junqi_game::Rank::army()[id % 25]`).
#[must_use]
pub fn piece_of(id: u8) -> Option<(usize, junqi_game::Rank)> {
    let i = usize::from(id);
    (i < FLIP_SIZE).then(|| (i / 25, junqi_game::Rank::army()[i % 25]))
}

/// The layer a seat owns: the host's `σA` is layer 0, the guest's `σB` layer 1.
#[must_use]
pub fn layer_of(seat: Seat) -> u8 {
    seat.code()
}

/// A permutation of `0..50` from the seed (Fisher–Yates on PRF output).
#[must_use]
pub fn permutation(seed: &Seed, layer: u8) -> [u8; FLIP_SIZE] {
    let mut p: [u8; FLIP_SIZE] = std::array::from_fn(|i| i as u8);
    let mut stream = seed.prf_stream("flip perm", &[&[layer]]);
    for i in (1..FLIP_SIZE).rev() {
        let j = uniform_below(&mut stream, i as u32 + 1) as usize;
        p.swap(i, j);
    }
    p
}

/// The salt of entry `index` of a layer.
#[must_use]
pub fn entry_salt(seed: &Seed, layer: u8, index: u8) -> [u8; 32] {
    seed.prf_bytes("flip salt", &[&[layer], &[index]])
}

/// `H("junqi v1 flip", game_id, layer, index, value, salt)`.
#[must_use]
pub fn entry_commitment(
    game_id: &Digest,
    layer: u8,
    index: u8,
    value: u8,
    salt: &[u8; 32],
) -> Digest {
    h(ctx::FLIP, &[game_id, &[layer], &[index], &[value], salt])
}

/// The opening of one entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FlipOpening {
    /// The entry's index (a point for layer 1, a slot for layer 0).
    pub index: u8,
    /// Its value (a slot for layer 1, a piece id for layer 0).
    pub value: u8,
    /// Its salt.
    pub salt: [u8; 32],
}

/// One's own layer: the permutation and its commitments.
#[derive(Clone, Debug)]
pub struct FlipLayer {
    layer: u8,
    perm: [u8; FLIP_SIZE],
    salts: Vec<[u8; 32]>,
    commitments: Vec<Digest>,
}

impl FlipLayer {
    /// Draws and commits to layer `layer` from the seed.
    #[must_use]
    pub fn new(seed: &Seed, game_id: &Digest, layer: u8) -> Self {
        let perm = permutation(seed, layer);
        let salts: Vec<_> = (0..FLIP_SIZE as u8)
            .map(|i| entry_salt(seed, layer, i))
            .collect();
        let commitments = (0..FLIP_SIZE)
            .map(|i| entry_commitment(game_id, layer, i as u8, perm[i], &salts[i]))
            .collect();
        FlipLayer {
            layer,
            perm,
            salts,
            commitments,
        }
    }

    /// A layer committing to arbitrary `values` (not necessarily a
    /// permutation) with the seed's salts: scripted cheaters only.
    #[doc(hidden)]
    #[must_use]
    pub fn with_values(seed: &Seed, game_id: &Digest, layer: u8, values: [u8; FLIP_SIZE]) -> Self {
        let salts: Vec<_> = (0..FLIP_SIZE as u8)
            .map(|i| entry_salt(seed, layer, i))
            .collect();
        let commitments = (0..FLIP_SIZE)
            .map(|i| entry_commitment(game_id, layer, i as u8, values[i], &salts[i]))
            .collect();
        FlipLayer {
            layer,
            perm: values,
            salts,
            commitments,
        }
    }

    /// The 50 commitments, sent with the setup commitment.
    #[must_use]
    pub fn commitments(&self) -> &[Digest] {
        &self.commitments
    }

    /// The layer number.
    #[must_use]
    pub fn layer(&self) -> u8 {
        self.layer
    }

    /// Opens entry `index`.
    #[must_use]
    pub fn open(&self, index: u8) -> Option<FlipOpening> {
        let i = index as usize;
        (i < FLIP_SIZE).then(|| FlipOpening {
            index,
            value: self.perm[i],
            salt: self.salts[i],
        })
    }
}

/// Why an opening is refused. Every variant blames the layer's owner.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FlipError {
    /// Index or value out of range.
    #[error("flip opening out of range")]
    OutOfRange,
    /// The opening does not match the committed entry.
    #[error("flip opening for entry {0} does not match its commitment")]
    BadOpening(u8),
    /// The same value was opened for two indices: not a permutation.
    #[error("value {value} opened for entries {first} and {second}")]
    ValueTwice {
        /// The value.
        value: u8,
        /// The entry that opened it first.
        first: u8,
        /// The entry that opened it again.
        second: u8,
    },
    /// The wrong entry was opened.
    #[error("entry {got} opened, {want} was asked for")]
    WrongIndex {
        /// Opened.
        got: u8,
        /// Asked for.
        want: u8,
    },
    /// The revealed seed does not reproduce the committed layer.
    #[error("the revealed seed does not reproduce the committed layer")]
    SeedMismatch,
    /// The peer sent the wrong number of commitments.
    #[error("{0} flip commitments instead of {FLIP_SIZE}")]
    CommitmentCount(usize),
}

/// Checks the peer's openings of one layer as they arrive.
#[derive(Clone, Debug)]
pub struct FlipVerifier {
    game_id: Digest,
    layer: u8,
    commitments: Vec<Digest>,
    opened_by_value: [Option<u8>; FLIP_SIZE],
}

impl FlipVerifier {
    /// A verifier for the peer's `layer` with its 50 commitments.
    ///
    /// # Errors
    /// Not exactly 50 commitments.
    pub fn new(game_id: Digest, layer: u8, commitments: Vec<Digest>) -> Result<Self, FlipError> {
        if commitments.len() != FLIP_SIZE {
            return Err(FlipError::CommitmentCount(commitments.len()));
        }
        Ok(FlipVerifier {
            game_id,
            layer,
            commitments,
            opened_by_value: [None; FLIP_SIZE],
        })
    }

    /// Checks the opening of entry `want` and returns its value.
    ///
    /// # Errors
    /// A mismatch, wrong index or a value already opened elsewhere.
    pub fn check(&mut self, want: u8, o: &FlipOpening) -> Result<u8, FlipError> {
        if o.index as usize >= FLIP_SIZE || o.value as usize >= FLIP_SIZE {
            return Err(FlipError::OutOfRange);
        }
        if o.index != want {
            return Err(FlipError::WrongIndex { got: o.index, want });
        }
        if entry_commitment(&self.game_id, self.layer, o.index, o.value, &o.salt)
            != self.commitments[o.index as usize]
        {
            return Err(FlipError::BadOpening(o.index));
        }
        match self.opened_by_value[o.value as usize] {
            Some(first) if first != o.index => {
                return Err(FlipError::ValueTwice {
                    value: o.value,
                    first,
                    second: o.index,
                });
            }
            _ => self.opened_by_value[o.value as usize] = Some(o.index),
        }
        Ok(o.value)
    }

    /// End-of-game check: the revealed seed reproduces every commitment (and
    /// so the layer is a permutation).
    ///
    /// # Errors
    /// [`FlipError::SeedMismatch`].
    pub fn audit(&self, seed: &Seed) -> Result<(), FlipError> {
        let layer = FlipLayer::new(seed, &self.game_id, self.layer);
        if layer.commitments != self.commitments {
            return Err(FlipError::SeedMismatch);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_table_is_two_armies() {
        use junqi_game::Rank;
        assert_eq!(piece_of(0), Some((0, Rank::Commander)));
        assert_eq!(piece_of(24), Some((0, Rank::Flag)));
        assert_eq!(piece_of(25), Some((1, Rank::Commander)));
        assert_eq!(piece_of(50), None);
        let ranks: Vec<Rank> = (0..25).filter_map(|i| piece_of(i).map(|p| p.1)).collect();
        assert_eq!(ranks, Rank::army());
    }

    #[test]
    fn permutations_are_permutations_and_differ() {
        let p = permutation(&Seed([1; 32]), 0);
        let mut s = p.to_vec();
        s.sort_unstable();
        assert_eq!(s, (0..50).collect::<Vec<u8>>());
        assert_ne!(p, permutation(&Seed([1; 32]), 1));
        assert_ne!(p, permutation(&Seed([2; 32]), 0));
    }

    #[test]
    fn full_deal_is_a_bijection_and_verifies() {
        let gid = [3; 32];
        let (sa, sb) = (Seed([1; 32]), Seed([2; 32]));
        let a = FlipLayer::new(&sa, &gid, 0);
        let b = FlipLayer::new(&sb, &gid, 1);
        let mut va = FlipVerifier::new(gid, 0, a.commitments().to_vec()).unwrap();
        let mut vb = FlipVerifier::new(gid, 1, b.commitments().to_vec()).unwrap();
        let mut pieces = Vec::new();
        for p in 0..50 {
            let slot = vb.check(p, &b.open(p).unwrap()).unwrap();
            pieces.push(va.check(slot, &a.open(slot).unwrap()).unwrap());
        }
        pieces.sort_unstable();
        assert_eq!(pieces, (0..50).collect::<Vec<u8>>());
        va.audit(&sa).unwrap();
        assert_eq!(vb.audit(&sa), Err(FlipError::SeedMismatch));
    }

    #[test]
    fn cheating_openings_blamed() {
        let gid = [3; 32];
        let b = FlipLayer::new(&Seed([2; 32]), &gid, 1);
        let mut vb = FlipVerifier::new(gid, 1, b.commitments().to_vec()).unwrap();
        let o = b.open(4).unwrap();
        // Steering: open point 4 to another slot.
        let steered = FlipOpening {
            value: (o.value + 1) % 50,
            ..o
        };
        assert_eq!(vb.check(4, &steered), Err(FlipError::BadOpening(4)));
        assert_eq!(
            vb.check(5, &o),
            Err(FlipError::WrongIndex { got: 4, want: 5 })
        );
        assert_eq!(vb.check(4, &o), Ok(o.value));
        // Re-opening the same entry is harmless; a forged layer that maps two
        // points to one slot is caught.
        assert_eq!(vb.check(4, &o), Ok(o.value));
        let gid2 = [4; 32];
        let salt = [0; 32];
        let mut commits: Vec<Digest> = (0..50)
            .map(|i| entry_commitment(&gid2, 1, i, i, &salt))
            .collect();
        commits[7] = entry_commitment(&gid2, 1, 7, 3, &salt);
        let mut v = FlipVerifier::new(gid2, 1, commits).unwrap();
        v.check(
            3,
            &FlipOpening {
                index: 3,
                value: 3,
                salt,
            },
        )
        .unwrap();
        assert_eq!(
            v.check(
                7,
                &FlipOpening {
                    index: 7,
                    value: 3,
                    salt
                }
            ),
            Err(FlipError::ValueTwice {
                value: 3,
                first: 3,
                second: 7
            })
        );
    }
}
