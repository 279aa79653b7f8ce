//! What a run keeps for study: each game's record (`ARENA_RECORDS=DIR`) and, for a lost game,
//! its position before the end, its last events and its battles (`ARENA_DUMP_LOSS`).

use junqi_game::{Action, Game, Move};

/// With `ARENA_RECORDS=DIR` set, writes the record of game `index` to
/// `DIR/game-INDEX.json`, to replay and study it.
pub(crate) fn save_record(game: &Game, index: usize) {
    let Some(dir) = std::env::var_os("ARENA_RECORDS") else {
        return;
    };
    let path = std::path::Path::new(&dir).join(format!("game-{index}.json"));
    let written = serde_json::to_string(game.record())
        .map_err(|e| e.to_string())
        .and_then(|json| std::fs::write(&path, json).map_err(|e| e.to_string()));
    if let Err(e) = written {
        eprintln!("\ncannot write {}: {e}", path.display());
    }
}

/// With `ARENA_DUMP_LOSS` set, prints a lost game's position `plies` plies before its end and
/// its last `events`, to study why A lost.
pub(crate) fn dump_loss(game: &Game, what: &str, plies: usize, events: usize) {
    if std::env::var_os("ARENA_DUMP_LOSS").is_none() {
        return;
    }
    let back = game.record().actions.len().saturating_sub(plies);
    let g = Game::replay(game.record(), Some(back)).expect("replays");
    eprintln!(
        "\nloss, {what}; {plies} plies before the end:\n{:?}",
        g.position()
    );
    let ev = game.events();
    for e in &ev[ev.len().saturating_sub(events)..] {
        eprintln!("  {e:?}");
    }
    if std::env::var_os("ARENA_DUMP_LOSS").is_some_and(|v| v == "battles") {
        dump_battles(game);
    }
}

/// Every battle of `game` with the true ranks (`ARENA_DUMP_LOSS=battles`).
fn dump_battles(game: &Game) {
    let record = game.record();
    for (i, (side, action)) in record.actions.iter().enumerate() {
        let Action::Move(Move::Step { from, to }) = *action else {
            continue;
        };
        let before = Game::replay(record, Some(i)).expect("replays");
        let pos = before.position();
        if let (Some(a), Some(d)) = (pos.at(from), pos.at(to)) {
            let board = pos.board();
            let outcome = pos.rules().clash(a.rank, d.rank).outcome;
            eprintln!(
                "  ply {i}: {side} {:?} {} x {:?} {}: {outcome:?}",
                a.rank,
                board.name_of(from),
                d.rank,
                board.name_of(to)
            );
        }
    }
}
