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

use std::net::{Ipv4Addr, SocketAddr, SocketAddrV4};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use junqi_game::ai::{Player, player_by_name};
use junqi_game::{Action, Mode, Rules};
use junqi_net::Seed;
use junqi_net::discovery::{Advert, Discovery, browse, rules_summary};
use junqi_net::resume::Journal;
use junqi_net::session::{AppEvent, Session};
use junqi_net::transport::{Control, Dial, Ended, Handler, Identity, endpoint, play};

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
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    match rt.block_on(run(args)) {
        Ok(Outcome::Clean) => ExitCode::SUCCESS,
        Ok(Outcome::Cheated) => ExitCode::from(2),
        Ok(Outcome::Refused) => ExitCode::from(3),
        Ok(Outcome::Stale) => ExitCode::from(4),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

/// Commands to the driver from outside its task: the player's answer to the
/// pairing prompt.
enum PeerCmd {
    Confirm,
    Refuse,
}

struct Peer {
    player: Box<dyn Player>,
    /// Confirm the pairing code at once (`--yes`).
    yes: bool,
    /// Where the prompt thread sends the player's answer.
    answers: tokio::sync::mpsc::UnboundedSender<PeerCmd>,
    clean: bool,
    refused: bool,
    /// Restored from a journal older than what the peer holds: stopped.
    stale: bool,
    plies: u32,
}

impl Handler for Peer {
    type Cmd = PeerCmd;

    fn event(&mut self, s: &mut Session, ev: AppEvent) {
        match ev {
            AppEvent::PairingCode { code } => {
                println!("pairing code: {code}");
                if self.yes {
                    if let Err(e) = s.confirm_pairing(Instant::now()) {
                        eprintln!("cannot confirm the pairing: {e}");
                    }
                } else {
                    // Ask on a plain thread: stdin blocks, and the session
                    // must keep answering the peer meanwhile.
                    let tx = self.answers.clone();
                    std::thread::spawn(move || {
                        let yes = ask("Same pairing code on both screens? [y/N] ");
                        let _ = tx.send(if yes {
                            PeerCmd::Confirm
                        } else {
                            PeerCmd::Refuse
                        });
                    });
                }
            }
            AppEvent::RulesOffered { rules, peer_name } => {
                println!("rules offered by {peer_name}: {rules:?}");
                let layout = self.player.layout(&rules);
                if let Err(e) = s.accept(Instant::now(), layout) {
                    eprintln!("cannot accept: {e}");
                }
            }
            AppEvent::Started { me, first, .. } => {
                println!("started: I am {me:?}, {first:?} moves first");
            }
            AppEvent::Game(e) => {
                self.plies += 1;
                println!("event: {e:?}");
            }
            AppEvent::YourTurn => {
                let Some(view) = s.view().cloned() else {
                    return;
                };
                let deadline =
                    Instant::now() + Duration::from_secs(u64::from(view.rules().move_seconds) / 2);
                let stop = move || Instant::now() >= deadline;
                match self.player.act(&view, &stop) {
                    Action::Move(m) => {
                        if let Err(e) = s.play(Instant::now(), m) {
                            eprintln!("move refused: {e}");
                        }
                    }
                    other => eprintln!("player chose {other:?}"),
                }
            }
            AppEvent::TimeExpired => println!("my move clock ran out"),
            AppEvent::DrawOffered => {
                let _ = s.decline_draw(Instant::now());
            }
            AppEvent::Fault { culprit, reason } => println!("fault: {culprit:?}: {reason}"),
            AppEvent::Finished(r) => println!("result: {r}"),
            AppEvent::Verdict(v) => {
                self.clean = v.is_clean();
                if let Some(r @ junqi_net::FaultKind::StaleJournal { .. }) = &v.reason {
                    // Nothing was sent; the journal is kept as it is.
                    self.stale = true;
                    self.clean = false;
                    println!("stopped, nobody blamed: {r}");
                    return;
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
        }
    }

    fn command(&mut self, s: &mut Session, cmd: PeerCmd) -> Control {
        match cmd {
            PeerCmd::Confirm => {
                if let Err(e) = s.confirm_pairing(Instant::now()) {
                    eprintln!("cannot confirm the pairing: {e}");
                }
                Control::Continue
            }
            PeerCmd::Refuse => {
                println!("pairing codes not confirmed: leaving");
                self.refused = true;
                Control::Quit
            }
        }
    }

    fn connected(&mut self, s: &Session) {
        match s.pairing() {
            Some(code) => println!("connected; pairing code: {code}"),
            None => println!("connected"),
        }
    }

    fn dropped(&mut self, _s: &Session, e: &std::io::Error) {
        eprintln!("connection lost: {e}; waiting to resume");
    }
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

/// How a run ended.
enum Outcome {
    Clean,
    Cheated,
    Refused,
    Stale,
}

async fn run(args: Args) -> std::io::Result<Outcome> {
    let identity = match &args.state {
        Some(dir) => Identity::load_or_create(dir)?,
        None => Identity::generate()?,
    };
    let save = args.state.as_ref().map(|d| d.join("game.bin"));
    let bind = if args.host {
        let ip = if args.mdns {
            Ipv4Addr::UNSPECIFIED
        } else {
            Ipv4Addr::LOCALHOST
        };
        SocketAddr::V4(SocketAddrV4::new(ip, args.port))
    } else {
        SocketAddr::V4(SocketAddrV4::new(Ipv4Addr::UNSPECIFIED, 0))
    };
    let ep = endpoint(&identity, bind)?;
    let mut player: Box<dyn Player> =
        player_by_name(&args.ai, args.seed).map_err(std::io::Error::other)?;
    let now = Instant::now();
    let (mut session, mut journal) = match save.as_ref().filter(|p| p.exists()) {
        Some(p) => {
            let (journal, saved) = Journal::resume(p)?;
            let s =
                Session::restore(now, &identity.signing, &saved).map_err(std::io::Error::other)?;
            println!(
                "resumed from {} ({} messages)",
                p.display(),
                saved.log.len()
            );
            (s, Some(journal))
        }
        None => {
            let mut nonce = [0u8; 32];
            getrandom::fill(&mut nonce).map_err(|e| std::io::Error::other(e.to_string()))?;
            let s = if args.host {
                let rules = Rules {
                    move_seconds: args.move_seconds,
                    ..Rules::for_mode(args.mode)
                };
                let layout = player.layout(&rules);
                Session::host(
                    now,
                    rules,
                    layout,
                    &identity.signing,
                    Seed::random(),
                    nonce,
                    &args.name,
                )
                .map_err(std::io::Error::other)?
            } else {
                Session::join(now, &identity.signing, Seed::random(), nonce, &args.name)
            };
            (s, save.as_deref().map(Journal::new))
        }
    };
    let _advert = if args.host {
        let port = ep.local_addr()?.port();
        println!("listening on 127.0.0.1:{port}");
        if args.mdns {
            Some(
                Advert::start(&args.name, port, &rules_summary(session.rules()))
                    .map_err(std::io::Error::other)?,
            )
        } else {
            None
        }
    } else {
        None
    };
    let dial = match (args.host, args.addr) {
        (true, _) => Dial::Accept,
        (false, Some(a)) => Dial::Connect(a),
        (false, None) => Dial::Connect(discover().await?),
    };
    let (answers, mut cmds) = tokio::sync::mpsc::unbounded_channel();
    let mut peer = Peer {
        player,
        yes: args.yes,
        answers,
        clean: false,
        refused: false,
        stale: false,
        plies: 0,
    };
    let give_up = Instant::now() + Duration::from_secs(600);
    let ended = play(
        &mut session,
        &ep,
        dial,
        journal.as_mut(),
        Some(&mut cmds),
        &mut peer,
        Some(give_up),
    )
    .await?;
    println!("events: {}", peer.plies);
    let _ = tokio::time::timeout(Duration::from_secs(1), ep.wait_idle()).await;
    // A finished game (or one the player refused to pair) is not resumed.
    if (ended == Ended::Done || peer.refused)
        && !peer.stale
        && let Some(j) = journal
    {
        j.remove()?;
    }
    // The session's own verdict: also there when it was restored already finished.
    let clean = peer.clean || session.verdict().is_some_and(|v| v.is_clean());
    Ok(if peer.refused {
        Outcome::Refused
    } else if peer.stale {
        Outcome::Stale
    } else if clean {
        Outcome::Clean
    } else {
        Outcome::Cheated
    })
}

async fn discover() -> std::io::Result<SocketAddr> {
    let (daemon, rx) = browse().map_err(std::io::Error::other)?;
    let t0 = Instant::now();
    let found = tokio::task::spawn_blocking(move || {
        while let Ok(d) = rx.recv_timeout(Duration::from_secs(30)) {
            if let Discovery::Found(h) = d
                && let Some(a) = h.addrs.first()
            {
                return Some((h.name.clone(), *a));
            }
        }
        None
    })
    .await
    .map_err(std::io::Error::other)?;
    let _ = daemon.shutdown();
    let (name, addr) = found.ok_or_else(|| std::io::Error::other("no host found"))?;
    println!(
        "discovered {name} at {addr} in {} ms",
        t0.elapsed().as_millis()
    );
    Ok(addr)
}
