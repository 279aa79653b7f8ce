//! Saving a game as it is played: an append-only journal.
//!
//! A journal file is a magic tag, a header (the [`SavedSession`] fields other
//! than the log, written once), then every message of the signed log as one
//! length-delimited frame ([`crate::frame`]'s encoding), appended and
//! fsynced as it is logged. Saving a message costs one frame, however long
//! the game (rewriting the whole file after every message, as before, cost
//! the whole log each time).
//!
//! A crash can only tear the frame being appended: [`load`] drops an
//! incomplete last frame (its message was not sent yet, since the driver
//! saves before it sends, or it was received and the peer resends it on the
//! next stream). Anything else that does not decode is damage, reported as a
//! [`JournalError`], never a panic and never silently skipped.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use junqi_proto::envelope::Envelope;
use junqi_proto::frame::{self, FrameError, LEN_PREFIX, MAX_FRAME};
pub use junqi_proto::saved::{SavedSession, StreamRefused, StreamStart};
use junqi_proto::session::Session;
use junqi_proto::wire::Body;
use junqi_proto::{Seat, Seed};
use serde::{Deserialize, Serialize};

/// The first bytes of every journal (format version 1).
pub const MAGIC: &[u8; 8] = b"JQJRNL01";

/// The largest journal [`load`] reads: far above any bounded game, and a
/// limit on what a damaged length field could make it allocate.
pub const MAX_JOURNAL: u64 = 64 << 20;

/// Why a journal could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    /// A file-system error.
    #[error("journal I/O: {0}")]
    Io(#[from] io::Error),
    /// The file does not start with [`MAGIC`]: not a journal, or another version.
    #[error("not a junqi game journal (bad magic)")]
    BadMagic,
    /// The header is missing or does not decode.
    #[error("damaged journal header: {0}")]
    BadHeader(FrameError),
    /// A complete frame of the log does not decode (damage, not a torn write).
    #[error("damaged journal: message {index} at byte {offset}: {error}")]
    BadFrame {
        /// Index of the message in the log.
        index: usize,
        /// Byte offset of its frame in the file.
        offset: u64,
        /// The decoding error.
        error: FrameError,
    },
    /// The file is larger than [`MAX_JOURNAL`].
    #[error("journal of {0} bytes exceeds the maximum")]
    TooLarge(u64),
    /// The session's log no longer extends what was saved (a bug, not a crash).
    #[error("the session's log ({log} messages) is shorter than the journal ({saved})")]
    Diverged {
        /// Messages in the session's log.
        log: usize,
        /// Messages already saved.
        saved: usize,
    },
    /// A message could not be encoded.
    #[error("cannot encode a message: {0}")]
    Encode(FrameError),
}

impl From<JournalError> for io::Error {
    fn from(e: JournalError) -> io::Error {
        match e {
            JournalError::Io(e) => e,
            other => io::Error::new(io::ErrorKind::InvalidData, other),
        }
    }
}

/// The journal's header: what [`SavedSession`] holds besides the log.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Header {
    seat: Seat,
    rules: junqi_game::Rules,
    layout: Option<junqi_game::Layout>,
    name: String,
    seed: Seed,
    nonce: [u8; 32],
}

impl Header {
    fn of(g: &SavedSession) -> Header {
        Header {
            seat: g.seat,
            rules: g.rules,
            layout: g.layout,
            name: g.name.clone(),
            seed: g.seed.clone(),
            nonce: g.nonce,
        }
    }
}

fn header_bytes(g: &SavedSession) -> Result<Vec<u8>, JournalError> {
    let mut out = MAGIC.to_vec();
    out.extend(frame::encode_frame(&Header::of(g)).map_err(JournalError::Encode)?);
    Ok(out)
}

fn frames(log: &[Envelope<Body>]) -> Result<Vec<u8>, JournalError> {
    let mut out = Vec::new();
    for env in log {
        out.extend(frame::encode_frame(env).map_err(JournalError::Encode)?);
    }
    Ok(out)
}

/// Writes `bytes` to `path` atomically (temporary file, fsync, rename).
///
/// # Errors
/// File-system errors.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let tmp = path.with_extension("tmp");
    {
        let mut f = File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path)?;
    // The rename itself is durable only once the directory is synced (best
    // effort: not every platform can open a directory).
    if let Some(dir) = path.parent()
        && let Ok(d) = File::open(dir)
    {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Writes `game` as a whole journal (header and every message), atomically.
/// The driver appends instead ([`Journal`]); this is for a one-off save.
///
/// # Errors
/// File-system or encoding errors.
pub fn save(game: &SavedSession, path: &Path) -> Result<(), JournalError> {
    let mut bytes = header_bytes(game)?;
    bytes.extend(frames(&game.log)?);
    write_atomic(path, &bytes)?;
    Ok(())
}

/// Reads a journal: the header and every complete frame; an incomplete last
/// frame (a crash while it was appended) is dropped.
///
/// # Errors
/// File-system errors, a file that is not a journal, or damage.
pub fn load(path: &Path) -> Result<SavedSession, JournalError> {
    load_with_len(path).map(|(g, _)| g)
}

/// [`load`], also giving the length of the valid part of the file (where the
/// next frame goes).
fn load_with_len(path: &Path) -> Result<(SavedSession, u64), JournalError> {
    let mut f = File::open(path)?;
    let size = f.metadata()?.len();
    if size > MAX_JOURNAL {
        return Err(JournalError::TooLarge(size));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    f.read_to_end(&mut bytes)?;
    decode(&bytes)
}

/// One frame's payload at `at`: `Ok(None)` when the bytes end inside it.
fn payload_at(bytes: &[u8], at: usize) -> Result<Option<&[u8]>, FrameError> {
    let Some(prefix) = bytes.get(at..at + LEN_PREFIX) else {
        return Ok(None);
    };
    let len = u32::from_be_bytes([prefix[0], prefix[1], prefix[2], prefix[3]]) as usize;
    if len > MAX_FRAME {
        return Err(FrameError::Oversized {
            len,
            max: MAX_FRAME,
        });
    }
    Ok(bytes.get(at + LEN_PREFIX..at + LEN_PREFIX + len))
}

fn decode(bytes: &[u8]) -> Result<(SavedSession, u64), JournalError> {
    if bytes.get(..MAGIC.len()) != Some(MAGIC.as_slice()) {
        return Err(JournalError::BadMagic);
    }
    let mut at = MAGIC.len();
    // The header is written with the file (atomically), so it is never torn.
    let payload = payload_at(bytes, at)
        .map_err(JournalError::BadHeader)?
        .ok_or(JournalError::BadHeader(FrameError::Truncated(
            bytes.len() - at,
        )))?;
    let header: Header = frame::decode_payload(payload).map_err(JournalError::BadHeader)?;
    at += LEN_PREFIX + payload.len();
    let mut log = Vec::new();
    loop {
        let bad = |error, index| JournalError::BadFrame {
            index,
            offset: at as u64,
            error,
        };
        let Some(payload) = payload_at(bytes, at).map_err(|e| bad(e, log.len()))? else {
            // End of file, or a torn last frame: everything before it stands.
            break;
        };
        let env: Envelope<Body> = frame::decode_payload(payload).map_err(|e| bad(e, log.len()))?;
        log.push(env);
        at += LEN_PREFIX + payload.len();
    }
    let g = SavedSession {
        seat: header.seat,
        rules: header.rules,
        layout: header.layout,
        name: header.name,
        seed: header.seed,
        nonce: header.nonce,
        log,
    };
    Ok((g, at as u64))
}

/// The journal of one game in progress: appends each new message of the
/// session's log and fsyncs it.
///
/// Nothing is written until the session has a layout (a guest has one only
/// once it accepted the host's rules): the header is written once and a
/// session cannot be restored without its layout, while a guest that crashes
/// before accepting has nothing worth resuming.
#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    file: Option<File>,
    saved: usize,
    /// The layout the header holds: a player may arrange its army again
    /// until it confirms the pairing, and the header then follows.
    layout: Option<junqi_game::Layout>,
}

impl Journal {
    /// A journal for a new game at `path` (replacing any file there once the
    /// first message is saved).
    #[must_use]
    pub fn new(path: &Path) -> Journal {
        Journal {
            path: path.to_path_buf(),
            file: None,
            saved: 0,
            layout: None,
        }
    }

    /// Opens the journal at `path` to continue it: loads the game, cuts off a
    /// torn last frame, and appends from there.
    ///
    /// # Errors
    /// As [`load`].
    pub fn resume(path: &Path) -> Result<(Journal, SavedSession), JournalError> {
        let (g, valid) = load_with_len(path)?;
        let mut file = OpenOptions::new().write(true).open(path)?;
        if file.metadata()?.len() != valid {
            // Without this the next frame would follow the torn one's bytes.
            file.set_len(valid)?;
            file.sync_all()?;
        }
        file.seek(SeekFrom::End(0))?;
        let j = Journal {
            path: path.to_path_buf(),
            file: Some(file),
            saved: g.log.len(),
            layout: g.layout,
        };
        Ok((j, g))
    }

    /// Where the journal is.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Messages saved so far.
    #[must_use]
    pub fn saved(&self) -> usize {
        self.saved
    }

    /// Appends the messages `session` logged since the last call, and fsyncs
    /// them: call before sending anything, so the peer never sees a message
    /// this side could lose. Returns how many were appended.
    ///
    /// # Errors
    /// File-system errors, or a session whose log does not extend the journal.
    pub fn record(&mut self, session: &Session) -> Result<usize, JournalError> {
        let log = session.log();
        if log.len() < self.saved {
            return Err(JournalError::Diverged {
                log: log.len(),
                saved: self.saved,
            });
        }
        if self.file.is_some() && session.layout() != self.layout {
            // Rearranged before the commitment: the header is written again
            // (atomically, with the whole log), since a restore replays the
            // commitment from it.
            self.file = None;
        }
        if log.len() == self.saved && (self.file.is_some() || log.is_empty()) {
            return Ok(0);
        }
        let Some(file) = self.file.as_mut() else {
            let game = session.saved();
            if game.layout.is_none() {
                return Ok(0);
            }
            // The header and what is logged so far, created atomically.
            save(&game, &self.path)?;
            let mut f = OpenOptions::new().append(true).open(&self.path)?;
            f.seek(SeekFrom::End(0))?;
            self.file = Some(f);
            let n = game.log.len() - self.saved;
            self.saved = game.log.len();
            self.layout = game.layout;
            return Ok(n);
        };
        let bytes = frames(&log[self.saved..])?;
        file.write_all(&bytes)?;
        file.sync_data()?;
        let n = log.len() - self.saved;
        self.saved = log.len();
        Ok(n)
    }

    /// Deletes the journal (the game is over, or abandoned).
    ///
    /// # Errors
    /// File-system errors other than the file being already gone.
    pub fn remove(self) -> io::Result<()> {
        drop(self.file);
        match std::fs::remove_file(&self.path) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use junqi_game::{Mode, Rules};
    use junqi_proto::testing::Pair;

    struct Dir(PathBuf);
    impl Dir {
        fn new(tag: &str) -> Dir {
            let d = std::env::temp_dir()
                .join(format!("junqi-net-journal-{tag}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&d);
            std::fs::create_dir_all(&d).unwrap();
            Dir(d)
        }
    }
    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn played(mode: Mode, steps: usize) -> Pair {
        let mut p = Pair::new(Rules::for_mode(mode), 11);
        for _ in 0..steps {
            p.step();
        }
        p
    }

    fn same(a: &SavedSession, b: &SavedSession) {
        assert_eq!(a.seat, b.seat);
        assert_eq!(a.rules, b.rules);
        assert_eq!(a.layout, b.layout);
        assert_eq!(a.name, b.name);
        assert_eq!(a.seed.0, b.seed.0);
        assert_eq!(a.nonce, b.nonce);
        assert_eq!(a.log, b.log);
    }

    #[test]
    fn round_trip() {
        let d = Dir::new("round");
        let p = played(Mode::Dark, 60);
        let g = p.sessions[1].saved();
        assert!(g.log.len() > 5, "the game got going");
        let path = d.0.join("game.bin");
        save(&g, &path).unwrap();
        let back = load(&path).unwrap();
        same(&back, &g);
        assert!(!path.with_extension("tmp").exists());
    }

    #[test]
    fn file_grows_by_one_frame_per_message_and_resumes() {
        let d = Dir::new("grow");
        let path = d.0.join("game.bin");
        let mut p = Pair::new(Rules::for_mode(Mode::Dark), 5);
        let mut j = Journal::new(&path);
        let mut last = 0usize;
        let mut size = None::<u64>;
        for _ in 0..400 {
            p.step();
            let s = &p.sessions[0];
            let n = j.record(s).unwrap();
            let log = s.log();
            assert_eq!(j.saved(), log.len());
            let len = std::fs::metadata(&path).map(|m| m.len()).ok();
            if let (Some(before), Some(after)) = (size, len) {
                // Exactly the new messages' frames were added: nothing rewritten.
                let added: usize = log[last..]
                    .iter()
                    .map(|e| frame::encode_frame(e).unwrap().len())
                    .sum();
                assert_eq!(n, log.len() - last);
                assert_eq!(after - before, added as u64);
            }
            last = log.len();
            size = len;
            if s.is_done() {
                break;
            }
        }
        assert!(last > 20, "a long enough game: {last} messages");
        // Resume the journal and keep appending.
        drop(j);
        let (mut j2, g) = Journal::resume(&path).unwrap();
        same(&g, &p.sessions[0].saved());
        assert_eq!(j2.record(&p.sessions[0]).unwrap(), 0);
        j2.remove().unwrap();
        assert!(!path.exists());
    }

    #[test]
    fn a_torn_last_frame_is_dropped_and_cut_off() {
        let d = Dir::new("torn");
        let path = d.0.join("game.bin");
        let g = played(Mode::Dark, 60).sessions[0].saved();
        let n = g.log.len();
        save(&g, &path).unwrap();
        let full = std::fs::read(&path).unwrap();
        let last = frame::encode_frame(&g.log[n - 1]).unwrap().len();
        // Every cut inside the last frame (prefix or payload) loses that message only.
        for cut in 1..last {
            std::fs::write(&path, &full[..full.len() - cut]).unwrap();
            let back = load(&path).unwrap();
            assert_eq!(back.log.len(), n - 1, "cut {cut}");
            assert_eq!(back.log[..], g.log[..n - 1]);
        }
        // Resuming cuts the torn bytes off, so the next frame follows the last good one.
        std::fs::write(&path, &full[..full.len() - 3]).unwrap();
        let (mut j, back) = Journal::resume(&path).unwrap();
        assert_eq!(back.log.len(), n - 1);
        assert_eq!(
            std::fs::metadata(&path).unwrap().len(),
            (full.len() - last) as u64
        );
        // Appending the lost message again gives the whole file back.
        let bytes = frame::encode_frame(&g.log[n - 1]).unwrap();
        j.file.as_mut().unwrap().write_all(&bytes).unwrap();
        drop(j);
        assert_eq!(std::fs::read(&path).unwrap(), full);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        /// Whatever a crash or a disk does to a journal, reading it gives a game or an error,
        /// never a panic; a cut anywhere after the header keeps exactly the whole frames before it.
        #[test]
        fn damaged_journals_never_panic(
            cut in 0usize..4000,
            flips in proptest::collection::vec((0usize..4000, 0u8..=255), 0..6),
        ) {
            let g = journal_game();
            let mut bytes = header_bytes(&g).unwrap();
            let header = bytes.len();
            bytes.extend(frames(&g.log).unwrap());
            let cut = cut.min(bytes.len());
            let cut_bytes = &bytes[..cut];
            match decode(cut_bytes) {
                Ok((back, valid)) => {
                    proptest::prop_assert!(cut >= header);
                    proptest::prop_assert_eq!(&back.log[..], &g.log[..back.log.len()]);
                    proptest::prop_assert!(valid as usize <= cut);
                    // The next frame would not have fitted: nothing whole was dropped.
                    if let Some(next) = g.log.get(back.log.len()) {
                        let f = frame::encode_frame(next).unwrap().len();
                        proptest::prop_assert!(valid as usize + f > cut);
                    }
                }
                Err(_) => proptest::prop_assert!(cut < header),
            }
            let mut bad = bytes.clone();
            for (at, b) in flips {
                if let Some(x) = bad.get_mut(at) {
                    *x ^= b;
                }
            }
            let _ = decode(&bad);
        }
    }

    /// A short dark game's log, made once.
    fn journal_game() -> SavedSession {
        static GAME: std::sync::OnceLock<SavedSession> = std::sync::OnceLock::new();
        GAME.get_or_init(|| played(Mode::Dark, 30).sessions[0].saved())
            .clone()
    }

    #[test]
    fn garbage_is_refused_with_a_clear_error() {
        let d = Dir::new("garbage");
        let path = d.0.join("game.bin");
        std::fs::write(&path, b"definitely not a journal").unwrap();
        assert!(matches!(load(&path), Err(JournalError::BadMagic)));
        std::fs::write(&path, b"").unwrap();
        assert!(matches!(load(&path), Err(JournalError::BadMagic)));
        // The right magic, then a header that does not decode.
        let mut bad = MAGIC.to_vec();
        bad.extend([0, 0, 0, 3, 0xff, 0xff, 0xff]);
        std::fs::write(&path, &bad).unwrap();
        assert!(matches!(load(&path), Err(JournalError::BadHeader(_))));
        // A header cut short.
        let mut short = MAGIC.to_vec();
        short.extend([0, 0, 0, 200, 1]);
        std::fs::write(&path, &short).unwrap();
        assert!(matches!(load(&path), Err(JournalError::BadHeader(_))));
        // A complete frame in the middle that does not decode is damage, not a torn tail.
        let g = played(Mode::Open, 40).sessions[0].saved();
        save(&g, &path).unwrap();
        let mut bytes = std::fs::read(&path).unwrap();
        let header = header_bytes(&g).unwrap().len();
        let first = frame::encode_frame(&g.log[0]).unwrap().len();
        for b in &mut bytes[header + LEN_PREFIX..header + first] {
            *b = 0xff;
        }
        std::fs::write(&path, &bytes).unwrap();
        match load(&path) {
            Err(JournalError::BadFrame { index, offset, .. }) => {
                assert_eq!(index, 0);
                assert_eq!(offset, header as u64);
            }
            other => panic!("expected damage, got {other:?}"),
        }
        // An absurd length prefix is damage too, and allocates nothing.
        let mut huge = header_bytes(&g).unwrap();
        huge.extend(u32::MAX.to_be_bytes());
        std::fs::write(&path, &huge).unwrap();
        assert!(matches!(
            load(&path),
            Err(JournalError::BadFrame {
                error: FrameError::Oversized { .. },
                ..
            })
        ));
        assert!(matches!(
            load(&d.0.join("missing.bin")),
            Err(JournalError::Io(_))
        ));
    }
}
