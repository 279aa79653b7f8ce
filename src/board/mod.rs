//! The board on screen: what to show ([`BoardScene`], filled by the setup, game and replay
//! screens), where it goes ([`BoardView`], fitted into [`BoardArea`]), and the player's clicks and
//! drags turned into board points ([`BoardClick`], [`BoardDrag`]).

mod draw;
mod input;

use bevy::prelude::*;
use junqi_game::{Board, Point, Rank, Side};

pub use draw::{BoardEffect, REDRAWS};

/// Horizontal over vertical spacing of the points (tiles are wider than tall).
pub const X_RATIO: f32 = 1.55;
/// Extra vertical room (in rows) for the mountain line between the halves.
pub const GAP: f32 = 0.75;

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
    /// Face down, no colour yet.
    Neutral,
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
    /// Dim the half that is not the player's (setup).
    pub dim_enemy_half: bool,
}

impl BoardScene {
    /// The tile at `p`, if any.
    pub fn tile(&self, p: Point) -> Option<&Tile> {
        self.pieces.iter().find(|(q, _)| *q == p).map(|(_, t)| t)
    }
}

/// Where the board may be drawn, in logical window pixels (top-left origin), set every frame by
/// the screen's UI after its panels; `None` means the whole window.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct BoardArea(pub Option<Rect>);

/// A click on a board point (mouse released where it was pressed).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardClick(pub Point);

/// A piece dragged from one point and dropped on another.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardDrag {
    /// Where the drag started.
    pub from: Point,
    /// Where it was dropped.
    pub to: Point,
}

/// How board points map to world coordinates (2D camera at the origin, 1 unit = 1 logical px).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoardView {
    /// World position of the board's centre.
    pub center: Vec2,
    /// Pixels between neighbouring columns.
    pub sx: f32,
    /// Pixels between neighbouring rows.
    pub sy: f32,
    /// The side shown at the bottom.
    pub bottom: Side,
}

impl BoardView {
    /// Board height in rows, mountain gap included.
    pub const ROWS: f32 = 11.0 + GAP;

    /// The largest view that fits `area` (world coordinates), own `bottom` side down.
    pub fn fit(area: Rect, bottom: Side) -> Self {
        let sy = (area.height() / (Self::ROWS + 1.3)).min(area.width() / (4.0 + 1.4) / X_RATIO);
        let sy = sy.max(8.0);
        Self {
            center: area.center(),
            sx: sy * X_RATIO,
            sy,
            bottom,
        }
    }

    /// Display coordinates of a point in rows/columns: x 0…4, y 0…[`Self::ROWS`].
    pub fn grid(&self, p: Point) -> Vec2 {
        let info = Board::classic().info(p);
        let (x, y) = if self.bottom == Side::North {
            (4.0 - info.x, 11.0 - info.y)
        } else {
            (info.x, info.y)
        };
        Vec2::new(x, if y > 5.5 { y + GAP } else { y })
    }

    /// World position of a point.
    pub fn world(&self, p: Point) -> Vec2 {
        self.grid_to_world(self.grid(p))
    }

    /// World position of display grid coordinates.
    pub fn grid_to_world(&self, g: Vec2) -> Vec2 {
        self.center + Vec2::new((g.x - 2.0) * self.sx, (g.y - Self::ROWS / 2.0) * self.sy)
    }

    /// Tile size in pixels.
    pub fn tile_size(&self) -> Vec2 {
        Vec2::new(self.sx * 0.78, self.sy * 0.66)
    }

    /// The point under a world position, if any (within a tile's size).
    pub fn pick(&self, world: Vec2) -> Option<Point> {
        let half = self.tile_size() / 2.0 + Vec2::splat(2.0);
        Board::classic().points().find(|&p| {
            let d = (self.world(p) - world).abs();
            d.x <= half.x && d.y <= half.y
        })
    }
}

/// Converts a rectangle in logical window pixels (top-left origin) to world coordinates.
pub fn window_rect_to_world(r: Rect, window: Vec2) -> Rect {
    Rect::from_corners(
        Vec2::new(r.min.x - window.x / 2.0, window.y / 2.0 - r.max.y),
        Vec2::new(r.max.x - window.x / 2.0, window.y / 2.0 - r.min.y),
    )
}

/// Registers the scene, the messages and (in the rendering app) drawing and input.
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<BoardScene>()
        .init_resource::<BoardArea>()
        .add_message::<BoardClick>()
        .add_message::<BoardDrag>()
        .add_message::<BoardEffect>();
    if app.is_plugin_added::<bevy_egui::EguiPlugin>() {
        app.add_plugins((draw::plugin, input::plugin));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_side_is_at_the_bottom_and_pick_finds_every_point() {
        let b = Board::classic();
        let area = Rect::from_center_size(Vec2::new(-100.0, 0.0), Vec2::new(700.0, 780.0));
        for bottom in [Side::South, Side::North] {
            let view = BoardView::fit(area, bottom);
            let own_back = b.point(bottom, 6, 3).unwrap();
            let enemy_back = b.point(bottom.opponent(), 6, 3).unwrap();
            assert!(view.world(own_back).y < view.world(enemy_back).y);
            // Column 1 is on the owner's left.
            let left = b.point(bottom, 3, 1).unwrap();
            let right = b.point(bottom, 3, 5).unwrap();
            assert!(view.world(left).x < view.world(right).x);
            for p in b.points() {
                let w = view.world(p);
                assert!(area.contains(w), "{p:?} outside the area");
                assert_eq!(view.pick(w), Some(p));
                assert_eq!(view.pick(w + view.tile_size() * 0.4), Some(p));
            }
            assert_eq!(view.pick(area.min), None);
        }
    }

    #[test]
    fn window_rects_convert() {
        let r = window_rect_to_world(Rect::new(0.0, 0.0, 1280.0, 800.0), Vec2::new(1280.0, 800.0));
        assert_eq!(r.min, Vec2::new(-640.0, -400.0));
        assert_eq!(r.max, Vec2::new(640.0, 400.0));
    }
}
