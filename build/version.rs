//! The version string the app shows, from Cargo's version and `git describe` (shared by
//! `build.rs`, which runs it, and `src/version.rs`, which tests it).

/// `pkg` alone when there is no git description (a source tarball, no git installed);
/// `pkg (describe)` otherwise, unless the description is just the version's own tag.
pub(crate) fn version_string(pkg: &str, describe: Option<&str>) -> String {
    match describe.map(str::trim).filter(|d| !d.is_empty()) {
        None => pkg.to_owned(),
        Some(d) if d == pkg || d.strip_prefix('v') == Some(pkg) => pkg.to_owned(),
        // Anything else git printed is kept only if it is one short printable line, so a
        // strange `git` cannot put control characters or a paragraph on the title screen.
        Some(d) if d.len() <= 64 && d.chars().all(|c| c.is_ascii_graphic()) => {
            format!("{pkg} ({d})")
        }
        Some(_) => pkg.to_owned(),
    }
}
