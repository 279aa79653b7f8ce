//! Junqi over the LAN: QUIC transport, mDNS discovery and saving, around the
//! sans-IO protocol core of [`junqi_proto`] (re-exported here).
//!
//! - [`transport`] (QUIC), [`discovery`] (mDNS) and [`resume`] (saving): the
//!   I/O shell;
//! - [`table`]: the four-seat driver (a star through the host);
//!   [`table_journal`]: its crash journal; [`link_notice`]: the host's
//!   advisory notice of every seat's link, for the guests' seat tables;
//! - [`peer`]: the shell behind one handle, for the app and `junqi-peer`: a
//!   game's thread, runtime, connection, advertisement, identity and journal;
//! - everything else is `junqi-proto`'s.

pub mod discovery;
pub mod link_notice;
pub mod peer;
pub mod resume;
pub mod table;
pub mod table_handle;
pub mod table_journal;
pub mod transport;

#[cfg(feature = "testing")]
pub use junqi_proto::testing;
pub use junqi_proto::{
    Announced, AnnouncementTable, Digest, FaultKind, Seat, Seed, WireRank, announced, audit,
    commit, crypto, envelope, fault, findings, flip, four, frame, log_audit, ot, rank, saved,
    session, wire,
};
