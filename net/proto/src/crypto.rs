//! Hashing and pseudo-randomness: `H(context, parts…)` and `PRF(seed, label, index)`.
//!
//! Every hash in the protocol goes through [`h`]: BLAKE3 in derive-key mode with
//! one context string per use and every part length-prefixed, so no two uses and
//! no two splittings of the same bytes can collide. All of a player's randomness
//! for one game comes from its secret 32-byte [`Seed`] through [`Seed::prf`]
//! (keyed BLAKE3 with XOF output), so the end-of-game audit can recompute it.

use std::fmt;

use curve25519_dalek::scalar::Scalar;
use serde::{Deserialize, Serialize};

/// A 32-byte hash value.
pub type Digest = [u8; 32];

/// The all-zero digest, used where a chain has no previous element yet.
pub const ZERO_DIGEST: Digest = [0; 32];

/// Hash contexts. One per use, versioned (FAIRPLAY.md, pitfall 2).
pub mod ctx {
    /// Game id from both hellos.
    pub const GAME: &str = "junqi v1 game";
    /// Commitment to one piece on one starting square.
    pub const PIECE: &str = "junqi v1 piece";
    /// Commitment to a player's game seed.
    pub const SEED: &str = "junqi v1 seed";
    /// Context of one battle.
    pub const BATTLE: &str = "junqi v1 battle";
    /// Oblivious-transfer pad of one table entry.
    pub const OT: &str = "junqi v1 ot";
    /// Hash of one outcome label.
    pub const LABEL: &str = "junqi v1 label";
    /// Commitment to one entry of a flip-game permutation.
    pub const FLIP: &str = "junqi v1 flip";
    /// Hash of a signed protocol message.
    pub const MSG: &str = "junqi v1 msg";
    /// Pairing code from both certificates and the game id.
    pub const PAIRING: &str = "junqi v1 pairing";
    /// The host's commitment to its hello nonce.
    pub const NONCE: &str = "junqi v1 nonce";
    /// Hash of a game state, signed by both sides after a battle.
    pub const STATE: &str = "junqi v1 state";
    /// A stream start, signed with the paired key and bound to one connection.
    pub const STREAM: &str = "junqi v1 stream";
    /// Game id of a four-seat table from all four hellos.
    pub const GAME4: &str = "junqi v1 game4";
    /// Digest of one round of a four-seat table's log.
    pub const ROUND: &str = "junqi v1 round";
    /// Key of a 双明 partner reveal from the Diffie-Hellman secret of two partners.
    pub const PARTNER: &str = "junqi v1 partner";
}

/// `H(context, parts…)`: BLAKE3 derive-key mode, each part prefixed by its
/// length as a little-endian `u64`.
#[must_use]
pub fn h(context: &str, parts: &[&[u8]]) -> Digest {
    let mut hasher = blake3::Hasher::new_derive_key(context);
    for part in parts {
        hasher.update(&(part.len() as u64).to_le_bytes());
        hasher.update(part);
    }
    *hasher.finalize().as_bytes()
}

/// A player's secret 32-byte game seed. It never leaves the machine before
/// the end-of-game audit (it is saved with the game for resumption).
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seed(pub [u8; 32]);

impl fmt::Debug for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Seed(..)")
    }
}

impl Seed {
    /// A fresh seed from the operating system's random source.
    ///
    /// # Panics
    /// If the operating system has no random source.
    #[must_use]
    pub fn random() -> Self {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).expect("operating-system randomness");
        Seed(bytes)
    }

    /// `PRF(seed, label, parts…)`: keyed BLAKE3 under the seed, XOF output
    /// filling `out`. The label and each part are length-prefixed.
    pub fn prf(&self, label: &str, parts: &[&[u8]], out: &mut [u8]) {
        let mut hasher = blake3::Hasher::new_keyed(&self.0);
        hasher.update(&(label.len() as u64).to_le_bytes());
        hasher.update(label.as_bytes());
        for part in parts {
            hasher.update(&(part.len() as u64).to_le_bytes());
            hasher.update(part);
        }
        hasher.finalize_xof().fill(out);
    }

    /// `PRF(seed, label, index)` as `N` bytes.
    #[must_use]
    pub fn prf_bytes<const N: usize>(&self, label: &str, parts: &[&[u8]]) -> [u8; N] {
        let mut out = [0u8; N];
        self.prf(label, parts, &mut out);
        out
    }

    /// A uniformly distributed scalar: 64 PRF bytes reduced modulo the group order.
    #[must_use]
    pub fn prf_scalar(&self, label: &str, parts: &[&[u8]]) -> Scalar {
        Scalar::from_bytes_mod_order_wide(&self.prf_bytes::<64>(label, parts))
    }

    /// A stream of PRF output, for sampling (e.g. shuffles).
    #[must_use]
    pub fn prf_stream(&self, label: &str, parts: &[&[u8]]) -> blake3::OutputReader {
        let mut hasher = blake3::Hasher::new_keyed(&self.0);
        hasher.update(&(label.len() as u64).to_le_bytes());
        hasher.update(label.as_bytes());
        for part in parts {
            hasher.update(&(part.len() as u64).to_le_bytes());
            hasher.update(part);
        }
        hasher.finalize_xof()
    }
}

/// Uniform integer in `0..bound` from a PRF stream, by rejection sampling (no bias).
pub fn uniform_below(stream: &mut blake3::OutputReader, bound: u32) -> u32 {
    assert!(bound > 0, "empty range");
    let zone = u32::MAX - (u32::MAX % bound);
    loop {
        let mut b = [0u8; 4];
        stream.fill(&mut b);
        let v = u32::from_le_bytes(b);
        if v < zone {
            return v % bound;
        }
    }
}

/// Serde helpers for byte arrays longer than serde's built-in 32, encoded as
/// fixed-size tuples (no length prefix in bincode).
pub mod byte_array {
    use serde::de::{Error, SeqAccess, Visitor};
    use serde::ser::SerializeTuple;
    use serde::{Deserializer, Serializer};
    use std::fmt;

    /// Serialize `[u8; N]` as an `N`-tuple.
    pub fn serialize<S: Serializer, const N: usize>(v: &[u8; N], s: S) -> Result<S::Ok, S::Error> {
        let mut t = s.serialize_tuple(N)?;
        for b in v {
            t.serialize_element(b)?;
        }
        t.end()
    }

    /// Deserialize `[u8; N]` from an `N`-tuple.
    pub fn deserialize<'de, D: Deserializer<'de>, const N: usize>(
        d: D,
    ) -> Result<[u8; N], D::Error> {
        struct V<const N: usize>;
        impl<'de, const N: usize> Visitor<'de> for V<N> {
            type Value = [u8; N];
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{N} bytes")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<[u8; N], A::Error> {
                let mut out = [0u8; N];
                for (i, slot) in out.iter_mut().enumerate() {
                    *slot = seq
                        .next_element()?
                        .ok_or_else(|| A::Error::invalid_length(i, &self))?;
                }
                Ok(out)
            }
        }
        d.deserialize_tuple(N, V::<N>)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn h_is_length_prefixed() {
        assert_ne!(h(ctx::PIECE, &[b"ab", b"c"]), h(ctx::PIECE, &[b"a", b"bc"]));
        assert_ne!(h(ctx::PIECE, &[b"abc"]), h(ctx::PIECE, &[b"abc", b""]));
    }

    #[test]
    fn h_is_domain_separated() {
        assert_ne!(h(ctx::PIECE, &[b"x"]), h(ctx::SEED, &[b"x"]));
        assert_eq!(h(ctx::PIECE, &[b"x"]), h(ctx::PIECE, &[b"x"]));
    }

    #[test]
    fn prf_depends_on_seed_label_and_index() {
        let a = Seed([1; 32]);
        let b = Seed([2; 32]);
        let x: [u8; 32] = a.prf_bytes("piece salt", &[&[0]]);
        assert_eq!(x, a.prf_bytes::<32>("piece salt", &[&[0]]));
        assert_ne!(x, b.prf_bytes::<32>("piece salt", &[&[0]]));
        assert_ne!(x, a.prf_bytes::<32>("piece salt", &[&[1]]));
        assert_ne!(x, a.prf_bytes::<32>("ot x", &[&[0]]));
        // XOF: a shorter output is a prefix of a longer one.
        let long: [u8; 64] = a.prf_bytes("piece salt", &[&[0]]);
        assert_eq!(&long[..32], &x);
    }

    #[test]
    fn uniform_below_stays_in_range() {
        let mut s = Seed([3; 32]).prf_stream("t", &[]);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[uniform_below(&mut s, 7) as usize] += 1;
        }
        assert!(seen.iter().all(|&n| (800..1200).contains(&n)), "{seen:?}");
    }

    #[test]
    fn seed_debug_is_redacted() {
        assert_eq!(format!("{:?}", Seed([9; 32])), "Seed(..)");
    }
}
