//! The setup screen remembers the player's last choices across starts: the options (mode,
//! level, clock, rule options, table) and the layout of the last game started against the
//! computer, in `last_setup.json`. Generic over the options' type, so that this file needs
//! nothing of the setup screen's.

use junqi_game::Layout;
use serde::{Deserialize, Serialize, de::DeserializeOwned};

use crate::storage::{self, DataDir, StoreError};

/// What the setup screen keeps of the last game started.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LastSetup<O> {
    /// The options.
    pub options: O,
    /// The player's layout.
    pub layout: Layout,
}

fn file(dir: &DataDir) -> std::path::PathBuf {
    dir.0.join("last_setup.json")
}

/// Keeps the choices of a game being started.
///
/// # Errors
/// The file could not be written.
pub fn remember<O: Serialize + Clone>(
    dir: &DataDir,
    options: &O,
    layout: Layout,
) -> Result<(), StoreError> {
    let last = LastSetup {
        options: options.clone(),
        layout,
    };
    storage::save_json(&file(dir), &last)
}

/// The last choices, if there are any (a damaged file is moved aside: none).
pub fn recall<O: DeserializeOwned>(dir: &DataDir) -> Option<LastSetup<O>> {
    match storage::load_or_move_aside::<LastSetup<O>>(&file(dir)) {
        Ok(last) => Some(last),
        Err(StoreError::Missing(_)) => None,
        Err(e) => {
            bevy::log::warn!("{e}");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use junqi_game::{Mode, Rules, classic_layouts};

    /// The options and the layout chosen last come back at the next start; a damaged file
    /// gives none (and is kept aside).
    #[test]
    fn the_last_choices_come_back() {
        let root = std::env::temp_dir().join(format!("junqi-last-setup-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).unwrap();
        let dir = DataDir(root.clone());
        assert_eq!(recall::<Rules>(&dir), None);

        let mut rules = Rules::for_mode(Mode::Open);
        rules.move_seconds = 45;
        let layout = classic_layouts()[2].layout;
        remember(&dir, &rules, layout).unwrap();
        let last = recall::<Rules>(&dir).expect("remembered");
        assert_eq!((last.options, last.layout), (rules, layout));

        std::fs::write(root.join("last_setup.json"), "{").unwrap();
        assert_eq!(recall::<Rules>(&dir), None);
        assert!(root.join("last_setup.damaged-1.json").exists());
        let _ = std::fs::remove_dir_all(&root);
    }
}
