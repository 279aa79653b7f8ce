//! Four seats at one table (四国大战, issue 47): the two-player protocol's
//! pieces (commitments, the battle oblivious transfer, the announcement
//! table from the engine, signatures) put together for four seats that talk
//! through the host (a star), as `net/README.md` ("Four seats") describes.
//!
//! - [`seat`]: the four seats and their wire codes;
//! - [`hello`]: one game id and one pairing code from all four hellos;
//! - [`body`]: the messages; [`log`]: the one signed log of rounds, with
//!   witnesses that expose a seat showing different messages to different seats;
//! - [`battle`]: what a watching seat reads from a battle; [`partner`]: the
//!   双明 reveal encrypted to the partner;
//! - [`session`]: one seat's state machine (play in `play.rs`, the end in
//!   `end.rs`); [`audit`]: the audit over the four armies from the log alone;
//! - [`fault`]: blame naming a seat; [`rejoin`]: a seat's device coming back;
//!   `resume.rs`: a seat rebuilt from its journal after a crash;
//! - `harness` (feature `testing`): four seats in one process on a virtual
//!   clock, relayed by the host, with a hostile relay.

pub mod audit;
pub mod battle;
pub mod body;
mod clock;
mod draw;
mod end;
pub mod fault;
#[cfg(feature = "testing")]
pub mod harness;
pub mod hello;
pub mod log;
pub mod partner;
mod play;
mod play_state;
pub mod rejoin;
mod resume;
pub mod seat;
pub mod session;

pub use audit::{AuditGap, AuditOutcome, audit_table};
pub use body::Body4;
pub use fault::{Blame, FourFault, Unplayed};
pub use play::leave_result;
pub use resume::ResumeError;
pub use seat::FourSeat;
pub use session::{Ending, FourCallError, FourConfig, FourEvent, FourSession, FourVerdict};
