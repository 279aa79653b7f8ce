//! The lobby's state: the games and tables found, where the lobby is (browsing, hosting,
//! joining, pairing, arranging), and what its buttons ask for. Apart from the lobby's systems
//! ([`super::lobby`]) so that the four-seat tables' panel ([`super::lobby_table`]) and the setup
//! screen read it without naming the lobby's screen.

#[cfg(feature = "dev")]
use std::sync::{Mutex, mpsc};
use std::time::Instant;

use bevy::prelude::*;
use junqi_game::Rules;
use junqi_net::discovery::{Discovery, Lobby};
use junqi_net::peer::{PeerError, Unfinished};

use crate::lan::default_name;

/// Where the lobby is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum LobbyPhase {
    /// Listing hosts.
    #[default]
    Browsing,
    /// Hosting: waiting for a guest.
    Hosting {
        /// The port, once listening.
        port: Option<u16>,
        /// The advertised rules summary.
        rules: String,
    },
    /// Connecting to a host.
    Joining {
        /// The host's name.
        host: String,
    },
    /// Resuming the unfinished game: reconnecting to the peer.
    Resuming {
        /// The peer's name.
        peer: String,
    },
    /// Both nonces are in: the players compare the pairing code on both screens before anything
    /// about the setup is sent.
    Pairing {
        /// The pairing code.
        code: String,
        /// The peer's name.
        peer: String,
        /// The host's rules.
        rules: Rules,
        /// Whether this side hosts.
        host: bool,
    },
    /// The codes matched: each player arranges its army on the setup screen; play begins once
    /// both are ready.
    Arranging {
        /// The pairing code.
        code: String,
        /// The peer's name.
        peer: String,
    },
}

/// The lobby's state.
#[derive(Resource)]
pub struct LobbyState {
    /// Hosts found, in order of discovery (capped by count and age).
    pub hosts: Lobby,
    /// Where the lobby is.
    pub phase: LobbyPhase,
    /// The last error.
    pub error: Option<PeerError>,
    /// The player's display name.
    pub name: String,
    /// Advertise by mDNS when hosting (off in tests: listen on 127.0.0.1 only).
    pub mdns: bool,
    /// Why the last LAN session ended before play began (the verdict's kind, shown
    /// translated).
    pub ended: Option<junqi_net::FaultKind>,
    /// The peer is ready (its army committed), perhaps before this player compared the codes.
    pub peer_ready: bool,
    /// An unfinished LAN game saved by an earlier run (after a crash, say): offered to resume.
    pub unfinished: Option<Unfinished>,
    /// Discoveries fed by a test instead of the LAN plugin's browser (feature `dev`).
    #[cfg(feature = "dev")]
    pub(super) feed: Option<Mutex<mpsc::Receiver<Discovery>>>,
}

impl Default for LobbyState {
    fn default() -> Self {
        Self {
            hosts: Lobby::new(),
            phase: LobbyPhase::Browsing,
            error: None,
            name: default_name(),
            mdns: true,
            unfinished: None,
            peer_ready: false,
            ended: None,
            #[cfg(feature = "dev")]
            feed: None,
        }
    }
}

impl LobbyState {
    /// Takes discoveries from `rx` instead of mDNS (tests; feature `dev`).
    #[cfg(feature = "dev")]
    pub fn set_feed(&mut self, rx: mpsc::Receiver<Discovery>) {
        self.feed = Some(Mutex::new(rx));
    }

    /// Whether discoveries come from a test's feed instead of mDNS (never without `dev`).
    pub(super) fn fed(&self) -> bool {
        #[cfg(feature = "dev")]
        let fed = self.feed.is_some();
        #[cfg(not(feature = "dev"))]
        let fed = false;
        fed
    }

    /// Whether a LAN session is being set up and play has not begun.
    pub fn before_play(&self) -> bool {
        matches!(
            self.phase,
            LobbyPhase::Hosting { .. }
                | LobbyPhase::Joining { .. }
                | LobbyPhase::Resuming { .. }
                | LobbyPhase::Pairing { .. }
                | LobbyPhase::Arranging { .. }
        )
    }

    /// Applies one discovery to the list (four-seat tables are listed apart, by
    /// [`super::lobby_table`]).
    pub fn apply(&mut self, d: Discovery) {
        self.hosts.apply(d, Instant::now());
    }
}

/// What the lobby's buttons ask for.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum LobbyAction {
    /// Go to the setup screen to choose the options, then host.
    Host,
    /// Host now with the setup screen's options and layout.
    StartHosting,
    /// Join the host with this mDNS full name.
    Join(String),
    /// The pairing codes match on both screens: arrange the army.
    ConfirmPairing,
    /// Resume the unfinished game.
    Resume,
    /// Delete the unfinished game.
    Discard,
    /// Stop hosting or joining (also: the pairing codes differ).
    Cancel,
}
