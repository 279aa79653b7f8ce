//! Point names: [`PointName`] (`S53`, `N13`, `C5`) and [`PointNameError`].

use crate::piece::Side;
use std::fmt;

/// How a point name failed to parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown point {name:?}: expected a side letter and row/column digits such as S53 or N13")]
pub struct PointNameError {
    /// The text that failed.
    pub name: String,
}

/// A printable point name.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PointName {
    /// The half (`None` for a four-player centre point).
    pub half: Option<Side>,
    /// Row within the half (0 for a centre point).
    pub row: u8,
    /// Column within the half (the keypad number 1…9 for a centre point).
    pub col: u8,
}

impl fmt::Display for PointName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.half {
            Some(side) => write!(f, "{}{}{}", side.letter(), self.row, self.col),
            None => write!(f, "C{}", self.col),
        }
    }
}
