//! Four seats at one table (issue 47): whole games with engine players at
//! every seat, and one hostile seat (or a hostile host) against three
//! honest ones. Honest seats agree on the result, are never blamed, and
//! every blame names the cheater with evidence a third party can check.

use std::time::Duration;

use junqi_game::{Mode, Rules};
use junqi_proto::commit::piece_salt;
use junqi_proto::four::body::Body4;
use junqi_proto::four::harness::{Relay, Table4, decode, encode, resign_with};
use junqi_proto::four::partner;
use junqi_proto::four::session::FourCheats;
use junqi_proto::four::{
    AuditOutcome, Ending, FourFault, FourSeat, FourVerdict, audit_table, leave_result,
};
use junqi_proto::ot::BattleCheat;
use junqi_proto::rank::WireRank;

const STEPS: usize = 2_000_000;

fn rules(partners_open: bool) -> Rules {
    Rules {
        partners_open,
        ..Rules::four_player(Mode::Dark)
    }
}

fn verdict(t: &Table4, s: FourSeat) -> FourVerdict {
    t.seat(s).verdict().cloned().expect("a verdict")
}

/// The properties every hostile test holds the honest seats to: all done,
/// none blamed, all with one result, and any blame on `cheater` with
/// evidence (its signed message, or the log's audit) that checks.
fn honest_agree(t: &Table4, cheater: Option<FourSeat>) -> Vec<FourVerdict> {
    let honest: Vec<FourSeat> = FourSeat::ALL
        .into_iter()
        .filter(|&s| Some(s) != cheater)
        .collect();
    let vs: Vec<FourVerdict> = honest.iter().map(|&s| verdict(t, s)).collect();
    for (s, v) in honest.iter().zip(&vs) {
        if let Some(b) = &v.blame {
            assert_eq!(Some(b.seat), cheater, "{s} blames an honest seat: {b}");
            if let Some(e) = &b.evidence {
                assert!(
                    e.signed.verify(&t.keys[b.seat.index()].verifying_key()),
                    "the evidence is signed by the blamed seat"
                );
            }
            if let FourFault::Equivocation(e) = &b.fault {
                assert!(e.check(&t.keys[b.seat.index()].verifying_key()));
            }
        }
        // Two honest seats never end with different results. (A seat the
        // host cut off ends with none while the others, which saw the host
        // time it out, finish: a star's host can isolate a seat.)
        for w in &vs {
            if v.result.is_some() && w.result.is_some() {
                assert_eq!(v.result, w.result, "{s}: honest seats agree on the result");
            }
        }
        // A third party reading this seat's log never blames an honest seat.
        if let AuditOutcome::Cheat(b) = audit_table(t.seat(*s).log()) {
            assert_eq!(
                Some(b.seat),
                cheater,
                "the log of {s} blames an honest seat"
            );
        }
    }
    vs
}

#[test]
fn whole_games_end_alike_on_every_seat_with_a_clean_audit() {
    for (seed, partners) in [(1, false), (2, true), (3, false), (4, true)] {
        let mut t = Table4::new(rules(partners), seed);
        assert!(t.run(STEPS), "seed {seed}: the game ends");
        let v = honest_agree(&t, None);
        for x in &v {
            assert_eq!(x.ending, Ending::Played, "seed {seed}: {x:?}");
            assert_eq!(x.blame, None);
            assert!(x.not_opened.is_empty());
            let record = x.record.as_ref().expect("a record");
            let replayed = junqi_game::Game::replay(record, None).expect("the record replays");
            assert!(x.result.is_some());
            assert_eq!(
                replayed.result(),
                x.result,
                "seed {seed}: the engine agrees"
            );
            assert_eq!(x, &v[0], "seed {seed}: every seat ends alike");
        }
        // A third party reading any seat's log finds the same game.
        for s in FourSeat::ALL {
            match audit_table(t.seat(s).log()) {
                AuditOutcome::Clean { record, result } => {
                    assert_eq!(Some(&record), v[0].record.as_ref());
                    assert_eq!(result, v[0].result);
                }
                other => panic!("seed {seed}: {s}'s log audits as {other:?}"),
            }
        }
    }
}

#[test]
fn watching_seats_never_receive_an_unannounced_secret() {
    // Every piece salt of an enemy (and, in 双明, of the partner outside its
    // encrypted reveal) stays off the wire until the reveals at the end,
    // except a flag's, opened when its commander died.
    for (seed, partners) in [(5, false), (6, true)] {
        let mut t = Table4::new(rules(partners), seed);
        assert!(t.run(STEPS));
        let reveal_round = t.seat(FourSeat::South).log().round() - 1;
        for me in FourSeat::ALL {
            for other in FourSeat::ALL.into_iter().filter(|&o| o != me) {
                let flag_slot = junqi_proto::four::seat::slots_of(
                    &junqi_proto::testing::preset(seed as usize * 4 + other.index()),
                    other,
                )
                .iter()
                .position(|&r| r == WireRank::Flag)
                .expect("a flag") as u8;
                let salts: Vec<[u8; 32]> = (0..25u8)
                    .filter(|&s| s != flag_slot)
                    .map(|s| piece_salt(&t.seeds[other.index()], s))
                    .collect();
                for frame in &t.received[me.index()] {
                    let Some(env) = decode(frame) else { continue };
                    if env.signed.header.round >= reveal_round {
                        continue;
                    }
                    for salt in &salts {
                        assert!(
                            !frame.windows(32).any(|w| w == salt),
                            "seed {seed}: {me} received a salt of {other} in round {}",
                            env.signed.header.round
                        );
                    }
                }
            }
        }
        let v = honest_agree(&t, None);
        assert_eq!(v[0].ending, Ending::Played);
    }
}

#[test]
fn a_false_announcement_is_blamed_on_the_attacker_by_every_seat() {
    let mut t = Table4::new(rules(false), 11);
    t.set_cheats(
        FourSeat::East,
        FourCheats {
            false_label: Some(0),
            ..FourCheats::default()
        },
    );
    assert!(t.run(STEPS));
    let v = honest_agree(&t, Some(FourSeat::East));
    for x in &v {
        let b = x.blame.as_ref().expect("blamed");
        assert!(matches!(b.fault, FourFault::Announcement(_)), "{b}");
        assert!(matches!(
            b.evidence.as_deref().map(|e| &e.body),
            Some(Body4::Label(_))
        ));
    }
}

/// Runs seeds until the game reaches the audit with `cheats` at `cheater`;
/// returns how many did.
fn audited_blames(
    cheater: FourSeat,
    cheats: FourCheats,
    partners: bool,
    want: impl Fn(&FourFault) -> bool,
) -> usize {
    let mut reached = 0;
    for seed in 20..26 {
        let mut t = Table4::new(rules(partners), seed);
        t.set_cheats(cheater, cheats);
        assert!(t.run(STEPS), "seed {seed}");
        let v = honest_agree(&t, Some(cheater));
        if v.iter().all(|x| x.ending == Ending::Fault) {
            reached += 1;
            for x in &v {
                let b = x.blame.as_ref().expect("blamed");
                assert!(want(&b.fault), "seed {seed}: {b}");
            }
        } else {
            // The lie made an honest view refuse an announcement: that seat
            // stops with no result (nobody honest is blamed: checked above);
            // the others may time it out (the host too, by its keeper) and
            // play on, unaudited since it does not open its army.
            assert!(
                v.iter()
                    .any(|x| x.ending == Ending::Abandoned && x.result.is_none()),
                "seed {seed}: {v:?}"
            );
            for x in v.iter().filter(|x| x.result.is_some()) {
                assert!(
                    x.record.is_none() && !x.not_opened.is_empty(),
                    "seed {seed}: {x:?}"
                );
            }
        }
    }
    reached
}

#[test]
fn an_attack_with_another_rank_is_named_by_the_audit() {
    let n = audited_blames(
        FourSeat::West,
        FourCheats {
            wrong_rank: Some(WireRank::Bomb),
            ..FourCheats::default()
        },
        false,
        |f| matches!(f, FourFault::Battle(BattleCheat::WrongRank)),
    );
    assert!(n > 0, "some games reach the audit");
}

#[test]
fn a_reused_attack_secret_is_named_by_the_audit() {
    let n = audited_blames(
        FourSeat::South,
        FourCheats {
            reuse_x: true,
            ..FourCheats::default()
        },
        false,
        |f| matches!(f, FourFault::Battle(BattleCheat::WrongRank)),
    );
    assert!(n > 0, "some games reach the audit");
}

#[test]
fn a_changed_piece_is_named_by_the_audit() {
    let n = audited_blames(
        FourSeat::North,
        FourCheats {
            swap_commit: true,
            ..FourCheats::default()
        },
        true,
        |_| true,
    );
    assert!(n > 0, "some games reach the audit");
}

#[test]
fn a_corrupt_table_is_disputed_and_named_by_the_audit() {
    for seed in [30, 31] {
        let mut t = Table4::new(rules(false), seed);
        t.set_cheats(
            FourSeat::North,
            FourCheats {
                corrupt_table: true,
                ..FourCheats::default()
            },
        );
        assert!(t.run(STEPS));
        let v = honest_agree(&t, Some(FourSeat::North));
        for x in &v {
            let b = x.blame.as_ref().expect("blamed");
            assert_eq!(
                b.fault,
                FourFault::Battle(BattleCheat::TableMismatch),
                "{b}"
            );
        }
    }
}

#[test]
fn a_withheld_reveal_leaves_the_others_unblamed_and_agreeing() {
    let mut t = Table4::new(rules(false), 12);
    t.set_cheats(
        FourSeat::East,
        FourCheats {
            withhold_reveal: true,
            ..FourCheats::default()
        },
    );
    assert!(t.run(STEPS));
    let v = honest_agree(&t, Some(FourSeat::East));
    for x in &v {
        assert_eq!(x.not_opened, vec![FourSeat::East]);
        assert_eq!(x.record, None);
        assert_eq!(x.blame, None);
    }
}

#[test]
fn a_false_reveal_is_blamed() {
    let mut t = Table4::new(rules(false), 13);
    t.set_cheats(
        FourSeat::South,
        FourCheats {
            bad_reveal: true,
            ..FourCheats::default()
        },
    );
    assert!(t.run(STEPS));
    for x in honest_agree(&t, Some(FourSeat::South)) {
        let b = x.blame.as_ref().expect("blamed");
        assert!(matches!(b.fault, FourFault::RevealMismatch(_)), "{b}");
    }
}

#[test]
fn a_partner_reveal_to_an_enemy_is_blamed_and_unreadable_to_enemies() {
    let mut t = Table4::new(rules(true), 14);
    t.set_cheats(
        FourSeat::South,
        FourCheats {
            reveal_to: Some(FourSeat::East),
            ..FourCheats::default()
        },
    );
    assert!(t.run(STEPS));
    for x in honest_agree(&t, Some(FourSeat::South)) {
        let b = x.blame.as_ref().expect("blamed");
        assert_eq!(b.fault, FourFault::RevealToEnemy(FourSeat::East));
    }

    // An honest 双明 table: what the enemies hold of a partner reveal does
    // not open with their seeds, whichever key they try.
    let mut t = Table4::new(rules(true), 15);
    assert!(t.run(STEPS));
    let log = t.seat(FourSeat::East).log();
    let partner_round = log.messages(4).expect("the partner round");
    for sender in FourSeat::ALL {
        let Some(Body4::PartnerReveal { to, sealed }) =
            partner_round[sender.index()].as_ref().map(|e| &e.body)
        else {
            panic!("a partner reveal");
        };
        assert_eq!(*to, sender.partner());
        for enemy in FourSeat::ALL
            .into_iter()
            .filter(|e| *e != sender && *e != sender.partner())
        {
            for key_of in [sender, sender.partner()] {
                let theirs = partner::public_key(&t.seeds[key_of.index()]);
                let game = t.seat(enemy).game_id();
                assert!(
                    partner::open(&t.seeds[enemy.index()], &theirs, &game, sender, *to, sealed)
                        .is_err(),
                    "{enemy} reads {sender}'s reveal"
                );
            }
        }
    }
}

#[test]
fn a_lying_partner_reveal_is_disputed_and_named_for_everyone() {
    let mut t = Table4::new(rules(true), 16);
    t.set_cheats(
        FourSeat::West,
        FourCheats {
            partner_lie: true,
            ..FourCheats::default()
        },
    );
    assert!(t.run(STEPS));
    for x in honest_agree(&t, Some(FourSeat::West)) {
        let b = x.blame.as_ref().expect("blamed");
        assert!(matches!(b.fault, FourFault::BadPartnerReveal(_)), "{b}");
    }
}

#[test]
fn a_seat_that_leaves_mid_battle_ends_the_game_by_rules_section_9() {
    for seed in [17, 18] {
        let mut t = Table4::new(rules(false), seed);
        t.set_cheats(
            FourSeat::East,
            FourCheats {
                leave_mid_battle: true,
                ..FourCheats::default()
            },
        );
        assert!(t.run(STEPS));
        let v = honest_agree(&t, Some(FourSeat::East));
        let view = t.seat(FourSeat::South).view().expect("played").clone();
        let want = leave_result(junqi_game::Side::East, |s| view.is_in(s));
        for x in &v {
            assert_eq!(x.ending, Ending::Left(FourSeat::East));
            assert_eq!(x.blame, None);
            assert_eq!(x.result, want);
            assert_eq!(x.not_opened, vec![FourSeat::East]);
        }
        // The battle it left was never announced.
        let last = t.seat(FourSeat::South).log().round() - 2;
        let round = t
            .seat(FourSeat::South)
            .log()
            .messages(last)
            .expect("the leave");
        assert!(matches!(
            round[FourSeat::East.index()].as_ref().map(|e| &e.body),
            Some(Body4::Leave)
        ));
        let before = t
            .seat(FourSeat::South)
            .log()
            .messages(last - 1)
            .expect("the attack");
        assert!(
            before
                .iter()
                .flatten()
                .any(|e| matches!(e.body, Body4::Attack { .. }))
        );
    }
}

#[test]
fn a_host_that_drops_messages_between_seats_blames_nobody() {
    for seed in [40, 41] {
        let mut t = Table4::new(rules(false), seed);
        let mut relayed = 0;
        t.relay = Box::new(move |from, to, _| {
            relayed += 1;
            if relayed > 40 && from == FourSeat::East && to == FourSeat::North {
                Relay::Drop
            } else {
                Relay::Forward
            }
        });
        assert!(t.run(STEPS));
        let v = honest_agree(&t, Some(FourSeat::South));
        for x in &v {
            assert_eq!(x.blame, None, "seed {seed}");
        }
        // North, cut off from East, stops with no result.
        assert_eq!(verdict(&t, FourSeat::North).result, None, "seed {seed}");
    }
}

#[test]
fn a_host_that_reorders_messages_changes_nothing() {
    let mut honest = Table4::new(rules(false), 42);
    assert!(honest.run(STEPS));
    let mut t = Table4::new(rules(false), 42);
    let mut relayed = 0;
    t.relay = Box::new(move |_, _, _| {
        relayed += 1;
        // Every seventh frame is held back behind several later ones.
        if relayed % 7 == 0 {
            Relay::Delay(Duration::from_millis(40))
        } else {
            Relay::Forward
        }
    });
    assert!(t.run(STEPS));
    let v = honest_agree(&t, Some(FourSeat::South));
    for x in &v {
        assert_eq!(x.ending, Ending::Played);
        assert_eq!(x.record, verdict(&honest, FourSeat::East).record);
    }
}

#[test]
fn a_host_showing_seats_different_commitments_is_caught_with_its_signatures() {
    for partners in [false, true] {
        let mut t = Table4::new(rules(partners), 43);
        let key = t.keys[FourSeat::South.index()].clone();
        t.relay = Box::new(move |from, to, frame| {
            let Some(env) = decode(frame) else {
                return Relay::Forward;
            };
            match &env.body {
                Body4::Commit {
                    pieces,
                    seed,
                    ot_key,
                    partner_key,
                } if from == FourSeat::South && to == FourSeat::North => {
                    let mut pieces = pieces.clone();
                    pieces[0][0] ^= 1;
                    let body = Body4::Commit {
                        pieces,
                        seed: *seed,
                        ot_key: *ot_key,
                        partner_key: *partner_key,
                    };
                    Relay::Replace(encode(&resign_with(&key, &env, body)))
                }
                _ => Relay::Forward,
            }
        });
        assert!(t.run(STEPS));
        let v = honest_agree(&t, Some(FourSeat::South));
        let caught = v
            .iter()
            .filter(|x| {
                matches!(
                    x.blame.as_ref().map(|b| &b.fault),
                    Some(FourFault::Equivocation(_))
                )
            })
            .count();
        assert!(caught >= 1, "an honest seat holds two signed versions");
        for x in &v {
            assert_eq!(x.result, None);
        }
    }
}

#[test]
fn a_message_out_of_turn_is_blamed_on_its_signer() {
    // The host answers for a seat that owes nothing: its own signed move
    // in the round another seat owes, shown to East in place of that move.
    let mut t = Table4::new(rules(false), 44);
    let key = t.keys[FourSeat::South.index()].clone();
    let mut done = false;
    t.relay = Box::new(move |from, to, frame| {
        let Some(env) = decode(frame) else {
            return Relay::Forward;
        };
        if !done
            && to == FourSeat::East
            && from != FourSeat::South
            && matches!(env.body, Body4::Move { .. })
        {
            done = true;
            let mut forged = resign_with(&key, &env, env.body.clone());
            forged.signed.header.sender = FourSeat::South;
            let h = forged.signed.header;
            let forged = junqi_proto::four::log::seal(
                &key,
                h.game,
                FourSeat::South,
                h.round,
                &env.witness,
                0,
                env.body.clone(),
            )
            .expect("fits");
            return Relay::Replace(encode(&forged));
        }
        Relay::Forward
    });
    assert!(t.run(STEPS));
    let v = verdict(&t, FourSeat::East);
    let b = v.blame.as_ref().expect("East blames the host");
    assert_eq!(b.seat, FourSeat::South);
    assert!(matches!(b.fault, FourFault::Unexpected(_)), "{b}");
    honest_agree(&t, Some(FourSeat::South));
}

#[test]
fn strangers_and_replays_are_ignored_and_blame_nobody() {
    let mut other = Table4::new(rules(false), 46);
    assert!(other.run(STEPS));
    let foreign: Vec<Vec<u8>> = other.received[0].iter().take(30).cloned().collect();
    let stranger = ed25519_dalek::SigningKey::from_bytes(&[5; 32]);
    let mut t = Table4::new(rules(false), 45);
    let mut n = 0usize;
    let mut old: Vec<Vec<u8>> = Vec::new();
    t.relay = Box::new(move |_, _, frame| {
        n += 1;
        old.push(frame.to_vec());
        // After the pairing: before it, a stranger's hello is a device in
        // the middle, which the codes show (the test below).
        if n < 40 {
            return Relay::Forward;
        }
        match n % 5 {
            // Garbage.
            0 => Relay::Prepend(vec![0xff; n % 40]),
            // Another table's messages.
            1 => Relay::Prepend(foreign[n % foreign.len()].clone()),
            // A stranger's signature on a copy of this message.
            2 => match decode(frame) {
                Some(env) => {
                    Relay::Prepend(encode(&resign_with(&stranger, &env, env.body.clone())))
                }
                None => Relay::Forward,
            },
            // An old message of this table again.
            3 => Relay::Prepend(old[n / 2].clone()),
            _ => Relay::Forward,
        }
    });
    assert!(t.run(STEPS));
    for x in honest_agree(&t, None) {
        assert_eq!(x.ending, Ending::Played);
        assert_eq!(x.blame, None);
    }
}

#[test]
fn a_stranger_in_the_hellos_makes_the_codes_differ_and_nothing_start() {
    // A relay that shows East another table's North: East's roster, game id
    // and code differ from the others'; nobody commits anything, nobody is
    // blamed.
    let mut other = Table4::new(rules(false), 48);
    assert!(other.run(STEPS));
    let north_frames: Vec<Vec<u8>> = other.received[FourSeat::East.index()]
        .iter()
        .filter(|f| {
            decode(f).is_some_and(|e| {
                e.signed.header.sender == FourSeat::North && e.signed.header.round < 2
            })
        })
        .cloned()
        .collect();
    let mut sent = false;
    let mut t = Table4::with_relay(
        rules(false),
        47,
        Box::new(move |from, to, frame| {
            let round = decode(frame).map(|e| e.signed.header.round);
            if from == FourSeat::North && to == FourSeat::East && round.is_some_and(|r| r < 2) {
                if !sent {
                    sent = true;
                    return Relay::Replace(north_frames[0].clone());
                }
                return Relay::Replace(north_frames[1].clone());
            }
            Relay::Forward
        }),
    );
    assert!(t.run(STEPS));
    // Whoever got a code got it from its own roster: East's differs.
    let codes: Vec<Option<String>> = FourSeat::ALL
        .iter()
        .map(|&s| t.seat(s).pairing_code().map(str::to_owned))
        .collect();
    if codes[1].is_some() {
        assert!(
            FourSeat::ALL
                .iter()
                .all(|s| *s == FourSeat::East || codes[s.index()] != codes[1])
        );
    }
    for s in FourSeat::ALL {
        let v = verdict(&t, s);
        assert!(matches!(v.ending, Ending::Unplayed(_)), "{s}: {v:?}");
        assert_eq!(v.blame, None);
        // Nothing about a setup was sent by anyone.
        assert!(
            t.received[s.index()]
                .iter()
                .all(|f| !decode(f).is_some_and(|e| matches!(e.body, Body4::Commit { .. })))
        );
    }
}

#[test]
fn a_silent_seat_is_timed_out_by_the_host_and_goes_out_at_the_fifth() {
    // West's clock is the host's; the host's (South's) is the seat's
    // before it in turn order, West's: a host that relays but never moves
    // goes out at its fifth timeout like any seat.
    for silent in [FourSeat::West, FourSeat::South] {
        let mut t = Table4::new(rules(false), 50);
        t.no_moves[silent.index()] = true;
        assert!(t.run(STEPS));
        let v = honest_agree(&t, None);
        for x in &v {
            assert_eq!(x.ending, Ending::Played, "{x:?}");
            assert_eq!(x.blame, None);
            assert_eq!(x, &v[0]);
        }
        let record = v[0].record.as_ref().expect("audited");
        let timeouts = record
            .actions
            .iter()
            .filter(|(s, a)| *s == silent.side() && *a == junqi_game::Action::Timeout)
            .count();
        assert_eq!(timeouts, 5, "the fifth timeout puts the seat out");
        assert!(
            record
                .actions
                .iter()
                .all(|(s, a)| *s != silent.side() || *a == junqi_game::Action::Timeout)
        );
        let game = junqi_game::Game::replay(record, None).expect("replays");
        assert_eq!(
            game.position().out_reason(silent.side()),
            Some(junqi_game::WinReason::Timeouts)
        );
        assert_eq!(game.result(), v[0].result);
    }
}

#[test]
fn a_move_crossing_the_hosts_timeout_claim_is_void_on_every_seat() {
    let mut t = Table4::new(rules(false), 51);
    // East moves 2 ms before the host's claim reaches it: after the host
    // claimed, within the claim margin of its deadline.
    t.think[FourSeat::East.index()] = Duration::from_millis(30_000 + 4_000 - 2);
    assert!(t.run(STEPS));
    let v = honest_agree(&t, None);
    for x in &v {
        assert_eq!(x.ending, Ending::Played, "{x:?}");
        assert_eq!(x, &v[0]);
    }
    assert!(t.events[FourSeat::East.index()].contains(&junqi_proto::four::FourEvent::MoveVoided));
    let record = v[0].record.as_ref().expect("audited");
    assert!(
        record
            .actions
            .iter()
            .any(|(s, a)| *s == junqi_game::Side::East && *a == junqi_game::Action::Timeout)
    );
}

#[test]
fn a_host_move_crossing_its_keepers_claim_voids_the_claim_on_every_seat() {
    // The host (South) moves after West, its keeper (the seat before it
    // in turn order), claimed its timeout. After West's own move the
    // host's clock starts a hop (5 ms) after West's: West claims at T + 2L
    // - 5 ms on the host's clock and the claim reaches the host at T + 2L,
    // so a move at T + 2L - 5 ms crosses it. The host relayed its move to
    // every other seat first: the claim is void and the move stands.
    let mut t = Table4::new(rules(false), 53);
    t.think[FourSeat::South.index()] = Duration::from_millis(30_000 + 4_000 - 5);
    assert!(t.run(STEPS));
    let v = honest_agree(&t, None);
    for x in &v {
        assert_eq!(x.ending, Ending::Played, "{x:?}");
        assert_eq!(x.blame, None);
        assert_eq!(x, &v[0]);
    }
    assert!(
        t.events[FourSeat::West.index()].contains(&junqi_proto::four::FourEvent::ClaimVoided),
        "the claims crossed"
    );
    assert!(v[0].record.is_some(), "audited");
}

#[test]
fn a_host_claiming_a_timeout_over_an_early_move_is_caught_by_the_mover() {
    // The host claims at once: East's move, sent at once, crosses the claim.
    // East holds the host's signed claim and its own early move; the host
    // decides what the two others see, so they go on without East.
    let mut t = Table4::new(rules(false), 52);
    t.set_cheats(
        FourSeat::South,
        FourCheats {
            early_claim: true,
            ..FourCheats::default()
        },
    );
    t.latency = Duration::from_millis(20);
    assert!(t.run(STEPS));
    let east = verdict(&t, FourSeat::East);
    let b = east.blame.as_ref().expect("East blames the host");
    assert_eq!(b.seat, FourSeat::South);
    assert!(
        matches!(b.fault, FourFault::ClaimCrossedEarlyMove { .. }),
        "{b}"
    );
    let claim = b.evidence.as_ref().expect("the signed claim");
    assert_eq!(claim.body, Body4::Timeout);
    assert!(
        claim
            .signed
            .verify(&t.keys[FourSeat::South.index()].verifying_key())
    );
    for s in [FourSeat::North, FourSeat::West] {
        let v = verdict(&t, s);
        assert!(
            v.blame.as_ref().is_none_or(|b| b.seat == FourSeat::South),
            "{v:?}"
        );
    }
}

#[test]
fn two_players_on_the_big_board_play_whole_dark_and_open_games() {
    use junqi_proto::testing::Pair;
    let mut commander_deaths = 0;
    for mode in [Mode::Dark, Mode::Open] {
        for seed in 0..6 {
            let rules = Rules {
                four_player_board: true,
                ..Rules::for_mode(mode)
            };
            let mut p = Pair::new(rules, seed);
            assert!(p.run(1_000_000), "{mode:?} seed {seed}");
            let (a, b) = (
                p.verdict(0).cloned().unwrap(),
                p.verdict(1).cloned().unwrap(),
            );
            assert!(
                a.is_clean() && b.is_clean(),
                "{mode:?} seed {seed}: {a:?} {b:?}"
            );
            assert_eq!(a.result, b.result);
            let record = a.record.as_ref().expect("a record");
            assert_eq!(Some(record), b.record.as_ref());
            assert!(record.rules.four_player_board);
            let game = junqi_game::Game::replay(record, None).expect("replays");
            assert_eq!(game.result(), a.result);
            commander_deaths += game
                .events()
                .iter()
                .filter(|e| matches!(e, junqi_game::Event::FlagRevealed { .. }))
                .count();
        }
    }
    // A commander died somewhere: a flag opening on the big board checked out.
    assert!(commander_deaths > 0);
}

/// A random signed message a hostile seat could send in place of its own.
fn random_body(rng: &mut impl rand::Rng, rules: &Rules) -> Body4 {
    use junqi_proto::commit::PieceOpening;
    use junqi_proto::ot::{OtResponse, OtReveal};
    let alphabet = junqi_proto::wire::table_from_rules(rules).alphabet().len();
    let point = |rng: &mut dyn rand::RngCore| (rng.next_u32() % 129) as u8;
    match rng.random_range(0..17) {
        16 => Body4::HandOver {
            sealed: partner::Sealed {
                ct: (0..rng.random_range(0..80)).map(|_| rng.random()).collect(),
                tag: rng.random(),
            },
        },
        13 => Body4::OfferDraw,
        14 => Body4::AcceptDraw,
        15 => Body4::DeclineDraw,
        0 => Body4::Move {
            from: point(rng),
            to: point(rng),
        },
        1 => Body4::Attack {
            from: point(rng),
            to: point(rng),
            r: rng.random(),
        },
        2 => Body4::Table(OtResponse {
            entries: rng.random(),
            label_hashes: (0..alphabet + usize::from(rng.random_bool(0.2)))
                .map(|_| rng.random())
                .collect(),
        }),
        3 => Body4::Label(OtReveal {
            outcome: rng.random_range(0..64),
            label: rng.random(),
        }),
        4 => Body4::FlagOpen(PieceOpening {
            square: rng.random_range(0..30),
            rank: WireRank::Flag,
            salt: rng.random(),
        }),
        5 => Body4::NoMoves,
        6 => Body4::Resign,
        7 => Body4::Leave,
        8 => Body4::Dispute,
        9 => Body4::Timeout,
        10 => Body4::Reveal {
            seed: junqi_proto::Seed(rng.random()),
            ranks: vec![WireRank::Flag; 25],
        },
        11 => Body4::Confirm {
            code: format!(
                "{:03}-{:03}",
                rng.random_range(0..1000),
                rng.random_range(0..1000)
            ),
        },
        _ => Body4::Commit {
            pieces: (0..25).map(|_| rng.random()).collect(),
            seed: rng.random(),
            ot_key: rng.random(),
            partner_key: rng.random(),
        },
    }
}

#[test]
fn honest_seats_survive_a_random_hostile_seat() {
    // One seat (a guest, or the host) rewrites, withholds, delays or shows
    // two versions of its own signed messages at random. The three honest
    // seats never panic, are never blamed, never end with different
    // results, and a third party reading their logs never blames them.
    use rand::{Rng, SeedableRng};
    let cases: u64 = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(24);
    let (mut caught, mut clean, mut handed) = (0, 0, 0);
    let first: u64 = std::env::var("FIRST_CASE")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    for case in first..cases {
        let cheater = FourSeat::ALL[(case % 4) as usize];
        let rate = [0.002, 0.01, 0.05][(case % 3) as usize];
        // 四暗, 双明 and 全明 in turn.
        let rules = match (case / 3) % 3 {
            0 => rules(false),
            1 => rules(true),
            _ => Rules::four_player(Mode::Open),
        };
        let key = {
            let t = Table4::new(rules, 200 + case);
            t.keys[cheater.index()].clone()
        };
        let mut rng = rand_pcg::Pcg64::seed_from_u64(case);
        let relay = Box::new(move |from: FourSeat, _to: FourSeat, frame: &[u8]| {
            if from != cheater || !rng.random_bool(rate) {
                return Relay::Forward;
            }
            let Some(env) = decode(frame) else {
                return Relay::Forward;
            };
            match rng.random_range(0..4) {
                0 => Relay::Drop,
                1 => Relay::Delay(Duration::from_millis(rng.random_range(1..200))),
                2 => Relay::Replace(encode(&resign_with(
                    &key,
                    &env,
                    random_body(&mut rng, &rules),
                ))),
                _ => Relay::Prepend(encode(&resign_with(
                    &key,
                    &env,
                    random_body(&mut rng, &rules),
                ))),
            }
        });
        // Every other case, the guests agreed to hand their seats over and
        // one leaves: the cheater's partner (then the cheater's device plays
        // its seat too, and its faults there are the cheater's), or East.
        let hand = case % 2 == 1;
        let agreed = if hand {
            [false, true, true, true]
        } else {
            [false; 4]
        };
        let mut t = Table4::build(rules, 200 + case, relay, agreed);
        if hand {
            let leaver = match cheater.partner() {
                FourSeat::South => FourSeat::East,
                p => p,
            };
            t.leave_at = Some((leaver, 14));
        }
        let ended = t.run(STEPS);
        if !ended {
            for s in FourSeat::ALL {
                eprintln!(
                    "{s}: round {} timeout {:?} verdict {:?} code {:?}",
                    t.seat(s).log().round(),
                    t.seat(s).poll_timeout().is_some(),
                    t.seat(s).verdict().map(|v| v.ending),
                    t.seat(s).pairing_code()
                );
            }
        }
        assert!(ended, "case {case}: every seat ends");
        let v = honest_agree(&t, Some(cheater));
        if v.iter().any(|x| x.blame.is_some()) {
            caught += 1;
        }
        if t.device != FourSeat::ALL {
            handed += 1;
        }
        if v.iter()
            .all(|x| x.ending == Ending::Played && x.blame.is_none())
        {
            clean += 1;
        }
    }
    // Not vacuous: some hostile seats were caught, some games survived.
    eprintln!("{caught} of {cases} caught, {clean} played cleanly, {handed} seats handed over");
    if first == 0 && cases >= 12 {
        assert!(
            caught > 0 && clean > 0 && handed > 0,
            "{caught} caught, {clean} clean, {handed} handed over of {cases}"
        );
    }
}

#[test]
fn whole_open_games_quan_ming_end_alike_with_a_clean_audit() {
    // 全明: every army opens for everyone once all are committed; every
    // seat's own referee plays the battles.
    for seed in [60, 61, 62] {
        let mut t = Table4::new(Rules::four_player(Mode::Open), seed);
        assert!(t.run(STEPS), "seed {seed}");
        let v = honest_agree(&t, None);
        for x in &v {
            assert_eq!(x.ending, Ending::Played, "seed {seed}: {x:?}");
            assert_eq!(x.blame, None);
            assert_eq!(x, &v[0]);
        }
        let record = v[0].record.as_ref().expect("audited");
        let replayed = junqi_game::Game::replay(record, None).expect("replays");
        assert_eq!(replayed.result(), v[0].result);
        assert!(v[0].result.is_some());
        // Every seat saw every army from the start.
        let revealed = t.events[FourSeat::East.index()]
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    junqi_proto::four::FourEvent::Table(junqi_game::TableEvent::Event(
                        junqi_game::Event::Revealed { .. }
                    ))
                )
            })
            .count();
        assert_eq!(revealed, 4);
    }
}

#[test]
fn an_open_army_that_differs_from_its_commitment_is_blamed() {
    let mut t = Table4::new(Rules::four_player(Mode::Open), 63);
    let key = t.keys[FourSeat::South.index()].clone();
    t.relay = Box::new(move |from, _to, frame| {
        let Some(env) = decode(frame) else {
            return Relay::Forward;
        };
        match &env.body {
            Body4::OpenArmy { openings } if from == FourSeat::South => {
                let mut openings = openings.clone();
                let j = (1..25)
                    .find(|&j| openings[j].rank != openings[0].rank)
                    .expect("two ranks");
                let (a, b) = (openings[0].rank, openings[j].rank);
                openings[0].rank = b;
                openings[j].rank = a;
                Relay::Replace(encode(&resign_with(
                    &key,
                    &env,
                    Body4::OpenArmy { openings },
                )))
            }
            _ => Relay::Forward,
        }
    });
    assert!(t.run(STEPS));
    for s in [FourSeat::East, FourSeat::North, FourSeat::West] {
        let v = verdict(&t, s);
        let b = v.blame.as_ref().expect("blamed");
        assert_eq!(
            (b.seat, &b.fault),
            (FourSeat::South, &FourFault::BadOpenArmy)
        );
    }
}

#[test]
fn a_seat_with_a_setup_the_rules_refuse_does_not_start() {
    use junqi_proto::four::{FourCallError, FourConfig, FourSession};
    let mut bad = junqi_proto::testing::preset(0);
    bad.set(1, 1, Some(junqi_game::Rank::Flag));
    let cfg = |layout, rules| FourConfig {
        seat: FourSeat::South,
        host: FourSeat::South,
        rules,
        name: "s".into(),
        layout,
        key: ed25519_dalek::SigningKey::from_bytes(&[1; 32]),
        seed: junqi_proto::Seed([2; 32]),
        nonce: [3; 32],
        hand_over: false,
    };
    let now = std::time::Instant::now();
    for (layout, rules) in [
        (bad, Some(rules(false))),
        (bad, None),
        (
            junqi_proto::testing::preset(0),
            Some(Rules::for_mode(Mode::Flip)),
        ),
    ] {
        assert_eq!(
            FourSession::new(cfg(layout, rules), now).err(),
            Some(FourCallError::BadSetup)
        );
    }
    assert!(FourSession::new(cfg(junqi_proto::testing::preset(0), Some(rules(true))), now).is_ok());
}

#[test]
fn a_draw_by_agreement_needs_every_seat_still_in() {
    for mode in [Mode::Dark, Mode::Open] {
        // Everyone accepts: drawn on every seat, the engine agreeing.
        let mut t = Table4::new(Rules::four_player(mode), 70);
        t.accept_draws = [true; 4];
        t.offer_draw = Some((FourSeat::East, 12));
        assert!(t.run(STEPS));
        let v = honest_agree(&t, None);
        let drawn = Some(junqi_game::GameResult::Draw {
            reason: junqi_game::DrawReason::Agreed,
        });
        for x in &v {
            assert_eq!(x.result, drawn, "{mode:?}: {x:?}");
            assert_eq!(x.blame, None);
            assert_eq!(x, &v[0]);
        }
        let record = v[0].record.as_ref().expect("audited");
        assert_eq!(
            junqi_game::Game::replay(record, None).unwrap().result(),
            drawn
        );

        // One seat declines: the offerer moves on and the game is played out.
        let mut t = Table4::new(Rules::four_player(mode), 70);
        t.accept_draws = [true, true, false, true];
        t.offer_draw = Some((FourSeat::East, 12));
        assert!(t.run(STEPS));
        let v = honest_agree(&t, None);
        for x in &v {
            assert_eq!(x.ending, Ending::Played);
            assert_ne!(x.result, drawn, "{mode:?}");
            assert_eq!(x, &v[0]);
        }
        let record = v[0].record.as_ref().expect("audited");
        assert!(
            record.actions.iter().any(
                |(s, a)| *s == junqi_game::Side::North && *a == junqi_game::Action::DeclineDraw
            )
        );
    }
}

#[test]
fn a_second_draw_offer_in_one_turn_is_blamed() {
    // The host offers, North declines, and the host offers again instead
    // of moving: every other seat blames it with its signed offer.
    let mut t = Table4::new(rules(false), 71);
    t.accept_draws = [true, true, false, true];
    t.offer_draw = Some((FourSeat::South, 8));
    let key = t.keys[FourSeat::South.index()].clone();
    let (mut offered, mut done) = (false, false);
    t.relay = Box::new(move |from, _to, frame| {
        let Some(env) = decode(frame) else {
            return Relay::Forward;
        };
        if from != FourSeat::South {
            return Relay::Forward;
        }
        match env.body {
            Body4::OfferDraw => offered = true,
            Body4::Move { .. } | Body4::Attack { .. } if offered && !done => {
                return Relay::Replace(encode(&resign_with(&key, &env, Body4::OfferDraw)));
            }
            _ => {}
        }
        if offered && matches!(env.body, Body4::Move { .. } | Body4::Attack { .. }) {
            done = true;
        }
        Relay::Forward
    });
    assert!(t.run(STEPS));
    for s in [FourSeat::East, FourSeat::North, FourSeat::West] {
        let v = verdict(&t, s);
        let b = v.blame.as_ref().expect("blamed");
        assert_eq!(
            (b.seat, &b.fault),
            (
                FourSeat::South,
                &FourFault::Unexpected(junqi_proto::four::body::Kind4::DrawOffer)
            )
        );
    }
    honest_agree(&t, Some(FourSeat::South));
}

#[test]
fn a_return_is_taken_only_from_the_seat_over_its_own_connection() {
    use junqi_proto::four::rejoin::RejoinRefused;
    let mut t = Table4::new(rules(false), 80);
    // Until the table has started, nobody comes back.
    let early = t.seat(FourSeat::East).rejoin(&[1; 32]);
    assert_eq!(
        t.seat(FourSeat::South).check_rejoin(&early, &[1; 32]),
        Err(RejoinRefused::OtherGame)
    );
    assert!(t.run(STEPS));
    let host = t.seat(FourSeat::South);
    let r = t.seat(FourSeat::East).rejoin(&[1; 32]);
    assert_eq!(host.check_rejoin(&r, &[1; 32]), Ok(()));
    // Signed for another connection: a captured return does not verify.
    assert_eq!(
        host.check_rejoin(&r, &[2; 32]),
        Err(RejoinRefused::BadSignature)
    );
    // Another seat's name on East's signature, more rounds claimed, another game.
    let mut other = r.clone();
    other.seat = FourSeat::West;
    assert_eq!(
        host.check_rejoin(&other, &[1; 32]),
        Err(RejoinRefused::BadSignature)
    );
    let mut more = r.clone();
    more.rounds += 1;
    assert_eq!(
        host.check_rejoin(&more, &[1; 32]),
        Err(RejoinRefused::BadSignature)
    );
    let mut foreign = r;
    foreign.game[0] ^= 1;
    assert_eq!(
        host.check_rejoin(&foreign, &[1; 32]),
        Err(RejoinRefused::OtherGame)
    );
    // What a returning seat is sent: every message from the round it names.
    let all = host.resend_from(0).len();
    assert_eq!(all, host.log().envelopes().count());
    assert!(host.resend_from(host.log().round() - 3).len() < all);
}

/// Runs `t` until `seat`'s log reaches `round` (or the table ends).
fn run_to_round(t: &mut Table4, seat: FourSeat, round: u64) {
    for _ in 0..STEPS {
        if t.seat(seat).log().round() >= round || t.all_done() {
            return;
        }
        t.run(1);
    }
}

#[test]
fn a_crashed_device_resumes_its_seat_from_its_journal() {
    // A guest, then the host, crashes mid-game and comes back from the
    // journal it kept: the game goes on to one result, one record and a
    // clean audit on all four, nobody blamed.
    for (crashed, seed) in [
        (FourSeat::East, 60),
        (FourSeat::South, 61),
        (FourSeat::North, 62),
    ] {
        for partners in [false, true] {
            let mut t = Table4::new(rules(partners), seed);
            run_to_round(&mut t, crashed, 40);
            assert!(!t.all_done(), "seed {seed}: mid-game");
            let before = t.seat(crashed).log().round();
            t.crash_and_resume(crashed, None)
                .expect("the journal replays");
            assert_eq!(
                t.seat(crashed).log().round(),
                before,
                "the whole log is back"
            );
            assert!(t.run(STEPS), "seed {seed}");
            let v = honest_agree(&t, None);
            for x in &v {
                assert_eq!(x.ending, Ending::Played, "{crashed} seed {seed}: {x:?}");
                assert_eq!(x.blame, None);
                assert!(x.record.is_some(), "audited");
                assert_eq!(x, &v[0]);
            }
        }
    }
}

#[test]
fn a_stale_journal_stops_its_seat_and_blames_nobody() {
    // East's device comes back from a copy of its journal older than what
    // the table holds of it: the host's resend shows East a message of its
    // own that it lacks; East stops before sending anything, nobody is
    // blamed, and the others never see two versions of East's messages.
    let mut t = Table4::new(rules(false), 63);
    run_to_round(&mut t, FourSeat::East, 30);
    let old = t.seat(FourSeat::East).journal();
    let mine = |j: &[junqi_proto::four::log::Envelope4]| {
        j.iter()
            .filter(|e| e.signed.header.sender == FourSeat::East)
            .count()
    };
    let kept = mine(&old);
    for _ in 0..STEPS {
        if mine(&t.seat(FourSeat::East).journal()) >= kept + 2 || t.all_done() {
            break;
        }
        t.run(1);
    }
    assert!(!t.all_done());
    t.crash_and_resume(FourSeat::East, Some(old))
        .expect("an old journal replays");
    assert!(t.run(STEPS));
    let east = verdict(&t, FourSeat::East);
    assert!(
        matches!(east.ending, Ending::StaleJournal { .. }),
        "{east:?}"
    );
    assert_eq!(east.result, None);
    let v = honest_agree(&t, None);
    for x in &v {
        assert_eq!(x.blame, None, "{x:?}");
    }
}

#[test]
fn a_journal_of_another_seat_does_not_replay() {
    let mut t = Table4::new(rules(false), 64);
    run_to_round(&mut t, FourSeat::East, 20);
    let cfg = t.seat(FourSeat::East).config().clone();
    let mut other = Table4::new(rules(false), 65);
    run_to_round(&mut other, FourSeat::East, 20);
    let theirs = other.seat(FourSeat::East).journal();
    let mut forged = t.seat(FourSeat::East).journal();
    let err = junqi_proto::four::FourSession::resume(cfg.clone(), theirs, t.now);
    assert!(err.is_err(), "another table's journal is not this seat's");
    assert!(
        junqi_proto::four::FourSession::resume(cfg.clone(), forged.clone(), t.now).is_ok(),
        "its own replays"
    );
    // One of East's own messages changed (its body): refused.
    let i = forged
        .iter()
        .rposition(|e| e.signed.header.sender == FourSeat::East)
        .expect("East sent");
    forged[i].signed.header.turn_ms ^= 1;
    assert!(junqi_proto::four::FourSession::resume(cfg, forged, t.now).is_err());
}

/// The table's messages signed in `seat`'s name after its hand-over.
fn played_for(t: &Table4, holder: FourSeat, seat: FourSeat) -> (Option<u64>, usize) {
    let log = t.seat(holder).log();
    let handed = log
        .envelopes()
        .find(|e| e.signed.header.sender == seat && matches!(e.body, Body4::HandOver { .. }))
        .map(|e| e.signed.header.round);
    let after = log
        .envelopes()
        .filter(|e| {
            e.signed.header.sender == seat && handed.is_some_and(|h| e.signed.header.round > h)
        })
        .count();
    (handed, after)
}

#[test]
fn a_seat_handed_over_is_played_on_by_its_partners_device() {
    // North hands its seat to the host's device (South), East to West's (a
    // guest's); in 四暗 and 双明. The partner's device plays it on with an
    // engine player, signing with its own key: every seat ends alike, the
    // game is played to its end, and the audit over four armies is clean.
    for (seed, partners, leaver) in [
        (61, false, FourSeat::North),
        (62, true, FourSeat::East),
        (63, false, FourSeat::East),
        (64, true, FourSeat::North),
    ] {
        let mut t = Table4::with_hand_over(rules(partners), seed, [false, true, true, false]);
        t.leave_at = Some((leaver, 12));
        assert!(t.run(STEPS), "seed {seed}: the game ends");
        let partner = leaver.partner();
        assert_eq!(t.device[leaver.index()], partner, "seed {seed}: taken over");
        let (handed, after) = played_for(&t, FourSeat::West, leaver);
        assert!(handed.is_some(), "seed {seed}: a hand-over on the log");
        assert!(
            after > 0,
            "seed {seed}: the partner's device played the seat"
        );
        let v = honest_agree(&t, None);
        for x in &v {
            assert_eq!(x.ending, Ending::Played, "seed {seed}: {x:?}");
            assert!(x.not_opened.is_empty(), "seed {seed}: four armies opened");
            assert!(x.record.is_some(), "seed {seed}: audited");
            assert_eq!(x, &v[0], "seed {seed}: every seat ends alike");
        }
        for s in FourSeat::ALL {
            assert!(
                matches!(audit_table(t.seat(s).log()), AuditOutcome::Clean { .. }),
                "seed {seed}: {s}'s log audits clean"
            );
        }
        // After the hand-over the partner's key signs for the seat.
        let log = t.seat(FourSeat::South).log();
        let pk = t.keys[partner.index()].verifying_key();
        for e in log
            .envelopes()
            .filter(|e| e.signed.header.sender == leaver && e.signed.header.round > handed.unwrap())
        {
            assert!(e.signed.verify(&pk), "seed {seed}: signed by the partner");
        }
    }
}

#[test]
fn without_the_agreement_a_leave_ends_the_game_by_rules_section_9() {
    for (seed, agreed) in [(65, [false; 4]), (66, [false, true, false, true])] {
        // (66: East and West agreed, North did not.)
        let mut t = Table4::with_hand_over(rules(false), seed, agreed);
        t.leave_at = Some((FourSeat::North, 12));
        assert!(t.run(STEPS));
        let view = t.seat(FourSeat::South).view().expect("played").clone();
        let want = leave_result(junqi_game::Side::North, |s| view.is_in(s));
        for s in [FourSeat::South, FourSeat::East, FourSeat::West] {
            let x = verdict(&t, s);
            assert_eq!(x.ending, Ending::Left(FourSeat::North), "seed {seed}");
            assert_eq!(x.result, want);
            assert_eq!(x.blame, None);
        }
        assert_eq!(played_for(&t, FourSeat::South, FourSeat::North).0, None);
        assert_eq!(t.device, FourSeat::ALL);
    }
}

/// A relay that shows `to` the first move of `seat`'s after round `from`,
/// signed again by `forger` in `seat`'s name.
fn forge_for(
    t: &mut Table4,
    forger: FourSeat,
    seat: FourSeat,
    to: FourSeat,
    from: u64,
) -> std::rc::Rc<std::cell::Cell<bool>> {
    let key = t.keys[forger.index()].clone();
    let done = std::rc::Rc::new(std::cell::Cell::new(false));
    let flag = done.clone();
    t.relay = Box::new(move |_, hop_to, frame| {
        let Some(env) = decode(frame) else {
            return Relay::Forward;
        };
        let h = env.signed.header;
        if !flag.get()
            && hop_to == to
            && h.sender == seat
            && h.round > from
            && matches!(env.body, Body4::Move { .. })
        {
            flag.set(true);
            return Relay::Replace(encode(&resign_with(&key, &env, env.body.clone())));
        }
        Relay::Forward
    });
    done
}

#[test]
fn a_partner_playing_a_seat_not_handed_over_is_blamed() {
    // North and East agreed to a hand-over but never left: a move in their
    // name signed by their partner's key (South's, the host's; West's, a
    // guest's) is the partner's fault, its signature the evidence.
    for (seed, forger, seat, to) in [
        (67, FourSeat::South, FourSeat::North, FourSeat::East),
        (68, FourSeat::West, FourSeat::East, FourSeat::North),
    ] {
        let mut t = Table4::with_hand_over(rules(false), seed, [false, true, true, false]);
        let done = forge_for(&mut t, forger, seat, to, 8);
        assert!(t.run(STEPS));
        assert!(done.get(), "seed {seed}: the forgery was shown");
        let b = verdict(&t, to).blame.expect("the forger is blamed");
        assert_eq!(b.seat, forger, "seed {seed}");
        assert_eq!(b.fault, FourFault::SignedForAnother(seat));
        let e = b.evidence.as_ref().expect("its signed message");
        assert_eq!(e.signed.header.sender, seat);
        assert!(e.signed.verify(&t.keys[forger.index()].verifying_key()));
        honest_agree(&t, Some(forger));
    }
}

#[test]
fn an_enemy_cannot_take_over_a_handed_seat() {
    // North hands its seat to South's device; East (an enemy) signs North's
    // next move: West refuses it and blames East.
    let mut t = Table4::with_hand_over(rules(false), 69, [false, false, true, false]);
    t.leave_at = Some((FourSeat::North, 12));
    let done = forge_for(&mut t, FourSeat::East, FourSeat::North, FourSeat::West, 0);
    // Only moves after the hand-over: the relay skips North's own moves
    // until then (they are signed by North and shown unchanged).
    let key = t.keys[FourSeat::East.index()].clone();
    let handed = std::rc::Rc::new(std::cell::Cell::new(false));
    let seen = handed.clone();
    let flag = done.clone();
    t.relay = Box::new(move |_, hop_to, frame| {
        let Some(env) = decode(frame) else {
            return Relay::Forward;
        };
        let h = env.signed.header;
        if h.sender == FourSeat::North && matches!(env.body, Body4::HandOver { .. }) {
            seen.set(true);
        }
        if seen.get()
            && !flag.get()
            && hop_to == FourSeat::West
            && h.sender == FourSeat::North
            && matches!(env.body, Body4::Move { .. })
        {
            flag.set(true);
            return Relay::Replace(encode(&resign_with(&key, &env, env.body.clone())));
        }
        Relay::Forward
    });
    assert!(t.run(STEPS));
    assert!(handed.get() && done.get(), "handed over, then forged");
    let b = verdict(&t, FourSeat::West).blame.expect("East is blamed");
    assert_eq!(b.seat, FourSeat::East);
    assert_eq!(b.fault, FourFault::SignedForAnother(FourSeat::North));
    honest_agree(&t, Some(FourSeat::East));
}

#[test]
fn a_returning_seat_waits_for_what_the_hosts_signed_welcome_says() {
    use junqi_proto::four::harness::LINK;
    use junqi_proto::four::rejoin::{RejoinRefused, Welcome};
    // East is cut off for a few rounds, then its device crashes and comes back from its journal: it holds fewer
    // rounds than the host. It sends nothing until its log holds what the
    // host's welcome says the host held, and is released at once then.
    let mut t = Table4::new(rules(false), 71);
    let cut = std::rc::Rc::new(std::cell::Cell::new(true));
    let on = cut.clone();
    t.relay = Box::new(move |_, to, frame| match decode(frame) {
        Some(e) if on.get() && to == FourSeat::East && e.signed.header.round >= 30 => Relay::Drop,
        _ => Relay::Forward,
    });
    run_to_round(&mut t, FourSeat::South, 33);
    assert!(!t.all_done());
    cut.set(false);
    let (east, host) = (FourSeat::East, FourSeat::South);
    let journal = t.seat(east).journal();
    let cfg = t.seat(east).config().clone();
    // What a welcome must be: the host's, for this seat, over this link.
    let game = t.seat(host).game_id();
    let mut probe = junqi_proto::four::FourSession::resume(cfg, journal.clone(), t.now).unwrap();
    let other_key = Welcome::sign(&t.keys[FourSeat::West.index()], game, east, 0, &LINK);
    let other_link = t.seat(host).welcome(east, &[1; 32]);
    let other_seat = t.seat(host).welcome(FourSeat::North, &LINK);
    assert_eq!(
        probe.take_welcome(&other_key, &LINK),
        Err(RejoinRefused::BadSignature)
    );
    assert_eq!(
        probe.take_welcome(&other_link, &LINK),
        Err(RejoinRefused::BadSignature)
    );
    assert_eq!(
        probe.take_welcome(&other_seat, &LINK),
        Err(RejoinRefused::OtherGame)
    );
    assert!(probe.resuming(), "a refused welcome releases nothing");

    let held = t.seat(host).log().round();
    assert!(t.seat(east).log().round() < held, "East lacks rounds");
    t.crash_and_resume(east, Some(journal))
        .expect("its journal replays");
    let mut released = false;
    for _ in 0..STEPS {
        let s = t.seat(east);
        assert_eq!(
            s.resuming(),
            s.log().round() < held && s.verdict().is_none(),
            "quiet exactly until it holds what the host held"
        );
        if !s.resuming() {
            released = true;
            break;
        }
        t.run(1);
    }
    assert!(released);
    assert!(t.run(STEPS));
    let v = honest_agree(&t, None);
    for x in &v {
        assert_eq!(x.ending, Ending::Played, "{x:?}");
        assert!(x.record.is_some());
    }
}

#[test]
fn a_welcome_that_overstates_the_hosts_rounds_abandons_the_seat_and_blames_nobody() {
    use junqi_proto::four::harness::LINK;
    use junqi_proto::four::rejoin::Welcome;
    // The host says it held far more rounds than it did: the returning
    // seat waits for them a move's wait, then gives up, nobody blamed;
    // the others play on (the host times it out).
    let mut t = Table4::new(rules(false), 72);
    run_to_round(&mut t, FourSeat::East, 30);
    let east = FourSeat::East;
    let journal = t.seat(east).journal();
    let cfg = t.seat(east).config().clone();
    let mut back = junqi_proto::four::FourSession::resume(cfg, journal, t.now).unwrap();
    let game = t.seat(FourSeat::South).game_id();
    let lie = Welcome::sign(&t.keys[FourSeat::South.index()], game, east, 10_000, &LINK);
    back.take_welcome(&lie, &LINK).expect("signed by the host");
    assert!(back.resuming());
    let wait = back.poll_timeout().expect("it gives up at some point");
    assert!(back.poll_transmit().is_none());
    back.handle_timeout(wait);
    let v = back.verdict().expect("over");
    assert_eq!(v.ending, Ending::Abandoned);
    assert_eq!(v.blame, None);
    assert!(back.poll_transmit().is_none(), "it sent nothing");
}

#[test]
fn a_seat_the_host_cuts_off_ends_saying_the_host_stopped_relaying() {
    // The host stops relaying anything to North in the middle of the game.
    // North ends saying so (`HostStopped`), holding every round before it
    // signed by the seats that sent it; nobody is blamed and the seats
    // still served never end with another result than each other.
    let mut stopped = 0;
    for seed in [43, 44, 45] {
        let mut t = Table4::new(rules(false), seed);
        let mut relayed = 0;
        t.relay = Box::new(move |_, to, _| {
            relayed += 1;
            if relayed > 60 && to == FourSeat::North {
                Relay::Drop
            } else {
                Relay::Forward
            }
        });
        assert!(t.run(STEPS));
        let v = honest_agree(&t, Some(FourSeat::South));
        for x in &v {
            assert_eq!(x.blame, None, "seed {seed}");
        }
        let north = verdict(&t, FourSeat::North);
        let Ending::HostStopped { round } = north.ending else {
            // A reply owed when it was cut off: who stopped cannot be told.
            assert_eq!(north.ending, Ending::Abandoned, "seed {seed}");
            continue;
        };
        assert_eq!(north.result, None);
        let log = t.seat(FourSeat::North).log();
        assert_eq!(log.round(), round);
        for e in log.envelopes() {
            let s = e.signed.header.sender;
            assert!(
                e.signed.verify(&t.keys[s.index()].verifying_key()),
                "seed {seed}: round {} signed by {s}",
                e.signed.header.round
            );
        }
        // The others saw the host time North out after it: the rounds North
        // lacks are the host's doing, signed by the host.
        let south = t.seat(FourSeat::South).log();
        assert!(south.round() > round, "seed {seed}: the table went on");
        stopped += 1;
    }
    assert!(stopped > 0, "a cut with a move owed");
}

#[test]
fn a_hand_over_that_does_not_open_is_a_leave_by_rules_section_9() {
    // North hands its seat over with a ciphertext that does not open: South's
    // device cannot play it and leaves in its name; every seat ends as
    // after North's leave (§9), nobody blamed.
    let mut t = Table4::with_hand_over(rules(false), 73, [false, false, true, false]);
    t.set_cheats(
        FourSeat::North,
        FourCheats {
            bad_hand_over: true,
            ..FourCheats::default()
        },
    );
    t.leave_at = Some((FourSeat::North, 12));
    assert!(t.run(STEPS));
    let (handed, after) = played_for(&t, FourSeat::East, FourSeat::North);
    assert!(handed.is_some());
    assert_eq!(after, 1, "only the leave in North's name");
    let view = t.seat(FourSeat::South).view().expect("played").clone();
    let want = leave_result(junqi_game::Side::North, |s| view.is_in(s));
    let v = honest_agree(&t, Some(FourSeat::North));
    for x in &v {
        assert_eq!(x.ending, Ending::Left(FourSeat::North), "{x:?}");
        assert_eq!(x.result, want);
        assert_eq!(x.blame, None);
    }
    assert_eq!(t.device, FourSeat::ALL, "nobody took it");
    assert_eq!(t.seat(FourSeat::East).hand_overs(), vec![FourSeat::North]);
}

#[test]
fn a_host_offering_unplayable_rules_starts_nothing_and_no_seat_crashes() {
    // The seat that takes the host's rules (East) refuses them itself; the
    // seats that named the table's rules see other rules. Nobody commits.
    let bad_rules = [
        Rules::four_player(Mode::Flip),
        Rules {
            quiet_draw_plies: 0,
            ..rules(false)
        },
        Rules {
            four_player_board: true,
            ..rules(false)
        },
    ];
    for (i, bad) in bad_rules.into_iter().enumerate() {
        let seed = 70 + i as u64;
        let key = Table4::new(rules(false), seed)
            .seat(FourSeat::South)
            .config()
            .key
            .clone();
        let mut t = Table4::with_relay(
            rules(false),
            seed,
            Box::new(move |from, _to, frame| match decode(frame) {
                Some(env) if from == FourSeat::South => match &env.body {
                    Body4::Hello {
                        key: k,
                        nonce_commit,
                        name,
                        ..
                    } => {
                        let forged = Body4::Hello {
                            key: *k,
                            nonce_commit: *nonce_commit,
                            name: name.clone(),
                            rules: Some(bad),
                        };
                        Relay::Replace(encode(&resign_with(&key, &env, forged)))
                    }
                    _ => Relay::Forward,
                },
                _ => Relay::Forward,
            }),
        );
        assert!(t.run(STEPS), "{bad:?}");
        for s in [FourSeat::East, FourSeat::North, FourSeat::West] {
            let v = verdict(&t, s);
            assert!(
                matches!(v.ending, Ending::Unplayed(_)),
                "{s} {bad:?}: {v:?}"
            );
            assert_eq!(v.blame, None);
            assert!(
                t.received[s.index()]
                    .iter()
                    .all(|f| !decode(f).is_some_and(|e| matches!(e.body, Body4::Commit { .. })))
            );
        }
        assert_eq!(
            verdict(&t, FourSeat::East).ending,
            Ending::Unplayed(junqi_proto::four::Unplayed::UnplayableRules),
            "{bad:?}"
        );
    }
}
