//! Audits a finished LAN game from its saved file, as a third party can:
//! `junqi-audit GAME_FILE` checks every signature and chain link, rebuilds
//! both sides from the seeds and setups they opened at the end, and prints
//! the verdict and its evidence. Exit status: 0 clean, 1 a cheat found,
//! 2 the file cannot be audited (altered, unfinished, unreadable).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use junqi_game::GameResult;
use junqi_net::log_audit::audit_log;

/// Audits a finished LAN game from its saved file, as a third party can: checks every
/// signature and chain link, rebuilds both sides from the seeds and setups they opened at
/// the end, and prints the verdict and its evidence.
#[derive(Parser)]
#[command(
    name = "junqi-audit",
    after_help = "Exit status: 0 clean, 1 a cheat found, 2 the file cannot be audited \
                  (altered, unfinished, unreadable) or bad usage."
)]
struct Cli {
    /// A saved game: junqi-peer's journal (--state DIR/game.bin) or the app's LAN save
    game_file: PathBuf,
}

fn main() -> ExitCode {
    let path = Cli::parse().game_file;
    let saved = match junqi_net::resume::load(&path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("junqi-audit: cannot read {}: {e}", path.display());
            return ExitCode::from(2);
        }
    };
    let v = match audit_log(&saved.log, std::time::Instant::now()) {
        Ok(v) => v,
        Err(e) => {
            println!("not auditable: {e}");
            return ExitCode::from(2);
        }
    };
    println!("messages: {}", saved.log.len());
    match v.result {
        Some(GameResult::Win { winner, reason }) => {
            println!("result: {winner:?} wins ({reason:?})")
        }
        Some(GameResult::Draw { reason }) => println!("result: draw ({reason:?})"),
        None => println!("result: none"),
    }
    match v.cheater {
        None => {
            println!("audit: clean");
            ExitCode::SUCCESS
        }
        Some(side) => {
            let reason = v.reason.as_ref().map(ToString::to_string);
            println!("audit: {side:?} cheated: {}", reason.unwrap_or_default());
            // The typed finding itself (the points, the engine's error, the bound), for a
            // program or a person that wants the data rather than the sentence.
            if let Some(kind) = &v.reason {
                println!("finding: {kind:?}");
            }
            println!("evidence: {}", v.evidence);
            ExitCode::from(1)
        }
    }
}
