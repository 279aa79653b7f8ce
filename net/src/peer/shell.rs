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
use super::messages::{PeerCmd, PeerEvent};

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

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;
    use std::time::Duration;

    use junqi_game::{Mode, PlayerView, Rules};
    use junqi_proto::testing::{Pair, random_move};
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64;

    use super::*;
    use crate::peer::rewind;

    /// Two sessions on a wire whose latency is above the grace, both players slow (some moves
    /// after the deadline): the waiting side's timeout claims cross late moves, which are voided.
    /// The host's events go through the shell, one batch per operation, as the driver takes them.
    struct Wire {
        s: [Session; 2],
        now: Instant,
        wire: VecDeque<(Instant, usize, Vec<u8>)>,
        planned: [Option<Instant>; 2],
        rng: Pcg64,
        shell: Shell,
    }

    impl Wire {
        fn flush(&mut self, i: usize) {
            while let Some(bytes) = self.s[i].poll_transmit() {
                let lag = Duration::from_millis(2100 + self.rng.random_range(0..1500));
                let last = self.wire.iter().filter(|w| w.1 == 1 - i).map(|w| w.0).max();
                let at = (self.now + lag).max(last.unwrap_or(self.now));
                let pos = self.wire.iter().position(|w| w.0 > at);
                self.wire
                    .insert(pos.unwrap_or(self.wire.len()), (at, 1 - i, bytes));
            }
            let mut mine = Vec::new();
            if i == 0 {
                if let Some(first) = self.s[0].poll_event() {
                    self.shell.event(&mut self.s[0], first);
                }
                self.shell.settled(&self.s[0]);
            } else {
                while let Some(e) = self.s[1].poll_event() {
                    mine.push(e);
                }
            }
            for e in mine {
                match e {
                    AppEvent::PairingCode { .. } => self.s[1].confirm_pairing(self.now).unwrap(),
                    AppEvent::RulesOffered { rules, .. } => {
                        let l = junqi_game::Layout::random(&rules, &mut self.rng);
                        self.s[1].accept(self.now, l).unwrap();
                    }
                    _ => {}
                }
                self.flush(1);
            }
        }

        /// A slow player's next move: mostly quick, sometimes near or past the deadline.
        fn plan(&mut self, i: usize) {
            if self.planned[i].is_some() || !self.s[i].my_turn() {
                return;
            }
            let t = Duration::from_secs(u64::from(self.s[i].rules().move_seconds));
            let pause = match self.rng.random_range(0..10) {
                0..=5 => Duration::from_millis(self.rng.random_range(0..500)),
                6..=8 => t.saturating_sub(Duration::from_millis(self.rng.random_range(0..3000))),
                _ => t + Duration::from_millis(self.rng.random_range(0..5000)),
            };
            self.planned[i] = Some(self.now + pause);
        }

        fn step(&mut self) {
            while let Some(&(at, to, _)) = self.wire.front()
                && at <= self.now
            {
                let (_, to2, bytes) = self.wire.pop_front().expect("front");
                debug_assert_eq!(to, to2);
                self.s[to].handle_bytes(self.now, &bytes);
                self.flush(to);
            }
            for i in 0..2 {
                self.plan(i);
                if self.planned[i].is_some_and(|t| t <= self.now) {
                    self.planned[i] = None;
                    if let Some(v) = self.s[i].view().cloned()
                        && let Some(m) = random_move(&v, &mut self.rng)
                    {
                        // Refused once the clock has run out: the peer claims.
                        let _ = self.s[i].play(self.now, m);
                    }
                    self.flush(i);
                }
            }
            let next = self
                .wire
                .front()
                .map(|w| w.0)
                .into_iter()
                .chain(self.s.iter().filter_map(Session::poll_timeout))
                .chain(self.planned.iter().flatten().copied())
                .min()
                .unwrap_or(self.now + Duration::from_secs(1));
            self.now = self.now.max(next);
            for i in 0..2 {
                if self.s[i].poll_timeout().is_some_and(|t| t <= self.now) {
                    self.s[i].handle_timeout(self.now);
                    self.flush(i);
                }
            }
        }
    }

    /// The owner's view, built from the one snapshot and then the events (a voided move rewinds
    /// it), is the session's view after every batch, and the turn it is told is the session's:
    /// through battles, timeouts and late moves voided by a crossing claim, in every mode.
    #[test]
    fn the_owners_view_follows_the_session_from_one_snapshot_and_events() {
        let mut voided = 0;
        for (seed, mode) in [
            (7100u64, Mode::Dark),
            (7101, Mode::Flip),
            (7102, Mode::Open),
        ] {
            let p = Pair::new(Rules::for_mode(mode), seed);
            let Pair { sessions, now, .. } = p;
            let (tx, rx) = mpsc::channel();
            let mut w = Wire {
                s: sessions,
                now,
                wire: VecDeque::new(),
                planned: [None; 2],
                rng: Pcg64::seed_from_u64(seed),
                shell: Shell::new(tx, None),
            };
            for s in &mut w.s {
                s.set_grace(Duration::from_secs(2));
            }
            w.flush(0);
            let mut owner: Option<(PlayerView, PlayerView)> = None;
            let mut turn = false;
            let mut played = 0;
            for _ in 0..50_000 {
                if w.s[0].is_done() {
                    break;
                }
                w.step();
                for e in rx.try_iter() {
                    match e {
                        PeerEvent::PairingCode { .. } => w.s[0].confirm_pairing(w.now).unwrap(),
                        PeerEvent::Started { view, my_turn, .. } => {
                            turn = my_turn;
                            owner = Some(((*view).clone(), *view));
                        }
                        PeerEvent::Game(e) => {
                            let (_, v) = owner.as_mut().expect("started first");
                            v.apply(&e).expect("the view takes every event");
                            played += 1;
                        }
                        PeerEvent::Voided { kept } => {
                            let (start, v) = owner.as_mut().expect("started first");
                            *v = rewind(start, v, kept).expect("the snapshot takes the events");
                            voided += 1;
                        }
                        PeerEvent::Turn(t) => turn = t,
                        _ => {}
                    }
                }
                w.flush(0);
                if let (Some((_, v)), Some(sv)) = (&owner, w.s[0].view()) {
                    assert_eq!(format!("{v:?}"), format!("{sv:?}"), "{mode:?}");
                    assert_eq!(turn, w.s[0].my_turn(), "{mode:?}");
                }
            }
            assert!(w.s[0].is_done(), "{mode:?}: the game did not end");
            assert!(played > 0, "{mode:?}: nothing was played");
        }
        // Late moves crossed claims: the owner's view was rewound, never sent again.
        assert!(voided > 0);
    }
}
