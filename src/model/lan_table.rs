//! What the player knows of a four-seat LAN table beyond the board: the seat table (names, who
//! runs each seat, connection), a draw offer to answer, and the table's verdict.

use junqi_game::Side;
use junqi_net::four::{FourSeat, FourVerdict};
use junqi_net::table_handle::SeatInfo;

/// A four-seat LAN table (四国大战 over the LAN).
#[derive(Clone, Debug, Default)]
pub struct LanTable {
    /// Whether this device hosts (it sees every seat's connection; a guest its own, and the
    /// others' as the host reports them).
    pub host: bool,
    /// Each seat as this device knows it, in seat order ([`FourSeat::index`]; see [`Self::seat`]).
    pub seats: [SeatInfo; 4],
    /// The seat that offered the draw the player must answer.
    pub draw_by: Option<Side>,
    /// The table's end for this seat (the record, once audited).
    pub verdict: Option<Box<FourVerdict>>,
}

impl LanTable {
    /// The seat of `side` as this device knows it ([`Self::seats`] is in seat order, which is
    /// not the engine's [`Side::index`]).
    pub fn seat(&self, side: Side) -> &SeatInfo {
        &self.seats[FourSeat::of_side(side).index()]
    }

    /// The name in `side`'s hello, once in.
    pub fn name(&self, side: Side) -> Option<&str> {
        self.seat(side).name.as_deref()
    }
}
