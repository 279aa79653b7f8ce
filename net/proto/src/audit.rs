//! The end-of-game audit (FAIRPLAY.md): with both seeds and setups opened,
//! recheck every commitment, the setups' legality, every move of the signed
//! log, every battle's oblivious transfer and every flag opening. The first
//! mismatch names the cheater.

use junqi_game::{Action, Game, Move, Point, Record, Rules, SetupError, Side};
use serde::{Deserialize, Serialize};

use crate::announced::AnnouncementTable;
use crate::commit::{PieceOpening, verify_reveal};
use crate::crypto::{Digest, Seed};
use crate::evidence::Evidence;
use crate::fault::FaultKind;
use crate::findings::{MoveFault, TurnAct};
use crate::ot::{BattleRecord, BattleRole, OtKey, OtRequest, OtResponse, OtReveal, audit_battle};
use crate::rank::WireRank;
use crate::wire::{layout_of, rank_from_game, seat_of};

/// One step of the game as both sides applied it, with the battle data from
/// the signed messages.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[allow(clippy::large_enum_variant)] // a few hundred per game
pub enum Act {
    /// A move to an empty point (any move in open games).
    Step {
        /// Who moved.
        side: Side,
        /// From.
        from: u8,
        /// To.
        to: u8,
    },
    /// A dark-game battle.
    Battle {
        /// The attacker.
        side: Side,
        /// From.
        from: u8,
        /// To.
        to: u8,
        /// Battle counter.
        k: u64,
        /// Battle context.
        ctx: Digest,
        /// The attacker's `R`.
        request: OtRequest,
        /// The defender's table, if sent.
        response: Option<OtResponse>,
        /// The attacker's label, if sent.
        reveal: Option<OtReveal>,
    },
    /// A side ran out of time.
    Timeout {
        /// Who.
        side: Side,
    },
    /// A flag opening after a commander died.
    FlagOpen {
        /// Whose flag.
        side: Side,
        /// The opening.
        opening: PieceOpening,
    },
    /// A side claimed to have no legal move.
    NoMoves {
        /// Who.
        side: Side,
        /// The other side's answer: whether it can move (`None`: not sent).
        reply: Option<bool>,
    },
}

/// A cheat found, with its culprit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// Who cheated.
    pub culprit: Side,
    /// What is wrong.
    pub reason: FaultKind,
    /// Where the evidence is.
    pub evidence: Evidence,
}

/// What a side committed to at the start.
#[derive(Clone, Copy, Debug)]
pub struct Commitments<'a> {
    /// `C_s` by slot.
    pub pieces: &'a [Digest],
    /// The seed commitment.
    pub seed: Digest,
    /// `S`.
    pub ot_key: [u8; 32],
}

/// Everything the audit needs.
#[derive(Clone, Debug)]
pub struct AuditInput<'a> {
    /// The rules.
    pub rules: Rules,
    /// The game id.
    pub game_id: Digest,
    /// Who moved first.
    pub first: Side,
    /// `f(c, d)`.
    pub table: &'a AnnouncementTable,
    /// South's then North's opened seed, ranks by slot, and commitments.
    pub sides: [(&'a Seed, &'a [WireRank], Commitments<'a>); 2],
    /// The game as played.
    pub acts: &'a [Act],
}

fn fault(culprit: Side, reason: FaultKind, evidence: Evidence) -> Fault {
    Fault {
        culprit,
        reason,
        evidence,
    }
}

/// Runs the audit; a clean game gives back its whole record (both setups and every action),
/// which either side may keep as a replay of the full board.
///
/// # Errors
/// The first fault found.
pub fn audit(input: &AuditInput<'_>) -> Result<Record, Fault> {
    for (i, side) in Side::TWO.into_iter().enumerate() {
        let (seed, ranks, c) = &input.sides[i];
        let placement = crate::commit::placement_of(ranks);
        verify_reveal(
            &input.game_id,
            seat_of(side),
            seed,
            &c.seed,
            &placement,
            c.pieces,
        )
        .map_err(|e| fault(side, FaultKind::SetupMismatch(e), Evidence::CommitAndReveal))?;
        if OtKey::from_seed(seed).public() != c.ot_key {
            return Err(fault(side, FaultKind::KeyMismatch, Evidence::Commit));
        }
    }
    let layouts = [
        layout_of(input.sides[0].1, Side::South),
        layout_of(input.sides[1].1, Side::North),
    ];
    for (i, side) in Side::TWO.into_iter().enumerate() {
        if let Err(e) = layouts[i].validate(&input.rules) {
            return Err(fault(
                side,
                FaultKind::IllegalSetup(SetupError::Layout { side, errors: e }),
                Evidence::Reveal,
            ));
        }
    }
    let mut game = Game::new(input.rules, layouts[0], layouts[1], input.first)
        .map_err(|e| fault(Side::South, FaultKind::IllegalSetup(e), Evidence::Reveal))?;
    for (n, act) in input.acts.iter().enumerate() {
        let at = Evidence::Act(n);
        // Checked even when the engine has already ended the game: a claim of
        // no moves comes after the move that left none.
        if let Act::NoMoves { side, reply } = act {
            if game.position().has_legal_move(*side) {
                return Err(fault(*side, FaultKind::FalseNoMoves, at));
            }
            let other = side.opponent();
            if let Some(can_move) = *reply
                && game.position().has_legal_move(other) != can_move
            {
                return Err(fault(other, FaultKind::FalseNoMovesReply(can_move), at));
            }
            continue;
        }
        if game.result().is_some() {
            break;
        }
        match act {
            Act::Step { side, from, to } | Act::Battle { side, from, to, .. } => {
                let m = Move::Step {
                    from: Point(*from),
                    to: Point(*to),
                };
                if game.turn() != *side {
                    return Err(fault(*side, FaultKind::OutOfTurn(TurnAct::Move), at));
                }
                if let Err(e) = game.position().check(m) {
                    return Err(fault(
                        *side,
                        FaultKind::IllegalMove(MoveFault::Refused { mv: m, error: e }),
                        at,
                    ));
                }
                if let Act::Battle {
                    side,
                    k,
                    ctx,
                    request,
                    response,
                    reveal,
                    ..
                } = act
                {
                    let pos = game.position();
                    let (Some(a), Some(d)) = (pos.at(Point(*from)), pos.at(Point(*to))) else {
                        return Err(fault(
                            *side,
                            FaultKind::IllegalMove(MoveFault::NoBattle {
                                from: Point(*from),
                                to: Point(*to),
                            }),
                            at,
                        ));
                    };
                    let (ai, di) = (side.index(), side.opponent().index());
                    let rec = BattleRecord {
                        ctx: *ctx,
                        k: *k,
                        attacker_rank: rank_from_game(a.rank),
                        defender_rank: rank_from_game(d.rank),
                        s: input.sides[di].2.ot_key,
                        request,
                        response: response.as_ref(),
                        reveal: reveal.as_ref(),
                    };
                    if let Err(f) =
                        audit_battle(&rec, input.sides[ai].0, input.sides[di].0, input.table)
                    {
                        let culprit = match f.culprit {
                            BattleRole::Attacker => *side,
                            BattleRole::Defender => side.opponent(),
                        };
                        return Err(fault(
                            culprit,
                            FaultKind::Battle {
                                k: *k,
                                cheat: f.reason,
                            },
                            at,
                        ));
                    }
                    if reveal.is_none() {
                        break;
                    }
                }
                if let Err(e) = game.apply(*side, Action::Move(m)) {
                    return Err(fault(
                        *side,
                        FaultKind::IllegalMove(MoveFault::Action(e)),
                        at,
                    ));
                }
            }
            Act::Timeout { side } => {
                let _ = game.apply(*side, Action::Timeout);
            }
            Act::NoMoves { .. } => {}
            Act::FlagOpen { side, opening } => {
                let ranks = input.sides[side.index()].1;
                if opening.rank != WireRank::Flag
                    || ranks.get(opening.square as usize) != Some(&WireRank::Flag)
                {
                    return Err(fault(*side, FaultKind::BadFlagOpening, at));
                }
            }
        }
    }
    Ok(game.record().clone())
}
