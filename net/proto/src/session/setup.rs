//! The setup stage: the pairing code, both commitments (setup, seed and
//! oblivious-transfer key, or a flip game's shuffle layer) and, in open
//! games, both setups opened. Nothing about the setup is sent before the
//! player confirms the pairing code.

use std::time::Instant;

use junqi_game::{Game, GameResult, Layout, PlayerView, Side};

use super::audit_state::Setups;
use super::mode::{Dark, Flip, ModeState, Open};
use super::play::Play;
use super::setup_state::{MyCommit, PeerCommit, PeerLayer, Setup, Step, ranks_of};
use super::shared::Core;
use super::{AppEvent, RulesMode, Session, SessionError, Stage};
use crate::commit::{ARMY_SIZE, SetupCommitment, seed_commitment, verify_reveal};
use crate::crypto::{Digest, Seed};
use crate::envelope::Header;
use crate::evidence::{Evidence, Part};
use crate::fault::FaultKind;
use crate::findings::{CommitmentFault, Phase, Unexpected};
use crate::flip::{FLIP_SIZE, FlipLayer, FlipVerifier, layer_of};
use crate::ot::PeerKey;
use crate::rank::{Seat, WireRank};
use crate::wire::{Body, layout_of, slots_of, table_from_rules};

impl Session {
    /// The player has seen the same pairing code on both screens: commit to
    /// the setup. Until this is called nothing about the setup is sent.
    ///
    /// # Errors
    /// Not waiting for a confirmation.
    pub fn confirm_pairing(&mut self, now: Instant) -> Result<(), SessionError> {
        let Stage::Setup(s) = &mut self.stage else {
            return Err(SessionError::WrongPhase);
        };
        let Step::Pairing { peer } = &mut s.step else {
            return Err(SessionError::WrongPhase);
        };
        let peer = peer.take();
        let layout = s.layout;
        let mine = commit(&mut self.core, layout);
        match peer {
            Some((peer, layer)) => self.after_commitments(now, layout, mine, peer, layer),
            None => s.step = Step::Commit { mine },
        }
        self.rearm(now);
        Ok(())
    }

    /// Replaces the layout this side will commit to (ignored in flip games):
    /// each player arranges its own army after the pairing code is shown, up
    /// to its confirmation ([`Session::confirm_pairing`]), which commits it.
    ///
    /// # Errors
    /// The pairing is confirmed already (or not reached), or an illegal layout.
    pub fn set_layout(&mut self, layout: Layout) -> Result<(), SessionError> {
        let Stage::Setup(s) = &mut self.stage else {
            return Err(SessionError::WrongPhase);
        };
        if !s.unconfirmed() {
            return Err(SessionError::WrongPhase);
        }
        super::validate(&self.core.rules, &layout)?;
        s.layout = layout;
        self.core.layout = Some(layout);
        Ok(())
    }

    pub(super) fn on_setup(&mut self, now: Instant, header: &Header, body: Body) {
        let Stage::Setup(s) = &self.stage else {
            return;
        };
        match (&s.step, body) {
            (
                Step::Pairing { peer: None } | Step::Commit { .. },
                Body::Commit {
                    pieces,
                    seed,
                    ot_key,
                    flip,
                },
            ) => self.on_commit(now, header, pieces, seed, ot_key, flip),
            (Step::OpenReveal { .. }, Body::Reveal { seed, ranks }) => {
                self.on_open_reveal(now, header, seed, ranks);
            }
            (_, body) => self.violation(
                now,
                header,
                FaultKind::Unexpected(Unexpected::Message {
                    kind: body.kind(),
                    phase: Phase::Setup,
                }),
            ),
        }
    }

    fn on_commit(
        &mut self,
        now: Instant,
        header: &Header,
        pieces: Vec<Digest>,
        seed: Digest,
        ot_key: [u8; 32],
        flip: Vec<Digest>,
    ) {
        let c = &self.core;
        let shape_ok = match c.rules.mode {
            RulesMode::Flip => pieces.is_empty() && flip.len() == FLIP_SIZE,
            RulesMode::Dark | RulesMode::Open => pieces.len() == ARMY_SIZE && flip.is_empty(),
        };
        if !shape_ok {
            return self.violation(
                now,
                header,
                FaultKind::BadCommitment(CommitmentFault::WrongShape {
                    pieces: pieces.len(),
                    flip: flip.len(),
                }),
            );
        }
        let layer = match c.rules.mode {
            RulesMode::Flip => match FlipVerifier::new(c.game_id, layer_of(c.peer_seat()), flip) {
                Ok(v) => PeerLayer::Flip(v),
                Err(e) => {
                    return self.violation(
                        now,
                        header,
                        FaultKind::BadCommitment(CommitmentFault::FlipLayer(e)),
                    );
                }
            },
            RulesMode::Dark | RulesMode::Open => PeerLayer::Army(pieces),
        };
        let ot = match PeerKey::decode(&ot_key) {
            Ok(k) => k,
            Err(e) => {
                return self.violation(
                    now,
                    header,
                    FaultKind::BadCommitment(CommitmentFault::OtKey(e)),
                );
            }
        };
        let peer = PeerCommit {
            seed,
            ot,
            ot_bytes: ot_key,
        };
        let Stage::Setup(s) = &mut self.stage else {
            return;
        };
        let layout = s.layout;
        if let Step::Pairing { peer: slot } = &mut s.step {
            // Kept until the player confirms.
            *slot = Some((peer, layer));
            return;
        }
        // Committed already (`on_setup` lets a commitment through in no other step).
        let Step::Commit { mine } = std::mem::replace(&mut s.step, Step::Pairing { peer: None })
        else {
            return;
        };
        self.after_commitments(now, layout, mine, peer, layer);
    }

    /// Both commitments are in (and the pairing confirmed): an open game
    /// opens both setups, the others start.
    fn after_commitments(
        &mut self,
        now: Instant,
        layout: Layout,
        mine: MyCommit,
        peer: PeerCommit,
        layer: PeerLayer,
    ) {
        let c = &mut self.core;
        let mode = match (mine, layer) {
            (MyCommit::Dark(mine), PeerLayer::Army(peer_pieces)) => {
                ModeState::Dark(Dark::new(mine, peer_pieces, table_from_rules(&c.rules)))
            }
            (MyCommit::Open(mine), PeerLayer::Army(peer_pieces)) => {
                // The host opens first; the guest once the host's opening
                // checks out: neither holds the other's setup with its own
                // closed, unless it withholds (and is blamed).
                let revealed = c.seat == Seat::Host;
                if revealed {
                    send_open_reveal(c, &mine);
                }
                self.stage = Stage::Setup(Box::new(Setup {
                    layout,
                    step: Step::OpenReveal {
                        mine,
                        peer,
                        peer_pieces,
                        revealed,
                    },
                }));
                return;
            }
            (MyCommit::Flip(mine), PeerLayer::Flip(verifier)) => {
                ModeState::Flip(Flip::new(c.rules, c.first, mine, verifier))
            }
            // Both are read from the same rules.
            (MyCommit::Dark(_) | MyCommit::Open(_), PeerLayer::Flip(_))
            | (MyCommit::Flip(_), PeerLayer::Army(_)) => {
                unreachable!("both commitments follow the rules' mode")
            }
        };
        self.start_play(now, layout, peer, mode);
    }

    /// Open games: the peer opened its setup; play begins with a local referee.
    fn on_open_reveal(&mut self, now: Instant, header: &Header, seed: Seed, ranks: Vec<WireRank>) {
        let Stage::Setup(s) = &self.stage else {
            return;
        };
        let Step::OpenReveal {
            peer, peer_pieces, ..
        } = &s.step
        else {
            return;
        };
        let c = &self.core;
        let peer_side = c.peer();
        let placement = crate::commit::placement_of(&ranks);
        if let Err(e) = verify_reveal(
            &c.game_id,
            c.peer_seat(),
            &seed,
            &peer.seed,
            &placement,
            peer_pieces,
        ) {
            return self.fault(
                now,
                peer_side,
                FaultKind::SetupMismatch(e),
                Evidence::Message {
                    by: peer_side,
                    part: Part::Reveal,
                    seq: Some(header.seq),
                },
            );
        }
        let theirs = layout_of(&ranks, peer_side);
        let (south, north) = if c.me == Side::South {
            (s.layout, theirs)
        } else {
            (theirs, s.layout)
        };
        let referee = match Game::new(c.rules, south, north, c.first) {
            Ok(g) => g,
            Err(e) => {
                return self.fault(
                    now,
                    peer_side,
                    FaultKind::IllegalSetup(e),
                    Evidence::Message {
                        by: peer_side,
                        part: Part::Reveal,
                        seq: None,
                    },
                );
            }
        };
        let Stage::Setup(s) = std::mem::take(&mut self.stage) else {
            return;
        };
        let Step::OpenReveal {
            mine,
            peer,
            peer_pieces,
            revealed,
        } = s.step
        else {
            return;
        };
        if !revealed {
            send_open_reveal(&mut self.core, &mine);
        }
        let mode = ModeState::Open(Open::new(mine, peer_pieces, referee, (seed, ranks)));
        self.start_play(now, s.layout, peer, mode);
    }

    fn start_play(&mut self, now: Instant, layout: Layout, peer: PeerCommit, mode: ModeState) {
        let c = &mut self.core;
        let mut view = match mode {
            ModeState::Flip(_) => PlayerView::new_flip(c.rules, c.me, c.first),
            ModeState::Dark(_) | ModeState::Open(_) => {
                let dep = layout.validate(&c.rules).expect("validated when set");
                PlayerView::new(c.rules, c.me, &dep, c.first)
            }
        };
        c.events.push_back(AppEvent::Started {
            me: c.me,
            first: c.first,
            game_id: c.game_id,
        });
        if let Some(g) = mode.referee() {
            for e in g.events() {
                let _ = view.apply(e);
                c.events.push_back(AppEvent::Game(*e));
            }
        }
        let mut play = Play::new(now, c.me, view, peer, mode);
        play.after_event(c, now);
        self.stage = Stage::Play(Box::new(play));
        self.settle(now);
    }

    /// An open game ended before play (a fault in the peer's reveal): the
    /// audit of what was committed.
    pub(super) fn finish_setup(&mut self, now: Instant, result: GameResult) {
        let Stage::Setup(s) = std::mem::take(&mut self.stage) else {
            return;
        };
        let Step::OpenReveal {
            mine,
            peer,
            peer_pieces,
            ..
        } = s.step
        else {
            self.stage = Stage::Setup(s);
            return;
        };
        let table = table_from_rules(&self.core.rules);
        let setups = Setups::Army {
            mine,
            peer_pieces,
            table,
        };
        self.end_game(now, result, None, Vec::new(), peer, setups, None);
    }
}

/// Opens this side's setup at the start of an open game.
fn send_open_reveal(c: &mut Core, mine: &SetupCommitment) {
    if c.cheats().refuse_reveal {
        return;
    }
    c.send(Body::Reveal {
        seed: c.seed.clone(),
        ranks: ranks_of(mine),
    });
}

/// Commits to this side's setup (or its flip layer) and sends it.
fn commit(c: &mut Core, layout: Layout) -> MyCommit {
    match c.rules.mode {
        RulesMode::Dark => MyCommit::Dark(commit_army(c, layout)),
        RulesMode::Open => MyCommit::Open(commit_army(c, layout)),
        RulesMode::Flip => {
            let layer = layer_of(c.seat);
            let mine = match c.cheats().flip_values {
                Some(values) => FlipLayer::with_values(&c.seed, &c.game_id, layer, values),
                None => FlipLayer::new(&c.seed, &c.game_id, layer),
            };
            c.send(Body::Commit {
                pieces: Vec::new(),
                seed: seed_commitment(&c.game_id, c.seat, &c.seed),
                ot_key: c.ot_key.public(),
                flip: mine.commitments().to_vec(),
            });
            MyCommit::Flip(mine)
        }
    }
}

fn commit_army(c: &mut Core, layout: Layout) -> SetupCommitment {
    let layout = c.cheats().commit_layout.unwrap_or(layout);
    let placement = crate::commit::placement_of(&slots_of(&layout, c.me));
    let sc = SetupCommitment::new(&c.seed, &c.game_id, c.seat, &placement);
    c.send(Body::Commit {
        pieces: sc.commitments.clone(),
        seed: seed_commitment(&c.game_id, c.seat, &c.seed),
        ot_key: c.ot_key.public(),
        flip: Vec::new(),
    });
    sc
}
