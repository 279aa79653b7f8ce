//! The network thread: a LAN game's `junqi_net::session::Session` runs on a tokio runtime in a
//! background thread, driven by junqi-net's one driver (`junqi_net::transport::play`, the same
//! as `junqi-peer`'s), and talks to Bevy through channels ([`LanLink`], owned by the LAN plugin).
//! The thread hosts (advertising by mDNS) or joins over QUIC, reports the session's events
//! ([`LanMsg`]: the view once at the start, then each public event as it happens), takes the
//! player's decisions ([`LanCmd`]), appends every message to a journal in the data directory
//! before sending anything, and on a dropped connection keeps the session and reconnects (the
//! host listens again, the guest retries), resuming where the stream stopped.

use std::io;
use std::net::{Ipv4Addr, SocketAddr, SocketAddrV4};
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use bevy::prelude::Resource;
use junqi_game::{Event, GameResult, Layout, Mode, Move, PlayerView, Rules, Side};
use junqi_net::Seed;
use junqi_net::discovery::{Advert, rules_summary};
use junqi_net::resume::Journal;
use junqi_net::session::{AppEvent, Session, SessionError, Verdict};
use junqi_net::transport::{Control, Dial, Ended, Handler, Identity, endpoint, play};
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

use super::files::{JOURNAL, LINK, Link, hello_name, read_link};
use crate::redraw::Waker;

/// What to do on the LAN.
#[derive(Clone, Debug)]
pub enum Role {
    /// Host a game with these rules and this layout.
    Host {
        /// The rules offered.
        rules: Rules,
        /// The player's layout (ignored in flip games).
        layout: Layout,
        /// Display name.
        name: String,
        /// UDP port (0: any).
        port: u16,
        /// Advertise by mDNS (off: listen on 127.0.0.1 only, for tests).
        mdns: bool,
    },
    /// Join the host at this address.
    Join {
        /// The host's address.
        addr: SocketAddr,
        /// The player's layout (a random legal one is used if it does not fit the host's rules).
        layout: Layout,
        /// Display name.
        name: String,
    },
    /// Resume the unfinished game saved in the LAN folder ([`super::unfinished`]): a host listens
    /// again on its port, a guest connects again to its host.
    Resume,
}

/// The player's decisions, sent to the network thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LanCmd {
    /// Play a move.
    Play(Move),
    /// Offer a draw.
    OfferDraw,
    /// Accept the peer's draw offer.
    AcceptDraw,
    /// Decline the peer's draw offer.
    DeclineDraw,
    /// Resign.
    Resign,
    /// The player saw the same pairing code on both screens: commit to the setup.
    ConfirmPairing,
    /// The app's view could not follow an event: send the whole view again.
    Resync,
    /// Break the connection as a failing network would (the session stays; both sides
    /// reconnect and resume). For tests of the reconnection.
    Disconnect,
    /// Leave: stop the thread.
    Quit,
}

/// What the network thread reports.
#[derive(Clone, Debug)]
pub enum LanMsg {
    /// The host listens on this port (and is advertised when mDNS is on).
    Listening {
        /// The UDP port.
        port: u16,
    },
    /// Connected (again) to the peer.
    Connected,
    /// Both hello nonces are in: show the code and ask the player to compare it with the other
    /// screen ([`LanCmd::ConfirmPairing`] when they match). Nothing about the setup is sent before.
    PairingCode {
        /// The code, `"123-456"`.
        code: String,
        /// The peer's name.
        peer: String,
    },
    /// Guest: the host's rules (accepted at once with the player's layout).
    RulesOffered {
        /// The rules.
        rules: Rules,
        /// The host's name.
        peer: String,
    },
    /// Both setups are committed: play begins (or a saved game resumes) from this view.
    Started {
        /// This side.
        me: Side,
        /// The pairing code both screens show.
        code: String,
        /// The peer's name.
        peer: String,
        /// The player's view: the events that follow apply to it.
        view: Box<PlayerView>,
        /// Whether the session accepts a move now.
        my_turn: bool,
    },
    /// Public events since the last report, in order, and whose turn it is now.
    Events {
        /// The events, to apply to the view in order.
        events: Vec<Event>,
        /// Whether the session accepts a move now.
        my_turn: bool,
    },
    /// The whole view again: this side's move was voided (it crossed the peer's timeout claim)
    /// and rolled back, or the app asked ([`LanCmd::Resync`]).
    Resync {
        /// The view.
        view: Box<PlayerView>,
        /// Whether the session accepts a move now.
        my_turn: bool,
    },
    /// The peer offers a draw.
    DrawOffered,
    /// The player's move clock ran out.
    TimeExpired,
    /// A request was refused.
    Refused(SessionError),
    /// The peer broke the protocol.
    Fault {
        /// Who.
        culprit: Side,
        /// What was seen.
        reason: junqi_net::FaultKind,
    },
    /// The game is over (the audit follows).
    Finished(GameResult),
    /// The end-of-game audit.
    Verdict(Verdict),
    /// The finished game's signed log was kept at this path, as a journal `junqi-audit` reads
    /// (sent just before [`LanMsg::Verdict`]; the live journal is deleted once the game is done).
    Kept(PathBuf),
    /// The connection dropped; reconnecting.
    Dropped(String),
    /// A fatal error: the thread stopped.
    Error(String),
}

/// The Bevy side's handle on the network thread: a resource of the LAN plugin only (screens
/// write [`super::LanRequest`]s and read [`super::LanEvent`]s). It exists while a LAN session runs.
#[derive(Resource)]
pub struct LanLink {
    cmd: UnboundedSender<LanCmd>,
    msgs: Mutex<mpsc::Receiver<LanMsg>>,
}

impl LanLink {
    /// Starts the network thread, keeping the identity and the game's journal in `dir` (the
    /// data directory's LAN folder), so that the game can resume after a crash of the app.
    /// Each report wakes the app through `waker` (it sleeps while nothing changes, see
    /// [`crate::redraw`]).
    pub(super) fn start(role: Role, dir: PathBuf, waker: Waker) -> LanLink {
        let (cmd, cmd_rx) = unbounded_channel();
        let (tx, msgs) = waking_channel(waker);
        let report = tx.clone();
        let spawned = std::thread::Builder::new()
            .name("junqi-lan".into())
            .spawn(move || {
                let rt = match tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                {
                    Ok(rt) => rt,
                    Err(e) => {
                        let _ = tx.send(LanMsg::Error(e.to_string()));
                        return;
                    }
                };
                if let Err(e) = rt.block_on(run(role, dir, cmd_rx, tx.clone())) {
                    let _ = tx.send(LanMsg::Error(e.to_string()));
                }
            });
        if let Err(e) = spawned {
            let _ = report.send(LanMsg::Error(e.to_string()));
        }
        LanLink {
            cmd,
            msgs: Mutex::new(msgs),
        }
    }

    /// Sends a decision to the network thread.
    pub(super) fn send(&self, cmd: LanCmd) {
        let _ = self.cmd.send(cmd);
    }

    /// The next report, if one came.
    pub(super) fn next(&self) -> Option<LanMsg> {
        self.msgs.lock().expect("not poisoned").try_recv().ok()
    }
}

/// A channel whose every message also wakes the app: a small thread forwards the messages and
/// ends with the senders. Should that thread not start, the messages go straight through and
/// are seen at the app's next wake-up.
fn waking_channel(waker: Waker) -> (mpsc::Sender<LanMsg>, mpsc::Receiver<LanMsg>) {
    let (tx, inner) = mpsc::channel::<LanMsg>();
    let (out, msgs) = mpsc::channel();
    let forward = std::thread::Builder::new()
        .name("junqi-lan-wake".into())
        .spawn(move || {
            for msg in inner {
                if out.send(msg).is_err() {
                    break;
                }
                waker.wake();
            }
        });
    match forward {
        Ok(_) => (tx, msgs),
        Err(e) => {
            bevy::log::warn!("LAN reports will wait for the next frame: no wake-up thread: {e}");
            mpsc::channel()
        }
    }
}

impl Drop for LanLink {
    fn drop(&mut self) {
        let _ = self.cmd.send(LanCmd::Quit);
    }
}

/// The player's display name on the LAN.
pub fn default_name() -> String {
    let user = std::env::var("USER")
        .or_else(|_| std::env::var("USERNAME"))
        .unwrap_or_default();
    let user: String = user
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == '-')
        .take(20)
        .collect();
    if user.is_empty() {
        "junqi".into()
    } else {
        format!("junqi-{user}")
    }
}

/// The app's side of the driver: turns the session's events into [`LanMsg`]s
/// and the player's [`LanCmd`]s into session calls.
struct AppSide {
    out: mpsc::Sender<LanMsg>,
    /// The LAN folder (where a finished game's journal is kept).
    dir: PathBuf,
    layout: Layout,
    /// Play began (so leaving keeps the journal for a later resume), and the app has the view.
    started: bool,
    /// The view's events the app has: their number and the last one (a voided move rolls the
    /// session's view back, and the app's must follow).
    forwarded: (usize, Option<Event>),
    /// The turn flag last reported.
    sent_turn: Option<bool>,
    /// The app asked for the whole view.
    resync: bool,
}

impl AppSide {
    fn report(&self, msg: LanMsg) {
        let _ = self.out.send(msg);
    }

    /// Reports what changed in the view since the last report: its new events, the turn, or the
    /// whole view when the app's copy no longer leads to the session's.
    fn sync(&mut self, s: &Session) {
        let Some(v) = s.view() else { return };
        if !self.started {
            return;
        }
        let my_turn = s.my_turn();
        let events = v.events();
        let (n, last) = self.forwarded;
        let extends = events.len() >= n && (n == 0 || events.get(n - 1) == last.as_ref());
        if self.resync || !extends {
            self.resync = false;
            let view = Box::new(v.clone());
            self.report(LanMsg::Resync { view, my_turn });
        } else if events.len() > n || self.sent_turn != Some(my_turn) {
            let events = events[n..].to_vec();
            self.report(LanMsg::Events { events, my_turn });
        } else {
            return;
        }
        self.forwarded = (events.len(), events.last().copied());
        self.sent_turn = Some(my_turn);
    }

    /// Keeps a finished game's whole signed log in the LAN folder before the live journal is
    /// deleted, so that its record can be exported for a third party's audit. Only games that
    /// were played: one that ended in the handshake has no record to export.
    fn keep(&self, s: &Session) {
        if s.view().is_none() {
            return;
        }
        let id: String = s.game_id()[..8]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let path = self.dir.join(format!("finished-{id}.bin"));
        match junqi_net::resume::save(&s.saved(), &path) {
            Ok(()) => self.report(LanMsg::Kept(path)),
            // The game itself is unaffected; it just cannot be exported.
            Err(e) => bevy::log::warn!("cannot keep the finished game's journal: {e}"),
        }
    }

    /// Play began (or resumed): the app gets the view the events will apply to.
    fn started(&mut self, s: &Session) {
        let Some(v) = s.view() else { return };
        self.started = true;
        let my_turn = s.my_turn();
        self.forwarded = (v.events().len(), v.events().last().copied());
        self.sent_turn = Some(my_turn);
        self.report(LanMsg::Started {
            me: s.side(),
            code: s.pairing().unwrap_or_default(),
            peer: hello_name(s.log(), s.side()).unwrap_or_default(),
            view: Box::new(v.clone()),
            my_turn,
        });
    }
}

impl Handler for AppSide {
    type Cmd = LanCmd;

    fn event(&mut self, s: &mut Session, ev: AppEvent) {
        match ev {
            AppEvent::PairingCode { code } => {
                let peer = hello_name(s.log(), s.side()).unwrap_or_default();
                self.report(LanMsg::PairingCode { code, peer });
            }
            AppEvent::RulesOffered { rules, peer_name } => {
                self.report(LanMsg::RulesOffered {
                    rules,
                    peer: peer_name,
                });
                let layout = if rules.mode == Mode::Flip || self.layout.validate(&rules).is_ok() {
                    self.layout
                } else {
                    Layout::random(&rules, &mut rand::rng())
                };
                if let Err(e) = s.accept(Instant::now(), layout) {
                    self.report(LanMsg::Refused(e));
                }
            }
            AppEvent::Started { .. } => self.started(s),
            AppEvent::Game(_) | AppEvent::YourTurn => {}
            AppEvent::TimeExpired => self.report(LanMsg::TimeExpired),
            AppEvent::DrawOffered => self.report(LanMsg::DrawOffered),
            AppEvent::Fault { culprit, reason } => {
                self.report(LanMsg::Fault { culprit, reason });
            }
            AppEvent::Finished(r) => {
                self.sync(s);
                self.report(LanMsg::Finished(r));
            }
            AppEvent::Verdict(v) => {
                self.keep(s);
                self.report(LanMsg::Verdict(v));
            }
        }
    }

    fn command(&mut self, s: &mut Session, cmd: LanCmd) -> Control {
        let now = Instant::now();
        let r = match cmd {
            LanCmd::Play(m) => s.play(now, m),
            LanCmd::OfferDraw => s.offer_draw(now),
            LanCmd::AcceptDraw => s.accept_draw(now),
            LanCmd::DeclineDraw => s.decline_draw(now),
            LanCmd::Resign => s.resign(now),
            LanCmd::ConfirmPairing => s.confirm_pairing(now),
            LanCmd::Resync => {
                self.resync = true;
                self.sync(s);
                return Control::Continue;
            }
            LanCmd::Disconnect => return Control::Disconnect,
            LanCmd::Quit => return Control::Quit,
        };
        if let Err(e) = r {
            self.report(LanMsg::Refused(e));
            // Let the app know the turn is still its own.
            self.sent_turn = None;
        }
        Control::Continue
    }

    fn settled(&mut self, s: &Session) {
        self.sync(s);
    }

    fn connected(&mut self, _s: &Session) {
        self.report(LanMsg::Connected);
    }

    fn dropped(&mut self, _s: &Session, e: &io::Error) {
        self.report(LanMsg::Dropped(e.to_string()));
    }
}

async fn run(
    role: Role,
    dir: PathBuf,
    mut cmds: UnboundedReceiver<LanCmd>,
    out: mpsc::Sender<LanMsg>,
) -> io::Result<()> {
    std::fs::create_dir_all(&dir)?;
    // The identity is kept: a restored session must sign with the same key.
    let identity = Identity::load_or_create(&dir)?;
    let journal_path = dir.join(JOURNAL);
    let mut nonce = [0u8; 32];
    getrandom_nonce(&mut nonce);
    let now = Instant::now();
    let (mut session, mut journal, mut link, layout, resumed) = match role {
        Role::Host {
            rules,
            layout,
            name,
            port,
            mdns,
        } => {
            let s = Session::host(
                now,
                rules,
                layout,
                &identity.signing,
                Seed::random(),
                nonce,
                &name,
            )
            .map_err(io::Error::other)?;
            let link = Link {
                host: true,
                port,
                mdns,
                addr: None,
                name,
            };
            (s, Journal::new(&journal_path), link, layout, false)
        }
        Role::Join { addr, layout, name } => {
            let s = Session::join(now, &identity.signing, Seed::random(), nonce, &name);
            let link = Link {
                host: false,
                port: 0,
                mdns: false,
                addr: Some(addr),
                name,
            };
            (s, Journal::new(&journal_path), link, layout, false)
        }
        Role::Resume => {
            let link = read_link(&dir)?;
            let (journal, saved) = Journal::resume(&journal_path)?;
            let layout = saved
                .layout
                .ok_or_else(|| io::Error::other("no layout saved"))?;
            let s = Session::restore(now, &identity.signing, &saved).map_err(io::Error::other)?;
            (s, journal, link, layout, true)
        }
    };
    let bind = if link.host {
        let ip = if link.mdns {
            Ipv4Addr::UNSPECIFIED
        } else {
            Ipv4Addr::LOCALHOST
        };
        SocketAddr::V4(SocketAddrV4::new(ip, link.port))
    } else {
        SocketAddr::V4(SocketAddrV4::new(Ipv4Addr::UNSPECIFIED, 0))
    };
    let ep = endpoint(&identity, bind)?;
    if link.host {
        // A resumed host listens on the same port, so the guest's retries reach it.
        link.port = ep.local_addr()?.port();
    }
    let text = serde_json::to_string(&link).map_err(io::Error::other)?;
    junqi_net::resume::write_atomic(&dir.join(LINK), text.as_bytes())?;
    let _advert = if link.host && link.mdns {
        Some(
            Advert::start(&link.name, link.port, &rules_summary(session.rules()))
                .map_err(io::Error::other)?,
        )
    } else {
        None
    };
    if link.host {
        let _ = out.send(LanMsg::Listening { port: link.port });
    }
    let mut side = AppSide {
        out,
        dir: dir.clone(),
        layout,
        started: false,
        forwarded: (0, None),
        sent_turn: None,
        resync: false,
    };
    if resumed
        && session.is_done()
        && let Some(v) = session.verdict()
    {
        // The journal of a game that had ended (a crash just before it was deleted).
        side.keep(&session);
        side.report(LanMsg::Verdict(v.clone()));
    } else if resumed && session.view().is_some() {
        // The restored session does not announce the start again.
        side.started(&session);
    }
    let dial = match link.addr {
        Some(a) if !link.host => Dial::Connect(a),
        _ => Dial::Accept,
    };
    let ended = play(
        &mut session,
        &ep,
        dial,
        Some(&mut journal),
        Some(&mut cmds),
        &mut side,
        None,
    )
    .await?;
    // A finished game is not resumed; nor is one left before it began.
    if ended == Ended::Done || !side.started {
        journal.remove()?;
        let _ = std::fs::remove_file(dir.join(LINK));
    }
    let _ = tokio::time::timeout(Duration::from_secs(1), ep.wait_idle()).await;
    if ended == Ended::Quit {
        return Ok(());
    }
    // Stay until the app lets go, so that nothing is lost.
    while let Some(cmd) = cmds.recv().await {
        if cmd == LanCmd::Quit {
            break;
        }
    }
    Ok(())
}

fn getrandom_nonce(nonce: &mut [u8; 32]) {
    use rand::RngCore;
    rand::rng().fill_bytes(nonce);
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use junqi_net::testing::{Pair, Player};

    use super::*;
    use crate::session::Session as Board;

    /// The app's board, following only the forwarded reports, always shows the network
    /// session's view: through battles, timeouts and, with latency above the grace, moves that
    /// crossed a timeout claim and were voided (the whole view is sent again then).
    #[test]
    fn the_apps_view_follows_the_session_through_events_alone() {
        let mut resyncs = 0;
        for (seed, mode) in [
            (7100u64, Mode::Dark),
            (7101, Mode::Flip),
            (7102, Mode::Open),
        ] {
            let mut p = Pair::new(Rules::for_mode(mode), seed);
            for s in &mut p.sessions {
                s.set_grace(Duration::from_secs(2));
            }
            p.latency = Duration::from_millis(2100);
            p.jitter = Duration::from_millis(1500);
            p.players = [Player::Slow, Player::Slow];
            let (tx, rx) = mpsc::channel();
            let mut side = AppSide {
                out: tx,
                dir: std::env::temp_dir(),
                layout: junqi_net::testing::preset(0),
                started: false,
                forwarded: (0, None),
                sent_turn: None,
                resync: false,
            };
            let mut board: Option<Board> = None;
            for _ in 0..20_000 {
                if p.verdict(0).is_some() {
                    break;
                }
                p.step();
                let s = &p.sessions[0];
                if !side.started && s.view().is_some() {
                    side.started(s);
                }
                side.sync(s);
                for msg in rx.try_iter() {
                    match msg {
                        LanMsg::Started { view, my_turn, .. } => {
                            let mut b = Board::remote(*view, "lan:peer".into(), 0);
                            b.update_view(b.view.clone(), my_turn);
                            board = Some(b);
                        }
                        LanMsg::Events { events, my_turn } => {
                            let b = board.as_mut().expect("started first");
                            b.follow(&events, my_turn)
                                .expect("the view takes every event");
                        }
                        LanMsg::Resync { view, my_turn } => {
                            resyncs += 1;
                            board
                                .as_mut()
                                .expect("started first")
                                .resync(*view, my_turn);
                        }
                        other => panic!("unexpected report {other:?}"),
                    }
                }
                if let (Some(b), Some(v)) = (&board, s.view()) {
                    assert_eq!(format!("{:?}", b.view), format!("{v:?}"), "{mode:?}");
                    assert_eq!(b.my_turn(), s.my_turn() && v.result().is_none(), "{mode:?}");
                }
            }
            assert!(p.verdict(0).is_some(), "{mode:?}: the game did not end");
            assert!(
                board.is_some_and(|b| b.plies() > 0),
                "{mode:?}: nothing was played"
            );
        }
        // Late moves crossed claims: the rolled-back view was sent whole.
        assert!(resyncs > 0);
    }
}
