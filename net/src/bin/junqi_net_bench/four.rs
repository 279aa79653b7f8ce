//! The four-seat figures (issue 47): CPU per battle for the two fighting
//! seats and for each watching seat, and a move's round trip through the
//! host over loopback QUIC.

use std::time::{Duration, Instant};

use junqi_game::{Event, Mode, Rules, TableEvent};
use junqi_net::four::body::Body4;
use junqi_net::four::harness::Table4;
use junqi_net::four::{FourEvent, FourSeat, FourSession};

/// Medians in milliseconds: attacker, defender, a watching seat; and the
/// number of battles measured.
pub(crate) fn battle_cpu(games: u64) -> (f64, f64, f64, usize) {
    let (mut att, mut def, mut watch) = (Vec::new(), Vec::new(), Vec::new());
    for seed in 0..games {
        let mut t = Table4::new(Rules::four_player(Mode::Dark), 100 + seed);
        assert!(t.run(2_000_000), "a four-seat game finished");
        let log = t.seat(FourSeat::South).log();
        let mut battles = Vec::new();
        for r in 0..log.round() {
            let Some(m) = log.messages(r) else { continue };
            for e in m.iter().flatten() {
                if matches!(e.body, Body4::Attack { .. }) {
                    let defender = log
                        .messages(r + 1)
                        .and_then(|n| n.iter().flatten().next())
                        .map(|e| e.signed.header.sender);
                    if let Some(d) = defender {
                        battles.push((r, e.signed.header.sender, d));
                    }
                }
            }
        }
        for (k, a, d) in battles {
            let mut per_seat = [Duration::ZERO; 4];
            for &(s, r, dt) in &t.timing {
                if (k..=k + 2).contains(&r) {
                    per_seat[s.index()] += dt;
                }
            }
            let ms = |x: Duration| x.as_secs_f64() * 1e3;
            att.push(ms(per_seat[a.index()]));
            def.push(ms(per_seat[d.index()]));
            for s in FourSeat::ALL.into_iter().filter(|&s| s != a && s != d) {
                watch.push(ms(per_seat[s.index()]));
            }
        }
    }
    let n = att.len();
    (median(&mut att), median(&mut def), median(&mut watch), n)
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

/// Four seats over loopback QUIC in one process with instant random
/// players: the median time from East playing a move to East seeing North's
/// next move (through the host both ways, battles included); and the samples.
pub(crate) fn round_trip(games: u64) -> (f64, usize) {
    use junqi_net::four::FourConfig;
    use junqi_net::table::{TableDial, TableHandler, play_table};
    use junqi_net::testing::{preset, random_move};
    use junqi_net::transport::{Identity, endpoint};
    use rand::SeedableRng;

    struct Bench {
        rng: rand_pcg::Pcg64,
        sent_at: Option<Instant>,
        samples: Vec<f64>,
        timed: bool,
    }
    impl TableHandler for Bench {
        fn event(&mut self, s: &mut FourSession, ev: FourEvent) {
            match ev {
                FourEvent::PairingCode(_) => {
                    let _ = s.confirm_pairing(Instant::now());
                }
                FourEvent::YourTurn => {
                    let v = s.view().expect("in play").clone();
                    if let Some(m) = random_move(&v, &mut self.rng) {
                        self.sent_at = Some(Instant::now());
                        let _ = s.play(Instant::now(), m);
                    }
                }
                FourEvent::Table(TableEvent::Event(
                    Event::Moved { side, .. } | Event::Battle { side, .. },
                )) if self.timed && side == FourSeat::North.side() => {
                    if let Some(t) = self.sent_at.take() {
                        self.samples.push(t.elapsed().as_secs_f64() * 1e3);
                    }
                }
                _ => {}
            }
        }
    }

    async fn seat(
        s: FourSeat,
        addr: Option<std::net::SocketAddr>,
        tx: Option<tokio::sync::oneshot::Sender<std::net::SocketAddr>>,
        game: u64,
    ) -> Vec<f64> {
        let id = Identity::generate().expect("identity");
        let ep = endpoint(&id, "127.0.0.1:0".parse().expect("addr")).expect("endpoint");
        let mut k = [0u8; 32];
        k[0] = s.code();
        k[1] = game as u8;
        let cfg = FourConfig {
            seat: s,
            host: FourSeat::South,
            rules: (s == FourSeat::South).then(|| Rules::four_player(Mode::Dark)),
            name: s.to_string(),
            layout: preset(s.index()),
            key: ed25519_dalek::SigningKey::from_bytes(&k),
            seed: junqi_net::Seed::random(),
            nonce: k,
            hand_over: false,
        };
        let mut session = FourSession::new(cfg, Instant::now()).expect("a legal preset");
        let dial = match addr {
            None => {
                tx.expect("tx")
                    .send(ep.local_addr().expect("addr"))
                    .expect("send");
                TableDial::Host { guests: 3 }
            }
            Some(a) => TableDial::Join(a),
        };
        let mut h = Bench {
            rng: rand_pcg::Pcg64::seed_from_u64(u64::from(s.code()) + 10 * game),
            sent_at: None,
            samples: Vec::new(),
            timed: s == FourSeat::East,
        };
        let _ = play_table(&mut session, &ep, dial, &mut h).await;
        ep.close(0u32.into(), b"");
        h.samples
    }

    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("rt");
    let mut all = Vec::new();
    for game in 0..games {
        all.extend(rt.block_on(async {
            let (tx, rx) = tokio::sync::oneshot::channel();
            let host = tokio::spawn(seat(FourSeat::South, None, Some(tx), game));
            let addr = rx.await.expect("addr");
            let mut guests = Vec::new();
            for s in [FourSeat::East, FourSeat::North, FourSeat::West] {
                guests.push(tokio::spawn(seat(s, Some(addr), None, game)));
            }
            let mut samples = Vec::new();
            for g in guests {
                samples.extend(g.await.expect("a guest"));
            }
            let _ = host.await;
            samples
        }));
    }
    let n = all.len();
    (median(&mut all), n)
}
