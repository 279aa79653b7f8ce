//! Draws by agreement at a four-seat table (RULES.md §9): the seat on move
//! offers (once a turn), every other seat still in answers in turn order; one
//! decline ends the offer and the offerer moves on, every acceptance draws
//! the game. The events are the engine's (`Game::apply_table` in 全明, the
//! same ones built here in a dark game, where the audit replays them).

use std::time::Instant;

use junqi_game::{Action, DrawReason, Event, GameResult, TableEvent};

use super::body::Body4;
use super::fault::FourFault;
use super::play_state::Owed;
use super::seat::FourSeat;
use super::session::{Ending, FourCallError, FourEvent, FourSession, Phase};

impl FourSession {
    /// Offers a draw instead of moving (once a turn).
    ///
    /// # Errors
    /// Not this seat's move, or a second offer this turn.
    pub fn offer_draw(&mut self, now: Instant) -> Result<(), FourCallError> {
        self.now = now;
        if !self.my_turn() {
            return Err(FourCallError::NotYourMove);
        }
        let p = self.play.as_ref().expect("in play");
        if p.offered_at == Some(p.view.ply()) {
            return Err(FourCallError::OfferedThisTurn);
        }
        self.send(Body4::OfferDraw);
        self.drain_ahead();
        Ok(())
    }

    /// Answers the standing draw offer.
    ///
    /// # Errors
    /// No answer is owed by this seat.
    pub fn answer_draw(&mut self, now: Instant, accept: bool) -> Result<(), FourCallError> {
        self.now = now;
        let owes = self.phase == Phase::Play
            && self
                .play
                .as_ref()
                .is_some_and(|p| p.owed == Owed::Answer(self.me));
        if !owes {
            return Err(FourCallError::NoOffer);
        }
        self.send(if accept {
            Body4::AcceptDraw
        } else {
            Body4::DeclineDraw
        });
        self.drain_ahead();
        Ok(())
    }

    /// A draw offer or answer the table took (owed, from the seat owing it).
    pub(super) fn take_draw(&mut self, sender: FourSeat, round: u64, body: &Body4) {
        let action = match body {
            Body4::OfferDraw => Action::OfferDraw,
            Body4::AcceptDraw => Action::AcceptDraw,
            _ => Action::DeclineDraw,
        };
        let side = sender.side();
        let p = self.play.as_mut().expect("in play");
        let events = match p.referee.as_mut() {
            Some(referee) => match referee.apply_table(side, action) {
                Ok(e) => e,
                Err(_) => return self.blame(sender, FourFault::Unexpected(body.kind()), round),
            },
            None => {
                let everyone = FourSeat::ALL
                    .iter()
                    .filter(|s| p.view.is_in(s.side()))
                    .fold(0u8, |m, s| m | s.side().bit());
                match action {
                    Action::OfferDraw => {
                        p.draw = Some((sender, p.view.ply(), side.bit()));
                        vec![TableEvent::Event(Event::DrawOffered { side })]
                    }
                    Action::AcceptDraw => {
                        let (by, ply, accepts) = p.draw.expect("an offer stands");
                        let accepts = accepts | side.bit();
                        p.draw = Some((by, ply, accepts));
                        let mut e = vec![TableEvent::DrawAccepted { side }];
                        if accepts & everyone == everyone {
                            e.push(TableEvent::Event(Event::GameOver {
                                result: GameResult::Draw {
                                    reason: DrawReason::Agreed,
                                },
                            }));
                        }
                        e
                    }
                    _ => vec![TableEvent::Event(Event::DrawDeclined { side })],
                }
            }
        };
        let p = self.play.as_mut().expect("in play");
        if action == Action::OfferDraw {
            p.offered_at = Some(p.view.ply());
            p.draw = Some((sender, p.view.ply(), side.bit()));
        }
        let offerer = p.draw.map(|d| d.0);
        p.claim_at = None;
        for e in events {
            let over = matches!(e, TableEvent::Event(Event::GameOver { .. }));
            if !self.apply(e) {
                return self.blame(sender, FourFault::Unexpected(body.kind()), round);
            }
            if over {
                return self.open_armies(
                    Ending::Played,
                    Some(GameResult::Draw {
                        reason: DrawReason::Agreed,
                    }),
                );
            }
        }
        if action == Action::DeclineDraw {
            self.play.as_mut().expect("in play").draw = None;
            return self.next_turn();
        }
        // The next seat still in after `sender` that has not answered.
        let p = self.play.as_mut().expect("in play");
        let offerer = offerer.expect("an offer stands");
        let accepts = p.draw.map_or(0, |d| d.2);
        let mut s = sender.side();
        let next = (0..4).find_map(|_| {
            s = s.next(self.rules.clockwise);
            let seat = FourSeat::of_side(s);
            (seat != offerer && p.view.is_in(s) && accepts & s.bit() == 0).then_some(seat)
        });
        let Some(next) = next else {
            // Everyone in accepted: the GameOver above ended it.
            return;
        };
        p.owed = Owed::Answer(next);
        if next == self.me {
            self.events.push_back(FourEvent::AnswerDraw { by: offerer });
        }
    }
}
