//! End-to-end games over QUIC on 127.0.0.1 (in-process): both sides agree on
//! every public event, the result and a clean audit.

use std::net::SocketAddr;
use std::time::Instant;

use junqi_game::{Event, Mode, Rules};
use junqi_net::Seed;
use junqi_net::session::{AppEvent, Session, Verdict};
use junqi_net::transport::{
    Identity, OnEvent, accept_game, drive, endpoint, join_game, start_stream,
};
use junqi_proto::testing::{preset, random_move};
use rand::SeedableRng;
use rand_pcg::Pcg64;

struct Played {
    events: Vec<Event>,
    verdict: Option<Verdict>,
    code: String,
}

async fn side(
    host: bool,
    mode: Mode,
    addr_tx: Option<tokio::sync::oneshot::Sender<SocketAddr>>,
    addr: Option<SocketAddr>,
) -> Played {
    let id = Identity::generate().unwrap();
    let ep = endpoint(&id, "127.0.0.1:0".parse().unwrap()).unwrap();
    let now = Instant::now();
    let (conn, mut send, mut recv, mut s) = if host {
        addr_tx.unwrap().send(ep.local_addr().unwrap()).unwrap();
        let (c, tx, rx) = accept_game(&ep).await.unwrap();
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
        (c, tx, rx, s)
    } else {
        let (c, tx, rx) = join_game(&ep, addr.unwrap()).await.unwrap();
        let s = Session::join(now, &id.signing, Seed::random(), [2; 32], "g");
        (c, tx, rx, s)
    };
    let mut rng = Pcg64::seed_from_u64(u64::from(host));
    let mut out = Played {
        events: Vec::new(),
        verdict: None,
        code: String::new(),
    };
    start_stream(&mut s, &mut send, &mut recv)
        .await
        .expect("stream start");
    let mut started = false;
    let mut on_event = OnEvent(|s: &mut Session, ev| match ev {
        AppEvent::RulesOffered { .. } => s.accept(Instant::now(), preset(2)).unwrap(),
        AppEvent::PairingCode { code } => {
            // Nothing about the setup may go out before the player confirms.
            assert!(!started);
            assert_eq!(s.pairing().as_deref(), Some(code.as_str()));
            out.code = code;
            s.confirm_pairing(Instant::now()).unwrap();
        }
        AppEvent::Started { game_id, .. } => {
            started = true;
            assert_eq!(out.code, junqi_net::session::pairing_code(&game_id));
        }
        AppEvent::Game(e) => out.events.push(e),
        AppEvent::YourTurn => {
            let v = s.view().unwrap().clone();
            let m = random_move(&v, &mut rng).unwrap();
            s.play(Instant::now(), m).unwrap();
        }
        AppEvent::Verdict(v) => out.verdict = Some(v),
        _ => {}
    });
    drive(&mut s, &mut send, &mut recv, None, None, &mut on_event)
        .await
        .unwrap();
    let _ =
        tokio::time::timeout(std::time::Duration::from_secs(2), recv.read_to_end(1 << 20)).await;
    conn.close(0u32.into(), b"");
    out
}

fn play(mode: Mode) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let h = tokio::spawn(side(true, mode, Some(tx), None));
        let addr = rx.await.unwrap();
        let g = tokio::spawn(side(false, mode, None, Some(addr)));
        let (h, g) = (h.await.unwrap(), g.await.unwrap());
        assert_eq!(h.code, g.code, "pairing codes");
        assert_eq!(h.events, g.events);
        let (hv, gv) = (h.verdict.unwrap(), g.verdict.unwrap());
        assert!(hv.is_clean() && gv.is_clean(), "{hv:?} {gv:?}");
        assert!(hv.result.is_some());
        assert_eq!(hv.result, gv.result);
    });
}

#[test]
fn dark_game_over_quic() {
    play(Mode::Dark);
}

#[test]
fn open_game_over_quic() {
    play(Mode::Open);
}

#[test]
fn flip_game_over_quic() {
    play(Mode::Flip);
}
