//! The position JSON format: a whole position (the referee's truth) as a
//! small, hand-writable JSON document, for tests, perft files and the CLI.
//!
//! ```json
//! {
//!   "rules": { "flying_bombs": true },
//!   "mode": "dark",
//!   "turn": "south",
//!   "ply": 12,
//!   "quiet_plies": 3,
//!   "pieces": {
//!     "south": { "S51": "engineer", "S62": "flag", "S53": "40" },
//!     "north": { "N62": "flag", "N13": "司令" }
//!   },
//!   "face_down": [],
//!   "colours_fixed": true
//! }
//! ```
//!
//! Every field but `pieces` is optional. `rules` holds any subset of the
//! [`Rules`] options (the rest keep their defaults); `mode` may stand on its
//! own or inside `rules` (both must then agree). Ranks are written as JSON keys
//! (`"commander"`), nicknames (`"40"`, `"00"`) or Chinese names (`"司令"`, `"令"`).
//! Pieces get identities in army order: the first engineer of a side listed is
//! its first engineer of [`Rank::army`], and so on, so a side may have at most
//! as many pieces of a rank as an army has. `face_down` (flip games only)
//! lists points whose piece is face down; `colours_fixed` (flip games only,
//! default: true when some piece is face up) says whether the first flip has
//! decided the colours.
//!
//! Four-player positions say `"board": "four-player"`, may list pieces for
//! `east` and `west` too, name points as BOARD4.md does (`S:35`, `C:5`, as they are
//! written; the colon is optional when reading), and may list the seats that are `out` (they hold no
//! pieces; the file does not say why, and they load as resigned). Loading
//! settles the turn: a seat to move without a legal move is out, as in play.
//!
//! Loading reports unknown points, ranks, fields and rule options, and pieces
//! that do not fit together, all at once, and never panics.

use crate::board::{Board, PointKind};
use crate::piece::{Piece, PieceId, Rank, Side};
use crate::position::Position;
use crate::rules::{Mode, Rules};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// The JSON document, as written.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PositionFile {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    board: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    rules: Option<serde_json::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    mode: Option<Mode>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    turn: Option<Side>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    ply: Option<u16>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    quiet_plies: Option<u16>,
    pieces: Pieces,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    face_down: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    colours_fixed: Option<bool>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    out: Vec<Side>,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Pieces {
    #[serde(default)]
    south: BTreeMap<String, String>,
    #[serde(default)]
    north: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    east: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    west: BTreeMap<String, String>,
}

/// Why a position file could not be loaded: every problem found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct PositionFileError(pub Vec<String>);

impl fmt::Display for PositionFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.as_slice() {
            [one] => write!(f, "bad position file: {one}"),
            many => {
                write!(f, "bad position file ({} problems):", many.len())?;
                for p in many {
                    write!(f, "\n  {p}")?;
                }
                Ok(())
            }
        }
    }
}

/// Loads a position from its JSON text (see the module documentation).
pub fn position_from_json(text: &str) -> Result<Position, PositionFileError> {
    let file: PositionFile =
        serde_json::from_str(text).map_err(|e| PositionFileError(vec![format!("JSON: {e}")]))?;
    let mut problems = Vec::new();
    let rules = read_rules(&file, &mut problems);
    let board = match file.board.as_deref() {
        None => rules.two_player_board(),
        Some("classic") if rules.four_player_board => {
            problems.push(
                "board: \"classic\", but rules.four_player_board seats the players on the four-player board"
                    .to_string(),
            );
            Board::classic()
        }
        Some("classic") => Board::classic(),
        Some("four-player") => Board::four_player(),
        Some(other) => {
            problems.push(format!(
                "board: unknown board {other:?} (\"classic\" or \"four-player\")"
            ));
            Board::classic()
        }
    };
    // Four players, or two (on either board).
    let four = board.sides().len() == 4 && !rules.four_player_board;
    let turn = match file.turn.unwrap_or(Side::South) {
        side if four || Side::TWO.contains(&side) => side,
        other => {
            problems.push(format!(
                "turn: {other} does not play in a two-player game (south or north)"
            ));
            Side::South
        }
    };
    if four && rules.mode == Mode::Flip {
        problems.push("mode: flip games are two-player only".to_string());
    }
    if !four && !file.out.is_empty() {
        problems.push("out: only four-player games have players out".to_string());
    }
    let east_or_west = !file.pieces.east.is_empty() || !file.pieces.west.is_empty();
    if !four && east_or_west {
        problems.push(
            "pieces: east and west play only in four-player games (\"board\": \"four-player\")"
                .to_string(),
        );
    }
    let mut pos = Position::empty(board, rules, turn);
    pos.set_counters(file.ply.unwrap_or(0), file.quiet_plies.unwrap_or(0));

    let mut face_down = Vec::new();
    for name in &file.face_down {
        match board.parse_point(name) {
            Ok(p) if face_down.contains(&p) => {
                problems.push(format!("face_down: {name} is listed twice"))
            }
            Ok(p) => face_down.push(p),
            Err(e) => problems.push(format!("face_down: {e}")),
        }
    }
    if rules.mode != Mode::Flip && !face_down.is_empty() {
        problems.push("face_down: face-down pieces exist only in flip games".to_string());
    }
    let army = Rank::army();
    let mut any_face_up = false;
    for (side, list) in [
        (Side::South, &file.pieces.south),
        (Side::North, &file.pieces.north),
        (Side::East, &file.pieces.east),
        (Side::West, &file.pieces.west),
    ] {
        if file.out.contains(&side) && !list.is_empty() {
            problems.push(format!("out: {side} is out but has pieces"));
        }
        let mut used = [false; 25];
        for (name, rank_text) in list {
            let point = match board.parse_point(name) {
                Ok(p) => p,
                Err(e) => {
                    problems.push(format!("{side} pieces: {e}"));
                    continue;
                }
            };
            let Some(rank) = Rank::parse(rank_text) else {
                problems.push(format!(
                    "{side} pieces: {name}: unknown rank {rank_text:?} (use e.g. \"commander\", \"40\" or \"司令\")"
                ));
                continue;
            };
            if let Some(other) = pos.at(point) {
                problems.push(format!(
                    "{side} pieces: {name} is already taken by {}'s {}",
                    other.side,
                    other.rank.key()
                ));
                continue;
            }
            let Some(slot) = (0..25).find(|&i| army[i] == rank && !used[i]) else {
                problems.push(format!(
                    "{side} pieces: more than {} × {} (an army has {})",
                    rank.count(),
                    rank.key(),
                    rank.count()
                ));
                continue;
            };
            used[slot] = true;
            let face_up = !face_down.contains(&point);
            any_face_up |= face_up;
            if !face_up && board.kind(point) == PointKind::Camp {
                problems.push(format!(
                    "face_down: {name} is a camp; face-down pieces never stand in camps"
                ));
            }
            pos.set(
                point,
                Some(Piece {
                    side,
                    rank,
                    face_up,
                    id: PieceId((side.index() * 25 + slot) as u8),
                }),
            );
        }
    }
    for &p in &face_down {
        if pos.at(p).is_none() {
            problems.push(format!(
                "face_down: no piece on {} to lie face down",
                board.name_of(p)
            ));
        }
    }
    match file.colours_fixed {
        Some(_) if rules.mode != Mode::Flip => {
            problems.push("colours_fixed: only flip games have it".to_string())
        }
        Some(false) if any_face_up => problems.push(
            "colours_fixed: false, but a piece is face up (the first flip decides the colours)"
                .to_string(),
        ),
        Some(fixed) => pos.set_colours_fixed(fixed),
        None if rules.mode == Mode::Flip => pos.set_colours_fixed(any_face_up),
        None => {}
    }
    if four {
        for &side in &file.out {
            pos.set_out(side, crate::position::WinReason::Resignation);
        }
        pos.settle();
    }
    if problems.is_empty() {
        Ok(pos)
    } else {
        Err(PositionFileError(problems))
    }
}

/// The rules of the file: `rules` over the defaults, then `mode`.
fn read_rules(file: &PositionFile, problems: &mut Vec<String>) -> Rules {
    let mut rules = Rules::default();
    if let Some(value) = &file.rules {
        let known = serde_json::to_value(Rules::default()).expect("rules serialize");
        match (value.as_object(), known.as_object()) {
            (Some(given), Some(known)) => {
                let unknown: Vec<&String> =
                    given.keys().filter(|k| !known.contains_key(*k)).collect();
                if unknown.is_empty() {
                    match serde_json::from_value::<Rules>(value.clone()) {
                        Ok(r) => rules = r,
                        Err(e) => problems.push(format!("rules: {e}")),
                    }
                } else {
                    let names: Vec<&str> = known.keys().map(String::as_str).collect();
                    problems.push(format!(
                        "rules: unknown option(s) {unknown:?}; the options are {}",
                        names.join(", ")
                    ));
                }
            }
            _ => problems.push("rules: expected an object of rule options".to_string()),
        }
    }
    if let Some(mode) = file.mode {
        let explicit = file
            .rules
            .as_ref()
            .and_then(|v| v.get("mode"))
            .is_some_and(|_| rules.mode != mode);
        if explicit {
            problems.push(format!(
                "mode: {mode:?} disagrees with rules.mode {:?}",
                rules.mode
            ));
        }
        rules.mode = mode;
    }
    rules
}

/// Writes a position in the position JSON format (pretty-printed). Loading the
/// text gives back the same pieces, counters and rules; piece identities are
/// renumbered in army order.
pub fn position_to_json(pos: &Position) -> String {
    let board = pos.board();
    let four = pos.is_team_game();
    let mut file = PositionFile {
        board: (board.sides().len() == 4).then(|| board.name().to_string()),
        out: if four {
            Side::FOUR.into_iter().filter(|&s| !pos.is_in(s)).collect()
        } else {
            Vec::new()
        },
        rules: Some(serde_json::to_value(pos.rules()).expect("rules serialize")),
        turn: Some(pos.turn()),
        ply: Some(pos.ply()),
        quiet_plies: Some(pos.quiet_plies()),
        ..PositionFile::default()
    };
    for (p, pc) in pos.pieces() {
        let name = board.file_name_of(p);
        let list = match pc.side {
            Side::South => &mut file.pieces.south,
            Side::North => &mut file.pieces.north,
            Side::East => &mut file.pieces.east,
            Side::West => &mut file.pieces.west,
        };
        list.insert(name.clone(), pc.rank.key().to_string());
        if !pc.face_up {
            file.face_down.push(name);
        }
    }
    if pos.rules().mode == Mode::Flip {
        file.colours_fixed = Some(pos.colours_fixed());
    }
    serde_json::to_string_pretty(&file).expect("a position file serializes")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(name: &str) -> Option<crate::Point> {
        Board::classic().parse_point(name).ok()
    }

    #[test]
    fn minimal_file_loads_with_defaults() {
        let pos =
            position_from_json(r#"{"pieces": {"south": {"S53": "40"}, "north": {"N62": "旗"}}}"#)
                .unwrap();
        assert_eq!(pos.turn(), Side::South);
        assert_eq!(*pos.rules(), Rules::default());
        let s53 = pos.at(point("S53").unwrap()).unwrap();
        assert_eq!((s53.side, s53.rank), (Side::South, Rank::Commander));
        assert_eq!(pos.at(point("N62").unwrap()).unwrap().rank, Rank::Flag);
    }

    #[test]
    fn every_problem_is_reported() {
        let text = r#"{
            "rules": {"flying_bomb": true},
            "mode": "flip",
            "pieces": {
                "south": {"S73": "commander", "S11": "horse", "S12": "40", "S13": "40"},
                "north": {"S12": "engineer"}
            },
            "face_down": ["S33", "X1"]
        }"#;
        let err = position_from_json(text).unwrap_err();
        let all = err.to_string();
        for needle in [
            "flying_bomb",
            "S73",
            "horse",
            "more than 1 × commander",
            "S12 is already taken",
            "X1",
            "no piece on S33",
        ] {
            assert!(all.contains(needle), "{needle} missing from {all}");
        }
    }

    #[test]
    fn broken_json_is_an_error_not_a_panic() {
        for text in [
            "",
            "{",
            "[]",
            r#"{"pieces": 3}"#,
            r#"{"pieces": {}, "turn": "east-ish"}"#,
            r#"{"pieces": {}, "turn": "east"}"#,
            r#"{"pieces": {}, "extra": 1}"#,
            r#"{"pieces": {}, "rules": 5}"#,
            r#"{"pieces": {}, "ply": -1}"#,
            r#"{"pieces": {}, "rules": {"mode": "dark"}, "mode": "open"}"#,
            r#"{"pieces": {}, "colours_fixed": true}"#,
        ] {
            assert!(position_from_json(text).is_err(), "{text}");
        }
    }

    #[test]
    fn save_and_load_round_trip() {
        let text = r#"{
            "rules": {"mode": "flip", "hq_exit": true},
            "turn": "north", "ply": 7, "quiet_plies": 2,
            "pieces": {"south": {"S51": "engineer", "S62": "flag", "S63": "landmine"},
                       "north": {"N13": "bomb", "N62": "flag"}},
            "face_down": ["S63", "N62"]
        }"#;
        let pos = position_from_json(text).unwrap();
        assert!(pos.colours_fixed());
        assert_eq!(pos.mines_left(Side::South), 1);
        let saved = position_to_json(&pos);
        let again = position_from_json(&saved).unwrap();
        assert_eq!(again, pos);
        assert_eq!(position_to_json(&again), saved);
    }

    #[test]
    fn four_player_positions_load_and_round_trip() {
        let text = r#"{
            "board": "four-player",
            "rules": {"quiet_draw_plies": 70, "last_pieces": true},
            "turn": "east", "ply": 21,
            "pieces": {"south": {"S:35": "corps", "S62": "flag"},
                       "east": {"E:11": "engineer", "E62": "flag"},
                       "north": {"C:5": "40", "N64": "flag"}},
            "out": ["west"]
        }"#;
        let pos = position_from_json(text).unwrap();
        let b = Board::four_player();
        assert!(std::ptr::eq(pos.board(), b));
        assert!(pos.is_team_game());
        assert!(!pos.is_in(Side::West) && pos.is_in(Side::East));
        assert_eq!(pos.turn(), Side::East);
        assert_eq!(
            pos.at(b.parse_point("C:5").unwrap())
                .map(|pc| (pc.side, pc.rank)),
            Some((Side::North, Rank::Commander))
        );
        let saved = position_to_json(&pos);
        let again = position_from_json(&saved).unwrap();
        assert_eq!(again, pos);
        assert_eq!(position_to_json(&again), saved);
        // Written with BOARD4.md's names.
        for name in ["\"S:35\"", "\"E:11\"", "\"C:5\"", "\"N:64\""] {
            assert!(saved.contains(name), "{name} in {saved}");
        }
        // Two-player files are written as before: no board, no out list.
        let two = position_from_json(r#"{"pieces": {"south": {"S53": "40"}}}"#).unwrap();
        let text = position_to_json(&two);
        assert!(!text.contains("\"board\"") && !text.contains("\"out\""));
        assert!(text.contains("\"S53\""));
    }

    #[test]
    fn four_player_problems_are_reported() {
        for (text, needle) in [
            (r#"{"pieces": {"east": {"S11": "40"}}}"#, "east and west"),
            (r#"{"board": "hex", "pieces": {}}"#, "unknown board"),
            (r#"{"pieces": {}, "out": ["west"]}"#, "only four-player"),
            (
                r#"{"board": "four-player", "pieces": {"west": {"W11": "40"}}, "out": ["west"]}"#,
                "west is out but has pieces",
            ),
            (
                r#"{"board": "four-player", "mode": "flip", "pieces": {}}"#,
                "two-player only",
            ),
            (
                r#"{"board": "four-player", "pieces": {"east": {"C:0": "40"}}}"#,
                "unknown point",
            ),
        ] {
            let err = position_from_json(text).unwrap_err();
            assert!(err.to_string().contains(needle), "{text}: {err}");
        }
    }
}
