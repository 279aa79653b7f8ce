//! The four-seat driver: one seat's [`FourSession`] over QUIC, every message
//! through the host (a star). The host accepts the other seats' devices,
//! feeds every frame to its own seat and forwards it unchanged to the other
//! devices; a guest talks to the host only. Every connection starts with a
//! [`LinkStart`]: a new device, or a seat's device coming back after its
//! connection dropped ([`junqi_proto::four::rejoin`], signed over the
//! connection), after which both ends resend what the other may lack.
//! Frames are the length-prefixed payloads of [`crate::frame`]. Beside the
//! game stream the host tells each guest every seat's link
//! ([`crate::link_notice`]: advisory, never given to the session).

use std::collections::BTreeMap;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use junqi_game::Move;
use junqi_proto::four::log::Envelope4;
use junqi_proto::four::rejoin::{LinkStart, Welcome};
use junqi_proto::four::{Body4, FourCallError, FourEvent, FourSeat, FourSession, FourVerdict};
use junqi_proto::session::LATENCY_BOUND;
use quinn::{Connection, Endpoint, RecvStream, SendStream};
use tokio::sync::{Semaphore, mpsc, watch};

use crate::frame::{FrameDecoder, LEN_PREFIX, MAX_FRAME, decode_payload, encode_frame};
use crate::link_notice::{SeatLinks, read_links, send_links};
use crate::transport::{
    HANDSHAKE_TIMEOUT, MAX_PENDING, STREAM_START_TIMEOUT, connection_binding, join_game,
};

/// How a seat reaches the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableDial {
    /// The host: accept this many other seats' devices on the endpoint.
    Host {
        /// Devices to accept (one per other seat).
        guests: usize,
    },
    /// A guest: connect to the host at this address (retrying until it answers).
    Join(SocketAddr),
}

/// The owner of a seat (`junqi-peer`, later the app): it sees every event
/// and may act on the session (confirm the code, play a move).
pub trait TableHandler {
    /// One event of the seat.
    fn event(&mut self, session: &mut FourSession, event: FourEvent);
    /// A guest: whether to drop the connection now, as a failing network
    /// would (tests); the driver connects again and the seat comes back.
    fn drop_link(&mut self) -> bool {
        false
    }
    /// A guest's link to the host went down or came back (the seat table's
    /// connection state).
    fn link(&mut self, _up: bool) {}
    /// The host: a device's first message showed which seat it took (the
    /// lobby's free seats).
    fn seat_taken(&mut self, _seat: FourSeat) {}
    /// The partner of this device's seat left and handed its seat over
    /// ([`FourEvent::TakeOver`]): whether this device plays it on (its
    /// events then come to [`TableHandler::event`] with that seat's
    /// session). A seat handed over and not taken stays silent: the host
    /// times it out.
    fn take_over(&mut self) -> bool {
        false
    }
    /// The host: the link of the device that plays `seat` went down or came
    /// back (the seat table's connection state; a seat's device is up from
    /// its first message, [`TableHandler::seat_taken`]).
    fn seat_link(&mut self, _seat: FourSeat, _up: bool) {}
    /// A guest: every seat's link as the host says it sees it
    /// ([`crate::link_notice`]), or all unknown while this device's own
    /// link is down. Advisory and unsigned: for the seat table only, never
    /// for blame nor for the game.
    fn relayed_links(&mut self, _session: &FourSession, _links: SeatLinks) {}
    /// An owner's command ([`TableCmd`]) the session refused.
    fn refused(&mut self, _cmd: TableCmd, _error: FourCallError) {}
    /// The device keeps its journal now
    /// ([`crate::table_journal::save_journal`]): what the session is about
    /// to send is in its log; and at the host, after every message it took,
    /// so that a restarted host lacks at most the rounds under way (its
    /// returning guests resend from two rounds before their own).
    fn journal(&mut self, _session: &FourSession) {}
}

/// An owner's decision, given to the driver while it waits ([`play_table_with`]):
/// what a person at the seat decides arrives at any time, not in answer to an
/// event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableCmd {
    /// The pairing code is the same on every screen.
    Confirm,
    /// Play a move.
    Play(Move),
    /// Offer a draw (the seat on move, once a turn).
    OfferDraw,
    /// Answer the draw offer ([`FourEvent::AnswerDraw`]).
    AnswerDraw(bool),
    /// Resign (the seat goes out; its team plays on with the partner).
    Resign,
    /// Leave the table (逃跑): signed when this seat owes the next message,
    /// else the seat goes silent; the driver stops either way.
    Leave,
}

impl TableCmd {
    /// Applies the command to the session.
    ///
    /// # Errors
    /// The session's refusal.
    pub fn apply(self, session: &mut FourSession, now: Instant) -> Result<(), FourCallError> {
        match self {
            TableCmd::Confirm => session.confirm_pairing(now),
            TableCmd::Play(m) => session.play(now, m),
            TableCmd::OfferDraw => session.offer_draw(now),
            TableCmd::AnswerDraw(yes) => session.answer_draw(now, yes),
            TableCmd::Resign => session.resign(now),
            TableCmd::Leave => {
                session.leave(now);
                Ok(())
            }
        }
    }
}

/// The players' names from the seats' hellos (in seat order; `None` for a
/// seat whose hello is not in yet).
#[must_use]
pub fn seat_names(session: &FourSession) -> [Option<String>; 4] {
    let mut out: [Option<String>; 4] = Default::default();
    if let Some(hellos) = session.log().messages(0) {
        for (slot, e) in out.iter_mut().zip(hellos) {
            if let Some(Envelope4 {
                body: Body4::Hello { name, .. } | Body4::HelloHandOver { name, .. },
                ..
            }) = e
            {
                *slot = Some(name.clone());
            }
        }
    }
    out
}

/// How long a finished host keeps relaying for the seats still finishing,
/// and a finished guest waits for the host to close.
pub const LINGER: Duration = Duration::from_secs(5);

/// How long a guest keeps trying to reach the host.
pub const JOIN_PATIENCE: Duration = Duration::from_secs(30);

/// Rounds a returning device gets again before the ones it says it holds
/// (it may hold a round the host never saw complete).
const RESEND_BACK: u64 = 2;

fn framed(payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(LEN_PREFIX + payload.len());
    out.extend_from_slice(&(payload.len() as u32).to_be_bytes());
    out.extend_from_slice(payload);
    out
}

/// What the driver's tasks report.
enum Report {
    /// A payload from a link.
    Frame(u64, Vec<u8>),
    /// A link's stream ended or broke its framing.
    Closed(u64),
    /// The host: a new connection and its first frame.
    Incoming(Connection, SendStream, RecvStream, FrameDecoder, LinkStart),
    /// A guest: the host's notice of every seat's link, on a link.
    Links(u64, SeatLinks),
}

/// Reads payloads from one stream (after what `dec` already holds).
async fn read_frames(
    link: u64,
    mut recv: RecvStream,
    mut dec: FrameDecoder,
    tx: mpsc::UnboundedSender<Report>,
) {
    let mut buf = vec![0u8; MAX_FRAME];
    loop {
        loop {
            match dec.next_payload() {
                Ok(Some(p)) => {
                    if tx.send(Report::Frame(link, p)).is_err() {
                        return;
                    }
                }
                Ok(None) => break,
                Err(_) => {
                    let _ = tx.send(Report::Closed(link));
                    return;
                }
            }
        }
        match recv.read(&mut buf).await {
            Ok(Some(n)) => dec.push(&buf[..n]),
            _ => {
                let _ = tx.send(Report::Closed(link));
                return;
            }
        }
    }
}

/// Reads a connection's first frame (a [`LinkStart`] at the host, a
/// [`Welcome`] back at a returning guest), with its deadline.
async fn read_start<T: serde::de::DeserializeOwned>(
    recv: &mut RecvStream,
) -> io::Result<(T, FrameDecoder)> {
    let read = async {
        let mut dec = FrameDecoder::new();
        let mut buf = vec![0u8; 4096];
        loop {
            if let Some(s) = dec.next_frame::<T>().map_err(io::Error::other)? {
                return Ok((s, dec));
            }
            match recv.read(&mut buf).await.map_err(io::Error::other)? {
                Some(n) => dec.push(&buf[..n]),
                None => return Err(io::Error::other("stream closed before it started")),
            }
        }
    };
    tokio::time::timeout(STREAM_START_TIMEOUT, read)
        .await
        .map_err(|_| io::Error::new(io::ErrorKind::TimedOut, "link start timed out"))?
}

/// The host's acceptor: each incoming connection checked on its own task,
/// with deadlines, at most [`MAX_PENDING`] at once.
async fn accept_links(ep: Endpoint, tx: mpsc::UnboundedSender<Report>) {
    let pending = Arc::new(Semaphore::new(MAX_PENDING));
    while let Some(incoming) = ep.accept().await {
        let Ok(permit) = pending.clone().try_acquire_owned() else {
            incoming.refuse();
            continue;
        };
        let tx = tx.clone();
        tokio::spawn(async move {
            let _permit = permit;
            let start = async {
                let conn = tokio::time::timeout(HANDSHAKE_TIMEOUT, incoming)
                    .await
                    .ok()?
                    .ok()?;
                let (send, mut recv) = tokio::time::timeout(STREAM_START_TIMEOUT, conn.accept_bi())
                    .await
                    .ok()?
                    .ok()?;
                let (s, dec) = read_start(&mut recv).await.ok()?;
                Some((conn, send, recv, dec, s))
            };
            if let Some((conn, send, recv, dec, s)) = start.await {
                let _ = tx.send(Report::Incoming(conn, send, recv, dec, s));
            }
        });
    }
}

/// One device's link, as the host or a guest holds it.
struct Link {
    conn: Connection,
    send: SendStream,
    /// The seat whose messages it brought (the host learns it from them).
    seat: Option<FourSeat>,
    /// The task that writes (host) or reads (guest) the link notices.
    notices: tokio::task::JoinHandle<()>,
}

impl Drop for Link {
    fn drop(&mut self) {
        self.notices.abort();
    }
}

/// A guest's reader of the host's link notices on link `id`.
fn read_notices(
    conn: &Connection,
    id: u64,
    tx: &mpsc::UnboundedSender<Report>,
) -> tokio::task::JoinHandle<()> {
    let tx = tx.clone();
    tokio::spawn(read_links(conn.clone(), move |l| {
        tx.send(Report::Links(id, l)).is_ok()
    }))
}

/// The host: `seat`'s device link is up or down, for its owner and in the
/// notices to the guests.
fn set_seat_link<H: TableHandler>(
    handler: &mut H,
    links: &watch::Sender<SeatLinks>,
    seat: FourSeat,
    up: bool,
) {
    handler.seat_link(seat, up);
    links.send_modify(|l| l.0[seat.index()] = Some(up));
}

/// A guest's connection to the host: new, or the seat's return (`session`),
/// which the host answers first with its signed [`Welcome`] (taken by the
/// session: a resumed seat is released once it holds what the host held).
async fn connect(
    ep: &Endpoint,
    addr: SocketAddr,
    mut session: Option<&mut FourSession>,
) -> io::Result<(Connection, SendStream, RecvStream, FrameDecoder)> {
    let give_up = Instant::now() + JOIN_PATIENCE;
    loop {
        match try_connect(ep, addr, session.as_deref_mut()).await {
            Ok(link) => return Ok(link),
            Err(e) if Instant::now() >= give_up => return Err(e),
            Err(_) => tokio::time::sleep(Duration::from_millis(300)).await,
        }
    }
}

async fn try_connect(
    ep: &Endpoint,
    addr: SocketAddr,
    session: Option<&mut FourSession>,
) -> io::Result<(Connection, SendStream, RecvStream, FrameDecoder)> {
    let (conn, mut send, mut recv) = join_game(ep, addr).await?;
    let binding = connection_binding(&conn)?;
    let start = match &session {
        None => LinkStart::New,
        Some(s) => LinkStart::Rejoin(s.rejoin(&binding)),
    };
    send.write_all(&encode_frame(&start).map_err(io::Error::other)?)
        .await
        .map_err(io::Error::other)?;
    let Some(s) = session else {
        return Ok((conn, send, recv, FrameDecoder::new()));
    };
    let (welcome, dec) = read_start::<Welcome>(&mut recv).await?;
    if let Err(e) = s.take_welcome(&welcome, &binding) {
        conn.close(2u32.into(), b"refused");
        return Err(io::Error::other(e));
    }
    Ok((conn, send, recv, dec))
}

async fn write_all(link: &mut Link, frames: &[Vec<u8>]) {
    for f in frames {
        if link.send.write_all(f).await.is_err() {
            return;
        }
    }
}

/// Plays one seat at a table until its verdict (or, for a guest, until
/// the host cannot be reached again). The host relays for the others until
/// they are done too, or [`LINGER`] after its own verdict.
///
/// # Errors
/// A guest that cannot reach the host (at first, or again after a drop).
pub async fn play_table<H: TableHandler>(
    session: &mut FourSession,
    ep: &Endpoint,
    dial: TableDial,
    handler: &mut H,
) -> io::Result<FourVerdict> {
    play_table_with(session, ep, dial, handler, None).await
}

/// As [`play_table`], also taking the owner's decisions from `cmds` as they
/// come (a person's moves, confirmations and answers). A
/// [`TableCmd::Leave`] stops the driver once its `Leave` is sent (or at
/// once, when this seat owes nothing); the channel closing is a leave too.
///
/// # Errors
/// A guest that cannot reach the host (at first, or again after a drop).
pub async fn play_table_with<H: TableHandler>(
    session: &mut FourSession,
    ep: &Endpoint,
    dial: TableDial,
    handler: &mut H,
    mut cmds: Option<&mut mpsc::UnboundedReceiver<TableCmd>>,
) -> io::Result<FourVerdict> {
    let (tx, mut rx) = mpsc::unbounded_channel();
    let mut links: BTreeMap<u64, Link> = BTreeMap::new();
    let mut next_id = 0u64;
    let (host, guests) = match dial {
        TableDial::Host { guests } => (true, guests),
        TableDial::Join(_) => (false, 0),
    };
    let acceptor = if host {
        Some(tokio::spawn(accept_links(ep.clone(), tx.clone())))
    } else {
        None
    };
    // A host resumed from its journal waits a round trip for what its
    // guests hold of it before it sends again; a guest, for what the
    // host's welcome says it held.
    let resumed = session.resuming();
    // The host: every seat's link, for the guests' notices (its own is up).
    let (seat_links, _) = watch::channel(SeatLinks::default());
    seat_links.send_modify(|l| l.0[session.seat().index()] = Some(true));
    let mut release_at = (resumed && host).then(|| Instant::now() + 2 * LATENCY_BOUND);
    if let TableDial::Join(addr) = dial {
        let back = resumed && session.log().round() >= 2;
        let (conn, send, recv, dec) = connect(ep, addr, back.then_some(&mut *session)).await?;
        tokio::spawn(read_frames(next_id, recv, dec, tx.clone()));
        let notices = read_notices(&conn, next_id, &tx);
        let mut link = Link {
            conn,
            send,
            seat: None,
            notices,
        };
        if back {
            let from = session.log().round().saturating_sub(RESEND_BACK);
            let frames: Vec<Vec<u8>> = session
                .resend_from(from)
                .iter()
                .map(|p| framed(p))
                .collect();
            write_all(&mut link, &frames).await;
        }
        links.insert(next_id, link);
        next_id += 1;
        handler.link(true);
    }
    let mut finished_at: Option<Instant> = None;
    // The seat this device's partner handed to it, played beside its own:
    // each session's frames go to the table and to the other session.
    let mut taken: Option<FourSession> = None;
    // Resumed: a seat handed over before the crash is played on again (the
    // journal's log holds the hand-over and what this device played for it).
    if resumed
        && session.verdict().is_none()
        && handler.take_over()
        && let Ok(t) = session.take_over(Instant::now())
    {
        handler.event(session, FourEvent::TakeOver { seat: t.seat() });
        taken = Some(t);
    }
    let result = loop {
        let mut busy = true;
        while busy {
            busy = false;
            while let Some(ev) = session.poll_event() {
                let take = matches!(ev, FourEvent::TakeOver { .. });
                handler.event(session, ev);
                if take
                    && taken.is_none()
                    && handler.take_over()
                    && let Ok(t) = session.take_over(Instant::now())
                {
                    taken = Some(t);
                }
                busy = true;
            }
            if let Some(t) = taken.as_mut() {
                while let Some(ev) = t.poll_event() {
                    handler.event(t, ev);
                    busy = true;
                }
            }
            let mut batch = Vec::new();
            while let Some(p) = session.poll_transmit() {
                if let Some(t) = taken.as_mut() {
                    t.handle_frame(Instant::now(), &p);
                }
                batch.push(p);
            }
            if let Some(t) = taken.as_mut() {
                while let Some(p) = t.poll_transmit() {
                    session.handle_frame(Instant::now(), &p);
                    batch.push(p);
                }
            }
            if !batch.is_empty() {
                handler.journal(session);
                busy = true;
            }
            for p in batch {
                let f = framed(&p);
                for l in links.values_mut() {
                    let _ = l.send.write_all(&f).await;
                }
            }
            if release_at.is_some_and(|t| Instant::now() >= t) {
                release_at = None;
                session.release_after(0);
                if let Some(t) = taken.as_mut() {
                    t.release_after(0);
                }
                busy = true;
            }
        }
        if !host && session.verdict().is_none() && handler.drop_link() {
            for (_, l) in std::mem::take(&mut links) {
                l.conn.close(1u32.into(), b"dropped");
            }
        }
        if !host && links.is_empty() && session.verdict().is_none() {
            // Back to the host, as the seat it was.
            handler.link(false);
            // Cut off, it knows no other seat's link either.
            handler.relayed_links(session, SeatLinks::default());
            let TableDial::Join(addr) = dial else {
                unreachable!("a guest")
            };
            let (conn, send, recv, dec) = connect(ep, addr, Some(&mut *session)).await?;
            tokio::spawn(read_frames(next_id, recv, dec, tx.clone()));
            let notices = read_notices(&conn, next_id, &tx);
            let mut link = Link {
                conn,
                send,
                seat: None,
                notices,
            };
            let back = session.log().round().saturating_sub(RESEND_BACK);
            let frames: Vec<Vec<u8>> = session
                .resend_from(back)
                .iter()
                .map(|p| framed(p))
                .collect();
            write_all(&mut link, &frames).await;
            links.insert(next_id, link);
            next_id += 1;
            handler.link(true);
        }
        let done =
            session.verdict().is_some() && taken.as_ref().is_none_or(|t| t.verdict().is_some());
        if done && finished_at.is_none() {
            finished_at = Some(Instant::now());
            if !host {
                for l in links.values_mut() {
                    let _ = l.send.finish();
                }
            }
        }
        if let Some(t) = finished_at
            && (!host || links.is_empty() || t.elapsed() >= LINGER)
        {
            if !host {
                // Until the host closes, or a while.
                let _ = tokio::time::timeout(LINGER, async {
                    while let Some(Report::Frame(..)) = rx.recv().await {}
                })
                .await;
            }
            for l in links.values_mut() {
                let _ = l.send.finish();
            }
            break session.verdict().cloned().expect("done");
        }
        let timeout = match (
            session.poll_timeout(),
            taken.as_ref().and_then(FourSession::poll_timeout),
        ) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let deadline = match (timeout, finished_at) {
            (_, Some(t)) => Some(t + LINGER),
            (d, None) => d,
        };
        let deadline = match (deadline, release_at) {
            (Some(d), Some(r)) => Some(d.min(r)),
            (d, r) => d.or(r),
        };
        let sleep = async {
            match deadline {
                Some(t) => tokio::time::sleep_until(tokio::time::Instant::from_std(t)).await,
                None => std::future::pending().await,
            }
        };
        let owner = async {
            match cmds.as_deref_mut() {
                Some(c) => c.recv().await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            c = owner => match c {
                Some(c) => {
                    if let Err(e) = c.apply(session, Instant::now()) {
                        handler.refused(c, e);
                    }
                }
                // The owner is gone: so is its seat.
                None => {
                    cmds = None;
                    if session.verdict().is_none() {
                        session.leave(Instant::now());
                    }
                }
            },
            m = rx.recv() => match m {
                Some(Report::Frame(id, payload)) => {
                    if host {
                        if let Some(l) = links.get_mut(&id)
                            && l.seat.is_none()
                            && let Ok(e) = decode_payload::<Envelope4>(&payload)
                        {
                            l.seat = Some(e.signed.header.sender);
                            handler.seat_taken(e.signed.header.sender);
                            set_seat_link(handler, &seat_links, e.signed.header.sender, true);
                        }
                        // The relay: unchanged to every other device.
                        let f = framed(&payload);
                        for (j, l) in &mut links {
                            if *j != id {
                                let _ = l.send.write_all(&f).await;
                            }
                        }
                    }
                    session.handle_frame(Instant::now(), &payload);
                    if let Some(t) = taken.as_mut() {
                        t.handle_frame(Instant::now(), &payload);
                    }
                    if host {
                        handler.journal(session);
                    }
                }
                Some(Report::Closed(id)) => {
                    if let Some(Link { seat: Some(s), .. }) = links.remove(&id)
                        && !links.values().any(|l| l.seat == Some(s))
                    {
                        set_seat_link(handler, &seat_links, s, false);
                    }
                }
                Some(Report::Links(id, l)) => {
                    // Only from the link to the host this device holds now.
                    if !host && links.contains_key(&id) {
                        handler.relayed_links(session, l);
                    }
                }
                Some(Report::Incoming(conn, send, recv, dec, start)) => {
                    let mut welcome = None;
                    let seat = match &start {
                        // A new device while the table still has room.
                        LinkStart::New if links.len() < guests && session.log().round() < 2 => None,
                        LinkStart::Rejoin(r) => {
                            let binding = connection_binding(&conn)
                                .ok()
                                .filter(|b| session.check_rejoin(r, b).is_ok());
                            let Some(b) = binding else {
                                conn.close(2u32.into(), b"refused");
                                continue;
                            };
                            welcome = Some(session.welcome(r.seat, &b));
                            Some(r.seat)
                        }
                        LinkStart::New => {
                            conn.close(2u32.into(), b"table full");
                            continue;
                        }
                    };
                    // The seat's old link, if it still looks up, is gone.
                    if let Some(s) = seat {
                        links.retain(|_, l| l.seat != Some(s));
                    }
                    let from = match &start {
                        LinkStart::Rejoin(r) => r.rounds.saturating_sub(RESEND_BACK),
                        LinkStart::New => 0,
                    };
                    if let Some(s) = seat {
                        set_seat_link(handler, &seat_links, s, true);
                    }
                    let notices = tokio::spawn(send_links(conn.clone(), seat_links.subscribe()));
                    let mut link = Link {
                        conn,
                        send,
                        seat,
                        notices,
                    };
                    let mut frames: Vec<Vec<u8>> = Vec::new();
                    if let Some(w) = welcome
                        && let Ok(f) = encode_frame(&w)
                    {
                        frames.push(f);
                    }
                    frames.extend(session.resend_from(from).iter().map(|p| framed(p)));
                    write_all(&mut link, &frames).await;
                    tokio::spawn(read_frames(next_id, recv, dec, tx.clone()));
                    links.insert(next_id, link);
                    next_id += 1;
                }
                None => {
                    session.handle_timeout(Instant::now());
                }
            },
            () = sleep => {
                session.handle_timeout(Instant::now());
                if let Some(t) = taken.as_mut() {
                    t.handle_timeout(Instant::now());
                }
            }
        }
    };
    if let Some(a) = acceptor {
        a.abort();
    }
    Ok(result)
}

/// The magic tag of a four-seat game file.
pub const TABLE_MAGIC: &[u8; 8] = b"JQTABLE1";

/// Writes a table's signed log as a game file (the magic tag, then one
/// frame per message), for `junqi-audit`.
///
/// # Errors
/// File errors.
pub fn save_log(path: &std::path::Path, log: &junqi_proto::four::log::TableLog) -> io::Result<()> {
    let mut out = TABLE_MAGIC.to_vec();
    for e in log.envelopes() {
        out.extend(crate::frame::encode_frame(e).map_err(io::Error::other)?);
    }
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, out)?;
    std::fs::rename(tmp, path)
}

/// Why a four-seat game file cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum TableFileError {
    /// The file cannot be read.
    #[error("cannot read the file: {0}")]
    Io(#[from] io::Error),
    /// Not a four-seat game file.
    #[error("not a four-seat game file")]
    Magic,
    /// A frame that does not decode.
    #[error("a damaged message: {0}")]
    Frame(#[from] crate::frame::FrameError),
    /// Messages that are not a log.
    #[error("the messages are not a table's log: {0}")]
    Shape(#[from] junqi_proto::four::log::ShapeError),
}

/// Whether `bytes` start like a four-seat game file.
#[must_use]
pub fn is_table_file(bytes: &[u8]) -> bool {
    bytes.starts_with(TABLE_MAGIC)
}

/// Reads a four-seat game file written by [`save_log`].
///
/// # Errors
/// See [`TableFileError`].
pub fn load_log(bytes: &[u8]) -> Result<junqi_proto::four::log::TableLog, TableFileError> {
    let rest = bytes
        .strip_prefix(TABLE_MAGIC)
        .ok_or(TableFileError::Magic)?;
    let mut dec = FrameDecoder::new();
    dec.push(rest);
    let mut envs = Vec::new();
    while let Some(e) = dec.next_frame::<junqi_proto::four::log::Envelope4>()? {
        envs.push(e);
    }
    dec.finish()?;
    Ok(junqi_proto::four::log::TableLog::from_envelopes(envs)?)
}
