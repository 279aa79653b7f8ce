//! Fair-play protocol for LAN games.
//!
//! Two programs play Junqi with no referee and no server: each learns exactly
//! what a referee would announce, and every cheat is detected and blamed
//! (`shared/FAIRPLAY.md`). The crate is layered like quinn-proto:
//!
//! - [`crypto`]: `H(context, parts…)` and `PRF(seed, label, index)`;
//! - [`commit`]: setup commitments and openings;
//! - [`outcome`]: the referee's announcements and the table `f(c, d)`;
//! - [`ot`]: the battle oblivious transfer and its audit;
//! - [`flip`]: the flip-game double shuffle;
//! - [`envelope`] and [`frame`]: signed hash-chained messages and their framing;
//! - [`wire`]: the protocol messages and the mapping to the engine's types;
//! - [`session`]: the sans-IO state machine of one side; [`audit`]: the
//!   end-of-game audit; [`testing`]: a two-peer harness with a virtual clock;
//! - [`transport`] (QUIC), [`discovery`] (mDNS) and [`resume`] (saving): the
//!   thin I/O shell.

pub mod audit;
pub mod commit;
pub mod crypto;
pub mod discovery;
pub mod envelope;
pub mod flip;
pub mod frame;
pub mod ot;
pub mod outcome;
pub mod rank;
pub mod resume;
pub mod session;
pub mod testing;
pub mod transport;
pub mod wire;

pub use crypto::{Digest, Seed};
pub use outcome::{Outcome, OutcomeTable, Removal};
pub use rank::{Rank, Seat};
