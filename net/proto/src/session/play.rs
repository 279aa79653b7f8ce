//! The play stage: what is owed next, by whom and since when ([`Play::owed`],
//! the one place that decides it), moves, draws, claims and resignations.
//! Dark battles and flip openings are in [`super::battle`] and
//! [`super::opening`].

use std::time::{Duration, Instant};

use junqi_game::{
    Action, DrawReason, Event, GameResult, Move, PlayerView, Point, Seen, Side, WinReason,
};

use super::error::SessionError;
use super::event::AppEvent;
use super::mode::{ModeState, RefereeSnapshot};
use super::setup_state::PeerCommit;
use super::shared::Core;
use super::timers::Timer;
use crate::audit::Act;
use crate::envelope::Header;
use crate::evidence::Evidence;
use crate::fault::FaultKind;
use crate::findings::{MoveFault, Phase, TurnAct, Unexpected};
use crate::ot::{Attacker, Defender, battle_context};
use crate::wire::{Body, rank_from_game};

#[derive(Clone)]
pub(super) struct Play {
    pub(super) view: PlayerView,
    pub(super) pending: Pending,
    /// What is owed now, and since when.
    pub(super) debt: Debt,
    /// Which step of an action the debt belongs to (a new step, a new debt).
    debt_step: u8,
    /// The clock of the turn under way (whoever is on move): only a move
    /// restarts it.
    turn: Turn,
    /// This side's latest move-class message (a move, a draw offer, a
    /// no-moves claim): a timeout claim that did not see it is judged on it.
    last_move: Option<SentMove>,
    my_time_expired: bool,
    /// The ply of each side's last draw offer (one offer a turn).
    offered: [Option<u16>; 2],
    /// This side's timeout claim (its sequence number and the claim margin of
    /// the turn it ended): moves sent before the peer saw it are void.
    claim: Option<(u64, Duration)>,
    snapshot: Option<Snapshot>,
    pub(super) acts: Vec<Act>,
    pub(super) peer: PeerCommit,
    pub(super) mode: ModeState,
    /// Set when the game ends; the session then moves to the audit.
    pub(super) end: Option<GameResult>,
}

/// An action under way: what the peer (or this side's player) owes next.
#[derive(Clone)]
pub(super) enum Pending {
    None,
    MyAttack {
        att: Attacker,
        from: Point,
        to: Point,
        act: usize,
    },
    PeerAttack {
        def: Defender,
        from: Point,
        to: Point,
        act: usize,
    },
    PeerFlag,
    /// Flip games: a move that turns a face-down piece over waits for the
    /// shuffle openings of its point (`index`): the guest's entry gives
    /// `slot`, the host's entry of `slot` gives the piece. The guest opens
    /// for its own move only after the host's [`Body::Proceed`].
    Opening {
        mover: Side,
        m: Move,
        index: u8,
        slot: Option<u8>,
    },
    MyDrawOffer,
    PeerDrawOffer,
    MyNoMoves,
}

/// One turn's move clock, on this side's clock: it starts when the turn
/// begins (this side sent or received the move that ended the last one) and
/// is paused while a draw offer waits for its answer. No other message
/// restarts it: not a draw offer, its answer, nor a reply inside an action.
#[derive(Clone, Copy, Debug)]
struct Turn {
    by: Side,
    ply: u16,
    since: Instant,
    /// Time spent waiting for draw answers, not counted.
    paused: Duration,
    /// Since when it is paused.
    pause_from: Option<Instant>,
    /// Draw offers answered in this turn (each adds a round trip of doubt to
    /// when the two sides' clocks resume).
    offers: u32,
}

impl Turn {
    fn new(by: Side, ply: u16, now: Instant) -> Turn {
        Turn {
            by,
            ply,
            since: now,
            paused: Duration::ZERO,
            pause_from: None,
            offers: 0,
        }
    }

    /// When the mover's move clock runs out, on this side's clock.
    fn deadline(&self, move_time: Duration) -> Instant {
        self.since + self.paused + move_time
    }

    /// How much of the turn the mover has used, on this side's clock.
    fn used(&self, now: Instant) -> Duration {
        let end = self.pause_from.unwrap_or(now);
        end.saturating_duration_since(self.since)
            .saturating_sub(self.paused)
    }

    /// How long after the mover's deadline the other side claims: a round
    /// trip, and one more for each answered draw offer (the two sides paused
    /// and resumed the clock a message apart).
    fn claim_margin(&self, grace: Duration) -> Duration {
        grace * 2 * (1 + self.offers)
    }
}

/// This side's move-class message as sent.
#[derive(Clone, Copy, Debug)]
struct SentMove {
    ply: u16,
    seq: u64,
    turn_ms: u32,
    /// How close to its deadline a move must have been sent for a claim that
    /// did not see it to void it: the claim margin of that turn.
    window: Duration,
}

/// The state before this side's last plain move, to roll it back if it
/// crossed the peer's timeout claim.
#[derive(Clone)]
struct Snapshot {
    ply: u16,
    /// Where this side's move clock at `ply` started (pauses added): it ran
    /// out a move time later.
    origin: Instant,
    view: PlayerView,
    acts: usize,
    referee: RefereeSnapshot,
}

/// What is owed next in play: the only messages accepted from the peer are
/// those it owes (plus a resignation or a dispute at any time), and a claim
/// against a side is valid only once what it owes is overdue on its own clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Due {
    /// A move (or a draw offer, a no-moves claim) on its turn: the move clock.
    Move,
    /// An answer to a draw offer: the move clock.
    Answer,
    /// An automatic reply inside an action (a table, a label, a flag or flip
    /// opening, a no-moves reply): an honest side sends it at once.
    Reply,
}

/// A debt and when it began on this side's clock: for the peer's debts when
/// this side sent what caused it, for its own when that arrived.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Debt {
    pub(super) by: Side,
    pub(super) due: Due,
    ply: u16,
    since: Instant,
}

impl Play {
    pub(super) fn new(
        now: Instant,
        me: Side,
        view: PlayerView,
        peer: PeerCommit,
        mode: ModeState,
    ) -> Play {
        let turn = Turn::new(view.turn(), view.ply(), now);
        let mut play = Play {
            debt: Debt {
                by: view.turn(),
                due: Due::Move,
                ply: view.ply(),
                since: now,
            },
            view,
            pending: Pending::None,
            debt_step: 0,
            turn,
            last_move: None,
            my_time_expired: false,
            offered: [None; 2],
            claim: None,
            snapshot: None,
            acts: Vec::new(),
            peer,
            mode,
            end: None,
        };
        let (by, due, step) = play.owed(me);
        play.debt = Debt {
            by,
            due,
            ply: play.view.ply(),
            since: now,
        };
        play.debt_step = step;
        play
    }

    pub(super) fn view(&self) -> &PlayerView {
        &self.view
    }

    pub(super) fn into_view(self) -> PlayerView {
        self.view
    }

    pub(super) fn my_turn(&self, me: Side) -> bool {
        self.end.is_none()
            && matches!(self.pending, Pending::None)
            && self.view.turn() == me
            && self.view.result().is_none()
    }

    /// What is owed now, by whom: the one place that decides it.
    pub(super) fn owed(&self, me: Side) -> (Side, Due, u8) {
        let peer = me.opponent();
        match self.pending {
            Pending::None => (self.view.turn(), Due::Move, 0),
            Pending::MyAttack { .. } => (peer, Due::Reply, 1),
            Pending::PeerAttack { .. } => (peer, Due::Reply, 2),
            Pending::PeerFlag => (peer, Due::Reply, 3),
            Pending::Opening { slot, .. } => (peer, Due::Reply, 4 + u8::from(slot.is_some())),
            Pending::MyNoMoves => (peer, Due::Reply, 6),
            Pending::MyDrawOffer => (peer, Due::Answer, 7),
            Pending::PeerDrawOffer => (me, Due::Answer, 8),
        }
    }

    /// A new debt starts its clock now; the same debt keeps its start. The
    /// turn's move clock restarts only with a new turn, and stands still
    /// while a draw offer waits for its answer.
    pub(super) fn update_debt(&mut self, c: &Core, now: Instant) {
        let (by, due, step) = self.owed(c.me);
        let ply = self.view.ply();
        let mover = self.view.turn();
        if (self.turn.by, self.turn.ply) != (mover, ply) {
            self.turn = Turn::new(mover, ply, now);
            if mover == c.me {
                self.my_time_expired = false;
            }
        }
        let answering = matches!(self.pending, Pending::MyDrawOffer | Pending::PeerDrawOffer);
        match (answering, self.turn.pause_from) {
            (true, None) => self.turn.pause_from = Some(now),
            (false, Some(from)) => {
                self.turn.paused += now.saturating_duration_since(from);
                self.turn.pause_from = None;
                self.turn.offers += 1;
            }
            _ => {}
        }
        let d = self.debt;
        if (d.by, d.due, d.ply) != (by, due, ply) || self.debt_step != step {
            self.debt = Debt {
                by,
                due,
                ply,
                since: now,
            };
        }
        self.debt_step = step;
    }

    /// The play timer the debt arms: this side's own clock for its own debt
    /// (none for an automatic reply, sent at once), the claim against the
    /// peer's once it is overdue by the claim margin. A move is timed by the
    /// turn's clock, an answer or a reply from when it fell due.
    pub(super) fn timer(&self, c: &Core) -> Option<(Timer, Instant)> {
        let d = self.debt;
        let move_time = c.move_time();
        if d.by != c.me {
            let at = match d.due {
                Due::Move => self.turn.deadline(move_time) + self.turn.claim_margin(c.grace),
                Due::Answer | Due::Reply => d.since + move_time + claim_margin(c.grace, d.due),
            };
            return Some((Timer::ClaimPeer, at));
        }
        match d.due {
            Due::Move => {
                (!self.my_time_expired).then_some((Timer::MyClock, self.turn.deadline(move_time)))
            }
            Due::Answer => Some((Timer::MyClock, d.since + move_time)),
            Due::Reply => None,
        }
    }

    /// The turn clock a move-class message of this side carries, and the
    /// record of it (a claim that did not see it is judged on it).
    fn stamp_move(&mut self, c: &mut Core, now: Instant) {
        let used = self.turn.used(now);
        let turn_ms = u32::try_from(used.as_millis()).unwrap_or(u32::MAX);
        c.turn_ms = turn_ms;
        // During a rebuild the logged clock is the one sent.
        let turn_ms = if c.replaying {
            let seq = c.transcript.counts().0 as usize;
            c.replay_clocks.get(seq).copied().unwrap_or(turn_ms)
        } else {
            turn_ms
        };
        self.last_move = Some(SentMove {
            ply: self.view.ply(),
            seq: c.transcript.counts().0,
            turn_ms,
            window: self.turn.claim_margin(c.grace),
        });
    }

    /// The peer's debt is overdue by the claim margin: claim it.
    pub(super) fn claim_overdue(&mut self, c: &mut Core, now: Instant) {
        match self.debt.due {
            Due::Move => self.claim_timeout(c, now),
            Due::Answer | Due::Reply => self.claim_forfeit(c),
        }
    }

    /// This side's own debt fell due.
    pub(super) fn my_clock_ran_out(&mut self, c: &mut Core, now: Instant) {
        match self.debt.due {
            Due::Move => {
                self.my_time_expired = true;
                c.events.push_back(AppEvent::TimeExpired);
            }
            // An unanswered offer is declined when the answer falls due,
            // so the offerer never has to claim.
            Due::Answer => {
                let _ = self.decline_draw(c, now);
            }
            Due::Reply => {}
        }
    }

    pub(super) fn claim_timeout(&mut self, c: &mut Core, now: Instant) {
        let ply = self.view.ply();
        c.send(Body::ClaimTimeout { ply });
        self.claim = Some((c.transcript.counts().0 - 1, self.turn.claim_margin(c.grace)));
        self.apply_timeout(c, now, c.peer());
    }

    pub(super) fn claim_forfeit(&mut self, c: &mut Core) {
        c.send(Body::ClaimForfeit);
        self.finish(GameResult::Win {
            winner: c.me,
            reason: WinReason::Forfeit,
        });
    }

    /// The game is over; the first ending stands.
    pub(super) fn finish(&mut self, result: GameResult) {
        if self.end.is_none() {
            self.end = Some(result);
        }
    }

    /// A fault in play: this side disputes and wins by forfeit.
    pub(super) fn fault(
        &mut self,
        c: &mut Core,
        culprit: Side,
        reason: FaultKind,
        evidence: Evidence,
    ) {
        c.record_fault(culprit, reason.clone(), evidence);
        if self.end.is_some() {
            // After the end it only goes into the verdict.
            return;
        }
        c.dispute(&reason);
        self.finish(GameResult::Win {
            winner: culprit.opponent(),
            reason: WinReason::Forfeit,
        });
    }

    pub(super) fn violation(&mut self, c: &mut Core, header: &Header, kind: FaultKind) {
        let peer = c.peer();
        let seq = header.seq;
        self.fault(c, peer, kind, Evidence::message(peer, seq));
    }

    // ----- this side's decisions ---------------------------------------------

    pub(super) fn play(&mut self, c: &mut Core, now: Instant, m: Move) -> Result<(), SessionError> {
        if !self.my_turn(c.me) {
            return Err(SessionError::NotYourTurn);
        }
        if self.my_time_expired {
            return Err(SessionError::TimeExpired);
        }
        if !self.view.legal_moves().contains(&m) {
            return Err(SessionError::Illegal);
        }
        self.play_inner(c, now, m)
    }

    pub(super) fn play_inner(
        &mut self,
        c: &mut Core,
        now: Instant,
        m: Move,
    ) -> Result<(), SessionError> {
        match &self.mode {
            ModeState::Flip(flip) => {
                // The local referee is the authority: never send a move it refuses.
                let g = &flip.referee;
                if g.turn() != c.me || g.position().check(m).is_err() {
                    return Err(SessionError::Illegal);
                }
                let opened = flip.opened_by(m);
                self.stamp_move(c, now);
                c.send(match m {
                    Move::Flip { at } => Body::Flip { at: at.0 },
                    Move::Step { from, to } => Body::Step {
                        from: from.0,
                        to: to.0,
                    },
                });
                match opened {
                    Some(at) => {
                        self.snapshot = None;
                        self.start_opening(c, now, c.me, m, at);
                    }
                    None => {
                        self.take_snapshot();
                        self.referee_action(c, now, c.me, Action::Move(m));
                    }
                }
            }
            ModeState::Open(_) => {
                let Move::Step { from, to } = m else {
                    return Err(SessionError::Illegal);
                };
                self.stamp_move(c, now);
                c.send(Body::Step {
                    from: from.0,
                    to: to.0,
                });
                self.take_snapshot();
                self.referee_action(c, now, c.me, Action::Move(m));
            }
            ModeState::Dark(_) => {
                let Move::Step { from, to } = m else {
                    return Err(SessionError::Illegal);
                };
                if self.view.at(to).is_some() {
                    self.start_attack(c, now, from, to)?;
                } else {
                    self.take_snapshot();
                    self.stamp_move(c, now);
                    c.send(Body::Step {
                        from: from.0,
                        to: to.0,
                    });
                    self.acts.push(Act::Step {
                        side: c.me,
                        from: from.0,
                        to: to.0,
                    });
                    self.apply_event(
                        c,
                        now,
                        Event::Moved {
                            side: c.me,
                            from,
                            to,
                        },
                        true,
                    );
                }
            }
        }
        self.update_debt(c, now);
        Ok(())
    }

    /// Dark games: this side attacks `to`; the peer owes its table.
    fn start_attack(
        &mut self,
        c: &mut Core,
        now: Instant,
        from: Point,
        to: Point,
    ) -> Result<(), SessionError> {
        let Some(Seen::Piece {
            rank: Some(rank), ..
        }) = self.view.at(from)
        else {
            return Err(SessionError::Illegal);
        };
        // `k` is the attack's own sequence number: never used twice, not
        // across a voided attack nor a reconnection (FAIRPLAY pitfall 3).
        let k = c.transcript.counts().0;
        let prev = c.transcript.last_sent();
        let cx = battle_context(&c.game_id, k, from.0, to.0, &prev);
        let (att, req) = Attacker::start(&c.seed, k, rank_from_game(rank), &self.peer.ot, cx)
            .map_err(|_| SessionError::Illegal)?;
        self.stamp_move(c, now);
        c.send(Body::Attack {
            from: from.0,
            to: to.0,
            r: req.r,
        });
        self.acts.push(Act::Battle {
            side: c.me,
            from: from.0,
            to: to.0,
            k,
            ctx: cx,
            request: req,
            response: None,
            reveal: None,
        });
        self.pending = Pending::MyAttack {
            att,
            from,
            to,
            act: self.acts.len() - 1,
        };
        self.snapshot = None;
        Ok(())
    }

    pub(super) fn offer_draw(&mut self, c: &mut Core, now: Instant) -> Result<(), SessionError> {
        if !self.my_turn(c.me) {
            return Err(SessionError::NotYourTurn);
        }
        let ply = self.view.ply();
        if self.offered[c.me.index()] == Some(ply) {
            return Err(SessionError::AlreadyOffered);
        }
        self.offered[c.me.index()] = Some(ply);
        self.take_snapshot();
        self.stamp_move(c, now);
        c.send(Body::OfferDraw);
        self.mode.note(c.me, Action::OfferDraw);
        self.pending = Pending::MyDrawOffer;
        self.apply_event(c, now, Event::DrawOffered { side: c.me }, false);
        self.update_debt(c, now);
        Ok(())
    }

    pub(super) fn accept_draw(&mut self, c: &mut Core) -> Result<(), SessionError> {
        if !matches!(self.pending, Pending::PeerDrawOffer) || self.end.is_some() {
            return Err(SessionError::WrongPhase);
        }
        c.send(Body::AcceptDraw);
        self.pending = Pending::None;
        self.finish(GameResult::Draw {
            reason: DrawReason::Agreed,
        });
        Ok(())
    }

    pub(super) fn decline_draw(&mut self, c: &mut Core, now: Instant) -> Result<(), SessionError> {
        if !matches!(self.pending, Pending::PeerDrawOffer) || self.end.is_some() {
            return Err(SessionError::WrongPhase);
        }
        c.send(Body::DeclineDraw);
        self.mode.note(c.me, Action::DeclineDraw);
        self.pending = Pending::None;
        self.apply_event(c, now, Event::DrawDeclined { side: c.me }, false);
        self.update_debt(c, now);
        Ok(())
    }

    pub(super) fn resign(&mut self, c: &mut Core) -> Result<(), SessionError> {
        if self.end.is_some() {
            return Err(SessionError::WrongPhase);
        }
        if self.view.ply() < c.rules.resign_after_plies {
            return Err(SessionError::ResignTooEarly);
        }
        c.send(Body::Resign);
        self.finish(GameResult::Win {
            winner: c.me.opponent(),
            reason: WinReason::Resignation,
        });
        Ok(())
    }

    // ----- the peer's messages --------------------------------------------------

    #[allow(clippy::too_many_lines)]
    pub(super) fn on_body(&mut self, c: &mut Core, now: Instant, header: &Header, body: Body) {
        let peer = c.peer();
        let peer_turn = self.view.turn() == peer;
        let board_len = self.view.board().len();
        // A move sent before the peer saw our timeout claim is void, if it
        // could have crossed the claim: sent within the claim margin of its
        // deadline on the mover's signed clock. One sent earlier would have
        // arrived before the claim within the latency bound: its clock lies.
        let a_move = matches!(
            body,
            Body::Step { .. }
                | Body::Attack { .. }
                | Body::Flip { .. }
                | Body::OfferDraw
                | Body::NoMoves
        );
        if (a_move || matches!(body, Body::FlipOpen(_)))
            && let Some((claim, window)) = self.claim
            && header.ack_seq <= claim
        {
            if a_move && !could_cross(header.turn_ms, window, c.move_time()) {
                return self.violation(
                    c,
                    header,
                    FaultKind::MoveClockContradicted {
                        turn_ms: header.turn_ms,
                    },
                );
            }
            return;
        }
        // Points off the board never reach the engine.
        if let Body::Step { from, to } | Body::Attack { from, to, .. } = body
            && (usize::from(from) >= board_len || usize::from(to) >= board_len)
        {
            return self.violation(
                c,
                header,
                FaultKind::IllegalMove(MoveFault::OffBoard {
                    point: if usize::from(from) >= board_len {
                        from
                    } else {
                        to
                    },
                }),
            );
        }
        if let Body::Flip { at } = body
            && usize::from(at) >= board_len
        {
            return self.violation(
                c,
                header,
                FaultKind::IllegalMove(MoveFault::OffBoard { point: at }),
            );
        }
        let idle = matches!(self.pending, Pending::None);
        match body {
            Body::Step { from, to } => {
                if !peer_turn || !idle {
                    return self.violation(c, header, FaultKind::OutOfTurn(TurnAct::Move));
                }
                let (from, to) = (Point(from), Point(to));
                let m = Move::Step { from, to };
                match self.mode {
                    ModeState::Flip(_) => self.peer_flip_move(c, now, header, m),
                    ModeState::Open(_) => self.referee_action(c, now, peer, Action::Move(m)),
                    ModeState::Dark(_) => {
                        if self.view.at(to).is_some() {
                            return self.violation(
                                c,
                                header,
                                FaultKind::IllegalMove(MoveFault::OntoOccupied { from, to }),
                            );
                        }
                        self.acts.push(Act::Step {
                            side: peer,
                            from: from.0,
                            to: to.0,
                        });
                        self.apply_peer_event(
                            c,
                            now,
                            header,
                            Event::Moved {
                                side: peer,
                                from,
                                to,
                            },
                        );
                    }
                }
            }
            Body::Attack { from, to, r } => {
                // Only dark games battle by attack messages.
                if !peer_turn || !idle || !matches!(self.mode, ModeState::Dark(_)) {
                    return self.violation(c, header, FaultKind::OutOfTurn(TurnAct::Attack));
                }
                self.on_attack(c, header, from, to, r);
            }
            Body::Table(resp) => self.on_table(c, now, header, resp),
            Body::Label(reveal) => self.on_label(c, now, header, reveal),
            Body::FlagOpen(opening) => self.on_flag_open(c, now, header, opening),
            Body::Flip { at } => {
                if !peer_turn || !idle {
                    return self.violation(c, header, FaultKind::OutOfTurn(TurnAct::Flip));
                }
                match self.mode {
                    ModeState::Flip(_) => {
                        self.peer_flip_move(c, now, header, Move::Flip { at: Point(at) })
                    }
                    ModeState::Dark(_) | ModeState::Open(_) => self.violation(
                        c,
                        header,
                        FaultKind::Unexpected(Unexpected::FlipOutsideFlipGame),
                    ),
                }
            }
            Body::FlipOpen(opening) => self.on_flip_open(c, now, header, &opening),
            Body::Proceed => self.on_proceed(c, header),
            Body::ClaimTimeout { ply } => self.on_claim_timeout(c, now, header, ply),
            Body::ClaimForfeit => {
                // Only a reply or an answer this side owes, overdue on its own
                // clock, can be forfeited (a move is claimed as a timeout).
                let d = self.debt;
                let overdue = d.by == c.me
                    && d.due != Due::Move
                    && c.clock_passed(now, d.since + c.move_time());
                if !overdue {
                    return self.violation(c, header, FaultKind::BaselessForfeitClaim);
                }
                self.finish(GameResult::Win {
                    winner: peer,
                    reason: WinReason::Forfeit,
                });
            }
            Body::NoMoves => {
                if !peer_turn || !idle {
                    return self.violation(c, header, FaultKind::OutOfTurn(TurnAct::NoMovesClaim));
                }
                let pos = self
                    .view
                    .determinize(|_| (peer, junqi_game::Rank::Engineer));
                let can_move = pos.has_legal_move(c.me);
                c.send(Body::NoMovesReply { can_move });
                self.acts.push(Act::NoMoves {
                    side: peer,
                    reply: Some(can_move),
                });
                self.finish(no_moves_result(peer, can_move));
            }
            Body::NoMovesReply { can_move } => {
                if !matches!(self.pending, Pending::MyNoMoves) {
                    return self.violation(
                        c,
                        header,
                        FaultKind::Unexpected(Unexpected::NoMovesReplyWithoutClaim),
                    );
                }
                // The audit checks the answer against the opened setups.
                if let Some(Act::NoMoves { reply, .. }) = self.acts.last_mut() {
                    *reply = Some(can_move);
                }
                self.pending = Pending::None;
                self.finish(no_moves_result(c.me, can_move));
            }
            Body::OfferDraw => {
                if !peer_turn || !idle {
                    return self.violation(c, header, FaultKind::OutOfTurn(TurnAct::DrawOffer));
                }
                // One offer a turn: repeated offers would stall the game.
                let ply = self.view.ply();
                if self.offered[peer.index()] == Some(ply) {
                    return self.violation(c, header, FaultKind::RepeatedDrawOffer);
                }
                self.offered[peer.index()] = Some(ply);
                self.mode.note(peer, Action::OfferDraw);
                self.pending = Pending::PeerDrawOffer;
                self.apply_peer_event(c, now, header, Event::DrawOffered { side: peer });
                c.events.push_back(AppEvent::DrawOffered);
            }
            Body::AcceptDraw => {
                if !matches!(self.pending, Pending::MyDrawOffer) {
                    return self.violation(
                        c,
                        header,
                        FaultKind::Unexpected(Unexpected::AcceptWithoutOffer),
                    );
                }
                self.pending = Pending::None;
                self.finish(GameResult::Draw {
                    reason: DrawReason::Agreed,
                });
            }
            Body::DeclineDraw => {
                if !matches!(self.pending, Pending::MyDrawOffer) {
                    return self.violation(
                        c,
                        header,
                        FaultKind::Unexpected(Unexpected::DeclineWithoutOffer),
                    );
                }
                self.mode.note(peer, Action::DeclineDraw);
                self.pending = Pending::None;
                self.apply_peer_event(c, now, header, Event::DrawDeclined { side: peer });
            }
            Body::Resign => {
                // A resignation that crossed this side's move ends the game
                // before that move, as the resigning side saw it: both keep
                // the same record.
                if header.ack_seq < c.transcript.counts().0 {
                    self.void_crossing_move(c.me);
                }
                self.finish(GameResult::Win {
                    winner: c.me,
                    reason: WinReason::Resignation,
                });
            }
            Body::Dispute { reason } => {
                c.peer_disputed = true;
                let r: String = reason.chars().take(crate::wire::MAX_REASON).collect();
                c.events.push_back(AppEvent::Fault {
                    culprit: c.me,
                    reason: FaultKind::PeerDisputes(r),
                });
                self.finish(GameResult::Win {
                    winner: c.me,
                    reason: WinReason::Forfeit,
                });
            }
            other => self.violation(
                c,
                header,
                FaultKind::Unexpected(Unexpected::Message {
                    kind: other.kind(),
                    phase: Phase::Play,
                }),
            ),
        }
    }

    /// Voids this side's latest move, which the peer had not seen.
    fn void_crossing_move(&mut self, me: Side) {
        match self.pending {
            Pending::MyAttack { act, .. } => {
                self.acts.truncate(act);
                self.pending = Pending::None;
            }
            Pending::Opening { mover, .. } if mover == me => {
                self.pending = Pending::None;
            }
            Pending::None => {
                let ply = self.view.ply();
                if let Some(snap) = self.snapshot.take()
                    && snap.ply + 1 == ply
                {
                    self.roll_back(snap);
                }
            }
            _ => {}
        }
    }

    /// Puts the view, the acts and the local referee back as they were
    /// before this side's voided move.
    fn roll_back(&mut self, snap: Snapshot) {
        self.view = snap.view;
        self.acts.truncate(snap.acts);
        self.mode.restore(snap.referee);
    }

    fn take_snapshot(&mut self) {
        self.snapshot = Some(Snapshot {
            ply: self.view.ply(),
            origin: self.turn.deadline(Duration::ZERO),
            view: self.view.clone(),
            acts: self.acts.len(),
            referee: self.mode.save(),
        });
    }

    /// The peer claims this side ran out of time at `ply`. The latency rule:
    /// a claim that did not see this side's move at `ply` voids that move only
    /// if the move was sent within the claim margin of its deadline (its
    /// signed turn clock says so), and only once the deadline has passed on
    /// this side's clock; a claim that did not see a move sent earlier is the
    /// claimant's violation (the signed claim and the signed move are the
    /// evidence, and [`crate::log_audit`] applies the same rule).
    fn on_claim_timeout(&mut self, c: &mut Core, now: Instant, header: &Header, ply: u16) {
        let move_time = c.move_time();
        let crossed = self
            .last_move
            .filter(|m| m.ply == ply && header.ack_seq <= m.seq)
            .filter(|_| {
                self.view.ply() == ply
                    && match self.pending {
                        Pending::MyAttack { .. } | Pending::MyNoMoves | Pending::MyDrawOffer => {
                            true
                        }
                        Pending::Opening { mover, .. } => mover == c.me,
                        _ => false,
                    }
                    || self.snapshot.as_ref().is_some_and(|s| s.ply == ply)
            });
        let d = self.debt;
        let on_move = crossed.is_some() || d.by == c.me && d.due == Due::Move && d.ply == ply;
        if !on_move {
            return self.violation(c, header, FaultKind::EarlyTimeoutClaim { on_move: false });
        }
        if let Some(m) = crossed
            && !could_cross(m.turn_ms, m.window, move_time)
        {
            return self.violation(
                c,
                header,
                FaultKind::ClaimCrossedEarlyMove { turn_ms: m.turn_ms },
            );
        }
        let origin = match (&crossed, &self.snapshot) {
            (Some(_), Some(s)) if s.ply == ply => s.origin,
            _ => self.turn.deadline(Duration::ZERO),
        };
        if !c.clock_passed(now, origin + move_time) {
            return self.violation(c, header, FaultKind::EarlyTimeoutClaim { on_move: true });
        }
        if crossed.is_some() {
            match self.pending {
                // The battle counter stays where it is: a voided attack's
                // `x` is never used again.
                Pending::MyAttack { act, .. } => self.acts.truncate(act),
                Pending::MyNoMoves => {
                    self.acts.pop();
                }
                _ => {}
            }
            self.pending = Pending::None;
            if let Some(snap) = self.snapshot.take()
                && snap.ply == ply
            {
                self.roll_back(snap);
            }
        }
        self.snapshot = None;
        self.apply_timeout(c, now, c.me);
    }

    fn apply_timeout(&mut self, c: &mut Core, now: Instant, side: Side) {
        self.acts.push(Act::Timeout { side });
        match self.mode {
            ModeState::Open(_) | ModeState::Flip(_) => {
                self.referee_action(c, now, side, Action::Timeout)
            }
            ModeState::Dark(_) => {
                let count = self.view.timeouts(side) + 1;
                self.apply_event(c, now, Event::TimedOut { side, count }, false);
                if self.end.is_none() && c.rules.is_timeout_loss(count) {
                    self.finish(GameResult::Win {
                        winner: side.opponent(),
                        reason: WinReason::Timeouts,
                    });
                }
            }
        }
    }

    /// Open and flip games: the local referee applies an action.
    pub(super) fn referee_action(
        &mut self,
        c: &mut Core,
        now: Instant,
        side: Side,
        action: Action,
    ) {
        let applied = match &mut self.mode {
            ModeState::Open(o) => o.referee.apply(side, action),
            ModeState::Flip(f) => f.referee.apply(side, action),
            // No referee: nothing calls this in a dark game.
            ModeState::Dark(_) => return,
        };
        match applied {
            Ok(events) => {
                if let Action::Move(Move::Step { from, to }) = action {
                    self.acts.push(Act::Step {
                        side,
                        from: from.0,
                        to: to.0,
                    });
                }
                for e in events {
                    if let Event::GameOver { result } = e {
                        self.finish(result);
                        return;
                    }
                    if self.view.apply(&e).is_ok() {
                        c.events.push_back(AppEvent::Game(e));
                    }
                }
                self.after_event(c, now);
            }
            Err(e) => {
                // The side whose action it was, not always the peer.
                self.fault(
                    c,
                    side,
                    FaultKind::IllegalMove(MoveFault::Action(e)),
                    Evidence::LastMessage(side),
                );
            }
        }
    }

    /// Applies an event caused by the peer; one that does not fit the view is a
    /// protocol violation.
    pub(super) fn apply_peer_event(
        &mut self,
        c: &mut Core,
        now: Instant,
        header: &Header,
        e: Event,
    ) {
        if let Err(err) = self.view.apply(&e) {
            return self.violation(c, header, FaultKind::IllegalMove(MoveFault::View(err)));
        }
        c.events.push_back(AppEvent::Game(e));
        self.after_event(c, now);
    }

    pub(super) fn apply_event(&mut self, c: &mut Core, now: Instant, e: Event, check: bool) {
        if self.view.apply(&e).is_ok() {
            c.events.push_back(AppEvent::Game(e));
        }
        if check
            || matches!(
                e,
                Event::Moved { .. } | Event::TimedOut { .. } | Event::DrawDeclined { .. }
            )
        {
            self.after_event(c, now);
        }
    }

    /// After each completed turn: draws by quiet moves, no-move claims, turn notice.
    pub(super) fn after_event(&mut self, c: &mut Core, now: Instant) {
        if self.end.is_some() || !matches!(self.pending, Pending::None) {
            return;
        }
        let v = &self.view;
        match self.mode {
            // The local referee ends the game itself (quiet moves, no move left).
            ModeState::Open(_) | ModeState::Flip(_) => {
                if v.turn() == c.me {
                    c.events.push_back(AppEvent::YourTurn);
                }
            }
            ModeState::Dark(_) => {
                if c.rules.is_quiet_draw(v.quiet_plies()) {
                    return self.finish(GameResult::Draw {
                        reason: DrawReason::QuietMoves,
                    });
                }
                if v.turn() == c.me {
                    if v.legal_moves().is_empty() {
                        self.stamp_move(c, now);
                        c.send(Body::NoMoves);
                        self.acts.push(Act::NoMoves {
                            side: c.me,
                            reply: None,
                        });
                        self.pending = Pending::MyNoMoves;
                    } else {
                        c.events.push_back(AppEvent::YourTurn);
                    }
                }
            }
        }
        self.update_debt(c, now);
    }
}

/// How long after the other side's deadline this side waits before it
/// claims. A move: a round trip (two graces), so an honest move sent on
/// time has arrived whenever one-way latency is below the grace, and
/// below two graces a crossing claim still arrives after the mover's own
/// deadline (the crossing rule then voids the move on both sides). An
/// answer or a reply: two round trips, so nothing honest ever crosses
/// such a claim while one-way latency is below two graces.
fn claim_margin(grace: Duration, due: Due) -> Duration {
    match due {
        Due::Move => grace * 2,
        Due::Answer | Due::Reply => grace * 4,
    }
}

/// Whether a move sent `turn_ms` into its turn can have crossed a timeout
/// claim: only if it was sent within the claim margin (`window`) of the move
/// clock's end. Any earlier move reaches the claimant before it claims when
/// latency is within twice the bound.
fn could_cross(turn_ms: u32, window: Duration, move_time: Duration) -> bool {
    Duration::from_millis(u64::from(turn_ms)) + window >= move_time
}

pub(super) fn no_moves_result(stuck: Side, other_can_move: bool) -> GameResult {
    if other_can_move {
        GameResult::Win {
            winner: stuck.opponent(),
            reason: WinReason::NoLegalMove,
        }
    } else {
        GameResult::Draw {
            reason: DrawReason::NoMovesEither,
        }
    }
}
