//! The junqi desktop app.
fn main() -> bevy::app::AppExit {
    junqi::run()
}
