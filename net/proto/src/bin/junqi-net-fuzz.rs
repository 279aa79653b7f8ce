//! Fuzzes the frame decoder and the protocol state machine with hostile input.
//!
//! `cargo run -p junqi-proto --release --features testing --bin junqi-net-fuzz -- [ITERATIONS] [SEED]`
//! (default one million). Any panic fails the run.

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u64 = args
        .next()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let t = std::time::Instant::now();
    let bar = junqi_game::progress::Progress::new("fuzz", n, "inputs", false);
    let done = junqi_proto::testing::fuzz_sessions_with(n, seed, |_| bar.inc(1));
    bar.finish();
    println!(
        "{done} hostile inputs, no panic, {:.1} s",
        t.elapsed().as_secs_f64()
    );
}
