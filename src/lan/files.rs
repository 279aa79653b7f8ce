//! The LAN folder's files: the journal of the game in progress and how to reach its peer again
//! ([`unfinished`], [`discard`]), and a finished game's signed log kept next to its record
//! ([`keep_journal`]), from where the replay screen exports it for `junqi-audit`
//! ([`export_for_audit`]).

use std::io;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use junqi_game::{Mode, Side};
use junqi_net::envelope::Envelope;
use junqi_net::wire::Body;
use serde::{Deserialize, Serialize};

/// The journal of the game in progress, in the LAN folder ([`crate::storage::DataDir::lan`]).
pub const JOURNAL: &str = "game.bin";
/// How to reach the peer again after a crash, next to the journal.
pub const LINK: &str = "link.json";

/// How to reach the peer of the saved game again: the host listens on the
/// same port, the guest connects to the same address.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct Link {
    pub(super) host: bool,
    /// Host: the port it listened on.
    pub(super) port: u16,
    /// Host: whether it advertised by mDNS (and listened on every interface).
    pub(super) mdns: bool,
    /// Guest: the host's address.
    pub(super) addr: Option<SocketAddr>,
    /// Display name.
    pub(super) name: String,
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

pub(super) fn read_link(dir: &Path) -> io::Result<Link> {
    let text = std::fs::read_to_string(dir.join(LINK))?;
    serde_json::from_str(&text).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

/// The name in the other side's hello.
pub(super) fn hello_name(log: &[Envelope<Body>], me: Side) -> Option<String> {
    log.iter().find_map(|e| match &e.body {
        Body::Hello { name, .. } if junqi_net::wire::side_of(e.header.sender) != me => {
            Some(name.clone())
        }
        _ => None,
    })
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
