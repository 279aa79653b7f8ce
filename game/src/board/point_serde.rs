//! How points are written in JSON and other human-readable formats: by
//! name. A point does not know its board, so the names are those of the
//! classic board (`"S53"`) unless a caller names them on another board for
//! a while ([`with_point_names`]; records of four-player games do, so their
//! points read `"S:35"`, `"E:31"`, `"C:5"` as BOARD4.md writes them). A point
//! the naming board does not have is written by index (`"#100"`). Binary
//! formats use the index.

use super::{Board, MAX_POINTS, Point};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::cell::Cell;

thread_local! {
    /// The board whose names (de)serialization uses on this thread (`None`: classic).
    static NAMING: Cell<Option<&'static Board>> = const { Cell::new(None) };
}

/// Runs `f` with points (de)serialized by their names on `board`, then
/// restores the naming in force before (also when `f` panics).
pub(crate) fn with_point_names<R>(board: &'static Board, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<&'static Board>);
    impl Drop for Restore {
        fn drop(&mut self) {
            NAMING.with(|n| n.set(self.0));
        }
    }
    let _restore = Restore(NAMING.with(|n| n.replace(Some(board))));
    f()
}

/// The board names are taken from now.
fn naming_board() -> &'static Board {
    NAMING.with(Cell::get).unwrap_or_else(Board::classic)
}

impl Serialize for Point {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            let board = naming_board();
            if self.index() >= board.len() {
                return s.collect_str(&format_args!("#{}", self.0));
            }
            s.collect_str(&board.file_name_of(*self))
        } else {
            s.serialize_u8(self.0)
        }
    }
}

impl<'de> Deserialize<'de> for Point {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        if d.is_human_readable() {
            let s = String::deserialize(d)?;
            if let Some(index) = s.strip_prefix('#') {
                return match index.parse::<u8>() {
                    Ok(i) if (i as usize) < MAX_POINTS => Ok(Point(i)),
                    _ => Err(serde::de::Error::custom(format!(
                        "point {s:?}: expected # and an index below {MAX_POINTS}"
                    ))),
                };
            }
            naming_board()
                .parse_point(&s)
                .map_err(serde::de::Error::custom)
        } else {
            let i = u8::deserialize(d)?;
            if (i as usize) < MAX_POINTS {
                Ok(Point(i))
            } else {
                Err(serde::de::Error::custom(format!(
                    "point index {i} out of range"
                )))
            }
        }
    }
}
