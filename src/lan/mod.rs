//! LAN play, as one plugin that owns the link to the network thread: screens ask for things
//! with [`LanRequest`] messages (host, join, resume, a move, a draw answer, leave) and follow
//! the game through [`LanEvent`] messages (the network session's events, forwarded one by one);
//! no screen starts, holds or stops the network.
//!
//! - [`link`]: the network thread running junqi-net's one driver, and what crosses between it
//!   and Bevy ([`LanCmd`], [`LanMsg`]).
//! - [`plugin`]: the [`LanLink`] resource's owner; forwards the thread's reports as
//!   [`LanEvent`]s and the screens' [`LanRequest`]s to the thread.
//! - [`play`]: the game side: a LAN game's [`crate::screens::game::ActiveGame`] is created when
//!   play begins and follows the forwarded events.
//! - [`files`]: the LAN folder's journal, the unfinished game offered after a crash of the app
//!   ([`unfinished`], [`Role::Resume`]), and finished games' signed logs kept for `junqi-audit`.

pub mod files;
pub mod link;
pub mod multicast;
pub mod play;
pub mod plugin;

pub use files::{
    JOURNAL, LINK, Unfinished, discard, export_for_audit, keep_journal, record_journal, unfinished,
};
pub use link::{LanCmd, LanLink, LanMsg, Role, default_name};
pub use plugin::{LanEvent, LanRequest, plugin};
