//! What the player knows of a LAN game beyond the board.

use junqi_game::{PlayerView, Side};
use junqi_net::session::Verdict;

/// What the player knows of a LAN game beyond the board.
#[derive(Clone, Debug, Default)]
pub struct LanGame {
    /// The peer's name.
    pub peer: String,
    /// The view play began from ([`junqi_net::peer::PeerEvent::Started`]): a voided move
    /// rewinds the board to it and the events that still stand.
    pub start: Option<Box<PlayerView>>,
    /// The pairing code (配对码) both screens show.
    pub code: String,
    /// Whether the connection to the peer is up.
    pub connected: bool,
    /// How many times the connection dropped (each time it reconnects and resumes).
    pub drops: u32,
    /// The peer offers a draw.
    pub draw_offered: bool,
    /// The peer broke the protocol: who and why.
    pub fault: Option<(Side, junqi_net::FaultKind)>,
    /// The end-of-game audit.
    pub verdict: Option<Verdict>,
    /// Where the finished game's signed log was kept ([`junqi_net::peer::PeerEvent::Kept`]): moved
    /// next to the saved record, for the replay screen's audit export.
    pub journal: Option<std::path::PathBuf>,
    /// A four-seat table's seats and verdict (`None`: a two-player game).
    pub table: Option<Box<super::LanTable>>,
}
