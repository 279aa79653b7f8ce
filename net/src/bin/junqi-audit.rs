//! Audits a finished LAN game from its saved file, as a third party can:
//! `junqi-audit GAME_FILE` checks every signature and chain link, rebuilds
//! both sides from the seeds and setups they opened at the end, and prints
//! the verdict and its evidence. Exit status: 0 clean, 1 a cheat found,
//! 2 the file cannot be audited (altered, unfinished, unreadable).

use std::process::ExitCode;

use junqi_game::GameResult;
use junqi_net::log_audit::audit_log;

fn main() -> ExitCode {
    let Some(path) = std::env::args_os().nth(1) else {
        eprintln!("usage: junqi-audit GAME_FILE");
        return ExitCode::from(2);
    };
    let saved = match junqi_net::resume::load(std::path::Path::new(&path)) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("junqi-audit: cannot read {}: {e}", path.to_string_lossy());
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
            println!("evidence: {}", v.evidence);
            ExitCode::from(1)
        }
    }
}
