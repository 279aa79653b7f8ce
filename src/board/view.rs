//! Where the board goes: [`BoardView`] maps board points to world coordinates, fitted into the
//! [`BoardArea`] the screen left (zoomed in with [`BoardZoom`]); [`CurrentView`] is this frame's.

use bevy::prelude::*;
use junqi_game::{Board, Point, Side};

use super::scene::BoardScene;

/// Horizontal over vertical spacing of the points (tiles are wider than tall).
pub const X_RATIO: f32 = 1.55;
/// Extra vertical room (in rows) for the mountain line between the halves.
pub const GAP: f32 = 0.75;

/// Where the board may be drawn, in logical window pixels (top-left origin), set every frame by
/// the screen's UI after its panels; `None` means the whole window.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct BoardArea(pub Option<Rect>);

impl BoardArea {
    /// The area in world coordinates, in a window of logical `size` (the whole window if the
    /// screen left none).
    pub fn in_world(&self, size: Vec2) -> Rect {
        window_rect_to_world(self.0.unwrap_or(Rect::new(0.0, 0.0, size.x, size.y)), size)
    }
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
    /// The four-player board (a 17 × 17 grid, the same spacing both ways).
    pub four: bool,
}

impl BoardView {
    /// Classic board height in rows, mountain gap included.
    pub const ROWS: f32 = 11.0 + GAP;
    /// The four-player board's size in grid steps (BOARD4.md §1.3).
    pub const FOUR: f32 = 16.0;

    /// The largest view that fits `area` (world coordinates), own `bottom` side down.
    pub fn fit(area: Rect, bottom: Side, four: bool) -> Self {
        Self::fit_focused(area, bottom, four, false)
    }

    /// As [`BoardView::fit`]; with `own_half` on the four-player board, the bottom seat's half
    /// (grid x 5…11, y 0…5) fills the area instead of the whole board.
    pub fn fit_focused(area: Rect, bottom: Side, four: bool, own_half: bool) -> Self {
        if four && own_half {
            // The half's middle at the area's centre: the board's centre is above it.
            return Self::fit_region(
                area,
                bottom,
                Vec2::new(Self::FOUR / 2.0, 2.5),
                Vec2::new(5.6, 6.6),
            );
        }
        if four {
            let s = (area.height().min(area.width()) / (Self::FOUR + 1.2)).max(6.0);
            return Self {
                center: area.center(),
                sx: s,
                sy: s,
                bottom,
                four,
            };
        }
        let sy = (area.height() / (Self::ROWS + 1.3)).min(area.width() / (4.0 + 1.4) / X_RATIO);
        let sy = sy.max(8.0);
        Self {
            center: area.center(),
            sx: sy * X_RATIO,
            sy,
            bottom,
            four,
        }
    }

    /// The four-player board with the display grid region of `span` steps round `centre` (grid
    /// coordinates, the bottom seat's half down) filling `area`; the rest lies outside it.
    pub fn fit_region(area: Rect, bottom: Side, centre: Vec2, span: Vec2) -> Self {
        let s = (area.width() / span.x).min(area.height() / span.y).max(6.0);
        let offset = (Vec2::splat(Self::FOUR / 2.0) - centre) * s;
        Self {
            center: area.center() + offset,
            sx: s,
            sy: s,
            bottom,
            four: true,
        }
    }

    /// The four-player board zoomed in round `centre` (see [`BoardZoom`]): [`ZOOM_SPAN`] grid
    /// steps across the narrower side of `area`.
    pub fn fit_zoomed(area: Rect, bottom: Side, centre: Vec2) -> Self {
        Self::fit_region(
            area,
            bottom,
            BoardZoom::clamp(centre),
            Vec2::splat(ZOOM_SPAN),
        )
    }

    /// The board drawn.
    pub fn board(&self) -> &'static Board {
        if self.four {
            Board::four_player()
        } else {
            Board::classic()
        }
    }

    /// The grid's size: columns and rows (x 0…w, y 0…h).
    pub fn extent(&self) -> Vec2 {
        if self.four {
            Vec2::splat(Self::FOUR)
        } else {
            Vec2::new(4.0, Self::ROWS)
        }
    }

    /// Display coordinates of a point in grid steps, the bottom side's half down.
    pub fn grid(&self, p: Point) -> Vec2 {
        let info = self.board().info(p);
        if self.four {
            let n = Self::FOUR;
            let (x, y) = (info.x, info.y);
            // Quarter turns that bring the bottom seat's half down, its left on the left.
            let (x, y) = match self.bottom {
                Side::South => (x, y),
                Side::East => (y, n - x),
                Side::North => (n - x, n - y),
                Side::West => (n - y, x),
            };
            return Vec2::new(x, y);
        }
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
        let half = self.extent() / 2.0;
        self.center + Vec2::new((g.x - half.x) * self.sx, (g.y - half.y) * self.sy)
    }

    /// Tile size in pixels.
    pub fn tile_size(&self) -> Vec2 {
        if self.four {
            return Vec2::new(self.sx * 0.9, self.sy * 0.7);
        }
        Vec2::new(self.sx * 0.78, self.sy * 0.66)
    }

    /// The point under a world position, if any (within a tile's size).
    pub fn pick(&self, world: Vec2) -> Option<Point> {
        let half = self.tile_size() / 2.0 + Vec2::splat(2.0);
        self.board().points().find(|&p| {
            let d = (self.world(p) - world).abs();
            d.x <= half.x && d.y <= half.y
        })
    }
}

/// Segments a curved corner railway is drawn (and slid along) with.
const ARC_STEPS: usize = 8;

impl BoardView {
    /// The points a railway edge is drawn through: a straight edge is its two ends; a curved
    /// corner rail (弧形线, the only edges between diagonal neighbours) is a quarter arc round
    /// the inner corner of the empty square it turns about (BOARD4.md §1.3).
    pub fn edge_path(&self, a: Point, b: Point) -> Vec<Vec2> {
        let v = self;
        let (ga, gb) = (v.grid(a), v.grid(b));
        let d = gb - ga;
        if d.x.abs() < 0.01 || d.y.abs() < 0.01 {
            return vec![v.world(a), v.world(b)];
        }
        // Of the two corners of the pair, the one farther from the board's centre.
        let centre = v.extent() / 2.0;
        let (c1, c2) = (Vec2::new(ga.x, gb.y), Vec2::new(gb.x, ga.y));
        let pivot = if c1.distance(centre) > c2.distance(centre) {
            c1
        } else {
            c2
        };
        let (r, a0) = ((ga - pivot).length(), (ga - pivot).to_angle());
        let mut turn = (gb - pivot).to_angle() - a0;
        if turn > std::f32::consts::PI {
            turn -= std::f32::consts::TAU;
        } else if turn < -std::f32::consts::PI {
            turn += std::f32::consts::TAU;
        }
        (0..=ARC_STEPS)
            .map(|i| {
                let t = a0 + turn * i as f32 / ARC_STEPS as f32;
                v.grid_to_world(pivot + Vec2::from_angle(t) * r)
            })
            .collect()
    }

    /// The point a finger means at `world`: the point under it when that is one of `prefer`
    /// (the selected piece's targets) or holds a piece (`occupied`), else the nearest of `prefer`
    /// within `radius`, else the point under it, else the nearest point within `radius`. A
    /// finger covers more than a tile on a small board; this lets a tap land.
    pub fn pick_near(
        &self,
        world: Vec2,
        radius: f32,
        prefer: &[Point],
        occupied: impl Fn(Point) -> bool,
    ) -> Option<Point> {
        let nearest = |points: &mut dyn Iterator<Item = Point>| {
            points
                .map(|p| (p, self.world(p).distance(world)))
                .filter(|&(_, d)| d <= radius)
                .min_by(|a, b| a.1.total_cmp(&b.1))
                .map(|(p, _)| p)
        };
        let exact = self.pick(world);
        exact
            .filter(|&p| prefer.contains(&p) || occupied(p))
            .or_else(|| nearest(&mut prefer.iter().copied()))
            .or(exact)
            .or_else(|| nearest(&mut self.board().points()))
    }
}

/// Converts a rectangle in logical window pixels (top-left origin) to world coordinates.
pub fn window_rect_to_world(r: Rect, window: Vec2) -> Rect {
    Rect::from_corners(
        Vec2::new(r.min.x - window.x / 2.0, window.y / 2.0 - r.max.y),
        Vec2::new(r.max.x - window.x / 2.0, window.y / 2.0 - r.min.y),
    )
}

/// Grid steps across the area when the four-player board is zoomed in: on a phone held upright
/// (about 430 dp across) neighbouring points are then about 48 dp apart, a finger's width,
/// where the whole board gives them about 25.
pub const ZOOM_SPAN: f32 = 9.0;

/// The four-player board zoomed in on a phone: the display grid point at the area's centre
/// (`None`: the whole board). Set by the game screen's 放大 button, moved by dragging the board
/// with a finger where no piece is.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct BoardZoom(pub Option<Vec2>);

impl BoardZoom {
    /// Where zooming in starts: the player's own half and the centre.
    pub const HOME: Vec2 = Vec2::new(BoardView::FOUR / 2.0, 4.5);

    /// `centre` kept so that the zoomed region stays on the board.
    pub fn clamp(centre: Vec2) -> Vec2 {
        let half = ZOOM_SPAN / 2.0 - 0.5;
        centre.clamp(Vec2::splat(half), Vec2::splat(BoardView::FOUR - half))
    }
}

/// The view the board is drawn in this frame (`None` while no board is shown), for drawing, input
/// and effects.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct CurrentView(pub Option<BoardView>);

/// Fits the board into the area the screen left for it.
pub(super) fn track_view(
    scene: Res<BoardScene>,
    area: Res<BoardArea>,
    zoom: Res<BoardZoom>,
    window: Option<Single<&Window, With<bevy::window::PrimaryWindow>>>,
    mut current: ResMut<CurrentView>,
) {
    let view = window.filter(|_| scene.active).map(|window| {
        let rect = area.in_world(window.size());
        if let (true, false, Some(centre)) = (scene.four, scene.focus_own_half, zoom.0) {
            return BoardView::fit_zoomed(rect, scene.bottom.unwrap_or(Side::South), centre);
        }
        BoardView::fit_focused(
            rect,
            scene.bottom.unwrap_or(Side::South),
            scene.four,
            scene.focus_own_half,
        )
    });
    current.set_if_neq(CurrentView(view));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_side_is_at_the_bottom_and_pick_finds_every_point() {
        let b = Board::classic();
        let area = Rect::from_center_size(Vec2::new(-100.0, 0.0), Vec2::new(700.0, 780.0));
        for bottom in [Side::South, Side::North] {
            let view = BoardView::fit(area, bottom, false);
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
    fn on_the_four_player_board_each_seat_sees_its_half_down_and_its_next_player_on_the_right() {
        let b = Board::four_player();
        let area = Rect::from_center_size(Vec2::new(50.0, -20.0), Vec2::new(760.0, 760.0));
        for bottom in Side::FOUR {
            let view = BoardView::fit(area, bottom, true);
            let mid = |side: Side| view.world(b.point(side, 3, 3).unwrap());
            let centre = view.world(b.parse_point("C:5").unwrap());
            assert!((mid(bottom).x - centre.x).abs() < 1.0, "{bottom:?}");
            assert!(mid(bottom).y < centre.y, "{bottom:?}: own half below");
            assert!(
                mid(bottom.partner()).y > centre.y,
                "{bottom:?}: partner on top"
            );
            // BOARD4.md §1.1: the half on a player's right is the next player's.
            assert!(
                mid(bottom.next(false)).x > centre.x,
                "{bottom:?}: next player on the right"
            );
            assert!(
                mid(bottom.next(false).partner()).x < centre.x,
                "{bottom:?}: previous player on the left"
            );
            // Column 1 is on the owner's left.
            let (left, right) = (
                b.point(bottom, 3, 1).unwrap(),
                b.point(bottom, 3, 5).unwrap(),
            );
            assert!(view.world(left).x < view.world(right).x);
            for p in b.points() {
                let w = view.world(p);
                assert!(area.contains(w), "{p:?} outside the area");
                assert_eq!(view.pick(w), Some(p), "{p:?}");
            }
        }
    }

    #[test]
    fn a_finger_lands_on_the_nearest_target_but_never_steals_a_tap_on_a_piece() {
        let b = Board::four_player();
        let area = Rect::from_center_size(Vec2::ZERO, Vec2::new(430.0, 430.0));
        let view = BoardView::fit(area, Side::South, true);
        let a = b.point(Side::South, 3, 3).unwrap();
        let target = b.point(Side::South, 3, 4).unwrap();
        let gap = (view.world(a) + view.world(target)) / 2.0;
        let radius = view.sx;
        // Between a station and a target: the target.
        let off = view.world(a) + (view.world(target) - view.world(a)) * 0.45;
        assert_eq!(
            view.pick_near(off, radius, &[target], |_| false),
            Some(target)
        );
        assert_eq!(
            view.pick_near(gap, radius, &[target], |_| false),
            Some(target)
        );
        // Right on a piece: the piece, even beside a target.
        let on_a = view.world(a);
        assert_eq!(view.pick_near(on_a, radius, &[target], |p| p == a), Some(a));
        // No target: the point under the finger, or the nearest one in reach.
        assert_eq!(view.pick_near(on_a, radius, &[], |_| false), Some(a));
        assert_eq!(
            view.pick_near(area.max + Vec2::splat(500.0), radius, &[], |_| false),
            None
        );
    }

    #[test]
    fn the_own_half_can_fill_the_area_on_the_big_board() {
        let b = Board::four_player();
        let area = Rect::from_center_size(Vec2::new(0.0, -40.0), Vec2::new(430.0, 560.0));
        for bottom in Side::FOUR {
            let whole = BoardView::fit(area, bottom, true);
            let view = BoardView::fit_focused(area, bottom, true, true);
            assert!(view.sx > whole.sx * 2.5, "{bottom:?}: tiles grow");
            for row in 1..=6 {
                for col in 1..=5 {
                    let p = b.point(bottom, row, col).unwrap();
                    let w = view.world(p);
                    assert!(
                        area.contains(w),
                        "{bottom:?} {row}{col} at {w} outside {area:?}"
                    );
                    assert_eq!(view.pick(w), Some(p));
                }
            }
        }
    }

    #[test]
    fn window_rects_convert() {
        let r = window_rect_to_world(Rect::new(0.0, 0.0, 1280.0, 800.0), Vec2::new(1280.0, 800.0));
        assert_eq!(r.min, Vec2::new(-640.0, -400.0));
        assert_eq!(r.max, Vec2::new(640.0, 400.0));
    }
}
