//! The audit of a four-seat table from its signed log alone, over the four
//! armies opened at the end: what every seat runs at the end, and what a
//! third party runs on a saved log (`junqi-audit`).

use ed25519_dalek::VerifyingKey;
use junqi_game::{
    Action, Event, Game, GameResult, Move, Point, PointKind, Record, Rules, TableEvent, WinReason,
};

use super::body::{Body4, Kind4};
use super::fault::{Blame, FourFault};
use super::hello::{first_seat, game_id};
use super::log::{Envelope4, TableLog, round_digest};
use super::partner;
use super::play::leave_result;
use super::seat::{FourSeat, layout_of, slot_point};
use crate::commit::verify_reveal;
use crate::crypto::{Digest, Seed, ZERO_DIGEST};
use crate::ot::{
    BattleRecord, BattleRole, OtKey, OtRequest, OtResponse, audit_battle, battle_context,
};
use crate::rank::WireRank;
use crate::session::nonce_commitment;
use crate::wire::{rank_from_game, table_from_rules};

/// What the audit of a table's log finds.
#[derive(Clone, Debug, PartialEq)]
pub enum AuditOutcome {
    /// Every message checks out: the whole game and its result by the engine.
    Clean {
        /// The game as the engine replays it from the four opened armies.
        record: Record,
        /// The engine's result (or RULES.md §9's after a leave).
        result: Option<GameResult>,
    },
    /// A seat cheated; the log holds the evidence.
    Cheat(Blame),
    /// The log cannot settle the game.
    Unauditable(AuditGap),
}

/// Why a log cannot be audited.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AuditGap {
    /// A signature or a link does not verify: the file was altered.
    Altered {
        /// The first round that does not verify.
        round: u64,
    },
    /// The table never got to play, or its log stops before the reveals.
    Unfinished,
    /// These seats never opened their army.
    NotOpened(Vec<FourSeat>),
}

struct Commit4 {
    pieces: Vec<Digest>,
    seed: Digest,
    ot_key: [u8; 32],
    partner_key: [u8; 32],
}

fn only(round: &[Option<Envelope4>; 4]) -> Option<&Envelope4> {
    let mut it = round.iter().flatten();
    let e = it.next()?;
    it.next().is_none().then_some(e)
}

/// The culprit of a fault in `seat`'s messages of `round`: the seat, or its
/// partner once it handed the seat over (the partner's key signed them).
fn signer(handed: &[Option<u64>; 4], seat: FourSeat, round: u64) -> FourSeat {
    match handed[seat.index()] {
        Some(h) if round > h => seat.partner(),
        _ => seat,
    }
}

fn cheat_by(seat: FourSeat, fault: FourFault, round: u64) -> AuditOutcome {
    AuditOutcome::Cheat(Blame {
        seat,
        fault,
        round,
        evidence: None,
    })
}

/// Audits a table's log: every signature and link, the nonces, every
/// opened army against its commitments, the 双明 reveals, every move
/// through the engine with the real ranks, every battle's oblivious
/// transfer, every flag opening and no-moves claim. The first fault names
/// its seat.
#[must_use]
pub fn audit_table(log: &TableLog) -> AuditOutcome {
    let rounds: Vec<&[Option<Envelope4>; 4]> = log.closed_rounds().collect();
    // Signatures and links.
    let mut keys: [Option<VerifyingKey>; 4] = [None; 4];
    // The round of each seat's hand-over: after it, its partner's key signs for it.
    let mut handed: [Option<u64>; 4] = [None; 4];
    let mut prev = ZERO_DIGEST;
    for (r, round) in rounds.iter().enumerate() {
        let mut digests = Vec::new();
        for (i, e) in round.iter().enumerate() {
            let Some(e) = e else { continue };
            let hd = &e.signed.header;
            if let (0, Body4::Hello { key, .. } | Body4::HelloHandOver { key, .. }) = (r, &e.body) {
                keys[i] = VerifyingKey::from_bytes(key).ok();
            }
            let signer = match handed[i] {
                Some(h) if (r as u64) > h => keys[FourSeat::ALL[i].partner().index()],
                _ => keys[i],
            };
            let body_ok = super::log::body_digest(&e.body).is_ok_and(|d| d == hd.body);
            let ok = hd.sender.index() == i
                && hd.round == r as u64
                && hd.prev == prev
                && body_ok
                && signer.is_some_and(|k| e.signed.verify(&k));
            if !ok {
                return AuditOutcome::Unauditable(AuditGap::Altered { round: r as u64 });
            }
            if matches!(e.body, Body4::HandOver { .. }) && handed[i].is_none() {
                handed[i] = Some(r as u64);
            }
            digests.push(e.signed.digest().unwrap_or(ZERO_DIGEST));
        }
        prev = round_digest(r as u64, &digests);
    }
    if rounds.len() < 4 {
        return AuditOutcome::Unauditable(AuditGap::Unfinished);
    }
    let cheat = |seat, fault, round| cheat_by(signer(&handed, seat, round), fault, round);
    // The start.
    let mut hello_keys = [[0u8; 32]; 4];
    let mut nonces = [[0u8; 32]; 4];
    let mut rules: Option<Rules> = None;
    let mut agreed = [false; 4];
    for s in FourSeat::ALL {
        let (Some(h), Some(n)) = (&rounds[0][s.index()], &rounds[1][s.index()]) else {
            return AuditOutcome::Unauditable(AuditGap::Unfinished);
        };
        let (
            Body4::Hello {
                key,
                nonce_commit,
                rules: r,
                ..
            }
            | Body4::HelloHandOver {
                key,
                nonce_commit,
                rules: r,
                ..
            },
            Body4::Nonce { nonce },
        ) = (&h.body, &n.body)
        else {
            return AuditOutcome::Unauditable(AuditGap::Unfinished);
        };
        agreed[s.index()] = matches!(h.body, Body4::HelloHandOver { .. });
        if nonce_commitment(nonce) != *nonce_commit {
            return cheat(s, FourFault::NonceMismatch, 1);
        }
        hello_keys[s.index()] = *key;
        nonces[s.index()] = *nonce;
        if let Some(r) = r {
            // Every seat that names rules names the host's (the seats check it).
            if rules.is_some_and(|x| x != *r) {
                return AuditOutcome::Unauditable(AuditGap::Altered { round: 0 });
            }
            rules = Some(*r);
        }
    }
    let Some(rules) = rules else {
        return AuditOutcome::Unauditable(AuditGap::Unfinished);
    };
    let gid = game_id(&rules, &hello_keys, &nonces, agreed);
    let first = first_seat(&gid);
    let mut commits: Vec<Commit4> = Vec::with_capacity(4);
    for s in FourSeat::ALL {
        let Some(Body4::Commit {
            pieces,
            seed,
            ot_key,
            partner_key,
        }) = rounds[3][s.index()].as_ref().map(|e| &e.body)
        else {
            return AuditOutcome::Unauditable(AuditGap::Unfinished);
        };
        commits.push(Commit4 {
            pieces: pieces.clone(),
            seed: *seed,
            ot_key: *ot_key,
            partner_key: *partner_key,
        });
    }
    let mut next = 4;
    let open = rules.mode == junqi_game::Mode::Open;
    let open_round = open.then(|| {
        next += 1;
        4
    });
    let partner_round = (rules.partners_open && !open).then(|| {
        next += 1;
        4
    });
    // The reveals: the last round, one per seat.
    let Some(last) = rounds.last() else {
        return AuditOutcome::Unauditable(AuditGap::Unfinished);
    };
    let reveal_round = rounds.len() as u64 - 1;
    let mut seeds: Vec<Seed> = Vec::with_capacity(4);
    let mut opened_ranks: Vec<Vec<WireRank>> = Vec::with_capacity(4);
    let mut layouts = Vec::with_capacity(4);
    let mut missing = Vec::new();
    for s in FourSeat::ALL {
        match last[s.index()].as_ref().map(|e| &e.body) {
            Some(Body4::Reveal { seed, ranks }) => {
                let placement = crate::commit::placement_of(ranks);
                let c = &commits[s.index()];
                if let Err(e) = verify_reveal(&gid, s, seed, &c.seed, &placement, &c.pieces) {
                    return cheat(s, FourFault::RevealMismatch(e), reveal_round);
                }
                let layout = layout_of(ranks, s);
                if layout.validate(&rules).is_err() {
                    return cheat(s, FourFault::IllegalSetup, reveal_round);
                }
                if OtKey::from_seed(seed).public() != c.ot_key {
                    return cheat(s, FourFault::Battle(crate::ot::BattleCheat::KeyMismatch), 3);
                }
                if partner::public_key(seed) != c.partner_key {
                    return cheat(s, FourFault::BadCommitment, 3);
                }
                seeds.push(seed.clone());
                opened_ranks.push(ranks.clone());
                layouts.push(layout);
            }
            _ => {
                missing.push(s);
                seeds.push(Seed([0; 32]));
                opened_ranks.push(Vec::new());
                layouts.push(junqi_game::Layout::empty());
            }
        }
    }
    if !missing.is_empty() {
        return AuditOutcome::Unauditable(AuditGap::NotOpened(missing));
    }
    // 双明: each reveal, decrypted with the key the sender's seed gives.
    if let Some(pr) = partner_round {
        for s in FourSeat::ALL {
            let Some(Body4::PartnerReveal { to, sealed }) =
                rounds[pr][s.index()].as_ref().map(|e| &e.body)
            else {
                return AuditOutcome::Unauditable(AuditGap::Unfinished);
            };
            if *to != s.partner() {
                return cheat(s, FourFault::RevealToEnemy(*to), pr as u64);
            }
            let theirs = commits[to.index()].partner_key;
            let opened = partner::open(&seeds[s.index()], &theirs, &gid, s, *to, sealed);
            let pieces = &commits[s.index()].pieces;
            let opens = opened.as_ref().is_ok_and(|o| {
                o.len() == pieces.len()
                    && o.iter()
                        .zip(pieces)
                        .enumerate()
                        .all(|(i, (o, c))| usize::from(o.square) == i && o.verify(&gid, s, c))
            });
            if !opens {
                return cheat(s, FourFault::BadPartnerReveal(opened.err()), pr as u64);
            }
        }
    }
    // 全明: each army opened for everyone, as committed.
    if let Some(or) = open_round {
        for s in FourSeat::ALL {
            let Some(Body4::OpenArmy { openings }) =
                rounds[or][s.index()].as_ref().map(|e| &e.body)
            else {
                return AuditOutcome::Unauditable(AuditGap::Unfinished);
            };
            let pieces = &commits[s.index()].pieces;
            let opens = openings.len() == pieces.len()
                && openings
                    .iter()
                    .zip(pieces)
                    .enumerate()
                    .all(|(i, (o, c))| usize::from(o.square) == i && o.verify(&gid, s, c));
            if !opens {
                return cheat(s, FourFault::BadOpenArmy, or as u64);
            }
        }
    }
    // Play, through the engine.
    let Ok(mut game) = Game::new_four(rules, std::array::from_fn(|i| layouts[i]), first.side())
    else {
        return AuditOutcome::Unauditable(AuditGap::Unfinished);
    };
    let table = table_from_rules(&rules);
    struct Pending<'a> {
        attacker: FourSeat,
        defender: FourSeat,
        from: u8,
        to: u8,
        k: u64,
        ctx: Digest,
        ranks: (WireRank, WireRank),
        request: OtRequest,
        response: Option<&'a OtResponse>,
    }
    let mut pending: Option<Pending<'_>> = None;
    let mut left_result = None;
    for (r, round) in rounds.iter().enumerate().take(rounds.len() - 1).skip(next) {
        let r = r as u64;
        // The engine is the referee: once it has decided the game (a rule
        // the seats cannot apply without the hidden ranks, such as the last
        // pieces' trade or every seat stuck), what the seats played after
        // is moot, and nobody is blamed for it.
        if game.result().is_some() {
            break;
        }
        let Some(e) = only(round) else {
            return AuditOutcome::Unauditable(AuditGap::Altered { round: r });
        };
        let s = e.signed.header.sender;
        let step = |from: u8, to: u8| {
            Action::Move(Move::Step {
                from: Point(from),
                to: Point(to),
            })
        };
        match &e.body {
            Body4::Move { from, to } => match game.apply_table(s.side(), step(*from, *to)) {
                // A battle is a plain move only in 全明, where every seat's
                // referee plays it.
                Ok(ev)
                    if open
                        || matches!(ev.first(), Some(TableEvent::Event(Event::Moved { .. }))) => {}
                _ => return cheat(s, FourFault::IllegalForRanks, r),
            },
            Body4::Attack { from, to, r: big_r } => {
                let pos = game.position();
                let (Some(a), Some(d)) = (pos.at(Point(*from)), pos.at(Point(*to))) else {
                    return cheat(s, FourFault::IllegalForRanks, r);
                };
                pending = Some(Pending {
                    attacker: s,
                    defender: FourSeat::of_side(d.side),
                    from: *from,
                    to: *to,
                    k: r,
                    ctx: battle_context(&gid, r, *from, *to, &e.signed.header.prev),
                    ranks: (rank_from_game(a.rank), rank_from_game(d.rank)),
                    request: OtRequest { r: *big_r },
                    response: None,
                });
            }
            Body4::Table(resp) => {
                if let Some(p) = pending.as_mut() {
                    p.response = Some(resp);
                }
            }
            Body4::Label(_) | Body4::Dispute if pending.is_some() => {
                let p = pending.take().expect("checked");
                let reveal = match &e.body {
                    Body4::Label(rv) => Some(rv),
                    _ => None,
                };
                let rec = BattleRecord {
                    ctx: p.ctx,
                    k: p.k,
                    attacker_rank: p.ranks.0,
                    defender_rank: p.ranks.1,
                    s: commits[p.defender.index()].ot_key,
                    request: &p.request,
                    response: p.response,
                    reveal,
                };
                if let Err(f) = audit_battle(
                    &rec,
                    &seeds[p.attacker.index()],
                    &seeds[p.defender.index()],
                    &table,
                ) {
                    let seat = match f.culprit {
                        BattleRole::Attacker => p.attacker,
                        BattleRole::Defender => p.defender,
                    };
                    return cheat(seat, FourFault::Battle(f.reason), r);
                }
                if reveal.is_none() {
                    return cheat(s, FourFault::FalseDispute, r);
                }
                if game
                    .apply_table(p.attacker.side(), step(p.from, p.to))
                    .is_err()
                {
                    return cheat(p.attacker, FourFault::IllegalForRanks, p.k);
                }
            }
            Body4::FlagOpen(o) => {
                let ok = o.rank == WireRank::Flag
                    && slot_point(s, o.square).is_some_and(|p| {
                        junqi_game::Board::four_player().kind(p) == PointKind::Headquarters
                    })
                    && commits[s.index()]
                        .pieces
                        .get(usize::from(o.square))
                        .is_some_and(|c| o.verify(&gid, s, c));
                if !ok {
                    return cheat(s, FourFault::BadFlagOpening, r);
                }
            }
            Body4::OfferDraw | Body4::AcceptDraw | Body4::DeclineDraw => {
                let action = match &e.body {
                    Body4::OfferDraw => Action::OfferDraw,
                    Body4::AcceptDraw => Action::AcceptDraw,
                    _ => Action::DeclineDraw,
                };
                if game.apply_table(s.side(), action).is_err() {
                    return cheat(s, FourFault::Unexpected(e.body.kind()), r);
                }
            }
            Body4::Timeout => {
                let late = game.turn();
                if late == s.side() || game.apply_table(late, Action::Timeout).is_err() {
                    return cheat(s, FourFault::Unexpected(Kind4::Timeout), r);
                }
            }
            Body4::NoMoves => {
                if game.position().out_reason(s.side()) != Some(WinReason::NoLegalMove) {
                    return cheat(s, FourFault::FalseNoMoves, r);
                }
            }
            Body4::Resign => {
                if game.apply_table(s.side(), Action::Resign).is_err() {
                    return cheat(s, FourFault::ResignTooEarly, r);
                }
            }
            // A dispute outside a battle (of a 双明 reveal, checked above):
            // nothing was wrong.
            Body4::Dispute => return cheat(s, FourFault::FalseDispute, r),
            Body4::Leave => {
                left_result = Some(leave_result(s.side(), |x| game.is_in(x)));
                break;
            }
            // A hand-over: by a seat that agreed in its hello, on its move,
            // once a team; its seed and ranks the ones it opened at the end.
            Body4::HandOver { sealed } => {
                let to = s.partner();
                if !agreed[s.index()]
                    || handed[s.index()] != Some(r)
                    || handed[to.index()].is_some_and(|h| h < r)
                    || game.turn() != s.side()
                {
                    return cheat(s, FourFault::Unexpected(Kind4::HandOver), r);
                }
                let theirs = commits[to.index()].partner_key;
                let opens =
                    partner::open_hand_over(&seeds[s.index()], &theirs, &gid, s, to, sealed)
                        .is_ok_and(|h| {
                            h.seed == seeds[s.index()] && h.ranks == opened_ranks[s.index()]
                        });
                if !opens {
                    return cheat(s, FourFault::BadHandOver, r);
                }
            }
            _ => return AuditOutcome::Unauditable(AuditGap::Altered { round: r }),
        }
    }
    let result = left_result.unwrap_or_else(|| game.result());
    AuditOutcome::Clean {
        record: game.record().clone(),
        result,
    }
}
