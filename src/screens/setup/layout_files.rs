//! Named layouts saved in the data directory (`layouts/NAME.json`).

use junqi_game::{Layout, NamedLayout};

use crate::storage::{self, DataDir, StoreError};

/// Saves a layout as `layouts/NAME.json`; refuses to replace a file that is not a layout.
pub fn save_layout(dir: &DataDir, name: &str, layout: &Layout) -> Result<String, StoreError> {
    let name = storage::check_name(name)?;
    let path = storage::named_file(&dir.layouts(), &name)?;
    if path.exists() {
        storage::load_json::<NamedLayout>(&path)?;
    }
    storage::save_json(
        &path,
        &NamedLayout {
            name: name.clone(),
            layout: *layout,
        },
    )?;
    Ok(name)
}

/// Loads `layouts/NAME.json`.
pub fn load_layout(dir: &DataDir, name: &str) -> Result<NamedLayout, StoreError> {
    // A damaged layout file is moved aside (and reported), never left to be saved over.
    storage::load_or_move_aside(&storage::named_file(&dir.layouts(), name)?)
}
