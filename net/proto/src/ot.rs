//! The battle oblivious transfer (FAIRPLAY.md, "A battle").
//!
//! The attacker A holds rank `c` (one of the 10 movable ranks), the defender D
//! holds rank `d` (one of 12). With `S = y·B` D's per-game key:
//!
//! 1. A → D: `R = c·S + x·B`, `x = PRF(seed_A, "ot x", k)`.
//! 2. D → A: `E_j = L[f(j, d)] XOR H("junqi v1 ot", ctx, j, S, R, y·R − j·y·S)`
//!    for `j` in `0..10`, and `h_o = H("junqi v1 label", ctx, o, L_o)` for every
//!    outcome `o` of the public alphabet, with `L_o = PRF(seed_D, "label", ctx, o)`.
//! 3. A decrypts `E_c` with `H(…, x·S)`, finds the `o` whose `h_o` matches and
//!    returns `(o, L_o)`; D checks the label.
//!
//! `R` is uniform whatever `c` is, so D learns nothing of `c`; A can open only
//! its own entry (opening another needs `y·x·B − (j−c)·y·S`, a Diffie-Hellman
//! value). All scalars come from the players' seeds, so [`audit_battle`] can
//! recompute the whole exchange once the seeds are revealed.

use curve25519_dalek::ristretto::{CompressedRistretto, RistrettoPoint};
use curve25519_dalek::scalar::Scalar;
use curve25519_dalek::traits::IsIdentity;
use serde::{Deserialize, Serialize};
use subtle::{ConditionallySelectable, ConstantTimeEq};

use crate::announced::{Announced, AnnouncementTable};
use crate::crypto::{Digest, Seed, ctx, h};
use crate::rank::WireRank;

/// Length of one encrypted table entry and of an outcome label.
pub const ENTRY_LEN: usize = 16;
/// An outcome label `L_o`: the proof that the attacker learned outcome `o`.
pub type Label = [u8; ENTRY_LEN];

/// Errors of the oblivious transfer. Each names who is at fault where that is
/// already certain.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OtError {
    /// A received point is not a canonical Ristretto encoding.
    #[error("received point is not a valid Ristretto255 encoding")]
    InvalidPoint,
    /// The received key or request is the identity point.
    #[error("received point is the identity")]
    IdentityPoint,
    /// The attacking rank cannot move.
    #[error("rank {0:?} cannot attack")]
    NotMovable(WireRank),
    /// The defender's response has the wrong number of label hashes.
    #[error("defender sent {got} label hashes, the rules have {want} outcomes")]
    WrongLabelCount {
        /// Received.
        got: usize,
        /// Expected (the alphabet size).
        want: usize,
    },
    /// The attacker's entry decrypts to no valid label: the defender corrupted
    /// the table (or is probing). The attacker must raise a dispute.
    #[error("my table entry decrypts to no outcome label: the defender's table is corrupt")]
    NoMatchingLabel,
    /// The attacker returned a label that is not the defender's label for the
    /// outcome it claims.
    #[error("the attacker's label does not match the claimed outcome")]
    WrongLabel,
    /// The claimed outcome is not in the rules' alphabet.
    #[error("the claimed outcome is not one the rules can produce")]
    UnknownOutcome,
}

/// Decodes and validates a received point. The identity is always rejected.
///
/// # Errors
/// Non-canonical encoding or the identity.
pub fn decode_point(bytes: &[u8; 32]) -> Result<RistrettoPoint, OtError> {
    let p = CompressedRistretto(*bytes)
        .decompress()
        .ok_or(OtError::InvalidPoint)?;
    if p.is_identity() {
        return Err(OtError::IdentityPoint);
    }
    Ok(p)
}

/// `ctx = H("junqi v1 battle", game_id, k, from, to, prev)`: never reused, since
/// `k` is the attack message's sequence number in the attacker's chain (unique, so
/// `x` is never reused) and `prev` is the hash of the message before the attack.
#[must_use]
pub fn battle_context(game_id: &Digest, k: u64, from: u8, to: u8, prev: &Digest) -> Digest {
    h(
        ctx::BATTLE,
        &[game_id, &k.to_le_bytes(), &[from], &[to], prev],
    )
}

fn rank_scalar(j: usize) -> Scalar {
    Scalar::from(j as u64)
}

fn pad(ctx_: &Digest, j: usize, s: &[u8; 32], r: &[u8; 32], k: &[u8; 32]) -> [u8; ENTRY_LEN] {
    let full = h(ctx::OT, &[ctx_, &[j as u8], s, r, k]);
    let mut out = [0u8; ENTRY_LEN];
    out.copy_from_slice(&full[..ENTRY_LEN]);
    out
}

/// `L_o = PRF(seed_D, "label", ctx, o)`.
#[must_use]
pub fn label(seed_d: &Seed, ctx_: &Digest, o: &Announced) -> Label {
    seed_d.prf_bytes("label", &[ctx_, &o.code().to_le_bytes()])
}

/// `h_o = H("junqi v1 label", ctx, o, L_o)`.
#[must_use]
pub fn label_hash(ctx_: &Digest, o: &Announced, l: &Label) -> Digest {
    h(ctx::LABEL, &[ctx_, &o.code().to_le_bytes(), l])
}

/// `1/2` modulo the group order: batched compression computes the encoding of
/// `2·P`, so the code works with halved points to get the encoding of `P`.
fn half() -> Scalar {
    Scalar::from(2u64).invert()
}

/// The defender's validated public key `S` as the attacker uses it, with the
/// multiples `j·S/2` precomputed so that `c·S` costs no scalar multiplication
/// and is selected in constant time.
#[derive(Clone, Debug)]
pub struct PeerKey {
    s: RistrettoPoint,
    enc: [u8; 32],
    half_multiples: [RistrettoPoint; WireRank::MOVABLE],
}

impl PeerKey {
    /// Decodes and validates `S` (rejecting the identity).
    ///
    /// # Errors
    /// Invalid encoding or identity.
    pub fn decode(bytes: &[u8; 32]) -> Result<Self, OtError> {
        let s = decode_point(bytes)?;
        let hs = half() * s;
        let mut half_multiples = [RistrettoPoint::default(); WireRank::MOVABLE];
        for j in 1..WireRank::MOVABLE {
            half_multiples[j] = half_multiples[j - 1] + hs;
        }
        Ok(PeerKey {
            s,
            enc: *bytes,
            half_multiples,
        })
    }

    /// `S`, compressed.
    #[must_use]
    pub fn encoded(&self) -> [u8; 32] {
        self.enc
    }

    /// `c·S/2`, selected in constant time.
    fn half_multiple(&self, c: usize) -> RistrettoPoint {
        let mut out = RistrettoPoint::default();
        for (j, p) in self.half_multiples.iter().enumerate() {
            out.conditional_assign(p, (j as u64).ct_eq(&(c as u64)));
        }
        out
    }
}

/// Compressions of `2·p` for every `p`, with one field inversion. Identity
/// points (which a malicious `R = j·S` can produce) are handled too.
fn double_and_compress(points: &[RistrettoPoint]) -> Vec<[u8; 32]> {
    RistrettoPoint::double_and_compress_batch(points)
        .into_iter()
        .map(|c| c.to_bytes())
        .collect()
}

/// The defender's per-game key `S = y·B`, `y = PRF(seed, "ot y", 0)`.
#[derive(Clone)]
pub struct OtKey {
    half_y: Scalar,
    s: [u8; 32],
    half_ys: RistrettoPoint,
}

impl OtKey {
    /// Derives the key from the game seed.
    #[must_use]
    pub fn from_seed(seed: &Seed) -> Self {
        let y = seed.prf_scalar("ot y", &[&0u64.to_le_bytes()]);
        let s_point = RistrettoPoint::mul_base(&y);
        let half_y = half() * y;
        OtKey {
            half_y,
            s: s_point.compress().to_bytes(),
            half_ys: half_y * s_point,
        }
    }

    /// `S`, sent in the setup commitment.
    #[must_use]
    pub fn public(&self) -> [u8; 32] {
        self.s
    }
}

/// The attacker's first message: `R`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OtRequest {
    /// `R = c·S + x·B`, compressed.
    pub r: [u8; 32],
}

/// The defender's table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OtResponse {
    /// `E_j` for the 10 movable attacker ranks.
    pub entries: [[u8; ENTRY_LEN]; WireRank::MOVABLE],
    /// `h_o` for every outcome of the alphabet, in alphabet order.
    pub label_hashes: Vec<Digest>,
}

/// The attacker's answer: the outcome it decrypted and its label.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OtReveal {
    /// The outcome code (see [`Announced::code`]).
    pub outcome: u16,
    /// `L_o`.
    pub label: Label,
}

/// The attacker's state between sending `R` and receiving the table.
#[derive(Clone, Debug)]
pub struct Attacker {
    ctx: Digest,
    c: usize,
    key: [u8; ENTRY_LEN],
}

impl Attacker {
    /// Starts the battle number `k` as attacker of rank `c` against the
    /// defender's validated key `s` (from [`decode_point`]).
    ///
    /// # Errors
    /// If `c` cannot move.
    pub fn start(
        seed_a: &Seed,
        k: u64,
        c: WireRank,
        s: &PeerKey,
        ctx_: Digest,
    ) -> Result<(Attacker, OtRequest), OtError> {
        if !c.is_movable() {
            return Err(OtError::NotMovable(c));
        }
        let ci = c as usize;
        let x = seed_a.prf_scalar("ot x", &[&k.to_le_bytes()]);
        let half_x = half() * x;
        // R/2 = c·S/2 + (x/2)·B and x·S/2, doubled and compressed in one batch.
        let half_r = s.half_multiple(ci) + RistrettoPoint::mul_base(&half_x);
        let half_xs = half_x * s.s;
        let enc = double_and_compress(&[half_r, half_xs]);
        let r = enc[0];
        let key = pad(&ctx_, ci, &s.enc, &r, &enc[1]);
        Ok((
            Attacker {
                ctx: ctx_,
                c: ci,
                key,
            },
            OtRequest { r },
        ))
    }

    /// Decrypts this side's entry and finds its outcome.
    ///
    /// # Errors
    /// [`OtError::NoMatchingLabel`] when the defender's table is corrupt (raise a
    /// dispute, never retry); [`OtError::WrongLabelCount`] for a malformed table.
    pub fn finish(
        &self,
        resp: &OtResponse,
        table: &AnnouncementTable,
    ) -> Result<(Announced, OtReveal), OtError> {
        let alphabet = table.alphabet();
        if resp.label_hashes.len() != alphabet.len() {
            return Err(OtError::WrongLabelCount {
                got: resp.label_hashes.len(),
                want: alphabet.len(),
            });
        }
        let mut l = resp.entries[self.c];
        for (b, k) in l.iter_mut().zip(self.key) {
            *b ^= k;
        }
        for (o, hash) in alphabet.iter().zip(&resp.label_hashes) {
            if label_hash(&self.ctx, o, &l) == *hash {
                return Ok((
                    *o,
                    OtReveal {
                        outcome: o.code(),
                        label: l,
                    },
                ));
            }
        }
        Err(OtError::NoMatchingLabel)
    }
}

/// The defender's state between sending the table and receiving the label.
#[derive(Clone, Debug)]
pub struct Defender {
    labels: Vec<Label>,
}

impl Defender {
    /// Answers the request `req` of battle context `ctx_` for defending rank `d`.
    ///
    /// # Errors
    /// An invalid or identity `R`.
    pub fn respond(
        key: &OtKey,
        seed_d: &Seed,
        ctx_: Digest,
        req: &OtRequest,
        d: WireRank,
        table: &AnnouncementTable,
    ) -> Result<(Defender, OtResponse), OtError> {
        let r = decode_point(&req.r)?;
        Ok(Self::respond_unchecked(
            key, seed_d, ctx_, &r, &req.r, d, table, None,
        ))
    }

    /// The table computation. `corrupt` (tests and the audit of cheats only)
    /// flips entry `j`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn respond_unchecked(
        key: &OtKey,
        seed_d: &Seed,
        ctx_: Digest,
        r: &RistrettoPoint,
        r_enc: &[u8; 32],
        d: WireRank,
        table: &AnnouncementTable,
        corrupt: Option<usize>,
    ) -> (Defender, OtResponse) {
        let alphabet = table.alphabet();
        let labels: Vec<Label> = alphabet.iter().map(|o| label(seed_d, &ctx_, o)).collect();
        let label_hashes = alphabet
            .iter()
            .zip(&labels)
            .map(|(o, l)| label_hash(&ctx_, o, l))
            .collect();
        // K_j = y·R − j·y·S: halves by repeated subtraction, doubled and
        // compressed in one batch.
        let mut halves = [RistrettoPoint::default(); WireRank::MOVABLE];
        halves[0] = key.half_y * r;
        for j in 1..WireRank::MOVABLE {
            halves[j] = halves[j - 1] - key.half_ys;
        }
        let ks = double_and_compress(&halves);
        let mut entries = [[0u8; ENTRY_LEN]; WireRank::MOVABLE];
        for (j, entry) in entries.iter_mut().enumerate() {
            let p = pad(&ctx_, j, &key.s, r_enc, &ks[j]);
            let o = table.get(WireRank::ALL[j], d);
            let l = &labels[table.index_of(&o).expect("alphabet holds every cell")];
            for ((e, a), b) in entry.iter_mut().zip(l).zip(p) {
                *e = a ^ b;
            }
            if corrupt == Some(j) {
                entry[0] ^= 1;
            }
        }
        (
            Defender { labels },
            OtResponse {
                entries,
                label_hashes,
            },
        )
    }

    /// Checks the attacker's label and returns the outcome both now know.
    ///
    /// # Errors
    /// [`OtError::UnknownOutcome`] or [`OtError::WrongLabel`]: the attacker cheated.
    pub fn check(
        &self,
        reveal: &OtReveal,
        table: &AnnouncementTable,
    ) -> Result<Announced, OtError> {
        let o = Announced::from_code(reveal.outcome).ok_or(OtError::UnknownOutcome)?;
        let i = table.index_of(&o).ok_or(OtError::UnknownOutcome)?;
        if self.labels[i] != reveal.label {
            return Err(OtError::WrongLabel);
        }
        Ok(o)
    }
}

/// Which side of a battle a fault lies with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BattleRole {
    /// The moving side.
    Attacker,
    /// The side attacked.
    Defender,
}

/// What [`audit_battle`] found wrong with a battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BattleCheat {
    /// The defender's `S` does not derive from its opened seed.
    #[error("S does not derive from the revealed seed")]
    KeyMismatch,
    /// `S` is not a valid point.
    #[error("S is invalid")]
    InvalidKey,
    /// The attacker moved a piece that cannot move.
    #[error("an immovable piece attacked")]
    ImmovableAttacker,
    /// The attacker's `R` encodes another rank than the committed one.
    #[error("R does not encode the committed rank of the moving piece")]
    WrongRank,
    /// The defender's label hashes are not the ones its seed gives.
    #[error("label hashes differ from the recomputed ones")]
    LabelMismatch,
    /// The defender's table is not the one for its committed rank.
    #[error("oblivious-transfer table differs from the one for the committed rank")]
    TableMismatch,
    /// The attacker announced another outcome than `f(c, d)`.
    #[error("announced an outcome other than f(c, d)")]
    FalseOutcome,
}

/// A fault found by [`audit_battle`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{culprit:?}: {reason}")]
pub struct BattleFault {
    /// Who cheated.
    pub culprit: BattleRole,
    /// What the evidence shows.
    pub reason: BattleCheat,
}

/// Everything a battle put on the signed log, plus the ranks the audit revealed.
#[derive(Clone, Debug)]
pub struct BattleRecord<'a> {
    /// The battle context.
    pub ctx: Digest,
    /// The battle counter.
    pub k: u64,
    /// The committed rank of the moving piece.
    pub attacker_rank: WireRank,
    /// The committed rank of the attacked piece.
    pub defender_rank: WireRank,
    /// The defender's `S` from its setup commitment.
    pub s: [u8; 32],
    /// The attacker's request.
    pub request: &'a OtRequest,
    /// The defender's table, if it sent one.
    pub response: Option<&'a OtResponse>,
    /// The attacker's reveal, if it sent one.
    pub reveal: Option<&'a OtReveal>,
}

/// Recomputes a battle from both revealed seeds (FAIRPLAY.md, audit).
///
/// # Errors
/// The first fault found, naming its culprit.
pub fn audit_battle(
    rec: &BattleRecord<'_>,
    seed_a: &Seed,
    seed_d: &Seed,
    table: &AnnouncementTable,
) -> Result<(), BattleFault> {
    let key = OtKey::from_seed(seed_d);
    if key.public() != rec.s {
        return Err(BattleFault {
            culprit: BattleRole::Defender,
            reason: BattleCheat::KeyMismatch,
        });
    }
    if !rec.attacker_rank.is_movable() {
        return Err(BattleFault {
            culprit: BattleRole::Attacker,
            reason: BattleCheat::ImmovableAttacker,
        });
    }
    let s = decode_point(&rec.s).map_err(|_| BattleFault {
        culprit: BattleRole::Defender,
        reason: BattleCheat::InvalidKey,
    })?;
    let x = seed_a.prf_scalar("ot x", &[&rec.k.to_le_bytes()]);
    let r = rank_scalar(rec.attacker_rank as usize) * s + RistrettoPoint::mul_base(&x);
    if r.compress().to_bytes() != rec.request.r {
        return Err(BattleFault {
            culprit: BattleRole::Attacker,
            reason: BattleCheat::WrongRank,
        });
    }
    let Some(resp) = rec.response else {
        return Ok(());
    };
    let (_, expected) = Defender::respond_unchecked(
        &key,
        seed_d,
        rec.ctx,
        &r,
        &rec.request.r,
        rec.defender_rank,
        table,
        None,
    );
    if expected.label_hashes != resp.label_hashes {
        return Err(BattleFault {
            culprit: BattleRole::Defender,
            reason: BattleCheat::LabelMismatch,
        });
    }
    if expected.entries != resp.entries {
        return Err(BattleFault {
            culprit: BattleRole::Defender,
            reason: BattleCheat::TableMismatch,
        });
    }
    let Some(reveal) = rec.reveal else {
        return Ok(());
    };
    let truth = table.get(rec.attacker_rank, rec.defender_rank);
    let claimed = Announced::from_code(reveal.outcome);
    if claimed != Some(truth) || reveal.label != label(seed_d, &rec.ctx, &truth) {
        return Err(BattleFault {
            culprit: BattleRole::Attacker,
            reason: BattleCheat::FalseOutcome,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup() -> (Seed, Seed, OtKey, PeerKey, AnnouncementTable) {
        let sa = Seed([1; 32]);
        let sd = Seed([2; 32]);
        let key = OtKey::from_seed(&sd);
        let s = PeerKey::decode(&key.public()).unwrap();
        (
            sa,
            sd,
            key,
            s,
            crate::wire::table_from_rules(&junqi_game::Rules {
                engineer_scouting: true,
                ..junqi_game::Rules::default()
            }),
        )
    }

    fn battle(c: WireRank, d: WireRank, k: u64) -> Announced {
        let (sa, sd, key, s, table) = setup();
        let cx = battle_context(&[9; 32], k, 1, 2, &[0; 32]);
        let (att, req) = Attacker::start(&sa, k, c, &s, cx).unwrap();
        let (def, resp) = Defender::respond(&key, &sd, cx, &req, d, &table).unwrap();
        let (o, rev) = att.finish(&resp, &table).unwrap();
        assert_eq!(def.check(&rev, &table).unwrap(), o);
        let rec = BattleRecord {
            ctx: cx,
            k,
            attacker_rank: c,
            defender_rank: d,
            s: key.public(),
            request: &req,
            response: Some(&resp),
            reveal: Some(&rev),
        };
        assert_eq!(audit_battle(&rec, &sa, &sd, &table), Ok(()));
        o
    }

    #[test]
    fn every_pair_gives_f() {
        let (.., table) = setup();
        for (k, c) in WireRank::ALL[..WireRank::MOVABLE].iter().enumerate() {
            for d in WireRank::ALL {
                assert_eq!(battle(*c, d, k as u64), table.get(*c, d), "{c:?} vs {d:?}");
            }
        }
    }

    #[test]
    fn identity_and_garbage_points_rejected() {
        assert_eq!(decode_point(&[0; 32]), Err(OtError::IdentityPoint));
        assert_eq!(decode_point(&[0xff; 32]), Err(OtError::InvalidPoint));
        let (_, sd, key, _, table) = setup();
        let req = OtRequest { r: [0; 32] };
        assert_eq!(
            Defender::respond(&key, &sd, [0; 32], &req, WireRank::Flag, &table).unwrap_err(),
            OtError::IdentityPoint
        );
    }

    #[test]
    fn batched_compression_matches_plain_even_for_malicious_r() {
        let (_, sd, key, s, table) = setup();
        let cx = [4; 32];
        for j in 0..WireRank::MOVABLE {
            // R = j·S makes K_j the identity.
            let r_point = Scalar::from(j as u64) * s.s;
            let req = OtRequest {
                r: r_point.compress().to_bytes(),
            };
            let Ok((_, resp)) = Defender::respond(&key, &sd, cx, &req, WireRank::Mine, &table)
            else {
                assert_eq!(j, 0); // 0·S is the identity, refused
                continue;
            };
            for (i, e) in resp.entries.iter().enumerate() {
                let y = Scalar::from(2u64) * key.half_y;
                let kpt = (y * r_point - Scalar::from(i as u64) * y * s.s)
                    .compress()
                    .to_bytes();
                let p = pad(&cx, i, &key.s, &req.r, &kpt);
                let l = label(&sd, &cx, &table.get(WireRank::ALL[i], WireRank::Mine));
                let want: Vec<u8> = l.iter().zip(p).map(|(a, b)| a ^ b).collect();
                assert_eq!(e.to_vec(), want);
            }
        }
    }

    #[test]
    fn defender_view_is_independent_of_the_attackers_rank() {
        // The defender sees only R. Compare the distribution of R's bytes for
        // the highest and the lowest rank (chi-square homogeneity, 15 degrees
        // of freedom; 37.7 is the 0.1 % critical value).
        let (sa, _, _, s, _) = setup();
        let n = 3000u64;
        let hist = |c: WireRank, byte: usize| {
            let mut h = [0f64; 16];
            for k in 0..n {
                let (_, req) = Attacker::start(&sa, k + 1000 * c as u64, c, &s, [0; 32]).unwrap();
                h[(req.r[byte] >> 4) as usize] += 1.0;
            }
            h
        };
        for byte in [1, 17, 30] {
            let (a, b) = (
                hist(WireRank::Commander, byte),
                hist(WireRank::Engineer, byte),
            );
            let chi2: f64 = a
                .iter()
                .zip(&b)
                .filter(|(x, y)| *x + *y > 0.0)
                .map(|(x, y)| (x - y) * (x - y) / (x + y))
                .sum();
            assert!(chi2 < 37.7, "byte {byte}: chi2 {chi2}");
        }
    }

    #[test]
    fn each_side_learns_only_the_announced_outcome() {
        // The attacker's key opens exactly one label, the announced one; the
        // defender's view (R and the returned label) is the same for every
        // attacker rank with the same outcome.
        let (sa, sd, key, s, table) = setup();
        let cx = [5; 32];
        let d = WireRank::Division;
        let mut seen = std::collections::HashMap::new();
        for c in &WireRank::ALL[..WireRank::MOVABLE] {
            let (att, req) = Attacker::start(&sa, 7, *c, &s, cx).unwrap();
            let (def, resp) = Defender::respond(&key, &sd, cx, &req, d, &table).unwrap();
            let (o, rev) = att.finish(&resp, &table).unwrap();
            assert_eq!(o, table.get(*c, d));
            assert_eq!(def.check(&rev, &table).unwrap(), o);
            // The label returned depends only on the outcome.
            let prev = seen.insert(o.code(), rev.label);
            assert!(prev.is_none_or(|l| l == rev.label));
        }
    }

    #[test]
    fn immovable_cannot_attack() {
        let (sa, _, _, s, _) = setup();
        assert_eq!(
            Attacker::start(&sa, 0, WireRank::Mine, &s, [0; 32]).unwrap_err(),
            OtError::NotMovable(WireRank::Mine)
        );
    }

    #[test]
    fn attacker_cannot_open_other_entries() {
        // With its own key the attacker decrypts every other entry to garbage.
        let (sa, sd, key, s, table) = setup();
        let cx = battle_context(&[9; 32], 0, 1, 2, &[0; 32]);
        let (att, req) = Attacker::start(&sa, 0, WireRank::Platoon, &s, cx).unwrap();
        let (_, resp) =
            Defender::respond(&key, &sd, cx, &req, WireRank::Commander, &table).unwrap();
        for j in 0..WireRank::MOVABLE {
            let mut l = resp.entries[j];
            for (b, k) in l.iter_mut().zip(att.key) {
                *b ^= k;
            }
            let hit = table
                .alphabet()
                .iter()
                .zip(&resp.label_hashes)
                .any(|(o, hh)| label_hash(&cx, o, &l) == *hh);
            assert_eq!(hit, j == WireRank::Platoon as usize);
        }
    }

    #[test]
    fn corrupted_entry_is_detected_and_blamed_on_defender() {
        let (sa, sd, key, s, table) = setup();
        let cx = battle_context(&[9; 32], 3, 1, 2, &[0; 32]);
        let (att, req) = Attacker::start(&sa, 3, WireRank::Commander, &s, cx).unwrap();
        let r = decode_point(&req.r).unwrap();
        let (_, resp) = Defender::respond_unchecked(
            &key,
            &sd,
            cx,
            &r,
            &req.r,
            WireRank::Corps,
            &table,
            Some(0),
        );
        assert_eq!(
            att.finish(&resp, &table).unwrap_err(),
            OtError::NoMatchingLabel
        );
        let rec = BattleRecord {
            ctx: cx,
            k: 3,
            attacker_rank: WireRank::Commander,
            defender_rank: WireRank::Corps,
            s: key.public(),
            request: &req,
            response: Some(&resp),
            reveal: None,
        };
        assert_eq!(
            audit_battle(&rec, &sa, &sd, &table),
            Err(BattleFault {
                culprit: BattleRole::Defender,
                reason: BattleCheat::TableMismatch,
            })
        );
    }

    #[test]
    fn false_label_rejected_and_lying_rank_blamed() {
        let (sa, sd, key, s, table) = setup();
        let cx = battle_context(&[9; 32], 4, 1, 2, &[0; 32]);
        let (att, req) = Attacker::start(&sa, 4, WireRank::Platoon, &s, cx).unwrap();
        let (def, resp) = Defender::respond(&key, &sd, cx, &req, WireRank::Corps, &table).unwrap();
        let (o, rev) = att.finish(&resp, &table).unwrap();
        assert!(o.attacker_removed());
        // Claim a win with the label it has: rejected.
        let win = Announced::plain(junqi_game::Outcome::AttackerWins);
        let lie = OtReveal {
            outcome: win.code(),
            ..rev
        };
        assert_eq!(def.check(&lie, &table), Err(OtError::WrongLabel));
        // The audit blames an attacker whose R encodes another rank than committed.
        let rec = BattleRecord {
            ctx: cx,
            k: 4,
            attacker_rank: WireRank::Corps,
            defender_rank: WireRank::Corps,
            s: key.public(),
            request: &req,
            response: Some(&resp),
            reveal: Some(&rev),
        };
        assert_eq!(
            audit_battle(&rec, &sa, &sd, &table),
            Err(BattleFault {
                culprit: BattleRole::Attacker,
                reason: BattleCheat::WrongRank,
            })
        );
        // And a defender whose table was built for another rank than committed.
        let rec = BattleRecord {
            attacker_rank: WireRank::Platoon,
            defender_rank: WireRank::Engineer,
            ..rec
        };
        assert_eq!(
            audit_battle(&rec, &sa, &sd, &table),
            Err(BattleFault {
                culprit: BattleRole::Defender,
                reason: BattleCheat::TableMismatch,
            })
        );
    }
}
