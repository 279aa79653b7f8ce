//! Headless tests of the sound effects: a move in the game screen asks for its sound, the mute
//! switch silences it, and playback spawns an audio player without any sound device.

use std::time::Duration;

use bevy::{prelude::*, time::TimeUpdateStrategy};
use junqi::{
    audio::{PlaySound, Sound},
    board::BoardDrag,
    demo::demo_match,
    model::ActiveGame,
    screens::{Navigate, Screen},
    settings::Settings,
};
use junqi_game::Move;

fn temp_dir(tag: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("junqi-audio-test-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// Every sound asked for, in order.
#[derive(Resource, Default)]
struct Asked(Vec<Sound>);

fn collect(mut reader: MessageReader<PlaySound>, mut asked: ResMut<Asked>) {
    asked.0.extend(reader.read().map(|PlaySound(s)| *s));
}

fn game_app(dir: &std::path::Path) -> App {
    let mut app = junqi::headless_app(dir.to_path_buf());
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
        10,
    )));
    app.init_resource::<Asked>().add_systems(Last, collect);
    app.update();
    app.insert_resource(ActiveGame::new(demo_match(Some(0), 3), 1));
    app.world_mut().write_message(Navigate(Screen::Game));
    app.update();
    app.update();
    app
}

/// Drags the player's first legal step and lets the frame run.
fn move_once(app: &mut App) {
    let mv = app
        .world()
        .resource::<ActiveGame>()
        .game_match
        .view
        .legal_moves()[0];
    let Move::Step { from, to } = mv else {
        panic!("the opening has a step")
    };
    app.world_mut().write_message(BoardDrag { from, to });
    app.update();
    app.update();
}

#[test]
fn a_move_asks_for_its_sound_and_mute_silences_it() {
    let dir = temp_dir("cue");
    let mut app = game_app(&dir);
    assert!(app.world().resource::<Settings>().sound, "on by default");
    assert_eq!(
        app.world().resource::<Asked>().0,
        vec![],
        "opening is silent"
    );
    move_once(&mut app);
    assert_eq!(app.world().resource::<Asked>().0, vec![Sound::Move]);

    // Muted: a fresh game, a move, no sound asked for.
    let mut muted = game_app(&temp_dir("mute"));
    muted.world_mut().resource_mut::<Settings>().sound = false;
    move_once(&mut muted);
    assert_eq!(
        muted.world().resource::<ActiveGame>().game_match.plies(),
        1,
        "the move was played"
    );
    assert_eq!(muted.world().resource::<Asked>().0, vec![]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn playback_needs_no_sound_device() {
    // The rendering app's audio half on its own: assets, Bevy's audio (which finds no device
    // here, or a real one on a desktop) and the playback plugin.
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        AssetPlugin::default(),
        bevy::audio::AudioPlugin::default(),
        junqi::audio::playback_plugin,
    ));
    app.update();
    app.world_mut().write_message(PlaySound(Sound::Bomb));
    app.update();
    let mut players = app.world_mut().query::<&AudioPlayer>();
    assert_eq!(players.iter(app.world()).count(), 1);
}
