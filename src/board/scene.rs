//! What the board shows: the tiles ([`Tile`], [`Face`], [`Colour`]) and highlights of a
//! [`BoardScene`], which the setup, game and replay screens fill, and the [`TileAt`] marker of a
//! tile as drawn.

use bevy::prelude::*;
use junqi_game::{Point, Rank, Side};

/// What a piece tile shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Face {
    /// Its rank, face up.
    Rank(Rank),
    /// An enemy piece whose rank the player does not know: a plain back in its colour.
    Back,
    /// Flip games: a face-down piece of unknown colour.
    FaceDown,
}

/// Tile colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    /// Red army.
    Red,
    /// Blue army.
    Blue,
    /// Green army (four-player games).
    Green,
    /// Purple army (four-player games).
    Purple,
    /// Face down, no colour yet.
    Neutral,
}

impl Colour {
    /// A seat's colour in four-player games, fixed per seat as in the QQ rooms (红 紫 绿 蓝
    /// round the table), so that every player calls the same army by the same colour.
    pub fn of_seat(side: Side) -> Colour {
        match side {
            Side::South => Colour::Red,
            Side::East => Colour::Purple,
            Side::North => Colour::Green,
            Side::West => Colour::Blue,
        }
    }

    /// The fill colour of a tile (sRGB).
    pub fn rgb(self) -> [u8; 3] {
        match self {
            Colour::Red => [196, 40, 36],
            Colour::Blue => [34, 78, 170],
            Colour::Green => [30, 130, 62],
            Colour::Purple => [118, 52, 150],
            Colour::Neutral => [92, 110, 84],
        }
    }
}

/// One piece on the board as the player sees it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Tile {
    /// What it shows.
    pub face: Face,
    /// Its colour.
    pub colour: Colour,
    /// A private marker the player put on it (e.g. "令?").
    pub marker: Option<String>,
}

/// Everything the board shows. Screens fill it; the board is redrawn when it changes.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct BoardScene {
    /// Whether the board is shown at all.
    pub active: bool,
    /// The side whose half is at the bottom (the player's own).
    pub bottom: Option<Side>,
    /// The pieces.
    pub pieces: Vec<(Point, Tile)>,
    /// The selected point.
    pub selected: Option<Point>,
    /// Legal targets of the selected piece.
    pub targets: Vec<Point>,
    /// The last move's points.
    pub last_move: Vec<Point>,
    /// A hint's points.
    pub hint: Vec<Point>,
    /// Points to flag as wrong (a refused swap).
    pub warn: Vec<Point>,
    /// Show ranks as 40…32 instead of their names.
    pub show_nicknames: bool,
    /// Dim the half that is not the player's (setup; on the four-player board every other half).
    pub dim_enemy_half: bool,
    /// The four-player board instead of the classic one.
    pub four: bool,
    /// Four-player games: each seat's latest move, outlined in its colour.
    pub seat_moves: Vec<(Point, Point, Colour)>,
    /// Four-player board: halves nobody plays (two players on the big board) or whose player is
    /// out, drawn dimmed.
    pub dim_halves: Vec<Side>,
    /// Four-player board: fit the bottom seat's half to the area (the rest of the board runs
    /// off it, under the panels), for arranging a layout on a small screen.
    pub focus_own_half: bool,
}

impl BoardScene {
    /// The tile at `p`, if any.
    pub fn tile(&self, p: Point) -> Option<&Tile> {
        self.pieces.iter().find(|(q, _)| *q == p).map(|(_, t)| t)
    }
}

/// A part of a piece's tile as drawn: the point it stands on and where the part was drawn, so
/// that a move can slide the tile in from where it came.
#[derive(Component, Clone, Copy, Debug)]
pub struct TileAt {
    /// The piece's point.
    pub point: Point,
    /// The part's drawn position.
    pub base: Vec2,
}
