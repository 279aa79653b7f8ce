//! The data folder's files of LAN play: the identity ([`crate::transport::Identity`]), the
//! journal of the game in progress ([`JOURNAL`]) and how to reach its peer again ([`LINK`]),
//! finished games' signed logs ([`FINISHED_PREFIX`]), and the unfinished game a crash left
//! ([`unfinished`], [`discard`]).

use std::io;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

use junqi_game::{Mode, Side};
use serde::{Deserialize, Serialize};

use crate::envelope::Envelope;
use crate::wire::{Body, side_of};

use super::error::PeerError;

/// The journal of the game in progress.
pub const JOURNAL: &str = "game.bin";
/// How to reach the peer again after a crash, next to the journal.
pub const LINK: &str = "link.json";
/// A finished game's signed log is kept as `finished-<game id>.bin`.
pub const FINISHED_PREFIX: &str = "finished-";

/// How to reach the peer of the saved game again: the host listens on the same port, the guest
/// connects to the same address.
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

pub(super) fn read_link(dir: &Path) -> Result<Link, PeerError> {
    let text = std::fs::read_to_string(dir.join(LINK)).map_err(PeerError::storage)?;
    serde_json::from_str(&text)
        .map_err(|e| PeerError::Storage(Arc::new(io::Error::new(io::ErrorKind::InvalidData, e))))
}

pub(super) fn write_link(dir: &Path, link: &Link) -> Result<(), PeerError> {
    let text = serde_json::to_string(link)
        .map_err(|e| PeerError::Storage(Arc::new(io::Error::other(e))))?;
    crate::resume::write_atomic(&dir.join(LINK), text.as_bytes()).map_err(PeerError::storage)
}

/// An unfinished LAN game found in the data folder: to offer to resume.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unfinished {
    /// The peer's name.
    pub peer: String,
    /// The game's mode.
    pub mode: Mode,
    /// Two players on the four-player board ([`junqi_game::Rules::four_player_board`]).
    pub big_board: bool,
    /// Whether this side hosted.
    pub host: bool,
    /// Messages saved so far.
    pub messages: usize,
}

/// The unfinished game saved in `dir`, if there is one that both sides had joined (a game
/// nobody joined is not worth offering).
///
/// # Errors
/// An unreadable link file, or a journal that is not one or is damaged.
pub fn unfinished(dir: &Path) -> Result<Option<Unfinished>, PeerError> {
    let (journal, link) = (dir.join(JOURNAL), dir.join(LINK));
    if !journal.exists() || !link.exists() {
        return Ok(None);
    }
    let link = read_link(dir)?;
    let saved = crate::resume::load(&journal)?;
    let me = side_of(saved.seat);
    let Some(peer) = hello_name(&saved.log, me) else {
        return Ok(None);
    };
    Ok(Some(Unfinished {
        peer,
        mode: saved.rules.mode,
        big_board: saved.rules.four_player_board,
        host: link.host,
        messages: saved.log.len(),
    }))
}

/// Deletes the saved game in `dir` (the player chose not to resume it).
pub fn discard(dir: &Path) {
    let _ = std::fs::remove_file(dir.join(JOURNAL));
    let _ = std::fs::remove_file(dir.join(LINK));
}

/// The name in the other side's hello.
pub(super) fn hello_name(log: &[Envelope<Body>], me: Side) -> Option<String> {
    log.iter().find_map(|e| match &e.body {
        Body::Hello { name, .. } if side_of(e.header.sender) != me => Some(name.clone()),
        _ => None,
    })
}
