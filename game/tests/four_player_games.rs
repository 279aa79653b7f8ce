//! Four-player games through the referee (RULES.md §9): views of all four
//! seats built from the table's announcements only stay consistent with
//! the truth, 四暗 / 双明 / 全明 show what they should, players go out by
//! resigning and by timeouts, draws need everyone still in.

use Side::{East as E, North as N, South as S, West as W};
use junqi_game::*;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

fn layouts(rules: &Rules, rng: &mut Pcg64Mcg) -> [Layout; 4] {
    std::array::from_fn(|_| Layout::random(rules, rng))
}

fn classic_four() -> [Layout; 4] {
    let c = classic_layouts();
    [c[0].layout, c[1].layout, c[2].layout, c[3].layout]
}

/// Every seat's view agrees with the truth: the pieces it sees are where
/// they are, with a possible rank; the seat to move sees the referee's moves.
fn check_views(game: &Game, views: &[PlayerView; 4]) {
    let pos = game.position();
    assert!(pos.is_consistent());
    for view in views {
        if game.result().is_none() {
            assert_eq!(view.turn(), pos.turn(), "{} view", view.me());
        }
        assert_eq!(view.ply(), pos.ply());
        assert_eq!(view.quiet_plies(), pos.quiet_plies());
        for side in Side::FOUR {
            assert_eq!(view.is_in(side), pos.is_in(side));
        }
        for p in pos.board().points() {
            match (pos.at(p), view.at(p)) {
                (None, None) => {}
                (Some(pc), Some(Seen::Piece { side, id, rank })) => {
                    assert_eq!((side, id), (pc.side, pc.id));
                    if let Some(r) = rank {
                        assert_eq!(r, pc.rank);
                    }
                    let k = view.piece(id).unwrap();
                    assert!(k.possible.contains(pc.rank), "truth excluded");
                }
                (truth, seen) => panic!("{} sees {seen:?} on {p:?}, truth {truth:?}", view.me()),
            }
        }
        if view.turn() == view.me() && game.result().is_none() {
            let mut a = view.legal_moves().to_vec();
            let mut b = pos.legal_moves().to_vec();
            a.sort_by_key(|m| format!("{m:?}"));
            b.sort_by_key(|m| format!("{m:?}"));
            assert_eq!(a, b, "view moves differ from the referee's");
        }
    }
}

/// Plays a random four-player game, checking the views and the team rules
/// after every action; returns the game.
fn play_random(rules: Rules, seed: u64) -> Game {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let first = Side::FOUR[rng.random_range(0..4)];
    let mut game = Game::new_four(rules, layouts(&rules, &mut rng), first).unwrap();
    let mut views = Side::FOUR.map(|s| game.view(s));
    while game.result().is_none() {
        let side = game.turn();
        let before = game.position().clone();
        let moves = before.legal_moves();
        assert!(!moves.is_empty(), "the seat to move always has a move");
        let action = if rng.random_bool(0.01) {
            Action::Timeout
        } else if before.ply() >= 20 && rng.random_bool(0.003) {
            Action::Resign
        } else {
            Action::Move(*moves.choose(&mut rng).unwrap())
        };
        if let Action::Move(Move::Step { to, .. }) = action
            && let Some(target) = before.at(to)
        {
            // A partner's piece is never attacked.
            assert_ne!(
                target.side.team(),
                side.team(),
                "{side} attacks its partner"
            );
        }
        let events = game.apply_table(side, action).unwrap();
        for v in views.iter_mut() {
            for e in &events {
                v.apply_table(e).unwrap();
            }
        }
        // A player out has no piece left on the board.
        for s in Side::FOUR {
            if !game.is_in(s) {
                assert!(game.position().pieces().all(|(_, pc)| pc.side != s));
                assert!(game.position().out_reason(s).is_some());
            }
        }
        if game.result().is_none() {
            assert!(game.is_in(game.turn()));
        }
        check_views(&game, &views);
    }
    // The fresh views from the referee equal the ones kept from the stream.
    for (s, v) in Side::FOUR.into_iter().zip(&views) {
        let fresh = game.view(s);
        assert_eq!(fresh.turn(), v.turn());
        assert_eq!(fresh.result(), v.result());
    }
    let replayed = Game::replay(game.record(), None).unwrap();
    assert_eq!(replayed.position(), game.position());
    assert_eq!(replayed.table_events(), game.table_events());
    // The record survives JSON (points of the whole board included).
    let json = serde_json::to_string(game.record()).unwrap();
    let back: Record = serde_json::from_str(&json).unwrap();
    assert_eq!(&back, game.record());
    game
}

#[test]
fn random_dark_games_keep_all_four_views_consistent() {
    let mut results = std::collections::BTreeMap::new();
    for seed in 0..12 {
        let g = play_random(Rules::four_player(Mode::Dark), seed);
        *results
            .entry(format!("{}", g.result().unwrap()))
            .or_insert(0) += 1;
    }
    // Random games end in several ways, not one.
    assert!(results.len() >= 2, "{results:?}");
}

#[test]
fn random_games_with_rule_options_keep_views_consistent() {
    for seed in 0..6 {
        let rules = Rules {
            flying_bombs: seed % 2 == 0,
            hq_exit: seed % 3 == 0,
            mines: [MineRule::Standard, MineRule::Trades, MineRule::BombMines][seed as usize % 3],
            engineer_scouting: true,
            clockwise: seed % 2 == 1,
            partners_open: seed % 3 == 1,
            ..Rules::four_player(Mode::Dark)
        };
        play_random(rules, 100 + seed);
    }
    for seed in 0..3 {
        play_random(Rules::four_player(Mode::Open), 200 + seed);
    }
}

#[test]
fn dark_views_know_only_their_own_pieces_and_partners_open_shows_the_partner() {
    let dark = Game::new_four(Rules::four_player(Mode::Dark), classic_four(), S).unwrap();
    let v = dark.view(S);
    for (p, pc) in dark.position().pieces() {
        let Some(Seen::Piece { rank, .. }) = v.at(p) else {
            panic!("missing piece")
        };
        assert_eq!(rank.is_some(), pc.side == S, "{pc:?}");
    }
    let rules = Rules {
        partners_open: true,
        ..Rules::four_player(Mode::Dark)
    };
    let shuang = Game::new_four(rules, classic_four(), S).unwrap();
    for me in Side::FOUR {
        let v = shuang.view(me);
        for (p, pc) in shuang.position().pieces() {
            let Some(Seen::Piece { rank, .. }) = v.at(p) else {
                panic!("missing piece")
            };
            let known = pc.side == me || pc.side == me.partner();
            assert_eq!(rank, known.then_some(pc.rank), "{me} sees {pc:?}");
        }
    }
    let open = Game::new_four(Rules::four_player(Mode::Open), classic_four(), S).unwrap();
    let v = open.view(E);
    for (p, pc) in open.position().pieces() {
        assert_eq!(
            v.at(p),
            Some(Seen::Piece {
                side: pc.side,
                id: pc.id,
                rank: Some(pc.rank)
            })
        );
    }
}

#[test]
fn the_72_classic_layouts_fit_every_seat() {
    let rules = Rules::four_player(Mode::Dark);
    let board = Board::four_player();
    for named in classic_layouts() {
        let dep = named.layout.validate(&rules).unwrap();
        let game = Game::new_four(rules, [named.layout; 4], S).unwrap();
        for side in Side::FOUR {
            let flag = game
                .position()
                .pieces()
                .find(|(_, pc)| pc.side == side && pc.rank == Rank::Flag)
                .unwrap()
                .0;
            assert!(board.is_headquarters(flag));
            assert_eq!(board.info(flag).half, Some(side));
            // The same half on both boards: every piece on the point of its row and column.
            for (p, rank) in dep.placements(board, side) {
                assert_eq!(game.position().at(p).map(|pc| pc.rank), Some(rank));
                assert_eq!(board.info(p).half, Some(side));
            }
        }
    }
    assert_eq!(classic_layouts().len(), 72);
}

#[test]
fn a_broken_layout_is_refused_with_its_seat() {
    let mut bad = classic_four();
    bad[1] = Layout::empty();
    match Game::new_four(Rules::four_player(Mode::Dark), bad, S) {
        Err(SetupError::Layout { side, .. }) => assert_eq!(side, E),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        Game::new_four(Rules::four_player(Mode::Flip), classic_four(), S),
        Err(SetupError::WrongMode)
    ));
}

/// Plays the first legal move of the seat to move.
fn first_move(game: &mut Game) -> Vec<TableEvent> {
    let side = game.turn();
    let m = game.position().legal_moves()[0];
    game.apply_table(side, Action::Move(m)).unwrap()
}

#[test]
fn resigning_is_refused_in_the_first_20_plies_then_puts_the_player_out() {
    let mut game = Game::new_four(Rules::four_player(Mode::Dark), classic_four(), S).unwrap();
    assert_eq!(
        game.apply_table(E, Action::Resign),
        Err(ActionError::ResignTooEarly(20))
    );
    while game.position().ply() < 20 {
        first_move(&mut game);
    }
    assert_eq!(game.turn(), S);
    let events = game.apply_table(E, Action::Resign).unwrap();
    assert_eq!(
        events,
        [TableEvent::PlayerOut {
            side: E,
            reason: WinReason::Resignation
        }]
    );
    assert!(game.position().pieces().all(|(_, pc)| pc.side != E));
    assert_eq!(
        game.apply_table(E, Action::Timeout),
        Err(ActionError::NotInGame(E))
    );
    first_move(&mut game);
    assert_eq!(game.turn(), N, "East's turn is skipped");
    // West resigns too: South and North win.
    let events = game.apply_table(W, Action::Resign).unwrap();
    let result = GameResult::Win {
        winner: S,
        reason: WinReason::Resignation,
    };
    assert_eq!(game.result(), Some(result));
    assert_eq!(
        events.last(),
        Some(&TableEvent::Event(Event::GameOver { result }))
    );
    // Every view learnt it from the table.
    for s in Side::FOUR {
        let v = game.view(s);
        assert_eq!(v.result(), Some(result));
        assert!(!v.is_in(E) && !v.is_in(W));
    }
}

#[test]
fn the_fifth_timeout_puts_a_player_out() {
    let mut game = Game::new_four(Rules::four_player(Mode::Dark), classic_four(), S).unwrap();
    for round in 1..=5u8 {
        assert_eq!(game.turn(), S);
        let events = game.apply_table(S, Action::Timeout).unwrap();
        assert_eq!(
            events[0],
            TableEvent::Event(Event::TimedOut {
                side: S,
                count: round
            })
        );
        if round < 5 {
            assert!(game.is_in(S));
            for _ in 0..3 {
                first_move(&mut game);
            }
        } else {
            assert_eq!(
                events[1],
                TableEvent::PlayerOut {
                    side: S,
                    reason: WinReason::Timeouts
                }
            );
        }
    }
    assert!(!game.is_in(S));
    assert_eq!(game.turn(), E);
    assert_eq!(game.result(), None);
}

#[test]
fn a_draw_needs_every_player_still_in() {
    let mut game = Game::new_four(Rules::four_player(Mode::Dark), classic_four(), S).unwrap();
    game.apply_table(S, Action::OfferDraw).unwrap();
    assert_eq!(
        game.apply_table(S, Action::AcceptDraw),
        Err(ActionError::NoDrawOffer)
    );
    assert_eq!(
        game.apply_table(E, Action::AcceptDraw).unwrap(),
        [TableEvent::DrawAccepted { side: E }]
    );
    game.apply_table(N, Action::AcceptDraw).unwrap();
    assert_eq!(game.result(), None);
    let events = game.apply_table(W, Action::AcceptDraw).unwrap();
    let draw = GameResult::Draw {
        reason: DrawReason::Agreed,
    };
    assert_eq!(game.result(), Some(draw));
    assert_eq!(
        events.last(),
        Some(&TableEvent::Event(Event::GameOver { result: draw }))
    );
    // One refusal ends the offer.
    let mut game = Game::new_four(Rules::four_player(Mode::Dark), classic_four(), S).unwrap();
    game.apply_table(E, Action::OfferDraw).unwrap();
    game.apply_table(S, Action::AcceptDraw).unwrap();
    game.apply_table(W, Action::DeclineDraw).unwrap();
    assert_eq!(game.draw_offer(), None);
    assert_eq!(
        game.apply_table(N, Action::AcceptDraw),
        Err(ActionError::NoDrawOffer)
    );
}

#[test]
fn battles_are_announced_to_all_four() {
    // Play random moves until the first battle; every seat's view learns
    // who was removed where, and none learns a hidden rank.
    let mut rng = Pcg64Mcg::seed_from_u64(7);
    let rules = Rules::four_player(Mode::Dark);
    let mut game = Game::new_four(rules, layouts(&rules, &mut rng), S).unwrap();
    loop {
        let side = game.turn();
        let m = *game.position().legal_moves().choose(&mut rng).unwrap();
        let events = game.apply_table(side, Action::Move(m)).unwrap();
        let battle = events.iter().find_map(|e| match e {
            TableEvent::Event(Event::Battle {
                side: attacker,
                to,
                announcement,
                attacker_rank,
                defender_rank,
                ..
            }) => Some((
                *attacker,
                *to,
                *announcement,
                *attacker_rank,
                *defender_rank,
            )),
            _ => None,
        });
        if let Some((attacker, to, ann, ar, dr)) = battle {
            assert_eq!((ar, dr), (None, None), "dark battles show no rank");
            for s in Side::FOUR {
                let v = game.view(s);
                let seen = v.at(to);
                match ann.outcome {
                    Outcome::AttackerWins => {
                        assert!(matches!(seen, Some(Seen::Piece { side, .. }) if side == attacker))
                    }
                    Outcome::DefenderWins => {
                        assert!(matches!(seen, Some(Seen::Piece { side, .. }) if side != attacker))
                    }
                    Outcome::BothRemoved => assert_eq!(seen, None),
                }
            }
            break;
        }
    }
}

/// Plays random moves until an action's announcements satisfy `stop`;
/// returns those announcements (none if the game ended first).
fn play_until(
    game: &mut Game,
    rng: &mut Pcg64Mcg,
    stop: impl Fn(&[TableEvent]) -> bool,
) -> Vec<TableEvent> {
    for _ in 0..20_000 {
        if game.result().is_some() {
            break;
        }
        let side = game.turn();
        let m = *game.position().legal_moves().choose(rng).unwrap();
        let events = game.apply_table(side, Action::Move(m)).unwrap();
        if stop(&events) {
            return events;
        }
    }
    Vec::new()
}

#[test]
fn a_commanders_death_shows_its_flag_to_all_four() {
    let rules = Rules::four_player(Mode::Dark);
    for seed in 0..40 {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut game = Game::new_four(rules, layouts(&rules, &mut rng), S).unwrap();
        let events = play_until(&mut game, &mut rng, |events| {
            events
                .iter()
                .any(|e| matches!(e, TableEvent::Event(Event::FlagRevealed { .. })))
        });
        let Some((owner, at)) = events.iter().find_map(|e| match e {
            TableEvent::Event(Event::FlagRevealed { side, at }) => Some((*side, *at)),
            _ => None,
        }) else {
            continue;
        };
        assert_eq!(
            game.position().at(at).map(|pc| (pc.side, pc.rank)),
            Some((owner, Rank::Flag))
        );
        for s in Side::FOUR {
            let v = game.view(s);
            assert!(
                matches!(v.at(at), Some(Seen::Piece { side, rank: Some(Rank::Flag), .. }) if side == owner),
                "{s} does not see {owner}'s flag"
            );
        }
        return;
    }
    panic!("no commander died in 40 random games");
}

#[test]
fn a_captured_flag_is_announced_and_every_view_drops_the_player() {
    let rules = Rules::four_player(Mode::Dark);
    for seed in 0..60 {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut game = Game::new_four(rules, layouts(&rules, &mut rng), S).unwrap();
        let events = play_until(&mut game, &mut rng, |events| {
            events.iter().any(|e| {
                matches!(
                    e,
                    TableEvent::PlayerOut {
                        reason: WinReason::FlagCaptured,
                        ..
                    }
                )
            })
        });
        let Some(loser) = events.iter().find_map(|e| match e {
            TableEvent::PlayerOut {
                side,
                reason: WinReason::FlagCaptured,
            } => Some(*side),
            _ => None,
        }) else {
            continue;
        };
        // The battle came first and said the flag fell.
        assert!(events.iter().any(|e| matches!(
            e,
            TableEvent::Event(Event::Battle { announcement, .. }) if announcement.flag_captured
        )));
        assert!(game.position().pieces().all(|(_, pc)| pc.side != loser));
        for s in Side::FOUR {
            let v = game.view(s);
            assert!(!v.is_in(loser));
            assert_eq!(v.out_reason(loser), Some(WinReason::FlagCaptured));
            assert!(game.position().board().points().all(|p| !matches!(
                v.at(p),
                Some(Seen::Piece { side, .. }) if side == loser
            )));
        }
        return;
    }
    panic!("no flag was captured in 60 random games");
}

#[test]
fn foreign_or_forged_announcements_are_refused_without_a_panic() {
    let rules = Rules::four_player(Mode::Dark);
    let mut rng = Pcg64Mcg::seed_from_u64(11);
    let mut a = Game::new_four(rules, layouts(&rules, &mut rng), S).unwrap();
    let b = Game::new_four(rules, layouts(&rules, &mut rng), S).unwrap();
    for _ in 0..200 {
        if a.result().is_some() {
            break;
        }
        let side = a.turn();
        let m = *a.position().legal_moves().choose(&mut rng).unwrap();
        a.apply_table(side, Action::Move(m)).unwrap();
    }
    // Another game's announcements, replayed into a view of `b`: each is
    // either accepted or refused, and a refusal leaves the view unchanged.
    let mut view = b.view(E);
    let mut refused = 0;
    for e in a.table_events() {
        let before = format!("{view:?}");
        if view.apply_table(e).is_err() {
            refused += 1;
            assert_eq!(format!("{view:?}"), before);
        }
    }
    assert!(refused > 0);
    // Forged ones.
    let mut view = b.view(N);
    for e in [
        TableEvent::PlayerOut {
            side: N,
            reason: WinReason::Resignation,
        },
        TableEvent::DrawAccepted { side: E },
    ] {
        let mut v = view.clone();
        let _ = v.apply_table(&e);
    }
    assert!(
        view.apply_table(&TableEvent::DrawAccepted { side: W })
            .is_err()
    );
    view.apply_table(&TableEvent::PlayerOut {
        side: W,
        reason: WinReason::Resignation,
    })
    .unwrap();
    assert!(
        view.apply_table(&TableEvent::PlayerOut {
            side: W,
            reason: WinReason::Resignation,
        })
        .is_err()
    );
    // A two-player view knows no players going out.
    let two = Game::new(Rules::default(), classic_four()[0], classic_four()[1], S).unwrap();
    assert!(
        two.view(S)
            .apply_table(&TableEvent::PlayerOut {
                side: N,
                reason: WinReason::Resignation
            })
            .is_err()
    );
}

#[test]
fn scores_follow_rules_sections_8_and_9() {
    // A four-player win after ply 40: +2 for both winners, -2 for both losers.
    let mut game = Game::new_four(Rules::four_player(Mode::Dark), classic_four(), S).unwrap();
    assert_eq!(game.scores(), None);
    while game.position().ply() < 41 {
        first_move(&mut game);
    }
    game.apply_table(E, Action::Resign).unwrap();
    game.apply_table(W, Action::Resign).unwrap();
    let mut expected = [0i8; 4];
    for (side, score) in [(S, 2), (N, 2), (E, -2), (W, -2)] {
        expected[side.index()] = score;
    }
    assert_eq!(game.scores(), Some(expected));
    // Within 40 plies the winners score nothing; the losers still lose.
    let mut quick = Game::new_four(Rules::four_player(Mode::Dark), classic_four(), S).unwrap();
    while quick.position().ply() < 20 {
        first_move(&mut quick);
    }
    quick.apply_table(S, Action::Resign).unwrap();
    quick.apply_table(N, Action::Resign).unwrap();
    let mut expected = [0i8; 4];
    for (side, score) in [(S, -2), (N, -2), (E, 0), (W, 0)] {
        expected[side.index()] = score;
    }
    assert_eq!(quick.scores(), Some(expected));
    // A draw scores nothing.
    let mut draw = Game::new_four(Rules::four_player(Mode::Dark), classic_four(), S).unwrap();
    draw.apply_table(S, Action::OfferDraw).unwrap();
    for s in [E, N, W] {
        draw.apply_table(s, Action::AcceptDraw).unwrap();
    }
    assert_eq!(draw.scores(), Some([0; 4]));
    // Two players: +1 / -1 after 30 plies.
    let c = classic_four();
    let mut two = Game::new(Rules::default(), c[0], c[1], S).unwrap();
    while two.position().ply() < 30 {
        first_move(&mut two);
    }
    two.apply(N, Action::Resign).unwrap();
    let mut expected = [0i8; 4];
    expected[S.index()] = 1;
    expected[N.index()] = -1;
    assert_eq!(two.scores(), Some(expected));
}
