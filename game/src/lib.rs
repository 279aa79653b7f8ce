//! Junqi (军棋) rules engine: the board graph, layouts, legal moves, combat,
//! the game with its counters and results, and what each player may know.
//!
//! Pure Rust: no I/O, no clock, no global random source. Callers pass random
//! number generators and report time-outs. (The command-line tools' progress
//! line, `progress`, writes to the terminal; it is behind the `progress`
//! feature, which the app does not take.)

pub mod ai;
mod board;
mod effect;
mod event;
mod game;
mod game_result;
mod illegal_move;
mod layout;
mod move_list;
mod move_sets;
mod moves;
pub mod notation;
mod perft;
mod piece;
mod position;
mod position_file;
#[cfg(feature = "progress")]
pub mod progress;
mod rank_set;
mod rules;
mod rules_problem;
mod targets;
mod view;

pub use board::{
    Board, MAX_POINTS, Point, PointInfo, PointKind, PointName, PointNameError, PointSet,
};
pub use game::scores::room_score;
pub use game::{
    Action, ActionError, Event, Game, Record, Setup, SetupError, TableEvent, public_events,
};
pub use layout::{
    Deployment, Layout, LayoutErrors, LayoutFileError, LayoutParseError, LayoutProblem,
    NamedLayout, classic_layouts, parse_layouts_file,
};
pub use perft::{perft, perft_divide};
pub use piece::{Piece, PieceId, Rank, RankNameError, Side, Team};
pub use position::{
    DrawReason, Effect, GameResult, IllegalMove, MAX_MOVES, Move, MoveList, MoveSets, Position,
    WinReason,
};
pub use position_file::{PositionFileError, position_from_json, position_to_json};
pub use rank_set::RankSet;
pub use rules::Announcement;
pub use rules::{Clash, FlagCapture, MineRule, Mode, Outcome, Rules};
pub use rules_problem::{MOVE_SECONDS, QUIET_DRAW_PLIES, RulesProblem};
pub use view::{Hidden, PieceKnowledge, PlayerView, Seen, ViewError};
