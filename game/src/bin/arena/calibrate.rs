//! `arena calibrate`: learns the belief's behaviour table from self-play.
//!
//! ```text
//! arena calibrate --pair expert/expert --pair master/greedy ... --games 100 \
//!     [--seed S] [--test-seed T] [--every 2] [--threads 2] [--rounds 300] [--prior 3]
//! ```
//!
//! Each pair plays `--games` dark games on seed S (training) and as many on
//! seed T (testing). Every `--every` plies each side's view is read with the
//! truth from the referee: one [`Observation`] per hidden enemy piece on
//! the board, labelled with the player whose piece it is. The table is
//! fitted on the training games ([`fit`]) and the mean log-loss of the true
//! ranks is reported on both sets for every model, overall and per player
//! observed; the last lines are the table as Rust.

use super::{cap_of, make_player, player_name, seed_of};
use junqi_game::ai::behaviour::BUCKETS;
use junqi_game::ai::calibration::{Model, Observation, fit, observe};
use junqi_game::{Action, Game, Mode, PieceId, Rank, Rules, Side};
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// `arena calibrate`'s options.
///
/// Each pair plays --games dark games on --seed (training) and as many on --test-seed
/// (testing). The table is fitted on the training games and the mean log-loss of the true
/// ranks is reported on both sets for every model; the last lines are the table as Rust.
#[derive(clap::Args)]
pub(crate) struct CalArgs {
    /// Two players who play each other, as the arena's --a and --b; repeat for more pairs
    #[arg(long = "pair", value_name = "A/B", required = true, value_parser = pair)]
    pairs: Vec<(String, String)>,
    /// Games of each pair on each seed
    #[arg(long, value_name = "N", default_value_t = 40)]
    games: usize,
    /// The training games' seed
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// The test games' seed
    #[arg(long, value_name = "T", default_value_t = 2)]
    test_seed: u64,
    /// Read the views every K plies
    #[arg(long, value_name = "K", default_value_t = 2,
          value_parser = clap::value_parser!(u16).range(1..))]
    every: u16,
    /// Games played at once
    #[arg(long, value_name = "T", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=1024))]
    threads: u64,
    /// Rounds of the fit
    #[arg(long, value_name = "R", default_value_t = 300)]
    rounds: usize,
    /// The fit's prior weight
    #[arg(long, value_name = "P", default_value_t = 3.0)]
    prior: f32,
}

/// Why a `--pair` was refused.
#[derive(Debug, thiserror::Error)]
enum BadPair {
    #[error("expected two players A/B")]
    NoSlash,
    #[error("{0}")]
    Player(String),
}

/// `A/B`: two players the arena knows.
fn pair(s: &str) -> Result<(String, String), BadPair> {
    let (x, y) = s.split_once('/').ok_or(BadPair::NoSlash)?;
    Ok((
        player_name(x).map_err(BadPair::Player)?,
        player_name(y).map_err(BadPair::Player)?,
    ))
}

/// The observations of one dark game between `south` and `north`, each
/// labelled with the player whose piece it is.
fn play(south: &str, north: &str, seed: u64, every: u16) -> Vec<(String, Observation)> {
    let names = [south, north];
    let mut players = [
        make_player(south, seed ^ 0xA, false).expect("checked"),
        make_player(north, seed ^ 0xB, false).expect("checked"),
    ];
    let rules = Rules::for_mode(Mode::Dark);
    let (ls, ln) = (players[0].layout(&rules), players[1].layout(&rules));
    let mut game = Game::new(rules, ls, ln, Side::South).expect("legal layouts");
    let mut views = [game.view(Side::South), game.view(Side::North)];
    let mut out = Vec::new();
    while game.result().is_none() && game.position().ply() < 1000 {
        if game.position().ply().is_multiple_of(every) {
            let pos = game.position();
            let truth = |id: PieceId| -> Option<Rank> {
                pos.pieces()
                    .find(|(_, pc)| pc.id == id)
                    .map(|(_, pc)| pc.rank)
            };
            for (i, v) in views.iter().enumerate() {
                for o in observe(v, truth) {
                    out.push((names[1 - i].to_string(), o));
                }
            }
        }
        let side = game.turn();
        let i = side.index();
        let deadline = Instant::now() + cap_of(names[i]).mul_f64(0.9);
        let stop = move || Instant::now() >= deadline;
        let action = players[i].act(&views[i], &stop);
        let events = game
            .apply(side, action)
            .or_else(|_| game.apply(side, Action::Timeout))
            .expect("a timeout is always allowed");
        for v in views.iter_mut() {
            for e in &events {
                v.apply(e).expect("referee events fit every view");
            }
        }
    }
    out
}

/// Every pair's `games` games on `seed`, colours alternating.
fn collect(a: &CalArgs, seed: u64) -> Vec<(String, Observation)> {
    let jobs: Vec<(usize, usize)> = (0..a.pairs.len())
        .flat_map(|p| (0..a.games).map(move |g| (p, g)))
        .collect();
    let next = AtomicUsize::new(0);
    let all = Mutex::new(Vec::new());
    let bar = junqi_game::progress::Progress::new("calibrate", jobs.len() as u64, "games", false);
    std::thread::scope(|s| {
        for _ in 0..a.threads {
            s.spawn(|| {
                loop {
                    let j = next.fetch_add(1, Ordering::SeqCst);
                    let Some(&(p, g)) = jobs.get(j) else { break };
                    let (x, y) = &a.pairs[p];
                    let game_seed = seed_of(seed, (p * 100_000 + g) as u64);
                    let (south, north) = if g % 2 == 0 { (x, y) } else { (y, x) };
                    let obs = play(south, north, game_seed, a.every);
                    all.lock().expect("no panics").extend(obs);
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish();
    all.into_inner().expect("no panics")
}

/// The mean log-loss of every model on `obs`, overall and per player observed.
fn report(what: &str, obs: &[(String, Observation)], table: &junqi_game::ai::behaviour::Table) {
    let mut by: BTreeMap<&str, Vec<Observation>> = BTreeMap::new();
    for (name, o) in obs {
        by.entry("all").or_default().push(o.clone());
        by.entry(name.as_str()).or_default().push(o.clone());
    }
    for (name, v) in by {
        println!(
            "{what} {name:>10}: {:>7} pieces  flat {:.4}  layout {:.4}  hand {:.4}  learned {:.4}",
            v.len(),
            Model::Flat.log_loss(&v),
            Model::Layout.log_loss(&v),
            Model::Hand.log_loss(&v),
            Model::Table(table).log_loss(&v)
        );
    }
}

pub(super) fn main(a: CalArgs) {
    let started = Instant::now();
    let train = collect(&a, a.seed);
    let test = collect(&a, a.test_seed);
    let plain: Vec<Observation> = train.iter().map(|(_, o)| o.clone()).collect();
    let table = fit(&plain, a.rounds, a.prior);
    report("train", &train, &table);
    report("test ", &test, &table);
    println!("# {:.0} s", started.elapsed().as_secs_f64());
    println!("pub const LEARNED: Table = [");
    for (b, row) in table.iter().enumerate().take(BUCKETS) {
        let cells: Vec<String> = row.iter().map(|x| format!("{x:.3}")).collect();
        println!("    [{}], // {b}", cells.join(", "));
    }
    println!("];");
}
