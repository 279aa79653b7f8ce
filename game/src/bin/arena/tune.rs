//! `arena tune`: the evaluation's weights tuned by self-play with [`Spsa`].
//!
//! ```text
//! arena tune --base master:nodes=150000 --mode flip --steps 40 --pairs 8 \
//!     --param near_flag=100:20 --param hunt=100:20 --param contempt=250:60:0:1000 \
//!     [--seed S] [--threads T] [--a 2.0] [--big-a 10]
//! ```
//!
//! Each step plays `--pairs` pairs of games (one deal each, both colours,
//! [`super::Args::paired`]) between the base player with the perturbed
//! values up and the same with them down, and moves the values by the
//! result. A `--param NAME=START:C[:MIN:MAX]` is any override key of the
//! arena's players (the weights in percent, `contempt` in centi-units);
//! bounds default to 0 and 400. Every step prints one JSON line; the last
//! line is the tuned player, to be checked on a fresh seed against the base
//! before it is kept.

use super::spsa::{Param, Spsa};
use super::{Args, make_player, parse_mode, run_games, wdl};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use std::sync::Arc;
use std::time::Instant;

struct TuneArgs {
    base: String,
    mode: junqi_game::Mode,
    steps: u32,
    pairs: usize,
    seed: u64,
    threads: usize,
    a: f64,
    big_a: f64,
    params: Vec<Param>,
}

fn usage() -> ! {
    eprintln!(
        "usage: arena tune --base PLAYER --param NAME=START:C[:MIN:MAX] ... [--mode dark|open|flip] [--steps N] [--pairs P] [--seed S] [--threads T] [--a A] [--big-a A0]"
    );
    std::process::exit(2)
}

/// `NAME=START:C[:MIN:MAX]`.
fn parse_param(s: &str) -> Option<Param> {
    let (name, rest) = s.split_once('=')?;
    let nums: Vec<f64> = rest
        .split(':')
        .map(|x| x.parse().ok())
        .collect::<Option<_>>()?;
    let (value, c, min, max) = match nums[..] {
        [v, c] => (v, c, 0.0, 400.0),
        [v, c, lo, hi] => (v, c, lo, hi),
        _ => return None,
    };
    (c > 0.0 && min <= value && value <= max).then(|| Param {
        name: name.to_string(),
        value,
        c,
        min,
        max,
    })
}

fn parse() -> TuneArgs {
    let mut t = TuneArgs {
        base: "master".into(),
        mode: junqi_game::Mode::Dark,
        steps: 20,
        pairs: 8,
        seed: 1,
        threads: std::thread::available_parallelism().map_or(2, |n| n.get()),
        a: 2.0,
        big_a: 10.0,
        params: Vec::new(),
    };
    let mut it = std::env::args().skip(2);
    while let Some(flag) = it.next() {
        let mut val = || it.next().unwrap_or_else(|| usage());
        match flag.as_str() {
            "--base" => t.base = val(),
            "--mode" => {
                t.mode = parse_mode(&val())
                    .filter(|m| !m.1)
                    .unwrap_or_else(|| usage())
                    .0
            }
            "--steps" => t.steps = val().parse().unwrap_or_else(|_| usage()),
            "--pairs" => t.pairs = val().parse().unwrap_or_else(|_| usage()),
            "--seed" => t.seed = val().parse().unwrap_or_else(|_| usage()),
            "--threads" => t.threads = val().parse().unwrap_or_else(|_| usage()),
            "--a" => t.a = val().parse().unwrap_or_else(|_| usage()),
            "--big-a" => t.big_a = val().parse().unwrap_or_else(|_| usage()),
            "--param" => t
                .params
                .push(parse_param(&val()).unwrap_or_else(|| usage())),
            _ => usage(),
        }
    }
    if t.params.is_empty() || t.pairs == 0 {
        usage();
    }
    // Every key must be one the players know, at its starting value.
    if let Err(e) = make_player(
        &player(&t.base, t.params.iter().map(|p| (p, p.value))),
        0,
        false,
    ) {
        eprintln!("{e}");
        usage();
    }
    t
}

/// The base player with each parameter at its value as overrides.
fn player<'a>(base: &str, values: impl IntoIterator<Item = (&'a Param, f64)>) -> String {
    let overrides: Vec<String> = values
        .into_iter()
        .map(|(p, v)| format!("{}={v:.0}", p.name))
        .collect();
    let sep = if base.contains(':') { ',' } else { ':' };
    format!("{base}{sep}{}", overrides.join(","))
}

pub(crate) fn main() {
    let t = parse();
    let mut spsa = Spsa::new(t.params.clone(), t.a, t.big_a);
    let mut rng = Pcg64Mcg::seed_from_u64(t.seed ^ 0x5350_5341);
    let started = Instant::now();
    let bar = junqi_game::progress::Progress::new("tune", u64::from(t.steps), "steps", false);
    for step in 0..t.steps {
        let trial = spsa.trial(&mut rng);
        let at = |v: &[f64]| player(&t.base, spsa.params.iter().zip(v).map(|(p, &x)| (p, x)));
        let args = Arc::new(Args {
            a: at(&trial.plus),
            b: at(&trial.minus),
            games: 2 * t.pairs,
            mode: t.mode,
            seed: t.seed.wrapping_mul(7919).wrapping_add(u64::from(step)),
            threads: t.threads,
            json: true,
            time_limit: None,
            players: 2,
            partners_open: false,
            four_board: false,
            concede: true,
            paired: true,
        });
        let games = run_games(&args, false);
        let (w, d, l) = wdl(&games);
        // The plus side's mean score less the minus side's.
        let result = (w as f64 - l as f64) / games.len().max(1) as f64;
        spsa.update(&trial, result);
        let values: Vec<String> = spsa
            .params
            .iter()
            .map(|p| format!("\"{}\":{:.1}", p.name, p.value))
            .collect();
        bar.inc(1);
        bar.suspend(|| println!(
            "{{\"step\":{step},\"plus\":\"{}\",\"minus\":\"{}\",\"wins\":{w},\"draws\":{d},\"losses\":{l},\"result\":{result:.3},\"values\":{{{}}},\"seconds\":{:.0}}}",
            args.a,
            args.b,
            values.join(","),
            started.elapsed().as_secs_f64()
        ));
    }
    bar.finish();
    println!(
        "tuned: {}",
        player(&t.base, spsa.params.iter().map(|p| (p, p.value)))
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_parse_with_and_without_bounds() {
        let p = parse_param("hunt=100:20").expect("parses");
        assert_eq!((p.value, p.c, p.min, p.max), (100.0, 20.0, 0.0, 400.0));
        let p = parse_param("contempt=250:60:0:1000").expect("parses");
        assert_eq!((p.value, p.c, p.min, p.max), (250.0, 60.0, 0.0, 1000.0));
        for bad in [
            "hunt",
            "hunt=100",
            "hunt=x:20",
            "hunt=100:0",
            "hunt=500:20",
            "hunt=1:2:3",
        ] {
            assert!(parse_param(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn a_tuned_player_is_a_player_the_arena_knows() {
        let params = [
            parse_param("hunt=100:20").expect("parses"),
            parse_param("contempt=250:60:0:1000").expect("parses"),
        ];
        let name = player(
            "master:nodes=1000",
            params.iter().map(|p| (p, p.value + 0.4)),
        );
        assert_eq!(name, "master:nodes=1000,hunt=100,contempt=250");
        assert!(make_player(&name, 0, false).is_ok());
        assert_eq!(player("expert", [(&params[0], 90.0)]), "expert:hunt=90");
        assert!(make_player("master:no_such_weight=3", 0, false).is_err());
    }
}
