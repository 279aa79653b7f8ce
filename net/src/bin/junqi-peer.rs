//! A headless peer: hosts or joins one game over QUIC with an AI (or random)
//! player, printing every public event it saw, the pairing code and the
//! audit verdict.
//!
//! `junqi-peer host|join [OPTIONS]`: the pairing prompt, the journal (`--state`), the
//! players and the exit statuses are in `junqi-peer --help` (shown in net/README.md).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use clap::{Args, Parser, Subcommand, ValueEnum};

#[path = "junqi_peer/four.rs"]
mod four;
use junqi_game::ai::{Player, player_by_name};
use junqi_game::{Action, Layout, Mode, PlayerView, Rules};
use junqi_net::discovery::Discovery;
use junqi_net::peer::{Browser, JOURNAL, PeerCmd, PeerEvent, PeerHandle, Role, rewind};

/// A headless peer: hosts or joins one game over QUIC with a computer player, printing every
/// public event it saw, the pairing code and the audit verdict.
///
/// When both hello nonces are in, it prints the pairing code and asks on standard input
/// "Same pairing code on both screens? [y/N]": nothing about the setup is sent before a yes,
/// and a no (or no terminal) leaves the game. With --state DIR every message is kept in the
/// journal DIR/game.bin before it is sent, and a restarted peer with the same --state resumes
/// the game from there.
#[derive(Parser)]
#[command(
    name = "junqi-peer",
    arg_required_else_help = true,
    // A flag given twice takes its last value, as the hand-written parser did.
    args_override_self = true,
    after_help = EXIT_STATUS
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Host a game: listen on a port (advertised by mDNS) and wait for a guest
    #[command(after_help = EXIT_STATUS)]
    Host(HostArgs),
    /// Join a game at --addr, or the first host mDNS finds within 30 s
    #[command(after_help = EXIT_STATUS)]
    Join(JoinArgs),
}

const EXIT_STATUS: &str = "Exit status: 0 a clean audit, 1 an error or bad usage, 2 the audit \
                           names a cheater, 3 the pairing code was not confirmed, 4 restored \
                           from a journal older than the game (stopped before sending; the \
                           journal is kept).";

#[derive(Args)]
struct HostArgs {
    #[command(flatten)]
    hosting: Hosting,
    #[command(flatten)]
    common: Common,
}

/// How a hosted game is offered.
#[derive(Args)]
struct Hosting {
    /// The game mode
    #[arg(long, value_enum, default_value_t = ModeArg::Dark)]
    mode: ModeArg,
    /// The UDP port to listen on; 0 picks a free one (printed as "listening on …")
    #[arg(long, value_name = "N", default_value_t = 0)]
    port: u16,
    /// Do not advertise the game by mDNS
    #[arg(long)]
    no_mdns: bool,
    /// Seconds for one move (the player thinks for half of it) [default: 60, four seats 30]
    #[arg(long, value_name = "N")]
    move_seconds: Option<u16>,
    /// Seats at the table: 2, or 4 for 四国大战 (this process takes South; three
    /// `join --seat` processes take the others; dark or open)
    #[arg(long, value_name = "N", default_value = "2", value_parser = ["2", "4"])]
    seats: String,
    /// Four seats: 双明, partners see each other's pieces from the start of play
    #[arg(long)]
    partners_open: bool,
    /// Two seats on the four-player board (两人四国棋盘: South against North through the
    /// centre; dark and open games)
    #[arg(long)]
    big_board: bool,
}

#[derive(Args)]
struct JoinArgs {
    /// The host's address; without it the host is found by mDNS
    #[arg(long, value_name = "IP:PORT")]
    addr: Option<SocketAddr>,
    /// Take this seat at a four-seat table (the host found by mDNS without --addr)
    #[arg(long, value_enum)]
    seat: Option<SeatArg>,
    /// Four seats: if this player leaves, its partner's device plays the seat on with its
    /// computer player (agreed in the hello, so in the pairing code)
    #[arg(long, requires = "seat")]
    hand_over: bool,
    /// Four seats: leave the table (逃跑) on this seat's turn after this many own moves
    #[arg(long, value_name = "MOVES", requires = "seat")]
    leave_after: Option<u32>,
    #[command(flatten)]
    common: Common,
}

/// What both commands take.
#[derive(Args)]
struct Common {
    /// The player: random, greedy, alphabeta, guard, or an engine level (novice, skilled,
    /// expert, master)
    #[arg(long, value_name = "PLAYER", default_value = "greedy", value_parser = parse_player)]
    ai: String,
    /// The player's random seed
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// The name the other side sees [default: host or guest]
    #[arg(long)]
    name: Option<String>,
    /// Keep the identity and the journal (game.bin) in DIR, and resume from it
    #[arg(long, value_name = "DIR")]
    state: Option<PathBuf>,
    /// Confirm the pairing code without asking (scripts and tests)
    #[arg(long)]
    yes: bool,
}

/// The game mode of a hosted game.
#[derive(Clone, Copy, ValueEnum)]
enum ModeArg {
    Dark,
    Open,
    Flip,
}

/// A guest's seat at a four-seat table (the host is South).
#[derive(Clone, Copy, ValueEnum)]
enum SeatArg {
    East,
    North,
    West,
}

impl From<SeatArg> for junqi_net::four::FourSeat {
    fn from(s: SeatArg) -> Self {
        match s {
            SeatArg::East => Self::East,
            SeatArg::North => Self::North,
            SeatArg::West => Self::West,
        }
    }
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

/// A player name `player_by_name` takes (its own message otherwise).
fn parse_player(s: &str) -> Result<String, junqi_game::ai::UnknownPlayer> {
    player_by_name(s, 0).map(|_| s.to_owned())
}

/// What a run is asked to do, from either command.
struct Plan {
    host: Option<Hosting>,
    addr: Option<SocketAddr>,
    ai: String,
    seed: u64,
    name: String,
    state: Option<PathBuf>,
    yes: bool,
}

impl From<Command> for Plan {
    fn from(c: Command) -> Plan {
        let (host, addr, common, default_name) = match c {
            Command::Host(HostArgs { hosting, common }) => (Some(hosting), None, common, "host"),
            Command::Join(j) => (None, j.addr, j.common, "guest"),
        };
        Plan {
            host,
            addr,
            ai: common.ai,
            seed: common.seed,
            name: common
                .name
                .filter(|n| !n.is_empty())
                .unwrap_or_else(|| default_name.into()),
            state: common.state,
            yes: common.yes,
        }
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            // Help and version go to standard output with status 0; a usage error goes to
            // standard error with status 1, not clap's 2, which means "a cheater" here.
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 1 } else { 0 });
        }
    };
    if let Some(plan) = four_plan(&cli.command) {
        let end = plan
            .map_err(|e| e.to_string())
            .and_then(|p| four::run_four(p).map_err(|e| e.to_string()));
        return match end {
            Ok(four::FourEnd::Clean) => ExitCode::SUCCESS,
            Ok(four::FourEnd::Cheated) => ExitCode::from(2),
            Ok(four::FourEnd::Refused) => ExitCode::from(3),
            Ok(four::FourEnd::Stale) => ExitCode::from(4),
            Ok(four::FourEnd::Other) => ExitCode::from(1),
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(1)
            }
        };
    }
    match run(cli.command.into()) {
        Ok(PeerExit::Clean) => ExitCode::SUCCESS,
        Ok(PeerExit::Cheated) => ExitCode::from(2),
        Ok(PeerExit::Refused) => ExitCode::from(3),
        Ok(PeerExit::Stale) => ExitCode::from(4),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

/// A four-seat run, when the command asks for one (`host --seats 4`, `join --seat`).
fn four_plan(c: &Command) -> Option<Result<four::FourPlan, RunError>> {
    let (seat, rules, port, addr, common, (hand_over, leave_after)) = match c {
        Command::Host(h) if h.hosting.seats == "4" => {
            if matches!(h.hosting.mode, ModeArg::Flip) || h.hosting.big_board {
                return Some(Err(RunError::Unplayable(Unplayable::FourSeats)));
            }
            let rules = Rules {
                partners_open: h.hosting.partners_open,
                move_seconds: h.hosting.move_seconds.unwrap_or(30),
                ..Rules::four_player(h.hosting.mode.into())
            };
            if let Some(problem) = rules.four_player_problem() {
                return Some(Err(RunError::Unplayable(Unplayable::Rules(problem))));
            }
            (
                junqi_net::four::FourSeat::South,
                Some(rules),
                (h.hosting.port, !h.hosting.no_mdns),
                None,
                &h.common,
                (false, None),
            )
        }
        Command::Join(j) => (
            j.seat?.into(),
            None,
            (0, false),
            j.addr,
            &j.common,
            (j.hand_over, j.leave_after),
        ),
        Command::Host(_) => return None,
    };
    Some(
        player_by_name(&common.ai, common.seed)
            .map_err(RunError::Player)
            .map(|player| four::FourPlan {
                seat,
                rules,
                port: port.0,
                mdns: port.1,
                addr,
                player,
                name: common
                    .name
                    .clone()
                    .filter(|n| !n.is_empty())
                    .unwrap_or_else(|| seat.to_string()),
                state: common.state.clone(),
                yes: common.yes,
                hand_over,
                leave_after,
            }),
    )
}

/// Options that do not go together.
#[derive(Debug, thiserror::Error)]
enum Unplayable {
    #[error(
        "four seats play dark (四暗, or 双明 with --partners-open) or open (全明) games, always \
         on the four-player board"
    )]
    FourSeats,
    #[error("{0}")]
    Rules(junqi_game::RulesProblem),
}

/// Why a run failed.
#[derive(Debug, thiserror::Error)]
enum RunError {
    #[error("{0}")]
    Player(junqi_game::ai::UnknownPlayer),
    #[error("{0}")]
    Unplayable(Unplayable),
    #[error("{0}")]
    Peer(#[from] junqi_net::peer::PeerError),
    #[error("no host found")]
    NoHost,
    #[error("nothing heard from the game for {0} s")]
    Silent(u64),
}

/// How a run ended.
enum PeerExit {
    Clean,
    Cheated,
    Refused,
    Stale,
}

/// How long the game may stay silent (a peer gone for good) before the run gives up.
const GIVE_UP: Duration = Duration::from_secs(600);

/// The player's side of the game: its view (the snapshot and the events since), its layout,
/// and what it printed.
struct Peer {
    player: Box<dyn Player>,
    yes: bool,
    layout: Option<Layout>,
    /// The view when play began, and the view now.
    view: Option<(PlayerView, PlayerView)>,
    resumed: bool,
    clean: bool,
    refused: bool,
    /// Restored from a journal older than what the peer holds: stopped.
    stale: bool,
    plies: u32,
}

impl Peer {
    /// Handles one report; `false` when the run is over.
    fn on(&mut self, h: &PeerHandle, answers: &mpsc::Sender<bool>, ev: PeerEvent) -> bool {
        match ev {
            PeerEvent::Listening { port } => println!("listening on 127.0.0.1:{port}"),
            PeerEvent::Connected => println!("connected"),
            PeerEvent::Dropped(e) => eprintln!("connection lost: {e}; waiting to resume"),
            PeerEvent::PairingCode { code, .. } => {
                println!("pairing code: {code}");
                if self.yes {
                    self.ready(h);
                } else {
                    // Ask on a plain thread: stdin blocks, and the game must keep answering the
                    // peer meanwhile.
                    let tx = answers.clone();
                    std::thread::spawn(move || {
                        let _ = tx.send(ask("Same pairing code on both screens? [y/N] "));
                    });
                }
            }
            PeerEvent::RulesOffered { rules, peer } => {
                println!("rules offered by {peer}: {rules:?}");
                let layout = self.player.layout(&rules);
                self.layout = Some(layout);
                h.send(PeerCmd::Accept(layout));
            }
            PeerEvent::PeerReady => println!("the peer is ready"),
            PeerEvent::Started {
                me, view, my_turn, ..
            } => {
                println!("started: I am {me:?}, {:?} to move", view.turn());
                if !self.resumed {
                    for e in view.events() {
                        self.plies += 1;
                        println!("event: {e:?}");
                    }
                }
                self.view = Some(((*view).clone(), *view));
                if my_turn {
                    self.act(h);
                }
            }
            PeerEvent::Game(e) => {
                self.plies += 1;
                println!("event: {e:?}");
                if let Some((_, v)) = &mut self.view
                    && let Err(err) = v.apply(&e)
                {
                    eprintln!("the view cannot take {e:?}: {err}");
                }
            }
            PeerEvent::Voided { kept } => {
                println!("voided: {kept} events stand");
                if let Some((start, v)) = &mut self.view {
                    match rewind(start, v, kept) {
                        Ok(back) => *v = back,
                        Err(err) => eprintln!("cannot rewind the view: {err}"),
                    }
                }
            }
            PeerEvent::Turn(true) => self.act(h),
            PeerEvent::Turn(false) => {}
            PeerEvent::TimeExpired => println!("my move clock ran out"),
            PeerEvent::DrawOffered => h.send(PeerCmd::DeclineDraw),
            PeerEvent::Refused(e) => eprintln!("refused: {e}"),
            PeerEvent::Fault { culprit, reason } => println!("fault: {culprit:?}: {reason}"),
            PeerEvent::Finished(r) => println!("result: {r}"),
            PeerEvent::Kept(_) => {}
            PeerEvent::NotKept(e) => eprintln!("cannot keep the finished game's log: {e}"),
            PeerEvent::Verdict(v) => {
                self.clean = v.is_clean();
                if let Some(r @ junqi_net::FaultKind::StaleJournal { .. }) = &v.reason {
                    // Nothing was sent; the journal is kept as it is.
                    self.stale = true;
                    self.clean = false;
                    println!("stopped, nobody blamed: {r}");
                    return true;
                }
                match v.cheater {
                    None => println!("verdict: clean audit"),
                    Some(c) => println!(
                        "verdict: {c:?} cheated: {} ({})",
                        v.reason
                            .as_ref()
                            .map(ToString::to_string)
                            .unwrap_or_default(),
                        v.evidence.map(|e| e.to_string()).unwrap_or_default()
                    ),
                }
            }
            PeerEvent::Error(e) => eprintln!("error: {e}"),
            PeerEvent::Stopped => return false,
        }
        true
    }

    /// The pairing code is confirmed: commit to the player's layout.
    fn ready(&mut self, h: &PeerHandle) {
        match self.layout {
            Some(l) => h.send(PeerCmd::Ready(l)),
            None => eprintln!("no layout to commit"),
        }
    }

    /// It is this side's turn: the player chooses a move in half the move time.
    fn act(&mut self, h: &PeerHandle) {
        let Some((_, view)) = &self.view else { return };
        let deadline =
            Instant::now() + Duration::from_secs(u64::from(view.rules().move_seconds) / 2);
        let stop = move || Instant::now() >= deadline;
        match self.player.act(view, &stop) {
            Action::Move(m) => h.send(PeerCmd::Play(m)),
            other => eprintln!("player chose {other:?}"),
        }
    }
}

fn run(args: Plan) -> Result<PeerExit, RunError> {
    let mut player: Box<dyn Player> =
        player_by_name(&args.ai, args.seed).map_err(RunError::Player)?;
    let resumed = args
        .state
        .as_ref()
        .is_some_and(|d| d.join(JOURNAL).exists());
    let (role, layout) = if resumed {
        (Role::Resume, None)
    } else if let Some(host) = &args.host {
        let rules = Rules {
            four_player_board: host.big_board,
            move_seconds: host.move_seconds.unwrap_or(60),
            ..Rules::for_mode(host.mode.into())
        };
        if let Some(problem) = rules.two_player_problem() {
            return Err(RunError::Unplayable(Unplayable::Rules(problem)));
        }
        let layout = player.layout(&rules);
        let role = Role::Host {
            rules,
            layout,
            name: args.name.clone(),
            port: host.port,
            mdns: !host.no_mdns,
        };
        (role, Some(layout))
    } else {
        let addr = match args.addr {
            Some(a) => a,
            None => discover(None)?,
        };
        let role = Role::Join {
            addr,
            name: args.name.clone(),
        };
        (role, None)
    };
    let h = PeerHandle::start(role, args.state.clone());
    if resumed && let Some(d) = &args.state {
        println!("resumed from {}", d.join(JOURNAL).display());
    }
    let mut peer = Peer {
        player,
        yes: args.yes,
        layout,
        view: None,
        resumed,
        clean: false,
        refused: false,
        stale: false,
        plies: 0,
    };
    let (answers, answered) = mpsc::channel();
    let mut heard = Instant::now();
    let mut failed = None;
    loop {
        if let Ok(yes) = answered.try_recv() {
            if yes {
                peer.ready(&h);
            } else {
                println!("pairing codes not confirmed: leaving");
                peer.refused = true;
                h.send(PeerCmd::Quit);
            }
        }
        let Some(ev) = h.recv_timeout(Duration::from_millis(50)) else {
            if heard.elapsed() > GIVE_UP {
                return Err(RunError::Silent(GIVE_UP.as_secs()));
            }
            continue;
        };
        heard = Instant::now();
        if let PeerEvent::Error(e) = &ev {
            failed = Some(e.clone());
        }
        if !peer.on(&h, &answers, ev) {
            break;
        }
    }
    println!("events: {}", peer.plies);
    if let Some(e) = failed {
        return Err(e.into());
    }
    Ok(if peer.refused {
        PeerExit::Refused
    } else if peer.stale {
        PeerExit::Stale
    } else if peer.clean {
        PeerExit::Clean
    } else {
        PeerExit::Cheated
    })
}

/// Asks a yes/no question on the terminal; anything but y/yes (or no
/// terminal at all) is a no.
fn ask(question: &str) -> bool {
    use std::io::Write;
    print!("{question}");
    let _ = std::io::stdout().flush();
    let mut line = String::new();
    match std::io::stdin().read_line(&mut line) {
        Ok(n) if n > 0 => matches!(line.trim().to_lowercase().as_str(), "y" | "yes"),
        _ => false,
    }
}

/// The first host mDNS finds within 30 s.
/// `four`: a four-seat table (its advertised rules start with "four ") with
/// this seat free (or no readable seat list) and no computer seat coming
/// with it (`junqi-peer` runs none), else a two-player game.
fn discover(four: Option<junqi_net::four::FourSeat>) -> Result<SocketAddr, RunError> {
    let browser = Browser::start()?;
    let t0 = Instant::now();
    while t0.elapsed() < Duration::from_secs(30) {
        if let Some(Discovery::Found(h)) = browser.recv_timeout(Duration::from_millis(200))
            && h.rules.starts_with(four::TABLE_PREFIX) == four.is_some()
            && four.is_none_or(|s| {
                h.free_seats
                    .is_none_or(|f| f.contains(s) && f.computer_with(s).is_none())
            })
            && let Some(a) = h.addrs.iter().find(|a| a.is_ipv4()).or(h.addrs.first())
        {
            println!(
                "discovered {} at {a} in {} ms",
                h.name,
                t0.elapsed().as_millis()
            );
            return Ok(*a);
        }
    }
    Err(RunError::NoHost)
}
