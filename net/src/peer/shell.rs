//! The driver's handler of a [`super::PeerHandle`]'s game: the session's events become
//! [`PeerEvent`]s (one snapshot when play begins, then each public event), the owner's
//! [`PeerCmd`]s become session calls.

use std::path::PathBuf;
use std::sync::{Arc, mpsc};
use std::time::Instant;

use crate::session::{AppEvent, Session};
use crate::transport::{Control, Handler};
use crate::wire::{Body, side_of};

use super::files::{FINISHED_PREFIX, hello_name};
use super::{PeerCmd, PeerEvent};

pub(super) struct Shell {
    out: mpsc::Sender<PeerEvent>,
    /// The data folder (where a finished game's journal is kept).
    dir: Option<PathBuf>,
    /// Play began: the owner has the snapshot.
    started: bool,
    /// How many of the view's events the owner has (the snapshot's and those forwarded since).
    forwarded: usize,
    /// The turn last reported.
    turn: Option<bool>,
    /// The peer's commitment is in (reported once).
    peer_ready: bool,
}

impl Shell {
    pub(super) fn new(out: mpsc::Sender<PeerEvent>, dir: Option<PathBuf>) -> Shell {
        Shell {
            out,
            dir,
            started: false,
            forwarded: 0,
            turn: None,
            peer_ready: false,
        }
    }

    pub(super) fn has_started(&self) -> bool {
        self.started
    }

    fn report(&self, e: PeerEvent) {
        let _ = self.out.send(e);
    }

    /// A session restored from the journal announces nothing of what happened before: the
    /// owner gets the view (or, for a game that had ended, the verdict) now.
    pub(super) fn resumed(&mut self, s: &Session) {
        if let (true, Some(v)) = (s.is_done(), s.verdict()) {
            // A crash just before the finished game's journal was deleted.
            self.keep(s);
            self.report(PeerEvent::Verdict(v.clone()));
        } else if s.view().is_some() {
            self.start(s);
        }
    }

    /// Play began (or resumed): the owner gets the view the events will apply to.
    fn start(&mut self, s: &Session) {
        let Some(v) = s.view() else { return };
        let my_turn = s.my_turn();
        self.started = true;
        self.forwarded = v.events().len();
        self.turn = Some(my_turn);
        self.report(PeerEvent::Started {
            me: s.side(),
            code: s.pairing().unwrap_or_default(),
            peer: hello_name(s.log(), s.side()).unwrap_or_default(),
            view: Box::new(v.clone()),
            my_turn,
        });
    }

    /// One batch of the session's events: all it queued since the last batch, taken while the
    /// session stands still, so that the view's last events are exactly the batch's game
    /// events, in order. Whatever precedes them is what still stands of the view the owner
    /// has: fewer events than it has means a move of this side was voided.
    fn batch(&mut self, s: &Session, batch: Vec<AppEvent>) {
        let games = batch
            .iter()
            .filter(|e| matches!(e, AppEvent::Game(_)))
            .count();
        let mut at = s
            .view()
            .map_or(0, |v| v.events().len().saturating_sub(games));
        if self.started && at < self.forwarded {
            self.forwarded = at;
            self.report(PeerEvent::Voided { kept: at });
        }
        for ev in batch {
            match ev {
                AppEvent::PairingCode { code } => {
                    let peer = hello_name(s.log(), s.side()).unwrap_or_default();
                    self.report(PeerEvent::PairingCode {
                        code,
                        peer,
                        rules: *s.rules(),
                        host: s.side() == side_of(crate::Seat::Host),
                    });
                }
                AppEvent::RulesOffered { rules, peer_name } => {
                    self.report(PeerEvent::RulesOffered {
                        rules,
                        peer: peer_name,
                    });
                }
                // The snapshot holds every event of the batch.
                AppEvent::Started { .. } => self.start(s),
                AppEvent::Game(e) => {
                    if at >= self.forwarded && self.started {
                        self.report(PeerEvent::Game(e));
                        self.forwarded = at + 1;
                    }
                    at += 1;
                }
                // Reported as a change of turn.
                AppEvent::YourTurn => {}
                AppEvent::TimeExpired => self.report(PeerEvent::TimeExpired),
                AppEvent::DrawOffered => self.report(PeerEvent::DrawOffered),
                AppEvent::Fault { culprit, reason } => {
                    self.report(PeerEvent::Fault { culprit, reason });
                }
                AppEvent::Finished(r) => self.report(PeerEvent::Finished(r)),
                AppEvent::Verdict(v) => {
                    self.keep(s);
                    self.report(PeerEvent::Verdict(v));
                }
            }
        }
        self.follow(s);
    }

    /// Reports what is not an event of the session: the turn, and the peer's readiness.
    fn follow(&mut self, s: &Session) {
        if self.started {
            let t = s.my_turn();
            if self.turn != Some(t) {
                self.turn = Some(t);
                self.report(PeerEvent::Turn(t));
            }
        } else if !self.peer_ready {
            let me = s.side();
            self.peer_ready = s
                .log()
                .iter()
                .any(|e| side_of(e.header.sender) != me && matches!(e.body, Body::Commit { .. }));
            if self.peer_ready {
                self.report(PeerEvent::PeerReady);
            }
        }
    }

    /// Keeps a finished game's whole signed log in the data folder before the live journal is
    /// deleted, so that its record can be exported for a third party's audit. Only games that
    /// were played: one that ended in the handshake has no record to export.
    fn keep(&self, s: &Session) {
        let Some(dir) = &self.dir else { return };
        if s.view().is_none() {
            return;
        }
        let id: String = s.game_id()[..8]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let path = dir.join(format!("{FINISHED_PREFIX}{id}.bin"));
        match crate::resume::save(&s.saved(), &path) {
            Ok(()) => self.report(PeerEvent::Kept(path)),
            // The game itself is unaffected; it just cannot be exported.
            Err(e) => self.report(PeerEvent::NotKept(Arc::new(e.into()))),
        }
    }
}

impl Handler for Shell {
    type Cmd = PeerCmd;

    fn event(&mut self, s: &mut Session, first: AppEvent) {
        let mut batch = vec![first];
        while let Some(e) = s.poll_event() {
            batch.push(e);
        }
        self.batch(s, batch);
    }

    fn command(&mut self, s: &mut Session, cmd: PeerCmd) -> Control {
        let now = Instant::now();
        let r = match cmd {
            PeerCmd::Accept(layout) => s.accept(now, layout),
            PeerCmd::Ready(layout) => s.set_layout(layout).and_then(|()| s.confirm_pairing(now)),
            PeerCmd::Play(m) => s.play(now, m),
            PeerCmd::OfferDraw => s.offer_draw(now),
            PeerCmd::AcceptDraw => s.accept_draw(now),
            PeerCmd::DeclineDraw => s.decline_draw(now),
            PeerCmd::Resign => s.resign(now),
            PeerCmd::Disconnect => return Control::Disconnect,
            PeerCmd::Quit => return Control::Quit,
        };
        if let Err(e) = r {
            self.report(PeerEvent::Refused(e));
        }
        Control::Continue
    }

    fn settled(&mut self, s: &Session) {
        self.follow(s);
    }

    fn connected(&mut self, _s: &Session) {
        self.report(PeerEvent::Connected);
    }

    fn dropped(&mut self, _s: &Session, e: &std::io::Error) {
        self.report(PeerEvent::Dropped(Arc::new(std::io::Error::new(
            e.kind(),
            e.to_string(),
        ))));
    }
}
