//! One LAN game behind one handle: [`PeerHandle::start`] runs a game on its own thread (a tokio
//! runtime, QUIC, the mDNS advertisement, the installation's identity and the game's journal in
//! the data folder) and talks to its owner through two channels only: the owner
//! [`PeerHandle::send`]s [`PeerCmd`]s and takes [`PeerEvent`]s with [`PeerHandle::try_recv`].
//! The app and `junqi-peer` are both such owners; neither needs tokio, quinn or mdns-sd.
//!
//! The owner's view of the game follows the session from one snapshot and then events:
//! [`PeerEvent::Started`] carries the player's view when play begins (or resumes), each
//! [`PeerEvent::Game`] is one public event to apply to it, and [`PeerEvent::Voided`] says how
//! many of the view's events still stand after a move of this side was voided (it crossed the
//! peer's timeout claim or resignation): the owner rebuilds its view from the snapshot and those
//! events ([`rewind`]).
//!
//! - `shell`: the driver's [`crate::transport::Handler`] that turns the session's events into
//!   [`PeerEvent`]s and the owner's commands into session calls;
//! - `files`: the data folder's files (identity, journal, how to reach the peer again, kept
//!   finished games) and the unfinished game a crash left ([`unfinished`]);
//! - `browse`: finding hosts on the LAN ([`Browser`]);
//! - `messages`: the owner's commands and the thread's events ([`PeerCmd`], [`PeerEvent`]);
//! - `error`: why a game could not go on ([`PeerError`]).

mod browse;
mod error;
mod files;
mod messages;
mod shell;

use std::io;
use std::net::{Ipv4Addr, SocketAddr, SocketAddrV4};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use junqi_game::{Layout, PlayerView, Rules, ViewError};
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

pub use browse::Browser;
pub use error::PeerError;
pub use files::{FINISHED_PREFIX, JOURNAL, LINK, Unfinished, discard, unfinished};
pub use messages::{PeerCmd, PeerEvent};

use crate::Seed;
use crate::discovery::{Advert, rules_summary};
use crate::resume::Journal;
use crate::session::Session;
use crate::transport::{Dial, Ended, Identity, endpoint, play};
use files::Link;
use shell::Shell;

/// What to do on the LAN.
#[derive(Clone, Debug)]
pub enum Role {
    /// Host a game with these rules, playing `layout` until the player arranges another
    /// ([`PeerCmd::Ready`]).
    Host {
        /// The rules offered.
        rules: Rules,
        /// The layout committed unless the player arranges another (ignored in flip games).
        layout: Layout,
        /// Display name.
        name: String,
        /// UDP port (0: any).
        port: u16,
        /// Advertise by mDNS (off: listen on 127.0.0.1 only, for tests and scripts).
        mdns: bool,
    },
    /// Join the host at this address (the host's rules come as [`PeerEvent::RulesOffered`];
    /// answer with [`PeerCmd::Accept`]).
    Join {
        /// The host's address.
        addr: SocketAddr,
        /// Display name.
        name: String,
    },
    /// Resume the unfinished game saved in the data folder ([`unfinished`]): a host listens
    /// again on its port, a guest connects again to its host.
    Resume,
}

/// The owner's handle on a LAN game's thread. Dropping it stops the thread.
pub struct PeerHandle {
    cmds: UnboundedSender<PeerCmd>,
    events: Mutex<mpsc::Receiver<PeerEvent>>,
}

impl std::fmt::Debug for PeerHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PeerHandle").finish_non_exhaustive()
    }
}

impl PeerHandle {
    /// Starts a game's thread. With a data folder `dir` the identity is kept there and every
    /// message is appended to its journal before anything is sent, so that the game can resume
    /// after a crash ([`Role::Resume`]); without one the identity is new and nothing is saved.
    /// Failures come as [`PeerEvent::Error`].
    #[must_use]
    pub fn start(role: Role, dir: Option<PathBuf>) -> PeerHandle {
        PeerHandle::start_waking(role, dir, || {})
    }

    /// As [`PeerHandle::start`], calling `wake` after each report is queued, so that an owner
    /// that sleeps while nothing changes (the app draws only on change) polls again.
    #[must_use]
    pub fn start_waking(
        role: Role,
        dir: Option<PathBuf>,
        wake: impl Fn() + Send + 'static,
    ) -> PeerHandle {
        let (cmds, cmd_rx) = unbounded_channel();
        let (tx, events) = waking_channel(wake);
        let report = tx.clone();
        let spawned = std::thread::Builder::new()
            .name("junqi-peer".into())
            .spawn(move || {
                let r = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .map_err(|e| PeerError::Thread(Arc::new(e)))
                    .and_then(|rt| rt.block_on(run(role, dir, cmd_rx, tx.clone())));
                if let Err(e) = r {
                    let _ = tx.send(PeerEvent::Error(e));
                }
                let _ = tx.send(PeerEvent::Stopped);
            });
        if let Err(e) = spawned {
            let _ = report.send(PeerEvent::Error(PeerError::Thread(Arc::new(e))));
            let _ = report.send(PeerEvent::Stopped);
        }
        PeerHandle {
            cmds,
            events: Mutex::new(events),
        }
    }

    /// Sends a decision to the game's thread (ignored once it stopped).
    pub fn send(&self, cmd: PeerCmd) {
        let _ = self.cmds.send(cmd);
    }

    /// The next report, if one came.
    pub fn try_recv(&self) -> Option<PeerEvent> {
        self.lock().try_recv().ok()
    }

    /// The next report, waiting up to `timeout` for it.
    pub fn recv_timeout(&self, timeout: Duration) -> Option<PeerEvent> {
        self.lock().recv_timeout(timeout).ok()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, mpsc::Receiver<PeerEvent>> {
        // A panic elsewhere while holding the lock leaves the receiver usable.
        self.events
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// A channel whose every message is followed by `wake()`: a small thread forwards the messages
/// and ends with the senders. Should that thread not start, the messages go straight through
/// (the owner sees them at its next poll).
fn waking_channel(
    wake: impl Fn() + Send + 'static,
) -> (mpsc::Sender<PeerEvent>, mpsc::Receiver<PeerEvent>) {
    let (tx, inner) = mpsc::channel::<PeerEvent>();
    let (out, events) = mpsc::channel();
    let forward = std::thread::Builder::new()
        .name("junqi-peer-wake".into())
        .spawn(move || {
            for e in inner {
                if out.send(e).is_err() {
                    break;
                }
                wake();
            }
        });
    match forward {
        Ok(_) => (tx, events),
        Err(_) => mpsc::channel(),
    }
}

impl Drop for PeerHandle {
    fn drop(&mut self) {
        let _ = self.cmds.send(PeerCmd::Quit);
    }
}

/// The view after [`PeerEvent::Voided`]: the snapshot of [`PeerEvent::Started`] with the first
/// `kept` events of `current` applied (the events before the snapshot are in it already).
///
/// # Errors
/// An event the snapshot cannot take (a view that does not extend the snapshot).
pub fn rewind(
    snapshot: &PlayerView,
    current: &PlayerView,
    kept: usize,
) -> Result<PlayerView, ViewError> {
    let mut view = snapshot.clone();
    let from = snapshot.events().len();
    for e in current.events().get(from..kept).unwrap_or_default() {
        view.apply(e)?;
    }
    Ok(view)
}

fn random_nonce() -> Result<[u8; 32], PeerError> {
    let mut nonce = [0u8; 32];
    getrandom::fill(&mut nonce)
        .map_err(|e| PeerError::Thread(Arc::new(io::Error::other(e.to_string()))))?;
    Ok(nonce)
}

async fn run(
    role: Role,
    dir: Option<PathBuf>,
    mut cmds: UnboundedReceiver<PeerCmd>,
    out: mpsc::Sender<PeerEvent>,
) -> Result<(), PeerError> {
    if let Some(d) = &dir {
        std::fs::create_dir_all(d).map_err(PeerError::storage)?;
    }
    // The identity is kept: a restored session must sign with the same key.
    let identity = match &dir {
        Some(d) => Identity::load_or_create(d),
        None => Identity::generate(),
    }
    .map_err(PeerError::storage)?;
    let journal_path = dir.as_deref().map(|d| d.join(JOURNAL));
    let now = Instant::now();
    let (mut session, mut journal, mut link, resumed) = match role {
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
                random_nonce()?,
                &name,
            )
            .map_err(PeerError::Session)?;
            let link = Link {
                host: true,
                port,
                mdns,
                addr: None,
                name,
            };
            (s, journal_path.as_deref().map(Journal::new), link, false)
        }
        Role::Join { addr, name } => {
            let s = Session::join(
                now,
                &identity.signing,
                Seed::random(),
                random_nonce()?,
                &name,
            );
            let link = Link {
                host: false,
                port: 0,
                mdns: false,
                addr: Some(addr),
                name,
            };
            (s, journal_path.as_deref().map(Journal::new), link, false)
        }
        Role::Resume => {
            let (Some(d), Some(path)) = (&dir, &journal_path) else {
                return Err(PeerError::NothingToResume);
            };
            let link = files::read_link(d)?;
            let (journal, saved) = Journal::resume(path)?;
            let s = Session::restore(now, &identity.signing, &saved).map_err(PeerError::Restore)?;
            (s, Some(journal), link, true)
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
    let ep = endpoint(&identity, bind).map_err(PeerError::network)?;
    if link.host {
        // A resumed host listens on the same port, so the guest's retries reach it.
        link.port = ep.local_addr().map_err(PeerError::network)?.port();
    }
    if let Some(d) = &dir {
        files::write_link(d, &link)?;
    }
    let _advert = if link.host && link.mdns {
        Some(
            Advert::start(&link.name, link.port, &rules_summary(session.rules()))
                .map_err(|e| PeerError::Network(Arc::new(io::Error::other(e))))?,
        )
    } else {
        None
    };
    if link.host {
        let _ = out.send(PeerEvent::Listening { port: link.port });
    }
    let mut shell = Shell::new(out, dir.clone());
    if resumed {
        shell.resumed(&session);
    }
    let dial = match link.addr {
        Some(a) if !link.host => Dial::Connect(a),
        _ => Dial::Accept,
    };
    let ended = play(
        &mut session,
        &ep,
        dial,
        journal.as_mut(),
        Some(&mut cmds),
        &mut shell,
        None,
    )
    .await
    .map_err(PeerError::network)?;
    // A finished game is not resumed; nor is one left before it began. A side that stopped
    // because its journal is older than the game keeps the journal as it is.
    let stale = session
        .verdict()
        .is_some_and(|v| matches!(v.reason, Some(crate::FaultKind::StaleJournal { .. })));
    if !stale && (ended == Ended::Done || !shell.has_started()) {
        if let Some(j) = journal {
            j.remove().map_err(PeerError::storage)?;
        }
        if let Some(d) = &dir {
            let _ = std::fs::remove_file(d.join(LINK));
        }
    }
    let _ = tokio::time::timeout(Duration::from_secs(1), ep.wait_idle()).await;
    Ok(())
}
