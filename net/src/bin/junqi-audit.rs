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
    /// A saved game: junqi-peer's journal (--state DIR/game.bin), the app's LAN save, or a
    /// four-seat table's log (junqi-peer --state DIR/table.bin)
    game_file: PathBuf,
}

fn main() -> ExitCode {
    let path = Cli::parse().game_file;
    if let Ok(bytes) = std::fs::read(&path)
        && junqi_net::table::is_table_file(&bytes)
    {
        return audit_table_file(&path, &bytes);
    }
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
    print_result(v.result);
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
            if let Some(e) = v.evidence {
                println!("evidence: {e}");
            }
            ExitCode::from(1)
        }
    }
}

/// A four-seat table's log: the same audit every seat ran at the end.
fn audit_table_file(path: &std::path::Path, bytes: &[u8]) -> ExitCode {
    use junqi_net::four::{AuditGap, AuditOutcome, audit_table};
    let log = match junqi_net::table::load_log(bytes) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("junqi-audit: cannot read {}: {e}", path.display());
            return ExitCode::from(2);
        }
    };
    println!("messages: {}", log.envelopes().count());
    match audit_table(&log) {
        AuditOutcome::Clean { record, result } => {
            print_result(result);
            println!("plies: {}", record.actions.len());
            println!("audit: clean");
            ExitCode::SUCCESS
        }
        AuditOutcome::Cheat(b) => {
            println!("audit: {} cheated: {}", b.seat, b.fault);
            println!("evidence: round {} of the log", b.round);
            ExitCode::from(1)
        }
        AuditOutcome::Unauditable(gap) => {
            match gap {
                AuditGap::Altered { round } => {
                    println!("not auditable: round {round} does not verify (the file was altered)");
                }
                AuditGap::Unfinished => println!("not auditable: the table did not finish"),
                AuditGap::NotOpened(seats) => {
                    let names: Vec<String> = seats.iter().map(ToString::to_string).collect();
                    println!(
                        "not auditable: {} did not open their army",
                        names.join(", ")
                    );
                }
            }
            ExitCode::from(2)
        }
    }
}

fn print_result(result: Option<GameResult>) {
    match result {
        Some(GameResult::Win { winner, reason }) => {
            println!("result: {winner:?} wins ({reason:?})");
        }
        Some(GameResult::Draw { reason }) => println!("result: draw ({reason:?})"),
        None => println!("result: none"),
    }
}
