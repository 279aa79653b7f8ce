//! The setup screen remembers the player's last choices across starts: the options (mode,
//! level, clock, rule options, table) and the layout of the last game started against the
//! computer, in `last_setup.json`.

use junqi_game::Layout;
use serde::{Deserialize, Serialize};

use super::setup::{MatchOptions, SetupState};
use crate::storage::{self, DataDir, StoreError};

/// What the setup screen keeps of the last game started.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LastSetup {
    /// The options.
    pub options: MatchOptions,
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
pub fn remember(dir: &DataDir, state: &SetupState) -> Result<(), StoreError> {
    let last = LastSetup {
        options: state.options.clone(),
        layout: state.layout,
    };
    storage::save_json(&file(dir), &last)
}

/// Puts the last choices back into `state`, if there are any (a damaged file is moved aside and
/// the defaults stay). Returns whether they were found.
pub fn recall(dir: &DataDir, state: &mut SetupState) -> bool {
    match storage::load_or_move_aside::<LastSetup>(&file(dir)) {
        Ok(last) => {
            state.options = last.options;
            // A layout that no longer passes the rules (they changed) is left for the default.
            if last.layout.validate(&state.options.rules).is_ok() {
                state.layout = last.layout;
            }
            true
        }
        Err(StoreError::Missing(_)) => false,
        Err(e) => {
            bevy::log::warn!("{e}");
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The level, the mode, the clock and the layout chosen last come back at the next start.
    #[test]
    fn the_last_choices_come_back() {
        let root = std::env::temp_dir().join(format!("junqi-last-setup-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).unwrap();
        let dir = DataDir(root.clone());
        let mut fresh = SetupState::default();
        assert!(!recall(&dir, &mut fresh));

        let mut state = SetupState::default();
        state.options.level = 4;
        state.options.rules.move_seconds = 45;
        state.options.rules.mode = junqi_game::Mode::Open;
        state.layout = state.layout.swapped((1, 1), (1, 3));
        assert!(state.layout.validate(&state.options.rules).is_ok());
        remember(&dir, &state).unwrap();

        let mut next = SetupState::default();
        assert!(recall(&dir, &mut next));
        assert_eq!(next.options, state.options);
        assert_eq!(next.layout, state.layout);

        std::fs::write(root.join("last_setup.json"), "{").unwrap();
        let mut damaged = SetupState::default();
        assert!(!recall(&dir, &mut damaged));
        assert_eq!(damaged.options, SetupState::default().options);
        let _ = std::fs::remove_dir_all(&root);
    }
}
