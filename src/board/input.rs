//! Mouse (and touch-as-mouse) input on the board: a press and release on the same point is a
//! [`BoardClick`]; a press on one point and a release on another is a [`BoardDrag`], with the
//! dragged tile following the pointer.

use bevy::{prelude::*, window::PrimaryWindow};
use bevy_egui::input::EguiWantsInput;

use super::{BoardClick, BoardDrag, BoardScene, draw::CurrentView};

/// A press in progress.
#[derive(Resource, Default)]
struct Press {
    from: Option<junqi_game::Point>,
    start: Vec2,
    dragging: bool,
}

/// The ghost of a dragged tile.
#[derive(Component)]
struct Ghost;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Press>().add_systems(Update, pointer);
}

fn to_world(cursor: Vec2, window: &Window) -> Vec2 {
    Vec2::new(
        cursor.x - window.width() / 2.0,
        window.height() / 2.0 - cursor.y,
    )
}

#[allow(clippy::too_many_arguments)]
fn pointer(
    mut commands: Commands,
    buttons: Res<ButtonInput<MouseButton>>,
    window: Single<&Window, With<PrimaryWindow>>,
    egui: Option<Res<EguiWantsInput>>,
    view: Res<CurrentView>,
    scene: Res<BoardScene>,
    mut press: ResMut<Press>,
    mut ghost: Query<(Entity, &mut Transform), With<Ghost>>,
    mut clicks: MessageWriter<BoardClick>,
    mut drags: MessageWriter<BoardDrag>,
) {
    let Some(view) = view.0.filter(|_| scene.active) else {
        press.from = None;
        return;
    };
    let cursor = window.cursor_position().map(|c| to_world(c, &window));
    let over_ui = egui.is_some_and(|e| e.wants_pointer_input() || e.is_pointer_over_area());
    if buttons.just_pressed(MouseButton::Left)
        && !over_ui
        && let Some(c) = cursor
    {
        press.from = view.pick(c);
        press.start = c;
        press.dragging = false;
    }
    if let (Some(from), Some(c)) = (press.from, cursor)
        && buttons.pressed(MouseButton::Left)
    {
        if !press.dragging && c.distance(press.start) > 8.0 && scene.tile(from).is_some() {
            press.dragging = true;
            commands.spawn((
                Ghost,
                Sprite::from_color(Color::srgba(1.0, 0.9, 0.3, 0.55), view.tile_size()),
                Transform::from_translation(c.extend(20.0)),
            ));
        }
        for (_, mut t) in &mut ghost {
            t.translation = c.extend(20.0);
        }
    }
    if buttons.just_released(MouseButton::Left) {
        for (e, _) in &ghost {
            commands.entity(e).despawn();
        }
        if let Some(from) = press.from.take() {
            let to = cursor.and_then(|c| view.pick(c));
            match to {
                Some(to) if to != from && press.dragging => {
                    drags.write(BoardDrag { from, to });
                }
                Some(to) if to == from => {
                    clicks.write(BoardClick(to));
                }
                _ => {}
            }
        }
    }
}
