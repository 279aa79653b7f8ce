//! One seat at a four-seat table behind one handle, for an owner that does
//! not run tokio (the app): [`TableHandle::start`] runs the seat on its own
//! thread ([`crate::table::play_table_with`]) and talks to its owner through
//! two channels only: the owner [`TableHandle::send`]s [`TableCmd`]s and
//! takes [`TableReport`]s with [`TableHandle::try_recv`].
//!
//! A host may fill seats with computer players: each runs on a device of
//! its own team as a guest of its own (its own thread, session and keys)
//! dialling the host, so the table's protocol is the same whoever plays a
//! seat. A device that runs a seat knows its pieces, so a computer seat
//! whose partner is a guest's seat runs on that guest's device
//! ([`computer_home`]): the host advertises it with the free seat
//! ([`crate::discovery::FreeSeats::computer_with`]) and the device that
//! takes the seat runs it ([`TableRole::Join`]'s `computers`). The host's
//! partner (North) as a computer, and a team of two computer seats, run on
//! the host. A computer seat's hello name says which device runs it
//! ([`computer_name`], [`partner_computer_name`]), so that every player's
//! rules line shows it before the pairing code is confirmed.
//!
//! A player may agree beforehand that, if it leaves, its partner's device
//! plays its seat on (`hand_over`, in its hello): the partner's device
//! then takes the seat over with a computer player
//! ([`TableHandler::take_over`]), and keeps doing so after a crash (the
//! seat's messages are in its journal).
//!
//! With a data folder the seat keeps its crash journal
//! ([`crate::table_journal`]) and a link file (how to reach the table
//! again, and the host's computer seats), and [`TableRole::Resume`] picks
//! the table up again after a crash; at the end the signed log is kept as a
//! game file for `junqi-audit` ([`crate::table::save_log`]).

use std::io;
use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use ed25519_dalek::SigningKey;
use junqi_game::ai::{Ai, Level, Player};
use junqi_game::{Action, Layout, PlayerView, Rules, TableEvent};
use junqi_proto::four::{
    Ending, FourCallError, FourConfig, FourEvent, FourSeat, FourSession, FourVerdict,
};
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

use crate::Seed;
use crate::discovery::{Advert, FreeSeats, table_summary};
use crate::link_notice::SeatLinks;
use crate::table::{TableCmd, TableDial, TableHandler, play_table_with, save_log, seat_names};
use crate::table_journal::{JOURNAL_FILE, JournalError, load_journal, save_journal};
use crate::transport::{Identity, endpoint};

/// The host's seat (every four-seat table is opened by South).
pub const HOST_SEAT: FourSeat = FourSeat::South;

/// What a computer seat's hello name starts with; the level follows.
const COMPUTER_MARK: &str = "#computer@host:";

/// What the hello name of a computer seat run by its partner's device
/// starts with; the level follows.
const PARTNER_COMPUTER_MARK: &str = "#computer@partner:";

/// The level of the computer player that plays on a seat its partner
/// handed over.
const TAKE_OVER_LEVEL: u8 = 2;

/// The device that runs a computer seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ComputerHome {
    /// The host's device.
    Host,
    /// The device of the seat's partner (a guest).
    Partner,
}

/// Where the computer seat `seat` of a table whose computer seats are
/// `computers` runs: on its partner's device when its partner is a guest's
/// seat (a device of its own team), else on the host (the host's partner,
/// or a team of two computer seats, which every player agrees to when
/// confirming the code).
#[must_use]
pub fn computer_home(seat: FourSeat, computers: &[(FourSeat, u8)]) -> ComputerHome {
    let partner = seat.partner();
    if partner == HOST_SEAT || computers.iter().any(|(s, _)| *s == partner) {
        ComputerHome::Host
    } else {
        ComputerHome::Partner
    }
}

/// The hello name of a computer seat of `level` run by the host's device.
#[must_use]
pub fn computer_name(level: u8) -> String {
    format!("{COMPUTER_MARK}{level}")
}

/// The hello name of a computer seat of `level` run by its partner's device.
#[must_use]
pub fn partner_computer_name(level: u8) -> String {
    format!("{PARTNER_COMPUTER_MARK}{level}")
}

/// The level of a computer seat and the device that runs it, from its
/// hello name.
#[must_use]
pub fn computer_of(name: &str) -> Option<(u8, ComputerHome)> {
    let (rest, home) = match name.strip_prefix(COMPUTER_MARK) {
        Some(r) => (r, ComputerHome::Host),
        None => (
            name.strip_prefix(PARTNER_COMPUTER_MARK)?,
            ComputerHome::Partner,
        ),
    };
    let level = rest.parse().ok().filter(|l| (1..=4).contains(l))?;
    Some((level, home))
}

/// The level of a computer seat, from its hello name.
#[must_use]
pub fn computer_level(name: &str) -> Option<u8> {
    computer_of(name).map(|(l, _)| l)
}

/// Computer seats: each seat with its level (1…4).
type Computers = Vec<(FourSeat, u8)>;

/// What to do at a table.
#[derive(Clone, Debug)]
pub enum TableRole {
    /// Open a table as South with these rules; `computers` are the seats
    /// filled with computer players (seat, level 1…4), run where
    /// [`computer_home`] says; the other seats are open to players.
    Host {
        /// The rules (a four-player game).
        rules: Rules,
        /// The player's name.
        name: String,
        /// The player's army.
        layout: Layout,
        /// UDP port (0: any).
        port: u16,
        /// Advertise by mDNS (off: listen on 127.0.0.1 only, tests).
        mdns: bool,
        /// The computer seats.
        computers: Vec<(FourSeat, u8)>,
    },
    /// Take `seat` at the host at `addr` (its rules come in its hello).
    Join {
        /// The host's address.
        addr: SocketAddr,
        /// The seat taken.
        seat: FourSeat,
        /// The player's name.
        name: String,
        /// The player's army (legal under the table's rules).
        layout: Layout,
        /// The computer seats this device runs: the partner seat's, when
        /// the table advertises it with `seat`
        /// ([`crate::discovery::FreeSeats::computer_with`]).
        computers: Vec<(FourSeat, u8)>,
        /// The player agrees that, if it leaves, its partner's device plays
        /// its seat on (a guest's seat only: the host's device carries the
        /// table).
        hand_over: bool,
    },
    /// The table a crash left unfinished in the data folder ([`unfinished_table`]).
    Resume,
}

/// One seat of the seat table as this device knows it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeatInfo {
    /// The name in its hello, once in.
    pub name: Option<String>,
    /// Whether its device's link is up: the host knows every seat's, a
    /// guest its own link to the host and the others' as the host reports
    /// them ([`crate::link_notice`], advisory) (`None`: not known here).
    pub link: Option<bool>,
    /// Its player agreed that, if it leaves, its partner's device plays it
    /// on (its hello).
    pub hand_over: bool,
    /// Its player left and handed it over: the partner's device plays it
    /// on with a computer player.
    pub handed_over: bool,
}

impl SeatInfo {
    /// The level of the computer that plays it.
    #[must_use]
    pub fn computer(&self) -> Option<u8> {
        self.name.as_deref().and_then(computer_level)
    }

    /// The device that runs it, a computer seat.
    #[must_use]
    pub fn computer_home(&self) -> Option<ComputerHome> {
        self.name.as_deref().and_then(computer_of).map(|(_, h)| h)
    }
}

/// What the seat's thread reports, in order.
#[derive(Clone, Debug)]
pub enum TableReport {
    /// The host listens on this port.
    Listening {
        /// The UDP port.
        port: u16,
    },
    /// The seat table changed (names in, a link down or up), by seat.
    Seats(Box<[SeatInfo; 4]>),
    /// Every hello and nonce is in: the code every player compares, and the
    /// rules (the host's).
    PairingCode {
        /// The code.
        code: String,
        /// The table's rules.
        rules: Rules,
    },
    /// Play begins (or resumes) from this view.
    Started {
        /// This device's seat.
        seat: FourSeat,
        /// The view.
        view: Box<PlayerView>,
        /// Whether this seat is on move.
        my_turn: bool,
    },
    /// The view after one public announcement (`event`).
    View {
        /// The announcement.
        event: TableEvent,
        /// The view with it.
        view: Box<PlayerView>,
        /// Whether this seat is on move.
        my_turn: bool,
    },
    /// Whether this seat is on move changed without an announcement.
    Turn(bool),
    /// This seat's last move (or timeout claim) is void: the view is back
    /// to before it.
    Voided {
        /// The view.
        view: Box<PlayerView>,
        /// Whether this seat is on move.
        my_turn: bool,
    },
    /// A draw is offered: answer with [`TableCmd::AnswerDraw`].
    AnswerDraw {
        /// Who offered it.
        by: FourSeat,
    },
    /// A command was refused.
    Refused(FourCallError),
    /// The table is over for this seat; `kept` is where its signed log was
    /// kept (a game file for `junqi-audit`), with a data folder.
    Over {
        /// The verdict (the record, once audited).
        verdict: Box<FourVerdict>,
        /// The kept game file.
        kept: Option<PathBuf>,
    },
    /// A fatal error: the thread stops.
    Error(TableError),
    /// The thread stopped: nothing more comes.
    Stopped,
}

/// Why a table could not go on.
#[derive(Clone, Debug, thiserror::Error)]
pub enum TableError {
    /// The data folder (the journal, the link file).
    #[error("the data folder: {0}")]
    Storage(Arc<io::Error>),
    /// The journal is damaged.
    #[error("the table's journal: {0}")]
    Journal(Arc<JournalError>),
    /// No unfinished table to resume.
    #[error("no unfinished table to resume")]
    NothingToResume,
    /// The session refused to start (a layout illegal under the rules) or
    /// to resume.
    #[error("cannot start the seat")]
    Session,
    /// The network (the socket, TLS, mDNS, the host out of reach).
    #[error("the network: {0}")]
    Network(Arc<io::Error>),
}

impl TableError {
    fn storage(e: io::Error) -> TableError {
        TableError::Storage(Arc::new(e))
    }
    fn network(e: io::Error) -> TableError {
        TableError::Network(Arc::new(e))
    }
}

/// What a finished table's kept game file name starts with (the Unix time
/// and `.bin` follow).
pub const TABLE_FILE_PREFIX: &str = "table-";

/// The link file's name in the data folder: how to reach the table again.
pub const LINK_FILE: &str = "table4.link";

/// The folder of a computer seat's journal under the data folder of the
/// device that runs it.
fn computer_dir(dir: &Path, seat: FourSeat) -> PathBuf {
    dir.join(format!("computer-{}", seat.index()))
}

/// How to reach an unfinished table again (the link file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableLinkFile {
    /// The host's port, or the guest's host address.
    pub dial: LinkDial,
    /// The computer seats this device runs.
    pub computers: Vec<(FourSeat, u8)>,
}

/// How the device reached the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkDial {
    /// It hosts, on this port.
    Host(u16),
    /// It joined the host at this address.
    Join(SocketAddr),
}

impl TableLinkFile {
    fn to_text(&self) -> String {
        let mut s = match self.dial {
            LinkDial::Host(p) => format!("host {p}\n"),
            LinkDial::Join(a) => format!("join {a}\n"),
        };
        for (seat, level) in &self.computers {
            s += &format!("computer {} {level}\n", seat.index());
        }
        s
    }

    fn parse(text: &str) -> Option<TableLinkFile> {
        let mut lines = text.lines();
        let mut first = lines.next()?.split_whitespace();
        let dial = match (first.next()?, first.next()?) {
            ("host", p) => LinkDial::Host(p.parse().ok()?),
            ("join", a) => LinkDial::Join(a.parse().ok()?),
            _ => return None,
        };
        let mut computers = Vec::new();
        for l in lines {
            let mut w = l.split_whitespace();
            if w.next()? != "computer" {
                return None;
            }
            let seat = FourSeat::ALL
                .get(w.next()?.parse::<usize>().ok()?)
                .copied()?;
            computers.push((seat, w.next()?.parse().ok()?));
        }
        Some(TableLinkFile { dial, computers })
    }
}

/// An unfinished table in the data folder `dir` (a crash left its
/// journal): its seat and the players' names, to offer a resume.
///
/// # Errors
/// A journal that cannot be read.
pub fn unfinished_table(dir: &Path) -> Result<Option<UnfinishedTable>, TableError> {
    let Ok(bytes) = std::fs::read(dir.join(JOURNAL_FILE)) else {
        return Ok(None);
    };
    let (cfg, _) = load_journal(&bytes).map_err(|e| TableError::Journal(Arc::new(e)))?;
    Ok(Some(UnfinishedTable {
        seat: cfg.seat,
        rules: cfg.rules,
    }))
}

/// What the lobby shows of an unfinished table.
#[derive(Clone, Debug, PartialEq)]
pub struct UnfinishedTable {
    /// This device's seat.
    pub seat: FourSeat,
    /// The rules (the host's; a guest's journal knows them from the log).
    pub rules: Option<Rules>,
}

/// Deletes an unfinished table's journal and link file.
pub fn discard_table(dir: &Path) {
    let _ = std::fs::remove_file(dir.join(JOURNAL_FILE));
    let _ = std::fs::remove_file(dir.join(LINK_FILE));
    for s in FourSeat::ALL {
        let _ = std::fs::remove_dir_all(computer_dir(dir, s));
    }
}

/// The owner's handle on a seat's thread. Dropping it leaves the table.
pub struct TableHandle {
    cmds: UnboundedSender<TableCmd>,
    events: Mutex<mpsc::Receiver<TableReport>>,
}

impl std::fmt::Debug for TableHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TableHandle").finish_non_exhaustive()
    }
}

impl TableHandle {
    /// Starts a seat's thread; `wake` is called after each report is queued
    /// (an owner that draws only on change polls again). With a data folder
    /// the seat keeps its journal there.
    #[must_use]
    pub fn start(
        role: TableRole,
        dir: Option<PathBuf>,
        wake: impl Fn() + Send + Sync + 'static,
    ) -> TableHandle {
        let (cmds, cmd_rx) = unbounded_channel();
        let (raw, events) = mpsc::channel();
        let wake = Arc::new(wake);
        let out = Out { tx: raw, wake };
        let report = out.clone();
        let spawned = std::thread::Builder::new()
            .name("junqi-table".into())
            .spawn(move || {
                let r = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .map_err(TableError::network)
                    .and_then(|rt| rt.block_on(run(role, dir, cmd_rx, out.clone())));
                if let Err(e) = r {
                    out.send(TableReport::Error(e));
                }
                out.send(TableReport::Stopped);
            });
        if let Err(e) = spawned {
            report.send(TableReport::Error(TableError::network(e)));
            report.send(TableReport::Stopped);
        }
        TableHandle {
            cmds,
            events: Mutex::new(events),
        }
    }

    /// Sends a decision to the seat (ignored once it stopped).
    pub fn send(&self, cmd: TableCmd) {
        let _ = self.cmds.send(cmd);
    }

    /// The next report, if one came.
    pub fn try_recv(&self) -> Option<TableReport> {
        self.lock().try_recv().ok()
    }

    /// The next report, waiting up to `timeout` for it.
    pub fn recv_timeout(&self, timeout: Duration) -> Option<TableReport> {
        self.lock().recv_timeout(timeout).ok()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, mpsc::Receiver<TableReport>> {
        self.events
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// The reports' sender, waking the owner after each.
#[derive(Clone)]
struct Out {
    tx: mpsc::Sender<TableReport>,
    wake: Arc<dyn Fn() + Send + Sync>,
}

impl Out {
    fn send(&self, r: TableReport) {
        if self.tx.send(r).is_ok() {
            (self.wake)();
        }
    }
}

fn random32() -> [u8; 32] {
    let mut b = [0u8; 32];
    getrandom::fill(&mut b).expect("the system's random source");
    b
}

fn config(
    seat: FourSeat,
    rules: Option<Rules>,
    name: String,
    layout: Layout,
    hand_over: bool,
) -> FourConfig {
    FourConfig {
        seat,
        host: HOST_SEAT,
        rules,
        name,
        layout,
        key: SigningKey::from_bytes(&random32()),
        seed: Seed(random32()),
        nonce: random32(),
        hand_over,
    }
}

/// A host's computer seats split by the device that runs them: the host's,
/// and those that come with their partner seat to the device that takes it.
fn split_computers(computers: &[(FourSeat, u8)]) -> (Computers, Computers) {
    computers
        .iter()
        .partition(|(s, _)| computer_home(*s, computers) == ComputerHome::Host)
}

/// What a host advertises: the seats not `taken`, and the computer seats
/// that come with a free one (`with`).
fn advertised(taken: &[FourSeat], with: &[(FourSeat, u8)]) -> FreeSeats {
    with.iter().fold(FreeSeats::all_but(taken), |f, (s, l)| {
        f.with_computer(*s, *l)
    })
}

/// The owner's seat: reports every event, keeps the journal.
struct Owner {
    out: Out,
    seats: [SeatInfo; 4],
    journal: Option<PathBuf>,
    host: bool,
    /// The host's advertisement, announced again as seats are taken.
    advert: Option<Advert>,
    taken: Vec<FourSeat>,
    /// The computer seats that come with a free seat (the advertisement's).
    with: Vec<(FourSeat, u8)>,
    /// This device's own seat (another one's events come from a seat
    /// taken over).
    own: FourSeat,
    /// The computer player of the seat this device's partner handed over,
    /// once it did.
    taker: Option<Computer>,
}

impl Owner {
    fn free_seats(&self) -> FreeSeats {
        advertised(&self.taken, &self.with)
    }

    fn seats_changed(&mut self, session: &FourSession) {
        let names = seat_names(session);
        let agreed = session.hand_overs();
        let handed = session.handed_over();
        let mut seats = self.seats.clone();
        for ((s, n), seat) in seats.iter_mut().zip(names).zip(FourSeat::ALL) {
            s.name = n;
            s.hand_over = agreed.contains(&seat);
            s.handed_over = handed.contains(&seat);
        }
        if seats != self.seats {
            self.seats = seats;
            self.out
                .send(TableReport::Seats(Box::new(self.seats.clone())));
        }
    }

    fn view(session: &FourSession) -> Option<Box<PlayerView>> {
        session.view().cloned().map(Box::new)
    }
}

impl Owner {
    /// A guest: the other guests' links as the host says it sees them, for
    /// the seat table only (advisory: [`crate::link_notice`]). Its own link
    /// and the host's are what it sees itself.
    fn show_relayed_links(&mut self, me: FourSeat, links: SeatLinks) {
        if self.host {
            return;
        }
        let mut seats = self.seats.clone();
        for seat in FourSeat::ALL {
            if seat != me && seat != HOST_SEAT {
                seats[seat.index()].link = links.0[seat.index()];
            }
        }
        if seats != self.seats {
            self.seats = seats;
            self.out
                .send(TableReport::Seats(Box::new(self.seats.clone())));
        }
    }
}

impl TableHandler for Owner {
    fn take_over(&mut self) -> bool {
        // The partner agreed: its seat plays on here, by the computer.
        true
    }

    fn event(&mut self, session: &mut FourSession, event: FourEvent) {
        if session.seat() != self.own {
            // The seat taken over: its computer player acts; the player
            // follows the table through this device's own seat.
            if let Some(c) = self.taker.as_mut() {
                c.event(session, event);
            }
            return;
        }
        self.seats_changed(session);
        let my_turn = session.my_turn();
        match event {
            FourEvent::PairingCode(code) => self.out.send(TableReport::PairingCode {
                code,
                rules: session.rules(),
            }),
            FourEvent::Started { .. } => {
                if let Some(view) = Owner::view(session) {
                    self.out.send(TableReport::Started {
                        seat: session.seat(),
                        view,
                        my_turn,
                    });
                }
            }
            FourEvent::Table(event) => {
                if let Some(view) = Owner::view(session) {
                    self.out.send(TableReport::View {
                        event,
                        view,
                        my_turn,
                    });
                }
            }
            FourEvent::YourTurn => self.out.send(TableReport::Turn(true)),
            FourEvent::AnswerDraw { by } => self.out.send(TableReport::AnswerDraw { by }),
            FourEvent::MoveVoided | FourEvent::ClaimVoided => {
                if let Some(view) = Owner::view(session) {
                    self.out.send(TableReport::Voided { view, my_turn });
                }
            }
            // Reported by `run` with the kept file.
            FourEvent::Over(_) => {}
            // The driver takes the seat over next (`take_over`).
            FourEvent::TakeOver { .. } => {
                self.taker = Some(Computer::new(TAKE_OVER_LEVEL, None));
            }
        }
    }

    fn link(&mut self, up: bool) {
        if !self.host {
            self.seats[HOST_SEAT.index()].link = Some(up);
            self.out
                .send(TableReport::Seats(Box::new(self.seats.clone())));
        }
    }

    fn seat_taken(&mut self, seat: FourSeat) {
        if self.taken.contains(&seat) {
            return;
        }
        self.taken.push(seat);
        let free = self.free_seats();
        if let Some(a) = &mut self.advert {
            // The table plays on unannounced: the players already found it.
            let _ = a.set_free_seats(free);
        }
    }

    fn seat_link(&mut self, seat: FourSeat, up: bool) {
        self.seats[seat.index()].link = Some(up);
        self.out
            .send(TableReport::Seats(Box::new(self.seats.clone())));
    }

    fn relayed_links(&mut self, session: &FourSession, links: SeatLinks) {
        self.show_relayed_links(session.seat(), links);
    }

    fn refused(&mut self, _cmd: TableCmd, error: FourCallError) {
        self.out.send(TableReport::Refused(error));
    }

    fn journal(&mut self, session: &FourSession) {
        // The host comes here after every message it took: the waiting room's seat table
        // fills as the hellos come in.
        self.seats_changed(session);
        if let Some(path) = &self.journal
            && let Err(e) = save_journal(path, session)
        {
            // The game goes on; a crash would then lose the seat.
            self.out
                .send(TableReport::Error(TableError::Journal(Arc::new(e))));
        }
    }
}

/// A computer player's seat.
struct Computer {
    player: Box<dyn Player>,
    level: Level,
    journal: Option<PathBuf>,
}

impl Computer {
    fn new(level: u8, journal: Option<PathBuf>) -> Computer {
        let level = Level::ALL[usize::from(level.clamp(1, 4) - 1)];
        Computer {
            player: Box::new(Ai::new(
                level,
                u64::from_le_bytes(random32()[..8].try_into().unwrap_or_default()),
            )),
            level,
            journal,
        }
    }
}

impl TableHandler for Computer {
    fn event(&mut self, session: &mut FourSession, event: FourEvent) {
        match event {
            // The player of the device that runs it confirms for the device.
            FourEvent::PairingCode(_) => {
                let _ = session.confirm_pairing(Instant::now());
            }
            FourEvent::YourTurn => {
                let Some(view) = session.view().cloned() else {
                    return;
                };
                let deadline = Instant::now() + Duration::from_millis(self.level.max_millis());
                let stop = move || Instant::now() >= deadline;
                if let Action::Move(m) = self.player.act(&view, &stop) {
                    let _ = session.play(Instant::now(), m);
                }
            }
            FourEvent::AnswerDraw { .. } => {
                let accept = session
                    .view()
                    .cloned()
                    .is_some_and(|v| self.player.accepts_draw(&v));
                let _ = session.answer_draw(Instant::now(), accept);
            }
            _ => {}
        }
    }

    fn journal(&mut self, session: &FourSession) {
        if let Some(path) = &self.journal {
            let _ = save_journal(path, session);
        }
    }
}

/// Runs a computer seat on its own thread, a guest of the host at `addr`
/// (from `bind`).
fn spawn_computer(
    addr: SocketAddr,
    bind: SocketAddr,
    session: FourSession,
    level: u8,
    journal: Option<PathBuf>,
) -> io::Result<std::thread::JoinHandle<()>> {
    std::thread::Builder::new()
        .name("junqi-table-computer".into())
        .spawn(move || {
            let Ok(rt) = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            else {
                return;
            };
            let mut session = session;
            let mut handler = Computer::new(level, journal.clone());
            rt.block_on(async {
                let Ok(identity) = Identity::generate() else {
                    return;
                };
                let Ok(ep) = endpoint(&identity, bind) else {
                    return;
                };
                let v =
                    play_table_with(&mut session, &ep, TableDial::Join(addr), &mut handler, None)
                        .await;
                if v.is_ok_and(|v| !matches!(v.ending, Ending::StaleJournal { .. }))
                    && let Some(j) = &journal
                {
                    let _ = std::fs::remove_file(j);
                }
                ep.wait_idle().await;
            });
        })
}

/// A computer seat's session: a new one, or its journal's. A guest's
/// device does not know the table's rules before the host's hello: the
/// computer's army is laid out for a four-player table of `rules`' mode
/// (every four-player table takes the same armies).
fn computer_session(
    rules: &Rules,
    seat: FourSeat,
    level: u8,
    home: ComputerHome,
    journal: Option<&Path>,
    resume: bool,
) -> Result<FourSession, TableError> {
    if resume
        && let Some(j) = journal
        && let Ok(bytes) = std::fs::read(j)
    {
        let (cfg, log) = load_journal(&bytes).map_err(|e| TableError::Journal(Arc::new(e)))?;
        return FourSession::resume(cfg, log, Instant::now()).map_err(|_| TableError::Session);
    }
    let lv = Level::ALL[usize::from(level.clamp(1, 4) - 1)];
    let mut ai = Ai::new(
        lv,
        u64::from_le_bytes(random32()[..8].try_into().unwrap_or_default()),
    );
    let layout = ai.layout(rules);
    let name = match home {
        ComputerHome::Host => computer_name(level),
        ComputerHome::Partner => partner_computer_name(level),
    };
    FourSession::new(config(seat, None, name, layout, false), Instant::now())
        .map_err(|_| TableError::Session)
}

async fn run(
    role: TableRole,
    dir: Option<PathBuf>,
    mut cmds: UnboundedReceiver<TableCmd>,
    out: Out,
) -> Result<(), TableError> {
    if let Some(d) = &dir {
        std::fs::create_dir_all(d).map_err(TableError::storage)?;
    }
    let now = Instant::now();
    let journal = dir.as_deref().map(|d| d.join(JOURNAL_FILE));
    let link_path = dir.as_deref().map(|d| d.join(LINK_FILE));
    // The session, how it reaches the table, its computer seats, and
    // whether it resumes.
    let (mut session, dial, computers, mdns, resumed) = match role {
        TableRole::Host {
            rules,
            name,
            layout,
            port,
            mdns,
            computers,
        } => {
            let s = FourSession::new(config(HOST_SEAT, Some(rules), name, layout, false), now)
                .map_err(|_| TableError::Session)?;
            (s, LinkDial::Host(port), computers, mdns, false)
        }
        TableRole::Join {
            addr,
            seat,
            name,
            layout,
            computers,
            hand_over,
        } => {
            let s = FourSession::new(config(seat, None, name, layout, hand_over), now)
                .map_err(|_| TableError::Session)?;
            (s, LinkDial::Join(addr), computers, false, false)
        }
        TableRole::Resume => {
            let (Some(j), Some(l)) = (&journal, &link_path) else {
                return Err(TableError::NothingToResume);
            };
            let Ok(bytes) = std::fs::read(j) else {
                return Err(TableError::NothingToResume);
            };
            let link = std::fs::read_to_string(l)
                .ok()
                .and_then(|t| TableLinkFile::parse(&t))
                .ok_or(TableError::NothingToResume)?;
            let (cfg, log) = load_journal(&bytes).map_err(|e| TableError::Journal(Arc::new(e)))?;
            let s = FourSession::resume(cfg, log, now).map_err(|_| TableError::Session)?;
            (s, link.dial, link.computers, false, true)
        }
    };
    let host = matches!(dial, LinkDial::Host(_));
    let bind = match dial {
        LinkDial::Host(port) if mdns => SocketAddr::from((Ipv4Addr::UNSPECIFIED, port)),
        LinkDial::Host(port) => SocketAddr::from((Ipv4Addr::LOCALHOST, port)),
        LinkDial::Join(_) => SocketAddr::from((Ipv4Addr::UNSPECIFIED, 0)),
    };
    let identity = Identity::generate().map_err(TableError::network)?;
    let ep = endpoint(&identity, bind).map_err(TableError::network)?;
    let port = ep.local_addr().map_err(TableError::network)?.port();
    let dial = match dial {
        LinkDial::Host(_) => LinkDial::Host(port),
        d => d,
    };
    // The host runs the computer seats at home there; the others come
    // with their partner seats to the devices that take them.
    let (here, with) = if host {
        split_computers(&computers)
    } else {
        (computers.clone(), Vec::new())
    };
    if let Some(l) = &link_path {
        let file = TableLinkFile {
            dial,
            computers: here.clone(),
        };
        std::fs::write(l, file.to_text()).map_err(TableError::storage)?;
    }
    let mut owner = Owner {
        out: out.clone(),
        seats: Default::default(),
        journal: journal.clone(),
        host,
        advert: None,
        taken: vec![HOST_SEAT],
        with,
        own: session.seat(),
        taker: None,
    };
    let (to, from, home) = match dial {
        LinkDial::Host(_) => (
            SocketAddr::from((Ipv4Addr::LOCALHOST, port)),
            SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
            ComputerHome::Host,
        ),
        LinkDial::Join(a) => (a, bind, ComputerHome::Partner),
    };
    if host {
        out.send(TableReport::Listening { port });
        // The host's own seat is up from the start.
        owner.seats[HOST_SEAT.index()].link = Some(true);
        owner.taken.extend(computers.iter().map(|(s, _)| *s));
        if mdns {
            let rules = session.rules();
            owner.advert = Some(
                Advert::start_table(
                    &session.config().name,
                    port,
                    &table_summary(&rules),
                    owner.free_seats(),
                )
                .map_err(|e| TableError::network(io::Error::other(e)))?,
            );
        }
    }
    // A guest does not know the rules before the host's hello: its
    // computer's army is one for any four-player table.
    let rules = session
        .config()
        .rules
        .unwrap_or(Rules::four_player(junqi_game::Mode::Dark));
    for (seat, level) in &here {
        let j = dir.as_deref().map(|d| {
            let cd = computer_dir(d, *seat);
            let _ = std::fs::create_dir_all(&cd);
            cd.join(JOURNAL_FILE)
        });
        let s = computer_session(&rules, *seat, *level, home, j.as_deref(), resumed)?;
        spawn_computer(to, from, s, *level, j).map_err(TableError::network)?;
    }
    if resumed && let Some(view) = Owner::view(&session) {
        owner.seats_changed(&session);
        out.send(TableReport::Started {
            seat: session.seat(),
            view,
            my_turn: session.my_turn(),
        });
    }
    let table_dial = match dial {
        LinkDial::Host(_) => TableDial::Host { guests: 3 },
        LinkDial::Join(a) => TableDial::Join(a),
    };
    let v = play_table_with(&mut session, &ep, table_dial, &mut owner, Some(&mut cmds))
        .await
        .map_err(TableError::network)?;
    let mut kept = None;
    if let Some(d) = &dir
        && !matches!(v.ending, Ending::StaleJournal { .. })
    {
        // Over: the game file keeps it; a stale journal stays as it was.
        let secs = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let path = d.join(format!("{TABLE_FILE_PREFIX}{secs}.bin"));
        match save_log(&path, session.log()) {
            Ok(()) => kept = Some(path),
            Err(e) => out.send(TableReport::Error(TableError::storage(e))),
        }
        let _ = std::fs::remove_file(d.join(JOURNAL_FILE));
        let _ = std::fs::remove_file(d.join(LINK_FILE));
    }
    out.send(TableReport::Over {
        verdict: Box::new(v),
        kept,
    });
    if let Some(a) = owner.advert.take() {
        a.stop();
    }
    ep.wait_idle().await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_file_reads_back_and_anything_else_is_no_link() {
        for file in [
            TableLinkFile {
                dial: LinkDial::Host(52011),
                computers: vec![(FourSeat::East, 1), (FourSeat::West, 4)],
            },
            TableLinkFile {
                dial: LinkDial::Join("192.168.1.7:4433".parse().unwrap()),
                computers: Vec::new(),
            },
        ] {
            assert_eq!(TableLinkFile::parse(&file.to_text()), Some(file));
        }
        for junk in [
            "",
            "host",
            "host x",
            "visit 1",
            "join nowhere",
            "host 1\ncomputer 9 1",
            "host 1\ncomputer 1",
            "host 1\nseat 1 1",
        ] {
            assert_eq!(TableLinkFile::parse(junk), None, "{junk:?}");
        }
    }

    #[test]
    fn a_computer_seat_runs_on_a_device_of_its_own_team() {
        use FourSeat::{East, North, West};
        // An enemy computer whose partner is a guest's seat: on that guest's device.
        for (seat, computers) in [
            (East, vec![(East, 2)]),
            (West, vec![(West, 1)]),
            (East, vec![(East, 2), (North, 3)]),
        ] {
            assert_eq!(
                computer_home(seat, &computers),
                ComputerHome::Partner,
                "{seat} of {computers:?}"
            );
        }
        // The host's partner, and a team of two computers: on the host.
        for (seat, computers) in [
            (North, vec![(North, 1)]),
            (North, vec![(North, 1), (East, 2)]),
            (East, vec![(East, 2), (West, 4)]),
            (West, vec![(East, 2), (West, 4), (North, 1)]),
        ] {
            assert_eq!(
                computer_home(seat, &computers),
                ComputerHome::Host,
                "{seat} of {computers:?}"
            );
        }
    }

    #[test]
    fn a_host_advertises_a_computer_seat_with_its_partners_free_seat() {
        use FourSeat::{East, North, South, West};
        // East a computer of level 2, North one of level 1, West open.
        let (here, with) = split_computers(&[(East, 2), (North, 1)]);
        assert_eq!(here, [(North, 1)]);
        assert_eq!(with, [(East, 2)]);
        let free = advertised(&[South, East, North], &with);
        assert_eq!(free.to_txt(), "W");
        assert_eq!(free.computers_txt().as_deref(), Some("E2"));
        assert_eq!(free.computer_with(West), Some((East, 2)));
        // Once West is taken, nothing comes with a free seat; a team of two
        // computers comes with none.
        assert_eq!(
            advertised(&[South, East, North, West], &with).computers_txt(),
            None
        );
        let (here, with) = split_computers(&[(East, 2), (West, 3)]);
        assert_eq!((here.len(), with.len()), (2, 0));
        assert_eq!(advertised(&[South, East, West], &with).to_txt(), "N");
    }

    #[test]
    fn only_a_computer_seats_name_reads_as_a_level() {
        for level in 1..=4 {
            assert_eq!(computer_level(&computer_name(level)), Some(level));
            assert_eq!(
                computer_of(&partner_computer_name(level)),
                Some((level, ComputerHome::Partner))
            );
            assert_eq!(
                computer_of(&computer_name(level)),
                Some((level, ComputerHome::Host))
            );
        }
        for name in [
            "#computer@partner:",
            "#computer@partner:0",
            "#computer@partner:5",
            "#computer@guest:1",
        ] {
            assert_eq!(computer_of(name), None, "{name}");
        }
        for name in [
            "alice",
            "#computer@host:",
            "#computer@host:0",
            "#computer@host:5",
            "junqi-#computer@host:1",
        ] {
            assert_eq!(computer_level(name), None, "{name}");
        }
    }
}
