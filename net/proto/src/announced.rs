//! What the oblivious transfer delivers after a battle ([`Announced`]) and
//! the announcement table `f(c, d)` ([`AnnouncementTable`]).
//!
//! The referee's words are the engine's [`Announcement`] (who survives,
//! whether a flag fell, whether a commander died, whether the defender is
//! shown). Under engineer scouting a dark game must also carry *which* rank
//! is shown, since no referee holds it: an [`Announced`] is the engine's
//! announcement with that rank. An [`AnnouncementTable`] maps every (movable
//! attacker rank, defender rank) pair to it; it is the only rule-dependent
//! part of a battle and is public, so both sides build it from the agreed
//! rule options.

use junqi_game::{Announcement, Outcome};

use crate::rank::WireRank;

/// The engine's announcement of one battle and, when it shows the defender
/// (engineer scouting), the rank shown. Two are the same message exactly
/// when they are equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Announced {
    announcement: Announcement,
    revealed: Option<WireRank>,
}

impl Announced {
    /// The announcement `announcement` with the defender's rank `revealed`
    /// shown (`Some` exactly when [`Announcement::defender_revealed`]; the
    /// flag follows `revealed`).
    #[must_use]
    pub const fn new(mut announcement: Announcement, revealed: Option<WireRank>) -> Self {
        announcement.defender_revealed = revealed.is_some();
        Announced {
            announcement,
            revealed,
        }
    }

    /// A plain announcement: only who survives.
    #[must_use]
    pub const fn plain(outcome: Outcome) -> Self {
        Announced::new(
            Announcement {
                outcome,
                flag_captured: false,
                attacker_commander_died: false,
                defender_commander_died: false,
                defender_revealed: false,
            },
            None,
        )
    }

    /// The engine's announcement.
    #[must_use]
    pub const fn announcement(&self) -> Announcement {
        self.announcement
    }

    /// The defender's rank, when it is shown.
    #[must_use]
    pub const fn revealed(&self) -> Option<WireRank> {
        self.revealed
    }

    /// The canonical 16-bit code that goes into hashes: the engine's
    /// five-bit announcement code without its reveal bit, and above it the
    /// shown rank's code plus one (zero when none is shown).
    #[must_use]
    pub fn code(&self) -> u16 {
        let reveal = self.revealed.map_or(0, |r| u16::from(r.code()) + 1);
        u16::from(self.announcement.code() & 0x1f) | (reveal << 5)
    }

    /// The message for a code, if the code is canonical.
    #[must_use]
    pub fn from_code(code: u16) -> Option<Announced> {
        let low = u8::try_from(code & 0x1f).ok()?;
        let announcement = Announcement::from_code(low)?;
        let revealed = match code >> 5 {
            0 => None,
            n => Some(WireRank::from_code(u8::try_from(n - 1).ok()?)?),
        };
        let a = Announced::new(announcement, revealed);
        (a.code() == code).then_some(a)
    }

    /// Whether the attacker is removed.
    #[must_use]
    pub fn attacker_removed(&self) -> bool {
        self.announcement.outcome != Outcome::AttackerWins
    }

    /// Whether the defender is removed.
    #[must_use]
    pub fn defender_removed(&self) -> bool {
        self.announcement.outcome != Outcome::DefenderWins
    }
}

/// Error building a table.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// The table has more distinct outcomes than a battle message may carry.
    #[error("the table has {0} distinct outcomes, more than {max}", max = AnnouncementTable::MAX_ALPHABET)]
    TooManyOutcomes(usize),
}

/// `f(c, d)`: the announcement for every movable attacker rank `c` (10) and
/// defender rank `d` (12), plus the alphabet of all outcomes it can produce.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnnouncementTable {
    cells: [[Announced; 12]; WireRank::MOVABLE],
    alphabet: Vec<Announced>,
}

impl AnnouncementTable {
    /// Upper bound on distinct outcomes (bounds the battle message size).
    pub const MAX_ALPHABET: usize = 48;

    /// Builds a table from `f(attacker, defender)`; the attacker is always movable.
    ///
    /// # Errors
    /// When the table has more than [`Self::MAX_ALPHABET`] distinct outcomes.
    pub fn from_fn(mut f: impl FnMut(WireRank, WireRank) -> Announced) -> Result<Self, TableError> {
        let mut cells = [[Announced::plain(Outcome::BothRemoved); 12]; WireRank::MOVABLE];
        for (c, row) in cells.iter_mut().enumerate() {
            for (d, cell) in row.iter_mut().enumerate() {
                *cell = f(WireRank::ALL[c], WireRank::ALL[d]);
            }
        }
        let mut alphabet: Vec<Announced> = cells.iter().flatten().copied().collect();
        alphabet.sort_by_key(Announced::code);
        alphabet.dedup();
        if alphabet.len() > Self::MAX_ALPHABET {
            return Err(TableError::TooManyOutcomes(alphabet.len()));
        }
        Ok(AnnouncementTable { cells, alphabet })
    }

    /// `f(c, d)`.
    ///
    /// # Panics
    /// If `attacker` is not movable.
    #[must_use]
    pub fn get(&self, attacker: WireRank, defender: WireRank) -> Announced {
        self.cells[attacker as usize][defender as usize]
    }

    /// Every distinct outcome, in code order: the order of the label hashes.
    #[must_use]
    pub fn alphabet(&self) -> &[Announced] {
        &self.alphabet
    }

    /// Position of an outcome in the alphabet.
    #[must_use]
    pub fn index_of(&self, o: &Announced) -> Option<usize> {
        self.alphabet
            .binary_search_by_key(&o.code(), Announced::code)
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
            if let Some(o) = Announced::from_code(code) {
                assert_eq!(o.code(), code);
                n += 1;
            }
        }
        // 3 outcomes x 8 flag bits x 13 reveal options
        assert_eq!(n, 3 * 8 * 13);
    }

    use crate::wire::table_from_rules;
    use junqi_game::{FlagCapture, MineRule, Rules};

    fn table(rules: Rules) -> AnnouncementTable {
        table_from_rules(&rules)
    }

    #[test]
    fn engine_table_basics() {
        let t = table(Rules::default());
        assert_eq!(
            t.get(WireRank::Corps, WireRank::Division),
            Announced::plain(Outcome::AttackerWins)
        );
        assert_eq!(
            t.get(WireRank::Engineer, WireRank::Mine),
            Announced::plain(Outcome::AttackerWins)
        );
        assert_eq!(
            t.get(WireRank::Corps, WireRank::Mine),
            Announced::plain(Outcome::DefenderWins)
        );
        assert!(
            t.get(WireRank::Platoon, WireRank::Flag)
                .announcement()
                .flag_captured
        );
        let cc = t.get(WireRank::Commander, WireRank::Commander);
        assert!(
            cc.announcement().attacker_commander_died && cc.announcement().defender_commander_died
        );
        assert!(
            t.get(WireRank::Bomb, WireRank::Commander)
                .announcement()
                .defender_commander_died
        );
        assert!(
            t.get(WireRank::Commander, WireRank::Mine)
                .announcement()
                .attacker_commander_died
        );
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
        assert!(
            !t.get(WireRank::Bomb, WireRank::Flag)
                .announcement()
                .flag_captured
        );
        assert!(
            t.get(WireRank::Engineer, WireRank::Flag)
                .announcement()
                .flag_captured
        );
        let t = table(Rules {
            flag_capture: FlagCapture::NotCommander,
            ..Rules::default()
        });
        assert!(
            !t.get(WireRank::Commander, WireRank::Flag)
                .announcement()
                .flag_captured
        );
        assert!(
            t.get(WireRank::Bomb, WireRank::Flag)
                .announcement()
                .flag_captured
        );
        let t = table(Rules {
            mines: MineRule::Trades,
            ..Rules::default()
        });
        assert_eq!(
            t.get(WireRank::Corps, WireRank::Mine)
                .announcement()
                .outcome,
            Outcome::BothRemoved
        );
        assert_eq!(
            t.get(WireRank::Engineer, WireRank::Mine)
                .announcement()
                .outcome,
            Outcome::AttackerWins
        );
        let t = table(Rules {
            mines: MineRule::BombMines,
            ..Rules::default()
        });
        assert_eq!(
            t.get(WireRank::Engineer, WireRank::Mine)
                .announcement()
                .outcome,
            Outcome::BothRemoved
        );
    }

    #[test]
    fn scouting_reveals_what_the_engineer_cannot_take() {
        let t = table(Rules {
            engineer_scouting: true,
            ..Rules::default()
        });
        assert_eq!(
            t.get(WireRank::Engineer, WireRank::Corps).revealed(),
            Some(WireRank::Corps)
        );
        assert_eq!(t.get(WireRank::Engineer, WireRank::Mine).revealed(), None);
        assert_eq!(t.get(WireRank::Platoon, WireRank::Corps).revealed(), None);
        assert!(t.alphabet().len() > 10);
    }
}
