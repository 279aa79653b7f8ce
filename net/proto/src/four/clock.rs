//! Clocks at a four-seat table: the host keeps every other seat's move
//! clock and claims its timeout a round trip after its deadline
//! (`Body4::Timeout`, a pass; the fifth puts the seat out); a mover whose
//! move crossed the claim voids it when the move left within the claim
//! margin of its deadline, and blames the host otherwise.

use std::time::Duration;

use super::fault::FourFault;
use super::log::Envelope4;
use super::session::{FourEvent, FourSession};
use crate::session::LATENCY_BOUND;

impl FourSession {
    /// The host's timeout claim for the round this seat's own last move
    /// took: when the move left within the claim margin of its deadline
    /// (they crossed), the move is void and the claim stands, as on every
    /// other seat; a claim over an early move is the host's fault. Returns
    /// whether the claim was dealt with here.
    pub(super) fn crossed_my_move(&mut self, claim: &Envelope4) -> bool {
        let round = claim.signed.header.round;
        let Some(p) = self.play.as_mut() else {
            return false;
        };
        if round + 1 != self.log.round() {
            return false;
        }
        let Some(mine) = self
            .log
            .messages(round)
            .and_then(|m| m[self.me.index()].as_ref())
        else {
            return false;
        };
        let Some(before) = p.before_my_move.take() else {
            return false;
        };
        if !self.keys[claim.signed.header.sender.index()].is_some_and(|k| claim.signed.verify(&k)) {
            p.before_my_move = Some(before);
            return false;
        }
        let turn_ms = mine.signed.header.turn_ms;
        let margin = 2 * LATENCY_BOUND;
        let clock = Duration::from_secs(u64::from(self.rules.move_seconds));
        if Duration::from_millis(u64::from(turn_ms)) + margin < clock {
            self.taking = Some(claim.clone());
            self.blame(
                claim.signed.header.sender,
                FourFault::ClaimCrossedEarlyMove { turn_ms },
                round,
            );
            return true;
        }
        self.log.drop_last_round();
        self.play = Some(*before);
        self.events.push_back(FourEvent::MoveVoided);
        false
    }
}
