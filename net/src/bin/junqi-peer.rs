//! A headless peer: hosts or joins one game over QUIC with an AI (or random)
//! player, printing every public event it saw, the pairing code and the
//! audit verdict.
//!
//! ```text
//! junqi-peer host [--mode dark|open|flip] [--port N] [--ai NAME] [--seed N] [--name NAME] [--no-mdns]
//!                  [--move-seconds N] [--state DIR] [--yes]
//! junqi-peer join [--addr IP:PORT] [--ai NAME] [--seed N] [--name NAME] [--state DIR] [--yes]
//! ```
//! When both hello nonces are in, the pairing code is printed and the peer
//! asks on stdin "Same pairing code on both screens? [y/N]": nothing about
//! the setup is sent before a yes, and a no (or no terminal) leaves the game.
//! `--yes` confirms at once (scripts and tests).
//! With `--state DIR` the identity is kept in `DIR` and every message is
//! appended to the journal `DIR/game.bin` before anything is sent; a
//! restarted peer with the same `--state` resumes the game from there (and
//! the other peer waits for it).
//! `--ai` takes `random`, `greedy` or an engine level (`novice`, `skilled`,
//! `expert`, `master`). Without `--addr`, `join` finds a host by mDNS.
//! Exit status: 0 for a clean audit, 2 when the audit names a cheater, 3 when
//! the player did not confirm the pairing code, 4 when it was restored from a
//! journal older than the game (it stops before sending; the journal is kept),
//! 1 on errors.

use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use junqi_game::ai::{Player, player_by_name};
use junqi_game::{Action, Layout, Mode, PlayerView, Rules};
use junqi_net::discovery::Discovery;
use junqi_net::peer::{Browser, JOURNAL, PeerCmd, PeerEvent, PeerHandle, Role, rewind};

struct Args {
    host: bool,
    mode: Mode,
    port: u16,
    addr: Option<SocketAddr>,
    ai: String,
    seed: u64,
    name: String,
    mdns: bool,
    move_seconds: u16,
    state: Option<std::path::PathBuf>,
    yes: bool,
}

fn parse() -> Result<Args, String> {
    let mut it = std::env::args().skip(1);
    let cmd = it.next().ok_or("usage: junqi-peer host|join [options]")?;
    let mut a = Args {
        host: match cmd.as_str() {
            "host" => true,
            "join" => false,
            other => return Err(format!("unknown command {other}")),
        },
        mode: Mode::Dark,
        port: 0,
        addr: None,
        ai: "greedy".into(),
        seed: 1,
        name: String::new(),
        mdns: true,
        move_seconds: 60,
        state: None,
        yes: false,
    };
    while let Some(flag) = it.next() {
        let mut val = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--mode" => {
                a.mode = match val()?.as_str() {
                    "dark" => Mode::Dark,
                    "open" => Mode::Open,
                    "flip" => Mode::Flip,
                    m => return Err(format!("unknown mode {m}")),
                }
            }
            "--port" => a.port = val()?.parse().map_err(|e| format!("--port: {e}"))?,
            "--addr" => a.addr = Some(val()?.parse().map_err(|e| format!("--addr: {e}"))?),
            "--ai" => a.ai = val()?,
            "--seed" => a.seed = val()?.parse().map_err(|e| format!("--seed: {e}"))?,
            "--name" => a.name = val()?,
            "--move-seconds" => {
                a.move_seconds = val()?.parse().map_err(|e| format!("--move-seconds: {e}"))?
            }
            "--no-mdns" => a.mdns = false,
            "--yes" => a.yes = true,
            "--state" => a.state = Some(val()?.into()),
            f => return Err(format!("unknown option {f}")),
        }
    }
    if a.name.is_empty() {
        a.name = if a.host {
            "host".into()
        } else {
            "guest".into()
        };
    }
    Ok(a)
}

fn main() -> ExitCode {
    let args = match parse() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(1);
        }
    };
    match run(args) {
        Ok(Ending::Clean) => ExitCode::SUCCESS,
        Ok(Ending::Cheated) => ExitCode::from(2),
        Ok(Ending::Refused) => ExitCode::from(3),
        Ok(Ending::Stale) => ExitCode::from(4),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

/// Why a run failed.
#[derive(Debug, thiserror::Error)]
enum RunError {
    #[error("{0}")]
    Player(junqi_game::ai::UnknownPlayer),
    #[error("{0}")]
    Peer(#[from] junqi_net::peer::PeerError),
    #[error("no host found")]
    NoHost,
    #[error("nothing heard from the game for {0} s")]
    Silent(u64),
}

/// How a run ended.
enum Ending {
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
                        v.evidence
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

fn run(args: Args) -> Result<Ending, RunError> {
    let mut player: Box<dyn Player> =
        player_by_name(&args.ai, args.seed).map_err(RunError::Player)?;
    let resumed = args
        .state
        .as_ref()
        .is_some_and(|d| d.join(JOURNAL).exists());
    let (role, layout) = if resumed {
        (Role::Resume, None)
    } else if args.host {
        let rules = Rules {
            move_seconds: args.move_seconds,
            ..Rules::for_mode(args.mode)
        };
        let layout = player.layout(&rules);
        let role = Role::Host {
            rules,
            layout,
            name: args.name.clone(),
            port: args.port,
            mdns: args.mdns,
        };
        (role, Some(layout))
    } else {
        let addr = match args.addr {
            Some(a) => a,
            None => discover()?,
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
        Ending::Refused
    } else if peer.stale {
        Ending::Stale
    } else if peer.clean {
        Ending::Clean
    } else {
        Ending::Cheated
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
fn discover() -> Result<SocketAddr, RunError> {
    let browser = Browser::start()?;
    let t0 = Instant::now();
    while t0.elapsed() < Duration::from_secs(30) {
        if let Some(Discovery::Found(h)) = browser.recv_timeout(Duration::from_millis(200))
            && let Some(a) = h.addrs.first()
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
