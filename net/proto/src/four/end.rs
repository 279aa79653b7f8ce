//! The end of a table: every seat still at it opens its seed and army in
//! one round, and the audit over the four armies gives the verdict.

use junqi_game::GameResult;

use super::audit::{AuditOutcome, audit_table};
use super::body::{Body4, Kind4};
use super::fault::FourFault;
use super::log::Envelope4;
use super::seat::{FourSeat, slots_of};
use super::session::{Ending, FourEvent, FourSession, FourVerdict, Phase, handshake_wait};
use crate::commit::verify_reveal;
use crate::rank::WireRank;

impl FourSession {
    /// Play is over (or stopped for a dispute): this seat opens its army.
    pub(super) fn open_armies(&mut self, ending: Ending, result: Option<GameResult>) {
        let p = self.play.as_mut().expect("in play");
        p.result = result;
        let i_left = p.left == Some(self.me);
        self.ending_of_play = Some(ending);
        self.phase = Phase::Reveal;
        self.progress(handshake_wait(&self.rules));
        if i_left {
            return;
        }
        #[cfg(feature = "testing")]
        if self.cheats.withhold_reveal {
            return;
        }
        #[allow(unused_mut)]
        let mut seed = self.cfg.seed.clone();
        #[cfg(feature = "testing")]
        if self.cheats.bad_reveal {
            seed.0[0] ^= 1;
        }
        let ranks: Vec<WireRank> = self
            .mine
            .as_ref()
            .map(|m| m.placement.iter().map(|&(_, r)| r).collect())
            .unwrap_or_else(|| slots_of(&self.cfg.layout, self.me));
        self.send(Body4::Reveal { seed, ranks });
    }

    pub(super) fn take_reveal(&mut self, env: Envelope4) {
        let hd = env.signed.header;
        let (sender, round) = (hd.sender, hd.round);
        let left = self.play.as_ref().and_then(|p| p.left);
        let Body4::Reveal { seed, ranks } = &env.body else {
            return self.blame(sender, FourFault::Unexpected(env.body.kind()), round);
        };
        if Some(sender) == left {
            return self.blame(sender, FourFault::Unexpected(Kind4::Reveal), round);
        }
        let commit = self.commits[sender.index()].as_ref().expect("committed");
        let placement = crate::commit::placement_of(ranks);
        if let Err(e) = verify_reveal(
            &self.game_id,
            sender,
            seed,
            &commit.seed,
            &placement,
            &commit.pieces,
        ) {
            return self.blame(sender, FourFault::RevealMismatch(e), round);
        }
        self.log.push(env);
        if self.round_full() {
            self.log.close_round();
            self.finish_reveals();
        }
    }

    /// Every expected reveal is in (or the wait is over): the verdict.
    pub(super) fn finish_reveals(&mut self) {
        let ending = self.ending_of_play.unwrap_or(Ending::Played);
        let p = self.play.as_ref().expect("in play");
        let result = p.result;
        let r = self.log.round();
        let held: Vec<FourSeat> = [r.saturating_sub(1), r]
            .into_iter()
            .filter_map(|i| self.log.messages(i))
            .flat_map(|m| m.iter().flatten())
            .filter(|e| matches!(e.body, Body4::Reveal { .. }))
            .map(|e| e.signed.header.sender)
            .collect();
        let not_opened: Vec<FourSeat> = FourSeat::ALL
            .into_iter()
            .filter(|s| !held.contains(s))
            .collect();
        let mut verdict = FourVerdict {
            ending,
            result,
            blame: None,
            record: None,
            not_opened,
        };
        if verdict.not_opened.is_empty() {
            match audit_table(&self.log) {
                // The engine's result is the game's: the seats' own one
                // differs only where a rule needs the hidden ranks (the
                // last pieces' trade, every seat stuck).
                AuditOutcome::Clean { record, result } => {
                    verdict.record = Some(record);
                    verdict.result = result;
                }
                AuditOutcome::Cheat(blame) => {
                    verdict.ending = Ending::Fault;
                    verdict.result = None;
                    verdict.blame = Some(blame);
                }
                AuditOutcome::Unauditable(_) => {}
            }
        }
        self.phase = Phase::Done;
        self.deadline = None;
        self.verdict = Some(verdict.clone());
        self.events.push_back(FourEvent::Over(Box::new(verdict)));
    }
}
