//! The fair-play protocol's sans-IO core.
//!
//! Two programs play Junqi with no referee and no server: each learns exactly
//! what a referee would announce, and every cheat is detected and blamed
//! (`shared/FAIRPLAY.md`). This crate has no socket, no runtime and no clock
//! (like quinn-proto): the compiler guarantees that. Layers:
//!
//! - [`crypto`]: `H(context, parts…)` and `PRF(seed, label, index)`;
//! - [`commit`]: setup commitments and openings;
//! - [`announced`]: the referee's announcements as a battle delivers them, and the table `f(c, d)`;
//! - [`ot`]: the battle oblivious transfer and its audit;
//! - [`flip`]: the flip-game double shuffle;
//! - [`envelope`] and [`frame`]: signed hash-chained messages and their framing;
//! - [`wire`]: the protocol messages and the mapping to the engine's types;
//! - [`fault`]: why a side is blamed, as a typed kind, and [`findings`]: the
//!   precise findings inside it;
//! - [`four`]: four seats at one table, relayed through the host;
//! - [`session`]: the state machine of one side; [`audit`]: the end-of-game
//!   audit; [`log_audit`]: the same audit from a signed log alone, for a
//!   third party; [`saved`]: what a side keeps to resume;
//! - `testing` (feature `testing`): a two-peer harness with a virtual clock,
//!   scripted cheaters and a hostile peer.

pub mod announced;
pub mod audit;
pub mod cheats;
pub mod commit;
pub mod crypto;
pub mod envelope;
pub mod evidence;
pub mod fault;
pub mod findings;
pub mod flip;
pub mod four;
pub mod frame;
pub mod log_audit;
pub mod ot;
pub mod rank;
pub mod saved;
pub mod session;
#[cfg(feature = "testing")]
pub mod testing;
pub mod wire;

pub use announced::{Announced, AnnouncementTable};
pub use crypto::{Digest, Seed};
pub use evidence::Evidence;
pub use fault::FaultKind;
pub use rank::{Seat, WireRank};
