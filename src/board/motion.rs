//! Motion on the board: the moved piece slides in from where it came (along the rails for a
//! railway run, round the curves on the four-player board), and battles have a short effect
//! when it arrives: a burst for a capture, a flash for a trade, an explosion for a bomb, dust for
//! an engineer digging a mine, a golden blaze for a flag. Nothing here delays input or the
//! clock: the game has already moved on, the board only catches up; with
//! [`Settings::animations`] off pieces jump and only the caption shows.

use bevy::prelude::*;
use junqi_game::{Board, Point};

use super::{
    scene::{BoardScene, TileAt},
    view::{BoardView, CurrentView},
};
use crate::{battle::BattleKind, redraw::Redraw, settings::Settings, theme::Fonts};

/// A short effect on the board: a caption at a point, and an animation for a battle.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct BoardEffect {
    /// Where.
    pub at: Point,
    /// The caption (e.g. "同归于尽").
    pub text: String,
    /// The battle's kind, for its animation (`None`: a flip, a note).
    pub battle: Option<BattleKind>,
}

/// Seconds a slide takes per point passed, and its longest.
const SLIDE_STEP_SECS: f32 = 0.07;
const SLIDE_MAX_SECS: f32 = 0.45;

/// The slide in progress.
#[derive(Resource, Default)]
struct Slide {
    /// The last move seen on the board (a change starts a slide).
    seen: Vec<Point>,
    to: Option<Point>,
    path: Vec<Vec2>,
    t: f32,
    secs: f32,
}

impl Slide {
    /// Seconds until the moved piece arrives (effects wait for it).
    fn remaining(&self) -> f32 {
        if self.to.is_some() {
            (self.secs - self.t).max(0.0)
        } else {
            0.0
        }
    }
}

/// A running effect part: waits `delay`, then moves, grows and fades over its timer.
#[derive(Component)]
struct Effect {
    delay: f32,
    timer: Timer,
    velocity: Vec2,
    grow: f32,
    alpha: f32,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Slide>().add_systems(
        Update,
        (start_slide, run_slide, spawn_effects, animate_effects).chain(),
    );
}

/// The points a piece passes going `from` → `to` on `board` (both ends included): one step
/// along a road or rail, else the shortest run along the railways through points where
/// `empty` holds (a straight run is its own shortest path; an engineer's turns are found).
pub fn slide_path(
    board: &Board,
    from: Point,
    to: Point,
    empty: impl Fn(Point) -> bool,
) -> Vec<Point> {
    if board.road_neighbours(from).contains(&to) || board.rail_neighbours(from).contains(&to) {
        return vec![from, to];
    }
    let mut came: std::collections::HashMap<Point, Point> = Default::default();
    let mut queue = std::collections::VecDeque::from([from]);
    while let Some(p) = queue.pop_front() {
        if p == to {
            let mut path = vec![to];
            while let Some(&q) = came.get(path.last().expect("not empty")) {
                path.push(q);
            }
            path.reverse();
            return path;
        }
        for &q in board.rail_neighbours(p) {
            if q != from && !came.contains_key(&q) && (q == to || empty(q)) {
                came.insert(q, p);
                queue.push_back(q);
            }
        }
    }
    vec![from, to]
}

/// The world positions along `points`, curves included.
fn world_path(view: &BoardView, points: &[Point]) -> Vec<Vec2> {
    let board = view.board();
    let mut out = vec![view.world(points[0])];
    for w in points.windows(2) {
        let edge = if board.rail_neighbours(w[0]).contains(&w[1]) {
            view.edge_path(w[0], w[1])
        } else {
            vec![view.world(w[0]), view.world(w[1])]
        };
        out.extend(edge.into_iter().skip(1));
    }
    out
}

/// The point `f` (0…1) of the way along `path`, by length.
fn along(path: &[Vec2], f: f32) -> Vec2 {
    let total: f32 = path.windows(2).map(|w| w[0].distance(w[1])).sum();
    let mut left = total * f.clamp(0.0, 1.0);
    for w in path.windows(2) {
        let d = w[0].distance(w[1]);
        if left <= d && d > 0.0 {
            return w[0].lerp(w[1], left / d);
        }
        left -= d;
    }
    *path.last().unwrap_or(&Vec2::ZERO)
}

fn start_slide(
    scene: Res<BoardScene>,
    view: Res<CurrentView>,
    settings: Res<Settings>,
    mut slide: ResMut<Slide>,
) {
    if scene.last_move == slide.seen {
        return;
    }
    slide.seen = scene.last_move.clone();
    slide.to = None;
    let (Some(view), &[from, to]) = (view.0, &scene.last_move[..]) else {
        return;
    };
    // A piece that died attacking leaves nothing to slide.
    if !settings.animations || scene.tile(to).is_none() {
        return;
    }
    let points = slide_path(view.board(), from, to, |p| scene.tile(p).is_none());
    slide.secs = (SLIDE_STEP_SECS * points.len() as f32).clamp(0.15, SLIDE_MAX_SECS);
    slide.path = world_path(&view, &points);
    slide.t = 0.0;
    slide.to = Some(to);
}

fn run_slide(
    time: Res<Time>,
    view: Res<CurrentView>,
    mut slide: ResMut<Slide>,
    mut parts: Query<(&TileAt, &mut Transform)>,
    mut redraw: ResMut<Redraw>,
) {
    let (Some(to), Some(view)) = (slide.to, view.0) else {
        return;
    };
    slide.t += time.delta_secs();
    let f = (slide.t / slide.secs).min(1.0);
    if f < 1.0 {
        redraw.every_frame();
    }
    // Ease out: quick off the mark, settling on the point.
    let eased = 1.0 - (1.0 - f) * (1.0 - f);
    let offset = if f >= 1.0 {
        Vec2::ZERO
    } else {
        along(&slide.path, eased) - view.world(to)
    };
    for (tile, mut tf) in &mut parts {
        if tile.point == to {
            let z = tf.translation.z;
            tf.translation = (tile.base + offset).extend(z);
        }
    }
    if f >= 1.0 {
        slide.to = None;
    }
}

/// `n` square sparks of `size` in `colour`, each with its direction, evenly round a circle.
fn sparks(n: usize, colour: Color, size: f32) -> impl Iterator<Item = (Vec2, Sprite)> {
    (0..n).map(move |k| {
        let dir = Vec2::from_angle(k as f32 * std::f32::consts::TAU / n as f32);
        (dir, Sprite::from_color(colour, Vec2::splat(size)))
    })
}

fn spawn_effects(
    mut commands: Commands,
    mut reader: MessageReader<BoardEffect>,
    view: Res<CurrentView>,
    settings: Res<Settings>,
    slide: Res<Slide>,
    fonts: Option<Res<Fonts>>,
) {
    let (Some(view), Some(fonts)) = (view.0, fonts) else {
        reader.clear();
        return;
    };
    let delay = slide.remaining();
    for e in reader.read() {
        let at = view.world(e.at);
        let tile = view.tile_size();
        let mut part = |sprite: Sprite, at: Vec2, velocity: Vec2, grow: f32, secs: f32, z: f32| {
            let alpha = sprite.color.alpha();
            commands.spawn((
                Effect {
                    delay,
                    timer: Timer::from_seconds(secs, TimerMode::Once),
                    velocity,
                    grow,
                    alpha,
                },
                sprite,
                Transform::from_translation(at.extend(z)),
                Visibility::Hidden,
            ));
        };
        if settings.animations {
            match e.battle {
                Some(BattleKind::Bomb) => {
                    // A fireball (two squares at 45°: an eight-pointed blast) and flying sparks.
                    for (i, c) in [
                        (0, Color::srgba(1.0, 0.45, 0.1, 0.9)),
                        (1, Color::srgba(1.0, 0.8, 0.2, 0.9)),
                    ] {
                        let mut s = Sprite::from_color(c, Vec2::splat(tile.y * 1.1));
                        s.flip_x = i == 1;
                        part(s, at, Vec2::ZERO, 1.6, 0.7, 8.0 + i as f32 * 0.1);
                    }
                    for (dir, s) in sparks(10, Color::srgba(1.0, 0.6, 0.1, 1.0), tile.y * 0.16) {
                        part(s, at, dir * tile.x * 2.2, 0.0, 0.6, 8.3);
                    }
                }
                Some(BattleKind::Mine) => {
                    // Earth thrown up round the point.
                    for k in 0..8 {
                        let dir = Vec2::from_angle(0.3 + k as f32 * std::f32::consts::PI / 8.0);
                        let s = Sprite::from_color(
                            Color::srgba(0.45, 0.3, 0.15, 0.95),
                            Vec2::splat(tile.y * 0.2),
                        );
                        part(
                            s,
                            at - Vec2::Y * tile.y * 0.3,
                            dir * tile.x * 1.4,
                            -0.5,
                            0.7,
                            8.2,
                        );
                    }
                }
                Some(BattleKind::Trade) => {
                    // A white flash over the point.
                    let s = Sprite::from_color(Color::srgba(1.0, 1.0, 1.0, 0.9), tile * 1.3);
                    part(s, at, Vec2::ZERO, 0.6, 0.45, 8.0);
                }
                Some(BattleKind::Flag) => {
                    // A golden blaze, larger and longer than the rest.
                    let s = Sprite::from_color(Color::srgba(1.0, 0.85, 0.2, 0.85), tile * 1.4);
                    part(s, at, Vec2::ZERO, 2.5, 1.4, 8.0);
                    for (dir, s) in sparks(12, Color::srgba(1.0, 0.95, 0.4, 1.0), tile.y * 0.14) {
                        part(s, at, dir * tile.x * 1.8, 0.0, 1.2, 8.3);
                    }
                }
                Some(BattleKind::Capture) | None => {
                    let s = Sprite::from_color(Color::srgba(1.0, 0.85, 0.2, 0.7), tile * 1.2);
                    part(s, at, Vec2::ZERO, 0.8, 1.0, 8.0);
                }
            }
        }
        if e.text.is_empty() {
            continue;
        }
        commands.spawn((
            Effect {
                delay,
                timer: Timer::from_seconds(1.4, TimerMode::Once),
                velocity: if settings.animations {
                    Vec2::Y * 30.0
                } else {
                    Vec2::ZERO
                },
                grow: 0.0,
                alpha: 1.0,
            },
            Text2d::new(e.text.clone()),
            TextFont {
                font: fonts.bold.clone().into(),
                font_size: FontSize::Px(view.sy * 0.5),
                ..default()
            },
            TextColor(Color::srgb(1.0, 0.95, 0.3)),
            Transform::from_translation((at + Vec2::new(0.0, view.sy * 0.6)).extend(9.0)),
            Visibility::Hidden,
        ));
    }
}

/// An effect's parts that animate.
type EffectParts<'a> = (
    Entity,
    &'a mut Effect,
    &'a mut Transform,
    &'a mut Visibility,
    Option<&'a mut Sprite>,
    Option<&'a mut TextColor>,
);

fn animate_effects(
    mut commands: Commands,
    time: Res<Time>,
    mut effects: Query<EffectParts>,
    mut redraw: ResMut<Redraw>,
) {
    if !effects.is_empty() {
        redraw.every_frame();
    }
    let dt = time.delta_secs();
    for (e, mut fx, mut tf, mut vis, sprite, text) in &mut effects {
        if fx.delay > 0.0 {
            fx.delay -= dt;
            continue;
        }
        *vis = Visibility::Inherited;
        fx.timer.tick(time.delta());
        if fx.timer.is_finished() {
            commands.entity(e).despawn();
            continue;
        }
        let f = fx.timer.fraction();
        tf.translation += (fx.velocity * dt * (1.0 - f)).extend(0.0);
        tf.scale = Vec3::splat((1.0 + f * fx.grow).max(0.05));
        if let Some(mut s) = sprite {
            s.color = s.color.with_alpha(fx.alpha * (1.0 - f));
        }
        if let Some(mut c) = text {
            c.0 = c.0.with_alpha(1.0 - f * f);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use junqi_game::Side;

    #[test]
    fn a_railway_run_slides_along_the_rails_and_a_step_goes_straight() {
        let b = Board::classic();
        let p = |row, col| b.point(Side::South, row, col).unwrap();
        // One step along a road.
        assert_eq!(
            slide_path(b, p(2, 1), p(3, 1), |_| true),
            vec![p(2, 1), p(3, 1)]
        );
        // Along the front rail row: every point passed.
        let run = slide_path(b, p(1, 1), p(1, 5), |_| true);
        assert_eq!(run, (1..=5).map(|c| p(1, c)).collect::<Vec<_>>());
        // An engineer's turn: down the left rail, then along row 5.
        let turn = slide_path(b, p(1, 1), p(5, 3), |_| true);
        assert_eq!(turn.first(), Some(&p(1, 1)));
        assert_eq!(turn.last(), Some(&p(5, 3)));
        assert!(turn.contains(&p(5, 1)), "{turn:?}");
        for w in turn.windows(2) {
            assert!(b.rail_neighbours(w[0]).contains(&w[1]));
        }
        // Through pieces it cannot go: the path avoids occupied points.
        let blocked = slide_path(b, p(1, 1), p(1, 5), |q| q != p(1, 3));
        assert!(!blocked.contains(&p(1, 3)), "{blocked:?}");
    }

    #[test]
    fn along_a_path_by_length() {
        let path = [Vec2::ZERO, Vec2::new(10.0, 0.0), Vec2::new(10.0, 30.0)];
        assert_eq!(along(&path, 0.0), Vec2::ZERO);
        assert_eq!(along(&path, 0.25), Vec2::new(10.0, 0.0));
        assert_eq!(along(&path, 1.0), Vec2::new(10.0, 30.0));
    }
}
