//! Strangers on the network (issue 46), over real QUIC on loopback: while the
//! guest is away, anyone who reaches the host's port may connect. Their bytes
//! are never taken as the peer's, nothing is sent to them, nobody is blamed,
//! and a slow or silent opener never keeps the real guest out.

use std::net::SocketAddr;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use junqi_game::{Mode, Rules};
use junqi_net::session::{AppEvent, Session, Verdict};
use junqi_net::transport::{Control, Dial, Handler, Identity, endpoint, play};
use junqi_net::{Seed, session::pairing_code};
use junqi_proto::testing::{preset, random_move};
use quinn::Endpoint;
use rand::SeedableRng;
use rand_pcg::Pcg64;

/// Plays random moves, confirms the code, and drops its connection once
/// (on the command) to let strangers in before it comes back.
struct Bot {
    rng: Pcg64,
    verdict: Option<Verdict>,
    faults: Vec<AppEvent>,
    away: Duration,
    dropped: usize,
    moves: usize,
    moved: mpsc::Sender<usize>,
    game: Option<mpsc::Sender<[u8; 32]>>,
}

impl Handler for Bot {
    type Cmd = ();
    fn event(&mut self, s: &mut Session, ev: AppEvent) {
        match ev {
            AppEvent::RulesOffered { .. } => s.accept(Instant::now(), preset(2)).unwrap(),
            AppEvent::PairingCode { code } => {
                assert_eq!(Some(code), s.pairing());
                s.confirm_pairing(Instant::now()).unwrap();
            }
            AppEvent::YourTurn => {
                let v = s.view().unwrap().clone();
                if let Some(m) = random_move(&v, &mut self.rng) {
                    let _ = s.play(Instant::now(), m);
                    self.moves += 1;
                    let _ = self.moved.send(self.moves);
                }
            }
            AppEvent::Started { game_id, .. } => {
                if let Some(g) = &self.game {
                    let _ = g.send(game_id);
                }
            }
            AppEvent::Fault { .. } => self.faults.push(ev),
            AppEvent::Verdict(v) => self.verdict = Some(v),
            _ => {}
        }
    }
    fn command(&mut self, _s: &mut Session, (): ()) -> Control {
        Control::Disconnect
    }
    fn dropped(&mut self, _s: &Session, _e: &std::io::Error) {
        self.dropped += 1;
        // Away long enough for the strangers to try their luck first.
        std::thread::sleep(self.away);
    }
}

struct Side {
    verdict: Option<Verdict>,
    faults: Vec<AppEvent>,
    code: Option<String>,
}

/// Runs one side of a game on its own thread and runtime.
#[allow(clippy::too_many_arguments)]
fn run_side(
    host: bool,
    mode: Mode,
    addr_tx: Option<mpsc::Sender<SocketAddr>>,
    addr: Option<SocketAddr>,
    cmds: Option<tokio::sync::mpsc::UnboundedReceiver<()>>,
    moved: mpsc::Sender<usize>,
    away: Duration,
    game: Option<mpsc::Sender<[u8; 32]>>,
) -> std::thread::JoinHandle<Side> {
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let id = Identity::generate().unwrap();
            let ep = endpoint(&id, "127.0.0.1:0".parse().unwrap()).unwrap();
            let now = Instant::now();
            let (mut s, dial) = if host {
                addr_tx.unwrap().send(ep.local_addr().unwrap()).unwrap();
                let s = Session::host(
                    now,
                    Rules::for_mode(mode),
                    preset(1),
                    &id.signing,
                    Seed::random(),
                    [1; 32],
                    "h",
                )
                .unwrap();
                (s, Dial::Accept)
            } else {
                (
                    Session::join(now, &id.signing, Seed::random(), [2; 32], "g"),
                    Dial::Connect(addr.unwrap()),
                )
            };
            let mut bot = Bot {
                rng: Pcg64::seed_from_u64(u64::from(host)),
                verdict: None,
                faults: Vec::new(),
                away,
                dropped: 0,
                moves: 0,
                moved,
                game,
            };
            let mut cmds = cmds;
            let give_up = Some(Instant::now() + Duration::from_secs(120));
            play(&mut s, &ep, dial, None, cmds.as_mut(), &mut bot, give_up)
                .await
                .unwrap();
            ep.wait_idle().await;
            Side {
                verdict: bot.verdict,
                faults: bot.faults,
                code: s.pairing(),
            }
        })
    })
}

fn stranger_endpoint() -> Endpoint {
    let id = Identity::generate().unwrap();
    endpoint(&id, "127.0.0.1:0".parse().unwrap()).unwrap()
}

/// A stranger connects, writes `bytes` on a stream it opens and on any
/// stream the host opens, and returns how many bytes the host sent it on
/// either before closing (it must be none).
async fn stranger(addr: SocketAddr, bytes: Vec<u8>) -> usize {
    let ep = stranger_endpoint();
    let Ok(connecting) = ep.connect(addr, "junqi.local") else {
        return 0;
    };
    let Ok(Ok(conn)) = tokio::time::timeout(Duration::from_secs(5), connecting).await else {
        return 0;
    };
    async fn drain(mut recv: quinn::RecvStream) -> usize {
        let mut got = 0;
        let mut buf = [0u8; 4096];
        while let Ok(Ok(Some(n))) =
            tokio::time::timeout(Duration::from_secs(3), recv.read(&mut buf)).await
        {
            got += n;
        }
        got
    }
    let mine = async {
        let Ok((mut send, recv)) = conn.open_bi().await else {
            return 0;
        };
        let _ = send.write_all(&bytes).await;
        drain(recv).await
    };
    let theirs = async {
        let Ok(Ok((mut send, recv))) =
            tokio::time::timeout(Duration::from_secs(3), conn.accept_bi()).await
        else {
            return 0;
        };
        let _ = send.write_all(&bytes).await;
        drain(recv).await
    };
    let (a, b) = tokio::join!(mine, theirs);
    a + b
}

/// An unsigned stream start for `game` (as a stranger who learnt the id).
fn unsigned_start(game: [u8; 32], have: u64) -> Vec<u8> {
    junqi_net::frame::encode_frame(&junqi_net::resume::StreamStart {
        game,
        have,
        have_last: [0; 32],
        sig: [0; 64],
    })
    .unwrap()
}

fn assert_clean_and_unblamed(h: &Side, g: &Side) {
    let (hv, gv) = (h.verdict.as_ref().unwrap(), g.verdict.as_ref().unwrap());
    assert!(hv.is_clean(), "host: {hv:?}");
    assert!(gv.is_clean(), "guest: {gv:?}");
    assert_eq!(hv.result, gv.result);
    assert!(h.faults.is_empty(), "host blamed: {:?}", h.faults);
    assert!(g.faults.is_empty(), "guest blamed: {:?}", g.faults);
    assert_eq!(h.code, g.code);
}

/// The guest drops its connection mid-game; before it comes back, strangers
/// connect to the host: with garbage, with an unsigned stream start naming
/// no game, one naming the game, one naming another game. The host sends
/// none of them a byte, blames nobody, and the game completes clean when the
/// guest returns.
#[test]
fn strangers_during_a_reconnection_are_not_heard_and_blame_nobody() {
    for mode in [Mode::Dark, Mode::Flip] {
        let (addr_tx, addr_rx) = mpsc::channel();
        let (moved_tx, moved_rx) = mpsc::channel();
        let (cmd_tx, cmd_rx) = tokio::sync::mpsc::unbounded_channel();
        let (game_tx, game_rx) = mpsc::channel();
        let host = run_side(
            true,
            mode,
            Some(addr_tx),
            None,
            None,
            moved_tx.clone(),
            Duration::ZERO,
            Some(game_tx),
        );
        let addr = addr_rx.recv().unwrap();
        let guest = run_side(
            false,
            mode,
            None,
            Some(addr),
            Some(cmd_rx),
            moved_tx,
            Duration::from_secs(6),
            None,
        );
        let game = game_rx.recv_timeout(Duration::from_secs(30)).unwrap();
        // A few moves in, the guest goes away for a while.
        while moved_rx.recv_timeout(Duration::from_secs(30)).unwrap() < 4 {}
        cmd_tx.send(()).unwrap();
        std::thread::sleep(Duration::from_millis(300));
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let sent = rt.block_on(async {
            let tries = [
                vec![0xff; 64],
                u32::MAX.to_be_bytes().to_vec(),
                unsigned_start([0; 32], 0),
                unsigned_start(game, 0),
                unsigned_start(game, 1000),
                unsigned_start([9; 32], 0),
            ];
            let mut sent = Vec::new();
            for t in tries {
                sent.push(stranger(addr, t).await);
            }
            sent
        });
        assert!(
            sent.iter().all(|&n| n == 0),
            "{mode:?}: sent to strangers: {sent:?}"
        );
        let (h, g) = (host.join().unwrap(), guest.join().unwrap());
        assert_clean_and_unblamed(&h, &g);
        assert_eq!(h.code.as_deref(), Some(pairing_code(&game).as_str()));
    }
}

/// Silent openers connect first (a QUIC handshake and nothing more, or a
/// stream and no start): the real guest still gets in at once, well before
/// the strangers' deadlines run out.
#[test]
fn a_silent_opener_never_keeps_the_real_guest_out() {
    let (addr_tx, addr_rx) = mpsc::channel();
    let (moved_tx, _moved_rx) = mpsc::channel();
    let host = run_side(
        true,
        Mode::Dark,
        Some(addr_tx),
        None,
        None,
        moved_tx.clone(),
        Duration::ZERO,
        None,
    );
    let addr = addr_rx.recv().unwrap();
    // Three silent strangers hold connections open on their own thread.
    let (ready_tx, ready_rx) = mpsc::channel();
    let silent = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let ep = stranger_endpoint();
            let mut held = Vec::new();
            for _ in 0..3 {
                // A handshake, a stream, and not a byte on it.
                let conn = ep.connect(addr, "junqi.local").unwrap().await.unwrap();
                held.push((conn.open_bi().await.unwrap(), conn));
            }
            ready_tx.send(()).unwrap();
            tokio::time::sleep(Duration::from_secs(10)).await;
            drop(held);
        });
    });
    ready_rx.recv().unwrap();
    let t = Instant::now();
    let guest = run_side(
        false,
        Mode::Dark,
        None,
        Some(addr),
        None,
        moved_tx,
        Duration::ZERO,
        None,
    );
    let (h, g) = (host.join().unwrap(), guest.join().unwrap());
    assert_clean_and_unblamed(&h, &g);
    // A whole game on loopback takes a few seconds; waiting on a silent
    // opener would have taken forever before, and the stream-start deadline now.
    assert!(
        t.elapsed() < Duration::from_secs(30),
        "the guest waited {:?}",
        t.elapsed()
    );
    silent.join().unwrap();
}
