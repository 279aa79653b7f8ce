//! A four-seat device's crash journal (`--state DIR/journal4.bin`): what
//! its seat was opened with and every message its log held, written before
//! each send (as the two-player `game.bin`), so that a restarted device
//! resumes its seat ([`junqi_proto::four::FourSession::resume`]).

use std::io::{self, Write};
use std::path::Path;

use ed25519_dalek::SigningKey;
use junqi_game::{Layout, Rules};
use junqi_proto::four::Body4;
use junqi_proto::four::log::Envelope4;
use junqi_proto::four::{FourConfig, FourSeat, FourSession};
use junqi_proto::frame::{FrameDecoder, FrameError, encode_frame};
use serde::{Deserialize, Serialize};

use crate::Seed;

/// What a journal file starts with.
pub const JOURNAL_MAGIC: &[u8; 8] = b"JQJRNL41";

/// The journal's file name under the state directory.
pub const JOURNAL_FILE: &str = "journal4.bin";

/// The seat's config as the journal keeps it.
#[derive(Serialize, Deserialize)]
struct Head {
    seat: FourSeat,
    host: FourSeat,
    rules: Option<Rules>,
    name: String,
    layout: Layout,
    key: [u8; 32],
    seed: Seed,
    nonce: [u8; 32],
}

/// Why a journal cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    /// The file cannot be read or written.
    #[error("cannot read or write the journal: {0}")]
    Io(#[from] io::Error),
    /// Not a four-seat journal.
    #[error("not a four-seat journal")]
    Magic,
    /// A damaged frame.
    #[error("a damaged journal: {0}")]
    Frame(#[from] FrameError),
    /// No config at its start.
    #[error("a journal without its seat")]
    Empty,
}

/// Writes `session`'s journal to `path` (a new file renamed over the old).
///
/// # Errors
/// File errors.
pub fn save_journal(path: &Path, session: &FourSession) -> Result<(), JournalError> {
    let c = session.config();
    let head = Head {
        seat: c.seat,
        host: c.host,
        rules: c.rules,
        name: c.name.clone(),
        layout: c.layout,
        key: c.key.to_bytes(),
        seed: c.seed.clone(),
        nonce: c.nonce,
    };
    let mut out = JOURNAL_MAGIC.to_vec();
    out.extend(encode_frame(&head)?);
    for e in session.journal() {
        out.extend(encode_frame(&e)?);
    }
    // On disk before it is sent (a power cut must not lose a message the
    // others hold): the new file is synced, then renamed over the old one.
    let tmp = path.with_extension("tmp");
    let mut f = std::fs::File::create(&tmp)?;
    f.write_all(&out)?;
    f.sync_all()?;
    std::fs::rename(tmp, path)?;
    Ok(())
}

/// Reads a journal: the seat's config and its messages.
///
/// # Errors
/// See [`JournalError`].
pub fn load_journal(bytes: &[u8]) -> Result<(FourConfig, Vec<Envelope4>), JournalError> {
    let rest = bytes
        .strip_prefix(JOURNAL_MAGIC)
        .ok_or(JournalError::Magic)?;
    let mut dec = FrameDecoder::new();
    dec.push(rest);
    let head: Head = dec.next_frame()?.ok_or(JournalError::Empty)?;
    let mut log = Vec::new();
    while let Some(e) = dec.next_frame::<Envelope4>()? {
        log.push(e);
    }
    dec.finish()?;
    // The player's agreement to a hand-over is in its own hello (the
    // journal's head predates it and stays as it was).
    let hand_over = log.iter().any(|e| {
        e.signed.header.sender == head.seat && matches!(e.body, Body4::HelloHandOver { .. })
    });
    let cfg = FourConfig {
        seat: head.seat,
        host: head.host,
        rules: head.rules,
        name: head.name,
        layout: head.layout,
        key: SigningKey::from_bytes(&head.key),
        seed: head.seed,
        nonce: head.nonce,
        hand_over,
    };
    Ok((cfg, log))
}
