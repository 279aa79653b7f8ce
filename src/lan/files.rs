//! A finished LAN game's signed log kept next to its record ([`keep_journal`]), from where the
//! replay screen exports it for `junqi-audit` ([`export_for_audit`]).

use std::io;
use std::path::{Path, PathBuf};

use crate::i18n::Lang;

/// Why a record's signed log could not be exported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExportError {
    /// No signed log was kept for this record (a game against the computer, say).
    NoJournal,
    /// The kept log is damaged (it is not handed on).
    Damaged,
    /// Reading or writing failed (the system's error kind, for the log).
    Io(io::ErrorKind),
}

impl ExportError {
    /// What the player reads, in `lang`.
    pub fn message(&self, lang: Lang) -> &'static str {
        match self {
            ExportError::NoJournal => lang.t("err.no_journal"),
            ExportError::Damaged => lang.t("err.journal"),
            ExportError::Io(_) => lang.t("err.io"),
        }
    }
}

impl From<io::Error> for ExportError {
    fn from(e: io::Error) -> Self {
        match e.kind() {
            io::ErrorKind::NotFound => ExportError::NoJournal,
            kind => ExportError::Io(kind),
        }
    }
}

/// Where a saved LAN record's signed log is kept: `game-N.journal` next to `game-N.json`.
pub fn record_journal(record: &Path) -> PathBuf {
    record.with_extension("journal")
}

/// Moves a finished game's kept journal ([`junqi_net::peer::PeerEvent::Kept`]) next to its saved record
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
/// No journal kept for this record, a damaged one, or a read or write error.
pub fn export_for_audit(
    dir: &crate::storage::DataDir,
    record: &Path,
) -> Result<PathBuf, ExportError> {
    let from = record_journal(record);
    let bytes = std::fs::read(&from)?;
    if junqi_net::table::is_table_file(&bytes) {
        // A four-seat table's signed log.
        junqi_net::table::load_log(&bytes).map_err(|_| ExportError::Damaged)?;
    } else {
        junqi_net::resume::load(&from).map_err(|e| match e {
            junqi_net::resume::JournalError::Io(e) => ExportError::from(e),
            _ => ExportError::Damaged,
        })?;
    }
    let stem = record
        .file_stem()
        .and_then(|s| s.to_str())
        .ok_or(ExportError::Io(io::ErrorKind::InvalidInput))?;
    let out = dir.exports();
    std::fs::create_dir_all(&out)?;
    let to = out.join(format!("{stem}-audit.bin"));
    junqi_net::resume::write_atomic(&to, &bytes)?;
    Ok(to)
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
        assert_eq!(e, ExportError::NoJournal);
        // A damaged one is refused, and nothing is written.
        std::fs::write(record_journal(&record), b"not a journal").unwrap();
        let e = export_for_audit(&dir, &record).unwrap_err();
        assert_eq!(e, ExportError::Damaged);
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
