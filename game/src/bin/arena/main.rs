//! Plays two players against each other many times and reports the score.
//!
//! ```text
//! cargo run -p junqi-game --release --bin arena -- --a master --b expert \
//!     --games 400 --mode dark --seed 1 [--threads 2] [--json]
//! ```
//! (`arena --help` lists the options; game/README.md shows it.)
//!
//! Players: `novice`, `skilled`, `expert`, `master`,
//! `random` (uniform random legal mover), `greedy` (best one-ply move by
//! expected material under the belief). Colours alternate game by game; each
//! game has its own seed; every action goes through the referee, so an
//! illegal move is caught and counted.
//!
//! `--players 4` plays teams (四国大战): A's level on two partner seats, B's
//! on the other two, one player per seat. Modes `dark` (四暗), `shuangming`
//! (双明: partners see each other's pieces) and `open` (全明). Over every
//! eight games A's team sits at South+North and at East+West, and each of
//! the four seats moves first once with A at each pair.
//!
//! `--board four-player` seats two players on the four-player board (QQ 两人
//! rooms): South against North through the centre, East and West empty.
//!
//! Before each move the AI levels may resign or offer a draw, and every other
//! player answers an offer at once ([`Player::before_move`],
//! [`Player::accepts_draw`]; the baselines never do); `--no-concede` turns
//! this off, so games end only on the board.
//!
//! `arena tune ...` tunes the evaluation's weights by self-play ([`tune`]);
//! `arena calibrate ...` learns the belief's behaviour table ([`calibrate`]).

mod calibrate;
mod cpu;
mod spsa;
mod study;
mod tune;

use clap::{CommandFactory, Parser, Subcommand, ValueEnum};
use junqi_game::ai::{Ai, FlagBox, Interior, Knowledge, Level, Player, Priors, player_by_name};
use junqi_game::progress::Progress;
use junqi_game::{
    Action, DrawReason, Game, GameResult, Mode, PlayerView, Rules, Side, TableEvent, Team,
    WinReason,
};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

struct Args {
    a: String,
    b: String,
    games: usize,
    mode: Mode,
    seed: u64,
    threads: usize,
    json: bool,
    /// Start no new game after this many seconds (the report says how many were played).
    time_limit: Option<f64>,
    /// 2, or 4 for team games.
    players: u8,
    /// Four players: partners see each other's pieces (双明).
    partners_open: bool,
    /// Two players on the four-player board (QQ 两人 rooms).
    four_board: bool,
    /// Players may resign, offer and accept draws.
    concede: bool,
    /// Games come in pairs on one deal: games 2k and 2k + 1 share their
    /// seed, and in the second A gets the layout B had and the other colour,
    /// so the deal's luck cancels out (the tuner's matches).
    paired: bool,
}

/// Plays two players against each other many times and reports the score of A
#[derive(Parser)]
#[command(
    name = "arena",
    // `arena tune ...` and `arena calibrate ...` take their own options, not the arena's.
    args_conflicts_with_subcommands = true,
    // A flag given twice takes its last value, as the hand-written parser did.
    args_override_self = true,
    after_help = "Colours alternate game by game; each game has its own seed; every action \
                  goes through the referee, so an illegal move is caught and counted. On a \
                  terminal, a progress line (games done, score so far, rate, time left) goes \
                  to standard error, never with --json.\n\n\
                  Exit status: 0 success, 2 bad usage."
)]
struct Cli {
    #[command(subcommand)]
    tool: Option<Tool>,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(Subcommand)]
enum Tool {
    /// Tune the evaluation's weights (or any override key) by self-play (SPSA)
    Tune(tune::TuneArgs),
    /// Learn the belief's behaviour table from self-play
    Calibrate(calibrate::CalArgs),
}

/// A match between players A and B.
#[derive(clap::Args)]
struct RunArgs {
    /// Player A: random, greedy, alphabeta, guard, a level (novice, skilled, expert, master,
    /// or 新手 熟练 高手 大师), or a level with overrides, LEVEL:KEY=VALUE,...
    #[arg(long = "a", value_name = "PLAYER", default_value = "expert", value_parser = player_name)]
    a: String,
    /// Player B, as --a
    #[arg(long = "b", value_name = "PLAYER", default_value = "greedy", value_parser = player_name)]
    b: String,
    /// The number of games
    #[arg(long, value_name = "N", default_value_t = 100)]
    games: usize,
    /// 4: A's team against B's team (四国大战), one player per seat
    #[arg(long, value_enum, default_value_t = Players::Two)]
    players: Players,
    /// four-player: two players on the four-player board (South against North)
    #[arg(long, value_enum, default_value_t = Board::Classic)]
    board: Board,
    /// Two players: dark, open or flip; four players: dark (四暗), shuangming (双明) or open
    /// (全明)
    #[arg(long, value_enum, default_value_t = ModeArg::Dark)]
    mode: ModeArg,
    /// The match's seed; each game's seed comes from it
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Games played at once [default: the number of cores]
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u64).range(1..=1024))]
    threads: Option<u64>,
    /// Start no new game after this many seconds (the report says how many were played)
    #[arg(long, value_name = "SECONDS", value_parser = seconds)]
    time_limit: Option<f64>,
    /// Players never resign, offer or accept draws: games end on the board
    #[arg(long)]
    no_concede: bool,
    /// Games 2k and 2k+1 share one deal, colours and layouts swapped (two players)
    #[arg(long)]
    paired: bool,
    /// Print one JSON line
    #[arg(long)]
    json: bool,
}

/// A game mode by name (aliases: sian and 四暗, quanming and 全明, 双明).
#[derive(Clone, Copy, PartialEq, ValueEnum)]
pub(crate) enum ModeArg {
    #[value(alias = "sian", alias = "四暗")]
    Dark,
    #[value(alias = "quanming", alias = "全明")]
    Open,
    Flip,
    // Four players: partners see each other's pieces.
    #[value(alias = "双明")]
    Shuangming,
}

impl ModeArg {
    /// The mode, and whether partners see each other's pieces (双明).
    pub(crate) fn mode(self) -> (Mode, bool) {
        match self {
            ModeArg::Dark => (Mode::Dark, false),
            ModeArg::Open => (Mode::Open, false),
            ModeArg::Flip => (Mode::Flip, false),
            ModeArg::Shuangming => (Mode::Dark, true),
        }
    }
}

#[derive(Clone, Copy, PartialEq, ValueEnum)]
enum Players {
    #[value(name = "2")]
    Two,
    #[value(name = "4")]
    Four,
}

#[derive(Clone, Copy, PartialEq, ValueEnum)]
enum Board {
    Classic,
    FourPlayer,
}

/// A player name [`make_player`] takes, kept as written (the report prints it).
pub(crate) fn player_name(s: &str) -> Result<String, String> {
    make_player(s, 0, false).map(|_| s.to_owned())
}

/// Why a `--time-limit` was refused.
#[derive(Debug, thiserror::Error)]
enum SecondsError {
    #[error("not a number of seconds")]
    NotANumber,
    #[error("must be 0 or more")]
    Negative,
}

fn seconds(s: &str) -> Result<f64, SecondsError> {
    let v: f64 = s.parse().map_err(|_| SecondsError::NotANumber)?;
    if !v.is_finite() {
        Err(SecondsError::NotANumber)
    } else if v < 0.0 {
        Err(SecondsError::Negative)
    } else {
        Ok(v)
    }
}

/// The number of threads: as asked, or one per core.
pub(crate) fn threads(asked: Option<u64>) -> usize {
    asked.map_or_else(
        || std::thread::available_parallelism().map_or(2, |n| n.get()),
        |t| usize::try_from(t).expect("at most 1024"),
    )
}

/// Arguments that do not go together, in clap's words (subcommand `sub`, or the arena's
/// own): prints the message with the usage and exits with status 2.
pub(crate) fn usage_error(sub: Option<&str>, message: &str) -> ! {
    let mut cli = Cli::command();
    cli.build();
    let cmd = match sub {
        Some(name) => cli
            .find_subcommand_mut(name)
            .expect("a subcommand of arena"),
        None => &mut cli,
    };
    cmd.error(clap::error::ErrorKind::ArgumentConflict, message)
        .exit()
}

impl RunArgs {
    /// The match, once the arguments are checked together.
    fn into_args(self) -> Args {
        let four = self.players == Players::Four;
        let (mode, partners_open) = self.mode.mode();
        let four_board = self.board == Board::FourPlayer;
        if four && four_board {
            usage_error(
                None,
                "--board four-player seats two players; four players always play there",
            );
        }
        if (four && mode == Mode::Flip) || (!four && partners_open) {
            usage_error(
                None,
                "four players play dark, shuangming or open; two players dark, open or flip",
            );
        }
        let sparring = |p: &str| matches!(p.trim().to_lowercase().as_str(), "alphabeta" | "guard");
        if four && (sparring(&self.a) || sparring(&self.b)) {
            usage_error(
                None,
                "the sparring partners (alphabeta, guard) play two-player games",
            );
        }
        if self.paired && four {
            usage_error(None, "--paired pairs two-player games");
        }
        Args {
            a: self.a,
            b: self.b,
            games: self.games,
            mode,
            seed: self.seed,
            threads: threads(self.threads),
            json: self.json,
            time_limit: self.time_limit,
            players: if four { 4 } else { 2 },
            partners_open,
            four_board,
            concede: !self.no_concede,
            paired: self.paired,
        }
    }
}

/// A player by name; `LEVEL:key=value,...` overrides search settings for tuning
/// (keys: samples, screen, cand, depth, open, q, contempt, probe, conceal, mix, doubt, soft, flip_soft, nodes,
/// open_full (open games: 0 screened, 1 full-width alpha-beta), caution (percent: blind strikes at unmoved pieces charged their
/// expected loss once more),
/// full, honest, priors, slip, gen, boxed (0: never a flag boxed in by three
/// landmines, 1: always, 2: either, 3: never, its centre side open), forwin, resign (0: never resigns, to
/// see whether the games it resigns were lost), and the evaluation's weights
/// by their names in percent, [`junqi_game::ai::Weights::NAMES`]), on top of
/// the level's four-player settings when `four`.
fn make_player(name: &str, seed: u64, four: bool) -> Result<Box<dyn Player>, String> {
    let Some((level, overrides)) = name.split_once(':') else {
        return player_by_name(name, seed).map_err(|e| e.to_string());
    };
    let level: Level = level
        .parse()
        .map_err(|e: junqi_game::ai::UnknownPlayer| e.to_string())?;
    let mut p = if four {
        level.params_four()
    } else {
        level.params()
    };
    let mut resigns = true;
    for kv in overrides.split(',') {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| format!("bad override {kv:?}"))?;
        let n: f64 = v.parse().map_err(|_| format!("bad value {v:?}"))?;
        match k {
            "samples" => p.search.samples = n as usize,
            "screen" => p.search.screen_samples = n as usize,
            "cand" => p.search.candidates = n as usize,
            "depth" => p.search.max_depth = n as u8,
            "open" => p.search.open_depth = n as u8,
            "q" => p.search.qdepth = n as u8,
            "contempt" => p.search.contempt = n as i32,
            "probe" => p.search.probe = n as i32,
            "conceal" => p.search.conceal = n as i32,
            "mix" => p.search.mixing = n as u32,
            "doubt" => p.search.mine_doubt = n as i32,
            "soft" => p.search.soft = n as i32,
            "flip_soft" => p.search.flip_soft = n as i32,
            "nodes" => p.search.nodes = n as u64,
            "open_full" => p.search.open_full = n as u8,
            "caution" => p.search.caution = n as i32,
            "full" => {
                p.search.eval = match n as u8 {
                    0 => Knowledge::Basic,
                    1 => Knowledge::Full,
                    _ => Knowledge::Technique,
                }
            }
            "honest" => {
                p.search.interior = match n as u8 {
                    0 => Interior::Clairvoyant,
                    1 => Interior::Blind,
                    _ => Interior::Chance,
                }
            }
            "priors" => {
                p.priors = match n as u8 {
                    0 => Priors::None,
                    1 => Priors::Hand,
                    _ => Priors::Learned,
                }
            }
            "slip" => p.slip = n,
            "gen" => p.generated_layouts = n,
            "boxed" => {
                p.flag_box = match n as u8 {
                    0 => FlagBox::Never,
                    1 => FlagBox::Always,
                    3 => FlagBox::CentreOpen,
                    _ => FlagBox::Any,
                }
            }
            "forwin" => p.plays_for_win = n != 0.0,
            "pursuit" => p.pursuit = n != 0.0,
            "resign" => resigns = n != 0.0,
            _ => {
                if !p.search.weights.set(k, n.round() as i32) {
                    return Err(format!("unknown key {k:?} or bad weight {v:?}"));
                }
            }
        }
    }
    let ai = Box::new(Ai::with_params(level, p, seed));
    Ok(if resigns {
        ai
    } else {
        Box::new(NeverResigns(ai))
    })
}

/// A player that plays on where it would resign (`resign=0`); its draw
/// offers and answers are its own.
struct NeverResigns(Box<dyn Player>);

impl Player for NeverResigns {
    fn name(&self) -> String {
        self.0.name()
    }
    fn layout(&mut self, rules: &Rules) -> junqi_game::Layout {
        self.0.layout(rules)
    }
    fn act(&mut self, view: &PlayerView, stop: &dyn Fn() -> bool) -> Action {
        self.0.act(view, stop)
    }
    fn last_stats(&self) -> (u64, u8) {
        self.0.last_stats()
    }
    fn before_move(&mut self, view: &PlayerView) -> Option<Action> {
        self.0.before_move(view).filter(|a| *a != Action::Resign)
    }
    fn accepts_draw(&mut self, view: &PlayerView) -> bool {
        self.0.accepts_draw(view)
    }
}

/// The wall-clock cap of a player per move.
fn cap_of(name: &str) -> Duration {
    let level = name.split(':').next().unwrap_or(name);
    Duration::from_millis(level.parse::<Level>().map_or(1000, |l| l.max_millis()))
}

#[derive(Default, Clone)]
struct Played {
    /// 1 = A won, 0.5 draw, 0 = A lost.
    score: f64,
    plies: u32,
    reason: String,
    illegal: u32,
    a_ms: Vec<f64>,
    /// A's processor time per move (`cpu::thread_ms`), where it can be read.
    a_cpu_ms: Vec<f64>,
    b_ms: Vec<f64>,
    a_nodes: Vec<f64>,
    a_depth: Vec<f64>,
    /// Resignations by A's and B's players (four players: seats going out).
    resigns: [u32; 2],
    /// Draw offers by A's and B's players.
    offers: [u32; 2],
    /// A's side (team) made the game's first move.
    a_first: bool,
    /// Drawn by the quiet-move rule.
    quiet: bool,
}

/// Before `side` moves: its resignation or draw offer, and when it offers,
/// the answer of every other player still in (`others`, with their seat
/// index), each from its own view. Returns every announcement, in order, for
/// the views; refused actions are reported and skipped.
fn concede_turn(
    game: &mut Game,
    views: &[PlayerView],
    side: Side,
    mover: &mut dyn Player,
    others: &mut [(Side, &mut dyn Player)],
) -> (Option<Action>, Vec<TableEvent>) {
    let Some(action) = mover.before_move(&views[seat_of(game, side)]) else {
        return (None, Vec::new());
    };
    let mut out = match game.apply_table(side, action) {
        Ok(ev) => ev,
        Err(e) => {
            eprintln!("\nrefused {action:?} by {}: {e}", mover.name());
            return (None, Vec::new());
        }
    };
    if action == Action::OfferDraw {
        for (other, player) in others.iter_mut() {
            if game.result().is_some() || game.draw_offer().is_none() || !game.is_in(*other) {
                continue;
            }
            // Each answers from its view of everything announced so far.
            let mut view = views[seat_of(game, *other)].clone();
            for e in &out {
                view.apply_table(e).expect("referee events fit every view");
            }
            let answer = if player.accepts_draw(&view) {
                Action::AcceptDraw
            } else {
                Action::DeclineDraw
            };
            out.extend(game.apply_table(*other, answer).expect("an offer stands"));
        }
    }
    (Some(action), out)
}

/// `player`'s action from `view` under its wall-clock `cap`, its think time
/// (and for A its search figures) counted in `out`.
fn timed_act(
    player: &mut dyn Player,
    view: &PlayerView,
    cap: Duration,
    is_a: bool,
    out: &mut Played,
) -> Action {
    let start = Instant::now();
    let cpu = cpu::thread_ms();
    // A margin under the cap for the last node and the answer itself.
    let deadline = start + cap.mul_f64(0.9);
    let stop = move || Instant::now() >= deadline;
    let action = player.act(view, &stop);
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    if is_a {
        out.a_cpu_ms
            .extend(cpu.zip(cpu::thread_ms()).map(|(a, b)| b - a));
        let (nodes, depth) = player.last_stats();
        out.a_nodes.push(nodes as f64);
        out.a_depth.push(depth as f64);
        out.a_ms.push(ms);
    } else {
        out.b_ms.push(ms);
    }
    action
}

/// The index of `side`'s view: by seat in team games, else by side.
fn seat_of(game: &Game, side: Side) -> usize {
    if game.position().is_team_game() {
        Side::FOUR.iter().position(|&s| s == side).expect("a seat")
    } else {
        side.index()
    }
}

/// Counts a conceding action for A (`is_a`) or B.
fn tally(out: &mut Played, action: Option<Action>, is_a: bool) {
    let who = usize::from(!is_a);
    match action {
        Some(Action::Resign) => out.resigns[who] += 1,
        Some(Action::OfferDraw) => out.offers[who] += 1,
        _ => {}
    }
}

/// The seed of game `index`.
fn game_seed(args: &Args, index: usize) -> u64 {
    let index = if args.paired { index / 2 } else { index };
    seed_of(args.seed, index as u64)
}

/// The seed of game `index` of a run on `seed`.
fn seed_of(seed: u64, index: u64) -> u64 {
    seed.wrapping_mul(1_000_003)
        .wrapping_add(index)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// A four-player game of A's team against B's.
fn play_four(args: &Args, index: usize) -> Played {
    let seed = game_seed(args, index);
    // Eight games cycle A's seats (S+N, E+W) and the seat moving first.
    let a_team = if index.is_multiple_of(2) {
        Team::SouthNorth
    } else {
        Team::EastWest
    };
    let first = Side::FOUR[(index / 2) % 4];
    let mut rules = Rules::four_player(args.mode);
    rules.partners_open = args.partners_open;
    let mut players: Vec<(Box<dyn Player>, Duration, bool)> = Side::FOUR
        .iter()
        .map(|&s| {
            let is_a = s.team() == a_team;
            let (name, salt) = if is_a { (&args.a, 0xA) } else { (&args.b, 0xB) };
            let p =
                make_player(name, seed ^ salt ^ ((s.index() as u64) << 8), true).expect("checked");
            (p, cap_of(name), is_a)
        })
        .collect();
    let layouts = [0, 1, 2, 3].map(|i| players[i].0.layout(&rules));
    let mut game = Game::new_four(rules, layouts, first).expect("players choose legal layouts");
    let mut views = Side::FOUR.map(|s| game.view(s));
    let mut out = Played {
        a_first: first.team() == a_team,
        ..Played::default()
    };
    let mut plies = 0u32;
    while game.result().is_none() {
        let side = game.turn();
        let i = Side::FOUR.iter().position(|&s| s == side).expect("a seat");
        if args.concede {
            let (left, rest) = players.split_at_mut(i);
            let ((mover, _, is_a), right) = rest.split_first_mut().expect("seat i");
            let mut others: Vec<(Side, &mut dyn Player)> = left
                .iter_mut()
                .enumerate()
                .chain(right.iter_mut().enumerate().map(|(j, p)| (i + 1 + j, p)))
                .map(|(j, (p, _, _))| (Side::FOUR[j], &mut **p as &mut dyn Player))
                .collect();
            let (done, events) = concede_turn(&mut game, &views, side, &mut **mover, &mut others);
            tally(&mut out, done, *is_a);
            for v in views.iter_mut() {
                v.apply_all(&events).expect("referee events fit every view");
            }
            // A resigning seat is out: the turn may have passed on.
            if game.result().is_some() || game.turn() != side {
                continue;
            }
        }
        let (player, cap, is_a) = &mut players[i];
        let action = timed_act(&mut **player, &views[i], *cap, *is_a, &mut out);
        let events = match game.apply_table(side, action) {
            Ok(ev) => ev,
            Err(e) => {
                out.illegal += 1;
                eprintln!("\nillegal action by {}: {action:?}: {e}", player.name());
                game.apply_table(side, Action::Timeout)
                    .expect("a timeout is always allowed")
            }
        };
        for v in views.iter_mut() {
            v.apply_all(&events).expect("referee events fit every view");
        }
        plies += 1;
        if plies > 6000 {
            break;
        }
    }
    out.plies = plies;
    match game.result() {
        Some(GameResult::Win { winner, reason }) => {
            if winner.team() != a_team {
                study::dump_loss(
                    &game,
                    &format!("game {index}, A is {a_team:?}, {reason:?}"),
                    12,
                    16,
                );
            }
            out.score = if winner.team() == a_team { 1.0 } else { 0.0 };
            out.reason = reason_name(reason).into();
        }
        Some(GameResult::Draw { reason }) => {
            out.score = 0.5;
            out.quiet = reason == DrawReason::QuietMoves;
            out.reason = draw_name(reason).into();
        }
        None => {
            out.score = 0.5;
            out.reason = "draw".into();
        }
    }
    out
}

/// The report's name for how a game was won.
fn reason_name(reason: WinReason) -> &'static str {
    match reason {
        WinReason::FlagCaptured => "flag",
        WinReason::NoLegalMove => "no_moves",
        WinReason::NoMovablePieces => "no_pieces",
        WinReason::Timeouts => "timeouts",
        WinReason::Resignation => "resign",
        _ => "other",
    }
}

/// The report's name for how a game was drawn: agreed, or on the board.
fn draw_name(reason: DrawReason) -> &'static str {
    match reason {
        DrawReason::Agreed => "agreed_draw",
        _ => "draw",
    }
}

fn play_one(args: &Args, index: usize) -> Played {
    if args.players == 4 {
        return play_four(args, index);
    }
    let game_seed = game_seed(args, index);
    let a_is_south = index.is_multiple_of(2);
    // Paired games: the second of a pair deals A what B had.
    let (seed_a, seed_b) = if args.paired && !a_is_south {
        (game_seed ^ 0xB, game_seed ^ 0xA)
    } else {
        (game_seed ^ 0xA, game_seed ^ 0xB)
    };
    let mut a = make_player(&args.a, seed_a, false).expect("checked");
    let mut b = make_player(&args.b, seed_b, false).expect("checked");
    let (cap_a, cap_b) = (cap_of(&args.a), cap_of(&args.b));
    let rules = Rules {
        four_player_board: args.four_board,
        ..Rules::for_mode(args.mode)
    };
    let mut game = if args.mode == Mode::Flip {
        let mut rng = Pcg64Mcg::seed_from_u64(game_seed);
        Game::new_flip_shuffled(rules, Side::South, &mut rng)
    } else {
        let la = a.layout(&rules);
        let lb = b.layout(&rules);
        let (s, n) = if a_is_south { (la, lb) } else { (lb, la) };
        Game::new(rules, s, n, Side::South).expect("players choose legal layouts")
    };
    let a_side = if a_is_south { Side::South } else { Side::North };
    let mut views: [PlayerView; 2] = [game.view(Side::South), game.view(Side::North)];
    let mut out = Played {
        a_first: game.turn() == a_side,
        ..Played::default()
    };
    let mut plies = 0u32;
    while game.result().is_none() {
        let side = game.turn();
        let is_a = side == a_side;
        if args.concede {
            let (mover, other): (&mut dyn Player, &mut dyn Player) = if is_a {
                (&mut *a, &mut *b)
            } else {
                (&mut *b, &mut *a)
            };
            let (done, events) = concede_turn(
                &mut game,
                &views,
                side,
                mover,
                &mut [(side.opponent(), other)],
            );
            tally(&mut out, done, is_a);
            for v in views.iter_mut() {
                v.apply_all(&events).expect("referee events fit every view");
            }
            if game.result().is_some() {
                break;
            }
        }
        let (player, cap): (&mut Box<dyn Player>, Duration) = if is_a {
            (&mut a, cap_a)
        } else {
            (&mut b, cap_b)
        };
        let action = timed_act(&mut **player, &views[side.index()], cap, is_a, &mut out);
        let events = match game.apply(side, action) {
            Ok(ev) => ev,
            Err(e) => {
                // An illegal move: counted, and the offender's turn is lost.
                out.illegal += 1;
                eprintln!("\nillegal action by {}: {action:?}: {e}", player.name());
                game.apply(side, Action::Timeout)
                    .expect("a timeout is always allowed")
            }
        };
        for v in views.iter_mut() {
            for e in &events {
                v.apply(e).expect("referee events fit every view");
            }
        }
        plies += 1;
        if plies > 3000 {
            break;
        }
    }
    out.plies = plies;
    study::save_record(&game, index);
    match game.result() {
        Some(GameResult::Win { winner, reason }) => {
            if winner != a_side {
                study::dump_loss(
                    &game,
                    &format!("game {index}, A is {a_side}, {reason:?}"),
                    6,
                    8,
                );
            }
            out.score = if winner == a_side { 1.0 } else { 0.0 };
            out.reason = reason_name(reason).into();
        }
        Some(GameResult::Draw { .. }) | None => {
            if std::env::var_os("ARENA_DUMP").is_some() {
                eprintln!(
                    "\ndraw, game {index}, A is {a_side}:\n{:?}",
                    game.position()
                );
                let ev = game.events();
                for e in &ev[ev.len().saturating_sub(30)..] {
                    eprintln!("  {e:?}");
                }
            }
            out.score = 0.5;
            out.quiet = matches!(
                game.result(),
                Some(GameResult::Draw {
                    reason: DrawReason::QuietMoves
                })
            );
            out.reason = match game.result() {
                Some(GameResult::Draw { reason }) => draw_name(reason),
                _ => "draw",
            }
            .into();
        }
    }
    out
}

fn main() {
    let cli = Cli::parse();
    let args = match cli.tool {
        Some(Tool::Tune(t)) => return tune::main(t),
        Some(Tool::Calibrate(c)) => return calibrate::main(c),
        None => Arc::new(cli.run.into_args()),
    };
    let started = Instant::now();
    let r = run_games(&args, true);
    report(&args, &r, started.elapsed().as_secs_f64());
}

/// Plays `args.games` games on `args.threads` threads (fewer if the time
/// limit comes first), in order of their index; with `progress`, a running
/// tally goes to standard error.
fn run_games(args: &Arc<Args>, progress: bool) -> Vec<Played> {
    let next = Arc::new(AtomicUsize::new(0));
    let results: Arc<Mutex<Vec<(usize, Played)>>> = Arc::new(Mutex::new(Vec::new()));
    let started = Instant::now();
    let label = format!("{} vs {} ({:?})", args.a, args.b, args.mode);
    let bar = Arc::new(Progress::new(
        &label,
        args.games as u64,
        "games",
        !progress || args.json,
    ));
    // The tally from the first line on (+0 =0 -0), not only after the first game.
    bar.score(0, 0, 0);
    let handles: Vec<_> = (0..args.threads.max(1))
        .map(|_| {
            let (args, next, results, bar) =
                (args.clone(), next.clone(), results.clone(), bar.clone());
            std::thread::spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let late = args
                        .time_limit
                        .is_some_and(|t| started.elapsed().as_secs_f64() > t);
                    if i >= args.games || late {
                        break;
                    }
                    let o = play_one(&args, i);
                    let mut r = results.lock().expect("no poisoned lock");
                    r.push((i, o));
                    if bar.is_shown() {
                        let (w, d, l) = wdl(r.iter().map(|x| &x.1));
                        bar.inc(1);
                        bar.score(w as u64, d as u64, l as u64);
                    }
                }
            })
        })
        .collect();
    for h in handles {
        h.join().expect("worker finished");
    }
    bar.finish();
    let mut r = std::mem::take(&mut *results.lock().expect("no poisoned lock"));
    r.sort_by_key(|x| x.0);
    r.into_iter().map(|x| x.1).collect()
}

fn wdl<'a>(r: impl IntoIterator<Item = &'a Played>) -> (usize, usize, usize) {
    r.into_iter().fold((0, 0, 0), |(w, d, l), o| match o.score {
        1.0 => (w + 1, d, l),
        0.5 => (w, d + 1, l),
        _ => (w, d, l + 1),
    })
}

fn mean(v: &[f64]) -> f64 {
    if v.is_empty() {
        0.0
    } else {
        v.iter().sum::<f64>() / v.len() as f64
    }
}

fn report(args: &Args, r: &[Played], secs: f64) {
    let n = r.len().max(1) as f64;
    let (w, d, l) = wdl(r);
    let score = r.iter().map(|o| o.score).sum::<f64>() / n;
    let var = r.iter().map(|o| (o.score - score).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let half = 1.96 * (var / n).sqrt();
    let (lo, hi) = ((score - half).max(0.0), (score + half).min(1.0));
    let a_ms: Vec<f64> = r.iter().flat_map(|o| o.a_ms.iter().copied()).collect();
    let a_cpu: Vec<f64> = r.iter().flat_map(|o| o.a_cpu_ms.iter().copied()).collect();
    let b_ms: Vec<f64> = r.iter().flat_map(|o| o.b_ms.iter().copied()).collect();
    let max = |v: &[f64]| v.iter().copied().fold(0.0, f64::max);
    let plies: Vec<f64> = r.iter().map(|o| o.plies as f64).collect();
    let illegal: u32 = r.iter().map(|o| o.illegal).sum();
    let sum2 = |f: fn(&Played) -> [u32; 2]| {
        r.iter()
            .map(f)
            .fold([0, 0], |t, x| [t[0] + x[0], t[1] + x[1]])
    };
    let (resigns, offers) = (sum2(|o| o.resigns), sum2(|o| o.offers));
    let mut reasons: Vec<(String, usize)> = Vec::new();
    for o in r {
        match reasons.iter_mut().find(|x| x.0 == o.reason) {
            Some(x) => x.1 += 1,
            None => reasons.push((o.reason.clone(), 1)),
        }
    }
    reasons.sort();
    let mode = if args.partners_open {
        "shuangming".to_string()
    } else if args.four_board {
        format!("{:?}, four-player board", args.mode).to_lowercase()
    } else {
        format!("{:?}", args.mode).to_lowercase()
    };
    let first = wdl(r.iter().filter(|o| o.a_first));
    let second = wdl(r.iter().filter(|o| !o.a_first));
    // How A won, and how many games the quiet-move rule drew.
    let quiet = r.iter().filter(|o| o.quiet).count();
    let mut a_wins_by: Vec<(String, usize)> = Vec::new();
    for o in r.iter().filter(|o| o.score == 1.0) {
        match a_wins_by.iter_mut().find(|x| x.0 == o.reason) {
            Some(x) => x.1 += 1,
            None => a_wins_by.push((o.reason.clone(), 1)),
        }
    }
    a_wins_by.sort();
    let by_flag = a_wins_by.iter().find(|x| x.0 == "flag").map_or(0, |x| x.1);
    let flag_share = by_flag as f64 / (w.max(1)) as f64;
    let an: Vec<f64> = r.iter().flat_map(|o| o.a_nodes.iter().copied()).collect();
    let ad: Vec<f64> = r.iter().flat_map(|o| o.a_depth.iter().copied()).collect();
    if args.json {
        let reasons_json: Vec<String> = reasons
            .iter()
            .map(|(k, v)| format!("\"{k}\":{v}"))
            .collect();
        println!(
            "{{\"a\":\"{}\",\"b\":\"{}\",\"players\":{},\"mode\":\"{mode}\",\"seed\":{},\"games\":{},\"wins\":{w},\"draws\":{d},\"losses\":{l},\"score\":{score:.4},\"ci95\":[{lo:.4},{hi:.4}],\"mean_ms\":{:.2},\"max_ms\":{:.1},\"b_mean_ms\":{:.2},\"b_max_ms\":{:.1},\"mean_plies\":{:.1},\"min_plies\":{},\"max_plies\":{},\"illegal\":{illegal},\"resigns\":[{},{}],\"draw_offers\":[{},{}],\"ends\":{{{}}},\"a_first\":[{},{},{}],\"a_second\":[{},{},{}],\"mean_nodes\":{:.0},\"mean_depth\":{:.2},\"seconds\":{secs:.0},\"quiet_draws\":{quiet},\"quiet_draw_rate\":{:.4},\"a_wins_by\":{{{}}},\"flag_share\":{flag_share:.4},\"a_cpu_mean_ms\":{:.1},\"a_cpu_max_ms\":{:.0}}}",
            args.a,
            args.b,
            args.players,
            args.seed,
            r.len(),
            mean(&a_ms),
            max(&a_ms),
            mean(&b_ms),
            max(&b_ms),
            mean(&plies),
            r.iter().map(|o| o.plies).min().unwrap_or(0),
            r.iter().map(|o| o.plies).max().unwrap_or(0),
            resigns[0],
            resigns[1],
            offers[0],
            offers[1],
            reasons_json.join(","),
            first.0,
            first.1,
            first.2,
            second.0,
            second.1,
            second.2,
            mean(&an),
            mean(&ad),
            quiet as f64 / n,
            a_wins_by
                .iter()
                .map(|(k, v)| format!("\"{k}\":{v}"))
                .collect::<Vec<_>>()
                .join(","),
            mean(&a_cpu),
            max(&a_cpu),
        );
    } else {
        println!(
            "{} (A) vs {} (B), {} players, {mode}, {} games, seed {}",
            args.a,
            args.b,
            args.players,
            r.len(),
            args.seed
        );
        println!("A: {w} wins, {d} draws, {l} losses");
        println!(
            "A moving first: +{} ={} -{};  A moving second: +{} ={} -{}",
            first.0, first.1, first.2, second.0, second.1, second.2
        );
        println!("score of A: {score:.3}  (95% CI {lo:.3} … {hi:.3})");
        println!(
            "think time A: mean {:.1} ms, max {:.1} ms;  B: mean {:.1} ms, max {:.1} ms",
            mean(&a_ms),
            max(&a_ms),
            mean(&b_ms),
            max(&b_ms)
        );
        println!(
            "processor time A: mean {:.1} ms, max {:.0} ms",
            mean(&a_cpu),
            max(&a_cpu)
        );
        println!(
            "game length: mean {:.1} plies, min {}, max {}",
            mean(&plies),
            r.iter().map(|o| o.plies).min().unwrap_or(0),
            r.iter().map(|o| o.plies).max().unwrap_or(0)
        );
        let ends: Vec<String> = reasons.iter().map(|(k, v)| format!("{k} {v}")).collect();
        println!("endings: {}", ends.join(", "));
        let by: Vec<String> = a_wins_by.iter().map(|(k, v)| format!("{k} {v}")).collect();
        println!(
            "drawn by the quiet-move rule: {quiet} ({:.1}%);  A's wins: {} (by the flag {:.1}%)",
            100.0 * quiet as f64 / n,
            by.join(", "),
            100.0 * flag_share
        );
        println!("illegal moves: {illegal}");
        println!(
            "resignations: A {}, B {};  draw offers: A {}, B {}",
            resigns[0], resigns[1], offers[0], offers[1]
        );
        println!(
            "A search: mean {:.0} nodes, max {:.0}, mean depth {:.2}",
            mean(&an),
            max(&an),
            mean(&ad)
        );
        println!("wall time: {secs:.0} s");
    }
}
