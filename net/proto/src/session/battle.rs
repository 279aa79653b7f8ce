//! Dark games: battles through the oblivious transfer (attack, table,
//! label) and the flag openings a commander's death calls for.

use std::time::Instant;

use junqi_game::{Event, GameResult, Point, PointKind, Seen, WinReason};

use super::mode::ModeState;
use super::play::{Pending, Play};
use super::shared::Core;
use crate::audit::Act;
use crate::commit::PieceOpening;
use crate::envelope::Header;
use crate::evidence::{Evidence, Part};
use crate::fault::FaultKind;
use crate::findings::{MoveFault, Unexpected};
use crate::ot::{Defender, OtResponse, OtReveal, battle_context};
use crate::rank::WireRank;
use crate::wire::{Body, announcement_of, rank_from_game, slot_point};

impl Play {
    /// The peer attacks one of this side's pieces: answer with the table.
    pub(super) fn on_attack(
        &mut self,
        c: &mut Core,
        header: &Header,
        from: u8,
        to: u8,
        r: [u8; 32],
    ) {
        let peer = c.peer();
        let (fp, tp) = (Point(from), Point(to));
        let Some(Seen::Piece {
            side,
            rank: Some(d),
            ..
        }) = self.view.at(tp)
        else {
            return self.violation(
                c,
                header,
                FaultKind::IllegalMove(MoveFault::NoDefender { to: tp }),
            );
        };
        if side != c.me
            || !matches!(self.view.at(fp), Some(Seen::Piece { side, .. }) if side == peer)
        {
            return self.violation(
                c,
                header,
                FaultKind::IllegalMove(MoveFault::WrongPieces { from: fp, to: tp }),
            );
        }
        if self.view.board().kind(tp) == PointKind::Camp {
            return self.violation(
                c,
                header,
                FaultKind::IllegalMove(MoveFault::AttackOnCamp { to: tp }),
            );
        }
        let ModeState::Dark(dark) = &self.mode else {
            return;
        };
        let k = header.seq;
        let cx = battle_context(&c.game_id, k, from, to, &header.prev);
        let req = crate::ot::OtRequest { r };
        let d = rank_from_game(d);
        match Defender::respond(&c.ot_key, &c.seed, cx, &req, d, &dark.table) {
            Ok((def, mut resp)) => {
                if let Some(which) = c.cheats().corrupt_table {
                    for (j, e) in resp.entries.iter_mut().enumerate() {
                        if which.is_none_or(|w| w == j) {
                            e[0] ^= 1;
                        }
                    }
                }
                c.send(Body::Table(resp.clone()));
                self.acts.push(Act::Battle {
                    side: peer,
                    from,
                    to,
                    k,
                    ctx: cx,
                    request: req,
                    response: Some(resp),
                    reveal: None,
                });
                self.pending = Pending::PeerAttack {
                    def,
                    from: fp,
                    to: tp,
                    act: self.acts.len() - 1,
                };
            }
            Err(e) => self.violation(c, header, FaultKind::BadRequest(e)),
        }
    }

    /// The defender's table for this side's attack: open the outcome and
    /// prove it with the label.
    pub(super) fn on_table(
        &mut self,
        c: &mut Core,
        now: Instant,
        header: &Header,
        resp: OtResponse,
    ) {
        let peer = c.peer();
        let (Pending::MyAttack { att, from, to, act }, ModeState::Dark(dark)) = (
            std::mem::replace(&mut self.pending, Pending::None),
            &self.mode,
        ) else {
            return self.violation(
                c,
                header,
                FaultKind::Unexpected(Unexpected::TableWithoutAttack),
            );
        };
        if let Act::Battle { response, .. } = &mut self.acts[act] {
            *response = Some(resp.clone());
        }
        match att.finish(&resp, &dark.table) {
            Ok((o, mut reveal)) => {
                if c.cheats().withhold_label {
                    return;
                }
                if c.cheats().false_outcome
                    && let Some(other) = dark.table.alphabet().iter().find(|x| **x != o)
                {
                    reveal.outcome = other.code();
                }
                c.send(Body::Label(reveal));
                if let Act::Battle { reveal: r, .. } = &mut self.acts[act] {
                    *r = Some(reveal);
                }
                let me = c.me;
                self.apply_battle(c, now, header, me, from, to, &o);
            }
            Err(e) => {
                let seq = header.seq;
                self.fault(
                    c,
                    peer,
                    FaultKind::CorruptTable(e),
                    Evidence::Message {
                        by: peer,
                        part: Part::Table,
                        seq: Some(seq),
                    },
                );
            }
        }
    }

    /// The attacker's label for the peer's attack: check the outcome it announces.
    pub(super) fn on_label(
        &mut self,
        c: &mut Core,
        now: Instant,
        header: &Header,
        reveal: OtReveal,
    ) {
        let peer = c.peer();
        let (Pending::PeerAttack { def, from, to, act }, ModeState::Dark(dark)) = (
            std::mem::replace(&mut self.pending, Pending::None),
            &self.mode,
        ) else {
            return self.violation(
                c,
                header,
                FaultKind::Unexpected(Unexpected::LabelWithoutBattle),
            );
        };
        if let Act::Battle { reveal: r, .. } = &mut self.acts[act] {
            *r = Some(reveal);
        }
        match def.check(&reveal, &dark.table) {
            Ok(o) => self.apply_battle(c, now, header, peer, from, to, &o),
            Err(e) => {
                let seq = header.seq;
                self.fault(
                    c,
                    peer,
                    FaultKind::FalseOutcome(e),
                    Evidence::Message {
                        by: peer,
                        part: Part::Label,
                        seq: Some(seq),
                    },
                );
            }
        }
    }

    /// The peer opens its flag after its commander died.
    pub(super) fn on_flag_open(
        &mut self,
        c: &mut Core,
        now: Instant,
        header: &Header,
        opening: PieceOpening,
    ) {
        let peer = c.peer();
        let (Pending::PeerFlag, ModeState::Dark(dark)) = (&self.pending, &self.mode) else {
            return self.violation(
                c,
                header,
                FaultKind::Unexpected(Unexpected::FlagOpeningNotAsked),
            );
        };
        let at = slot_point(self.view.board(), peer, opening.square);
        let ok = opening.rank == WireRank::Flag
            && at.is_some_and(|p| self.view.board().kind(p) == PointKind::Headquarters)
            && dark
                .peer_pieces
                .get(opening.square as usize)
                .is_some_and(|pc| opening.verify(&c.game_id, c.peer_seat(), pc));
        let Some(at) = at.filter(|_| ok) else {
            let seq = header.seq;
            return self.fault(
                c,
                peer,
                FaultKind::BadFlagOpening,
                Evidence::Message {
                    by: peer,
                    part: Part::FlagOpening,
                    seq: Some(seq),
                },
            );
        };
        self.pending = Pending::None;
        self.acts.push(Act::FlagOpen {
            side: peer,
            opening,
        });
        let e = Event::FlagRevealed { side: peer, at };
        let deferred = match &mut self.mode {
            ModeState::Dark(dark) => dark.deferred_flag.take(),
            ModeState::Open(_) | ModeState::Flip(_) => None,
        };
        if let Some(mine) = deferred {
            if let Err(err) = self.view.apply(&e) {
                return self.violation(c, header, FaultKind::IllegalMove(MoveFault::View(err)));
            }
            c.events.push_back(crate::session::AppEvent::Game(e));
            self.apply_event(c, now, mine, true);
        } else {
            self.apply_peer_event(c, now, header, e);
        }
    }

    /// A battle's outcome, as both sides learn it: the event, then the flag
    /// openings a commander's death calls for.
    #[allow(clippy::too_many_arguments)]
    fn apply_battle(
        &mut self,
        c: &mut Core,
        now: Instant,
        header: &Header,
        attacker: junqi_game::Side,
        from: Point,
        to: Point,
        o: &crate::Announced,
    ) {
        let (announcement, defender_rank) = announcement_of(o);
        let ev = Event::Battle {
            side: attacker,
            from,
            to,
            announcement,
            attacker_rank: None,
            defender_rank,
            defender_id: None,
        };
        if attacker == c.me {
            self.apply_event(c, now, ev, false);
        } else {
            if let Err(err) = self.view.apply(&ev) {
                return self.violation(c, header, FaultKind::IllegalMove(MoveFault::View(err)));
            }
            c.events.push_back(crate::session::AppEvent::Game(ev));
        }
        if self.end.is_some() {
            return;
        }
        let ModeState::Dark(dark) = &mut self.mode else {
            return;
        };
        let defender = attacker.opponent();
        let mut need_peer = false;
        for (died, owner) in [
            (o.announcement().attacker_commander_died, attacker),
            (o.announcement().defender_commander_died, defender),
        ] {
            if !died {
                continue;
            }
            if owner == c.me {
                let slot = dark
                    .mine
                    .placement
                    .iter()
                    .position(|&(_, r)| r == WireRank::Flag)
                    .expect("a flag") as u8;
                let mut opening: PieceOpening = dark.mine.opening(&c.seed, slot).expect("slot");
                if c.cheats().bad_flag_opening {
                    opening.square = (opening.square + 1) % 25;
                }
                c.send(Body::FlagOpen(opening));
                self.acts.push(Act::FlagOpen {
                    side: c.me,
                    opening,
                });
                let at = slot_point(self.view.board(), c.me, slot).expect("slot");
                let e = Event::FlagRevealed { side: c.me, at };
                if need_peer {
                    // Keep the engine's order: the attacker's flag first.
                    dark.deferred_flag = Some(e);
                } else if self.view.apply(&e).is_ok() {
                    // `apply_event` without a turn check: a flag opening ends no turn.
                    c.events.push_back(crate::session::AppEvent::Game(e));
                }
            } else {
                need_peer = true;
            }
        }
        if o.announcement().flag_captured {
            self.finish(GameResult::Win {
                winner: attacker,
                reason: WinReason::FlagCaptured,
            });
        } else if need_peer {
            self.pending = Pending::PeerFlag;
        } else {
            self.after_event(c, now);
        }
    }
}
