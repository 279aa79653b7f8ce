//! The game model the screens, LAN play, the sound and suspending all share: the game being
//! played ([`ActiveGame`]) and whom it is against ([`Opponent`], a LAN game's [`LanGame`]), and
//! the last finished one ([`LastGame`]). It depends on no screen and no plugin; they depend on it.

mod active;
mod lan;
mod lan_table;
mod last;
mod opponent;

pub use active::{ActiveGame, DEFAULT_UNDOS};
pub use lan::LanGame;
pub use lan_table::LanTable;
pub use last::{LastGame, NotSaved};
pub use opponent::Opponent;

/// Seconds since 1970 (when a game starts, for its record).
pub fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}
