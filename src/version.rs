//! The app's version as built: Cargo's version plus `git describe` when built from a checkout
//! (set by `build.rs`), shown on the title screen and the settings screen's about line.

/// E.g. `0.1.0 (83aa3fc)` from a checkout, `0.1.0` from a source tarball.
pub const VERSION: &str = env!("JUNQI_VERSION");

#[cfg(test)]
#[path = "../build/version.rs"]
mod build_version;

#[cfg(test)]
mod tests {
    use super::{VERSION, build_version::version_string};

    #[test]
    fn the_embedded_version_starts_with_cargos() {
        assert!(VERSION.starts_with(env!("CARGO_PKG_VERSION")), "{VERSION}");
    }

    #[test]
    fn version_strings_from_git_or_none() {
        assert_eq!(version_string("0.1.0", None), "0.1.0");
        assert_eq!(version_string("0.1.0", Some("")), "0.1.0");
        assert_eq!(
            version_string("0.1.0", Some("83aa3fc\n")),
            "0.1.0 (83aa3fc)"
        );
        assert_eq!(
            version_string("0.1.0", Some("v0.1.0-3-g83aa3fc")),
            "0.1.0 (v0.1.0-3-g83aa3fc)"
        );
        // Built exactly at the version's tag: no repetition.
        assert_eq!(version_string("0.1.0", Some("v0.1.0")), "0.1.0");
        // Nothing odd reaches the screen.
        assert_eq!(version_string("0.1.0", Some("a\u{1b}[2Jb")), "0.1.0");
        assert_eq!(version_string("0.1.0", Some(&"x".repeat(100))), "0.1.0");
    }
}
