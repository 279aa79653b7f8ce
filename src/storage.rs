//! Files in the user's data directory: settings, named layouts, game records, the profile.
//!
//! Every read reports a missing or damaged file as a [`StoreError`] (shown to the player, never a
//! panic); every write goes to a temporary file in the same folder and is then renamed, and names
//! are checked so that a write can only ever land on its own `*.json` file inside its own folder.

use std::{
    fmt, fs,
    path::{Path, PathBuf},
};

use bevy::prelude::*;
use serde::{Serialize, de::DeserializeOwned};

use crate::i18n::Lang;

/// The folder the app keeps its files in.
#[derive(Resource, Clone, Debug, PartialEq, Eq)]
pub struct DataDir(pub PathBuf);

impl DataDir {
    /// `JUNQI_DATA_DIR` if set, else the platform's data directory + `junqi`
    /// (e.g. `~/.local/share/junqi`; on Android the app's internal data directory), else
    /// `./junqi-data`.
    pub fn from_env() -> Self {
        if let Some(dir) = std::env::var_os("JUNQI_DATA_DIR") {
            return Self(PathBuf::from(dir));
        }
        // `dirs` knows no Android folder; the activity tells its own private one
        // (`/data/data/<package>/files`), kept across updates and removed with the app.
        #[cfg(target_os = "android")]
        if let Some(dir) = bevy::android::ANDROID_APP
            .get()
            .and_then(|app| app.internal_data_path())
        {
            return Self(dir);
        }
        Self(
            dirs::data_dir()
                .map(|d| d.join("junqi"))
                .unwrap_or_else(|| PathBuf::from("junqi-data")),
        )
    }

    /// Named layouts (布阵图).
    pub fn layouts(&self) -> PathBuf {
        self.0.join("layouts")
    }

    /// Saved game records.
    pub fn records(&self) -> PathBuf {
        self.0.join("records")
    }

    /// LAN play: the identity (certificate and signing key) and the journal of
    /// an unfinished game ([`crate::lan`]).
    pub fn lan(&self) -> PathBuf {
        self.0.join("lan")
    }

    /// Finished LAN games exported for a third party's audit ([`crate::lan::export_for_audit`]).
    pub fn exports(&self) -> PathBuf {
        self.0.join("exports")
    }

    /// The settings file.
    pub fn settings_file(&self) -> PathBuf {
        self.0.join("settings.json")
    }

    /// The profile (results) file.
    pub fn profile_file(&self) -> PathBuf {
        self.0.join("profile.json")
    }
}

/// Why a file could not be read or written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreError {
    /// The file does not exist.
    Missing(PathBuf),
    /// The file exists but is not what it should be.
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What the parser said.
        detail: String,
    },
    /// Reading or writing failed.
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        detail: String,
    },
    /// A name that cannot be used as a file name.
    BadName(String),
    /// The file was damaged; it was moved aside (kept, never overwritten) and the game starts
    /// from defaults.
    MovedAside {
        /// Where the damaged file is now.
        to: PathBuf,
        /// What the parser said.
        detail: String,
    },
}

impl StoreError {
    /// The message shown to the player, in `lang`: what went wrong and the file's name (never
    /// its folder, never the system's or the parser's words; [`fmt::Display`] has them, for the
    /// log).
    pub fn message(&self, lang: Lang) -> String {
        let name = |p: &Path| {
            p.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        };
        let colon = lang.colon();
        match self {
            StoreError::Missing(p) => format!("{}{colon}{}", lang.t("err.missing"), name(p)),
            StoreError::Corrupt { path, .. } => {
                format!("{}{colon}{}", lang.t("err.corrupt"), name(path))
            }
            StoreError::Io { path, .. } => format!("{}{colon}{}", lang.t("err.io"), name(path)),
            StoreError::BadName(n) => format!("{}{colon}\"{n}\"", lang.t("err.name")),
            StoreError::MovedAside { to, .. } => {
                lang.tr("err.moved_aside", &[("file", name(to).into())])
            }
        }
    }

    /// The notice for a file the app could not read at start, which it replaced (the settings,
    /// the profile): `key`'s text with the damaged copy's file name, or [`Self::message`] when
    /// the file was not moved aside.
    pub fn notice(&self, key: &'static str, lang: Lang) -> String {
        match self.kept_as() {
            Some(name) => lang.tr(key, &[("file", name.into())]),
            None => self.message(lang),
        }
    }

    /// The file name (not the path) a damaged file was kept under.
    pub fn kept_as(&self) -> Option<String> {
        match self {
            StoreError::MovedAside { to, .. } => {
                Some(to.file_name()?.to_string_lossy().into_owned())
            }
            _ => None,
        }
    }
}

/// For the log: the whole path and what the system or the parser said.
impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Missing(p) => write!(f, "{}: no such file", p.display()),
            StoreError::Corrupt { path, detail } => {
                write!(f, "{}: damaged ({detail})", path.display())
            }
            StoreError::Io { path, detail } => write!(f, "{}: {detail}", path.display()),
            StoreError::BadName(n) => write!(f, "not a usable name: {n:?}"),
            StoreError::MovedAside { to, detail } => {
                write!(f, "damaged ({detail}); moved aside to {}", to.display())
            }
        }
    }
}

impl std::error::Error for StoreError {}

/// Checks a user-chosen name: 1–40 characters, letters (any script), digits, `-`, `_`, spaces
/// inside. Returns it trimmed.
pub fn check_name(name: &str) -> Result<String, StoreError> {
    let trimmed = name.trim();
    let ok = !trimmed.is_empty()
        && trimmed.chars().count() <= 40
        && trimmed
            .chars()
            .all(|c| c.is_alphanumeric() || c == '-' || c == '_' || c == ' ');
    if ok {
        Ok(trimmed.to_owned())
    } else {
        Err(StoreError::BadName(name.to_owned()))
    }
}

/// The file `dir/name.json` for a checked name.
pub fn named_file(dir: &Path, name: &str) -> Result<PathBuf, StoreError> {
    Ok(dir.join(format!("{}.json", check_name(name)?)))
}

/// Reads and parses a JSON file.
pub fn load_json<T: DeserializeOwned>(path: &Path) -> Result<T, StoreError> {
    let text = match fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(StoreError::Missing(path.to_owned()));
        }
        Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
            return Err(StoreError::Corrupt {
                path: path.to_owned(),
                detail: e.to_string(),
            });
        }
        Err(e) => {
            return Err(StoreError::Io {
                path: path.to_owned(),
                detail: e.to_string(),
            });
        }
    };
    serde_json::from_str(&text).map_err(|e| StoreError::Corrupt {
        path: path.to_owned(),
        detail: e.to_string(),
    })
}

/// Loads a file the app rewrites (the profile, the settings): a damaged one is moved aside
/// first, so that the next save cannot overwrite what the player had.
pub fn load_or_move_aside<T: DeserializeOwned>(path: &Path) -> Result<T, StoreError> {
    match load_json(path) {
        Err(StoreError::Corrupt { detail, .. }) => {
            let to = move_aside(path)?;
            Err(StoreError::MovedAside { to, detail })
        }
        other => other,
    }
}

/// Renames `name.json` to `name.damaged-N.json` with the first free N; returns the new path.
pub fn move_aside(path: &Path) -> Result<PathBuf, StoreError> {
    let stem = path
        .file_stem()
        .map_or_else(|| "file".into(), |s| s.to_string_lossy().into_owned());
    let to = (1..10_000)
        .map(|n| path.with_file_name(format!("{stem}.damaged-{n}.json")))
        .find(|p| !p.exists())
        .ok_or_else(|| StoreError::Io {
            path: path.to_owned(),
            detail: "too many damaged copies".into(),
        })?;
    fs::rename(path, &to).map_err(|e| StoreError::Io {
        path: path.to_owned(),
        detail: e.to_string(),
    })?;
    Ok(to)
}

/// Writes a value as pretty JSON: to `path.tmp` first, then renamed over `path`.
pub fn save_json<T: Serialize>(path: &Path, value: &T) -> Result<(), StoreError> {
    let io = |e: std::io::Error| StoreError::Io {
        path: path.to_owned(),
        detail: e.to_string(),
    };
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir).map_err(io)?;
    }
    let text = serde_json::to_string_pretty(value).map_err(|e| StoreError::Io {
        path: path.to_owned(),
        detail: e.to_string(),
    })?;
    let tmp = path.with_extension("json.tmp");
    fs::write(&tmp, text).map_err(io)?;
    fs::rename(&tmp, path).map_err(io)
}

/// The names (without `.json`) of the JSON files in `dir`, sorted; empty if it does not exist.
/// Files moved aside as damaged ([`move_aside`]) are not listed: they are kept for the player to
/// recover by hand, not offered again.
pub fn list_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let p = e.path();
            (p.extension()? == "json")
                .then(|| p.file_stem()?.to_str().map(str::to_owned))
                .flatten()
        })
        .filter(|name| !name.contains(".damaged-"))
        .collect();
    names.sort();
    names
}

/// Registers [`DataDir`] (from the environment unless a test inserted one first).
pub(super) fn plugin(app: &mut App) {
    if !app.world().contains_resource::<DataDir>() {
        app.insert_resource(DataDir::from_env());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("junqi-storage-{tag}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn names_are_checked() {
        assert_eq!(check_name(" 我的布阵-1 ").unwrap(), "我的布阵-1");
        for bad in ["", "   ", "../x", "a/b", "a\\b", "x.json", "a\0"] {
            assert!(check_name(bad).is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn round_trip_missing_and_corrupt() {
        let dir = temp_dir("rt");
        let path = named_file(&dir, "t").unwrap();
        assert!(matches!(
            load_json::<Vec<u32>>(&path),
            Err(StoreError::Missing(_))
        ));
        save_json(&path, &vec![1u32, 2]).unwrap();
        assert_eq!(load_json::<Vec<u32>>(&path).unwrap(), vec![1, 2]);
        assert_eq!(list_names(&dir), vec!["t".to_owned()]);
        fs::write(&path, "{not json").unwrap();
        let err = load_json::<Vec<u32>>(&path).unwrap_err();
        assert!(matches!(err, StoreError::Corrupt { .. }));
        assert!(err.message(Lang::Zh).contains("损坏"));
        fs::write(&path, [0xff, 0xfe, 0x00]).unwrap();
        assert!(matches!(
            load_json::<Vec<u32>>(&path),
            Err(StoreError::Corrupt { .. })
        ));
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_damaged_file_is_moved_aside_never_overwritten() {
        let dir = temp_dir("aside");
        let path = named_file(&dir, "profile").unwrap();
        fs::create_dir_all(&dir).unwrap();
        for n in 1..=2 {
            let damaged = format!("{{\"games\": {n}, oops");
            fs::write(&path, &damaged).unwrap();
            let err = load_or_move_aside::<Vec<u32>>(&path).unwrap_err();
            let StoreError::MovedAside { to, .. } = &err else {
                panic!("{err:?}")
            };
            assert_eq!(*to, dir.join(format!("profile.damaged-{n}.json")));
            assert_eq!(fs::read_to_string(to).unwrap(), damaged, "kept as it was");
            assert!(!path.exists());
            assert!(err.message(Lang::En).contains("profile.damaged"));
            // The next save writes a fresh file and leaves the damaged copy alone.
            save_json(&path, &vec![7u32]).unwrap();
            assert_eq!(fs::read_to_string(to).unwrap(), damaged);
        }
        // A good file loads as before; a missing one is still Missing.
        assert_eq!(load_or_move_aside::<Vec<u32>>(&path).unwrap(), vec![7]);
        fs::remove_file(&path).unwrap();
        assert!(matches!(
            load_or_move_aside::<Vec<u32>>(&path),
            Err(StoreError::Missing(_))
        ));
        let _ = fs::remove_dir_all(&dir);
    }
}
