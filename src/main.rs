//! The junqi desktop app.
fn main() {}
