//! LAN play: the network side of a game runs on a tokio runtime in a background thread and talks
//! to Bevy through channels ([`LanLink`]); the protocol itself is `junqi_net::session::Session`'s
//! state machine, run by junqi-net's one driver (`junqi_net::transport::play`, the same as
//! `junqi-peer`'s). The thread hosts (advertising by mDNS) or joins over QUIC, forwards every
//! view and event ([`LanMsg`]), takes the player's decisions ([`LanCmd`]), appends every message
//! to a journal in the data directory before sending anything, and on a dropped connection keeps
//! the session and reconnects (the host listens again, the guest retries), resuming where the
//! stream stopped. After a crash of the app itself the lobby offers the journal's game again
//! ([`unfinished`], [`Role::Resume`]). When a played game ends, its whole signed log is kept
//! ([`LanMsg::Kept`]) and moved next to the saved record ([`keep_journal`]), from where the
//! replay screen exports it for `junqi-audit` ([`export_for_audit`]).

use std::io;
use std::net::{Ipv4Addr, SocketAddr, SocketAddrV4};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use bevy::prelude::Resource;
use junqi_game::{GameResult, Layout, Mode, Move, PlayerView, Rules, Side};
use junqi_net::Seed;
use junqi_net::discovery::{Advert, rules_summary};
use junqi_net::envelope::Envelope;
use junqi_net::resume::Journal;
use junqi_net::session::{AppEvent, Session, SessionError, Verdict};
use junqi_net::transport::{Control, Dial, Ended, Handler, Identity, endpoint, play};
use junqi_net::wire::Body;
use serde::{Deserialize, Serialize};
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
    /// Resume the unfinished game saved in the LAN folder ([`unfinished`]): a host listens
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

/// The Bevy side's handle on the network thread.
#[derive(Resource)]
pub struct LanLink {
    cmd: UnboundedSender<LanCmd>,
    msgs: Mutex<mpsc::Receiver<LanMsg>>,
}

impl LanLink {
    /// Starts the network thread, keeping the identity and the game's journal in `dir` (the
    /// data directory's LAN folder), so that the game can resume after a crash of the app.
    pub fn start(role: Role, dir: PathBuf) -> LanLink {
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
                if let Err(e) = rt.block_on(run(role, dir, cmd_rx, tx.clone())) {
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

/// The journal of the game in progress, in the LAN folder ([`crate::storage::DataDir::lan`]).
pub const JOURNAL: &str = "game.bin";
/// How to reach the peer again after a crash, next to the journal.
pub const LINK: &str = "link.json";

/// How to reach the peer of the saved game again: the host listens on the
/// same port, the guest connects to the same address.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Link {
    host: bool,
    /// Host: the port it listened on.
    port: u16,
    /// Host: whether it advertised by mDNS (and listened on every interface).
    mdns: bool,
    /// Guest: the host's address.
    addr: Option<SocketAddr>,
    /// Display name.
    name: String,
}

/// An unfinished LAN game found in the LAN folder: the lobby offers to resume it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unfinished {
    /// The peer's name.
    pub peer: String,
    /// The game's mode.
    pub mode: Mode,
    /// Whether this side hosted.
    pub host: bool,
    /// Messages saved so far.
    pub messages: usize,
}

/// The unfinished game saved in `dir`, if there is one that both sides had
/// joined (a game nobody joined is not worth offering). A damaged journal is
/// reported as an error rather than silently ignored.
///
/// # Errors
/// An unreadable link file, or a journal that is not one or is damaged
/// (`junqi_net::resume::JournalError`, as an `InvalidData` error).
pub fn unfinished(dir: &Path) -> io::Result<Option<Unfinished>> {
    let (journal, link) = (dir.join(JOURNAL), dir.join(LINK));
    if !journal.exists() || !link.exists() {
        return Ok(None);
    }
    let link = read_link(dir)?;
    let saved = junqi_net::resume::load(&journal)?;
    let me = junqi_net::wire::side_of(saved.seat);
    let Some(peer) = hello_name(&saved.log, me) else {
        return Ok(None);
    };
    Ok(Some(Unfinished {
        peer,
        mode: saved.rules.mode,
        host: link.host,
        messages: saved.log.len(),
    }))
}

/// Where a saved LAN record's signed log is kept: `game-N.journal` next to `game-N.json`.
pub fn record_journal(record: &Path) -> PathBuf {
    record.with_extension("journal")
}

/// Moves a finished game's kept journal ([`LanMsg::Kept`]) next to its saved record
/// ([`record_journal`]), where the replay screen finds it.
///
/// # Errors
/// The journal cannot be moved or copied.
pub fn keep_journal(journal: &Path, record: &Path) -> io::Result<PathBuf> {
    let to = record_journal(record);
    // A rename is atomic; the data directory could still span file systems.
    if std::fs::rename(journal, &to).is_err() {
        std::fs::copy(journal, &to)?;
        let _ = std::fs::remove_file(journal);
    }
    Ok(to)
}

/// Exports the signed log of the saved LAN record `record` (a `*.json` in the records folder)
/// to the exports folder, as a file `junqi-audit` reads; returns its path. The journal is
/// checked first, so a damaged one is reported here rather than handed on.
///
/// # Errors
/// No journal kept for this record (`NotFound`), a damaged one (`InvalidData`), or a write
/// error.
pub fn export_for_audit(dir: &crate::storage::DataDir, record: &Path) -> io::Result<PathBuf> {
    let from = record_journal(record);
    let bytes = std::fs::read(&from)?;
    junqi_net::resume::load(&from)?;
    let stem = record
        .file_stem()
        .and_then(|s| s.to_str())
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a record file"))?;
    let out = dir.exports();
    std::fs::create_dir_all(&out)?;
    let to = out.join(format!("{stem}-audit.bin"));
    junqi_net::resume::write_atomic(&to, &bytes)?;
    Ok(to)
}

/// Deletes the saved game in `dir` (the player chose not to resume it).
pub fn discard(dir: &Path) {
    let _ = std::fs::remove_file(dir.join(JOURNAL));
    let _ = std::fs::remove_file(dir.join(LINK));
}

fn read_link(dir: &Path) -> io::Result<Link> {
    let text = std::fs::read_to_string(dir.join(LINK))?;
    serde_json::from_str(&text).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

/// The name in the other side's hello.
fn hello_name(log: &[Envelope<Body>], me: Side) -> Option<String> {
    log.iter().find_map(|e| match &e.body {
        Body::Hello { name, .. } if junqi_net::wire::side_of(e.header.sender) != me => {
            Some(name.clone())
        }
        _ => None,
    })
}

/// The app's side of the driver: turns the session's events into [`LanMsg`]s
/// and the player's [`LanCmd`]s into session calls.
struct AppSide {
    out: mpsc::Sender<LanMsg>,
    /// The LAN folder (where a finished game's journal is kept).
    dir: PathBuf,
    layout: Layout,
    sent_view: Option<(usize, u16, bool, bool)>,
    /// Play began (so leaving keeps the journal for a later resume).
    started: bool,
}

impl AppSide {
    fn report(&self, msg: LanMsg) {
        let _ = self.out.send(msg);
    }

    /// Sends the player's view when it changed.
    fn view(&mut self, s: &Session) {
        if let Some(v) = s.view() {
            let my_turn = s.my_turn();
            let key = (v.events().len(), v.ply(), my_turn, v.result().is_some());
            if self.sent_view != Some(key) {
                self.sent_view = Some(key);
                let view = Box::new(v.clone());
                self.report(LanMsg::View { view, my_turn });
            }
        }
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

    fn started(&mut self, s: &Session) {
        self.started = true;
        self.report(LanMsg::Started {
            me: s.side(),
            code: s.pairing().unwrap_or_default(),
            peer: hello_name(s.log(), s.side()).unwrap_or_default(),
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
                self.view(s);
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
            LanCmd::Disconnect => return Control::Disconnect,
            LanCmd::Quit => return Control::Quit,
        };
        if let Err(e) = r {
            self.report(LanMsg::Refused(e));
            // Let the app know the turn is still its own.
            self.sent_view = None;
        }
        Control::Continue
    }

    fn settled(&mut self, s: &Session) {
        self.view(s);
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
        sent_view: None,
        started: false,
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
        side.view(&session);
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
    use super::*;
    use crate::storage::DataDir;

    fn temp(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("junqi-lan-unit-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(d.join("records")).unwrap();
        d
    }

    #[test]
    fn a_record_without_a_journal_or_with_a_damaged_one_is_not_exported() {
        let root = temp("export");
        let dir = DataDir(root.clone());
        let record = dir.records().join("game-1.json");
        // No journal kept (a game against the computer, say).
        let e = export_for_audit(&dir, &record).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
        // A damaged one is refused, and nothing is written.
        std::fs::write(record_journal(&record), b"not a journal").unwrap();
        let e = export_for_audit(&dir, &record).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData, "{e}");
        assert!(!dir.exports().join("game-1-audit.bin").exists());
        let _ = std::fs::remove_dir_all(root);
    }

    #[test]
    fn a_kept_journal_moves_next_to_its_record() {
        let root = temp("keep");
        let kept = root.join("finished-00.bin");
        std::fs::write(&kept, b"bytes").unwrap();
        let record = root.join("records/game-7.json");
        let at = keep_journal(&kept, &record).unwrap();
        assert_eq!(at, root.join("records/game-7.journal"));
        assert_eq!(std::fs::read(&at).unwrap(), b"bytes");
        assert!(!kept.exists(), "moved, not copied");
        let _ = std::fs::remove_dir_all(root);
    }
}
