//! Layouts (布阵): a raw 6 x 5 placement and its validation into a [`Deployment`].
//!
//! Text form: six lines, front row (row 1) first, columns 1…5 from the owner's
//! left. Pieces by Chinese short name (令 军 师 旅 团 营 连 排 兵 雷 炸 旗) or
//! by nickname (40 … 32, 31 mine, 30 flag, 00 bomb) separated by spaces; `.`
//! marks a camp and `-` an empty point.
//!
//! ```
//! use junqi_game::Layout;
//! let text = "师 兵 营 连 团\n营 . 炸 . 排\n军 旅 . 兵 令\n连 . 炸 . 排\n旅 雷 师 兵 连\n团 旗 雷 雷 排";
//! let layout: Layout = text.parse().unwrap();
//! assert!(layout.validate(&Default::default()).is_ok());
//! assert_eq!(layout.to_string(), text);
//! ```

use crate::board::{Board, Point};
use crate::piece::{Rank, Side};
use crate::rules::Rules;
use rand::Rng;
use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A raw layout: what stands on each point of one half. May break the rules.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Layout {
    /// `rows[0]` is row 1 (the front); each row lists columns 1…5.
    pub rows: [[Option<Rank>; 5]; 6],
}

/// A layout with a name (a classic preset or one the player saved).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct NamedLayout {
    /// Its name or id.
    #[serde(alias = "id")]
    pub name: String,
    /// The layout.
    #[serde(flatten)]
    pub layout: Layout,
}

/// One broken setup rule, with the point it concerns (`RC` of the half).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "problem", rename_all = "snake_case")]
// The fields are the same in every variant: the point (`row`, `col` of the half, from 1) and
// the ranks concerned.
#[allow(missing_docs)]
pub enum LayoutProblem {
    /// Camps start empty.
    PieceInCamp { row: u8, col: u8, rank: Rank },
    /// The army must hold exactly the rule book's number of this rank.
    WrongCount { rank: Rank, expected: u8, found: u8 },
    /// The flag stands only in a headquarters.
    FlagOutsideHeadquarters { row: u8, col: u8 },
    /// Landmines stand only in rows 5 and 6.
    MineOutsideBackRows { row: u8, col: u8 },
    /// Bombs never stand in row 1 (unless flying bombs).
    BombInFrontRow { row: u8, col: u8 },
    /// Every point but the camps holds a piece.
    EmptyPoint { row: u8, col: u8 },
}

impl fmt::Display for LayoutProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            LayoutProblem::PieceInCamp { row, col, rank } => {
                write!(f, "{row}{col}: {rank} stands in a camp; camps start empty")
            }
            LayoutProblem::WrongCount {
                rank,
                expected,
                found,
            } => write!(
                f,
                "{found} × {rank} ({}), the army has {expected}",
                rank.key()
            ),
            LayoutProblem::FlagOutsideHeadquarters { row, col } => {
                write!(
                    f,
                    "{row}{col}: the flag must stand in a headquarters (62 or 64)"
                )
            }
            LayoutProblem::MineOutsideBackRows { row, col } => {
                write!(f, "{row}{col}: landmines stand only in rows 5 and 6")
            }
            LayoutProblem::BombInFrontRow { row, col } => {
                write!(f, "{row}{col}: bombs may not stand in the front row")
            }
            LayoutProblem::EmptyPoint { row, col } => write!(f, "{row}{col}: empty point"),
        }
    }
}

/// Every rule a layout breaks.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error, Serialize, Deserialize)]
pub struct LayoutErrors(pub Vec<LayoutProblem>);

impl fmt::Display for LayoutErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal layout ({} problems):", self.0.len())?;
        for p in &self.0 {
            write!(f, "\n  {p}")?;
        }
        Ok(())
    }
}

/// A layout that obeys every setup rule for the rules it was checked against.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize)]
pub struct Deployment(Layout);

impl<'de> Deserialize<'de> for Deployment {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // Validated against the most permissive setup rules; a game checks again.
        let layout = Layout::deserialize(d)?;
        let permissive = Rules {
            flying_bombs: true,
            ..Rules::default()
        };
        layout
            .validate(&permissive)
            .map_err(serde::de::Error::custom)
    }
}

impl Deployment {
    /// The layout.
    pub fn layout(&self) -> &Layout {
        &self.0
    }

    /// The pieces as (point, rank) on `side`'s half of `board`, in slot order
    /// (the index is the piece's slot, see [`crate::PieceId`]).
    pub fn placements(&self, board: &Board, side: Side) -> Vec<(Point, Rank)> {
        board
            .setup_points(side)
            .iter()
            .map(|&p| {
                let i = board.info(p);
                let rank = self.0.rows[i.row as usize - 1][i.col as usize - 1].expect("validated");
                (p, rank)
            })
            .collect()
    }
}

/// Whether (row, col) of a half is a camp.
fn is_camp(row: u8, col: u8) -> bool {
    matches!((row, col), (2, 2) | (2, 4) | (3, 3) | (4, 2) | (4, 4))
}

/// Whether (row, col) of a half is a headquarters.
fn is_headquarters(row: u8, col: u8) -> bool {
    row == 6 && (col == 2 || col == 4)
}

impl Layout {
    /// An empty layout.
    pub fn empty() -> Layout {
        Layout {
            rows: [[None; 5]; 6],
        }
    }

    /// The rank at row `row` (1…6), column `col` (1…5).
    pub fn get(&self, row: u8, col: u8) -> Option<Rank> {
        self.rows[row as usize - 1][col as usize - 1]
    }

    /// Sets the rank at (row, col).
    pub fn set(&mut self, row: u8, col: u8, rank: Option<Rank>) {
        self.rows[row as usize - 1][col as usize - 1] = rank;
    }

    /// Checks every setup rule (RULES.md §3) and reports all broken ones at once.
    pub fn validate(&self, rules: &Rules) -> Result<Deployment, LayoutErrors> {
        let mut problems = Vec::new();
        let mut counts = [0u8; 12];
        for row in 1..=6u8 {
            for col in 1..=5u8 {
                let cell = self.get(row, col);
                match cell {
                    None if !is_camp(row, col) => {
                        problems.push(LayoutProblem::EmptyPoint { row, col })
                    }
                    None => {}
                    Some(rank) => {
                        counts[rank.index()] += 1;
                        if is_camp(row, col) {
                            problems.push(LayoutProblem::PieceInCamp { row, col, rank });
                        }
                        if rank == Rank::Flag && !is_headquarters(row, col) {
                            problems.push(LayoutProblem::FlagOutsideHeadquarters { row, col });
                        }
                        if rank == Rank::Landmine && row < 5 {
                            problems.push(LayoutProblem::MineOutsideBackRows { row, col });
                        }
                        if rank == Rank::Bomb && row == 1 && !rules.flying_bombs {
                            problems.push(LayoutProblem::BombInFrontRow { row, col });
                        }
                    }
                }
            }
        }
        for rank in Rank::ALL {
            let found = counts[rank.index()];
            if found != rank.count() {
                problems.push(LayoutProblem::WrongCount {
                    rank,
                    expected: rank.count(),
                    found,
                });
            }
        }
        if problems.is_empty() {
            Ok(Deployment(*self))
        } else {
            Err(LayoutErrors(problems))
        }
    }

    /// Swaps two points; the caller validates the result (a refused swap keeps the old layout).
    pub fn swapped(&self, a: (u8, u8), b: (u8, u8)) -> Layout {
        let mut out = *self;
        let x = self.get(a.0, a.1);
        out.set(a.0, a.1, self.get(b.0, b.1));
        out.set(b.0, b.1, x);
        out
    }

    /// The left-right mirror image.
    pub fn mirrored(&self) -> Layout {
        let mut out = *self;
        for row in out.rows.iter_mut() {
            row.reverse();
        }
        out
    }

    /// A uniformly shuffled legal layout: the flag in a headquarters, mines in
    /// the back rows, bombs behind the front row (unless flying bombs), the rest anywhere.
    pub fn random(rules: &Rules, rng: &mut impl Rng) -> Layout {
        let mut free: Vec<(u8, u8)> = (1..=6u8)
            .flat_map(|r| (1..=5u8).map(move |c| (r, c)))
            .filter(|&(r, c)| !is_camp(r, c))
            .collect();
        free.shuffle(rng);
        let mut layout = Layout::empty();
        let mut take = |layout: &mut Layout, rank: Rank, allowed: &dyn Fn(u8, u8) -> bool| {
            let i = free
                .iter()
                .position(|&(r, c)| allowed(r, c))
                .expect("a legal point is always left");
            let (r, c) = free.swap_remove(i);
            layout.set(r, c, Some(rank));
        };
        take(&mut layout, Rank::Flag, &is_headquarters);
        for _ in 0..Rank::Landmine.count() {
            take(&mut layout, Rank::Landmine, &|r, _| r >= 5);
        }
        for _ in 0..Rank::Bomb.count() {
            take(&mut layout, Rank::Bomb, &|r, _| r > 1 || rules.flying_bombs);
        }
        for rank in Rank::army() {
            if rank.is_officer() {
                take(&mut layout, rank, &|_, _| true);
            }
        }
        layout
    }

    /// Prints with nicknames (40 … 00) instead of Chinese names.
    pub fn to_nickname_string(&self) -> String {
        self.render(|r| r.nickname().to_string())
    }

    fn render(&self, name: impl Fn(Rank) -> String) -> String {
        let mut lines = Vec::with_capacity(6);
        for row in 1..=6u8 {
            let cells: Vec<String> = (1..=5u8)
                .map(|col| match self.get(row, col) {
                    Some(r) => name(r),
                    None if is_camp(row, col) => ".".to_string(),
                    None => "-".to_string(),
                })
                .collect();
            lines.push(cells.join(" "));
        }
        lines.join("\n")
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(|r| r.zh_short().to_string()))
    }
}

/// Why layout text did not parse.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("layout text, line {line}: {message}")]
pub struct LayoutParseError {
    /// 1-based line number of the layout (0 for the whole text).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl FromStr for Layout {
    type Err = LayoutParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let lines: Vec<&str> = s.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
        if lines.len() != 6 {
            return Err(LayoutParseError {
                line: 0,
                message: format!("expected 6 rows, found {}", lines.len()),
            });
        }
        let mut layout = Layout::empty();
        for (i, line) in lines.iter().enumerate() {
            let tokens: Vec<String> = if line.contains(char::is_whitespace) {
                line.split_whitespace().map(str::to_string).collect()
            } else {
                line.chars().map(String::from).collect()
            };
            if tokens.len() != 5 {
                return Err(LayoutParseError {
                    line: i + 1,
                    message: format!("expected 5 points, found {} in {line:?}", tokens.len()),
                });
            }
            for (j, tok) in tokens.iter().enumerate() {
                let cell = match tok.as_str() {
                    "." | "-" => None,
                    t => Some(Rank::parse(t).ok_or_else(|| LayoutParseError {
                        line: i + 1,
                        message: format!("unknown piece {t:?} in column {}", j + 1),
                    })?),
                };
                layout.rows[i][j] = cell;
            }
        }
        Ok(layout)
    }
}

/// The classic layouts file (`assets/layouts/classic_layouts.json`).
#[derive(Deserialize)]
struct ClassicFile {
    layouts: Vec<NamedLayout>,
}

/// Why a layouts file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum LayoutFileError {
    /// Not JSON of the expected shape.
    #[error("layouts file is not valid: {0}")]
    Json(#[from] serde_json::Error),
    /// A layout in it breaks the setup rules.
    #[error("layout {name}: {errors}")]
    Illegal {
        /// Which layout.
        name: String,
        /// What it breaks.
        errors: LayoutErrors,
    },
}

/// Parses a layouts file (`{"layouts": [{"id": …, "rows": …}, …]}`), validating each.
pub fn parse_layouts_file(json: &str, rules: &Rules) -> Result<Vec<NamedLayout>, LayoutFileError> {
    let file: ClassicFile = serde_json::from_str(json)?;
    for l in &file.layouts {
        l.layout
            .validate(rules)
            .map_err(|errors| LayoutFileError::Illegal {
                name: l.name.clone(),
                errors,
            })?;
    }
    Ok(file.layouts)
}

/// The 72 classic layouts of seed 000, bundled at build time.
pub fn classic_layouts() -> Vec<NamedLayout> {
    const JSON: &str = include_str!("../../assets/layouts/classic_layouts.json");
    parse_layouts_file(JSON, &Rules::default()).expect("the bundled classic layouts are valid")
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    const SAMPLE: &str =
        "师 兵 营 连 团\n营 . 炸 . 排\n军 旅 . 兵 令\n连 . 炸 . 排\n旅 雷 师 兵 连\n团 旗 雷 雷 排";

    #[test]
    fn all_72_classic_layouts_validate() {
        let all = classic_layouts();
        assert_eq!(all.len(), 72);
        for l in &all {
            assert!(l.layout.validate(&Rules::default()).is_ok(), "{}", l.name);
        }
    }

    #[test]
    fn text_round_trips_both_ways() {
        let l: Layout = SAMPLE.parse().unwrap();
        assert_eq!(l.to_string(), SAMPLE);
        let nick = l.to_nickname_string();
        assert!(nick.starts_with("38 32 35 34 36"));
        assert_eq!(nick.parse::<Layout>().unwrap(), l);
        // Without spaces too.
        let compact = SAMPLE.replace(' ', "");
        assert_eq!(compact.parse::<Layout>().unwrap(), l);
        for named in classic_layouts() {
            assert_eq!(
                named.layout.to_string().parse::<Layout>().unwrap(),
                named.layout
            );
        }
    }

    #[test]
    fn every_problem_is_reported_at_once() {
        let mut l: Layout = SAMPLE.parse().unwrap();
        // Flag to 63, mine to 43 (a station in row 4), bomb to row 1, something into camp 22.
        l = l.swapped((6, 2), (6, 3)); // 旗 <-> 雷: flag at 63, mine at 62 (fine)
        l = l.swapped((5, 1), (4, 1)); // 旅 <-> 连: harmless
        l.set(4, 3, Some(Rank::Landmine)); // overwrites a bomb: counts change
        l.set(1, 1, Some(Rank::Bomb)); // overwrites a division
        l.set(2, 2, Some(Rank::Engineer));
        let errs = l.validate(&Rules::default()).unwrap_err().0;
        use LayoutProblem::*;
        assert!(errs.contains(&FlagOutsideHeadquarters { row: 6, col: 3 }));
        assert!(errs.contains(&MineOutsideBackRows { row: 4, col: 3 }));
        assert!(errs.contains(&BombInFrontRow { row: 1, col: 1 }));
        assert!(errs.contains(&PieceInCamp {
            row: 2,
            col: 2,
            rank: Rank::Engineer
        }));
        assert!(errs.contains(&WrongCount {
            rank: Rank::Landmine,
            expected: 3,
            found: 4
        }));
        assert!(errs.contains(&WrongCount {
            rank: Rank::Division,
            expected: 2,
            found: 1
        }));
        assert!(errs.contains(&WrongCount {
            rank: Rank::Engineer,
            expected: 3,
            found: 4
        }));
        let text = LayoutErrors(errs).to_string();
        assert!(text.contains("63: the flag"));
    }

    #[test]
    fn flying_bombs_allow_front_row_bombs() {
        let l: Layout = SAMPLE.parse().unwrap();
        let l = l.swapped((1, 1), (2, 3)); // bomb to 11
        assert!(l.validate(&Rules::default()).is_err());
        let flying = Rules {
            flying_bombs: true,
            ..Rules::default()
        };
        assert!(l.validate(&flying).is_ok());
    }

    #[test]
    fn empty_points_are_reported() {
        let mut l: Layout = SAMPLE.parse().unwrap();
        l.set(3, 1, None);
        let errs = l.validate(&Rules::default()).unwrap_err().0;
        assert!(errs.contains(&LayoutProblem::EmptyPoint { row: 3, col: 1 }));
    }

    #[test]
    fn random_layouts_are_legal_and_vary() {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(7);
        let a = Layout::random(&Rules::default(), &mut rng);
        let b = Layout::random(&Rules::default(), &mut rng);
        assert_ne!(a, b);
        for _ in 0..500 {
            Layout::random(&Rules::default(), &mut rng)
                .validate(&Rules::default())
                .unwrap();
        }
    }

    #[test]
    fn mirror_keeps_legality_and_is_an_involution() {
        for named in classic_layouts() {
            let m = named.layout.mirrored();
            assert!(m.validate(&Rules::default()).is_ok());
            assert_eq!(m.mirrored(), named.layout);
        }
    }

    #[test]
    fn bad_text_gives_clear_errors() {
        assert_eq!("".parse::<Layout>().unwrap_err().line, 0);
        let bad = SAMPLE.replace("令", "马");
        let e = bad.parse::<Layout>().unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.to_string().contains("马"));
        let short = SAMPLE.replacen("师 兵 营 连 团", "师 兵 营", 1);
        assert_eq!(short.parse::<Layout>().unwrap_err().line, 1);
    }

    #[test]
    fn broken_layouts_file_is_an_error() {
        assert!(parse_layouts_file("{", &Rules::default()).is_err());
        assert!(
            parse_layouts_file(
                r#"{"layouts": [{"id": "x", "rows": []}]}"#,
                &Rules::default()
            )
            .is_err()
        );
    }
}
