//! The four-player game (四国大战, RULES.md §9) on the referee's side:
//! four layouts, players going out, draws agreed by everyone still in.

use super::{Action, ActionError, Event, Game, Record, Setup, SetupError, TableEvent};
use crate::layout::Layout;
use crate::piece::Side;
use crate::position::{DrawReason, GameResult, Position, WinReason};
use crate::rules::{Mode, Rules};
use crate::view::PlayerView;

impl Game {
    /// A four-player dark (四暗, 双明 with [`Rules::partners_open`]) or open
    /// (全明) game from the layouts of South, East, North and West in that
    /// order ([`Side::FOUR`]), each checked against `rules`. Flip games are
    /// two-player only.
    pub fn new_four(rules: Rules, layouts: [Layout; 4], first: Side) -> Result<Game, SetupError> {
        if rules.mode == Mode::Flip {
            return Err(SetupError::WrongMode);
        }
        let mut deployments = Vec::with_capacity(4);
        for (side, layout) in Side::FOUR.into_iter().zip(&layouts) {
            deployments.push(
                layout
                    .validate(&rules)
                    .map_err(|errors| SetupError::Layout { side, errors })?,
            );
        }
        let armies = [
            &deployments[0],
            &deployments[1],
            &deployments[2],
            &deployments[3],
        ];
        let position = Position::new_four(rules, armies, first);
        let [south, east, north, west] = layouts;
        let mut game = Game::start(
            position,
            Record {
                rules,
                first,
                setup: Setup::Four {
                    south,
                    east,
                    north,
                    west,
                },
                actions: Vec::new(),
            },
        );
        if rules.mode == Mode::Open {
            for (side, layout) in Side::FOUR.into_iter().zip(layouts) {
                game.announce(Event::Revealed { side, layout });
            }
        }
        Ok(game)
    }

    /// Four-player games: what `side` knows (its own pieces, its partner's
    /// in 双明, every announcement so far); `None` for other games.
    pub(super) fn four_view(&self, side: Side) -> Option<PlayerView> {
        let rules = self.record.rules;
        let setup = &self.record.setup;
        let own = setup.four_layout(side)?.validate(&rules).ok()?;
        let partner = if rules.partners_open {
            Some(setup.four_layout(side.partner())?.validate(&rules).ok()?)
        } else {
            None
        };
        let mut view = PlayerView::new_four(rules, side, &own, partner.as_ref(), self.record.first);
        for e in &self.table {
            view.apply_table(e)
                .expect("the referee's own events are consistent");
        }
        Some(view)
    }

    /// [`Game::apply_table`] for a four-player game.
    pub(super) fn apply_four(
        &mut self,
        side: Side,
        action: Action,
    ) -> Result<Vec<TableEvent>, ActionError> {
        if self.result.is_some() {
            return Err(ActionError::GameOver);
        }
        if !self.position.is_in(side) {
            return Err(ActionError::NotInGame(side));
        }
        let rules = self.record.rules;
        let was_in: Vec<Side> = self.position.seats_in().collect();
        let turn = self.position.turn();
        let mut out = Vec::new();
        match action {
            Action::Move(m) => {
                if side != turn {
                    return Err(ActionError::NotYourTurn(side));
                }
                let effect = self.position.play(m)?;
                // A move lapses a standing draw offer.
                if self.draw_offer.take().is_some() {
                    self.draw_accepts = 0;
                    out.push(TableEvent::Event(Event::DrawDeclined { side }));
                }
                out.extend(
                    super::public_events(&self.position, side, effect)
                        .into_iter()
                        .map(TableEvent::Event),
                );
            }
            Action::Timeout => {
                if side != turn {
                    return Err(ActionError::NotYourTurn(side));
                }
                let count = &mut self.timeouts[side.index()];
                *count += 1;
                let count = *count;
                self.position.pass();
                out.push(TableEvent::Event(Event::TimedOut { side, count }));
                if rules.is_timeout_loss(count) {
                    self.position.put_out(side, WinReason::Timeouts);
                }
            }
            Action::Resign => {
                if !rules.may_resign(self.position.ply()) {
                    return Err(ActionError::ResignTooEarly(rules.resign_after_plies));
                }
                self.position.put_out(side, WinReason::Resignation);
            }
            Action::OfferDraw => {
                if self.draw_offer.is_some() {
                    return Err(ActionError::DrawAlreadyOffered);
                }
                self.draw_offer = Some(side);
                self.draw_accepts = side.bit();
                out.push(TableEvent::Event(Event::DrawOffered { side }));
            }
            Action::AcceptDraw | Action::DeclineDraw => {
                match self.draw_offer {
                    Some(offerer) if offerer != side && self.draw_accepts & side.bit() == 0 => {}
                    _ => return Err(ActionError::NoDrawOffer),
                }
                if action == Action::DeclineDraw {
                    self.draw_offer = None;
                    self.draw_accepts = 0;
                    out.push(TableEvent::Event(Event::DrawDeclined { side }));
                } else {
                    self.draw_accepts |= side.bit();
                    out.push(TableEvent::DrawAccepted { side });
                }
            }
        }
        for &s in &was_in {
            if !self.position.is_in(s) {
                let reason = self.position.out_reason(s).unwrap_or(WinReason::Forfeit);
                out.push(TableEvent::PlayerOut { side: s, reason });
            }
        }
        // An offer lapses when its player goes out.
        if let Some(offerer) = self.draw_offer
            && !self.position.is_in(offerer)
        {
            self.draw_offer = None;
            self.draw_accepts = 0;
            out.push(TableEvent::Event(Event::DrawDeclined { side: offerer }));
        }
        let everyone = self.position.seats_in().fold(0, |mask, s| mask | s.bit());
        let result = self.position.result().or_else(|| {
            (self.draw_offer.is_some() && self.draw_accepts & everyone == everyone).then_some(
                GameResult::Draw {
                    reason: DrawReason::Agreed,
                },
            )
        });
        if let Some(result) = result {
            self.result = Some(result);
            self.draw_offer = None;
            self.draw_accepts = 0;
            out.push(TableEvent::Event(Event::GameOver { result }));
        }
        self.record.actions.push((side, action));
        self.action_starts.push(self.events.len());
        for e in &out {
            if let TableEvent::Event(e) = e {
                self.events.push(*e);
            }
        }
        self.table.extend_from_slice(&out);
        Ok(out)
    }

    /// Four-player games: whether `side` is still in (always true in
    /// two-player games).
    pub fn is_in(&self, side: Side) -> bool {
        self.position.is_in(side)
    }
}
