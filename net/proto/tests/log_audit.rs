//! The third-party audit of a signed log ([`junqi_proto::log_audit`]).

use junqi_game::{Mode, Rules, Side};
use junqi_proto::log_audit::{LogError, audit_log};
use junqi_proto::session::{Cheats, Rewrite};
use junqi_proto::testing::Pair;
use junqi_proto::wire::Body;

const STEPS: usize = 200_000;

#[test]
fn either_sides_log_gives_the_verdict_both_sides_saw() {
    for mode in [Mode::Dark, Mode::Open, Mode::Flip] {
        for seed in 0..4 {
            let mut p = Pair::new(Rules::for_mode(mode), 100 + seed);
            assert!(p.run(STEPS));
            for i in 0..2 {
                let seen = p.verdict(i).unwrap().clone();
                let v = audit_log(p.sessions[i].log(), std::time::Instant::now()).unwrap();
                assert!(v.is_clean(), "{mode:?} {seed} {i}: {v:?}");
                assert_eq!(v.result, seen.result, "{mode:?} {seed} {i}");
                assert_eq!(v.record, seen.record, "{mode:?} {seed} {i}");
            }
        }
    }
}

#[test]
fn the_cheater_is_named_from_the_log_alone() {
    // A false outcome, a changed piece, a forged forfeit: named from either log.
    let cheats = [
        Cheats {
            false_outcome: true,
            ..Cheats::default()
        },
        Cheats {
            reveal_layout: Some(junqi_proto::testing::preset(40)),
            ..Cheats::default()
        },
        Cheats {
            rewrites: vec![Rewrite {
                kind: "table",
                nth: 1,
                with: Some(Body::ClaimForfeit),
                every: false,
            }],
            ..Cheats::default()
        },
    ];
    for (n, c) in cheats.into_iter().enumerate() {
        let mut p = Pair::new(Rules::default(), 300 + n as u64);
        p.sessions[1].set_cheats(c);
        let honest = p.run_until_verdict(0, STEPS).unwrap();
        assert_eq!(honest.cheater, Some(Side::North), "{n}: {honest:?}");
        let v = audit_log(p.sessions[0].log(), std::time::Instant::now()).unwrap();
        assert_eq!(v.cheater, Some(Side::North), "{n}: {v:?}");
    }
}

#[test]
fn a_refused_early_timeout_claim_is_a_dispute_the_log_cannot_settle() {
    let mut p = Pair::new(Rules::default(), 400);
    // The guest claims a timeout the moment the host is on move.
    p.step_until(|p| p.sessions[0].view().is_some_and(|v| v.ply() >= 4));
    let ply = p.sessions[0].view().unwrap().ply();
    p.players[0] = junqi_proto::testing::Player::Idle;
    p.step_until(|p| p.sessions[0].my_turn());
    let ply = ply.max(p.sessions[0].view().unwrap().ply());
    let f = p.sessions[1].forge(Body::ClaimTimeout { ply }).unwrap();
    p.inject(1, f);
    let honest = p.run_until_verdict(0, STEPS).unwrap();
    assert_eq!(honest.cheater, Some(Side::North), "{honest:?}");
    // The log has no clock: a third party cannot tell an early claim from a
    // late one, and blames neither side.
    assert_eq!(
        audit_log(p.sessions[0].log(), std::time::Instant::now()),
        Err(LogError::Undecidable)
    );
}

#[test]
fn an_edited_log_is_named_as_edited() {
    let mut p = Pair::new(Rules::default(), 500);
    assert!(p.run(STEPS));
    let log = p.sessions[0].log().to_vec();
    // Change one move in the middle.
    let mut edited = log.clone();
    let i = edited
        .iter()
        .position(|e| matches!(e.body, Body::Step { .. }) && e.header.seq > 5)
        .unwrap();
    if let Body::Step { to, .. } = &mut edited[i].body {
        *to ^= 1;
    }
    assert!(matches!(
        audit_log(&edited, std::time::Instant::now()),
        Err(LogError::Tampered { index, .. }) if index == i
    ));
    // Drop a message.
    let mut dropped = log.clone();
    dropped.remove(i);
    assert!(matches!(
        audit_log(&dropped, std::time::Instant::now()),
        Err(LogError::Tampered { .. })
    ));
    // A game that never ended.
    assert!(matches!(
        audit_log(&log[..8], std::time::Instant::now()),
        Err(LogError::NotOpened)
    ));
}
