//! The junqi desktop app.

// A release build on Windows opens no console window next to the game.
#![cfg_attr(all(windows, not(debug_assertions)), windows_subsystem = "windows")]

fn main() -> bevy::app::AppExit {
    junqi::run()
}
