//! Fair play against a hostile network (issue 46): the latency rule for
//! timeout claims, a move clock that only a move restarts, a fair order of
//! the reveals at the end, stream starts from strangers, and journals that
//! cannot rewind. Each test is an attack that worked before.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use junqi_game::{GameResult, Mode, Rules, Side, WinReason};
use junqi_proto::envelope::Envelope;
use junqi_proto::session::{Cheats, Session};
use junqi_proto::testing::{Pair, Player, random_move};
use junqi_proto::wire::Body;
use junqi_proto::{FaultKind, Seat};

const STEPS: usize = 200_000;

fn side(i: usize) -> Side {
    if i == 0 { Side::South } else { Side::North }
}

fn bodies(log: &[Envelope<Body>], from: Seat) -> impl Iterator<Item = &Envelope<Body>> {
    log.iter().filter(move |e| e.header.sender == from)
}

/// Sends everything side `from` has queued straight to the other side at
/// `at` (both clocks read the same here).
fn deliver(s: &mut [Session; 2], from: usize, at: std::time::Instant) -> usize {
    let mut n = 0;
    while let Some(f) = s[from].poll_transmit() {
        s[1 - from].handle_bytes(at, &f);
        n += 1;
    }
    n
}

// ----- finding 1: a timeout claim voided a move sent long before the deadline -----

/// The adversary (the guest) holds the host's move, sent 30 ms into its
/// turn, and claims a timeout once the host's deadline has passed, with an
/// `ack_seq` that does not acknowledge the move. Before the latency rule the
/// host voided its own move and took the timeout (four such claims lost it
/// the game by timeouts, nobody blamed). Now the claim is the claimant's
/// violation, in every mode, and a third party reading the host's log never
/// blames the host.
#[test]
fn a_timeout_claim_over_a_move_sent_early_is_the_claimants_violation() {
    for (n, mode) in [Mode::Dark, Mode::Open, Mode::Flip].into_iter().enumerate() {
        for seed in 0..3u64 {
            let seed = 46_100 + 10 * n as u64 + seed;
            let mut p = Pair::new(Rules::for_mode(mode), seed);
            p.hold_turn(0, 2, seed);
            // From now on the adversary never receives the host's messages.
            let held = Rc::new(RefCell::new(Vec::new()));
            let h = held.clone();
            p.tamper = Some(Box::new(move |from, f| {
                if from == 0 {
                    h.borrow_mut().push(f);
                    Vec::new()
                } else {
                    vec![f]
                }
            }));
            let view = p.sessions[0].view().unwrap().clone();
            let mut rng = <rand_pcg::Pcg64 as rand::SeedableRng>::seed_from_u64(seed);
            let m = random_move(&view, &mut rng).unwrap();
            p.now += Duration::from_millis(30);
            let now = p.clock(0);
            p.sessions[0].play(now, m).unwrap();
            // The guest's own claim timer fires after the host's deadline,
            // and its claim does not acknowledge the move.
            let v = p
                .run_until_verdict(0, STEPS)
                .expect("the host reaches a verdict");
            let claim = bodies(p.sessions[0].log(), Seat::Guest)
                .find(|e| matches!(e.body, Body::ClaimTimeout { .. }))
                .expect("the adversary claimed");
            let mv = bodies(p.sessions[0].log(), Seat::Host)
                .filter(|e| {
                    matches!(
                        e.body,
                        Body::Step { .. } | Body::Attack { .. } | Body::Flip { .. }
                    )
                })
                .last()
                .unwrap();
            assert!(
                claim.header.ack_seq <= mv.header.seq,
                "{mode:?}: the claim saw the move"
            );
            assert_eq!(v.cheater, Some(Side::North), "{mode:?} {seed}: {v:?}");
            assert!(
                format!("{:?}", v.reason).contains("ClaimCrossedEarlyMove"),
                "{mode:?} {seed}: {v:?}"
            );
            assert_eq!(
                v.result,
                Some(GameResult::Win {
                    winner: Side::South,
                    reason: WinReason::Forfeit
                }),
                "{mode:?} {seed}"
            );
            if let Ok(a) = junqi_proto::log_audit::audit_log(p.sessions[0].log(), p.now) {
                assert_ne!(a.cheater, Some(Side::South), "third party: {a:?}");
            }
        }
    }
}

/// The same claim, but the host's move was sent at the very end of its move
/// clock (as on a network slower than the bound): the claim voids it on
/// both sides, nobody is blamed, and both keep the same record.
#[test]
fn a_timeout_claim_over_a_move_sent_at_the_deadline_voids_it_on_both_sides() {
    for (n, mode) in [Mode::Dark, Mode::Open, Mode::Flip].into_iter().enumerate() {
        let seed = 46_200 + n as u64;
        let mut p = Pair::new(Rules::for_mode(mode), seed);
        p.hold_turn(0, 2, seed);
        let move_time = Duration::from_secs(u64::from(p.sessions[0].rules().move_seconds));
        let deadline = p.sessions[0].poll_timeout().unwrap();
        // Let the last replies of the previous action arrive.
        let claim_at =
            deadline + junqi_proto::session::DEFAULT_GRACE * 2 + Duration::from_millis(10);
        for _ in 0..20 {
            if p.sessions[1].poll_timeout().is_some_and(|t| t <= claim_at) {
                break;
            }
            p.step();
        }
        assert!(p.sessions[0].my_turn());
        // The move leaves 100 ms before the deadline and takes 5 s to arrive.
        p.latency = Duration::from_secs(5);
        p.now = deadline - Duration::from_millis(100);
        let view = p.sessions[0].view().unwrap().clone();
        let mut rng = <rand_pcg::Pcg64 as rand::SeedableRng>::seed_from_u64(seed);
        let m = random_move(&view, &mut rng).unwrap();
        let now = p.clock(0);
        p.sessions[0].play(now, m).unwrap();
        assert!(move_time > Duration::from_secs(1));
        p.step();
        p.latency = Duration::from_millis(5);
        p.players[0] = Player::Random;
        assert!(p.run(STEPS), "{mode:?}: did not finish");
        let (a, b) = (p.verdict(0).unwrap(), p.verdict(1).unwrap());
        assert!(a.is_clean() && b.is_clean(), "{mode:?}: {a:?} {b:?}");
        assert_eq!(a.record, b.record);
        assert!(
            bodies(p.sessions[0].log(), Seat::Guest)
                .any(|e| matches!(e.body, Body::ClaimTimeout { .. })),
            "{mode:?}: no claim crossed the move"
        );
        let audit = junqi_proto::log_audit::audit_log(p.sessions[0].log(), p.now).unwrap();
        assert!(audit.is_clean(), "{audit:?}");
    }
}

// ----- finding 4: a declined draw offer restarted the offerer's clock ---------------

/// The host offers a draw one second before its move clock runs out; the
/// guest takes 20 s to decline. The host then has the one second it had
/// left (the wait for the answer not counted), not a whole new move clock,
/// and the guest claims a round trip per offer after that.
#[test]
fn a_declined_draw_offer_does_not_restart_the_offerers_clock() {
    for (n, mode) in [Mode::Dark, Mode::Open, Mode::Flip].into_iter().enumerate() {
        let seed = 46_300 + n as u64;
        let mut p = Pair::new(Rules::for_mode(mode), seed);
        p.latency = Duration::ZERO;
        p.hold_turn(0, 2, seed);
        p.players[1] = Player::Idle;
        let deadline = p.sessions[0].poll_timeout().unwrap();
        let t1 = deadline - Duration::from_secs(1);
        p.sessions[0].offer_draw(t1).unwrap();
        assert_eq!(deliver(&mut p.sessions, 0, t1), 1);
        let t2 = t1 + Duration::from_secs(20);
        p.sessions[1].decline_draw(t2).unwrap();
        assert_eq!(deliver(&mut p.sessions, 1, t2), 1);
        let host = p.sessions[0].poll_timeout().unwrap();
        assert!(
            host <= t2 + Duration::from_secs(1),
            "{mode:?}: the offerer's clock restarted: {:?} after the decline",
            host - t2
        );
        let guest = p.sessions[1].poll_timeout().unwrap();
        assert!(
            guest <= t2 + Duration::from_secs(1) + junqi_proto::session::DEFAULT_GRACE * 4,
            "{mode:?}: the claim waits {:?} after the decline",
            guest - t2
        );
        // And the offerer's own clock runs out then: no move after it.
        p.sessions[0].handle_timeout(host);
        let view = p.sessions[0].view().unwrap().clone();
        let mut rng = <rand_pcg::Pcg64 as rand::SeedableRng>::seed_from_u64(seed);
        let m = random_move(&view, &mut rng).unwrap();
        assert!(p.sessions[0].play(host, m).is_err(), "{mode:?}");
    }
}

/// A slow offerer and a slow answerer keep agreeing: the paused clocks
/// resume a message apart on the two sides, and the claim waits for that.
#[test]
fn honest_pairs_agree_with_draw_offers_near_the_deadline() {
    for (n, mode) in [Mode::Dark, Mode::Open, Mode::Flip].into_iter().enumerate() {
        for seed in 0..3u64 {
            let mut p = Pair::new(Rules::for_mode(mode), 46_400 + 10 * n as u64 + seed);
            p.latency = Duration::from_millis(300);
            p.jitter = Duration::from_millis(1500);
            p.players = [Player::Slow, Player::Slow];
            assert!(p.run(STEPS * 2), "{mode:?} {seed}: did not finish");
            let (a, b) = (p.verdict(0).unwrap(), p.verdict(1).unwrap());
            assert!(a.is_clean() && b.is_clean(), "{mode:?} {seed}: {a:?} {b:?}");
            assert_eq!(a.result, b.result);
            for i in 0..2 {
                let v = junqi_proto::log_audit::audit_log(p.sessions[i].log(), p.now).unwrap();
                assert!(v.is_clean(), "{v:?}");
                assert_ne!(v.cheater, Some(side(i)));
            }
        }
    }
}

// ----- findings 5 and 6: the order of the reveals ------------------------------------

fn refuses_to_open() -> Cheats {
    Cheats {
        refuse_reveal: true,
        ..Cheats::default()
    }
}

fn reveals(log: &[Envelope<Body>], from: Seat) -> usize {
    bodies(log, from)
        .filter(|e| matches!(e.body, Body::Reveal { .. }))
        .count()
}

/// The adversary resigns and never opens its setup. Before, the winner
/// opened its setup at once and the resigning side took it home with its
/// own closed. Now the side whose message ended the game opens first: the
/// winner keeps its setup closed and blames the resigner, in dark and flip
/// games and whichever side resigns.
#[test]
fn a_resigning_side_that_never_opens_gets_nothing() {
    for mode in [Mode::Dark, Mode::Flip] {
        for adversary in 0..2 {
            let honest = 1 - adversary;
            let seed = 46_500 + adversary as u64 + 2 * (mode == Mode::Flip) as u64;
            let mut p = Pair::new(Rules::for_mode(mode), seed);
            p.sessions[adversary].set_cheats(refuses_to_open());
            let min_ply = p.sessions[0].rules().resign_after_plies;
            p.hold_turn(adversary, min_ply, seed);
            let now = p.clock(adversary);
            p.sessions[adversary].resign(now).unwrap();
            let v = p.run_until_verdict(honest, STEPS).unwrap();
            let log = p.sessions[honest].log();
            assert_eq!(
                reveals(log, if honest == 0 { Seat::Host } else { Seat::Guest }),
                0,
                "{mode:?}: the winner opened its setup to a side that never opened"
            );
            assert_eq!(v.cheater, Some(side(adversary)), "{mode:?}: {v:?}");
            assert_eq!(v.reason, Some(FaultKind::RefusedToOpen), "{mode:?}");
            assert_eq!(
                v.result,
                Some(GameResult::Win {
                    winner: side(honest),
                    reason: WinReason::Resignation
                })
            );
        }
    }
}

/// Whatever ends a game (flags, no moves, timeouts, draws, resignations of
/// slow players), an honest pair opens both setups one after the other and
/// agrees, and the side whose message ended the game opened first.
#[test]
fn whatever_ends_the_game_the_ender_opens_first_and_both_open() {
    for (n, mode) in [Mode::Dark, Mode::Open, Mode::Flip].into_iter().enumerate() {
        for seed in 0..6u64 {
            let mut p = Pair::new(Rules::for_mode(mode), 46_600 + 10 * n as u64 + seed);
            if seed % 2 == 1 {
                p.players = [Player::Slow, Player::Slow];
            }
            assert!(p.run(STEPS * 2), "{mode:?} {seed}");
            let (a, b) = (p.verdict(0).unwrap(), p.verdict(1).unwrap());
            assert!(a.is_clean() && b.is_clean(), "{mode:?} {seed}: {a:?} {b:?}");
            for i in 0..2 {
                let log = p.sessions[i].log();
                let end = 1;
                assert!(
                    reveals(log, Seat::Host) >= end && reveals(log, Seat::Guest) >= end,
                    "{mode:?} {seed} {i}: {} {} {:?}",
                    reveals(log, Seat::Host),
                    reveals(log, Seat::Guest),
                    p.verdict(i)
                );
                let v = junqi_proto::log_audit::audit_log(log, p.now).unwrap();
                assert!(v.is_clean(), "{v:?}");
                if mode == Mode::Open {
                    // Both setups are public from the start.
                    continue;
                }
                // The first end-of-game opening comes from the side whose
                // message was the last before it: the one that ended the game.
                let at = log
                    .iter()
                    .enumerate()
                    .find(|(_, e)| matches!(e.body, Body::Reveal { .. }))
                    .map(|(k, _)| k)
                    .unwrap();
                let before = log[..at]
                    .iter()
                    .rev()
                    .find(|e| !matches!(e.body, Body::Reveal { .. }))
                    .unwrap();
                assert_eq!(
                    before.header.sender, log[at].header.sender,
                    "{mode:?} {seed}"
                );
            }
        }
    }
}

/// An open game: the adversary takes the other side's opened setup at the
/// start and never opens its own. Before, the game ended with nobody blamed
/// (`NoHandshake`). Now the host opens first and the guest only after
/// checking it: a guest that withholds is blamed, and a host that withholds
/// gets nothing (the guest never opens) and the game ends unplayed.
#[test]
fn an_open_games_withheld_reveal_is_blamed_or_gains_nothing() {
    // The guest withholds after receiving the host's setup.
    let mut p = Pair::new(Rules::for_mode(Mode::Open), 46_700);
    p.sessions[1].set_cheats(refuses_to_open());
    let v = p.run_until_verdict(0, STEPS).unwrap();
    assert_eq!(v.cheater, Some(Side::North), "{v:?}");
    assert_eq!(v.reason, Some(FaultKind::RefusedToOpen), "{v:?}");
    let audit = junqi_proto::log_audit::audit_log(p.sessions[0].log(), p.now);
    if let Ok(a) = audit {
        assert_eq!(a.cheater, Some(Side::North), "third party: {a:?}");
    }
    // The host withholds: the guest never opens its own.
    let mut p = Pair::new(Rules::for_mode(Mode::Open), 46_701);
    p.sessions[0].set_cheats(refuses_to_open());
    let v = p.run_until_verdict(1, STEPS).unwrap();
    assert_eq!(reveals(p.sessions[1].log(), Seat::Guest), 0);
    assert_eq!(v.cheater, None, "{v:?}");
    assert_eq!(v.reason, Some(FaultKind::NoHandshake), "{v:?}");
}

// ----- finding 3: a side restored from an older journal reused its secrets ----------

/// Every attack a side ever put on the wire, by its sequence number: two
/// with the same number and different `R` give the peer `R1 - R2 = (c1 -
/// c2)·S`, a rank difference.
fn attacks_on_the_wire(frames: &[Vec<u8>]) -> Vec<(u64, [u8; 32])> {
    frames
        .iter()
        .filter_map(|f| junqi_proto::frame::decode_payload::<Envelope<Body>>(&f[4..]).ok())
        .filter_map(|e| match e.body {
            Body::Attack { r, .. } => Some((e.header.seq, r)),
            _ => None,
        })
        .collect()
}

fn no_rank_difference(frames: &[Vec<u8>]) {
    let a = attacks_on_the_wire(frames);
    for (i, x) in a.iter().enumerate() {
        for y in &a[i + 1..] {
            assert!(x.0 != y.0 || x.1 == y.1, "two attacks share k = {}", x.0);
        }
    }
}

/// The attacker is restored from a copy of its journal taken before its
/// attack, which the defender has already received. Before, it played on,
/// reusing the attack's sequence number (the battle counter `k`, so `x`)
/// with whatever piece it picked next, and the defender was blamed as
/// replaying. Now the stream start shows the peer holding more of its
/// messages than it remembers: it stops before sending anything, nobody is
/// blamed, and no `k` is ever on the wire twice.
#[test]
fn a_side_restored_from_an_older_journal_stops_before_reusing_a_secret() {
    let mut stopped = 0;
    for seed in 0..6u64 {
        for attacker in 0..2 {
            let seat = if attacker == 0 {
                Seat::Host
            } else {
                Seat::Guest
            };
            let mut p = Pair::new(Rules::default(), 46_800 + seed);
            // Play until the attacker sends an attack; remember its journal then.
            let mut keep = None;
            for _ in 0..STEPS {
                p.step();
                let log = p.sessions[attacker].log();
                if let Some(at) = log
                    .iter()
                    .position(|e| e.header.sender == seat && matches!(e.body, Body::Attack { .. }))
                {
                    keep = Some(at);
                    break;
                }
            }
            let Some(keep) = keep else { continue };
            // The defender receives it (and the battle goes on a little).
            for _ in 0..6 {
                p.step();
            }
            assert!(p.restore_from_older(attacker, keep));
            let sent_before = p.sent[attacker].len();
            p.run(STEPS);
            let v = p.verdict(attacker).expect("the restored side stops");
            assert_eq!(v.cheater, None, "{v:?}");
            assert_eq!(
                v.reason,
                Some(FaultKind::StaleJournal {
                    remembered: p.sessions[attacker]
                        .log()
                        .iter()
                        .filter(|e| e.header.sender == seat)
                        .count() as u64,
                    peer_has: p.sessions[1 - attacker]
                        .log()
                        .iter()
                        .filter(|e| e.header.sender == seat)
                        .count() as u64,
                }),
                "{v:?}"
            );
            assert_eq!(
                p.sent[attacker].len(),
                sent_before,
                "it sent after the restore"
            );
            no_rank_difference(&p.sent[attacker]);
            // The honest peer is never blamed, by itself or by a third party.
            let peer = 1 - attacker;
            if let Some(v) = p.verdict(peer) {
                assert_ne!(v.cheater, Some(side(peer)), "{v:?}");
            }
            if let Ok(a) = junqi_proto::log_audit::audit_log(p.sessions[peer].log(), p.now) {
                assert_ne!(a.cheater, Some(side(peer)), "{a:?}");
            }
            stopped += 1;
        }
    }
    assert!(stopped >= 8, "only {stopped} restores");
}

/// A restored side sends nothing new, neither a move nor a claim, however
/// long it waits, until the peer's stream start has shown what the peer
/// holds of it: a move made in between (a player or a computer acting on the
/// restored view) would reuse a sequence number and battle counter the peer
/// may have seen. Once resynchronised, it moves again.
#[test]
fn a_restored_side_sends_nothing_before_the_peer_says_what_it_holds() {
    let mut checked = 0;
    for seed in 0..6u64 {
        let mut p = Pair::new(Rules::default(), 47_100 + seed);
        p.run(200);
        if p.sessions.iter().any(Session::is_done) {
            continue;
        }
        for i in 0..2 {
            let keep = p.sessions[i].log().len();
            assert!(p.restore_alone(i, keep));
            let now = p.clock(i);
            let s = &mut p.sessions[i];
            assert!(!s.my_turn(), "{seed}: its turn before the resync");
            if let Some(m) = s.view().and_then(|v| v.legal_moves().first().copied()) {
                assert!(s.play(now, m).is_err(), "{seed}: played before the resync");
            }
            assert!(s.offer_draw(now).is_err());
            assert!(s.resign(now).is_err());
            // Whatever the clock says, no claim goes out.
            s.handle_timeout(now + Duration::from_secs(3_600));
            assert!(
                s.poll_transmit().is_none(),
                "{seed}: sent before the resync"
            );
            checked += 1;
        }
        // The stream starts resynchronise both; the game then ends clean.
        let last = p.sessions[1].log().len();
        assert!(p.restore_from_older(1, last));
        assert!(p.run(STEPS), "{seed}");
        let (a, b) = (p.verdict(0).unwrap(), p.verdict(1).unwrap());
        assert!(a.is_clean() && b.is_clean(), "{a:?} {b:?}");
    }
    assert!(checked >= 6, "only {checked}");
}

/// A restore from a copy that lost only what this side received (not what
/// it sent) is no rewind: the peer resends and the game completes clean.
#[test]
fn a_copy_that_lost_only_received_messages_resumes() {
    let mut resumed = 0;
    for seed in 0..6u64 {
        let mut p = Pair::new(Rules::default(), 46_900 + seed);
        p.run(300);
        if p.sessions.iter().any(Session::is_done) {
            continue;
        }
        let log = p.sessions[1].log();
        // Keep everything up to this side's last own message.
        let keep = log
            .iter()
            .rposition(|e| e.header.sender == Seat::Guest)
            .unwrap()
            + 1;
        assert!(p.restore_from_older(1, keep));
        assert!(p.run(STEPS), "{seed}");
        let (a, b) = (p.verdict(0).unwrap(), p.verdict(1).unwrap());
        assert!(a.is_clean() && b.is_clean(), "{a:?} {b:?}");
        resumed += 1;
    }
    assert!(resumed >= 3);
}

// ----- finding 2: bytes from a stranger ------------------------------------------------

fn start_of(bytes: &[u8]) -> junqi_proto::saved::StreamStart {
    junqi_proto::frame::decode_payload(&bytes[4..]).unwrap()
}

/// During a reconnection a stranger opens the stream first: its start is
/// unsigned, signed by another key, signed by the peer for another
/// connection, names another game or none. Each is refused before anything
/// is queued for sending, nobody is blamed, and the real peer then resumes
/// the game to a clean end.
#[test]
fn a_strangers_stream_start_is_refused_unblamed_and_the_peer_resumes() {
    use junqi_proto::saved::StreamRefused;
    for (n, mode) in [Mode::Dark, Mode::Open, Mode::Flip].into_iter().enumerate() {
        let mut p = Pair::new(Rules::for_mode(mode), 47_000 + n as u64);
        p.run(200);
        assert!(!p.sessions[0].is_done());
        p.drop_in_flight();
        let binding = [7u8; 32];
        let real = start_of(&p.sessions[1].stream_start_bound(&binding));
        let mut stranger = Pair::new(Rules::for_mode(mode), 47_100 + n as u64);
        stranger.run(200);
        let foreign = start_of(&stranger.sessions[1].stream_start_bound(&binding));
        let now = p.clock(0);
        let host = &mut p.sessions[0];
        let events_before = host.log().len();
        let cases = [
            (
                junqi_proto::saved::StreamStart {
                    sig: [0; 64],
                    ..real
                },
                StreamRefused::Unauthenticated,
            ),
            (
                junqi_proto::saved::StreamStart {
                    sig: foreign.sig,
                    ..real
                },
                StreamRefused::Unauthenticated,
            ),
            (
                start_of(&p.sessions[1].stream_start_bound(&[8; 32])),
                StreamRefused::Unauthenticated,
            ),
            (foreign, StreamRefused::OtherGame),
            (
                junqi_proto::saved::StreamStart {
                    game: [0; 32],
                    ..real
                },
                StreamRefused::ZeroGame,
            ),
        ];
        let host = &mut p.sessions[0];
        for (start, why) in cases {
            assert_eq!(host.accept_stream_start(now, start, &binding), Err(why));
            assert!(host.poll_transmit().is_none(), "sent to a stranger");
            assert!(
                !std::iter::from_fn(|| host.poll_event())
                    .any(|e| matches!(e, junqi_proto::session::AppEvent::Fault { .. })),
                "blamed somebody"
            );
        }
        assert_eq!(host.log().len(), events_before);
        assert!(!host.is_done());
        // The real peer, on this connection.
        host.accept_stream_start(now, real, &binding).unwrap();
        let guest_start = start_of(&host.stream_start_bound(&binding));
        let now = p.clock(1);
        p.sessions[1]
            .accept_stream_start(now, guest_start, &binding)
            .unwrap();
        assert!(p.run(STEPS));
        let (a, b) = (p.verdict(0).unwrap(), p.verdict(1).unwrap());
        assert!(a.is_clean() && b.is_clean(), "{mode:?}: {a:?} {b:?}");
    }
}
