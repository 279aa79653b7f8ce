//! The hostile peer: a modified client that sends correctly signed, correctly
//! chained messages that lie, early, late or never. One test for each attack
//! that worked against the earlier protocol (issue 10), then properties that
//! hold for any such peer: random adversaries, honest pairs racing under
//! random latencies and clock offsets, a relay in the middle.

use std::time::Duration;

use junqi_game::{Event, GameResult, Mode, Move, Rules, Seen, Side, WinReason};
use junqi_proto::envelope::Envelope;
use junqi_proto::findings::MoveFault;
use junqi_proto::session::{Cheats, Rewrite, Session, Verdict, nonce_commitment, pairing_code};
use junqi_proto::testing::{Pair, Player, arbitrary_body, random_move};
use junqi_proto::wire::Body;
use junqi_proto::wire::BoundsError;
use junqi_proto::{FaultKind, Seat, Seed};
use proptest::prelude::*;

const STEPS: usize = 200_000;

fn side(i: usize) -> Side {
    if i == 0 { Side::South } else { Side::North }
}

fn rewrite(kind: &'static str, nth: usize, with: Option<Body>) -> Cheats {
    Cheats {
        rewrites: vec![Rewrite {
            kind,
            nth,
            with,
            every: false,
        }],
        ..Cheats::default()
    }
}

/// The honest side `honest` won and named the other side, whatever the
/// other side believes.
fn assert_honest_wins_and_blames(v: &Verdict, honest: usize, what: &str) {
    assert_eq!(v.cheater, Some(side(1 - honest)), "{what}: {v:?}");
    assert!(
        matches!(v.result, Some(GameResult::Win { winner, .. }) if winner == side(honest)),
        "{what}: {v:?}"
    );
}

fn bodies(log: &[Envelope<Body>], from: Seat) -> impl Iterator<Item = &Envelope<Body>> {
    log.iter().filter(move |e| e.header.sender == from)
}

// ----- attack 1: a forged forfeit --------------------------------------------

#[test]
fn a_forfeit_claimed_when_nothing_is_overdue_is_refused_and_blamed() {
    // Instead of its move, its table, its label (dark) or its flip opening
    // (flip), the adversary claims that the honest side forfeits.
    let cases = [
        (Mode::Dark, "step", 2),
        (Mode::Dark, "table", 0),
        (Mode::Dark, "label", 0),
        (Mode::Open, "step", 3),
        (Mode::Flip, "flip-open", 1),
        (Mode::Flip, "flip", 2),
    ];
    for (mode, kind, nth) in cases {
        for adversary in 0..2 {
            let honest = 1 - adversary;
            let mut p = Pair::new(Rules::for_mode(mode), 1000 + nth as u64);
            p.sessions[adversary].set_cheats(rewrite(kind, nth, Some(Body::ClaimForfeit)));
            let v = p
                .run_until_verdict(honest, STEPS)
                .expect("the honest side reaches a verdict");
            if v.result.is_some_and(|r| {
                !matches!(
                    r,
                    GameResult::Win {
                        reason: WinReason::Forfeit,
                        ..
                    }
                )
            }) && v.cheater.is_none()
            {
                // The game ended before the adversary's message came up.
                continue;
            }
            assert_honest_wins_and_blames(&v, honest, &format!("{mode:?} {kind} {adversary}"));
            assert_eq!(
                v.reason,
                Some(FaultKind::BaselessForfeitClaim),
                "{mode:?} {kind} {adversary}"
            );
        }
    }
}

// ----- attack 2: timeout claims not checked against a clock --------------------

#[test]
fn a_timeout_claimed_before_the_deadline_is_refused_and_blamed() {
    for mode in [Mode::Dark, Mode::Open, Mode::Flip] {
        let mut p = Pair::new(Rules::for_mode(mode), 2000);
        let (adversary, honest) = (1, 0);
        // Wait for the honest side's turn a few moves in.
        p.hold_turn(honest, 6, 1);
        p.players[honest] = Player::Random;
        let ply = p.sessions[honest].view().unwrap().ply();
        // Four claims at once, 0 s into a 60 s turn.
        for _ in 0..4 {
            let f = p.sessions[adversary]
                .forge(Body::ClaimTimeout { ply })
                .unwrap();
            p.inject(adversary, f);
        }
        let v = p.run_until_verdict(honest, STEPS).unwrap();
        assert_honest_wins_and_blames(&v, honest, &format!("{mode:?}"));
        // On move, but 0 s into the turn: refused as early (or, when the
        // honest side's move left first, as a claim over a move sent long
        // before its deadline).
        assert!(
            matches!(
                v.reason,
                Some(
                    FaultKind::EarlyTimeoutClaim { on_move: true }
                        | FaultKind::ClaimCrossedEarlyMove { .. }
                )
            ),
            "{mode:?}: {v:?}"
        );
        assert!(
            !p.events[honest].iter().any(|e| matches!(
                e,
                junqi_proto::session::AppEvent::Game(Event::TimedOut { .. })
            )),
            "{mode:?}: the honest side was charged a timeout"
        );
    }
}

// ----- the evidence is typed ------------------------------------------------------

/// The adversary (North), on move in a dark game a few plies in, sends
/// `body`, signed and chained; the honest side's verdict.
fn forged_on_move(body: impl FnOnce(&junqi_game::PlayerView) -> Body) -> Verdict {
    let mut p = Pair::new(Rules::default(), 3100);
    let (adversary, honest) = (1, 0);
    p.hold_turn(adversary, 4, 7);
    let view = p.sessions[adversary].view().expect("in play").clone();
    let f = p.sessions[adversary].forge(body(&view)).unwrap();
    p.inject(adversary, f);
    let v = p.run_until_verdict(honest, STEPS).unwrap();
    assert_eq!(v.cheater, Some(Side::North), "{v:?}");
    v
}

#[test]
fn a_forged_step_off_the_board_is_blamed_with_the_point() {
    let v = forged_on_move(|_| Body::Step { from: 200, to: 3 });
    assert_eq!(
        v.reason,
        Some(FaultKind::IllegalMove(MoveFault::OffBoard { point: 200 })),
        "{v:?}"
    );
    assert_eq!(
        v.reason.unwrap().to_string(),
        "illegal move: point 200 is off the board"
    );
}

#[test]
fn a_forged_step_onto_a_piece_is_blamed_with_both_points() {
    let mut points = (None, None);
    let v = forged_on_move(|view| {
        // Any piece of the adversary's and any other occupied point: a plain
        // step (not an attack) may never land on a piece.
        let board = view.board();
        let own = board
            .points()
            .find(|&q| {
                matches!(
                    view.at(q),
                    Some(Seen::Piece {
                        side: Side::North,
                        ..
                    })
                )
            })
            .unwrap();
        let other = board
            .points()
            .find(|&q| q != own && view.at(q).is_some())
            .unwrap();
        points = (Some(own), Some(other));
        Body::Step {
            from: own.0,
            to: other.0,
        }
    });
    let (Some(from), Some(to)) = points else {
        unreachable!()
    };
    assert_eq!(
        v.reason,
        Some(FaultKind::IllegalMove(MoveFault::OntoOccupied { from, to })),
        "{v:?}"
    );
}

#[test]
fn an_oversized_dispute_is_blamed_with_its_length() {
    let v = forged_on_move(|_| Body::Dispute {
        reason: "x".repeat(300),
    });
    assert_eq!(
        v.reason,
        Some(FaultKind::Malformed {
            kind: "dispute",
            bound: BoundsError::ReasonTooLong { len: 300 },
        }),
        "{v:?}"
    );
}

// ----- attack 3: a voided attack reused the battle's x --------------------------

#[test]
fn no_two_attacks_share_a_secret_even_across_a_voided_attack() {
    use curve25519_dalek::Scalar;
    use junqi_proto::ot::decode_point;
    let mut voided = 0;
    for seed in 0..12 {
        let mut p = Pair::new(Rules::default(), 3000 + seed);
        let mut rng = <rand_pcg::Pcg64 as rand::SeedableRng>::seed_from_u64(seed);
        p.players[0] = Player::Idle;
        // The host plays by hand until it has an attack to make, then waits
        // for the guest's timeout claim and attacks across it (as on a
        // network slower than the grace).
        let mut steps = 0;
        let attack = loop {
            steps += 1;
            assert!(steps < STEPS, "seed {seed}: no attack came up");
            p.step();
            if !p.sessions[0].my_turn() {
                continue;
            }
            let v = p.sessions[0].view().unwrap().clone();
            let attack = v
                .legal_moves()
                .into_iter()
                .find(|m| matches!(m, Move::Step { to, .. } if matches!(v.at(*to), Some(Seen::Piece { side: Side::North, .. }))));
            if let Some(a) = attack
                && v.ply() >= 4
            {
                break a;
            }
            let m = random_move(&v, &mut rng).unwrap();
            p.sessions[0].play(p.now, m).unwrap();
        };
        p.step_until(|p| {
            bodies(p.sessions[1].log(), Seat::Guest)
                .any(|e| matches!(e.body, Body::ClaimTimeout { .. }))
        });
        p.sessions[0].play_unchecked(p.now, attack).unwrap();
        p.players[0] = Player::Random;
        assert!(p.run(STEPS));
        let v = p.verdict(0).unwrap();
        assert!(v.is_clean(), "{v:?}");
        let log = p.sessions[1].log();
        // The defender's oblivious-transfer key S.
        let s_key = bodies(log, Seat::Guest)
            .find_map(|e| match &e.body {
                Body::Commit { ot_key, .. } => Some(*ot_key),
                _ => None,
            })
            .unwrap();
        let s = decode_point(&s_key).unwrap();
        let rs: Vec<_> = bodies(log, Seat::Host)
            .filter_map(|e| match &e.body {
                Body::Attack { r, .. } => Some(decode_point(r).unwrap()),
                _ => None,
            })
            .collect();
        // The voided attack is in the guest's log too (it arrived after the claim).
        let claim = bodies(log, Seat::Guest)
            .find(|e| matches!(e.body, Body::ClaimTimeout { .. }))
            .unwrap()
            .header
            .seq;
        if bodies(log, Seat::Host)
            .any(|e| matches!(e.body, Body::Attack { .. }) && e.header.ack_seq <= claim)
        {
            voided += 1;
        }
        // With a shared x, R1 - R2 = (c1 - c2)·S for the two ranks: never.
        for (i, a) in rs.iter().enumerate() {
            for b in &rs[i + 1..] {
                for d in -9i64..=9 {
                    let k = if d < 0 {
                        -Scalar::from(d.unsigned_abs())
                    } else {
                        Scalar::from(d as u64)
                    };
                    assert_ne!(a - b, k * s, "seed {seed}: two attacks share x");
                }
            }
        }
    }
    assert!(voided >= 6, "only {voided} games had a voided attack");
}

// ----- attack 4: a voided flip left the guest's opening with the host -----------

#[test]
fn a_voided_flip_sends_no_opening() {
    let mut voided = 0;
    for seed in 0..10 {
        let mut p = Pair::new(Rules::for_mode(Mode::Flip), 4000 + seed);
        let mut rng = <rand_pcg::Pcg64 as rand::SeedableRng>::seed_from_u64(seed);
        p.players[1] = Player::Idle;
        let mut steps = 0;
        let flip = loop {
            steps += 1;
            assert!(steps < STEPS, "seed {seed}: no flip came up");
            p.step();
            if !p.sessions[1].my_turn() {
                continue;
            }
            let v = p.sessions[1].view().unwrap().clone();
            if v.ply() >= 3
                && let Some(f) = v
                    .legal_moves()
                    .into_iter()
                    .find(|m| matches!(m, Move::Flip { .. }))
            {
                break f;
            }
            let m = random_move(&v, &mut rng).unwrap();
            p.sessions[1].play(p.now, m).unwrap();
        };
        // The guest flips across the host's timeout claim.
        p.step_until(|p| {
            bodies(p.sessions[0].log(), Seat::Host)
                .any(|e| matches!(e.body, Body::ClaimTimeout { .. }))
        });
        p.sessions[1].play_unchecked(p.now, flip).unwrap();
        p.players[1] = Player::Random;
        assert!(p.run(STEPS));
        assert!(p.verdict(0).unwrap().is_clean());
        let log = p.sessions[0].log();
        let claim = bodies(log, Seat::Host)
            .find(|e| matches!(e.body, Body::ClaimTimeout { .. }))
            .unwrap()
            .header
            .seq;
        // The guest's flip that crossed the claim, and what the guest sent next.
        let guest: Vec<_> = bodies(log, Seat::Guest).collect();
        let Some(i) = guest
            .iter()
            .position(|e| matches!(e.body, Body::Flip { .. }) && e.header.ack_seq <= claim)
        else {
            continue;
        };
        voided += 1;
        // What the guest sent with its flip, before it heard from the host
        // again: no opening.
        let ack = guest[i].header.ack_seq;
        assert!(
            !guest[i + 1..]
                .iter()
                .take_while(|e| e.header.ack_seq == ack)
                .any(|e| matches!(e.body, Body::FlipOpen(_))),
            "seed {seed}: the guest opened its entry for a voided flip"
        );
        // Every guest opening answers the host's flip or the host's proceed.
        let mut host_asked = 0;
        let mut guest_opened = 0;
        for e in log {
            match (&e.header.sender, &e.body) {
                (Seat::Guest, Body::FlipOpen(_)) => guest_opened += 1,
                (Seat::Host, Body::Proceed) => host_asked += 1,
                _ => {}
            }
        }
        assert!(guest_opened >= host_asked);
    }
    assert!(voided >= 5, "only {voided} voided flips");
}

// ----- attack 5: a relay grinding the pairing code ------------------------------

/// A relay in the middle with its own keys: it is the guest to the host and
/// the host to the guest, passing the rules on. Returns the two codes.
fn relayed_codes(seed: u64) -> (String, String) {
    use junqi_proto::session::AppEvent;
    let rules = Rules::default();
    let key = |n: u64| ed25519_dalek::SigningKey::from_bytes(&[n as u8; 32]);
    let nonce = |n: u64| {
        let mut b = [0u8; 32];
        b[..8].copy_from_slice(&n.to_le_bytes());
        b
    };
    let t = std::time::Instant::now();
    let layout = junqi_proto::testing::preset(0);
    let mut host = Session::host(
        t,
        rules,
        layout,
        &key(1),
        Seed([1; 32]),
        nonce(seed * 4),
        "h",
    )
    .unwrap();
    let mut relay_guest = Session::join(t, &key(2), Seed([2; 32]), nonce(seed * 4 + 1), "r");
    let mut relay_host = Session::host(
        t,
        rules,
        layout,
        &key(3),
        Seed([3; 32]),
        nonce(seed * 4 + 2),
        "r",
    )
    .unwrap();
    let mut guest = Session::join(t, &key(4), Seed([4; 32]), nonce(seed * 4 + 3), "g");
    let pump = |a: &mut Session, b: &mut Session| {
        for _ in 0..4 {
            while let Some(f) = a.poll_transmit() {
                b.handle_bytes(t, &f);
            }
            while let Some(f) = b.poll_transmit() {
                a.handle_bytes(t, &f);
            }
            for s in [&mut *a, &mut *b] {
                while let Some(e) = s.poll_event() {
                    if let AppEvent::RulesOffered { .. } = e {
                        s.accept(t, layout).unwrap();
                    }
                }
            }
        }
    };
    pump(&mut host, &mut relay_guest);
    pump(&mut relay_host, &mut guest);
    // Nothing about a setup has gone out: nobody confirmed.
    for s in [&host, &relay_guest, &relay_host, &guest] {
        assert!(
            !s.log()
                .iter()
                .any(|e| matches!(e.body, Body::Commit { .. }))
        );
    }
    (host.pairing().unwrap(), guest.pairing().unwrap())
}

#[test]
fn a_relay_cannot_make_the_two_codes_match() {
    // The relay picks its nonce towards the host before the host's is
    // opened, and commits to its nonce towards the guest before the guest's
    // is known: whatever it tries, the two codes agree by chance only.
    let mut matches = 0;
    for seed in 0..200 {
        let (h, g) = relayed_codes(seed);
        matches += usize::from(h == g);
    }
    assert_eq!(matches, 0, "codes matched {matches} times in 200 relays");
}

#[test]
fn the_host_opens_its_nonce_only_after_the_guests_and_commits_only_after_confirmation() {
    let mut p = Pair::new(Rules::default(), 5);
    p.auto_confirm = false;
    // Until both show the code (idling on would run into the pairing deadline).
    p.step_until(|p| p.sessions.iter().all(|s| s.pairing().is_some()));
    let host_log = p.sessions[0].log();
    let hello_nonce = bodies(host_log, Seat::Host)
        .find_map(|e| match &e.body {
            Body::Hello { nonce, .. } => Some(*nonce),
            _ => None,
        })
        .unwrap();
    let opened = bodies(host_log, Seat::Host)
        .find_map(|e| match &e.body {
            Body::Nonce { nonce } => Some(*nonce),
            _ => None,
        })
        .unwrap();
    assert_eq!(hello_nonce, nonce_commitment(&opened));
    assert_ne!(hello_nonce, opened);
    let order: Vec<_> = host_log.iter().map(|e| e.body.kind()).collect();
    assert_eq!(order, ["hello", "hello", "nonce"], "{order:?}");
    // Both show the same code and wait.
    let (a, b) = (
        p.sessions[0].pairing().unwrap(),
        p.sessions[1].pairing().unwrap(),
    );
    assert_eq!(a, b);
    assert_eq!(a, pairing_code(&p.sessions[0].game_id()));
    assert!(p.sessions.iter().all(|s| s.view().is_none()));
    // Confirming starts the game.
    for i in 0..2 {
        let now = p.clock(i);
        p.sessions[i].confirm_pairing(now).unwrap();
    }
    assert!(p.run(STEPS));
    assert!(p.verdict(0).unwrap().is_clean());
}

/// A game that ended unplayed on the pairing deadline: no result, nobody
/// blamed, nothing about the setup sent by the side that never confirmed.
fn assert_pairing_timed_out(p: &Pair, i: usize) {
    use junqi_proto::session::AppEvent;
    let v = p.verdict(i).expect("a verdict");
    assert_eq!(v.reason, Some(FaultKind::PairingTimeout), "{v:?}");
    assert_eq!((v.cheater, v.result), (None, None), "{v:?}");
    assert!(p.sessions[i].view().is_none());
    assert!(
        p.events[i]
            .iter()
            .any(|e| matches!(e, AppEvent::Verdict(w) if w == v))
    );
}

#[test]
fn a_pairing_code_nobody_confirms_ends_the_game_unplayed_and_unblamed() {
    use junqi_proto::session::PAIRING_TIMEOUT;
    let mut p = Pair::new(Rules::default(), 7);
    p.auto_confirm = false;
    p.step_until(|p| p.sessions.iter().all(|s| s.pairing().is_some()));
    let shown = p.now;
    assert!(p.run(STEPS));
    // On the deadline, not before (the guest saw its code a one-way trip
    // after the host).
    assert!(p.now >= shown + PAIRING_TIMEOUT - Duration::from_secs(5));
    assert!(p.now <= shown + PAIRING_TIMEOUT, "{:?}", p.now - shown);
    for i in 0..2 {
        assert_pairing_timed_out(&p, i);
        let sent: Vec<_> = bodies(
            p.sessions[i].log(),
            junqi_proto::wire::seat_of(p.sessions[i].side()),
        )
        .map(|e| e.body.kind())
        .collect();
        assert!(!sent.contains(&"commit"), "{sent:?}");
    }
}

#[test]
fn a_side_whose_player_never_confirms_ends_unblamed_on_the_pairing_deadline() {
    // A move clock long enough that the side that confirmed waits for the
    // commitment longer than the pairing deadline: both end on the deadline.
    let rules = Rules {
        move_seconds: 600,
        ..Rules::default()
    };
    let mut p = Pair::new(rules, 8);
    p.auto_confirm = false;
    p.step_until(|p| p.sessions.iter().all(|s| s.pairing().is_some()));
    let now = p.clock(1);
    p.sessions[1].confirm_pairing(now).unwrap();
    assert!(p.run(STEPS));
    for i in 0..2 {
        assert_pairing_timed_out(&p, i);
    }
    // With the default clock the side that confirmed gives up first, as a
    // handshake the peer never completed; still nobody is blamed.
    let mut p = Pair::new(Rules::default(), 9);
    p.auto_confirm = false;
    p.step_until(|p| p.sessions.iter().all(|s| s.pairing().is_some()));
    let now = p.clock(0);
    p.sessions[0].confirm_pairing(now).unwrap();
    assert!(p.run(STEPS));
    assert_pairing_timed_out(&p, 1);
    let v = p.verdict(0).unwrap();
    assert_eq!(
        (v.cheater, v.reason.clone()),
        (None, Some(FaultKind::NoHandshake))
    );
}

#[test]
fn a_host_nonce_that_does_not_open_its_commitment_is_blamed() {
    let mut p = Pair::new(Rules::default(), 6);
    p.sessions[0].set_cheats(rewrite("nonce", 0, Some(Body::Nonce { nonce: [9; 32] })));
    let v = p.run_until_verdict(1, STEPS).unwrap();
    assert_eq!(v.cheater, Some(Side::South), "{v:?}");
    assert!(p.sessions[1].pairing().is_none());
}

// ----- attack 6: honest sides ending with different results ---------------------

#[test]
fn honest_pairs_agree_under_random_latency_and_clock_offsets() {
    let mut crossings = 0;
    for mode in [Mode::Dark, Mode::Open, Mode::Flip] {
        for seed in 0..8u64 {
            let offsets = [
                Duration::from_secs(seed * 3),
                Duration::from_secs(1000 - seed),
            ];
            let mut p = Pair::with_clocks(Rules::for_mode(mode), 6000 + seed, offsets);
            p.latency = Duration::ZERO;
            p.jitter = Duration::from_secs(2);
            p.players = [Player::Slow, Player::Slow];
            assert!(p.run(STEPS * 2), "{mode:?} {seed}: did not finish");
            let (a, b) = (p.verdict(0).unwrap(), p.verdict(1).unwrap());
            assert!(a.is_clean() && b.is_clean(), "{mode:?} {seed}: {a:?} {b:?}");
            assert_eq!(a.result, b.result, "{mode:?} {seed}");
            assert_eq!(a.record, b.record, "{mode:?} {seed}");
            crossings += p.sessions[0]
                .log()
                .iter()
                .filter(|e| matches!(e.body, Body::ClaimTimeout { .. }))
                .count();
        }
    }
    // Slow players run out of time: timeouts are claimed and agreed.
    assert!(crossings > 0);
}

#[test]
fn honest_pairs_agree_when_latency_exceeds_the_grace() {
    // Latency above the grace makes late moves cross timeout claims: the
    // crossing rule voids the move on both sides.
    for mode in [Mode::Dark, Mode::Open, Mode::Flip] {
        for seed in 0..6u64 {
            let mut p = Pair::new(Rules::for_mode(mode), 6100 + seed);
            for s in &mut p.sessions {
                s.set_grace(Duration::from_secs(2));
            }
            p.latency = Duration::from_millis(2100);
            p.jitter = Duration::from_millis(1500);
            p.players = [Player::Slow, Player::Slow];
            assert!(p.run(STEPS * 2), "{mode:?} {seed}: did not finish");
            let (a, b) = (p.verdict(0).unwrap(), p.verdict(1).unwrap());
            assert_eq!(a.result, b.result, "{mode:?} {seed}: {a:?} {b:?}");
            assert!(a.is_clean() && b.is_clean(), "{mode:?} {seed}: {a:?} {b:?}");
        }
    }
}

// ----- attack 7: unbounded logging after the game --------------------------------

#[test]
fn a_flood_after_the_end_is_not_logged_for_ever() {
    let mut p = Pair::new(Rules::default(), 7000);
    p.sessions[1].set_cheats(Cheats {
        refuse_reveal: true,
        ..Cheats::default()
    });
    // Play until the honest host has finished and waits for the reveal.
    p.step_until(|p| p.sessions[0].result().is_some());
    let before = p.sessions[0].log().len();
    for _ in 0..50_000 {
        let f = p.sessions[1].forge(Body::OfferDraw).unwrap();
        p.sessions[0].handle_bytes(p.now, &f);
    }
    let v = p.sessions[0].verdict().expect("the flood ends the audit");
    assert_eq!(v.cheater, Some(Side::North), "{v:?}");
    assert!(
        p.sessions[0].log().len() <= before + junqi_proto::session::MAX_AFTER_END as usize + 1,
        "{} messages logged",
        p.sessions[0].log().len() - before
    );
}

// ----- attack 8: the guest choosing who moves first -------------------------------

#[test]
fn a_grinding_guest_does_not_choose_who_moves_first() {
    // The guest tries 8 nonces and keeps the one that, as far as it can
    // tell from the host's hello, makes it move first. It can tell nothing:
    // the host's nonce is hidden behind its commitment.
    use junqi_proto::session::game_id;
    let mut first = 0;
    let games: u64 = 64;
    for g in 0..games {
        let t = std::time::Instant::now();
        let host_key = ed25519_dalek::SigningKey::from_bytes(&[200; 32]);
        let mut host_nonce = [0u8; 32];
        host_nonce[..8].copy_from_slice(&(g * 7919).to_le_bytes());
        let mut host = Session::host(
            t,
            Rules::default(),
            junqi_proto::testing::preset(1),
            &host_key,
            Seed([5; 32]),
            host_nonce,
            "h",
        )
        .unwrap();
        let hello_bytes = host.poll_transmit().unwrap();
        let hello: Envelope<Body> = junqi_proto::frame::decode_payload(&hello_bytes[4..]).unwrap();
        let Body::Hello { key, nonce, .. } = hello.body else {
            panic!("not a hello")
        };
        let guest_key = ed25519_dalek::SigningKey::from_bytes(&[g as u8; 32]);
        let gk = guest_key.verifying_key().to_bytes();
        // The guest's best guess treats the commitment as the nonce.
        let best = (0..8u8)
            .map(|i| [i; 32])
            .find(|n| game_id(&Rules::default(), (&key, &nonce), (&gk, n))[31] & 1 == 1)
            .unwrap_or([0; 32]);
        let mut guest = Session::join(t, &guest_key, Seed([7; 32]), best, "g");
        guest.handle_bytes(t, &hello_bytes);
        guest.accept(t, junqi_proto::testing::preset(3)).unwrap();
        while let Some(f) = guest.poll_transmit() {
            host.handle_bytes(t, &f);
        }
        while let Some(f) = host.poll_transmit() {
            guest.handle_bytes(t, &f);
        }
        let id = guest.game_id();
        assert_eq!(id, host.game_id());
        first += u64::from(id[31] & 1 == 1);
    }
    // Fair coin: 32 expected; the grinding guest would get 64.
    assert!(
        (16..=48).contains(&first),
        "the guest moved first in {first} of {games}"
    );
}

// ----- read in the code: a lying no-moves reply, an open draw offer, misplaced blame --

#[test]
fn a_lying_no_moves_reply_is_blamed_by_the_audit() {
    let mut caught = 0;
    for seed in 0..80u64 {
        let mut p = Pair::new(Rules::default(), 9000 + seed);
        // Whatever the truth, the adversary says it cannot move either.
        p.sessions[1].set_cheats(rewrite(
            "no-moves-reply",
            0,
            Some(Body::NoMovesReply { can_move: false }),
        ));
        assert!(p.run(STEPS));
        let claimed =
            bodies(p.sessions[0].log(), Seat::Host).any(|e| matches!(e.body, Body::NoMoves));
        if !claimed {
            continue;
        }
        let v = p.verdict(0).unwrap();
        if v.cheater.is_some() {
            assert_eq!(v.cheater, Some(Side::North), "{v:?}");
            assert_eq!(v.reason, Some(FaultKind::FalseNoMovesReply(false)), "{v:?}");
            caught += 1;
        }
        if caught >= 2 {
            return;
        }
    }
    panic!("only {caught} lying replies in 80 games");
}

#[test]
fn an_unanswered_draw_offer_is_declined_by_the_answerers_own_clock() {
    let mut p = Pair::new(Rules::default(), 9100);
    p.hold_turn(1, 3, 2);
    p.players[1] = Player::Random;
    let now = p.clock(1);
    p.sessions[1].offer_draw(now).unwrap();
    // A second offer in the same turn is refused locally…
    assert!(p.sessions[1].offer_draw(now).is_err());
    // …and the host's player never answers: its session declines at the
    // deadline, and the game goes on.
    assert!(p.run(STEPS));
    let host = p.sessions[0].log();
    assert!(bodies(host, Seat::Host).any(|e| matches!(e.body, Body::DeclineDraw)));
    assert!(p.verdict(0).unwrap().is_clean());
    assert_eq!(p.verdict(0).unwrap().result, p.verdict(1).unwrap().result);
}

#[test]
fn a_draw_offer_never_answered_by_the_peer_forfeits_it_and_repeated_offers_are_blamed() {
    // The adversary swallows its answer: the offerer claims after the deadline.
    let mut p = Pair::new(Rules::default(), 9200);
    p.sessions[1].set_cheats(Cheats {
        rewrites: vec![Rewrite {
            kind: "decline-draw",
            nth: 0,
            with: None,
            every: true,
        }],
        ..Cheats::default()
    });
    p.hold_turn(0, 4, 3);
    let now = p.clock(0);
    p.sessions[0].offer_draw(now).unwrap();
    let v = p.run_until_verdict(0, STEPS).unwrap();
    assert_eq!(
        v.result,
        Some(GameResult::Win {
            winner: Side::South,
            reason: WinReason::Forfeit
        }),
        "{v:?}"
    );
    // Two offers in one turn from the adversary.
    let mut p = Pair::new(Rules::default(), 9300);
    p.hold_turn(1, 3, 4);
    for _ in 0..2 {
        let f = p.sessions[1].forge(Body::OfferDraw).unwrap();
        p.inject(1, f);
    }
    let v = p.run_until_verdict(0, STEPS).unwrap();
    assert_honest_wins_and_blames(&v, 0, "two offers");
}

#[test]
fn in_an_open_game_a_sides_own_illegal_move_is_blamed_on_itself() {
    let mut p = Pair::new(Rules::for_mode(Mode::Open), 9400);
    p.hold_turn(0, 0, 5);
    // A mine moves: the host's own referee refuses it.
    let v = p.sessions[0].view().unwrap().clone();
    let mine = v
        .board()
        .points()
        .find(|&pt| {
            matches!(
                v.at(pt),
                Some(Seen::Piece {
                    side: Side::South,
                    rank: Some(junqi_game::Rank::Landmine),
                    ..
                })
            )
        })
        .unwrap();
    let to = *v.board().road_neighbours(mine).first().unwrap();
    let now = p.clock(0);
    let _ = p.sessions[0].play_unchecked(now, Move::Step { from: mine, to });
    let v = p.run_until_verdict(0, STEPS).unwrap();
    assert_eq!(v.cheater, Some(Side::South), "{v:?}");
}

// ----- any adversary -----------------------------------------------------------------

proptest! {
    // 48 cases by default; PROPTEST_CASES=N for a longer run.
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(48)
    ))]

    /// A random adversary: some of its messages are replaced by random signed
    /// messages or withheld, random signed messages are sent at random
    /// moments, timeout claims with any acknowledgement at any moment,
    /// strangers open streams, and either side is restored from any earlier
    /// point of its journal. The honest side never panics, is never blamed
    /// (by itself or by a third party reading its log), never loses on time
    /// or by forfeit, and keeps a bounded log.
    #[test]
    fn an_honest_side_survives_any_adversary(seed in any::<u64>(), mode in 0..3usize, n in 1..4usize) {
        adversary_case(seed, mode, n)?;
    }
}

/// A stranger's stream start at the honest side: a random start, or the
/// honest side's own game with a forged or missing signature.
fn stranger_start(
    p: &mut Pair,
    honest: usize,
    rng: &mut rand_pcg::Pcg64,
) -> Result<(), TestCaseError> {
    use junqi_proto::saved::StreamStart;
    let mut start = StreamStart {
        game: rand::Rng::random(rng),
        have: rand::Rng::random_range(rng, 0..200),
        have_last: rand::Rng::random(rng),
        sig: [0; 64],
    };
    if rand::Rng::random_bool(rng, 0.5) {
        start.game = p.sessions[honest].game_id();
    }
    if rand::Rng::random_bool(rng, 0.3) {
        start.game = [0; 32];
    }
    for b in &mut start.sig {
        *b = rand::Rng::random(rng);
    }
    let now = p.clock(honest);
    let s = &mut p.sessions[honest];
    let (log, done) = (s.log().len(), s.is_done());
    prop_assert!(s.accept_stream_start(now, start, &[9; 32]).is_err() || done);
    prop_assert!(s.poll_transmit().is_none(), "sent to a stranger");
    prop_assert_eq!(s.log().len(), log);
    Ok(())
}

/// One case of the property above.
fn adversary_case(seed: u64, mode: usize, n: usize) -> Result<(), TestCaseError> {
    let mode = [Mode::Dark, Mode::Open, Mode::Flip][mode];
    let mut rng = <rand_pcg::Pcg64 as rand::SeedableRng>::seed_from_u64(seed);
    let (honest, adversary) = (usize::from(seed & 1 == 1), usize::from(seed & 1 == 0));
    let mut p = Pair::new(Rules::for_mode(mode), seed);
    let kinds = [
        "step",
        "attack",
        "table",
        "label",
        "flip",
        "flip-open",
        "flag-open",
        "offer-draw",
        "decline-draw",
        "no-moves-reply",
        "reveal",
        "commit",
        "hello",
        "nonce",
    ];
    let rewrites = (0..n)
        .map(|_| Rewrite {
            kind: kinds[rand::Rng::random_range(&mut rng, 0..kinds.len())],
            nth: rand::Rng::random_range(&mut rng, 0..6),
            with: rand::Rng::random_bool(&mut rng, 0.8).then(|| arbitrary_body(&mut rng)),
            every: false,
        })
        .collect();
    p.sessions[adversary].set_cheats(Cheats {
        rewrites,
        ..Cheats::default()
    });
    for step in 0..STEPS {
        if p.sessions[honest].is_done() {
            break;
        }
        if step % 97 == 13 && rand::Rng::random_bool(&mut rng, 0.2) {
            let body = arbitrary_body(&mut rng);
            if let Some(f) = p.sessions[adversary].forge(body) {
                p.inject(adversary, f);
            }
        }
        // A timeout claim at any moment, acknowledging any number of the
        // honest side's messages (a claim over a move it holds).
        if step % 89 == 7 && rand::Rng::random_bool(&mut rng, 0.15) {
            let ply = p.sessions[honest].view().map_or(0, |v| v.ply());
            let ply = ply.saturating_sub(rand::Rng::random_range(&mut rng, 0..2));
            let have = p.sessions[adversary].received_count();
            let ack = rand::Rng::random_range(&mut rng, 0..=have);
            if let Some(f) = p.sessions[adversary].forge_acking(Body::ClaimTimeout { ply }, ack) {
                p.inject(adversary, f);
            }
        }
        // A stranger opens a stream once the game has an id: refused,
        // nothing sent, nobody blamed.
        if step % 83 == 5
            && rand::Rng::random_bool(&mut rng, 0.1)
            && p.sessions[honest].game_id() != [0; 32]
        {
            stranger_start(&mut p, honest, &mut rng)?;
        }
        // Either side restored from an earlier point of its journal.
        if step % 211 == 17 && rand::Rng::random_bool(&mut rng, 0.05) {
            let who = rand::Rng::random_range(&mut rng, 0..2);
            let len = p.sessions[who].log().len();
            let keep = rand::Rng::random_range(&mut rng, 0..=len);
            p.restore_from_older(who, keep);
        }
        p.step();
    }
    let s = &p.sessions[honest];
    assert!(s.log().len() < 4000, "log of {}", s.log().len());
    if let Some(v) = s.verdict() {
        assert_ne!(v.cheater, Some(side(honest)), "{:?}", v);
    }
    // A third party reading the honest side's log never blames it either.
    if let Ok(v) = junqi_proto::log_audit::audit_log(s.log(), p.now) {
        assert_ne!(v.cheater, Some(side(honest)), "third party: {:?}", v);
    }
    if let Some(GameResult::Win { winner, reason }) = s.result() {
        assert!(
            winner == side(honest) || !matches!(reason, WinReason::Forfeit | WinReason::Timeouts),
            "the honest side lost by {:?}",
            reason
        );
    }
    Ok(())
}

// ----- a host offering rules no game can be played under -------------------------------

/// Rules a hostile host may offer that no game can be played under: each crashed or
/// deadlocked a guest that took them (flip on the big board, a quiet-move draw before the
/// first move, no time to move).
fn unplayable_rules() -> Vec<Rules> {
    vec![
        Rules {
            four_player_board: true,
            ..Rules::for_mode(Mode::Flip)
        },
        Rules {
            quiet_draw_plies: 0,
            ..Rules::for_mode(Mode::Open)
        },
        Rules {
            quiet_draw_plies: 0,
            ..Rules::default()
        },
        Rules {
            move_seconds: 0,
            ..Rules::for_mode(Mode::Flip)
        },
    ]
}

#[test]
fn a_host_offering_unplayable_rules_is_blamed_before_anything_is_committed() {
    let t = std::time::Instant::now();
    for (i, rules) in unplayable_rules().into_iter().enumerate() {
        let problem = rules.two_player_problem().expect("unplayable");
        // An honest host refuses to offer them.
        let key = ed25519_dalek::SigningKey::from_bytes(&[9; 32]);
        let layout = junqi_proto::testing::preset(1);
        assert!(Session::host(t, rules, layout, &key, Seed([1; 32]), [2; 32], "h").is_err());
        // A hostile one signs a hello with them.
        let mut transcript = junqi_proto::envelope::Transcript::new(Seat::Host, &key);
        let hello = transcript
            .seal(Body::Hello {
                key: key.verifying_key().to_bytes(),
                nonce: nonce_commitment(&[2; 32]),
                rules,
                name: "h".into(),
            })
            .unwrap();
        let bytes = junqi_proto::frame::encode_frame(&hello).unwrap();
        let guest_key = ed25519_dalek::SigningKey::from_bytes(&[i as u8 + 20; 32]);
        let mut guest = Session::join(t, &guest_key, Seed([7; 32]), [8; 32], "g");
        guest.handle_bytes(t, &bytes);
        let v = guest.verdict().expect("the guest stops at the hello");
        assert_eq!(v.cheater, Some(Side::South), "{rules:?}: {v:?}");
        assert_eq!(v.reason, Some(FaultKind::UnplayableRules(problem)));
        assert_eq!(v.result, None);
        // Its player was never asked, and it never committed to a setup.
        assert!(guest.accept(t, junqi_proto::testing::preset(3)).is_err());
        while let Some(f) = guest.poll_transmit() {
            let env: Envelope<Body> = junqi_proto::frame::decode_payload(&f[4..]).unwrap();
            assert!(!matches!(env.body, Body::Commit { .. }), "{rules:?}");
        }
    }
}
