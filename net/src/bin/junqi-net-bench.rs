//! Benchmarks of the fair-play protocol: CPU per battle for both sides, move
//! round trip over loopback QUIC including the protocol, and time from start
//! to discovering a host by mDNS.
//!
//! `cargo run -p junqi-net --release --features testing --bin junqi-net-bench -- [--json] [--battles N] [--no-net]`

use std::hint::black_box;
use std::time::{Duration, Instant};

use clap::Parser;

#[path = "junqi_net_bench/four.rs"]
mod four;
use junqi_game::progress::Progress;
use junqi_net::ot::{Attacker, Defender, OtKey, PeerKey, battle_context};
use junqi_net::{Seed, WireRank};

/// Benchmarks of the fair-play protocol: CPU per battle for both sides, a flip game in
/// memory, the move round trip over loopback QUIC and the time from start to discovering a
/// host by mDNS.
#[derive(Parser)]
// A flag given twice is no error (the hand-written parser ignored the second one).
#[command(name = "junqi-net-bench", args_override_self = true)]
struct Cli {
    /// Print one JSON line
    #[arg(long)]
    json: bool,
    /// Battles to measure (after up to 50 warm-up battles)
    #[arg(long, value_name = "N", default_value_t = 2000,
          value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    battles: u64,
    /// Skip the QUIC round trip and the mDNS discovery (their figures are NaN)
    #[arg(long)]
    no_net: bool,
}

fn main() {
    let cli = Cli::parse();
    let json = cli.json;
    let battles = usize::try_from(cli.battles).expect("at most 10^8 battles");
    let warm_up = battles.min(50);
    let mut progress = Progress::new("battles", (warm_up + battles) as u64, "battles", json);

    let table = junqi_net::wire::table_from_rules(&junqi_game::Rules::default());
    let seed_a = Seed([0x11; 32]);
    let seed_d = Seed([0x22; 32]);
    let key = OtKey::from_seed(&seed_d);
    let s = PeerKey::decode(&key.public()).expect("valid key");
    let game = [7u8; 32];

    let (mut att, mut def) = (Vec::with_capacity(battles), Vec::with_capacity(battles));
    // Warm up caches and the lazily built tables.
    for k in 0..warm_up + battles {
        let c = WireRank::ALL[k % WireRank::MOVABLE];
        let d = WireRank::ALL[(k * 7) % 12];
        let ctx = battle_context(&game, k as u64, 3, 4, &[0; 32]);
        let t0 = Instant::now();
        let (a, req) = Attacker::start(&seed_a, k as u64, c, &s, ctx).expect("movable");
        let t1 = Instant::now();
        let (dd, resp) = Defender::respond(&key, &seed_d, ctx, &req, d, &table).expect("valid R");
        let t2 = Instant::now();
        let (_, reveal) = a.finish(&resp, &table).expect("honest table");
        let t3 = Instant::now();
        let o = dd.check(&reveal, &table).expect("honest label");
        let t4 = Instant::now();
        black_box(o);
        if k >= warm_up {
            att.push((t1 - t0) + (t3 - t2));
            def.push((t2 - t1) + (t4 - t3));
        }
        progress.inc(1);
    }
    let stats = |v: &mut Vec<Duration>| {
        v.sort_unstable();
        let mean = v.iter().sum::<Duration>().as_secs_f64() / v.len() as f64;
        (v[v.len() / 2].as_secs_f64() * 1e3, mean * 1e3)
    };
    let (att_med, att_mean) = stats(&mut att);
    let (def_med, def_mean) = stats(&mut def);
    let total = att_med + def_med;
    let (flip_game_ms, flip_open_ms) = flip_cost(&mut progress);
    let net = !cli.no_net;
    let (rtt, moves) = if net {
        quic_round_trip(&mut progress)
    } else {
        (f64::NAN, 0)
    };
    progress.stage("four-seat games", 1, "tables");
    let (four_att, four_def, four_watch, four_battles) = four::battle_cpu(4);
    let (four_rtt, four_moves) = if net {
        four::round_trip(2)
    } else {
        (f64::NAN, 0)
    };
    let discovery = if net {
        progress.stage("mDNS discovery", 1, "hosts");
        discovery_ms()
    } else {
        f64::NAN
    };
    progress.finish();
    if json {
        println!(
            "{{\"battles\":{battles},\"attacker_ms_median\":{att_med:.4},\"attacker_ms_mean\":{att_mean:.4},\
             \"defender_ms_median\":{def_med:.4},\"defender_ms_mean\":{def_mean:.4},\
             \"battle_total_ms_median\":{total:.4},\"battle_target_ms\":0.2,\"alphabet\":{},\
             \"quic_move_round_trip_ms_median\":{rtt:.3},\"round_trip_samples\":{moves},\"round_trip_target_ms\":2,\
             \"discovery_ms\":{discovery:.1},\"flip_game_ms\":{flip_game_ms:.1},\"flip_opening_ms\":{flip_open_ms:.3},\
             \"four_battles\":{four_battles},\"four_attacker_ms_median\":{four_att:.4},\
             \"four_defender_ms_median\":{four_def:.4},\"four_watcher_ms_median\":{four_watch:.4},\
             \"four_move_round_trip_ms_median\":{four_rtt:.3},\"four_round_trip_samples\":{four_moves}}}",
            table.alphabet().len()
        );
    } else {
        println!("battles measured: {battles}");
        println!("attacker CPU per battle: median {att_med:.4} ms, mean {att_mean:.4} ms");
        println!("defender CPU per battle: median {def_med:.4} ms, mean {def_mean:.4} ms");
        println!("total per battle (medians): {total:.4} ms (target <= 0.2 ms)");
        println!(
            "move round trip over loopback QUIC (median of {moves}): {rtt:.3} ms (target <= 2 ms)"
        );
        println!("start to discovering a host by mDNS: {discovery:.1} ms");
        println!(
            "flip game, both sides in memory: {flip_game_ms:.1} ms per game, \
             {flip_open_ms:.3} ms of that per piece opened"
        );
        println!(
            "four seats, CPU per battle (medians of {four_battles}, whole session with signatures): \
             attacker {four_att:.4} ms, defender {four_def:.4} ms, each watching seat {four_watch:.4} ms"
        );
        println!(
            "four seats, a guest's move to the next guest's move through the host over loopback QUIC \
             (median of {four_moves}): {four_rtt:.3} ms"
        );
    }
}

/// Plays honest flip games between two random players in the in-memory
/// harness; returns the CPU time per game and per opened piece (both sides,
/// move choice included).
fn flip_cost(progress: &mut Progress) -> (f64, f64) {
    use junqi_game::{Event, Mode, Rules};
    use junqi_net::session::AppEvent;
    use junqi_net::testing::Pair;
    let (mut total, mut opened, games) = (Duration::ZERO, 0usize, 5);
    progress.stage("flip games", games, "games");
    for seed in 0..games {
        let mut p = Pair::new(Rules::for_mode(Mode::Flip), seed);
        let t0 = Instant::now();
        assert!(p.run(1_000_000), "flip game finished");
        total += t0.elapsed();
        opened += p.events[0]
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    AppEvent::Game(
                        Event::Flipped { .. }
                            | Event::VoidAttack { .. }
                            | Event::Battle {
                                defender_id: Some(_),
                                ..
                            }
                    )
                )
            })
            .count();
        progress.inc(1);
    }
    let ms = total.as_secs_f64() * 1e3;
    (ms / games as f64, ms / opened.max(1) as f64)
}

/// Plays dark games over loopback QUIC between two instant random players and
/// returns the median time from the host playing a move to the host seeing
/// the guest's answer move (both protocol runs, battles included).
fn quic_round_trip(progress: &mut Progress) -> (f64, usize) {
    use junqi_game::{Event, Rules, Side};
    use junqi_net::session::{AppEvent, Session};
    use junqi_net::testing::{preset, random_move};
    use junqi_net::transport::{
        Identity, OnEvent, accept_game, drive, endpoint, join_game, start_stream,
    };
    use rand::SeedableRng;

    async fn side(
        host: bool,
        tx: Option<tokio::sync::oneshot::Sender<std::net::SocketAddr>>,
        addr: Option<std::net::SocketAddr>,
    ) -> Vec<f64> {
        let id = Identity::generate().expect("identity");
        let ep = endpoint(&id, "127.0.0.1:0".parse().expect("addr")).expect("endpoint");
        let now = Instant::now();
        let (conn, mut send, mut recv, mut s) = if host {
            tx.expect("tx")
                .send(ep.local_addr().expect("addr"))
                .expect("send");
            let (c, a, b) = accept_game(&ep).await.expect("accept");
            let s = Session::host(
                now,
                Rules::default(),
                preset(1),
                &id.signing,
                Seed::random(),
                [1; 32],
                "h",
            )
            .expect("host");
            (c, a, b, s)
        } else {
            let (c, a, b) = join_game(&ep, addr.expect("addr")).await.expect("join");
            (
                c,
                a,
                b,
                Session::join(now, &id.signing, Seed::random(), [2; 32], "g"),
            )
        };
        let mut rng = rand_pcg::Pcg64::seed_from_u64(u64::from(host) + 5);
        let mut sent_at = None;
        let mut samples = Vec::new();
        start_stream(&mut s, &mut send, &mut recv)
            .await
            .expect("stream start");
        let mut on_event = OnEvent(|s: &mut Session, ev| match ev {
            AppEvent::PairingCode { .. } => s.confirm_pairing(Instant::now()).expect("confirm"),
            AppEvent::RulesOffered { .. } => s.accept(Instant::now(), preset(2)).expect("accept"),
            AppEvent::YourTurn => {
                let v = s.view().expect("view").clone();
                let m = random_move(&v, &mut rng).expect("a move");
                sent_at = Some(Instant::now());
                s.play(Instant::now(), m).expect("legal");
            }
            AppEvent::Game(Event::Moved { side, .. } | Event::Battle { side, .. })
                if side == Side::North =>
            {
                if let Some(t) = sent_at.take() {
                    samples.push(t.elapsed().as_secs_f64() * 1e3);
                }
            }
            _ => {}
        });
        drive(&mut s, &mut send, &mut recv, None, None, &mut on_event)
            .await
            .expect("drive");
        let _ = tokio::time::timeout(Duration::from_secs(2), recv.read_to_end(1 << 20)).await;
        conn.close(0u32.into(), b"");
        samples
    }

    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("rt");
    let (mut all, games) = (Vec::new(), 3);
    progress.stage("QUIC games", games, "games");
    for _ in 0..games {
        all.extend(rt.block_on(async {
            let (tx, rx) = tokio::sync::oneshot::channel();
            let h = tokio::spawn(side(true, Some(tx), None));
            let addr = rx.await.expect("addr");
            let g = tokio::spawn(side(false, None, Some(addr)));
            let _ = g.await;
            h.await.expect("host")
        }));
        progress.inc(1);
    }
    all.sort_by(f64::total_cmp);
    (
        all.get(all.len() / 2).copied().unwrap_or(f64::NAN),
        all.len(),
    )
}

/// Milliseconds from starting to browse to resolving a host advertised on
/// this machine (mDNS over loopback).
fn discovery_ms() -> f64 {
    use junqi_net::discovery::{Advert, Discovery, browse};
    let Ok(advert) = Advert::start("bench-host", 40123, "dark 60s") else {
        return f64::NAN;
    };
    let t0 = Instant::now();
    let Ok((daemon, rx)) = browse() else {
        return f64::NAN;
    };
    let mut ms = f64::NAN;
    while let Ok(d) = rx.recv_timeout(Duration::from_secs(10)) {
        if let Discovery::Found(h) = d
            && h.name == "bench-host"
        {
            ms = t0.elapsed().as_secs_f64() * 1e3;
            break;
        }
    }
    let _ = daemon.shutdown();
    advert.stop();
    ms
}
