//! LAN play, as one plugin that owns junqi-net's handle on a game ([`LanLink`], a
//! [`junqi_net::peer::PeerHandle`]) and, while a lobby is open, its host browser
//! ([`LanBrowsing`]): screens ask for things with [`LanRequest`] messages (browse, host, join,
//! resume, a decision, leave) and follow the game through [`LanEvent`] messages (the handle's
//! reports, one by one) and the hosts found through [`LanFound`]; no screen starts, holds or
//! stops the network, and this module knows no screen.
//!
//! - [`plugin`](mod@plugin): the resources' owner; forwards the handle's reports and the screens' requests.
//! - [`play`]: the game side: a LAN game's [`crate::model::ActiveGame`] is created from the
//!   snapshot when play begins and follows the events that come after it.
//! - [`table`], [`table_play`]: four-seat tables (四国大战), the same way: the table's handle
//!   and its game side.
//! - [`files`]: finished games' signed logs kept next to their records, for `junqi-audit`.
//! - [`multicast`]: the Wi-Fi multicast lock mDNS needs on Android.

pub mod files;
pub mod multicast;
pub mod play;
pub mod plugin;
pub mod table;
pub mod table_play;

pub use files::{ExportError, export_for_audit, keep_journal, record_journal};
pub use plugin::{LanBrowsing, LanEvent, LanFound, LanLink, LanRequest};

use bevy::prelude::*;

/// LAN play: the handle's owner, then the game side and the multicast lock, which follow it.
pub fn plugin(app: &mut App) {
    app.add_plugins((
        plugin::plugin,
        play::plugin,
        multicast::plugin,
        table::plugin,
        table_play::plugin,
    ));
}

/// What the default display names start with.
pub const DEFAULT_NAME_PREFIX: &str = "junqi-";

/// The player's display name on the LAN.
pub fn default_name() -> String {
    let user = std::env::var("USER")
        .or_else(|_| std::env::var("USERNAME"))
        .unwrap_or_default();
    let user: String = user
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == '-')
        .take(20)
        .collect();
    if user.is_empty() {
        "junqi".into()
    } else {
        format!("{DEFAULT_NAME_PREFIX}{user}")
    }
}
