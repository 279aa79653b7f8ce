//! Build-time work of the app: the version shown on the title and settings screens
//! (`JUNQI_VERSION`, from Cargo and `git describe` when there is a git checkout), and, when
//! building for Windows, the `.exe`'s icon and version resource.
//!
//! Kept fast and quiet: it only reruns when this script, the shared version code or the
//! checkout's HEAD moves, so an ordinary edit does not rerun it or rebuild anything.

use std::{
    env,
    path::{Path, PathBuf},
    process::Command,
};

#[path = "build/version.rs"]
mod version;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=build/version.rs");
    let manifest_dir = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let pkg = env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let describe = git_describe(&manifest_dir);
    let shown = version::version_string(&pkg, describe.as_deref());
    println!("cargo:rustc-env=JUNQI_VERSION={shown}");
    // The script runs on the host: the target is read from Cargo's variables, not `cfg!`.
    if env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("windows") {
        windows_resource(&shown);
    }
}

/// The icon Explorer and the task bar show for `junqi.exe`, and its version tab (product name,
/// description, version). `winresource` runs the target's `windres` (MinGW's
/// `x86_64-w64-mingw32-windres` when cross-building from Linux). Without one the game still
/// builds, only with no icon in the file: a warning says so.
fn windows_resource(shown: &str) {
    const ICO: &str = "assets/icon/junqi.ico";
    println!("cargo:rerun-if-changed={ICO}");
    let mut res = winresource::WindowsResource::new();
    res.set_icon(ICO)
        .set("ProductName", "军棋 Junqi")
        .set("FileDescription", "军棋 Junqi — Chinese army chess")
        .set("ProductVersion", shown)
        .set("OriginalFilename", "junqi.exe")
        .set_language(0x0804); // zh-CN: the game's first language
    // Only the game's binary: not the test and bench executables, which have no window.
    if let Err(e) = res.compile_for("junqi") {
        println!("cargo:warning=junqi.exe gets no icon or version resource: {e}");
    }
}

/// `git describe --tags --always` in `dir`, or `None` without git or a checkout (a source
/// tarball builds all the same). Also asks Cargo to rerun when the checkout's HEAD moves.
fn git_describe(dir: &Path) -> Option<String> {
    let git = |args: &[&str]| -> Option<String> {
        let out = Command::new("git")
            .args(args)
            .current_dir(dir)
            .output()
            .ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
    };
    let paths = git(&[
        "rev-parse",
        "--path-format=absolute",
        "--git-dir",
        "--git-common-dir",
    ])?;
    let mut lines = paths.lines();
    let (git_dir, common_dir) = (PathBuf::from(lines.next()?), PathBuf::from(lines.next()?));
    // Only existing files: Cargo treats a missing one as always changed and would rerun us on
    // every build. HEAD names the branch; the branch's ref file (or packed-refs) moves on commit.
    let mut watched = vec![git_dir.join("HEAD"), common_dir.join("packed-refs")];
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        watched.push(common_dir.join(branch));
    }
    for path in watched.iter().filter(|p| p.is_file()) {
        println!("cargo:rerun-if-changed={}", path.display());
    }
    git(&["describe", "--tags", "--always"])
}
