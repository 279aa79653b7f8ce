//! Pointer input on the board, from the mouse or a finger: a press and release on the same point
//! is a [`BoardClick`] (tap to select, tap to move); a press on one point and a release on
//! another is a [`BoardDrag`], the dragged tile following the pointer (above the finger, so that
//! it stays in sight); a press held still is a [`BoardLongPress`]. A finger's tap picks the
//! nearest legal target within about 48 dp, so that small four-player tiles can still be hit.

use bevy::{prelude::*, window::PrimaryWindow};
use bevy_egui::input::EguiWantsInput;
use junqi_game::Point;

use super::{
    scene::BoardScene,
    view::{BoardZoom, CurrentView},
};
use crate::{form::UiZoom, redraw::Redraw};

/// A click on a board point (mouse released where it was pressed).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardClick(pub Point);

/// A finger (or the mouse button) held on a point without moving: the marker menu for an enemy
/// piece.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardLongPress(pub Point);

/// A piece dragged from one point and dropped on another.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardDrag {
    /// Where the drag started.
    pub from: Point,
    /// Where it was dropped.
    pub to: Point,
}

/// The board's pointer input: screens reading [`BoardClick`] and friends run after it, so a tap
/// acts in the frame it ends.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BoardInput;

/// How long a press must be held still to count as a long press.
pub(super) const LONG_PRESS_SECS: f32 = 0.5;
/// Half of a finger's hit target in dp (48 dp, about 9 mm).
const FINGER_DP: f32 = 24.0;

/// A press in progress.
#[derive(Resource, Default)]
struct Press {
    from: Option<Point>,
    start: Vec2,
    dragging: bool,
    held: f32,
    /// The long press fired: the release makes no click.
    long: bool,
    /// The finger's id, for a touch.
    touch: Option<u64>,
    /// The press began on the board, not on a panel.
    on_board: bool,
    /// Moving the zoomed board ([`BoardZoom`]) from where its centre was at the press.
    panning: Option<Vec2>,
}

/// A piece held down is timed for a long press and may be dragged: draw while it is held.
fn draw_while_held(press: Res<Press>, mut redraw: ResMut<Redraw>) {
    if press.from.is_some() {
        redraw.every_frame();
    }
}

/// The ghost of a dragged tile.
#[derive(Component)]
struct Ghost;

/// The pointer this frame, in window coordinates: where a press began, where it is, whether it
/// ended, and whether it is a finger.
#[derive(Default)]
struct Pointer {
    pressed: Option<Vec2>,
    at: Option<Vec2>,
    released: bool,
    touch: Option<u64>,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Press>()
        .add_systems(Update, pointer.in_set(super::BoardInput))
        .add_systems(Update, draw_while_held.after(pointer));
}

fn to_world(cursor: Vec2, window: &Window) -> Vec2 {
    Vec2::new(
        cursor.x - window.width() / 2.0,
        window.height() / 2.0 - cursor.y,
    )
}

/// The mouse and the first finger, as one pointer: a finger while one is down or has just been
/// lifted, else the mouse.
fn read_pointer(
    press: &Press,
    buttons: Option<&ButtonInput<MouseButton>>,
    touches: Option<&Touches>,
    window: &Window,
) -> Pointer {
    if let Some(touches) = touches {
        if let Some(t) = touches.iter_just_pressed().next() {
            return Pointer {
                pressed: Some(t.position()),
                at: Some(t.position()),
                released: false,
                touch: Some(t.id()),
            };
        }
        if let Some(id) = press.touch {
            if let Some(t) = touches.get_pressed(id) {
                return Pointer {
                    at: Some(t.position()),
                    touch: Some(id),
                    ..default()
                };
            }
            let lifted = touches
                .iter_just_released()
                .chain(touches.iter_just_canceled())
                .find(|t| t.id() == id);
            return Pointer {
                at: lifted.map(|t| t.position()),
                released: true,
                touch: Some(id),
                ..default()
            };
        }
    }
    let Some(buttons) = buttons else {
        return Pointer::default();
    };
    let at = window.cursor_position();
    Pointer {
        pressed: at.filter(|_| buttons.just_pressed(MouseButton::Left)),
        at: at.filter(|_| {
            buttons.pressed(MouseButton::Left) || buttons.just_released(MouseButton::Left)
        }),
        released: buttons.just_released(MouseButton::Left),
        touch: None,
    }
}

#[allow(clippy::too_many_arguments)]
fn pointer(
    mut commands: Commands,
    buttons: Option<Res<ButtonInput<MouseButton>>>,
    touches: Option<Res<Touches>>,
    time: Res<Time>,
    window: Option<Single<&Window, With<PrimaryWindow>>>,
    egui: Option<Res<EguiWantsInput>>,
    zoom: Res<UiZoom>,
    view: Res<CurrentView>,
    scene: Res<BoardScene>,
    mut press: ResMut<Press>,
    mut ghost: Query<(Entity, &mut Transform), With<Ghost>>,
    mut clicks: MessageWriter<BoardClick>,
    mut drags: MessageWriter<BoardDrag>,
    mut long: MessageWriter<BoardLongPress>,
    mut board_zoom: ResMut<BoardZoom>,
) {
    let (Some(view), Some(window)) = (view.0.filter(|_| scene.active), window) else {
        press.from = None;
        press.touch = None;
        return;
    };
    let p = read_pointer(&press, buttons.as_deref(), touches.as_deref(), &window);
    let finger = FINGER_DP * zoom.0;
    let pick = |c: Vec2, touch: bool| {
        if touch {
            view.pick_near(
                c,
                finger.max(view.tile_size().y / 2.0),
                &scene.targets,
                |q| scene.tile(q).is_some(),
            )
        } else {
            view.pick(c)
        }
    };
    let over_ui = egui.is_some_and(|e| e.wants_pointer_input() || e.is_pointer_over_area());
    if let Some(c) = p.pressed {
        let c = to_world(c, &window);
        *press = Press {
            // A press on a panel belongs to egui.
            from: if over_ui {
                None
            } else {
                pick(c, p.touch.is_some())
            },
            start: c,
            touch: p.touch,
            on_board: !over_ui,
            ..default()
        };
    }
    let cursor = p.at.map(|c| to_world(c, &window));
    let slop = if press.touch.is_some() {
        finger * 0.5
    } else {
        8.0
    };
    // A drag where no piece is moves a zoomed board (and is no tap).
    if let (Some(centre), Some(c), false) = (board_zoom.0, cursor, p.released)
        && press.on_board
        && !press.dragging
        && !press.long
        && press.from.is_none_or(|f| scene.tile(f).is_none())
        && (press.panning.is_some() || c.distance(press.start) > slop)
    {
        let from = *press.panning.get_or_insert(centre);
        press.from = None;
        let to = BoardZoom::clamp(from - (c - press.start) / view.sx);
        if board_zoom.0 != Some(to) {
            board_zoom.0 = Some(to);
        }
    }
    if let (Some(from), Some(c), false) = (press.from, cursor, p.released) {
        press.held += time.delta_secs();
        let moved = c.distance(press.start) > slop;
        if !press.dragging && !press.long && moved && scene.tile(from).is_some() {
            press.dragging = true;
            commands.spawn((
                Ghost,
                Sprite::from_color(Color::srgba(1.0, 0.9, 0.3, 0.55), view.tile_size()),
                Transform::from_translation(c.extend(20.0)),
            ));
        }
        if !press.dragging && !press.long && !moved && press.held >= LONG_PRESS_SECS {
            press.long = true;
            long.write(BoardLongPress(from));
        }
        // Above a finger, so that the finger does not hide the piece it carries.
        let lift = if press.touch.is_some() {
            Vec2::new(0.0, view.tile_size().y)
        } else {
            Vec2::ZERO
        };
        for (_, mut t) in &mut ghost {
            t.translation = (c + lift).extend(20.0);
        }
    }
    if p.released {
        for (e, _) in &ghost {
            commands.entity(e).despawn();
        }
        let touch = press.touch.take().is_some();
        if let Some(from) = press.from.take() {
            let to = cursor.and_then(|c| pick(c, touch));
            match to {
                Some(to) if to != from && press.dragging => {
                    drags.write(BoardDrag { from, to });
                }
                // A tap: where the finger came down (a finger wobbles), unless it dragged.
                _ if !press.dragging && !press.long => {
                    clicks.write(BoardClick(from));
                }
                _ => {}
            }
        }
    }
}
