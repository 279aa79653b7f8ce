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
use super::{Args, ModeArg, make_player, player_name, run_games, threads, usage_error, wdl};
use clap::ValueEnum;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use std::sync::Arc;
use std::time::Instant;

/// `arena tune`'s options.
///
/// Each step plays --pairs pairs of games (one deal each, both colours) between the base
/// player with the values perturbed up and the same with them down, and moves the values by
/// the result. Every step prints one JSON line; the last line is the tuned player, to be
/// checked on a fresh seed against the base before it is kept.
#[derive(clap::Args)]
pub(crate) struct TuneArgs {
    /// The player tuned: a level, with overrides if any (as the arena's --a)
    #[arg(long, value_name = "PLAYER", default_value = "master", value_parser = player_name)]
    base: String,
    /// A value tuned: any override key of the arena's players (the weights in percent,
    /// contempt in centi-units), its start, its perturbation C > 0 and its bounds (0 and 400
    /// if not given); repeat for more
    #[arg(
        long = "param",
        value_name = "NAME=START:C[:MIN:MAX]",
        required = true,
        value_parser = param
    )]
    params: Vec<Param>,
    /// The game mode: dark, open or flip
    #[arg(long, default_value = "dark", value_parser = two_player_mode)]
    mode: ModeArg,
    /// The number of steps
    #[arg(long, value_name = "N", default_value_t = 20)]
    steps: u32,
    /// Pairs of games a step
    #[arg(long, value_name = "P", default_value_t = 8,
          value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pairs: u64,
    /// The seed of the perturbations and of the games
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Games played at once [default: the number of cores]
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u64).range(1..=1024))]
    threads: Option<u64>,
    /// The gain a of the step a / (step + 1 + A)^0.602
    #[arg(long = "a", value_name = "A", default_value_t = 2.0)]
    a: f64,
    /// The stability constant A of the step
    #[arg(long, value_name = "A0", default_value_t = 10.0)]
    big_a: f64,
}

/// Why a `--param` was refused.
#[derive(Debug, thiserror::Error)]
#[error("expected NAME=START:C or NAME=START:C:MIN:MAX, numbers, C > 0 and MIN <= START <= MAX")]
struct BadParam;

fn param(s: &str) -> Result<Param, BadParam> {
    parse_param(s).ok_or(BadParam)
}

/// Why a `--mode` was refused.
#[derive(Debug, thiserror::Error)]
#[error("expected dark, open or flip (tune plays two-player games)")]
struct NotTwoPlayerMode;

/// A mode of two-player games, by the arena's names.
fn two_player_mode(s: &str) -> Result<ModeArg, NotTwoPlayerMode> {
    match ModeArg::from_str(s, false) {
        Ok(ModeArg::Shuangming) | Err(_) => Err(NotTwoPlayerMode),
        Ok(m) => Ok(m),
    }
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

/// Checks what clap cannot check alone: a two-player mode, and every key one the players
/// know at its starting value.
fn check(t: &TuneArgs) {
    if t.mode == ModeArg::Shuangming {
        usage_error(
            Some("tune"),
            "tune plays two-player games: dark, open or flip",
        );
    }
    if let Err(e) = make_player(
        &player(&t.base, t.params.iter().map(|p| (p, p.value))),
        0,
        false,
    ) {
        usage_error(Some("tune"), &e);
    }
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

pub(crate) fn main(t: TuneArgs) {
    check(&t);
    let (mode, _) = t.mode.mode();
    let (pairs, threads) = (
        usize::try_from(t.pairs).expect("at most 10^6"),
        threads(t.threads),
    );
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
            games: 2 * pairs,
            mode,
            seed: t.seed.wrapping_mul(7919).wrapping_add(u64::from(step)),
            threads,
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
