//! [`Point`]: a point of a board, with what is fixed about it
//! ([`PointKind`], [`PointInfo`]).

use crate::piece::Side;
use serde::{Deserialize, Serialize};

/// The most points any board has (the four-player board has 129).
pub const MAX_POINTS: usize = 129;

/// A point of a board, by index.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Point(pub u8);

impl Point {
    /// The index as `usize`.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// What kind of point this is (RULES.md §2).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PointKind {
    /// 兵站: an ordinary point.
    Station,
    /// 行营: safe; entered only when empty; starts empty.
    Camp,
    /// 大本营: a piece that enters never leaves (unless HQ exit).
    Headquarters,
}

/// Everything fixed about one point.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct PointInfo {
    /// Station, camp or headquarters.
    pub kind: PointKind,
    /// The half it belongs to (`None` only for a four-player centre point).
    pub half: Option<Side>,
    /// Row 1 (front) … 6 (back) within its half.
    pub row: u8,
    /// Column 1 … 5 from the half owner's left.
    pub col: u8,
    /// Drawing position: x grows to the right as South sees the board.
    pub x: f32,
    /// Drawing position: y grows upwards (away from South).
    pub y: f32,
    /// Whether the point lies on a railway.
    pub rail: bool,
}
