//! The new-game options ([`MatchOptions`]): the table, the rules, the computer's levels, who
//! starts, the takebacks.

use junqi_game::{Board, Mode, Rules, Side};
use serde::{Deserialize, Serialize};

use crate::model::DEFAULT_UNDOS;

/// Who moves first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum First {
    /// The player.
    #[default]
    Me,
    /// The computer.
    Ai,
    /// Decided at random.
    Random,
}

/// Who plays, on which board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Table {
    /// Two players on the classic board.
    #[default]
    Two,
    /// Two players on the four-player board (QQ 两人 rooms): South against North through the
    /// centre, East and West empty.
    TwoOnBig,
    /// Four players (四国大战): the player, a computer partner and two computer enemies.
    Four,
}

/// The new-game options.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct MatchOptions {
    /// Every rule option.
    pub rules: Rules,
    /// Computer level 1…4 (新手, 熟练, 高手, 大师).
    pub level: u8,
    /// Who moves first.
    pub first: First,
    /// Who plays, on which board.
    pub table: Table,
    /// Four players: the player's seat.
    pub seat: Side,
    /// Four players: each computer seat's level, by [`Side::index`] (the player's is unused).
    pub levels: [u8; 4],
    /// Takebacks (悔棋) allowed a game against the computer.
    pub undos: u8,
}

impl Default for MatchOptions {
    fn default() -> Self {
        Self {
            rules: Rules::default(),
            level: 2,
            first: First::Me,
            table: Table::Two,
            seat: Side::South,
            levels: [2; 4],
            undos: DEFAULT_UNDOS,
        }
    }
}

impl MatchOptions {
    /// Switches to `table` with its default rules (RULES.md §9 for four players: 30 s, 70 quiet
    /// plies, the last-pieces rule), keeping the way to play where the table has it.
    pub fn set_table(&mut self, table: Table) {
        if table == self.table {
            return;
        }
        let mode = match (table, self.rules.mode) {
            (Table::Four, Mode::Flip) => Mode::Dark,
            (_, m) => m,
        };
        self.rules = match table {
            Table::Two => Rules::for_mode(mode),
            Table::TwoOnBig => Rules {
                four_player_board: true,
                ..Rules::for_mode(mode)
            },
            Table::Four => Rules::four_player(mode),
        };
        self.table = table;
    }

    /// The options a two-player LAN game can be hosted with: the classic board or the big one
    /// (four-seat tables are hosted apart), and no flip on the big board (the LAN protocol plays
    /// dark and open games there, `junqi-peer host --big-board` likewise).
    pub fn for_lan(&mut self) {
        if self.table == Table::Four {
            self.set_table(Table::Two);
        }
        if self.table == Table::TwoOnBig && self.rules.mode == Mode::Flip {
            self.rules.mode = Mode::Dark;
        }
    }

    /// Whether the way to play and the table go together in a LAN game (the engine's
    /// [`Rules::two_player_problem`]: no flip on the big board; [`MatchOptions::for_lan`]).
    pub fn lan_playable(&self) -> bool {
        self.table != Table::Four && self.rules.two_player_problem().is_none()
    }

    /// The board the game is played on.
    pub fn board(&self) -> &'static Board {
        match self.table {
            Table::Two => Board::classic(),
            Table::TwoOnBig | Table::Four => Board::four_player(),
        }
    }

    /// The player's side: its seat round a four-player table, South otherwise.
    pub fn my_side(&self) -> Side {
        match self.table {
            Table::Four => self.seat,
            Table::Two | Table::TwoOnBig => Side::South,
        }
    }

    /// The QQ 四国 room's rules for the current way to play (四暗, 双明, 全明).
    pub fn qq_preset(&mut self) {
        let partners_open = self.rules.partners_open;
        self.rules = Rules {
            partners_open,
            ..Rules::four_player(self.rules.mode)
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The LAN host's options: two players on either board, never flip on the big one, never a
    /// four-seat table (hosted apart), whatever the player chose last against the computer.
    #[test]
    fn lan_options_are_two_players_and_no_flip_on_the_big_board() {
        for table in [Table::Two, Table::TwoOnBig, Table::Four] {
            for mode in [Mode::Dark, Mode::Open, Mode::Flip] {
                let mut o = MatchOptions::default();
                o.set_table(table);
                o.rules.mode = mode;
                let before = o.clone();
                o.for_lan();
                assert!(o.lan_playable(), "{table:?} {mode:?}");
                assert_eq!(o.rules.four_player_board, o.table == Table::TwoOnBig);
                let expected_table = if table == Table::Four {
                    Table::Two
                } else {
                    table
                };
                assert_eq!(o.table, expected_table);
                // What was playable stays as the player left it.
                if before.lan_playable() {
                    assert_eq!(o, before);
                } else if table == Table::TwoOnBig {
                    assert_eq!(o.rules.mode, Mode::Dark);
                }
            }
        }
        let mut o = MatchOptions::default();
        o.set_table(Table::TwoOnBig);
        o.rules.mode = Mode::Flip;
        assert!(!o.lan_playable());
    }
}
