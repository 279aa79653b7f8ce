//! The audit stage: the game is over, both sides open their seeds (and
//! setups), and [`crate::audit`] (or the flip-game check) names a cheater
//! with evidence, or gives the whole record of a clean game.

use std::time::Instant;

use junqi_game::{
    Action, DrawReason, Event, Game, GameResult, PlayerView, Record, Setup as GameSetup, Side,
    WinReason,
};

use super::audit_state::{Audit, Setups};
use super::mode::{Flip, ModeState};
use super::play::Play;
use super::setup_state::{PeerCommit, ranks_of};
use super::shared::Core;
use super::{AppEvent, MAX_AFTER_END, Session, Stage, Verdict};
use crate::announced::AnnouncementTable;
use crate::audit::{Act, AuditInput, Fault, audit};
use crate::commit::{RevealError, SetupCommitment, seed_commitment, verify_reveal};
use crate::crypto::{Digest, Seed};
use crate::envelope::Header;
use crate::evidence::{Evidence, Part};
use crate::fault::FaultKind;
use crate::flip::{FLIP_SIZE, FlipLayer, layer_of, permutation};
use crate::rank::{Seat, WireRank};
use crate::wire::{Body, side_of, slots_of, table_from_rules};

impl Session {
    /// Ends play if it ended: the audit begins.
    pub(super) fn settle(&mut self, now: Instant) {
        match std::mem::take(&mut self.stage) {
            Stage::Play(p) if p.end.is_some() => {
                let Play {
                    view,
                    acts,
                    peer,
                    mode,
                    end,
                    ..
                } = *p;
                let (setups, peer_reveal) = match mode {
                    ModeState::Dark(d) => (
                        Setups::Army {
                            mine: d.mine,
                            peer_pieces: d.peer_pieces,
                            table: d.table,
                        },
                        None,
                    ),
                    ModeState::Open(o) => (
                        Setups::Army {
                            mine: o.mine,
                            peer_pieces: o.peer_pieces,
                            table: table_from_rules(&self.core.rules),
                        },
                        Some(o.peer_reveal),
                    ),
                    ModeState::Flip(f) => (Setups::Flip(f), None),
                };
                if let Some(result) = end {
                    self.end_game(now, result, Some(view), acts, peer, setups, peer_reveal);
                }
            }
            other => self.stage = other,
        }
    }

    /// The game is over: tell the app, open this side's seed and setup, and
    /// audit once the peer's are in. The order of the openings is fair
    /// whatever ended the game: the side whose own message ended it opens
    /// first, the other only once that opening checks out against its
    /// commitments (so nobody obtains the other's setup while keeping its
    /// own closed; withholding after receiving is blamed on the log's
    /// evidence). In an open game both setups are public already.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn end_game(
        &mut self,
        now: Instant,
        result: GameResult,
        mut view: Option<PlayerView>,
        acts: Vec<Act>,
        peer: PeerCommit,
        setups: Setups,
        peer_reveal: Option<(Seed, Vec<WireRank>)>,
    ) {
        let c = &mut self.core;
        if let Some(v) = view.as_mut()
            && v.result().is_none()
        {
            let e = Event::GameOver { result };
            if v.apply(&e).is_ok() {
                c.events.push_back(AppEvent::Game(e));
            }
        }
        c.events.push_back(AppEvent::Finished(result));
        // Whose message ended the game: the last one this side logged.
        let ended_here = c.log.last().is_some_and(|e| e.header.sender == c.seat);
        let reveal_now = ended_here || peer_reveal.is_some();
        if reveal_now {
            send_reveal(c, &setups);
        }
        self.stage = Stage::Audit(Box::new(Audit {
            result,
            view,
            acts,
            peer,
            setups,
            peer_reveal,
            revealed: reveal_now,
            after_end: 0,
        }));
        self.timers.stop_all();
        if let Some(v) = self.try_verdict() {
            self.conclude(v);
        } else {
            self.rearm(now);
        }
    }

    /// A message after the end: the awaited reveal, or one that crossed the
    /// end (void, and only so many are read).
    pub(super) fn on_after_end(&mut self, _now: Instant, header: &Header, body: Body) {
        let peer = self.core.peer();
        let Stage::Audit(a) = &mut self.stage else {
            return;
        };
        match body {
            Body::Reveal { seed, ranks } => {
                if !a.revealed {
                    // This side opens only once the peer's opening opens
                    // what the peer committed to; else it disputes it.
                    match opens_commitment(&self.core, a, &seed, &ranks) {
                        Ok(()) => send_reveal(&mut self.core, &a.setups),
                        Err(e) => {
                            let reason = FaultKind::SetupMismatch(e);
                            self.core.record_fault(
                                peer,
                                reason.clone(),
                                Evidence::Message {
                                    by: peer,
                                    part: Part::Reveal,
                                    seq: Some(header.seq),
                                },
                            );
                            self.core.dispute(&reason);
                        }
                    }
                    a.revealed = true;
                }
                a.peer_reveal = Some((seed, ranks));
                if let Some(v) = self.try_verdict() {
                    self.conclude(v);
                }
            }
            body => {
                if matches!(body, Body::Dispute { .. }) {
                    self.core.peer_disputed = true;
                }
                // Messages crossing the end of the game are void; a stream of
                // them is not read (nor logged) for ever.
                a.after_end += 1;
                if a.after_end > MAX_AFTER_END {
                    let result = Some(a.result);
                    self.conclude(Verdict {
                        result,
                        cheater: Some(peer),
                        reason: Some(FaultKind::Flooding(MAX_AFTER_END)),
                        evidence: Some(Evidence::message(peer, header.seq)),
                        record: None,
                    });
                }
            }
        }
    }

    /// The peer's reveal did not come in time.
    pub(super) fn no_reveal(&mut self) {
        let Stage::Audit(a) = &self.stage else {
            return;
        };
        let peer = self.core.peer();
        let fault = self.core.fault.as_ref();
        let v = Verdict {
            result: Some(a.result),
            cheater: Some(fault.map_or(peer, |f| f.culprit)),
            reason: Some(fault.map_or(FaultKind::RefusedToOpen, |f| f.reason.clone())),
            evidence: Some(Evidence::NoRevealInTime),
            record: None,
        };
        self.conclude(v);
    }

    /// Runs the audit once the peer's reveal is in (or a self-evident fault
    /// makes it unnecessary).
    pub(super) fn try_verdict(&self) -> Option<Verdict> {
        let Stage::Audit(a) = &self.stage else {
            return None;
        };
        let c = &self.core;
        let (peer_seed, peer_ranks) = a.peer_reveal.as_ref()?;
        let peer = c.peer();
        let found = match &a.setups {
            Setups::Army {
                mine,
                peer_pieces,
                table,
            } => self.setup_audit(a, mine, peer_pieces, table, peer_seed, peer_ranks),
            Setups::Flip(flip) => self.flip_audit(a, flip, peer_seed, peer_ranks),
        };
        // The audit's finding comes first: it is the earliest cheat in game
        // order and a third party can check it; then what was seen at once.
        // A dispute that rebuilding from the log did not reproduce has no
        // signed evidence behind it (unsigned garbage on the stream, say).
        let fault = c.fault.as_ref().filter(|_| !c.fault_unsupported);
        let (cheater, reason, evidence, record) = match (fault, found) {
            (_, Err(f)) => (Some(f.culprit), Some(f.reason), Some(f.evidence), None),
            (Some(f), Ok(_)) => (
                Some(f.culprit),
                Some(f.reason.clone()),
                Some(f.evidence),
                None,
            ),
            (None, Ok(_)) if c.peer_disputed => (
                Some(peer),
                Some(FaultKind::UnsupportedDispute),
                Some(Evidence::Message {
                    by: peer,
                    part: Part::Dispute,
                    seq: None,
                }),
                None,
            ),
            (None, Ok(record)) => (
                None,
                None,
                None,
                record.map(|r| Box::new(with_ending(r, Some(a.result)))),
            ),
        };
        Some(Verdict {
            result: Some(a.result),
            cheater,
            reason,
            evidence,
            record,
        })
    }

    /// Dark and open games: the audit of both setups and every act (its record).
    fn setup_audit(
        &self,
        a: &Audit,
        mine: &SetupCommitment,
        peer_pieces: &[Digest],
        table: &AnnouncementTable,
        peer_seed: &Seed,
        peer_ranks: &[WireRank],
    ) -> Result<Option<Record>, Fault> {
        let c = &self.core;
        let my_ranks = ranks_of(mine);
        let peer_commit = crate::audit::Commitments {
            pieces: peer_pieces,
            seed: a.peer.seed,
            ot_key: a.peer.ot_bytes,
        };
        let my_commit = crate::audit::Commitments {
            pieces: &mine.commitments,
            seed: seed_commitment(&c.game_id, c.seat, &c.seed),
            ot_key: c.ot_key.public(),
        };
        let (south, north) = if c.me == Side::South {
            (
                (&c.seed, &my_ranks[..], my_commit),
                (peer_seed, peer_ranks, peer_commit),
            )
        } else {
            (
                (peer_seed, peer_ranks, peer_commit),
                (&c.seed, &my_ranks[..], my_commit),
            )
        };
        let input = AuditInput {
            rules: c.rules,
            game_id: c.game_id,
            first: c.first,
            table,
            sides: [south, north],
            acts: &a.acts,
        };
        audit(&input).map(Some)
    }

    /// Flip games: the end-of-game check. The peer's seed opens its
    /// commitment and reproduces its 50 committed entries (so its map is a
    /// permutation and every opening came from it); this side's own layer is
    /// checked the same way; every point opened during play holds the piece
    /// `σA(σB(p))` of the two seeds. A clean audit gives the record with every point's piece.
    fn flip_audit(
        &self,
        a: &Audit,
        flip: &Flip,
        peer_seed: &Seed,
        peer_ranks: &[WireRank],
    ) -> Result<Option<Record>, Fault> {
        let c = &self.core;
        let peer = c.peer();
        let blame = |culprit: Side, reason: FaultKind| {
            Err(Fault {
                culprit,
                reason,
                evidence: Evidence::FlipCommitments(culprit),
            })
        };
        if !peer_ranks.is_empty() {
            return blame(peer, FaultKind::RanksInFlipGame);
        }
        if seed_commitment(&c.game_id, c.peer_seat(), peer_seed) != a.peer.seed {
            return blame(
                peer,
                FaultKind::SetupMismatch(crate::commit::RevealError::Seed),
            );
        }
        if flip.peer.audit(peer_seed).is_err() {
            return blame(peer, FaultKind::BadShuffle);
        }
        let own = FlipLayer::new(&c.seed, &c.game_id, flip.mine.layer());
        if own.commitments() != flip.mine.commitments() {
            return blame(c.me, FaultKind::BadShuffle);
        }
        let (host_seed, guest_seed) = match c.seat {
            Seat::Host => (&c.seed, peer_seed),
            Seat::Guest => (peer_seed, &c.seed),
        };
        let sigma_a = permutation(host_seed, layer_of(Seat::Host));
        let sigma_b = permutation(guest_seed, layer_of(Seat::Guest));
        let truth: Vec<u8> = (0..FLIP_SIZE)
            .map(|i| sigma_a[sigma_b[i] as usize])
            .collect();
        for (i, &placed) in flip.arrangement.iter().enumerate() {
            if !flip.face_down(i) && placed != truth[i] {
                return blame(
                    side_of(Seat::Host),
                    FaultKind::WrongPiece {
                        point: i,
                        placed,
                        truth: truth[i],
                    },
                );
            }
        }
        // The pieces never opened stand where the seeds put them.
        let mut record = flip.referee.record().clone();
        record.setup = GameSetup::Flip { arrangement: truth };
        Ok(Game::replay(&record, None).ok().map(|_| record))
    }
}

/// Opens this side's seed and setup (a scripted cheater may lie or refuse).
fn send_reveal(c: &mut Core, setups: &Setups) {
    let ranks = match c.cheats().reveal_layout {
        Some(l) => slots_of(&l, c.me),
        None => match setups {
            Setups::Army { mine, .. } => ranks_of(mine),
            Setups::Flip(_) => Vec::new(),
        },
    };
    if !c.cheats().refuse_reveal {
        c.send(Body::Reveal {
            seed: c.seed.clone(),
            ranks,
        });
    }
}

/// Whether the peer's opening opens its commitments (its seed, and its
/// setup square by square; a flip game has no setup to open).
fn opens_commitment(
    c: &Core,
    a: &Audit,
    seed: &Seed,
    ranks: &[WireRank],
) -> Result<(), RevealError> {
    match &a.setups {
        Setups::Army { peer_pieces, .. } => {
            let placement = crate::commit::placement_of(ranks);
            verify_reveal(
                &c.game_id,
                c.peer_seat(),
                seed,
                &a.peer.seed,
                &placement,
                peer_pieces,
            )
        }
        Setups::Flip(_) => {
            if !ranks.is_empty() {
                return Err(RevealError::Count {
                    got: ranks.len(),
                    want: 0,
                });
            }
            if seed_commitment(&c.game_id, c.peer_seat(), seed) == a.peer.seed {
                Ok(())
            } else {
                Err(RevealError::Seed)
            }
        }
    }
}

/// The audit rebuilds the game from its acts; an ending off the board (a resignation, an agreed
/// draw) is added so that the record replays to the result both sides agreed on.
fn with_ending(mut record: Record, result: Option<GameResult>) -> Record {
    let Ok(game) = Game::replay(&record, None) else {
        return record;
    };
    if game.result().is_some() {
        return record;
    }
    let ending = match result {
        Some(GameResult::Win {
            winner,
            reason: WinReason::Resignation,
        }) => vec![(winner.opponent(), Action::Resign)],
        Some(GameResult::Draw {
            reason: DrawReason::Agreed,
        }) => {
            let offerer = game.turn();
            vec![
                (offerer, Action::OfferDraw),
                (offerer.opponent(), Action::AcceptDraw),
            ]
        }
        _ => return record,
    };
    let before = record.actions.len();
    record.actions.extend(ending);
    if Game::replay(&record, None).is_err() {
        record.actions.truncate(before);
    }
    record
}
