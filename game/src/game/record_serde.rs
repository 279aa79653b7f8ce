//! A record in JSON names its points on the game's own board: classic names
//! (`"S53"`) for classic games, exactly as before, and BOARD4.md's names
//! (`"S:35"`, `"E:31"`, `"C:5"`) on the four-player board, where the classic
//! names would mean other points. Reading resolves the names once the setup
//! and rules say which board the game is on, whatever the field order.

use super::{Action, Record, Setup};
use crate::board::point_serde::with_point_names;
use crate::board::{Board, Point, PointNameError};
use crate::piece::Side;
use crate::position::Move;
use crate::rules::Rules;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The board a record's points belong to.
fn board_of(rules: &Rules, setup: &Setup) -> &'static Board {
    match setup {
        Setup::Four { .. } => Board::four_player(),
        _ => rules.two_player_board(),
    }
}

/// The actions, serialized with the point names of `board`.
struct Named<'a>(&'a [(Side, Action)], &'static Board);

impl Serialize for Named<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        with_point_names(self.1, || self.0.serialize(s))
    }
}

#[derive(Serialize)]
struct RecordOut<'a> {
    rules: &'a Rules,
    first: Side,
    setup: &'a Setup,
    actions: Named<'a>,
}

impl Serialize for Record {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        RecordOut {
            rules: &self.rules,
            first: self.first,
            setup: &self.setup,
            actions: Named(&self.actions, board_of(&self.rules, &self.setup)),
        }
        .serialize(s)
    }
}

/// A point as written, resolved once the board is known.
enum RawPoint {
    Name(String),
    Index(u8),
}

impl<'de> Deserialize<'de> for RawPoint {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        if d.is_human_readable() {
            String::deserialize(d).map(RawPoint::Name)
        } else {
            u8::deserialize(d).map(RawPoint::Index)
        }
    }
}

/// [`Move`] with its points as written (the same serde shape).
#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum RawMove {
    Step { from: RawPoint, to: RawPoint },
    Flip { at: RawPoint },
}

/// [`Action`] with its move as written (the same serde shape).
#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum RawAction {
    Move(RawMove),
    Timeout,
    Resign,
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
}

#[derive(Deserialize)]
struct RecordIn {
    rules: Rules,
    first: Side,
    setup: Setup,
    actions: Vec<(Side, RawAction)>,
}

/// Why a record's point is no point of its board.
#[derive(Debug, thiserror::Error)]
enum PointError {
    #[error("point index {index} is off the {board} board")]
    OffBoard { index: u8, board: &'static str },
    #[error("point {text:?}: expected # and an index below {len}")]
    BadIndex { text: String, len: usize },
    #[error(transparent)]
    Name(#[from] PointNameError),
}

/// A point name (or `#index`) on `board`, with the reason when it is none.
fn resolve(board: &'static Board, p: RawPoint) -> Result<Point, PointError> {
    let s = match p {
        RawPoint::Index(i) if (i as usize) < board.len() => return Ok(Point(i)),
        RawPoint::Index(index) => {
            return Err(PointError::OffBoard {
                index,
                board: board.name(),
            });
        }
        RawPoint::Name(s) => s,
    };
    if let Some(index) = s.strip_prefix('#') {
        return match index.parse::<u8>() {
            Ok(i) if (i as usize) < board.len() => Ok(Point(i)),
            _ => Err(PointError::BadIndex {
                text: s,
                len: board.len(),
            }),
        };
    }
    Ok(board.parse_point(&s)?)
}

impl<'de> Deserialize<'de> for Record {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = RecordIn::deserialize(d)?;
        let board = board_of(&raw.rules, &raw.setup);
        let mut actions = Vec::with_capacity(raw.actions.len());
        for (side, a) in raw.actions {
            let at = |p| resolve(board, p).map_err(D::Error::custom);
            let action = match a {
                RawAction::Move(RawMove::Step { from, to }) => Action::Move(Move::Step {
                    from: at(from)?,
                    to: at(to)?,
                }),
                RawAction::Move(RawMove::Flip { at: p }) => Action::Move(Move::Flip { at: at(p)? }),
                RawAction::Timeout => Action::Timeout,
                RawAction::Resign => Action::Resign,
                RawAction::OfferDraw => Action::OfferDraw,
                RawAction::AcceptDraw => Action::AcceptDraw,
                RawAction::DeclineDraw => Action::DeclineDraw,
            };
            actions.push((side, action));
        }
        Ok(Record {
            rules: raw.rules,
            first: raw.first,
            setup: raw.setup,
            actions,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::layout::classic_layouts;
    use crate::rules::Mode;

    fn four_player_game() -> Game {
        let c = classic_layouts();
        let layouts = [c[0].layout, c[1].layout, c[2].layout, c[3].layout];
        let mut game =
            Game::new_four(Rules::four_player(Mode::Dark), layouts, Side::South).unwrap();
        for _ in 0..40 {
            if game.result().is_some() {
                break;
            }
            let side = game.turn();
            let m = *game.position().legal_moves().last().unwrap();
            game.apply_table(side, Action::Move(m)).unwrap();
        }
        game
    }

    #[test]
    fn four_player_records_name_points_as_board4_does_and_read_back() {
        let game = four_player_game();
        let json = serde_json::to_string(game.record()).unwrap();
        // East's, North's and the centre's points by their own names; no
        // classic name and no index.
        let board = Board::four_player();
        for (_, a) in &game.record().actions {
            if let Action::Move(Move::Step { from, to }) = a {
                for p in [from, to] {
                    let name = board.name_of(*p);
                    let written = match name.half {
                        Some(s) => format!("\"{}:{}{}\"", s.letter(), name.row, name.col),
                        None => format!("\"C:{}\"", name.col),
                    };
                    assert!(json.contains(&written), "{written} missing");
                }
            }
        }
        assert!(!json.contains("\"#"), "{json}");
        let back: Record = serde_json::from_str(&json).unwrap();
        assert_eq!(&back, game.record());
        // A name the board does not have is an error, not a panic.
        let broken = json.replacen("\"S:", "\"S:9", 1);
        assert!(serde_json::from_str::<Record>(&broken).is_err());
    }

    #[test]
    fn the_field_order_does_not_matter_when_reading() {
        let game = four_player_game();
        let value: serde_json::Value = serde_json::to_value(game.record()).unwrap();
        let obj = value.as_object().unwrap();
        // Actions first, setup last: the names still resolve on the four-player board.
        let mut text = String::from("{");
        for (i, k) in ["actions", "first", "rules", "setup"].iter().enumerate() {
            if i > 0 {
                text.push(',');
            }
            text.push_str(&format!("\"{k}\":{}", obj[*k]));
        }
        text.push('}');
        let back: Record = serde_json::from_str(&text).unwrap();
        assert_eq!(&back, game.record());
    }

    #[test]
    fn classic_records_keep_their_classic_names() {
        let c = classic_layouts();
        let mut game = Game::new(Rules::default(), c[0].layout, c[1].layout, Side::South).unwrap();
        let m = *game.position().legal_moves().first().unwrap();
        game.apply(Side::South, Action::Move(m)).unwrap();
        let json = serde_json::to_string(game.record()).unwrap();
        let Move::Step { from, to } = m else {
            unreachable!()
        };
        let classic = Board::classic();
        assert!(
            json.contains(&format!(
                "{{\"move\":{{\"step\":{{\"from\":\"{}\",\"to\":\"{}\"}}}}}}",
                classic.name_of(from),
                classic.name_of(to)
            )),
            "{json}"
        );
        assert_eq!(
            &serde_json::from_str::<Record>(&json).unwrap(),
            game.record()
        );
    }
}
