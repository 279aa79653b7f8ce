//! Why a LAN game could not go on: [`PeerError`].

use std::io;
use std::sync::Arc;

use crate::session::SessionError;

/// Why a LAN game could not go on.
#[derive(Clone, Debug, thiserror::Error)]
pub enum PeerError {
    /// The data folder could not be used (the identity, the link file).
    #[error("the data folder: {0}")]
    Storage(Arc<io::Error>),
    /// The journal is damaged or could not be written.
    #[error("the game's journal: {0}")]
    Journal(Arc<io::Error>),
    /// There is no saved game to resume.
    #[error("no unfinished game to resume")]
    NothingToResume,
    /// The saved game does not replay to the same messages.
    #[error("the saved game does not replay: {0}")]
    Restore(junqi_proto::session::ReplayError),
    /// The session refused to start (an illegal layout).
    #[error("cannot start: {0}")]
    Session(SessionError),
    /// The network (the socket, TLS, mDNS).
    #[error("the network: {0}")]
    Network(Arc<io::Error>),
    /// The game's thread could not be started.
    #[error("cannot start the network thread: {0}")]
    Thread(Arc<io::Error>),
}

impl PeerError {
    pub(super) fn storage(e: io::Error) -> PeerError {
        PeerError::Storage(Arc::new(e))
    }

    pub(super) fn network(e: io::Error) -> PeerError {
        // The driver marks a journal that cannot be written as invalid data.
        if e.kind() == io::ErrorKind::InvalidData {
            PeerError::Journal(Arc::new(e))
        } else {
            PeerError::Network(Arc::new(e))
        }
    }
}

impl From<crate::resume::JournalError> for PeerError {
    fn from(e: crate::resume::JournalError) -> PeerError {
        PeerError::Journal(Arc::new(e.into()))
    }
}
