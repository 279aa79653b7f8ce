//! `junqi-cli`: check layouts, list moves, count perft, play random games,
//! benchmark the engine and ask the computer about a recorded game from the
//! command line.

use junqi_game::ai::{Ai, Level};
use junqi_game::notation::{format_move, record_movetext};
use junqi_game::{
    Action, Game, GameResult, Layout, Mode, Move, MoveList, MoveSets, Position, Rules, Side, perft,
    perft_divide, position_from_json,
};
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::collections::BTreeMap;
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

const USAGE: &str = "\
usage: junqi-cli COMMAND ...

commands:
  validate LAYOUT_FILE [--flying-bombs]
        check a layout (six-line text, or JSON: {\"rows\": ...} or a layouts
        file {\"layouts\": [...]}); prints every broken rule; exit 1 if invalid
  moves POSITION_JSON
        the legal moves of the side to move, one per line
  perft POSITION_JSON DEPTH [--divide]
        the number of leaf positions DEPTH plies deep
  selfplay --games N --seed S [--mode dark|open|flip] [--players 2|4]
           [--board classic|four-player] [--records]
        N games of uniformly random legal moves; prints a results summary
        (and each game's movetext with --records); --players 4: four-player
        games (四国大战, dark or open) with the four-player default rules;
        --board four-player: two players on the four-player board
  bench [--json] [--seconds S] [--games N] [--players 2|4] [--board ...]
        random games per second and move generation time, on one core
        (--games N: play exactly N fast random games and stop, for profilers)
  analyse RECORD_JSON [--upto N] [--level LEVEL] [--seed S]
        replays a game record's first N actions (all by default) and prints
        how the computer (LEVEL: novice, skilled, expert or master, the
        default) scores every move of the side to move, from that side's
        view only: the candidates searched deepest first, best first, then
        the moves screened out at one ply

exit status: 0 success, 1 invalid layout, 2 bad input or usage";

/// A failure with its exit status.
struct Failure {
    code: u8,
    message: String,
}

fn usage(message: impl Into<String>) -> Failure {
    Failure {
        code: 2,
        message: format!("{}\n\n{USAGE}", message.into()),
    }
}

fn input(message: impl Into<String>) -> Failure {
    Failure {
        code: 2,
        message: message.into(),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(code) => ExitCode::from(code),
        Err(f) => {
            use std::io::Write as _;
            let _ = writeln!(std::io::stderr(), "junqi-cli: {}", f.message);
            ExitCode::from(f.code)
        }
    }
}

fn run(args: &[String]) -> Result<u8, Failure> {
    let Some((command, rest)) = args.split_first() else {
        return Err(usage("no command given"));
    };
    match command.as_str() {
        "validate" => validate(rest),
        "moves" => moves(rest),
        "perft" => perft_command(rest),
        "selfplay" => selfplay(rest),
        "bench" => bench(rest),
        "analyse" => analyse(rest),
        "help" | "--help" | "-h" => {
            say!("{USAGE}");
            Ok(0)
        }
        other => Err(usage(format!("unknown command {other:?}"))),
    }
}

/// Splits arguments into positional ones and `--flag [value]` options.
struct Args {
    positional: Vec<String>,
    options: BTreeMap<String, Option<String>>,
}

fn parse_args(
    args: &[String],
    flags: &[&str],
    valued: &[&str],
    positional: usize,
) -> Result<Args, Failure> {
    let mut out = Args {
        positional: Vec::new(),
        options: BTreeMap::new(),
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if let Some(name) = a.strip_prefix("--") {
            if flags.contains(&name) {
                out.options.insert(name.to_string(), None);
            } else if valued.contains(&name) {
                let v = it
                    .next()
                    .ok_or_else(|| usage(format!("--{name} needs a value")))?;
                out.options.insert(name.to_string(), Some(v.clone()));
            } else {
                return Err(usage(format!("unknown option {a:?}")));
            }
        } else {
            out.positional.push(a.clone());
        }
    }
    if out.positional.len() != positional {
        return Err(usage(format!(
            "expected {positional} argument(s), found {}",
            out.positional.len()
        )));
    }
    Ok(out)
}

impl Args {
    fn flag(&self, name: &str) -> bool {
        self.options.contains_key(name)
    }

    fn number<T: std::str::FromStr>(&self, name: &str) -> Result<Option<T>, Failure> {
        match self.options.get(name) {
            Some(Some(v)) => v
                .parse()
                .map(Some)
                .map_err(|_| usage(format!("--{name}: {v:?} is not a valid number"))),
            _ => Ok(None),
        }
    }
}

fn read(path: &str) -> Result<String, Failure> {
    std::fs::read_to_string(path).map_err(|e| input(format!("cannot read {path}: {e}")))
}

fn validate(args: &[String]) -> Result<u8, Failure> {
    let a = parse_args(args, &["flying-bombs"], &[], 1)?;
    let path = &a.positional[0];
    let text = read(path)?;
    let rules = Rules {
        flying_bombs: a.flag("flying-bombs"),
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

fn load_position(path: &str) -> Result<Position, Failure> {
    let text = read(path)?;
    position_from_json(&text).map_err(|e| input(format!("{path}: {e}")))
}

fn moves(args: &[String]) -> Result<u8, Failure> {
    let a = parse_args(args, &[], &[], 1)?;
    let pos = load_position(&a.positional[0])?;
    for &m in &pos.legal_moves() {
        say!("{}", format_move(&pos, m));
    }
    Ok(0)
}

/// The computer's view of a recorded game's position: what it weighs for
/// the side to move, from that side's `PlayerView` (never the record's truth).
fn analyse(args: &[String]) -> Result<u8, Failure> {
    let a = parse_args(args, &[], &["upto", "level", "seed"], 1)?;
    let path = &a.positional[0];
    let record: junqi_game::Record = serde_json::from_str(&read(path)?)
        .map_err(|e| input(format!("{path}: not a game record: {e}")))?;
    let upto = a.number::<usize>("upto")?;
    if let Some(n) = upto.filter(|&n| n > record.actions.len()) {
        return Err(input(format!(
            "--upto {n}: the record has {} actions",
            record.actions.len()
        )));
    }
    let level: Level = match a.options.get("level") {
        Some(Some(v)) => v.parse().map_err(|e: String| usage(e))?,
        _ => Level::Master,
    };
    let seed = a.number::<u64>("seed")?.unwrap_or(1);
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

fn perft_command(args: &[String]) -> Result<u8, Failure> {
    let a = parse_args(args, &["divide"], &[], 2)?;
    let pos = load_position(&a.positional[0])?;
    let depth: u32 = a.positional[1]
        .parse()
        .ok()
        .filter(|&d| d <= 64)
        .ok_or_else(|| usage(format!("DEPTH {:?} is not a number 0…64", a.positional[1])))?;
    if a.flag("divide") {
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

/// `--players 2` (the default) or `--players 4`.
fn parse_players(a: &Args) -> Result<u8, Failure> {
    match a.number::<u8>("players")? {
        None | Some(2) => Ok(2),
        Some(4) => Ok(4),
        Some(n) => Err(usage(format!("--players {n}: expected 2 or 4"))),
    }
}

/// The default rules for a mode and a number of players.
/// The default rules for a mode and a number of players; `--board
/// four-player` seats two players on the four-player board.
fn rules_for(a: &Args, mode: Mode, players: u8) -> Result<Rules, Failure> {
    let four_board = match a.options.get("board") {
        None => false,
        Some(Some(b)) if b == "classic" => false,
        Some(Some(b)) if b == "four-player" => true,
        Some(Some(b)) => {
            return Err(usage(format!(
                "--board {b:?}: expected classic or four-player"
            )));
        }
        Some(None) => return Err(usage("--board needs a value")),
    };
    match (players, mode) {
        (4, Mode::Flip) => Err(usage("--mode flip: flip games are two-player only")),
        (4, _) => Ok(Rules::four_player(mode)),
        _ => Ok(Rules {
            four_player_board: four_board,
            ..Rules::for_mode(mode)
        }),
    }
}

fn parse_mode(a: &Args) -> Result<Mode, Failure> {
    match a.options.get("mode") {
        None => Ok(Mode::Dark),
        Some(Some(m)) => match m.as_str() {
            "dark" => Ok(Mode::Dark),
            "open" => Ok(Mode::Open),
            "flip" => Ok(Mode::Flip),
            other => Err(usage(format!(
                "--mode {other:?}: expected dark, open or flip"
            ))),
        },
        Some(None) => Err(usage("--mode needs a value")),
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

fn selfplay(args: &[String]) -> Result<u8, Failure> {
    let a = parse_args(
        args,
        &["records"],
        &["games", "seed", "mode", "players", "board"],
        0,
    )?;
    let games: u64 = a
        .number("games")?
        .ok_or_else(|| usage("--games N is required"))?;
    let seed: u64 = a
        .number("seed")?
        .ok_or_else(|| usage("--seed S is required"))?;
    let mode = parse_mode(&a)?;
    let players = parse_players(&a)?;
    let rules = rules_for(&a, mode, players)?;
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
        if a.flag("records") {
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
            if pos.flag_captured().is_some() || pos.quiet_plies() >= rules.quiet_draw_plies {
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

fn bench(args: &[String]) -> Result<u8, Failure> {
    let a = parse_args(
        args,
        &["json"],
        &["seconds", "games", "players", "board"],
        0,
    )?;
    let players = parse_players(&a)?;
    let seconds: f64 = a.number("seconds")?.unwrap_or(2.0);
    if !(seconds > 0.0 && seconds < 3600.0) {
        return Err(usage("--seconds must be between 0 and 3600"));
    }
    let budget = Duration::from_secs_f64(seconds);
    let rules = rules_for(&a, Mode::Dark, players)?;
    let mut rng = Pcg64Mcg::seed_from_u64(2024);
    if let Some(n) = a.number::<u64>("games")? {
        // Fixed work for profilers (callgrind): N fast games, nothing else.
        let mut moves = MoveSets::new();
        let plies: u64 = (0..n)
            .map(|_| fast_random_game(&rules, players, &mut rng, &mut moves) as u64)
            .sum();
        say!("{n} games, {plies} plies");
        return Ok(0);
    }

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
    if a.flag("json") {
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
