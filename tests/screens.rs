//! Headless tests of screen transitions, settings and the profile (`MinimalPlugins`, no window).

use bevy::prelude::*;
use junqi::{
    i18n::Lang,
    screens::{Navigate, Screen},
    settings::{SaveSettings, Settings},
};

fn temp_dir(tag: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("junqi-app-test-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

fn go(app: &mut App, to: Screen) {
    app.world_mut().write_message(Navigate(to));
    app.update();
    app.update();
}

#[test]
fn starts_on_title_and_visits_every_screen() {
    let dir = temp_dir("nav");
    let mut app = junqi::headless_app(dir.clone());
    app.update();
    assert_eq!(screen(&app), Screen::Title);
    for s in Screen::ALL {
        go(&mut app, s);
        assert_eq!(screen(&app), s);
        go(&mut app, Screen::Title);
        assert_eq!(screen(&app), Screen::Title);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn screen_slugs_round_trip() {
    for s in Screen::ALL {
        assert_eq!(Screen::from_slug(s.slug()), Some(s));
    }
    assert_eq!(Screen::from_slug("nope"), None);
}

#[test]
fn settings_are_saved_and_loaded() {
    let dir = temp_dir("settings");
    let mut app = junqi::headless_app(dir.clone());
    app.update();
    assert_eq!(*app.world().resource::<Lang>(), Lang::Zh);
    app.world_mut().resource_mut::<Settings>().lang = Lang::En;
    app.world_mut().write_message(SaveSettings);
    app.update();
    assert_eq!(*app.world().resource::<Lang>(), Lang::En);
    assert!(dir.join("settings.json").exists());

    let mut again = junqi::headless_app(dir.clone());
    again.update();
    assert_eq!(again.world().resource::<Settings>().lang, Lang::En);
    assert_eq!(*again.world().resource::<Lang>(), Lang::En);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn corrupt_settings_and_profile_are_reported_not_fatal_and_moved_aside() {
    let dir = temp_dir("corrupt");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("settings.json"), "{ this is not json").unwrap();
    std::fs::write(dir.join("profile.json"), "[1, 2").unwrap();
    let mut app = junqi::headless_app(dir.clone());
    app.update();
    assert_eq!(*app.world().resource::<Settings>(), Settings::default());
    let status = app.world().resource::<junqi::settings::SettingsStatus>();
    let notice = status
        .loaded
        .as_ref()
        .map(|e| e.notice("err.settings_damaged", Lang::Zh))
        .unwrap_or_default();
    assert!(notice.contains("损坏") && notice.contains("settings.damaged-1.json"));
    assert!(
        !notice.contains(&*dir.to_string_lossy()),
        "no path: {notice}"
    );
    assert!(
        app.world()
            .resource::<junqi::profile::ProfileStatus>()
            .0
            .is_some()
    );
    // The damaged files are moved aside as they were, so no later save overwrites them.
    assert_eq!(
        std::fs::read_to_string(dir.join("profile.damaged-1.json")).unwrap(),
        "[1, 2"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("settings.damaged-1.json")).unwrap(),
        "{ this is not json"
    );
    // A finished game's profile save then writes a fresh file beside the damaged copy.
    let dir_res = junqi::storage::DataDir(dir.clone());
    junqi::profile::Profile::default().save(&dir_res).unwrap();
    assert!(dir.join("profile.json").exists());
    assert_eq!(
        std::fs::read_to_string(dir.join("profile.damaged-1.json")).unwrap(),
        "[1, 2"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Android's Wi-Fi multicast lock (mDNS) is held exactly while the lobby is open, and let go
/// when the app goes to the background there or the lobby is left.
#[test]
fn the_multicast_lock_is_held_in_the_lobby_only_while_the_app_is_in_front() {
    use bevy::window::AppLifecycle;
    use junqi::lan::multicast::MulticastLock;
    let dir = temp_dir("multicast");
    let mut app = junqi::headless_app(dir.clone());
    app.update();
    let held = |app: &App| app.world().resource::<MulticastLock>().held;
    assert!(!held(&app));
    go(&mut app, Screen::Lobby);
    assert!(held(&app));
    app.world_mut().write_message(AppLifecycle::WillSuspend);
    app.update();
    assert!(!held(&app), "let go in the background");
    app.world_mut().write_message(AppLifecycle::WillResume);
    app.update();
    assert!(held(&app), "taken again on return");
    go(&mut app, Screen::Title);
    assert!(!held(&app));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A damaged profile is kept aside byte for byte, and the profile is rebuilt from the saved
/// game records, so the player's games are not lost.
#[test]
fn a_damaged_profile_is_rebuilt_from_the_saved_records() {
    use junqi::profile::{Profile, ProfileStatus};
    let dir = temp_dir("rebuild");
    let data = junqi::storage::DataDir(dir.clone());
    std::fs::create_dir_all(data.records()).unwrap();
    let finished = junqi::demo::demo_match(None, 11);
    let saved = finished.saved().expect("a local game");
    let result = saved.result.expect("played to the end");
    junqi::storage::save_json(&data.records().join("game-1.json"), &saved).unwrap();
    let damaged = b"{\"score\": 12, \"opponents\": {\"ai-2\": {\"wins\": 3";
    std::fs::write(dir.join("profile.json"), damaged).unwrap();

    let mut app = junqi::headless_app(dir.clone());
    app.update();
    assert_eq!(
        std::fs::read(dir.join("profile.damaged-1.json")).unwrap(),
        damaged,
        "kept aside unchanged"
    );
    let (key, outcome, score) = junqi::profile::entry(
        result,
        saved.me,
        false,
        finished.plies(),
        0,
        &saved.opponent,
    );
    let mut expected = Profile::default();
    expected.record(&key, outcome, score);
    assert_eq!(*app.world().resource::<Profile>(), expected);
    assert_eq!(app.world().resource::<ProfileStatus>().1, Some(1));
    // And written, so that the next game adds to it.
    let on_disk: Profile = junqi::storage::load_json(&dir.join("profile.json")).unwrap();
    assert_eq!(on_disk, expected);
    let _ = std::fs::remove_dir_all(&dir);
}
