//! Play at a four-seat table: moves, battles between two seats watched by
//! the two others, flag openings, seats going out, leaving.

use std::time::{Duration, Instant};

use junqi_game::{
    Event, GameResult, Move, PlayerView, Point, PointKind, Seen, Side, TableEvent, WinReason,
};

use super::battle::{WatchError, watch};
use super::body::{Body4, Kind4};
use super::fault::FourFault;
use super::log::Envelope4;
use super::play_state::{Battle, Owed};
use super::seat::{FourSeat, slot_point};
use super::session::{Ending, FourCallError, FourEvent, FourSession, Phase, move_wait};
use crate::crypto::Digest;
use crate::ot::{Attacker, Defender, OtError, OtRequest, OtResponse, battle_context};
use crate::rank::WireRank;
use crate::session::LATENCY_BOUND;
use crate::wire::{announcement_of, rank_from_game};

/// RULES.md §9: a player who leaves ends the game; if the other enemy is
/// already out, the remaining team wins, otherwise nobody scores. The one
/// place of this rule, for the seats and the audit.
#[must_use]
pub fn leave_result(leaver: Side, is_in: impl Fn(Side) -> bool) -> Option<GameResult> {
    if is_in(leaver.partner()) {
        return None;
    }
    let winners = leaver.team().other().seats();
    let winner = winners
        .into_iter()
        .find(|&s| is_in(s))
        .unwrap_or(winners[0]);
    Some(GameResult::Win {
        winner,
        reason: WinReason::Forfeit,
    })
}

impl FourSession {
    /// Whether this seat is on move.
    #[must_use]
    pub fn my_turn(&self) -> bool {
        self.phase == Phase::Play
            && self
                .play
                .as_ref()
                .is_some_and(|p| p.owed == Owed::Move(self.me))
    }

    /// Plays `mv` (a step: a move, or an attack when an enemy piece stands there).
    ///
    /// # Errors
    /// Not this seat's move, or a move its view does not allow.
    pub fn play(&mut self, now: Instant, mv: Move) -> Result<(), FourCallError> {
        self.now = now;
        if !self.my_turn() {
            return Err(FourCallError::NotYourMove);
        }
        let p = self.play.as_ref().expect("in play");
        if !p.view.legal_moves().contains(&mv) {
            return Err(FourCallError::Illegal);
        }
        let Move::Step { from, to } = mv else {
            return Err(FourCallError::Illegal);
        };
        let body = match p.view.at(to) {
            // 全明: every seat's referee plays the battle; no transfer.
            Some(Seen::Piece { .. }) if p.referee.is_some() => Body4::Move {
                from: from.0,
                to: to.0,
            },
            Some(Seen::Piece { side, .. }) => {
                let defender = FourSeat::of_side(side);
                let Some(Seen::Piece { rank: Some(c), .. }) = p.view.at(from) else {
                    return Err(FourCallError::Illegal);
                };
                #[allow(unused_mut)]
                let mut c = rank_from_game(c);
                #[allow(unused_mut)]
                let mut k = self.log.round();
                #[cfg(feature = "testing")]
                {
                    if let Some(r) = self.cheats.wrong_rank {
                        c = r;
                    }
                    if self.cheats.reuse_x
                        && let Some(first) = self.play.as_ref().and_then(|p| p.first_attack)
                    {
                        k = first;
                    }
                }
                let ctx = battle_context(
                    &self.game_id,
                    self.log.round(),
                    from.0,
                    to.0,
                    &self.log.prev(),
                );
                let key = &self.commits[defender.index()]
                    .as_ref()
                    .expect("committed")
                    .ot_key;
                let Ok((att, req)) = Attacker::start(&self.cfg.seed, k, c, key, ctx) else {
                    return Err(FourCallError::Illegal);
                };
                let p = self.play.as_mut().expect("in play");
                p.my_attack = Some(att);
                p.first_attack.get_or_insert(k);
                Body4::Attack {
                    from: from.0,
                    to: to.0,
                    r: req.r,
                }
            }
            _ => Body4::Move {
                from: from.0,
                to: to.0,
            },
        };
        let p = self.play.as_mut().expect("in play");
        p.before_my_move = None;
        let before = Box::new(p.clone());
        self.play.as_mut().expect("in play").before_my_move = Some(before);
        self.send(body);
        self.drain_ahead();
        Ok(())
    }

    /// Resigns (this seat goes out).
    ///
    /// # Errors
    /// Not this seat's move, or in the first plies.
    pub fn resign(&mut self, now: Instant) -> Result<(), FourCallError> {
        self.now = now;
        if !self.my_turn() {
            return Err(FourCallError::NotYourMove);
        }
        let p = self.play.as_ref().expect("in play");
        if p.view.ply() < self.rules.resign_after_plies {
            return Err(FourCallError::TooEarly);
        }
        self.send(Body4::Resign);
        self.drain_ahead();
        Ok(())
    }

    /// Leaves the table (逃跑): with a signed `Leave` when this seat owes
    /// the next message, else by going silent; the table is over for it.
    /// On its move, a seat whose player agreed to it ([`super::FourConfig::hand_over`])
    /// hands the seat to its partner's device instead (`HandOver`), and
    /// the game goes on.
    pub fn leave(&mut self, now: Instant) {
        self.now = now;
        let p = self.play.as_ref().filter(|_| self.phase == Phase::Play);
        let owes = p.is_some_and(|p| p.owed.seat() == self.me);
        let on_move = p.is_some_and(|p| p.owed == Owed::Move(self.me));
        if on_move && self.cfg.hand_over && self.may_hand_over(self.me) {
            let body = self.hand_over_body();
            self.send(body);
        } else if owes {
            self.send(Body4::Leave);
        }
        self.end(Ending::Left(self.me), None, None);
    }

    /// Whether `seat` may hand its seat over now: its player agreed in its
    /// hello, it is not the host (whose device relays), and neither it nor
    /// its partner has handed a seat over already (the partner's device
    /// must be at the table to take it).
    pub(super) fn may_hand_over(&self, seat: FourSeat) -> bool {
        self.agreed[seat.index()]
            && seat != self.cfg.host
            && self.handed[seat.index()].is_none()
            && self.handed[seat.partner().index()].is_none()
    }

    /// This seat's seed and ranks, encrypted to its partner.
    fn hand_over_body(&self) -> Body4 {
        let to = self.me.partner();
        let secret = super::partner::HandOverSecret {
            seed: self.cfg.seed.clone(),
            ranks: self
                .mine
                .as_ref()
                .expect("committed")
                .placement
                .iter()
                .map(|&(_, r)| r)
                .collect(),
        };
        let theirs = self.commits[to.index()]
            .as_ref()
            .expect("committed")
            .partner_key;
        #[allow(unused_mut)]
        let mut sealed = super::partner::seal_hand_over(
            &self.cfg.seed,
            &theirs,
            &self.game_id,
            self.me,
            to,
            &secret,
        )
        .expect("the key was checked when it arrived");
        #[cfg(feature = "testing")]
        if self.cheats.bad_hand_over {
            sealed.ct[0] ^= 1;
        }
        Body4::HandOver { sealed }
    }

    pub(super) fn take_play(&mut self, env: Envelope4) {
        let hd = env.signed.header;
        let (sender, round) = (hd.sender, hd.round);
        let owed = self.play.as_ref().expect("in play").owed;
        let open = self.play.as_ref().is_some_and(|p| p.referee.is_some());
        let allowed = match (&env.body, owed) {
            (
                Body4::Attack { .. }
                | Body4::Table(_)
                | Body4::Label(_)
                | Body4::FlagOpen(_)
                | Body4::NoMoves
                | Body4::Dispute,
                _,
            ) if open => false,
            (
                Body4::Move { .. }
                | Body4::Attack { .. }
                | Body4::NoMoves
                | Body4::Resign
                | Body4::Dispute,
                Owed::Move(s),
            )
            | (Body4::Table(_), Owed::Table(s))
            | (Body4::Label(_) | Body4::Dispute, Owed::Label(s))
            | (Body4::FlagOpen(_), Owed::Flag(s)) => s == sender,
            (Body4::OfferDraw, Owed::Move(s)) => {
                let p = self.play.as_ref().expect("in play");
                s == sender && p.offered_at != Some(p.view.ply())
            }
            (Body4::AcceptDraw | Body4::DeclineDraw, Owed::Answer(s)) => s == sender,
            (Body4::Leave, o) => o.seat() == sender,
            (Body4::HandOver { .. }, Owed::Move(s)) => s == sender && self.may_hand_over(s),
            (Body4::Timeout, Owed::Move(s)) => s != sender && sender == self.keeper(s),
            _ => false,
        };
        if !allowed {
            return self.blame(sender, FourFault::Unexpected(env.body.kind()), round);
        }
        let body = env.body.clone();
        let prev = hd.prev;
        self.log.push(env);
        self.log.close_round();
        self.progress(move_wait(&self.rules));
        self.play.as_mut().expect("in play").claim_at = None;
        if matches!(
            body,
            Body4::OfferDraw | Body4::AcceptDraw | Body4::DeclineDraw
        ) {
            return self.take_draw(sender, round, &body);
        }
        if let Body4::HandOver { sealed } = &body {
            return self.on_hand_over(sender, round, sealed);
        }
        if open {
            return self.take_open(sender, round, owed, &body);
        }
        match body {
            Body4::Move { from, to } => {
                let e = Event::Moved {
                    side: sender.side(),
                    from: Point(from),
                    to: Point(to),
                };
                if !self.apply(TableEvent::Event(e)) {
                    return self.blame(sender, FourFault::IllegalMove { from, to }, round);
                }
                self.after_action();
            }
            Body4::Attack { from, to, r } => self.on_attack(sender, round, prev, from, to, r),
            Body4::Table(resp) => self.on_table(sender, round, resp),
            Body4::Label(reveal) => {
                let b = self
                    .play
                    .as_mut()
                    .and_then(|p| p.battle.take())
                    .expect("a battle");
                let resp = b.response.as_ref().expect("a table");
                match watch(&b.ctx, resp, &reveal, &self.table) {
                    Ok(o) => self.apply_battle(&b, &o, round),
                    Err(WatchError::TableShape) => {
                        self.blame(
                            b.defender,
                            FourFault::Announcement(WatchError::TableShape),
                            round,
                        );
                    }
                    Err(e) => self.blame(sender, FourFault::Announcement(e), round),
                }
            }
            Body4::Dispute => self.open_armies(Ending::Played, None),
            Body4::FlagOpen(opening) => {
                let commit = &self.commits[sender.index()]
                    .as_ref()
                    .expect("committed")
                    .pieces;
                let at = slot_point(sender, opening.square);
                let ok = opening.rank == WireRank::Flag
                    && at.is_some_and(|p| {
                        junqi_game::Board::four_player().kind(p) == PointKind::Headquarters
                    })
                    && commit
                        .get(usize::from(opening.square))
                        .is_some_and(|c| opening.verify(&self.game_id, sender, c));
                let Some(at) = at.filter(|_| ok) else {
                    return self.blame(sender, FourFault::BadFlagOpening, round);
                };
                let e = Event::FlagRevealed {
                    side: sender.side(),
                    at,
                };
                if !self.apply(TableEvent::Event(e)) {
                    return self.blame(sender, FourFault::BadFlagOpening, round);
                }
                self.next_flag();
            }
            Body4::Timeout => {
                let Owed::Move(late) = owed else {
                    unreachable!("checked above")
                };
                let count = self
                    .play
                    .as_ref()
                    .expect("in play")
                    .view
                    .timeouts(late.side())
                    + 1;
                let e = Event::TimedOut {
                    side: late.side(),
                    count,
                };
                if !self.apply(TableEvent::Event(e)) {
                    return self.blame(sender, FourFault::Unexpected(Kind4::Timeout), round);
                }
                if self.rules.is_timeout_loss(count) {
                    self.out(late, WinReason::Timeouts);
                }
                self.after_action();
            }
            Body4::NoMoves => {
                self.out(sender, WinReason::NoLegalMove);
                self.after_action();
            }
            Body4::Resign => {
                let ply = self.play.as_ref().expect("in play").view.ply();
                if ply < self.rules.resign_after_plies {
                    return self.blame(sender, FourFault::ResignTooEarly, round);
                }
                self.out(sender, WinReason::Resignation);
                self.after_action();
            }
            Body4::Leave => {
                let view = &self.play.as_ref().expect("in play").view;
                let result = leave_result(sender.side(), |s| view.is_in(s));
                self.play.as_mut().expect("in play").left = Some(sender);
                self.open_armies(Ending::Left(sender), result);
            }
            _ => unreachable!("checked above"),
        }
    }

    /// `seat` handed its seat to its partner's device: from the next round
    /// on the partner's key signs for it, and it still owes its move. The
    /// partner's device checks the seed and ranks against the seat's
    /// commitments; if they do not open, it cannot play the seat and leaves
    /// in its name (RULES.md §9, as if nothing had been handed over).
    fn on_hand_over(&mut self, seat: FourSeat, round: u64, sealed: &super::partner::Sealed) {
        self.handed[seat.index()] = Some(round);
        if seat == self.me {
            // The leaver itself: its session ends now.
            return;
        }
        if self.me == seat.partner() {
            match self.read_hand_over(seat, sealed) {
                Some(secret) => {
                    self.handed_to_me = Some((seat, secret));
                    self.events.push_back(FourEvent::TakeOver { seat });
                }
                None => return self.send_as(seat, Body4::Leave),
            }
        }
        self.next_turn();
    }

    /// A hand-over to this seat, opened and checked against the seat's
    /// commitments (seed, pieces, oblivious-transfer and partner keys).
    fn read_hand_over(
        &self,
        seat: FourSeat,
        sealed: &super::partner::Sealed,
    ) -> Option<super::partner::HandOverSecret> {
        let commit = self.commits[seat.index()].as_ref()?;
        let secret = super::partner::open_hand_over(
            &self.cfg.seed,
            &commit.partner_key,
            &self.game_id,
            seat,
            self.me,
            sealed,
        )
        .ok()?;
        let placement = crate::commit::placement_of(&secret.ranks);
        crate::commit::verify_reveal(
            &self.game_id,
            seat,
            &secret.seed,
            &commit.seed,
            &placement,
            &commit.pieces,
        )
        .ok()?;
        let committed_ot = self
            .log
            .messages(3)
            .and_then(|m| m[seat.index()].as_ref())
            .and_then(|e| match &e.body {
                Body4::Commit { ot_key, .. } => Some(*ot_key),
                _ => None,
            })?;
        let keys_ok = crate::ot::OtKey::from_seed(&secret.seed).public() == committed_ot
            && super::partner::public_key(&secret.seed) == commit.partner_key;
        let legal = super::seat::layout_of(&secret.ranks, seat)
            .validate(&self.rules)
            .is_ok();
        (keys_ok && legal).then_some(secret)
    }

    /// The seat its partner handed to this device, to play beside this one:
    /// a session of that seat from this one's state, with the seat's seed
    /// and pieces, signing with this seat's key. The owner feeds it every
    /// frame it feeds this session, sends what it sends, and passes each
    /// session's frames to the other.
    ///
    /// # Errors
    /// No seat was handed to this device, it was taken, or the table is over.
    pub fn take_over(&mut self, now: Instant) -> Result<FourSession, FourCallError> {
        self.now = now;
        let (seat, secret) = self
            .handed_to_me
            .take()
            .filter(|_| self.phase == Phase::Play)
            .ok_or(FourCallError::NothingHandedOver)?;
        let rules = self.rules;
        let layout = super::seat::layout_of(&secret.ranks, seat);
        let placement = crate::commit::placement_of(&secret.ranks);
        let p = self.play.as_ref().expect("in play");
        let view = match &p.referee {
            Some(g) => g.view(seat.side()),
            None => {
                let own = layout
                    .validate(&rules)
                    .map_err(|_| FourCallError::BadSetup)?;
                let partner = self.cfg.layout.validate(&rules).ok();
                let mut v = PlayerView::new_four(
                    rules,
                    seat.side(),
                    &own,
                    partner.as_ref(),
                    self.first.side(),
                );
                for e in &p.history {
                    v.apply_table(e).map_err(|_| FourCallError::BadSetup)?;
                }
                v
            }
        };
        let mut proxy = self.clone();
        proxy.me = seat;
        proxy.cfg.seat = seat;
        proxy.cfg.hand_over = false;
        proxy.cfg.nonce = self.nonces_of(seat);
        proxy.cfg.layout = layout;
        proxy.cfg.seed = secret.seed.clone();
        proxy.mine = Some(crate::commit::SetupCommitment::new(
            &secret.seed,
            &self.game_id,
            seat,
            &placement,
        ));
        proxy.ot_key = crate::ot::OtKey::from_seed(&secret.seed);
        proxy.partner_layout = Some(self.cfg.layout);
        proxy.partner_disputed = false;
        proxy.out.clear();
        proxy.events.clear();
        proxy.taking = None;
        let pp = proxy.play.as_mut().expect("in play");
        pp.view = view;
        pp.my_attack = None;
        pp.first_attack = None;
        pp.before_my_move = None;
        pp.before_my_claim = None;
        pp.claim_at = None;
        if let Owed::Move(late) = pp.owed
            && late != seat
            && proxy.keeper(late) == seat
        {
            let wait = Duration::from_secs(u64::from(rules.move_seconds)) + 2 * LATENCY_BOUND;
            let pp = proxy.play.as_mut().expect("in play");
            pp.claim_at = Some(pp.turn_start + wait);
        }
        if proxy.my_turn() {
            proxy.events.push_back(FourEvent::YourTurn);
        }
        Ok(proxy)
    }

    /// 全明: the action goes through this seat's referee, whose events
    /// every view applies.
    fn take_open(&mut self, sender: FourSeat, round: u64, owed: Owed, body: &Body4) {
        let action = match *body {
            Body4::Move { from, to } => junqi_game::Action::Move(Move::Step {
                from: Point(from),
                to: Point(to),
            }),
            Body4::Resign => junqi_game::Action::Resign,
            Body4::Timeout => junqi_game::Action::Timeout,
            Body4::Leave => {
                let view = &self.play.as_ref().expect("in play").view;
                let result = leave_result(sender.side(), |s| view.is_in(s));
                self.play.as_mut().expect("in play").left = Some(sender);
                return self.open_armies(Ending::Left(sender), result);
            }
            _ => return self.blame(sender, FourFault::Unexpected(body.kind()), round),
        };
        let actor = match (body, owed) {
            (Body4::Timeout, Owed::Move(late)) => late,
            _ => sender,
        };
        let p = self.play.as_mut().expect("in play");
        let referee = p.referee.as_mut().expect("an open game");
        let events = match referee.apply_table(actor.side(), action) {
            Ok(events) => events,
            Err(_) => {
                let fault = match *body {
                    Body4::Move { from, to } => FourFault::IllegalMove { from, to },
                    Body4::Resign => FourFault::ResignTooEarly,
                    _ => FourFault::Unexpected(body.kind()),
                };
                return self.blame(sender, fault, round);
            }
        };
        let result = referee.result();
        for e in events {
            if !self.apply(e) {
                // The referee's own events always fit its view.
                return self.end(Ending::Abandoned, None, None);
            }
        }
        match result {
            Some(r) => self.open_armies(Ending::Played, Some(r)),
            None => self.next_turn(),
        }
    }

    fn on_attack(
        &mut self,
        attacker: FourSeat,
        round: u64,
        prev: Digest,
        from: u8,
        to: u8,
        r: [u8; 32],
    ) {
        let p = self.play.as_mut().expect("in play");
        let (fp, tp) = (Point(from), Point(to));
        let defender = match (p.view.at(fp), p.view.at(tp)) {
            (Some(Seen::Piece { side: a, .. }), Some(Seen::Piece { side: d, .. }))
                if a == attacker.side() && d.team() != a.team() && p.view.is_in(d) =>
            {
                FourSeat::of_side(d)
            }
            _ => return self.blame(attacker, FourFault::IllegalMove { from, to }, round),
        };
        if p.view.board().kind(tp) == PointKind::Camp
            || !p
                .view
                .moves_from(fp)
                .contains(&Move::Step { from: fp, to: tp })
        {
            return self.blame(attacker, FourFault::IllegalMove { from, to }, round);
        }
        let ctx = battle_context(&self.game_id, round, from, to, &prev);
        let mine_attacker = if attacker == self.me {
            p.my_attack.take()
        } else {
            None
        };
        p.battle = Some(Battle {
            attacker,
            defender,
            from,
            to,
            ctx,
            mine_attacker,
            response: None,
        });
        p.owed = Owed::Table(defender);
        if defender != self.me {
            return;
        }
        #[cfg(feature = "testing")]
        if self.cheats.leave_mid_battle {
            self.leave(self.now);
            return;
        }
        let Some(Seen::Piece { rank: Some(d), .. }) = p.view.at(tp) else {
            unreachable!("own pieces are known");
        };
        let req = OtRequest { r };
        match Defender::respond(
            &self.ot_key,
            &self.cfg.seed,
            ctx,
            &req,
            rank_from_game(d),
            &self.table,
        ) {
            Ok((_, mut resp)) => {
                #[cfg(feature = "testing")]
                if self.cheats.corrupt_table {
                    for e in &mut resp.entries {
                        e[0] ^= 1;
                    }
                }
                #[cfg(not(feature = "testing"))]
                let _ = &mut resp;
                self.send(Body4::Table(resp));
            }
            // An invalid R: the attacker's fault, on the log for everyone.
            Err(_) => self.blame(
                attacker,
                FourFault::Battle(crate::ot::BattleCheat::WrongRank),
                round,
            ),
        }
    }

    fn on_table(&mut self, defender: FourSeat, round: u64, resp: OtResponse) {
        let alphabet = self.table.alphabet().len();
        if resp.label_hashes.len() != alphabet {
            return self.blame(
                defender,
                FourFault::Announcement(WatchError::TableShape),
                round,
            );
        }
        let p = self.play.as_mut().expect("in play");
        let b = p.battle.as_mut().expect("a battle");
        b.response = Some(resp.clone());
        p.owed = Owed::Label(b.attacker);
        let Some(att) = b.mine_attacker.take() else {
            return;
        };
        match att.finish(&resp, &self.table) {
            Ok((_, mut reveal)) => {
                #[cfg(feature = "testing")]
                if let Some(code) = self.cheats.false_label {
                    reveal.outcome = code;
                    reveal.label = [7; 16];
                }
                #[cfg(not(feature = "testing"))]
                let _ = &mut reveal;
                self.send(Body4::Label(reveal));
            }
            Err(OtError::NoMatchingLabel) => self.send(Body4::Dispute),
            Err(_) => self.blame(
                defender,
                FourFault::Announcement(WatchError::TableShape),
                round,
            ),
        }
    }

    fn apply_battle(&mut self, b: &Battle, o: &crate::Announced, round: u64) {
        let (announcement, defender_rank) = announcement_of(o);
        let e = Event::Battle {
            side: b.attacker.side(),
            from: Point(b.from),
            to: Point(b.to),
            announcement,
            attacker_rank: None,
            defender_rank,
            defender_id: None,
        };
        if !self.apply(TableEvent::Event(e)) {
            // The announcement contradicts what this seat knows of the two
            // pieces (its own, or its partner's in 双明): an oblivious
            // transfer lied. This seat cannot follow play any more and
            // stops; the others find the table abandoned. (Relaying the
            // dispute so that every seat opens is not done yet.)
            let _ = round;
            return self.end(Ending::Abandoned, None, None);
        }
        let p = self.play.as_mut().expect("in play");
        for (died, owner) in [
            (o.announcement().attacker_commander_died, b.attacker),
            (o.announcement().defender_commander_died, b.defender),
        ] {
            if died {
                p.flags.push_back(owner);
            }
        }
        if o.announcement().flag_captured {
            p.captured = Some(b.defender);
        }
        self.next_flag();
    }

    /// The next flag opening owed after a battle, or the end of the action.
    fn next_flag(&mut self) {
        let p = self.play.as_mut().expect("in play");
        let Some(owner) = p.flags.pop_front() else {
            if let Some(d) = p.captured.take() {
                self.out(d, WinReason::FlagCaptured);
            }
            return self.after_action();
        };
        p.owed = Owed::Flag(owner);
        if owner != self.me {
            return;
        }
        let mine = self.mine.as_ref().expect("committed");
        let slot = mine
            .placement
            .iter()
            .position(|&(_, r)| r == WireRank::Flag)
            .expect("a flag") as u8;
        #[allow(unused_mut)]
        let mut opening = mine.opening(&self.cfg.seed, slot).expect("slot");
        #[cfg(feature = "testing")]
        if self.cheats.bad_flag_opening {
            opening.square = (opening.square + 1) % 25;
        }
        self.send(Body4::FlagOpen(opening));
    }

    /// A seat goes out: its pieces leave every view (撤子).
    fn out(&mut self, seat: FourSeat, reason: WinReason) {
        let p = self.play.as_mut().expect("in play");
        if !p.view.is_in(seat.side()) {
            return;
        }
        self.apply(TableEvent::PlayerOut {
            side: seat.side(),
            reason,
        });
        let p = self.play.as_mut().expect("in play");
        // RULES.md §9: a team with both players out has lost (as the
        // engine's `Position::remove_seat` decides it).
        if p.result.is_none() && !p.view.is_in(seat.side().partner()) {
            let winners = seat.side().team().other().seats();
            let winner = winners
                .into_iter()
                .find(|&s| p.view.is_in(s))
                .unwrap_or(winners[0]);
            p.result = Some(GameResult::Win { winner, reason });
        }
    }

    /// After a whole action: the end of the game, or the next seat's move.
    fn after_action(&mut self) {
        let rules = self.rules;
        let p = self.play.as_mut().expect("in play");
        if p.result.is_none() && rules.is_quiet_draw(p.view.quiet_plies()) {
            p.result = Some(GameResult::Draw {
                reason: junqi_game::DrawReason::QuietMoves,
            });
        }
        if let Some(result) = p.result {
            self.apply(TableEvent::Event(Event::GameOver { result }));
            return self.open_armies(Ending::Played, Some(result));
        }
        self.next_turn();
    }

    /// The seat on move owes the next message.
    pub(super) fn next_turn(&mut self) {
        let now = self.now;
        let seat = FourSeat::of_side(self.play.as_ref().expect("in play").view.turn());
        let keeps = seat != self.me && self.keeper(seat) == self.me;
        let p = self.play.as_mut().expect("in play");
        p.owed = Owed::Move(seat);
        p.turn_start = now;
        // The host keeps the clock of every other seat, its keeper the
        // host's: a round trip after the deadline it claims the timeout.
        #[allow(unused_mut)]
        let mut wait = Duration::from_secs(u64::from(self.rules.move_seconds)) + 2 * LATENCY_BOUND;
        #[cfg(feature = "testing")]
        if self.cheats.early_claim {
            wait = Duration::from_millis(1);
        }
        p.claim_at = keeps.then(|| now + wait);
        if seat != self.me {
            return;
        }
        if self.partner_disputed {
            self.send(Body4::Dispute);
        } else if p.referee.is_some() {
            // The referee has already put a stuck seat out.
            self.events.push_back(FourEvent::YourTurn);
        } else if p.view.legal_moves().is_empty() {
            self.send(Body4::NoMoves);
        } else {
            self.events.push_back(FourEvent::YourTurn);
        }
    }

    /// Applies a public event to the view and tells the owner; `false` if
    /// the view refuses it.
    pub(super) fn apply(&mut self, e: TableEvent) -> bool {
        let p = self.play.as_mut().expect("in play");
        if p.view.apply_table(&e).is_err() {
            return false;
        }
        p.history.push(e);
        self.events.push_back(FourEvent::Table(e));
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaving_scores_only_when_the_other_enemy_is_out() {
        let all_in = |_: Side| true;
        assert_eq!(leave_result(Side::East, all_in), None);
        let north_out = |s: Side| s != Side::North;
        assert_eq!(
            leave_result(Side::South, north_out),
            Some(GameResult::Win {
                winner: Side::East,
                reason: WinReason::Forfeit
            })
        );
        // The leaver's enemy being out changes nothing.
        assert_eq!(leave_result(Side::East, north_out), None);
    }
}
