//! The audit anyone can run: a pure function of a finished game's signed log.
//!
//! Both sides' signed messages are in either side's log, and at the end each
//! side opened its seed and its setup. A third party (a friend asked to
//! settle a dispute) therefore needs no secret and no trust in either
//! program: it checks every signature and every link of both hash chains
//! (so an edited file shows as edited, never as one side's cheat), then
//! rebuilds each side from its opened seed and setup as an honest program
//! would have played it, with that side's own decisions taken from the log.
//! The first message of a side that an honest program would not have sent
//! is that side's fault; when both sides rebuild, their audit is the verdict.
//! What it cannot check: clocks, bytes nobody signed and signed messages the
//! chain refused (a replay, a false acknowledgement: no log can hold them; a
//! dispute over them is `Undecidable`). A timeout claim is
//! taken as the claimed-on side answered it; when one side refused a claim
//! by its own clock and the other stands by it, the log cannot settle who was
//! right ([`LogError::Undecidable`]), and it blames neither.

use std::collections::HashMap;
use std::time::Instant;

use ed25519_dalek::VerifyingKey;
use junqi_game::{Layout, Mode, Rules, Side};

use crate::crypto::Digest;
use crate::envelope::Envelope;
use crate::evidence::Evidence;
use crate::fault::FaultKind;
use crate::rank::{Seat, WireRank};
use crate::saved::SavedSession;
use crate::session::{Session, Verdict};
use crate::wire::{Body, layout_of, side_of};

/// Why a log cannot be audited.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LogError {
    /// A side's hello is missing or its key is not a key.
    #[error("no valid hello from the {0:?}")]
    NoHello(Seat),
    /// The game never got past the hellos (no opened nonce).
    #[error("the game never started")]
    NotStarted,
    /// Neither side opened its seed: the game is not over.
    #[error("neither side opened its seed and setup")]
    NotOpened,
    /// Each side's audit names the other: one of them refused a claim by its
    /// own clock (a timeout claimed early, say) or disputed unsigned bytes,
    /// and a log holds no clock and no unsigned bytes to settle it.
    #[error("a dispute over timing or unsigned data, which a log cannot settle")]
    Undecidable,
    /// The file was edited: a signature or a chain link does not hold.
    #[error("the log was altered at message {index}: {what}")]
    Tampered {
        /// Place in the log.
        index: usize,
        /// What does not hold.
        what: &'static str,
    },
}

/// Audits a finished game's signed log (either side's). `now` is any
/// instant (the caller's clock: this crate reads none); the verdict does not
/// depend on it.
///
/// # Errors
/// A log that cannot be audited: altered, or from a game that did not end.
pub fn audit_log(log: &[Envelope<Body>], now: Instant) -> Result<Verdict, LogError> {
    let hello = |seat: Seat| {
        log.iter()
            .find(|e| e.header.sender == seat && matches!(e.body, Body::Hello { .. }))
            .and_then(|e| match &e.body {
                Body::Hello {
                    key,
                    nonce,
                    rules,
                    name,
                } => VerifyingKey::from_bytes(key)
                    .ok()
                    .map(|k| (k, *nonce, *rules, name.clone())),
                _ => None,
            })
            .ok_or(LogError::NoHello(seat))
    };
    let (host_key, _, rules, host_name) = hello(Seat::Host)?;
    let (guest_key, guest_nonce, _, guest_name) = hello(Seat::Guest)?;
    check_chains(log, [host_key, guest_key])?;
    let host_nonce = log
        .iter()
        .find_map(|e| match e.body {
            Body::Nonce { nonce } if e.header.sender == Seat::Host => Some(nonce),
            _ => None,
        })
        .ok_or(LogError::NotStarted)?;
    let reveal = |seat: Seat| {
        log.iter().find_map(|e| match &e.body {
            Body::Reveal { seed, ranks } if e.header.sender == seat => {
                Some((seed.clone(), ranks.clone()))
            }
            _ => None,
        })
    };
    let reveals = [reveal(Seat::Host), reveal(Seat::Guest)];
    let sent = |seat: Seat, what: fn(&Body) -> bool| {
        log.iter().any(|e| e.header.sender == seat && what(&e.body))
    };
    let committed = sent(Seat::Host, |b| matches!(b, Body::Commit { .. }))
        && sent(Seat::Guest, |b| matches!(b, Body::Commit { .. }));
    let mut verdicts = Vec::new();
    for (seat, key, nonce, name, opened) in [
        (Seat::Host, host_key, host_nonce, host_name, &reveals[0]),
        (Seat::Guest, guest_key, guest_nonce, guest_name, &reveals[1]),
    ] {
        let side = side_of(seat);
        let Some((seed, ranks)) = opened else {
            // Opening is owed once both committed and the other side opened,
            // unless the side stopped on a fault of the other's (its dispute).
            let other_opened = reveals.iter().any(Option::is_some);
            if committed && other_opened && !sent(seat, |b| matches!(b, Body::Dispute { .. })) {
                return Ok(blame(
                    side,
                    None,
                    FaultKind::RefusedToOpen,
                    Evidence::NoRevealInLog,
                ));
            }
            continue;
        };
        let saved = SavedSession {
            seat,
            rules,
            layout: Some(opened_layout(&rules, ranks, side)),
            name,
            seed: seed.clone(),
            nonce,
            log: log.to_vec(),
        };
        match Session::witness(now, key, &saved) {
            Ok(s) => verdicts.extend(s.verdict().cloned()),
            Err(e) => {
                let evidence = Evidence::LogMessage(e.index);
                return Ok(blame(side, None, FaultKind::Unreplayable(e.what), evidence));
            }
        }
    }
    // Each rebuilt side audits the game as that side saw it: a cheat found
    // by one of them stands (they never name different sides when one of
    // them is honest).
    let named: Vec<&Verdict> = verdicts.iter().filter(|v| v.cheater.is_some()).collect();
    // A dispute the log does not support stopped on something the log cannot
    // hold: unsigned bytes, or a signed message the chain refused (a replay,
    // a false acknowledgement). Its sender is not blamed for it, nor the
    // other side: the log cannot settle it.
    if named
        .iter()
        .any(|v| v.reason == Some(FaultKind::UnsupportedDispute))
    {
        return Err(LogError::Undecidable);
    }
    match named.as_slice() {
        [] => verdicts.into_iter().next().ok_or(LogError::NotOpened),
        [one] => Ok((*one).clone()),
        [a, b] if a.cheater == b.cheater => Ok((*a).clone()),
        _ => Err(LogError::Undecidable),
    }
}

fn blame(
    culprit: Side,
    result: Option<junqi_game::GameResult>,
    reason: FaultKind,
    evidence: Evidence,
) -> Verdict {
    Verdict {
        result,
        cheater: Some(culprit),
        reason: Some(reason),
        evidence: Some(evidence),
        record: None,
    }
}

/// The setup a side opened (any legal one in a flip game, where setups are
/// dealt by the shuffle).
fn opened_layout(rules: &Rules, ranks: &[WireRank], side: Side) -> Layout {
    if rules.mode == Mode::Flip || ranks.is_empty() {
        return junqi_game::classic_layouts()[0].layout;
    }
    layout_of(ranks, side)
}

/// Every signature, sequence number and link of both chains, and every
/// acknowledgement of the other chain.
fn check_chains(log: &[Envelope<Body>], keys: [VerifyingKey; 2]) -> Result<(), LogError> {
    let mut digests: HashMap<(Seat, u64), Digest> = HashMap::new();
    for (index, e) in log.iter().enumerate() {
        let key = keys[usize::from(e.header.sender == Seat::Guest)];
        let d = e.verify(&key).map_err(|_| LogError::Tampered {
            index,
            what: "a signature does not verify",
        })?;
        if digests.insert((e.header.sender, e.header.seq), d).is_some() {
            return Err(LogError::Tampered {
                index,
                what: "a message appears twice",
            });
        }
    }
    for (index, e) in log.iter().enumerate() {
        let h = &e.header;
        let prev_ok = if h.seq == 0 {
            h.prev == crate::crypto::ZERO_DIGEST
        } else {
            digests.get(&(h.sender, h.seq - 1)) == Some(&h.prev)
        };
        let ack_ok = h.ack_seq == 0
            || digests
                .get(&(h.sender.other(), h.ack_seq - 1))
                .is_none_or(|d| *d == h.ack);
        if !prev_ok || !ack_ok {
            return Err(LogError::Tampered {
                index,
                what: "a message does not link to the one before it",
            });
        }
    }
    Ok(())
}
