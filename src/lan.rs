//! LAN play: the network side of a game runs on a tokio runtime in a background thread and talks
//! to Bevy through channels ([`LanLink`]); the protocol itself is `junqi_net::session::Session`'s
//! state machine. The thread hosts (advertising by mDNS) or joins over QUIC, drives the session,
//! forwards every view and event ([`LanMsg`]), takes the player's decisions ([`LanCmd`]), and on
//! a dropped connection keeps the session and reconnects (the host listens again, the guest
//! retries), resuming where the stream stopped.

use std::io;
use std::net::{Ipv4Addr, SocketAddr, SocketAddrV4};
use std::sync::Mutex;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use bevy::prelude::Resource;
use junqi_game::{GameResult, Layout, Mode, Move, PlayerView, Rules, Side};
use junqi_net::Seed;
use junqi_net::discovery::{Advert, rules_summary};
use junqi_net::session::{AppEvent, Session, Verdict};
use junqi_net::transport::{
    Identity, accept_game, endpoint, join_game, pairing_code, peer_cert, start_stream,
};
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

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
    /// Guest: the host's rules (accepted at once with the player's layout).
    RulesOffered {
        /// The rules.
        rules: Rules,
        /// The host's name.
        peer: String,
    },
    /// Both setups are committed: play begins.
    Started {
        /// This side.
        me: Side,
        /// The pairing code both screens show.
        code: String,
        /// The peer's name.
        peer: String,
    },
    /// The player's view after the session's latest events.
    View {
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
    Refused(String),
    /// The peer broke the protocol.
    Fault {
        /// Who.
        culprit: Side,
        /// What was seen.
        reason: String,
    },
    /// The game is over (the audit follows).
    Finished(GameResult),
    /// The end-of-game audit.
    Verdict(Verdict),
    /// The connection dropped; reconnecting.
    Dropped(String),
    /// A fatal error: the thread stopped.
    Error(String),
}

/// The Bevy side's handle on the network thread.
#[derive(Resource)]
pub struct LanLink {
    cmd: UnboundedSender<LanCmd>,
    msgs: Mutex<mpsc::Receiver<LanMsg>>,
}

impl LanLink {
    /// Starts the network thread.
    pub fn start(role: Role) -> LanLink {
        let (cmd, cmd_rx) = unbounded_channel();
        let (tx, msgs) = mpsc::channel();
        std::thread::Builder::new()
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
                if let Err(e) = rt.block_on(run(role, cmd_rx, tx.clone())) {
                    let _ = tx.send(LanMsg::Error(e.to_string()));
                }
            })
            .expect("spawn the LAN thread");
        LanLink {
            cmd,
            msgs: Mutex::new(msgs),
        }
    }

    /// Sends a decision to the network thread.
    pub fn send(&self, cmd: LanCmd) {
        let _ = self.cmd.send(cmd);
    }

    /// The next report, if one came.
    pub fn next(&self) -> Option<LanMsg> {
        self.msgs.lock().expect("not poisoned").try_recv().ok()
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

struct Peer {
    session: Session,
    out: mpsc::Sender<LanMsg>,
    certs: (Vec<u8>, Vec<u8>),
    layout: Layout,
    sent_view: Option<(usize, u16, bool, bool)>,
}

impl Peer {
    fn report(&self, msg: LanMsg) {
        let _ = self.out.send(msg);
    }

    /// Hands the session's events to the app, and its view when it changed.
    fn events(&mut self) {
        while let Some(ev) = self.session.poll_event() {
            match ev {
                AppEvent::RulesOffered { rules, peer_name } => {
                    self.report(LanMsg::RulesOffered {
                        rules,
                        peer: peer_name,
                    });
                    let layout = if rules.mode == Mode::Flip || self.layout.validate(&rules).is_ok()
                    {
                        self.layout
                    } else {
                        Layout::random(&rules, &mut rand::rng())
                    };
                    if let Err(e) = self.session.accept(Instant::now(), layout) {
                        self.report(LanMsg::Refused(e.to_string()));
                    }
                }
                AppEvent::Started { me, game_id, .. } => {
                    let code = pairing_code(&self.certs.0, &self.certs.1, &game_id);
                    let peer = self.peer_name();
                    self.report(LanMsg::Started { me, code, peer });
                }
                AppEvent::Game(_) | AppEvent::YourTurn => {}
                AppEvent::TimeExpired => self.report(LanMsg::TimeExpired),
                AppEvent::DrawOffered => self.report(LanMsg::DrawOffered),
                AppEvent::Fault { culprit, reason } => {
                    self.report(LanMsg::Fault { culprit, reason });
                }
                AppEvent::Finished(r) => {
                    self.view();
                    self.report(LanMsg::Finished(r));
                }
                AppEvent::Verdict(v) => self.report(LanMsg::Verdict(v)),
            }
        }
        self.view();
    }

    fn view(&mut self) {
        if let Some(v) = self.session.view() {
            let my_turn = self.session.my_turn();
            let key = (v.events().len(), v.ply(), my_turn, v.result().is_some());
            if self.sent_view != Some(key) {
                self.sent_view = Some(key);
                let view = Box::new(v.clone());
                self.report(LanMsg::View { view, my_turn });
            }
        }
    }

    fn peer_name(&self) -> String {
        self.session
            .log()
            .iter()
            .find_map(|e| match &e.body {
                junqi_net::wire::Body::Hello { name, .. }
                    if junqi_net::wire::side_of(e.header.sender) != self.session.side() =>
                {
                    Some(name.clone())
                }
                _ => None,
            })
            .unwrap_or_default()
    }

    /// Applies a decision; `false` to quit.
    fn command(&mut self, cmd: LanCmd) -> bool {
        let now = Instant::now();
        let r = match cmd {
            LanCmd::Play(m) => self.session.play(now, m),
            LanCmd::OfferDraw => self.session.offer_draw(now),
            LanCmd::AcceptDraw => self.session.accept_draw(now),
            LanCmd::DeclineDraw => self.session.decline_draw(now),
            LanCmd::Resign => self.session.resign(now),
            LanCmd::Disconnect => return true,
            LanCmd::Quit => return false,
        };
        if let Err(e) = r {
            self.report(LanMsg::Refused(e.to_string()));
            // Let the app know the turn is still its own.
            self.sent_view = None;
        }
        self.events();
        true
    }
}

enum Ended {
    Done,
    Quit,
}

async fn run(
    role: Role,
    mut cmds: UnboundedReceiver<LanCmd>,
    out: mpsc::Sender<LanMsg>,
) -> io::Result<()> {
    let identity = Identity::generate()?;
    let mut nonce = [0u8; 32];
    for b in &mut nonce {
        *b = rand::random();
    }
    let now = Instant::now();
    let (host, bind, session, layout, addr) = match &role {
        Role::Host {
            rules,
            layout,
            name,
            port,
            mdns,
        } => {
            let ip = if *mdns {
                Ipv4Addr::UNSPECIFIED
            } else {
                Ipv4Addr::LOCALHOST
            };
            let s = Session::host(
                now,
                *rules,
                *layout,
                &identity.signing,
                Seed::random(),
                nonce,
                name,
            )
            .map_err(io::Error::other)?;
            (
                true,
                SocketAddr::V4(SocketAddrV4::new(ip, *port)),
                s,
                *layout,
                None,
            )
        }
        Role::Join { addr, layout, name } => {
            let s = Session::join(now, &identity.signing, Seed::random(), nonce, name);
            (
                false,
                SocketAddr::V4(SocketAddrV4::new(Ipv4Addr::UNSPECIFIED, 0)),
                s,
                *layout,
                Some(*addr),
            )
        }
    };
    let ep = endpoint(&identity, bind)?;
    let _advert = match &role {
        Role::Host {
            name, mdns: true, ..
        } => {
            let port = ep.local_addr()?.port();
            Some(
                Advert::start(name, port, &rules_summary(session.rules()))
                    .map_err(io::Error::other)?,
            )
        }
        _ => None,
    };
    if host {
        let _ = out.send(LanMsg::Listening {
            port: ep.local_addr()?.port(),
        });
    }
    let mut peer = Peer {
        session,
        out,
        certs: (Vec::new(), Vec::new()),
        layout,
        sent_view: None,
    };
    loop {
        // Connect (again), still taking the player's decisions.
        let connected = loop {
            let attempt = async {
                match addr {
                    None => accept_game(&ep).await,
                    Some(a) => join_game(&ep, a).await,
                }
            };
            tokio::select! {
                r = attempt => match r {
                    Ok(c) => break c,
                    Err(_) if !host => tokio::time::sleep(Duration::from_millis(500)).await,
                    Err(_) => {}
                },
                cmd = cmds.recv() => {
                    if !peer.command(cmd.unwrap_or(LanCmd::Quit)) {
                        return Ok(());
                    }
                }
            }
        };
        let (conn, mut send, mut recv) = connected;
        let other = peer_cert(&conn).unwrap_or_default();
        peer.certs = if host {
            (identity.cert.to_vec(), other)
        } else {
            (other, identity.cert.to_vec())
        };
        peer.report(LanMsg::Connected);
        let r: io::Result<Ended> = async {
            start_stream(&mut peer.session, &mut send, &mut recv).await?;
            let mut buf = vec![0u8; 16 * 1024];
            loop {
                peer.events();
                while let Some(bytes) = peer.session.poll_transmit() {
                    send.write_all(&bytes).await.map_err(io::Error::other)?;
                    peer.events();
                }
                if peer.session.is_done() {
                    let _ = send.finish();
                    return Ok(Ended::Done);
                }
                let deadline = peer.session.poll_timeout();
                let sleep = async {
                    match deadline {
                        Some(t) => {
                            tokio::time::sleep_until(tokio::time::Instant::from_std(t)).await
                        }
                        None => std::future::pending().await,
                    }
                };
                tokio::select! {
                    r = recv.read(&mut buf) => match r {
                        Ok(Some(n)) => peer.session.handle_bytes(Instant::now(), &buf[..n]),
                        Ok(None) => return Err(io::Error::other("the peer closed the stream")),
                        Err(e) => return Err(io::Error::other(e)),
                    },
                    () = sleep => peer.session.handle_timeout(Instant::now()),
                    cmd = cmds.recv() => match cmd.unwrap_or(LanCmd::Quit) {
                        LanCmd::Disconnect => return Err(io::Error::other("disconnected")),
                        cmd => {
                            if !peer.command(cmd) {
                                return Ok(Ended::Quit);
                            }
                        }
                    }
                }
            }
        }
        .await;
        match r {
            Ok(Ended::Done) => {
                // Let the last frames reach the peer before closing.
                let _ =
                    tokio::time::timeout(Duration::from_secs(2), recv.read_to_end(1 << 20)).await;
                conn.close(0u32.into(), b"done");
                break;
            }
            Ok(Ended::Quit) => {
                conn.close(0u32.into(), b"quit");
                break;
            }
            Err(e) => {
                conn.close(1u32.into(), b"lost");
                peer.report(LanMsg::Dropped(e.to_string()));
            }
        }
    }
    let _ = tokio::time::timeout(Duration::from_secs(1), ep.wait_idle()).await;
    // Stay until the app lets go, so that nothing is lost.
    while let Some(cmd) = cmds.recv().await {
        if cmd == LanCmd::Quit {
            break;
        }
    }
    Ok(())
}
