//! 双明: a seat's setup shown to its partner only, encrypted under the
//! signed log.
//!
//! Each seat's commitment carries `P = p·B` (Ristretto255), `p = PRF(seed,
//! "partner p")`. The pair's key is `H("junqi v1 partner", game_id, sender,
//! receiver, p_sender·P_receiver)`; the cipher is BLAKE3's keyed XOF as key
//! stream and a keyed BLAKE3 tag over the ciphertext (encrypt-then-MAC).
//! Each ordered pair of seats encrypts exactly one message per game, so a
//! key is never used twice and no nonce is needed. The workspace's curve and
//! hash crates do the job; no cipher crate is added. After the game the
//! sender's seed is opened, so anyone can recompute the key and check what
//! was sent (the audit does).

use curve25519_dalek::RistrettoPoint;
use curve25519_dalek::scalar::Scalar;
use serde::{Deserialize, Serialize};
use subtle::ConstantTimeEq;

use super::seat::FourSeat;
use crate::commit::PieceOpening;
use crate::crypto::{Digest, Seed, ctx, h};
use crate::frame::{decode_payload, encode_payload};
use crate::ot::decode_point;
use crate::rank::WireRank;

/// A ciphertext and its tag.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sealed {
    /// The encrypted openings.
    pub ct: Vec<u8>,
    /// `keyed BLAKE3(mac key, ct)`.
    pub tag: Digest,
}

/// Why a partner reveal cannot be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OpenError {
    /// The partner key is not a valid point (or the identity).
    #[error("invalid partner key")]
    BadKey,
    /// The tag does not verify: another key, or the ciphertext was changed.
    #[error("the reveal does not decrypt")]
    BadTag,
    /// It decrypts to something that is not a list of openings.
    #[error("the reveal does not decode")]
    BadPlaintext,
}

fn scalar(seed: &Seed) -> Scalar {
    seed.prf_scalar("partner p", &[])
}

/// This seat's public partner key `P = p·B`.
#[must_use]
pub fn public_key(seed: &Seed) -> [u8; 32] {
    RistrettoPoint::mul_base(&scalar(seed))
        .compress()
        .to_bytes()
}

/// The key from `sender` to `receiver`, computed by either of them (or by
/// anyone holding one of the two seeds): `mine` is the own seed, `theirs`
/// the other's public key.
fn pair_key(
    mine: &Seed,
    theirs: &[u8; 32],
    game_id: &Digest,
    sender: FourSeat,
    receiver: FourSeat,
) -> Result<Digest, OpenError> {
    let p = decode_point(theirs).map_err(|_| OpenError::BadKey)?;
    let shared = (scalar(mine) * p).compress().to_bytes();
    Ok(h(
        ctx::PARTNER,
        &[game_id, &[sender.code()], &[receiver.code()], &shared],
    ))
}

fn stream_and_tag_keys(key: &Digest) -> ([u8; 32], [u8; 32]) {
    (
        h(ctx::PARTNER, &[key, b"stream"]),
        h(ctx::PARTNER, &[key, b"tag"]),
    )
}

fn xor_stream(key: &[u8; 32], data: &mut [u8]) {
    let mut stream = blake3::Hasher::new_keyed(key).finalize_xof();
    let mut pad = vec![0u8; data.len()];
    stream.fill(&mut pad);
    for (d, p) in data.iter_mut().zip(pad) {
        *d ^= p;
    }
}

/// Encrypts `openings` from `sender` (seed `seed`) to `receiver` (partner key `theirs`).
///
/// # Errors
/// A bad partner key.
pub fn seal(
    seed: &Seed,
    theirs: &[u8; 32],
    game_id: &Digest,
    sender: FourSeat,
    receiver: FourSeat,
    openings: &[PieceOpening],
) -> Result<Sealed, OpenError> {
    let key = pair_key(seed, theirs, game_id, sender, receiver)?;
    seal_with(&key, &openings.to_vec())
}

/// Decrypts a reveal from `sender` to `receiver`. `mine` is one of the two
/// seeds (the receiver's during play, the sender's at the audit) and
/// `theirs` the other seat's public partner key.
///
/// # Errors
/// See [`OpenError`].
pub fn open(
    mine: &Seed,
    theirs: &[u8; 32],
    game_id: &Digest,
    sender: FourSeat,
    receiver: FourSeat,
    sealed: &Sealed,
) -> Result<Vec<PieceOpening>, OpenError> {
    let key = pair_key(mine, theirs, game_id, sender, receiver)?;
    open_with(&key, sealed)
}

/// What a seat that leaves gives its partner's device so that it plays
/// the seat on: everything the seat's messages need (the oblivious
/// transfer, flag openings, the final reveal) follows from the seed and
/// the ranks, checked at once against the seat's commitments.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandOverSecret {
    /// The seat's game seed.
    pub seed: Seed,
    /// Its ranks by slot.
    pub ranks: Vec<WireRank>,
}

/// The hand-over key: the pair's key, made another one, since the pair's
/// own key may already have encrypted the 双明 reveal (each key encrypts
/// one message).
fn hand_over_key(
    mine: &Seed,
    theirs: &[u8; 32],
    game_id: &Digest,
    sender: FourSeat,
    receiver: FourSeat,
) -> Result<Digest, OpenError> {
    let key = pair_key(mine, theirs, game_id, sender, receiver)?;
    Ok(h(ctx::PARTNER, &[&key, b"hand over"]))
}

/// Encrypts a hand-over from `sender` (seed `seed`) to its partner `receiver`.
///
/// # Errors
/// A bad partner key.
pub fn seal_hand_over(
    seed: &Seed,
    theirs: &[u8; 32],
    game_id: &Digest,
    sender: FourSeat,
    receiver: FourSeat,
    secret: &HandOverSecret,
) -> Result<Sealed, OpenError> {
    seal_with(
        &hand_over_key(seed, theirs, game_id, sender, receiver)?,
        secret,
    )
}

/// Decrypts a hand-over (either seed of the pair, as [`open`]).
///
/// # Errors
/// See [`OpenError`].
pub fn open_hand_over(
    mine: &Seed,
    theirs: &[u8; 32],
    game_id: &Digest,
    sender: FourSeat,
    receiver: FourSeat,
    sealed: &Sealed,
) -> Result<HandOverSecret, OpenError> {
    open_with(
        &hand_over_key(mine, theirs, game_id, sender, receiver)?,
        sealed,
    )
}

fn seal_with<T: Serialize>(key: &Digest, plain: &T) -> Result<Sealed, OpenError> {
    let (sk, tk) = stream_and_tag_keys(key);
    let mut ct = encode_payload(plain).map_err(|_| OpenError::BadPlaintext)?;
    xor_stream(&sk, &mut ct);
    let tag = *blake3::keyed_hash(&tk, &ct).as_bytes();
    Ok(Sealed { ct, tag })
}

fn open_with<T: serde::de::DeserializeOwned>(
    key: &Digest,
    sealed: &Sealed,
) -> Result<T, OpenError> {
    let (sk, tk) = stream_and_tag_keys(key);
    let tag = blake3::keyed_hash(&tk, &sealed.ct);
    if !bool::from(tag.as_bytes().ct_eq(&sealed.tag)) {
        return Err(OpenError::BadTag);
    }
    let mut pt = sealed.ct.clone();
    xor_stream(&sk, &mut pt);
    decode_payload(&pt).map_err(|_| OpenError::BadPlaintext)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn openings() -> Vec<PieceOpening> {
        (0..25)
            .map(|s| PieceOpening {
                square: s,
                rank: WireRank::ALL[s as usize % 12],
                salt: [s; 32],
            })
            .collect()
    }

    #[test]
    fn only_the_two_partners_read_a_reveal() {
        let seeds: Vec<Seed> = (0..4).map(|i| Seed([i; 32])).collect();
        let keys: Vec<[u8; 32]> = seeds.iter().map(public_key).collect();
        let game = [9; 32];
        let (s, n) = (FourSeat::South, FourSeat::North);
        let sealed = seal(&seeds[0], &keys[2], &game, s, n, &openings()).unwrap();
        // The receiver with its seed, the sender's seed at the audit.
        assert_eq!(
            open(&seeds[2], &keys[0], &game, s, n, &sealed).unwrap(),
            openings()
        );
        assert_eq!(
            open(&seeds[0], &keys[2], &game, s, n, &sealed).unwrap(),
            openings()
        );
        // An enemy with its own seed, against either partner's key.
        for enemy in [1, 3] {
            for k in [0, 2] {
                assert_eq!(
                    open(&seeds[enemy], &keys[k], &game, s, n, &sealed),
                    Err(OpenError::BadTag)
                );
            }
        }
        // Another game, the other direction, a flipped bit.
        assert!(open(&seeds[2], &keys[0], &[8; 32], s, n, &sealed).is_err());
        assert!(open(&seeds[2], &keys[0], &game, n, s, &sealed).is_err());
        let mut bad = sealed.clone();
        bad.ct[3] ^= 1;
        assert_eq!(
            open(&seeds[2], &keys[0], &game, s, n, &bad),
            Err(OpenError::BadTag)
        );
        // A hand-over of the same pair is under another key: the reveal's
        // key stream is never used twice, and neither opens as the other.
        let secret = HandOverSecret {
            seed: seeds[0].clone(),
            ranks: openings().iter().map(|o| o.rank).collect(),
        };
        let ho = seal_hand_over(&seeds[0], &keys[2], &game, s, n, &secret).unwrap();
        assert_eq!(
            open_hand_over(&seeds[2], &keys[0], &game, s, n, &ho).unwrap(),
            secret
        );
        assert_eq!(
            open(&seeds[2], &keys[0], &game, s, n, &ho),
            Err(OpenError::BadTag)
        );
        assert!(open_hand_over(&seeds[2], &keys[0], &game, s, n, &sealed).is_err());
        for enemy in [1, 3] {
            assert!(open_hand_over(&seeds[enemy], &keys[0], &game, s, n, &ho).is_err());
        }
        // The ciphertext shows no rank byte in the clear.
        let plain = encode_payload(&openings()).unwrap();
        assert_ne!(sealed.ct, plain);
    }
}
