//! `junqi-cli`: check layouts, list moves, count perft, play random games,
//! benchmark the engine and ask the computer about a recorded game from the
//! command line.

use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};
use junqi_game::ai::{Ai, Level};
use junqi_game::notation::{format_move, record_movetext};
use junqi_game::progress::Progress;
use junqi_game::{
    Action, Game, GameResult, Layout, Mode, Move, MoveList, MoveSets, Position, Rules, Side, perft,
    perft_divide, position_from_json,
};
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Prints a line to standard output; a closed pipe (`junqi-cli moves … | head`)
/// is not an error worth a panic, so write errors are ignored.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

/// Check layouts, list moves, count perft, play random games, benchmark the engine and ask
/// the computer about a recorded game.
#[derive(Parser)]
#[command(
    name = "junqi-cli",
    arg_required_else_help = true,
    // A flag given twice takes its last value, as the hand-written parser did.
    args_override_self = true,
    after_help = "Exit status: 0 success, 1 invalid layout, 2 bad input or usage."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check a layout; prints every broken rule; exit 1 if invalid
    Validate {
        /// Six-line text, or JSON: {"rows": ...} or a layouts file {"layouts": [...]}
        layout_file: PathBuf,
        /// Bombs may stand in the front row (the flying-bombs rule)
        #[arg(long)]
        flying_bombs: bool,
    },
    /// The legal moves of the side to move, one per line
    Moves {
        /// A position file (JSON)
        position_json: PathBuf,
    },
    /// The number of leaf positions DEPTH plies deep
    Perft {
        /// A position file (JSON)
        position_json: PathBuf,
        /// Plies, 0 to 64
        #[arg(value_parser = clap::value_parser!(u32).range(0..=64))]
        depth: u32,
        /// One line per first move, then the total
        #[arg(long)]
        divide: bool,
    },
    /// N games of uniformly random legal moves; prints a results summary
    Selfplay(SelfplayArgs),
    /// Random games per second and move generation time, on one core
    Bench(BenchArgs),
    /// How the computer scores every move of the side to move in a recorded game
    ///
    /// Replays a game record's first N actions (all by default) and prints how the
    /// computer scores every move of the side to move, from that side's view only: the
    /// candidates searched deepest first, best first, then the moves screened out at one
    /// ply.
    Analyse(AnalyseArgs),
}

/// Who plays where: two players (the default) or four, and on which board.
#[derive(Args)]
struct Table {
    /// 4: four-player games (四国大战, dark or open) with the four-player default rules
    #[arg(long, value_enum, default_value_t = Players::Two)]
    players: Players,
    /// four-player: two players on the four-player board
    #[arg(long, value_enum, default_value_t = Board::Classic)]
    board: Board,
}

#[derive(Args)]
struct SelfplayArgs {
    /// The number of games
    #[arg(long, value_name = "N")]
    games: u64,
    /// The random seed: the same seed gives the same games
    #[arg(long, value_name = "S")]
    seed: u64,
    /// The game mode
    #[arg(long, value_enum, default_value_t = ModeArg::Dark)]
    mode: ModeArg,
    #[command(flatten)]
    table: Table,
    /// Also print each game's movetext
    #[arg(long)]
    records: bool,
}

#[derive(Args)]
struct BenchArgs {
    /// Print one JSON line
    #[arg(long)]
    json: bool,
    /// Seconds of random games (the other figures take half or a quarter of it), more than 0
    /// and less than 3600
    #[arg(long, value_name = "S", default_value_t = 2.0, value_parser = seconds)]
    seconds: f64,
    /// Play exactly N fast random games and stop (fixed work for profilers)
    #[arg(long, value_name = "N")]
    games: Option<u64>,
    #[command(flatten)]
    table: Table,
}

#[derive(Args)]
struct AnalyseArgs {
    /// A game record (JSON), such as the arena writes
    record_json: PathBuf,
    /// Replay the first N actions only
    #[arg(long, value_name = "N")]
    upto: Option<usize>,
    /// novice, skilled, expert or master
    #[arg(long, value_name = "LEVEL", default_value = "master", value_parser = parse_level)]
    level: Level,
    /// The computer's random seed
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
}

/// The game mode of random games.
#[derive(Clone, Copy, ValueEnum)]
enum ModeArg {
    Dark,
    Open,
    Flip,
}

impl From<ModeArg> for Mode {
    fn from(m: ModeArg) -> Mode {
        match m {
            ModeArg::Dark => Mode::Dark,
            ModeArg::Open => Mode::Open,
            ModeArg::Flip => Mode::Flip,
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

/// Why a `--seconds` value was refused.
#[derive(Debug, thiserror::Error)]
enum SecondsError {
    #[error("not a number")]
    NotANumber,
    #[error("must be between 0 and 3600")]
    OutOfRange,
}

fn seconds(s: &str) -> Result<f64, SecondsError> {
    let v: f64 = s.parse().map_err(|_| SecondsError::NotANumber)?;
    if v > 0.0 && v < 3600.0 {
        Ok(v)
    } else {
        Err(SecondsError::OutOfRange)
    }
}

/// A level by its English or Chinese name (`Level`'s own parser and message).
fn parse_level(s: &str) -> Result<Level, junqi_game::ai::UnknownPlayer> {
    s.parse()
}

/// Why a command failed (exit status 2).
enum Failure {
    /// Arguments that do not go together: clap's message with the usage.
    Usage(clap::Error),
    /// An unreadable or broken input file or value.
    Input(String),
}

fn input(message: impl Into<String>) -> Failure {
    Failure::Input(message.into())
}

/// Arguments of subcommand `name` that do not go together.
fn conflict(name: &str, message: &str) -> Failure {
    let mut cli = Cli::command();
    cli.build();
    let sub = cli
        .find_subcommand_mut(name)
        .expect("a subcommand of junqi-cli");
    Failure::Usage(sub.error(clap::error::ErrorKind::ArgumentConflict, message))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let done = match cli.command {
        Command::Validate {
            layout_file,
            flying_bombs,
        } => validate(&layout_file, flying_bombs),
        Command::Moves { position_json } => moves(&position_json),
        Command::Perft {
            position_json,
            depth,
            divide,
        } => perft_command(&position_json, depth, divide),
        Command::Selfplay(a) => selfplay(&a),
        Command::Bench(a) => bench(&a),
        Command::Analyse(a) => analyse(&a),
    };
    match done {
        Ok(code) => ExitCode::from(code),
        Err(Failure::Usage(e)) => {
            let _ = e.print();
            ExitCode::from(2)
        }
        Err(Failure::Input(message)) => {
            use std::io::Write as _;
            let _ = writeln!(std::io::stderr(), "junqi-cli: {message}");
            ExitCode::from(2)
        }
    }
}

fn read(path: &Path) -> Result<String, Failure> {
    std::fs::read_to_string(path).map_err(|e| input(format!("cannot read {}: {e}", path.display())))
}

fn validate(file: &Path, flying_bombs: bool) -> Result<u8, Failure> {
    let text = read(file)?;
    let path = file.display().to_string();
    let rules = Rules {
        flying_bombs,
        ..Rules::default()
    };
    let layouts = read_layouts(&text).map_err(|e| input(format!("{path}: {e}")))?;
    let (mut bad, mut unreadable) = (0, 0);
    for (name, layout) in &layouts {
        let label = if name.is_empty() {
            path.clone()
        } else {
            format!("{path}: layout {name}")
        };
        let layout = match layout {
            Ok(l) => l,
            Err(e) if layouts.len() == 1 => return Err(input(format!("{label}: {e}"))),
            Err(e) => {
                unreadable += 1;
                say!("{label}: unreadable: {e}");
                continue;
            }
        };
        match layout.validate(&rules) {
            Ok(_) => say!("{label}: valid"),
            Err(errors) => {
                bad += 1;
                say!("{label}: invalid, {} problem(s):", errors.0.len());
                for p in &errors.0 {
                    say!("  {p}");
                }
            }
        }
    }
    if layouts.len() > 1 {
        say!(
            "{} layout(s), {bad} invalid, {unreadable} unreadable",
            layouts.len()
        );
    }
    Ok(if unreadable > 0 {
        2
    } else if bad > 0 {
        1
    } else {
        0
    })
}

/// A layout read from a file, or why it could not be read.
type ReadLayout = (String, Result<Layout, String>);

/// Reads a text layout, a JSON layout (`{"rows": …}`) or a JSON layouts file.
fn read_layouts(text: &str) -> Result<Vec<ReadLayout>, String> {
    let trimmed = text.trim_start();
    if !trimmed.starts_with('{') {
        let layout: Result<Layout, String> = text.parse().map_err(|e| format!("{e}"));
        return Ok(vec![(String::new(), layout)]);
    }
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("not valid JSON: {e}"))?;
    if let Some(list) = value.get("layouts") {
        let list = list
            .as_array()
            .ok_or("\"layouts\" must be an array of layouts")?;
        Ok(list
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let name = v
                    .get("id")
                    .or_else(|| v.get("name"))
                    .and_then(|n| n.as_str())
                    .map_or_else(|| format!("#{}", i + 1), str::to_string);
                let layout =
                    serde_json::from_value::<Layout>(strip_names(v)).map_err(|e| e.to_string());
                (name, layout)
            })
            .collect())
    } else {
        let layout = serde_json::from_value::<Layout>(strip_names(&value))
            .map_err(|e| format!("not a layout (expected {{\"rows\": [6 rows of 5]}}): {e}"));
        Ok(vec![(String::new(), layout)])
    }
}

/// A layout object without its `id`/`name` fields.
fn strip_names(v: &serde_json::Value) -> serde_json::Value {
    let mut v = v.clone();
    if let Some(o) = v.as_object_mut() {
        o.remove("id");
        o.remove("name");
    }
    v
}

fn load_position(path: &Path) -> Result<Position, Failure> {
    let text = read(path)?;
    position_from_json(&text).map_err(|e| input(format!("{}: {e}", path.display())))
}

fn moves(path: &Path) -> Result<u8, Failure> {
    let pos = load_position(path)?;
    for &m in &pos.legal_moves() {
        say!("{}", format_move(&pos, m));
    }
    Ok(0)
}

/// The computer's view of a recorded game's position: what it weighs for
/// the side to move, from that side's `PlayerView` (never the record's truth).
fn analyse(a: &AnalyseArgs) -> Result<u8, Failure> {
    let path = a.record_json.display();
    let record: junqi_game::Record = serde_json::from_str(&read(&a.record_json)?)
        .map_err(|e| input(format!("{path}: not a game record: {e}")))?;
    let upto = a.upto;
    if let Some(n) = upto.filter(|&n| n > record.actions.len()) {
        return Err(input(format!(
            "--upto {n}: the record has {} actions",
            record.actions.len()
        )));
    }
    let (level, seed) = (a.level, a.seed);
    let game =
        Game::replay(&record, upto).map_err(|e| input(format!("{path}: does not replay: {e}")))?;
    if let Some(result) = game.result() {
        return Err(input(format!("the game is over at that point: {result:?}")));
    }
    let side = game.turn();
    let view = game.view(side);
    let mut ai = Ai::new(level, seed);
    let analysis = ai.analyse(&view, &|| false);
    say!(
        "ply {}, {side} to move, {} plies since the last attack; {level}:",
        view.ply(),
        view.quiet_plies()
    );
    for s in &analysis.moves {
        say!("{} {:.0}", format_move(game.position(), s.mv), s.score);
    }
    say!(
        "depth {}, samples {}, nodes {}",
        analysis.depth,
        analysis.samples,
        analysis.nodes
    );
    Ok(0)
}

fn perft_command(path: &Path, depth: u32, divide: bool) -> Result<u8, Failure> {
    let pos = load_position(path)?;
    if divide {
        let mut total = 0;
        for (m, n) in perft_divide(&pos, depth) {
            say!("{} {n}", format_move(&pos, m));
            total += n;
        }
        say!("total {total}");
    } else {
        say!("{}", perft(&pos, depth));
    }
    Ok(0)
}

impl Players {
    fn count(self) -> u8 {
        match self {
            Players::Two => 2,
            Players::Four => 4,
        }
    }
}

/// The default rules for a mode and a number of players; `--board
/// four-player` seats two players on the four-player board.
fn rules_for(command: &str, table: &Table, mode: Mode) -> Result<Rules, Failure> {
    match (table.players, mode) {
        (Players::Four, Mode::Flip) => Err(conflict(
            command,
            "--mode flip: flip games are two-player only",
        )),
        (Players::Four, _) => Ok(Rules::four_player(mode)),
        _ => Ok(Rules {
            four_player_board: table.board == Board::FourPlayer,
            ..Rules::for_mode(mode)
        }),
    }
}

/// A new game with random layouts (or a random shuffle in flip games), for
/// two or four players.
fn new_game(rules: Rules, players: u8, rng: &mut Pcg64Mcg) -> Game {
    if players == 4 {
        let layouts = std::array::from_fn(|_| Layout::random(&rules, rng));
        return Game::new_four(rules, layouts, Side::South).expect("random layouts are legal");
    }
    if rules.mode == Mode::Flip {
        Game::new_flip_shuffled(rules, Side::South, rng)
    } else {
        let south = Layout::random(&rules, rng);
        let north = Layout::random(&rules, rng);
        Game::new(rules, south, north, Side::South).expect("random layouts are legal")
    }
}

fn selfplay(a: &SelfplayArgs) -> Result<u8, Failure> {
    let (games, seed) = (a.games, a.seed);
    let mode = Mode::from(a.mode);
    let players = a.table.players.count();
    let rules = rules_for("selfplay", &a.table, mode)?;
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut tally: BTreeMap<String, u64> = BTreeMap::new();
    let mut outs: BTreeMap<String, u64> = BTreeMap::new();
    let (mut south, mut north, mut draws, mut plies) = (0u64, 0u64, 0u64, 0u64);
    for _ in 0..games {
        let mut game = new_game(rules, players, &mut rng);
        while game.result().is_none() {
            let side = game.turn();
            let moves = game.position().legal_moves();
            let m = *moves
                .choose(&mut rng)
                .expect("a game in progress has moves");
            game.apply(side, Action::Move(m))
                .expect("generated moves are legal");
        }
        plies += game.position().ply() as u64;
        for s in Side::FOUR {
            if let Some(reason) = game.position().out_reason(s) {
                *outs.entry(format!("{reason:?}")).or_default() += 1;
            }
        }
        let result = game.result().expect("finished");
        match result {
            GameResult::Win { winner, reason } => {
                // Four players: the counters stand for South's and East's teams.
                let south_wins = if players == 4 {
                    winner.team() == Side::South.team()
                } else {
                    winner == Side::South
                };
                if south_wins {
                    south += 1;
                } else {
                    north += 1;
                }
                *tally.entry(format!("{reason:?}")).or_default() += 1;
            }
            GameResult::Draw { reason } => {
                draws += 1;
                *tally.entry(format!("draw {reason:?}")).or_default() += 1;
            }
        }
        if a.records {
            let text = record_movetext(game.record()).expect("the record replays");
            say!("{text} {{{result}}}");
        }
    }
    let mode_name = format!("{mode:?}").to_lowercase();
    if players == 4 {
        say!("games: {games} ({mode_name}, four players, seed {seed})");
        say!("south+north wins: {south}");
        say!("east+west wins: {north}");
    } else if rules.four_player_board {
        say!("games: {games} ({mode_name}, four-player board, seed {seed})");
        say!("south wins: {south}");
        say!("north wins: {north}");
    } else {
        say!("games: {games} ({mode_name}, seed {seed})");
        say!("south wins: {south}");
        say!("north wins: {north}");
    }
    say!("draws: {draws}");
    for (reason, n) in &tally {
        say!("  {reason}: {n}");
    }
    if players == 4 {
        say!("players out by reason:");
        for (reason, n) in &outs {
            say!("  {reason}: {n}");
        }
    }
    if games > 0 {
        say!("average plies: {:.1}", plies as f64 / games as f64);
    }
    Ok(0)
}

/// Plays one complete random game on the `Position` level (no events, no
/// record); returns the number of plies. The game ends as [`Game`] ends it
/// by the board: flag taken, no legal move, quiet-move draw, and (flip)
/// no movable piece.
fn fast_random_game(rules: &Rules, players: u8, rng: &mut Pcg64Mcg, moves: &mut MoveSets) -> u32 {
    let mut pos = start_position(rules, players, rng);
    let mut plies = 0;
    loop {
        if players == 4 {
            // Players out, a team gone, nothing movable, the quiet-move draw.
            if pos.result().is_some() {
                return plies;
            }
        } else {
            if pos.flag_captured().is_some() || rules.is_quiet_draw(pos.quiet_plies()) {
                return plies;
            }
            if rules.mode == Mode::Flip && pos.colours_fixed() && pos.result().is_some() {
                return plies;
            }
        }
        // The moves as per-piece target sets: counting them and picking the
        // k-th is all a uniform random choice needs (no list of moves).
        pos.legal_move_sets_into(moves);
        if moves.is_empty() {
            return plies;
        }
        let m = moves
            .get(rng.random_range(0..moves.len()))
            .expect("k < len");
        pos.play_unchecked(m);
        plies += 1;
    }
}

/// A start position from random layouts (a random shuffle in flip games),
/// for two or four players.
fn start_position(rules: &Rules, players: u8, rng: &mut Pcg64Mcg) -> Position {
    if players == 4 {
        let armies: Vec<_> = (0..4)
            .map(|_| Layout::random(rules, rng).validate(rules).expect("legal"))
            .collect();
        return Position::new_four(
            *rules,
            [&armies[0], &armies[1], &armies[2], &armies[3]],
            Side::South,
        );
    }
    if rules.mode == Mode::Flip {
        let mut arrangement: [u8; 50] = std::array::from_fn(|i| i as u8);
        rand::seq::SliceRandom::shuffle(&mut arrangement[..], rng);
        Position::new_flip(*rules, &arrangement, Side::South).expect("a permutation")
    } else {
        let south = Layout::random(rules, rng).validate(rules).expect("legal");
        let north = Layout::random(rules, rng).validate(rules).expect("legal");
        Position::new(*rules, &south, &north, Side::South)
    }
}

fn bench(a: &BenchArgs) -> Result<u8, Failure> {
    let players = a.table.players.count();
    let budget = Duration::from_secs_f64(a.seconds);
    let rules = rules_for("bench", &a.table, Mode::Dark)?;
    let mut rng = Pcg64Mcg::seed_from_u64(2024);
    if let Some(n) = a.games {
        // Fixed work for profilers (callgrind): N fast games, nothing else.
        let mut moves = MoveSets::new();
        let plies: u64 = (0..n)
            .map(|_| fast_random_game(&rules, players, &mut rng, &mut moves) as u64)
            .sum();
        say!("{n} games, {plies} plies");
        return Ok(0);
    }

    // The rounds below take about 2.25 budgets; the line moves with the clock, from a
    // thread of its own, and is silent with --json or off a terminal.
    let progress = Progress::timed("bench", budget.mul_f64(2.25), a.json);
    progress.note("random games (Position)");

    // 1. Complete random games on the Position level.
    let (mut games, mut plies) = (0u64, 0u64);
    let mut sets = MoveSets::new();
    let clock = Clock::start();
    // At least one round, even if the thread was not scheduled for a while.
    loop {
        for _ in 0..64 {
            plies += fast_random_game(&rules, players, &mut rng, &mut sets) as u64;
            games += 1;
        }
        if clock.wall() >= budget {
            break;
        }
    }
    let fast = clock.stop();

    // 2. Complete random games through `Game` (events, record, result checks).
    progress.note("random games (Game API)");
    let mut game_games = 0u64;
    let clock = Clock::start();
    // At least one round, even if the thread was not scheduled for a while.
    loop {
        let mut game = new_game(rules, players, &mut rng);
        while game.result().is_none() {
            let moves = game.position().legal_moves();
            let m: Move = moves[rng.random_range(0..moves.len())];
            game.apply(game.turn(), Action::Move(m)).expect("legal");
        }
        game_games += 1;
        if clock.wall() >= budget / 2 {
            break;
        }
    }
    let game_api = clock.stop();

    // 3. Move generation over positions sampled from random games (every
    //    8th position, 4,000 in all: they stay in the caches).
    progress.note("move generation");
    let mut sample = Vec::new();
    let mut rng = Pcg64Mcg::seed_from_u64(7);
    while sample.len() < 4_000 {
        let mut pos = start_position(&rules, players, &mut rng);
        loop {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.result().is_some() {
                break;
            }
            if pos.ply().is_multiple_of(8) {
                sample.push(pos.clone());
            }
            pos.play_unchecked(moves[rng.random_range(0..moves.len())]);
        }
    }
    let mut moves = MoveList::new();
    let (mut generated, mut total_moves) = (0u64, 0u64);
    let clock = Clock::start();
    // At least one round, even if the thread was not scheduled for a while.
    loop {
        for pos in &sample {
            pos.legal_moves_into(&mut moves);
            total_moves += std::hint::black_box(&moves).len() as u64;
        }
        generated += sample.len() as u64;
        if clock.wall() >= budget / 2 {
            break;
        }
    }
    let movegen = clock.stop();

    // 4. Cloning 256 of those positions (the AI clones one per search
    //    node, from positions in the caches).
    progress.note("Position clone");
    let mut cloned = 0u64;
    let clock = Clock::start();
    // At least one round, even if the thread was not scheduled for a while.
    loop {
        for pos in &sample[..256] {
            let copy = std::hint::black_box(pos).clone();
            std::hint::black_box(&copy);
        }
        cloned += 256;
        if clock.wall() >= budget / 4 {
            break;
        }
    }
    let clone = clock.stop();
    progress.finish();

    let per_sec = |n: u64, t: f64| (n as f64 / t).round();
    let plies_per_game = plies as f64 / games as f64;
    let ns = |t: f64| (t * 1e10 / generated as f64).round() / 10.0;
    let moves_per_position = total_moves as f64 / generated as f64;
    let clone_ns = (clone.best() * 1e10 / cloned as f64).round() / 10.0;
    let clock_name = if fast.cpu.is_some() {
        "thread_cpu"
    } else {
        "wall"
    };
    if a.json {
        say!(
            "{}",
            serde_json::json!({
                "random_games_per_sec": per_sec(games, fast.best()),
                "random_games_per_sec_wall": per_sec(games, fast.wall),
                "avg_plies_per_game": (plies_per_game * 10.0).round() / 10.0,
                "game_api_games_per_sec": per_sec(game_games, game_api.best()),
                "movegen_ns_per_position": ns(movegen.best()),
                "movegen_ns_per_position_wall": ns(movegen.wall),
                "avg_moves_per_position": (moves_per_position * 10.0).round() / 10.0,
                "position_clone_ns": clone_ns,
                "position_bytes": std::mem::size_of::<Position>(),
                "clock": clock_name,
                "mode": "dark",
                "players": players,
                "threads": 1,
            })
        );
    } else {
        say!("times by {clock_name} clock (wall clock in brackets), {players} players");
        say!(
            "random games (Position level): {}/s ({}/s), {plies_per_game:.1} plies each",
            per_sec(games, fast.best()),
            per_sec(games, fast.wall)
        );
        say!(
            "random games (Game with events): {}/s ({}/s)",
            per_sec(game_games, game_api.best()),
            per_sec(game_games, game_api.wall)
        );
        say!(
            "move generation: {} ns/position ({} ns), {moves_per_position:.1} moves/position",
            ns(movegen.best()),
            ns(movegen.wall)
        );
        say!(
            "Position clone: {clone_ns} ns ({} bytes)",
            std::mem::size_of::<Position>()
        );
    }
    Ok(0)
}

/// Wall-clock and (on Linux) this thread's CPU time: on a shared machine the
/// CPU time is what one core delivers; the wall clock also counts waiting.
struct Clock {
    wall: Instant,
    cpu: Option<u64>,
}

/// What a [`Clock`] measured, in seconds.
struct Elapsed {
    wall: f64,
    cpu: Option<f64>,
}

impl Elapsed {
    /// CPU time where available, else wall time.
    fn best(&self) -> f64 {
        self.cpu.unwrap_or(self.wall)
    }
}

impl Clock {
    fn start() -> Clock {
        Clock {
            wall: Instant::now(),
            cpu: thread_cpu_ns(),
        }
    }

    fn wall(&self) -> Duration {
        self.wall.elapsed()
    }

    fn stop(&self) -> Elapsed {
        let wall = self.wall.elapsed().as_secs_f64();
        let cpu = match (self.cpu, thread_cpu_ns()) {
            (Some(a), Some(b)) if b > a => Some((b - a) as f64 / 1e9),
            _ => None,
        };
        Elapsed { wall, cpu }
    }
}

/// Nanoseconds this thread has run on a CPU (Linux `schedstat`).
fn thread_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}
