//! Saving a game to disk after every message, atomically.
//!
//! Each side keeps its signed log and its seed in one file, rewritten through
//! a temporary file and a rename after every message, so a crash leaves
//! either the old or the new file, never a torn one.

use std::io::{self, Write};
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::crypto::{Digest, Seed};
use crate::envelope::Envelope;
use crate::rank::Seat;
use crate::wire::Body;

/// Writes `bytes` to `path` atomically (temporary file, fsync, rename).
///
/// # Errors
/// File-system errors.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let tmp = path.with_extension("tmp");
    {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path)
}

/// What is saved of a game in progress: enough to rebuild the session by
/// replaying the log ([`crate::session::Session::restore`]).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SavedGame {
    /// Host or guest.
    pub seat: Seat,
    /// The rules (the host's; the guest's come from the log).
    pub rules: junqi_game::Rules,
    /// This side's layout.
    pub layout: Option<junqi_game::Layout>,
    /// Display name.
    pub name: String,
    /// The game seed (secret until the audit).
    pub seed: Seed,
    /// This side's hello nonce.
    pub nonce: [u8; 32],
    /// Every message sent and received, in processing order.
    pub log: Vec<Envelope<Body>>,
}

/// The first frame on every stream, before any protocol message: which game
/// and how many of the peer's messages this side already has, so that after
/// a reconnection each side resends exactly what the other missed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StreamStart {
    /// The game id (zeros for a new game).
    pub game: Digest,
    /// Messages received from the peer so far.
    pub have: u64,
}

impl SavedGame {
    /// Saves to `path` atomically.
    ///
    /// # Errors
    /// File-system or encoding errors.
    pub fn save(&self, path: &Path) -> io::Result<()> {
        let bytes = bincode::serde::encode_to_vec(self, bincode::config::standard())
            .map_err(io::Error::other)?;
        write_atomic(path, &bytes)
    }

    /// Loads from `path`.
    ///
    /// # Errors
    /// File-system or decoding errors.
    pub fn load(path: &Path) -> io::Result<SavedGame> {
        let bytes = std::fs::read(path)?;
        let (g, _) = bincode::serde::decode_from_slice(
            &bytes,
            bincode::config::standard().with_limit::<{ 64 << 20 }>(),
        )
        .map_err(io::Error::other)?;
        Ok(g)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_whole_file() {
        let dir = std::env::temp_dir().join(format!("junqi-net-resume-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("game.bin");
        let g = SavedGame {
            seat: Seat::Host,
            rules: junqi_game::Rules::default(),
            layout: None,
            name: "h".into(),
            seed: Seed([1; 32]),
            nonce: [2; 32],
            log: Vec::new(),
        };
        g.save(&p).unwrap();
        let back = SavedGame::load(&p).unwrap();
        assert_eq!(back.seed, g.seed);
        assert!(!p.with_extension("tmp").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
