//! Finding hosts on the LAN: a [`Browser`] owns the mDNS daemon while a lobby is open.

use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

use crate::discovery::{Discovery, browse};

use super::error::PeerError;

/// Hosts appearing and disappearing on the LAN, while it lives (dropping it stops browsing).
pub struct Browser {
    daemon: mdns_sd::ServiceDaemon,
    found: Mutex<mpsc::Receiver<Discovery>>,
}

impl std::fmt::Debug for Browser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Browser").finish_non_exhaustive()
    }
}

impl Browser {
    /// Starts browsing.
    ///
    /// # Errors
    /// The mDNS daemon could not start (no network, say).
    pub fn start() -> Result<Browser, PeerError> {
        let (daemon, rx) =
            browse().map_err(|e| PeerError::Network(Arc::new(std::io::Error::other(e))))?;
        Ok(Browser {
            daemon,
            found: Mutex::new(rx),
        })
    }

    /// The next discovery, if one came.
    pub fn try_recv(&self) -> Option<Discovery> {
        self.lock().try_recv().ok()
    }

    /// The next discovery, waiting up to `timeout` for it.
    pub fn recv_timeout(&self, timeout: Duration) -> Option<Discovery> {
        self.lock().recv_timeout(timeout).ok()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, mpsc::Receiver<Discovery>> {
        self.found
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.daemon.shutdown();
    }
}
