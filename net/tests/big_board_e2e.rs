//! Two players on the four-player board (两人四国棋盘) over real QUIC on
//! 127.0.0.1 (issue 47): two `junqi-peer` processes play whole dark and open
//! games with `--big-board`; both print the same events and result and a
//! clean audit.

use std::time::{Duration, Instant};

mod support;
use support::spawn;

const LIMIT: Duration = Duration::from_secs(120);

fn play(mode: &str) {
    let dir = std::env::temp_dir().join(format!("junqi-big-{mode}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (hl, gl) = (dir.join("host.log"), dir.join("guest.log"));
    let mut host = spawn(
        &[
            "host",
            "--big-board",
            "--mode",
            mode,
            "--no-mdns",
            "--yes",
            "--ai",
            "greedy",
        ],
        &hl,
    );
    let t0 = Instant::now();
    let addr = loop {
        let text = std::fs::read_to_string(&hl).unwrap_or_default();
        if let Some(a) = text.lines().find_map(|l| l.strip_prefix("listening on ")) {
            break a.trim().to_owned();
        }
        assert!(
            t0.elapsed() < Duration::from_secs(20),
            "the host never listened: {text}"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut guest = spawn(
        &[
            "join", "--addr", &addr, "--yes", "--ai", "random", "--seed", "9",
        ],
        &gl,
    );
    for p in [&mut host, &mut guest] {
        loop {
            if let Some(status) = p.0.try_wait().unwrap() {
                assert!(status.success(), "exit {status}");
                break;
            }
            assert!(t0.elapsed() < LIMIT, "the game did not finish in time");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    let (h, g) = (
        std::fs::read_to_string(&hl).unwrap(),
        std::fs::read_to_string(&gl).unwrap(),
    );
    let shared = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| {
                l.starts_with("event:") || l.starts_with("result:") || l.starts_with("verdict:")
            })
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(shared(&h), shared(&g), "both sides printed the same game");
    assert!(h.contains("verdict: clean audit"), "{h}");
    assert!(
        g.contains("four_player_board: true"),
        "the rules offered say the big board: {g}"
    );
    assert!(shared(&h).len() > 20);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn two_peers_play_a_dark_game_on_the_big_board() {
    play("dark");
}

#[test]
fn two_peers_play_an_open_game_on_the_big_board() {
    play("open");
}
