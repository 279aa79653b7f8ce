//! The referee's announcement after a battle and the announcement table `f(c, d)`.
//!
//! An [`Outcome`] is everything a referee says aloud: who is removed, whether a
//! flag fell, whether a commander died, and (engineer scouting) which rank is
//! shown. An [`OutcomeTable`] maps every (movable attacker rank, defender rank)
//! pair to its outcome; it is the only rule-dependent part of a battle and is
//! public, so both sides build it from the agreed rule options.

use serde::{Deserialize, Serialize};

use crate::rank::Rank;

/// Which pieces leave the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[repr(u8)]
pub enum Removal {
    /// The defender is removed and the attacker moves onto its point.
    DefenderRemoved = 0,
    /// The attacker is removed; the defender stays.
    AttackerRemoved = 1,
    /// Both are removed.
    BothRemoved = 2,
}

/// A referee's announcement. Two outcomes are the same announcement exactly
/// when they are equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Outcome {
    /// Which pieces are removed.
    pub removal: Removal,
    /// The defender was the flag and it was captured: the defender's side loses.
    pub flag_captured: bool,
    /// The attacker was a commander and it died (its flag must be revealed).
    pub attacker_commander_died: bool,
    /// The defender was a commander and it died (its flag must be revealed).
    pub defender_commander_died: bool,
    /// Engineer scouting: the defender's rank is shown to both players.
    pub revealed: Option<Rank>,
}

impl Outcome {
    /// A plain outcome: only a removal.
    #[must_use]
    pub const fn plain(removal: Removal) -> Self {
        Outcome {
            removal,
            flag_captured: false,
            attacker_commander_died: false,
            defender_commander_died: false,
            revealed: None,
        }
    }

    /// The canonical 16-bit code that goes into hashes.
    #[must_use]
    pub fn code(&self) -> u16 {
        let reveal = self.revealed.map_or(0, |r| u16::from(r.code()) + 1);
        (self.removal as u16)
            | (u16::from(self.flag_captured) << 2)
            | (u16::from(self.attacker_commander_died) << 3)
            | (u16::from(self.defender_commander_died) << 4)
            | (reveal << 5)
    }

    /// The outcome for a code, if the code is canonical.
    #[must_use]
    pub fn from_code(code: u16) -> Option<Outcome> {
        let removal = match code & 3 {
            0 => Removal::DefenderRemoved,
            1 => Removal::AttackerRemoved,
            2 => Removal::BothRemoved,
            _ => return None,
        };
        let reveal = code >> 5;
        let revealed = match reveal {
            0 => None,
            n => Some(Rank::from_code(u8::try_from(n - 1).ok()?)?),
        };
        let o = Outcome {
            removal,
            flag_captured: code & 4 != 0,
            attacker_commander_died: code & 8 != 0,
            defender_commander_died: code & 16 != 0,
            revealed,
        };
        (o.code() == code).then_some(o)
    }

    /// Whether the attacker is removed.
    #[must_use]
    pub fn attacker_removed(&self) -> bool {
        matches!(
            self.removal,
            Removal::AttackerRemoved | Removal::BothRemoved
        )
    }

    /// Whether the defender is removed.
    #[must_use]
    pub fn defender_removed(&self) -> bool {
        matches!(
            self.removal,
            Removal::DefenderRemoved | Removal::BothRemoved
        )
    }
}

/// Error building a table.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// The table has more distinct outcomes than a battle message may carry.
    #[error("the table has {0} distinct outcomes, more than {max}", max = OutcomeTable::MAX_ALPHABET)]
    TooManyOutcomes(usize),
}

/// `f(c, d)`: the announcement for every movable attacker rank `c` (10) and
/// defender rank `d` (12), plus the alphabet of all outcomes it can produce.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutcomeTable {
    cells: [[Outcome; 12]; Rank::MOVABLE],
    alphabet: Vec<Outcome>,
}

impl OutcomeTable {
    /// Upper bound on distinct outcomes (bounds the battle message size).
    pub const MAX_ALPHABET: usize = 48;

    /// Builds a table from `f(attacker, defender)`; the attacker is always movable.
    ///
    /// # Errors
    /// When the table has more than [`Self::MAX_ALPHABET`] distinct outcomes.
    pub fn from_fn(mut f: impl FnMut(Rank, Rank) -> Outcome) -> Result<Self, TableError> {
        let mut cells = [[Outcome::plain(Removal::BothRemoved); 12]; Rank::MOVABLE];
        for (c, row) in cells.iter_mut().enumerate() {
            for (d, cell) in row.iter_mut().enumerate() {
                *cell = f(Rank::ALL[c], Rank::ALL[d]);
            }
        }
        let mut alphabet: Vec<Outcome> = cells.iter().flatten().copied().collect();
        alphabet.sort_by_key(Outcome::code);
        alphabet.dedup();
        if alphabet.len() > Self::MAX_ALPHABET {
            return Err(TableError::TooManyOutcomes(alphabet.len()));
        }
        Ok(OutcomeTable { cells, alphabet })
    }

    /// `f(c, d)`.
    ///
    /// # Panics
    /// If `attacker` is not movable.
    #[must_use]
    pub fn get(&self, attacker: Rank, defender: Rank) -> Outcome {
        self.cells[attacker as usize][defender as usize]
    }

    /// Every distinct outcome, in code order: the order of the label hashes.
    #[must_use]
    pub fn alphabet(&self) -> &[Outcome] {
        &self.alphabet
    }

    /// Position of an outcome in the alphabet.
    #[must_use]
    pub fn index_of(&self, o: &Outcome) -> Option<usize> {
        self.alphabet
            .binary_search_by_key(&o.code(), Outcome::code)
            .ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_are_canonical() {
        let mut n = 0;
        for code in 0..u16::MAX {
            if let Some(o) = Outcome::from_code(code) {
                assert_eq!(o.code(), code);
                n += 1;
            }
        }
        // 3 removals x 8 flag bits x 13 reveal options
        assert_eq!(n, 3 * 8 * 13);
    }

    use crate::wire::table_from_rules;
    use junqi_game::{FlagCapture, MineRule, Rules};

    fn table(rules: Rules) -> OutcomeTable {
        table_from_rules(&rules)
    }

    #[test]
    fn engine_table_basics() {
        let t = table(Rules::default());
        assert_eq!(
            t.get(Rank::Corps, Rank::Division),
            Outcome::plain(Removal::DefenderRemoved)
        );
        assert_eq!(
            t.get(Rank::Engineer, Rank::Mine),
            Outcome::plain(Removal::DefenderRemoved)
        );
        assert_eq!(
            t.get(Rank::Corps, Rank::Mine),
            Outcome::plain(Removal::AttackerRemoved)
        );
        assert!(t.get(Rank::Platoon, Rank::Flag).flag_captured);
        let cc = t.get(Rank::Commander, Rank::Commander);
        assert!(cc.attacker_commander_died && cc.defender_commander_died);
        assert!(t.get(Rank::Bomb, Rank::Commander).defender_commander_died);
        assert!(t.get(Rank::Commander, Rank::Mine).attacker_commander_died);
        assert!(t.alphabet().len() <= 12, "{}", t.alphabet().len());
        for o in t.alphabet() {
            assert_eq!(t.alphabet()[t.index_of(o).unwrap()], *o);
        }
    }

    #[test]
    fn options_change_the_table() {
        let t = table(Rules {
            flag_capture: FlagCapture::EngineersOnly,
            ..Rules::default()
        });
        assert!(!t.get(Rank::Bomb, Rank::Flag).flag_captured);
        assert!(t.get(Rank::Engineer, Rank::Flag).flag_captured);
        let t = table(Rules {
            flag_capture: FlagCapture::NotCommander,
            ..Rules::default()
        });
        assert!(!t.get(Rank::Commander, Rank::Flag).flag_captured);
        assert!(t.get(Rank::Bomb, Rank::Flag).flag_captured);
        let t = table(Rules {
            mines: MineRule::Trades,
            ..Rules::default()
        });
        assert_eq!(t.get(Rank::Corps, Rank::Mine).removal, Removal::BothRemoved);
        assert_eq!(
            t.get(Rank::Engineer, Rank::Mine).removal,
            Removal::DefenderRemoved
        );
        let t = table(Rules {
            mines: MineRule::BombMines,
            ..Rules::default()
        });
        assert_eq!(
            t.get(Rank::Engineer, Rank::Mine).removal,
            Removal::BothRemoved
        );
    }

    #[test]
    fn scouting_reveals_what_the_engineer_cannot_take() {
        let t = table(Rules {
            engineer_scouting: true,
            ..Rules::default()
        });
        assert_eq!(
            t.get(Rank::Engineer, Rank::Corps).revealed,
            Some(Rank::Corps)
        );
        assert_eq!(t.get(Rank::Engineer, Rank::Mine).revealed, None);
        assert_eq!(t.get(Rank::Platoon, Rank::Corps).revealed, None);
        assert!(t.alphabet().len() > 10);
    }
}
