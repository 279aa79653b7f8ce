//! A seat's device coming back after a crash: it kept its journal (its
//! config and every message its log held) before each send, and rebuilds
//! the seat by replaying it. Messages the seat itself made are not signed
//! again: each one is taken from the journal where the seat's code would
//! make it (the same body, or the journal does not belong to this seat),
//! so the rebuilt seat holds exactly what it sent. A journal older than
//! what the others hold shows when the host resends a message of this
//! seat's that the journal lacks: the seat stops, nobody blamed
//! ([`super::Ending::StaleJournal`]).

use std::collections::VecDeque;
use std::time::Instant;

use junqi_game::{Move, Point};

use super::body::Body4;
use super::log::Envelope4;
use super::play_state::Owed;
use super::seat::FourSeat;
use super::session::{FourCallError, FourConfig, FourEvent, FourSession, Phase};

/// Why a journal cannot be replayed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResumeError {
    /// The config cannot open a table (see [`FourCallError::BadSetup`]).
    #[error("the journal's setup or rules cannot open a table")]
    BadSetup,
    /// A message of this seat's in the journal that its code would not
    /// have made there (another seat's journal, or a damaged one).
    #[error("the journal does not replay: this seat's message of round {0} differs")]
    Mismatch(u64),
}

impl FourSession {
    /// What this seat was opened with (its device keeps it in its journal).
    #[must_use]
    pub fn config(&self) -> &FourConfig {
        &self.cfg
    }

    /// Every message this seat's log holds, the round under way included:
    /// what its device keeps in its journal before it sends.
    #[must_use]
    pub fn journal(&self) -> Vec<Envelope4> {
        let mut out: Vec<Envelope4> = self.log.envelopes().cloned().collect();
        if let Some(m) = self.log.messages(self.log.round()) {
            out.extend(m.iter().flatten().cloned());
        }
        out
    }

    /// The seat rebuilt from its config and its journal ([`FourSession::journal`]).
    /// Nothing is queued to send (the others hold it, or the host's resend
    /// after the seat's [`FourSession::rejoin`] brings it); the events say
    /// only what is owed now (`YourTurn`, `AnswerDraw`, or the end). The
    /// seat stays quiet until [`FourSession::release_after`].
    ///
    /// # Errors
    /// See [`ResumeError`].
    pub fn resume(
        cfg: FourConfig,
        journal: Vec<Envelope4>,
        now: Instant,
    ) -> Result<FourSession, ResumeError> {
        let me = cfg.seat;
        let own: VecDeque<Envelope4> = journal
            .iter()
            .filter(|e| e.signed.header.sender == me)
            .cloned()
            .collect();
        let mut s = FourSession::build(cfg, now).map_err(|_| ResumeError::BadSetup)?;
        s.replay = Some(own);
        s.send_hello();
        for env in journal {
            let round = env.signed.header.round;
            if s.replay_failed.is_some() {
                break;
            }
            if env.signed.header.sender != me {
                s.receive(env);
                s.drain_ahead();
                continue;
            }
            let held = s
                .log
                .messages(round)
                .and_then(|m| m[me.index()].as_ref())
                .is_some_and(|h| h.signed == env.signed);
            if held {
                continue;
            }
            // A message the owner asked for: asked again.
            let asked = match env.body {
                Body4::Confirm { .. } => s.confirm_pairing(now),
                Body4::Move { from, to } | Body4::Attack { from, to, .. } => s.play(
                    now,
                    Move::Step {
                        from: Point(from),
                        to: Point(to),
                    },
                ),
                Body4::Resign => s.resign(now),
                Body4::OfferDraw => s.offer_draw(now),
                Body4::AcceptDraw => s.answer_draw(now, true),
                Body4::DeclineDraw => s.answer_draw(now, false),
                Body4::Leave => {
                    s.leave(now);
                    Ok(())
                }
                Body4::Timeout => s.claim_now(now),
                _ => Err(FourCallError::NotYourMove),
            };
            let taken = s
                .log
                .messages(round)
                .and_then(|m| m[me.index()].as_ref())
                .is_some_and(|h| h.signed == env.signed)
                || s.log.envelopes().any(|h| h.signed == env.signed);
            if asked.is_err() || !taken {
                s.replay_failed.get_or_insert(round);
            }
        }
        let leftover = s
            .replay
            .take()
            .and_then(|q| q.front().map(|e| e.signed.header.round));
        if let Some(round) = s.replay_failed.or(leftover) {
            return Err(ResumeError::Mismatch(round));
        }
        s.out.clear();
        s.events.clear();
        s.quiet_until = Some(u64::MAX);
        if let Some(v) = &s.verdict {
            s.events.push_back(FourEvent::Over(Box::new(v.clone())));
        } else if s.my_turn() {
            s.events.push_back(FourEvent::YourTurn);
        } else if let Some(by) = s.answer_owed() {
            s.events.push_back(FourEvent::AnswerDraw { by });
        }
        Ok(s)
    }

    /// The seat that offered the draw this seat owes an answer to.
    fn answer_owed(&self) -> Option<FourSeat> {
        let p = self.play.as_ref().filter(|_| self.phase == Phase::Play)?;
        match p.owed {
            Owed::Answer(s) if s == self.me => p.draw.map(|d| d.0),
            _ => None,
        }
    }

    /// Whether the resumed seat still waits to catch up with the table.
    pub(super) fn quiet(&self) -> bool {
        self.quiet_until.is_some_and(|r| self.log.round() < r)
    }

    /// Whether this seat, resumed, still waits to catch up with the table
    /// (it sends nothing and runs no timer).
    #[must_use]
    pub fn resuming(&self) -> bool {
        self.quiet()
    }

    /// The host said how many rounds it held when this seat returned: the
    /// seat sends again (what it made meanwhile included) once its log
    /// holds as many. Until then nothing leaves it and no other timer runs,
    /// so a stale journal ([`super::Ending::StaleJournal`]) shows before the
    /// seat has sent anything that clashes with what the table holds. A
    /// count the table never reaches (a host that overstated it) ends the
    /// seat as abandoned after a move's wait, nobody blamed.
    pub fn release_after(&mut self, host_rounds: u64) {
        self.quiet_until = Some(host_rounds);
        self.quiet_deadline = Some(self.now + super::session::move_wait(&self.rules));
    }

    /// Replay: the timeout claim this seat's journal holds, made again.
    fn claim_now(&mut self, now: Instant) -> Result<(), FourCallError> {
        let Some(p) = self.play.as_mut().filter(|_| self.phase == Phase::Play) else {
            return Err(FourCallError::NotYourMove);
        };
        if p.claim_at.is_none() {
            return Err(FourCallError::NotYourMove);
        }
        p.claim_at = Some(now);
        self.handle_timeout(now);
        Ok(())
    }

    /// Replay: the own message the seat's code makes now, taken from the
    /// journal (`None` outside a replay).
    pub(super) fn replayed(&mut self, body: &Body4) -> Option<Envelope4> {
        let q = self.replay.as_mut()?;
        let round = self.log.round();
        match q.pop_front() {
            Some(e)
                if e.signed.header.round == round
                    && e.body == *body
                    && e.signed.verify(&self.cfg.key.verifying_key()) =>
            {
                Some(e)
            }
            _ => {
                self.replay_failed.get_or_insert(round);
                // Nothing more of the journal is trusted.
                q.clear();
                None
            }
        }
    }
}
