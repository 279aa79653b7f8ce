//! Ranks, sides and pieces.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The rank of a piece (RULES.md §1). Officers are ordered from the highest
/// (`Commander`, 40) down to the lowest (`Engineer`, 32).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Rank {
    /// 司令, 40.
    Commander = 0,
    /// 军长, 39.
    Corps,
    /// 师长, 38.
    Division,
    /// 旅长, 37.
    Brigade,
    /// 团长, 36.
    Regiment,
    /// 营长, 35.
    Battalion,
    /// 连长, 34.
    Company,
    /// 排长, 33.
    Platoon,
    /// 工兵, 32.
    Engineer,
    /// 地雷, 31: never moves.
    Landmine,
    /// 炸弹, 00: removed together with whatever it meets.
    Bomb,
    /// 军旗, 30: never moves; lost when captured.
    Flag,
}

/// How many of a rank make up one army, in [`Rank::ALL`] order.
const COUNTS: [u8; 12] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 2, 1];
const ZH_SHORT: [char; 12] = [
    '令', '军', '师', '旅', '团', '营', '连', '排', '兵', '雷', '炸', '旗',
];
const NOTATION_NAME: [&str; 12] = [
    "司令", "军长", "师长", "旅长", "团长", "营长", "连长", "排长", "工兵", "地雷", "炸弹", "军旗",
];
const NICKNAME: [&str; 12] = [
    "40", "39", "38", "37", "36", "35", "34", "33", "32", "31", "00", "30",
];
const KEY: [&str; 12] = [
    "commander",
    "corps",
    "division",
    "brigade",
    "regiment",
    "battalion",
    "company",
    "platoon",
    "engineer",
    "landmine",
    "bomb",
    "flag",
];

impl Rank {
    /// All twelve ranks, highest officer first.
    pub const ALL: [Rank; 12] = [
        Rank::Commander,
        Rank::Corps,
        Rank::Division,
        Rank::Brigade,
        Rank::Regiment,
        Rank::Battalion,
        Rank::Company,
        Rank::Platoon,
        Rank::Engineer,
        Rank::Landmine,
        Rank::Bomb,
        Rank::Flag,
    ];

    /// The rank with index `i` (0 = commander … 11 = flag).
    pub fn from_index(i: usize) -> Option<Rank> {
        Rank::ALL.get(i).copied()
    }

    /// Index in [`Rank::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// How many pieces of this rank one army has.
    pub const fn count(self) -> u8 {
        COUNTS[self as usize]
    }

    /// The one-character Chinese name used in layout text (令 军 … 旗).
    pub const fn zh_short(self) -> char {
        ZH_SHORT[self as usize]
    }

    /// The notation's long name (司令, 军长, …): what [`Rank`]'s `Display` writes and
    /// [`Rank::parse`] reads, in layout files and on the command line. Not a translation: an
    /// app names ranks in its player's language itself.
    pub const fn notation_name(self) -> &'static str {
        NOTATION_NAME[self as usize]
    }

    /// The players' nickname: 40…32 for officers, 31 landmine, 30 flag, 00 bomb.
    pub const fn nickname(self) -> &'static str {
        NICKNAME[self as usize]
    }

    /// The lowercase English key used in JSON (`"commander"`, `"landmine"`, …).
    pub const fn key(self) -> &'static str {
        KEY[self as usize]
    }

    /// Whether this is an officer (commander … engineer).
    pub const fn is_officer(self) -> bool {
        (self as u8) <= Rank::Engineer as u8
    }

    /// Whether a piece of this rank can ever move (not a landmine or the flag).
    pub const fn is_movable(self) -> bool {
        !matches!(self, Rank::Landmine | Rank::Flag)
    }

    /// Officer strength: 40 for the commander down to 32 for engineers; 0 otherwise.
    pub const fn officer_level(self) -> u8 {
        if self.is_officer() {
            40 - self as u8
        } else {
            0
        }
    }

    /// The 25 ranks of one army in a fixed order (commander first, flag last).
    pub fn army() -> [Rank; 25] {
        let mut out = [Rank::Flag; 25];
        let mut i = 0;
        for r in Rank::ALL {
            for _ in 0..r.count() {
                out[i] = r;
                i += 1;
            }
        }
        out
    }

    /// Parses a Chinese short or long name, a nickname (`40`, `00`, …) or the JSON key.
    pub fn parse(s: &str) -> Option<Rank> {
        let s = s.trim();
        Rank::ALL.into_iter().find(|r| {
            let mut buf = [0u8; 4];
            s == r.zh_short().encode_utf8(&mut buf)
                || s == r.notation_name()
                || s == r.nickname()
                || s.eq_ignore_ascii_case(r.key())
        })
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.notation_name())
    }
}

/// A piece name [`Rank::parse`] does not know.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown piece name {name:?}")]
pub struct RankNameError {
    /// The text that failed.
    pub name: String,
}

impl FromStr for Rank {
    type Err = RankNameError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Rank::parse(s).ok_or_else(|| RankNameError { name: s.to_owned() })
    }
}

/// A side of the board. Two-player games use `South` (bottom, the first
/// player by default) and `North`; the four-player board adds `East` and `West`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The bottom half (side 0).
    South = 0,
    /// The top half (side 1).
    North = 1,
    /// Four-player board only.
    East = 2,
    /// Four-player board only.
    West = 3,
}

impl Side {
    /// The two sides of a two-player game.
    pub const TWO: [Side; 2] = [Side::South, Side::North];

    /// Index 0…3.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The four seats of the four-player board in the default turn order
    /// (S → E → N → W, counter-clockwise seen from above; BOARD4.md §1.1).
    pub const FOUR: [Side; 4] = [Side::South, Side::East, Side::North, Side::West];

    /// This side as a one-bit seat mask (bit `index`).
    pub const fn bit(self) -> u8 {
        1 << self as u8
    }

    /// The partner across the four-player board (对家): South with North,
    /// East with West (RULES.md §9).
    pub const fn partner(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
            Side::East => Side::West,
            Side::West => Side::East,
        }
    }

    /// The team of this seat in a four-player game.
    pub const fn team(self) -> Team {
        match self {
            Side::South | Side::North => Team::SouthNorth,
            Side::East | Side::West => Team::EastWest,
        }
    }

    /// The seat that moves after this one in a four-player game (before
    /// skipping seats that are out): S → E → N → W, or S → W → N → E when
    /// `clockwise` (联众).
    pub const fn next(self, clockwise: bool) -> Side {
        match (self, clockwise) {
            (Side::South, false) | (Side::North, true) => Side::East,
            (Side::East, false) | (Side::West, true) => Side::North,
            (Side::North, false) | (Side::South, true) => Side::West,
            (Side::West, false) | (Side::East, true) => Side::South,
        }
    }

    /// The opponent in a two-player game.
    pub const fn opponent(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
            Side::East => Side::West,
            Side::West => Side::East,
        }
    }

    /// The letter used in point names (`S53`).
    pub const fn letter(self) -> char {
        match self {
            Side::South => 'S',
            Side::North => 'N',
            Side::East => 'E',
            Side::West => 'W',
        }
    }

    /// The side with the given point-name letter.
    pub fn from_letter(c: char) -> Option<Side> {
        match c.to_ascii_uppercase() {
            'S' => Some(Side::South),
            'N' => Some(Side::North),
            'E' => Some(Side::East),
            'W' => Some(Side::West),
            _ => None,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::South => "south",
            Side::North => "north",
            Side::East => "east",
            Side::West => "west",
        })
    }
}

/// The two teams of a four-player game (RULES.md §9: opposite seats are partners).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Team {
    /// South and North.
    SouthNorth,
    /// East and West.
    EastWest,
}

impl Team {
    /// The two seats of the team, South or East first.
    pub const fn seats(self) -> [Side; 2] {
        match self {
            Team::SouthNorth => [Side::South, Side::North],
            Team::EastWest => [Side::East, Side::West],
        }
    }

    /// The other team.
    pub const fn other(self) -> Team {
        match self {
            Team::SouthNorth => Team::EastWest,
            Team::EastWest => Team::SouthNorth,
        }
    }
}

impl fmt::Display for Team {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Team::SouthNorth => "south+north",
            Team::EastWest => "east+west",
        })
    }
}

/// The identity of one piece for the whole game: `side * 25 + slot` (side
/// by [`Side::index`], so East's pieces are 50…74 and West's 75…99), where
/// `slot` indexes the army in [`Rank::army`] order for flip games and the
/// starting point (in the half's setup order) for dark and open games.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Serialize, Deserialize)]
pub struct PieceId(pub u8);

/// A piece on the board as the referee knows it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Piece {
    /// Its owner (its colour).
    pub side: Side,
    /// Its rank.
    pub rank: Rank,
    /// Face up; always true outside flip games.
    pub face_up: bool,
    /// Its identity.
    pub id: PieceId,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn army_has_25_pieces_with_the_rule_book_counts() {
        let army = Rank::army();
        assert_eq!(army.len(), 25);
        assert_eq!(army.iter().filter(|&&r| r == Rank::Landmine).count(), 3);
        assert_eq!(army.iter().filter(|&&r| r == Rank::Bomb).count(), 2);
        assert_eq!(army.iter().filter(|&&r| r == Rank::Engineer).count(), 3);
        assert_eq!(army[0], Rank::Commander);
        assert_eq!(army[24], Rank::Flag);
    }

    #[test]
    fn names_parse_back() {
        for r in Rank::ALL {
            assert_eq!(Rank::parse(r.notation_name()), Some(r));
            assert_eq!(Rank::parse(&r.zh_short().to_string()), Some(r));
            assert_eq!(Rank::parse(r.nickname()), Some(r));
            assert_eq!(Rank::parse(r.key()), Some(r));
        }
        assert_eq!(Rank::parse("40"), Some(Rank::Commander));
        assert_eq!(Rank::parse("00"), Some(Rank::Bomb));
        assert_eq!(Rank::parse("31"), Some(Rank::Landmine));
        assert_eq!(Rank::parse("30"), Some(Rank::Flag));
        assert_eq!(Rank::parse("马"), None);
    }

    #[test]
    fn four_player_seats_partners_and_turn_order() {
        use Side::*;
        assert_eq!(
            Side::FOUR.map(|s| s.next(false)),
            [East, North, West, South]
        );
        assert_eq!(Side::FOUR.map(|s| s.next(true)), [West, South, East, North]);
        assert_eq!(Side::FOUR.map(Side::partner), [North, West, South, East]);
        assert_eq!(South.team(), North.team());
        assert_eq!(East.team(), West.team());
        assert_ne!(South.team(), East.team());
        assert_eq!(Team::EastWest.seats(), [East, West]);
        assert_eq!(Team::SouthNorth.other(), Team::EastWest);
        let mask = Side::FOUR.iter().fold(0, |m, s| m | s.bit());
        assert_eq!(mask, 0b1111);
    }

    #[test]
    fn officer_levels() {
        assert_eq!(Rank::Commander.officer_level(), 40);
        assert_eq!(Rank::Engineer.officer_level(), 32);
        assert_eq!(Rank::Bomb.officer_level(), 0);
        assert!(!Rank::Flag.is_movable());
        assert!(Rank::Bomb.is_movable());
    }
}
