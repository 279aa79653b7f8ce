//! Clocks at a four-seat table: the host keeps every other seat's move
//! clock and claims its timeout a round trip after its deadline
//! (`Body4::Timeout`, a pass; the fifth puts the seat out); a mover whose
//! move crossed the claim voids it when the move left within the claim
//! margin of its deadline, and blames the host otherwise. The host's own
//! clock is kept by the seat before it in turn order (its **keeper**,
//! [`FourSession::keeper`]), under the same claim; since the host relays, its own move reaches every
//! other seat before the keeper's claim does, so a crossing is settled the
//! other way round: the keeper voids its claim and takes the move.

use std::time::Duration;

use super::fault::FourFault;
use super::log::Envelope4;
use super::seat::FourSeat;
use super::session::{FourEvent, FourSession, Phase};
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
        // A move still queued here (a resumed seat, quiet until it holds
        // what the host held, whose owner played meanwhile) never left: the
        // claim came first, whatever its signed clock says.
        let signed = mine.signed;
        let queued = self.out.len();
        self.out.retain(|f| {
            crate::frame::decode_payload::<Envelope4>(f).map_or(true, |e| e.signed != signed)
        });
        let unsent = self.out.len() < queued;
        if !unsent && Duration::from_millis(u64::from(turn_ms)) + margin < clock {
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

    /// Who claims `late`'s timeout: the host for every other seat; for the
    /// host, the seat before it in turn order (in or out: its device is at
    /// the table), unless that seat moves right after the host (two seats
    /// left), then the one before that. Never the seat that moves after the
    /// host: a keeper that moved at once after its claim would have signed
    /// past a claim that the host's crossing move voids.
    pub(super) fn keeper(&self, late: FourSeat) -> FourSeat {
        let host = self.cfg.host;
        if late != host {
            return host;
        }
        let Some(p) = self.play.as_ref() else {
            return host;
        };
        let clockwise = self.rules.clockwise;
        let mut next = host.side();
        for _ in 0..3 {
            next = next.next(clockwise);
            if p.view.is_in(next) {
                break;
            }
        }
        let before = host.side().next(!clockwise);
        let keeper = if before == next {
            before.next(!clockwise)
        } else {
            before
        };
        FourSeat::of_side(keeper)
    }

    /// The host's message for the round this seat's own timeout claim over
    /// the host took: they crossed, and the host relayed its move to every
    /// other seat first, so the claim is void here too and the move is
    /// taken after it (the caller goes on linking `env`).
    pub(super) fn crossed_my_claim(&mut self, env: &Envelope4) {
        let round = env.signed.header.round;
        if self.phase != Phase::Play || round + 1 != self.log.round() {
            return;
        }
        let claimed = self
            .log
            .messages(round)
            .and_then(|m| m[self.me.index()].as_ref())
            .is_some_and(|m| m.body == super::body::Body4::Timeout);
        let host_signed = self.keys[self.cfg.host.index()].is_some_and(|k| env.signed.verify(&k));
        if !claimed || !host_signed {
            return;
        }
        let Some(before) = self.play.as_mut().and_then(|p| p.before_my_claim.take()) else {
            return;
        };
        self.log.drop_last_round();
        self.play = Some(*before);
        self.events.push_back(FourEvent::ClaimVoided);
    }
}
