//! The board on screen: what to show ([`BoardScene`], filled by the setup, game and replay
//! screens), where it goes ([`BoardView`], fitted into [`BoardArea`]), and the player's clicks and
//! drags turned into board points ([`BoardClick`], [`BoardDrag`]).

mod cache;
mod draw;
mod input;
mod motion;
mod scene;
mod view;

use bevy::prelude::*;

#[cfg(feature = "dev")]
pub use draw::REDRAWS;
pub use input::{BoardClick, BoardDrag, BoardInput, BoardLongPress};
pub use motion::{BoardEffect, slide_path};
pub use scene::{BoardScene, Colour, Face, Tile, TileAt};
pub use view::{
    BoardArea, BoardView, BoardZoom, CurrentView, GAP, X_RATIO, ZOOM_SPAN, window_rect_to_world,
};

/// Registers the scene, the messages, the view and input (headless too: tests drive the board
/// with injected touches) and, in the rendering app, drawing.
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<BoardScene>()
        .init_resource::<BoardArea>()
        .init_resource::<CurrentView>()
        .init_resource::<BoardZoom>()
        .add_message::<BoardClick>()
        .add_message::<BoardDrag>()
        .add_message::<BoardLongPress>()
        .add_message::<BoardEffect>()
        .add_systems(PostUpdate, (view::track_view, settle_on_change).chain())
        .add_plugins(input::plugin);
    if app.is_plugin_added::<bevy_egui::EguiPlugin>() {
        app.add_plugins((draw::plugin, motion::plugin));
    }
}

/// A move shown (the computer's or the network's, arriving with no input), a selection, a new
/// fit: draw until the board has caught up (a slide then asks for its own frames).
fn settle_on_change(
    scene: Res<BoardScene>,
    current: Res<CurrentView>,
    mut redraw: ResMut<crate::redraw::Redraw>,
) {
    if scene.is_changed() || current.is_changed() {
        redraw.settle();
    }
}
