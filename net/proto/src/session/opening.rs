//! Flip games: a move that touches a face-down point waits for the two
//! shuffle openings of that point (the guest's entry gives the slot, the
//! host's entry of that slot the piece). The guest opens for its own move
//! only after the host's `Proceed`, so a voided move opens nothing.

use std::time::Instant;

use junqi_game::{Action, Move, Point, Side};

use super::mode::{ModeState, flip_index};
use super::play::{Pending, Play};
use super::shared::Core;
use crate::envelope::Header;
use crate::evidence::{Evidence, Part};
use crate::fault::FaultKind;
use crate::findings::{MoveFault, TurnAct, Unexpected};
use crate::flip::{FLIP_SIZE, FlipOpening};
use crate::rank::Seat;
use crate::wire::{Body, side_of};

impl Play {
    /// A move by the peer: checked against the rules at once; one that turns
    /// a piece over waits for the openings of its point.
    pub(super) fn peer_flip_move(&mut self, c: &mut Core, now: Instant, header: &Header, m: Move) {
        let peer = c.peer();
        let ModeState::Flip(flip) = &self.mode else {
            return;
        };
        let g = &flip.referee;
        if g.turn() != peer {
            return self.violation(c, header, FaultKind::OutOfTurn(TurnAct::Move));
        }
        if let Err(e) = g.position().check(m) {
            return self.violation(
                c,
                header,
                FaultKind::IllegalMove(MoveFault::Refused { mv: m, error: e }),
            );
        }
        match flip.opened_by(m) {
            Some(at) => self.start_opening(c, now, peer, m, at),
            None => self.referee_action(c, now, peer, Action::Move(m)),
        }
    }

    /// Opens entry `index` of this side's layer.
    fn open_mine(&self, c: &Core, index: u8) -> Option<FlipOpening> {
        let ModeState::Flip(flip) = &self.mode else {
            return None;
        };
        let mut o = flip.mine.open(index).expect("in range");
        if c.cheats().bad_flip_opening {
            o.value = (o.value + 1) % FLIP_SIZE as u8;
        }
        Some(o)
    }

    /// A move turns the piece on `at` over: the guest opens its entry for the
    /// point at once, the host answers with its entry for that slot.
    pub(super) fn start_opening(
        &mut self,
        c: &mut Core,
        now: Instant,
        mover: Side,
        m: Move,
        at: Point,
    ) {
        let index = flip_index(at).expect("face-down pieces stand on setup points");
        let mut slot = None;
        match (c.seat, mover == c.me) {
            // The host's move is final once the guest has taken it: open.
            (Seat::Guest, false) => slot = self.send_my_opening(c, index),
            // The guest's own move may still be voided by a crossing timeout
            // claim: nothing that shows the piece goes out before the host
            // accepts it.
            (Seat::Guest, true) | (Seat::Host, true) => {}
            (Seat::Host, false) => c.send(Body::Proceed),
        }
        self.pending = Pending::Opening {
            mover,
            m,
            index,
            slot,
        };
        self.update_debt(c, now);
    }

    /// Guest: opens its entry for shuffle index `index`; the slot it gives.
    fn send_my_opening(&mut self, c: &mut Core, index: u8) -> Option<u8> {
        let o = self.open_mine(c, index)?;
        if !c.cheats().withhold_flip_opening {
            c.send(Body::FlipOpen(o));
        }
        Some(o.value)
    }

    /// Guest: the host accepted this side's move that turns a piece over.
    pub(super) fn on_proceed(&mut self, c: &mut Core, header: &Header) {
        let Pending::Opening {
            mover,
            m,
            index,
            slot: None,
        } = self.pending
        else {
            return self.violation(
                c,
                header,
                FaultKind::Unexpected(Unexpected::ProceedWithoutMove),
            );
        };
        if c.seat != Seat::Guest || mover != c.me {
            return self.violation(
                c,
                header,
                FaultKind::Unexpected(Unexpected::ProceedWithoutMove),
            );
        }
        let slot = self.send_my_opening(c, index);
        self.pending = Pending::Opening {
            mover,
            m,
            index,
            slot,
        };
    }

    pub(super) fn on_flip_open(
        &mut self,
        c: &mut Core,
        now: Instant,
        header: &Header,
        o: &FlipOpening,
    ) {
        let peer = c.peer();
        let (
            &Pending::Opening {
                mover,
                m,
                index,
                slot,
            },
            ModeState::Flip(flip),
        ) = (&self.pending, &mut self.mode)
        else {
            return self.violation(
                c,
                header,
                FaultKind::Unexpected(Unexpected::FlipOpeningNotAsked),
            );
        };
        let want = match (c.seat, slot) {
            (Seat::Host, None) => index,
            (Seat::Guest, Some(j)) => j,
            _ => {
                return self.violation(
                    c,
                    header,
                    FaultKind::Unexpected(Unexpected::FlipOpeningOutOfOrder),
                );
            }
        };
        let value = match flip.peer.check(want, o) {
            Ok(v) => v,
            Err(e) => {
                let seq = header.seq;
                return self.fault(
                    c,
                    peer,
                    FaultKind::BadFlipOpening(e),
                    Evidence::Message {
                        by: peer,
                        part: Part::FlipOpening,
                        seq: Some(seq),
                    },
                );
            }
        };
        let piece = match c.seat {
            Seat::Host => {
                let Some(mine) = self.open_mine(c, value) else {
                    return;
                };
                if c.cheats().withhold_flip_opening {
                    return;
                }
                c.send(Body::FlipOpen(mine));
                mine.value
            }
            Seat::Guest => value,
        };
        self.pending = Pending::None;
        self.resolve_opening(c, now, mover, m, index, piece);
    }

    /// Puts the opened piece under its point in the local referee and plays the move.
    fn resolve_opening(
        &mut self,
        c: &mut Core,
        now: Instant,
        mover: Side,
        m: Move,
        index: u8,
        piece: u8,
    ) {
        let ModeState::Flip(flip) = &mut self.mode else {
            return;
        };
        if !flip.place(usize::from(index), piece) {
            // Only a repeating layer can get here; the host's layer is the
            // last one opened.
            let host = side_of(Seat::Host);
            return self.fault(
                c,
                host,
                FaultKind::PieceOpenedTwice(piece),
                Evidence::Message {
                    by: host,
                    part: Part::FlipOpening,
                    seq: None,
                },
            );
        }
        self.referee_action(c, now, mover, Action::Move(m));
    }
}
