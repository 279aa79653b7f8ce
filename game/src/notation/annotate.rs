//! A record's actions written with the referee's announcements.

use super::written::{Note, Written, movetext_on, note_of};
use crate::board::Board;
use crate::game::{Game, Record, SetupError};

/// A record's actions with what the referee announced for each (the record
/// is replayed to find out).
pub fn annotate(record: &Record) -> Result<Vec<Written>, SetupError> {
    let mut start = record.clone();
    start.actions.clear();
    let mut game = Game::replay(&start, None)?;
    let mut out = Vec::with_capacity(record.actions.len());
    for (index, &(side, action)) in record.actions.iter().enumerate() {
        let events = game
            .apply(side, action)
            .map_err(|error| SetupError::Action { index, error })?;
        let note = note_of(&events);
        out.push(Written {
            side,
            action,
            attack: matches!(note, Some(Note::Battle { .. } | Note::Void { .. })),
            note,
        });
    }
    Ok(out)
}

/// The movetext of a whole record, with every announcement (four-player
/// records with the four-player board's point names).
pub fn record_movetext(record: &Record) -> Result<String, SetupError> {
    let board = match record.setup {
        crate::game::Setup::Four { .. } => Board::four_player(),
        _ => record.rules.two_player_board(),
    };
    Ok(movetext_on(board, &annotate(record)?))
}
