//! Setup commitments: one per starting square, one to the game seed.
//!
//! `C_s = H("junqi v1 piece", game_id, player, s, r, salt_s)` with
//! `salt_s = PRF(seed, "piece salt", s)`: 256-bit salts, never shared between
//! squares (FAIRPLAY.md pitfall 1), so a commitment to one of 12 ranks cannot be
//! brute-forced. Squares are the 30 points of a player's own half in its own
//! coordinates (`0..30`), so the same number means the same point to both sides
//! once the protocol maps halves.

use serde::{Deserialize, Serialize};

use crate::crypto::{Digest, Seed, ctx, h};
use crate::rank::{Seat, WireRank};

/// Who owns a commitment: its wire code goes into every piece and seed
/// commitment (a two-player [`Seat`] or a four-seat table's
/// [`crate::four::FourSeat`]; the game id keeps the two kinds of game apart).
pub trait Owner: Copy {
    /// The owner's fixed wire code.
    fn owner_code(self) -> u8;
}

impl Owner for Seat {
    fn owner_code(self) -> u8 {
        self.code()
    }
}

/// Number of pieces in one army (and of committed squares).
pub const ARMY_SIZE: usize = 25;

/// `salt_s = PRF(seed, "piece salt", s)`.
#[must_use]
pub fn piece_salt(seed: &Seed, square: u8) -> [u8; 32] {
    seed.prf_bytes("piece salt", &[&[square]])
}

/// `C_s = H("junqi v1 piece", game_id, player, s, r, salt_s)`.
#[must_use]
pub fn piece_commitment(
    game_id: &Digest,
    player: impl Owner,
    square: u8,
    rank: WireRank,
    salt: &[u8; 32],
) -> Digest {
    h(
        ctx::PIECE,
        &[
            game_id,
            &[player.owner_code()],
            &[square],
            &[rank.code()],
            salt,
        ],
    )
}

/// `H("junqi v1 seed", game_id, player, seed)`.
#[must_use]
pub fn seed_commitment(game_id: &Digest, player: impl Owner, seed: &Seed) -> Digest {
    h(ctx::SEED, &[game_id, &[player.owner_code()], &seed.0])
}

/// The opening of one piece commitment (sent for a flag reveal or in an open game).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PieceOpening {
    /// The starting square, `0..30` in the owner's coordinates.
    pub square: u8,
    /// The rank placed there.
    pub rank: WireRank,
    /// Its salt.
    pub salt: [u8; 32],
}

impl PieceOpening {
    /// Whether this opening matches the commitment `c`.
    #[must_use]
    pub fn verify(&self, game_id: &Digest, owner: impl Owner, c: &Digest) -> bool {
        piece_commitment(game_id, owner, self.square, self.rank, &self.salt) == *c
    }
}

/// A player's own setup with its commitments.
#[derive(Clone, Debug)]
pub struct SetupCommitment {
    /// `(square, rank)` for the 25 pieces, in square order.
    pub placement: Vec<(u8, WireRank)>,
    /// `C_s` in the same order.
    pub commitments: Vec<Digest>,
}

impl SetupCommitment {
    /// Commits to `placement` (square, rank) pairs.
    #[must_use]
    pub fn new(
        seed: &Seed,
        game_id: &Digest,
        player: impl Owner,
        placement: &[(u8, WireRank)],
    ) -> Self {
        let mut placement = placement.to_vec();
        placement.sort_by_key(|&(s, _)| s);
        let commitments = placement
            .iter()
            .map(|&(s, r)| piece_commitment(game_id, player, s, r, &piece_salt(seed, s)))
            .collect();
        SetupCommitment {
            placement,
            commitments,
        }
    }

    /// The opening for the piece on `square`.
    #[must_use]
    pub fn opening(&self, seed: &Seed, square: u8) -> Option<PieceOpening> {
        let &(sq, rank) = self.placement.iter().find(|&&(s, _)| s == square)?;
        Some(PieceOpening {
            square: sq,
            rank,
            salt: piece_salt(seed, sq),
        })
    }
}

/// A setup's ranks by slot (slot `i` holds `ranks[i]`) as the `(slot, rank)` placement its
/// commitments are made and opened over.
#[must_use]
pub fn placement_of(ranks: &[WireRank]) -> Vec<(u8, WireRank)> {
    ranks
        .iter()
        .enumerate()
        .map(|(i, &r)| (i as u8, r))
        .collect()
}

/// Checks a revealed seed and placement against the commitments received at the
/// start. Returns the index of the first mismatching commitment, or `usize::MAX`
/// for a wrong seed.
///
/// # Errors
/// The first mismatch.
pub fn verify_reveal(
    game_id: &Digest,
    owner: impl Owner,
    seed: &Seed,
    seed_commit: &Digest,
    placement: &[(u8, WireRank)],
    commitments: &[Digest],
) -> Result<(), RevealError> {
    if seed_commitment(game_id, owner, seed) != *seed_commit {
        return Err(RevealError::Seed);
    }
    if placement.len() != commitments.len() {
        return Err(RevealError::Count {
            got: placement.len(),
            want: commitments.len(),
        });
    }
    for (i, (&(s, r), c)) in placement.iter().zip(commitments).enumerate() {
        if piece_commitment(game_id, owner, s, r, &piece_salt(seed, s)) != *c {
            return Err(RevealError::Piece {
                index: i,
                square: s,
            });
        }
    }
    Ok(())
}

/// Why a reveal does not match its commitments.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RevealError {
    /// The seed does not match the seed commitment.
    #[error("the revealed seed does not match its commitment")]
    Seed,
    /// Wrong number of pieces.
    #[error("{got} pieces revealed, {want} committed")]
    Count {
        /// Revealed.
        got: usize,
        /// Committed.
        want: usize,
    },
    /// A piece does not match its commitment.
    #[error("piece {index} (square {square}) does not match its commitment")]
    Piece {
        /// Index in the commitment list.
        index: usize,
        /// Its square.
        square: u8,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    fn placement() -> Vec<(u8, WireRank)> {
        junqi_game::Rank::army()
            .into_iter()
            .enumerate()
            .map(|(i, r)| (i as u8, crate::wire::rank_from_game(r)))
            .collect()
    }

    #[test]
    fn commit_and_open() {
        let seed = Seed([7; 32]);
        let gid = [1; 32];
        let sc = SetupCommitment::new(&seed, &gid, Seat::Host, &placement());
        assert_eq!(sc.commitments.len(), ARMY_SIZE);
        let o = sc.opening(&seed, 24).unwrap();
        assert_eq!(o.rank, WireRank::Flag);
        assert!(o.verify(&gid, Seat::Host, &sc.commitments[24]));
        assert!(!o.verify(&gid, Seat::Guest, &sc.commitments[24]));
        assert!(!o.verify(&[2; 32], Seat::Host, &sc.commitments[24]));
        let lie = PieceOpening {
            rank: WireRank::Mine,
            ..o
        };
        assert!(!lie.verify(&gid, Seat::Host, &sc.commitments[24]));
        let moved = PieceOpening { square: 23, ..o };
        assert!(!moved.verify(&gid, Seat::Host, &sc.commitments[23]));
    }

    #[test]
    fn salts_are_distinct_per_square() {
        let seed = Seed([7; 32]);
        let salts: std::collections::HashSet<_> = (0..30).map(|s| piece_salt(&seed, s)).collect();
        assert_eq!(salts.len(), 30);
    }

    #[test]
    fn reveal_detects_changes() {
        let seed = Seed([7; 32]);
        let gid = [1; 32];
        let sc = SetupCommitment::new(&seed, &gid, Seat::Guest, &placement());
        let scomm = seed_commitment(&gid, Seat::Guest, &seed);
        assert_eq!(
            verify_reveal(
                &gid,
                Seat::Guest,
                &seed,
                &scomm,
                &sc.placement,
                &sc.commitments
            ),
            Ok(())
        );
        assert_eq!(
            verify_reveal(
                &gid,
                Seat::Guest,
                &Seed([8; 32]),
                &scomm,
                &sc.placement,
                &sc.commitments
            ),
            Err(RevealError::Seed)
        );
        let mut changed = sc.placement.clone();
        changed.swap(0, 24);
        changed[0].0 = 0;
        changed[24].0 = 24;
        assert_eq!(
            verify_reveal(&gid, Seat::Guest, &seed, &scomm, &changed, &sc.commitments),
            Err(RevealError::Piece {
                index: 0,
                square: 0
            })
        );
    }
}
