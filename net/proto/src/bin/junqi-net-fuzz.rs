//! Fuzzes the frame decoder and the protocol state machine with hostile input.
//!
//! `cargo run -p junqi-proto --release --features testing --bin junqi-net-fuzz -- [ITERATIONS] [SEED]`
//! (default one million; `--help` lists the arguments). Any panic fails the run.

use clap::Parser;

/// Fuzzes the frame decoder and the protocol's sessions with hostile input: random bytes,
/// mutated real frames and correctly signed random messages from the peer, each followed by
/// a random timeout, into dark, open and flip sessions mid-game
#[derive(Parser)]
#[command(
    name = "junqi-net-fuzz",
    after_help = "A progress line goes to standard error on a terminal. Exit status: 0 no \
                  panic, 2 bad usage; a panic fails the run (101)."
)]
struct Cli {
    /// Hostile inputs to send
    #[arg(default_value_t = 1_000_000)]
    iterations: u64,
    /// The seed of the inputs and of the sessions: the same seed gives the same run
    #[arg(default_value_t = 1)]
    seed: u64,
}

fn main() {
    let Cli { iterations, seed } = Cli::parse();
    let t = std::time::Instant::now();
    let bar = junqi_game::progress::Progress::new("fuzz", iterations, "inputs", false);
    let done = junqi_proto::testing::fuzz_sessions_with(iterations, seed, |_| bar.inc(1));
    bar.finish();
    println!(
        "{done} hostile inputs, no panic, {:.1} s",
        t.elapsed().as_secs_f64()
    );
}
