//! Who the player faces: the computer, a LAN peer, or computers round a four-player table.

use junqi_game::Side;

use super::LanGame;

/// Who the player faces.
#[derive(Clone, Debug)]
// One per game, inside a resource: boxing the LAN state would save nothing worth the noise.
#[allow(clippy::large_enum_variant)]
pub enum Opponent {
    /// The computer at level 1…4.
    Ai {
        /// The level.
        level: u8,
    },
    /// A player on the LAN.
    Lan(LanGame),
    /// Four-player games (四国): the computer at a level in each other seat (by
    /// [`Side::index`]; the player's own entry is unused).
    Table {
        /// The levels.
        levels: [u8; 4],
    },
}

impl Opponent {
    /// The computer's level in `seat`, if the computer plays it.
    pub fn level(&self, seat: Side) -> Option<u8> {
        match self {
            Opponent::Ai { level } => Some(*level),
            Opponent::Table { levels } => Some(levels[seat.index()]),
            Opponent::Lan(_) => None,
        }
    }
}
