//! The four-seat driver: one seat's [`FourSession`] over QUIC, every message
//! through the host (a star). The host accepts one connection per other
//! seat, feeds every frame to its own seat and forwards it unchanged to the
//! other seats; a guest talks to the host only. Frames are the
//! length-prefixed payloads of [`crate::frame`].

use std::io;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use junqi_proto::four::{FourEvent, FourSession, FourVerdict};
use quinn::{Endpoint, RecvStream, SendStream};
use tokio::sync::mpsc;

use crate::frame::{FrameDecoder, LEN_PREFIX, MAX_FRAME};
use crate::transport::{accept_game, join_game};

/// How a seat reaches the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableDial {
    /// The host: accept this many other seats' connections on the endpoint.
    Host {
        /// Connections to accept (one per other seat's device).
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
}

/// How long a finished host keeps relaying for the seats still finishing,
/// and a finished guest waits for the host to close.
pub const LINGER: Duration = Duration::from_secs(5);

/// How long a guest keeps trying to reach the host.
pub const JOIN_PATIENCE: Duration = Duration::from_secs(30);

fn framed(payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(LEN_PREFIX + payload.len());
    out.extend_from_slice(&(payload.len() as u32).to_be_bytes());
    out.extend_from_slice(payload);
    out
}

/// Reads payloads from one stream into `tx` as `(link, payload)`; a
/// stream that breaks the framing or ends is reported as `(link, None)`.
async fn read_frames(
    link: usize,
    mut recv: RecvStream,
    tx: mpsc::UnboundedSender<(usize, Option<Vec<u8>>)>,
) {
    let mut dec = FrameDecoder::new();
    let mut buf = vec![0u8; MAX_FRAME];
    loop {
        loop {
            match dec.next_payload() {
                Ok(Some(p)) => {
                    if tx.send((link, Some(p))).is_err() {
                        return;
                    }
                }
                Ok(None) => break,
                Err(_) => {
                    let _ = tx.send((link, None));
                    return;
                }
            }
        }
        match recv.read(&mut buf).await {
            Ok(Some(n)) => dec.push(&buf[..n]),
            _ => {
                let _ = tx.send((link, None));
                return;
            }
        }
    }
}

/// Plays one seat at a table until its verdict (or, for a guest, until
/// the host goes away). The host relays for the others until they are done
/// too, or [`LINGER`] after its own verdict.
///
/// # Errors
/// Connection errors before the table is complete.
pub async fn play_table<H: TableHandler>(
    session: &mut FourSession,
    ep: &Endpoint,
    dial: TableDial,
    handler: &mut H,
) -> io::Result<FourVerdict> {
    let mut sends: Vec<SendStream> = Vec::new();
    let (tx, mut rx) = mpsc::unbounded_channel();
    let host = matches!(dial, TableDial::Host { .. });
    match dial {
        TableDial::Host { guests } => {
            // Every seat's device first: a frame relayed before a seat
            // connected would be lost to it.
            let mut recvs = Vec::new();
            while sends.len() < guests {
                match accept_game(ep).await {
                    Ok((_conn, send, recv)) => {
                        sends.push(send);
                        recvs.push(recv);
                    }
                    // A connection that failed its handshake: keep listening.
                    Err(_) => continue,
                }
            }
            for (i, recv) in recvs.into_iter().enumerate() {
                tokio::spawn(read_frames(i, recv, tx.clone()));
            }
        }
        TableDial::Join(addr) => {
            let give_up = Instant::now() + JOIN_PATIENCE;
            let (send, recv) = loop {
                match join_game(ep, addr).await {
                    Ok((_conn, send, recv)) => break (send, recv),
                    Err(e) if Instant::now() >= give_up => return Err(e),
                    Err(_) => tokio::time::sleep(Duration::from_millis(300)).await,
                }
            };
            sends.push(send);
            tokio::spawn(read_frames(0, recv, tx.clone()));
        }
    }
    drop(tx);
    let mut open = vec![true; sends.len()];
    let mut finished_at: Option<Instant> = None;
    loop {
        let mut busy = true;
        while busy {
            busy = false;
            while let Some(ev) = session.poll_event() {
                handler.event(session, ev);
                busy = true;
            }
            while let Some(p) = session.poll_transmit() {
                let f = framed(&p);
                for (s, o) in sends.iter_mut().zip(&open) {
                    if *o {
                        let _ = s.write_all(&f).await;
                    }
                }
                busy = true;
            }
        }
        if session.verdict().is_some() && finished_at.is_none() {
            finished_at = Some(Instant::now());
            if !host {
                let _ = sends[0].finish();
            }
        }
        if let Some(t) = finished_at
            && (!host || !open.iter().any(|o| *o) || t.elapsed() >= LINGER)
        {
            if !host {
                // Until the host closes, or a while.
                let _ = tokio::time::timeout(LINGER, async {
                    while let Some((_, Some(_))) = rx.recv().await {}
                })
                .await;
            }
            for s in &mut sends {
                let _ = s.finish();
            }
            return Ok(session.verdict().cloned().expect("done"));
        }
        let deadline = match (session.poll_timeout(), finished_at) {
            (_, Some(t)) => Some(t + LINGER),
            (d, None) => d,
        };
        let sleep = async {
            match deadline {
                Some(t) => tokio::time::sleep_until(tokio::time::Instant::from_std(t)).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            m = rx.recv() => match m {
                Some((link, Some(payload))) => {
                    if host {
                        // The relay: unchanged to every other seat's device.
                        let f = framed(&payload);
                        for (j, s) in sends.iter_mut().enumerate() {
                            if j != link && open[j] {
                                let _ = s.write_all(&f).await;
                            }
                        }
                    }
                    session.handle_frame(Instant::now(), &payload);
                }
                Some((link, None)) => {
                    open[link] = false;
                    if !host && session.verdict().is_none() {
                        return Err(io::Error::new(io::ErrorKind::ConnectionAborted, "the host went away"));
                    }
                }
                None => {
                    if session.verdict().is_none() {
                        session.handle_timeout(Instant::now());
                        if session.poll_timeout().is_none() && session.verdict().is_none() {
                            return Err(io::Error::new(io::ErrorKind::ConnectionAborted, "every connection closed"));
                        }
                        tokio::time::sleep(Duration::from_millis(100)).await;
                    }
                }
            },
            () = sleep => session.handle_timeout(Instant::now()),
        }
    }
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
