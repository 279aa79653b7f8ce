//! A headless peer: hosts or joins one game over QUIC with an AI (or random)
//! player, printing every public event it saw, the pairing code and the
//! audit verdict.
//!
//! ```text
//! junqi-peer host [--mode dark|open|flip] [--port N] [--ai NAME] [--seed N] [--name NAME] [--no-mdns]
//!                  [--move-seconds N] [--state DIR]
//! junqi-peer join [--addr IP:PORT] [--ai NAME] [--seed N] [--name NAME] [--state DIR]
//! ```
//! With `--state DIR` the identity is kept in `DIR` and the game is saved to
//! `DIR/game.bin` before every message; a restarted peer with the same
//! `--state` resumes the game from there (and the other peer waits for it).
//! `--ai` takes `random`, `greedy` or an engine level (`novice`, `skilled`,
//! `expert`, `master`). Without `--addr`, `join` finds a host by mDNS.
//! Exit status: 0 for a clean audit, 2 when the audit names a cheater, 1 on errors.

use std::net::{Ipv4Addr, SocketAddr, SocketAddrV4};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use junqi_game::ai::{Player, player_by_name};
use junqi_game::{Action, Mode, Rules};
use junqi_net::Seed;
use junqi_net::discovery::{Advert, Discovery, browse, rules_summary};
use junqi_net::resume::SavedGame;
use junqi_net::session::{AppEvent, Session};
use junqi_net::transport::{
    Identity, accept_game, drive, endpoint, join_game, pairing_code, peer_cert, start_stream,
};

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
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(2),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

async fn run(args: Args) -> std::io::Result<bool> {
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
    let mut session = match save.as_ref().filter(|p| p.exists()) {
        Some(p) => {
            let saved = SavedGame::load(p)?;
            let s =
                Session::restore(now, &identity.signing, &saved).map_err(std::io::Error::other)?;
            println!(
                "resumed from {} ({} messages)",
                p.display(),
                saved.log.len()
            );
            s
        }
        None => {
            let mut nonce = [0u8; 32];
            getrandom::fill(&mut nonce).map_err(|e| std::io::Error::other(e.to_string()))?;
            if args.host {
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
            }
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
    let addr = match (args.host, args.addr) {
        (true, _) => None,
        (false, Some(a)) => Some(a),
        (false, None) => Some(discover().await?),
    };
    let certs = std::cell::RefCell::new((Vec::new(), Vec::new()));
    let mut clean = false;
    let mut plies = 0u32;
    let mut on_event = |s: &mut Session, ev: AppEvent| match ev {
        AppEvent::RulesOffered { rules, peer_name } => {
            println!("rules offered by {peer_name}: {rules:?}");
            let layout = player.layout(&rules);
            if let Err(e) = s.accept(Instant::now(), layout) {
                eprintln!("cannot accept: {e}");
            }
        }
        AppEvent::Started { me, first, game_id } => {
            println!("started: I am {me:?}, {first:?} moves first");
            let c = certs.borrow();
            println!("pairing code: {}", pairing_code(&c.0, &c.1, &game_id));
        }
        AppEvent::Game(e) => {
            plies += 1;
            println!("event: {e:?}");
        }
        AppEvent::YourTurn => {
            let Some(view) = s.view().cloned() else {
                return;
            };
            let deadline =
                Instant::now() + Duration::from_secs(u64::from(view.rules().move_seconds) / 2);
            let stop = move || Instant::now() >= deadline;
            match player.act(&view, &stop) {
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
            clean = v.is_clean();
            match v.cheater {
                None => println!("verdict: clean audit"),
                Some(c) => println!("verdict: {c:?} cheated: {} ({})", v.reason, v.evidence),
            }
        }
    };
    let give_up = Instant::now() + Duration::from_secs(600);
    loop {
        let connected = match addr {
            None => accept_game(&ep).await,
            Some(a) => join_game(&ep, a).await,
        };
        let (conn, mut send, mut recv) = match connected {
            Ok(c) => c,
            // A guest retries until the host answers; a host drops a
            // connection attempt that failed (e.g. one that gave up while the
            // host still waited on the dead connection) and keeps listening.
            Err(e) if Instant::now() < give_up => {
                eprintln!("cannot connect ({e}); retrying");
                if !args.host {
                    tokio::time::sleep(Duration::from_millis(500)).await;
                }
                continue;
            }
            Err(e) => return Err(e),
        };
        let peer = peer_cert(&conn).unwrap_or_default();
        *certs.borrow_mut() = if args.host {
            (identity.cert.to_vec(), peer)
        } else {
            (peer, identity.cert.to_vec())
        };
        if session.game_id() != [0; 32] {
            let c = certs.borrow();
            println!(
                "connected; pairing code: {}",
                pairing_code(&c.0, &c.1, &session.game_id())
            );
        }
        let r = async {
            start_stream(&mut session, &mut send, &mut recv).await?;
            drive(
                &mut session,
                &mut send,
                &mut recv,
                save.as_deref(),
                &mut on_event,
            )
            .await
        }
        .await;
        match r {
            Ok(()) => {
                // Let the last frames reach the peer before closing.
                let _ =
                    tokio::time::timeout(Duration::from_secs(2), recv.read_to_end(1 << 20)).await;
                conn.close(0u32.into(), b"done");
                break;
            }
            Err(e) => {
                eprintln!("connection lost: {e}; waiting to resume");
                conn.close(1u32.into(), b"lost");
                if Instant::now() > give_up {
                    return Err(e);
                }
            }
        }
    }
    println!("events: {plies}");
    let _ = tokio::time::timeout(Duration::from_secs(1), ep.wait_idle()).await;
    if let Some(p) = &save {
        let _ = std::fs::remove_file(p);
    }
    Ok(clean)
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
