//! The hello stage: keys, rules and the two nonces. The host's hello carries
//! only a commitment to its nonce; the guest answers with its nonce in the
//! clear; the host opens its own only then. Both nonces give the game id,
//! who moves first and the pairing code.

use std::time::Instant;

use junqi_game::{Layout, Side};

use super::hello_state::Hello;
use super::setup_state::Setup;
use super::{
    AppEvent, Session, SessionError, Stage, game_id, nonce_commitment, pairing_code, validate,
};
use crate::envelope::Header;
use crate::fault::FaultKind;
use crate::findings::{Phase, Unexpected};
use crate::rank::Seat;
use crate::wire::Body;

impl Session {
    /// Guest: accepts the offered rules and commits to `layout` (ignored in
    /// flip games).
    ///
    /// # Errors
    /// Wrong phase or an illegal layout.
    pub fn accept(&mut self, now: Instant, layout: Layout) -> Result<(), SessionError> {
        let Stage::Hello(Hello::Accept { nonce_commit }) = self.stage else {
            return Err(SessionError::WrongPhase);
        };
        validate(&self.core.rules, &layout)?;
        let c = &mut self.core;
        c.layout = Some(layout);
        let hello = Body::Hello {
            key: c.transcript.public_key().to_bytes(),
            nonce: c.nonce,
            rules: c.rules,
            name: c.name.clone(),
        };
        c.send(hello);
        self.stage = Stage::Hello(Hello::Nonce {
            nonce_commit,
            layout,
        });
        self.rearm(now);
        Ok(())
    }

    pub(super) fn on_hello(&mut self, now: Instant, header: &Header, body: Body) {
        let Stage::Hello(hello) = &self.stage else {
            return;
        };
        match (hello, body) {
            (
                &Hello::HostWaits { layout },
                Body::Hello {
                    key, nonce, rules, ..
                },
            ) => {
                self.core.peer_key = key;
                if rules != self.core.rules {
                    return self.violation(now, header, FaultKind::OtherRules);
                }
                // Opened only now that the guest's nonce is fixed.
                let mine = self.core.nonce;
                self.core.send(Body::Nonce { nonce: mine });
                self.pair(nonce, layout);
            }
            (
                Hello::GuestWaits,
                Body::Hello {
                    key,
                    nonce,
                    rules,
                    name,
                },
            ) => {
                self.core.peer_key = key;
                if let Some(problem) = rules.two_player_problem() {
                    return self.violation(now, header, FaultKind::UnplayableRules(problem));
                }
                self.core.rules = rules;
                self.stage = Stage::Hello(Hello::Accept {
                    nonce_commit: nonce,
                });
                self.core.events.push_back(AppEvent::RulesOffered {
                    rules,
                    peer_name: name,
                });
            }
            (
                &Hello::Nonce {
                    nonce_commit,
                    layout,
                },
                Body::Nonce { nonce },
            ) => {
                if nonce_commitment(&nonce) != nonce_commit {
                    return self.violation(now, header, FaultKind::NonceMismatch);
                }
                self.pair(nonce, layout);
            }
            (_, body) => self.violation(
                now,
                header,
                FaultKind::Unexpected(Unexpected::Message {
                    kind: body.kind(),
                    phase: Phase::Handshake,
                }),
            ),
        }
    }

    /// Both nonces are known: the game id, who moves first and the pairing
    /// code follow; the player must now compare the codes.
    fn pair(&mut self, peer_nonce: [u8; 32], layout: Layout) {
        let c = &mut self.core;
        let own_key = c.transcript.public_key().to_bytes();
        let (hk, hn, gk, gn) = match c.seat {
            Seat::Host => (own_key, c.nonce, c.peer_key, peer_nonce),
            Seat::Guest => (c.peer_key, peer_nonce, own_key, c.nonce),
        };
        c.game_id = game_id(&c.rules, (&hk, &hn), (&gk, &gn));
        c.first = if c.game_id[31] & 1 == 0 {
            Side::South
        } else {
            Side::North
        };
        c.transcript.set_game(c.game_id);
        c.events.push_back(AppEvent::PairingCode {
            code: pairing_code(&c.game_id),
        });
        self.stage = Stage::Setup(Box::new(Setup::new(layout)));
    }
}
