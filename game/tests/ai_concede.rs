//! Draws and resignations like a person (`ai::concede`), judged from one
//! seat's view only, checked against the true position the test can see.
//!
//! The games are driven by the truth so that one team collapses: the
//! "winner" takes whatever it beats, the "loser" throws its pieces at
//! stronger ones, and neither takes a flag, so the game runs into the
//! hopeless positions the AI must recognise.

mod common;

use junqi_game::ai::concede::{answer_draw, standing, turn_action, wants_draw, wants_to_resign};
use junqi_game::ai::eval::value;
use junqi_game::*;
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_pcg::Pcg64Mcg;

/// The true movable material of `side`'s team and of its enemies.
fn true_material(pos: &Position, side: Side) -> (i32, i32) {
    let team = pos.is_team_game();
    let mut out = (0, 0);
    for (_, piece) in pos.pieces() {
        if !RankSet::MOVABLE.contains(piece.rank) {
            continue;
        }
        let friend = if team {
            piece.side.team() == side.team()
        } else {
            piece.side == side
        };
        if friend {
            out.0 += value(piece.rank);
        } else {
            out.1 += value(piece.rank);
        }
    }
    out
}

/// How a driven side plays.
#[derive(Clone, Copy, PartialEq)]
enum Drive {
    /// Takes what it beats (never a flag), else moves without attacking.
    Winner,
    /// Attacks pieces that beat or trade with it, else moves without attacking.
    Loser,
    /// Never attacks.
    Quiet,
    /// Trades down towards a level endgame: takes when level or behind,
    /// throws a piece when ahead.
    Balance,
}

/// The driven move of the side to move, chosen from the truth.
fn driven_move(pos: &Position, drive: Drive, rng: &mut Pcg64Mcg) -> Option<Move> {
    let moves = pos.legal_moves();
    let (own, enemy) = true_material(pos, pos.turn());
    let mut preferred = Vec::new();
    let mut quiet = Vec::new();
    for &m in moves.iter() {
        let (from, to) = match m {
            Move::Flip { .. } => {
                quiet.push(m);
                continue;
            }
            Move::Step { from, to } => (from, to),
        };
        let (Some(a), target) = (pos.at(from), pos.at(to)) else {
            continue;
        };
        let Some(d) = target else {
            quiet.push(m);
            continue;
        };
        if !d.face_up || d.rank == Rank::Flag {
            continue;
        }
        let outcome = pos.rules().clash(a.rank, d.rank).outcome;
        let good = match drive {
            Drive::Winner => outcome == Outcome::AttackerWins,
            Drive::Loser => outcome != Outcome::AttackerWins,
            Drive::Quiet => false,
            Drive::Balance if own + 100 < enemy => outcome == Outcome::AttackerWins,
            Drive::Balance if own > enemy + 100 => outcome == Outcome::DefenderWins,
            Drive::Balance => {
                outcome == Outcome::AttackerWins
                    || (outcome == Outcome::BothRemoved && a.rank == d.rank)
            }
        };
        if good {
            preferred.push(m);
        }
    }
    preferred
        .choose(rng)
        .or_else(|| quiet.choose(rng))
        .or_else(|| moves.choose(rng))
        .copied()
}

/// What the test saw over one driven game.
#[derive(Default)]
struct Seen {
    /// Plies where the losing team's seat wanted to resign.
    loser_resigns: u32,
    /// Plies where the losing team's seat would accept a draw.
    loser_accepts: u32,
    plies: u32,
}

/// Drives a game with `drive(side)` and checks every seat's decisions at
/// every ply against the truth.
fn drive_game(mut game: Game, drive: impl Fn(Side) -> Drive, seed: u64) -> Seen {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let rules = *game.rules();
    let seats: Vec<Side> = if game.position().is_team_game() {
        Side::FOUR.to_vec()
    } else {
        Side::TWO.to_vec()
    };
    let mut seen = Seen::default();
    while game.result().is_none() && seen.plies < 400 {
        let pos = game.position().clone();
        for &s in &seats {
            if !game.is_in(s) {
                continue;
            }
            let view = game.view(s);
            let (own, enemy) = true_material(&pos, s);
            let resigns = wants_to_resign(&view, false) || wants_to_resign(&view, true);
            // Either temperament: a player out for the win accepts less, never more.
            let accepts = answer_draw(&view, false) || answer_draw(&view, true);
            if view.ply() < rules.resign_after_plies {
                assert!(!resigns, "{s} resigns at ply {}", view.ply());
            }
            if own >= enemy {
                assert!(
                    !resigns,
                    "{s} resigns level or ahead ({own} against {enemy}), ply {}: {:?}",
                    view.ply(),
                    standing(&view)
                );
            }
            if own >= 2 * enemy + 500 {
                assert!(
                    !accepts && !wants_draw(&view, false) && !wants_draw(&view, true),
                    "{s} far ahead ({own} against {enemy}) takes a draw, ply {}: {:?}",
                    view.ply(),
                    standing(&view)
                );
            }
            if drive(s) == Drive::Loser {
                if resigns {
                    // Resigning only when the truth agrees it is lost.
                    assert!(
                        enemy >= 2 * own + 250,
                        "{s} resigns at {own} against {enemy}, ply {}: {:?}",
                        view.ply(),
                        standing(&view)
                    );
                    seen.loser_resigns += 1;
                }
                if accepts {
                    seen.loser_accepts += 1;
                }
            }
        }
        let side = game.turn();
        let action = match driven_move(&pos, drive(side), &mut rng) {
            Some(m) => Action::Move(m),
            None => Action::Timeout,
        };
        game.apply_table(side, action)
            .expect("driven moves are legal");
        seen.plies += 1;
    }
    seen
}

fn two_player_game(mode: Mode, seed: u64) -> Game {
    let rules = Rules::for_mode(mode);
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    if mode == Mode::Flip {
        return Game::new_flip_shuffled(rules, Side::South, &mut rng);
    }
    let s = Layout::random(&rules, &mut rng);
    let n = Layout::random(&rules, &mut rng);
    Game::new(rules, s, n, Side::South).unwrap()
}

#[test]
fn a_crushed_side_resigns_and_the_winner_never_concedes_in_two_player_modes() {
    for mode in [Mode::Dark, Mode::Open, Mode::Flip] {
        let (mut resigned, mut accepted) = (0, 0);
        for seed in 0..3 {
            // In flip games the colours fall where they fall: drive by colour.
            let seen = drive_game(
                two_player_game(mode, seed),
                |s| {
                    if s == Side::South {
                        Drive::Winner
                    } else {
                        Drive::Loser
                    }
                },
                seed,
            );
            resigned += u32::from(seen.loser_resigns > 0);
            accepted += u32::from(seen.loser_accepts > 0);
        }
        assert!(
            resigned >= 2,
            "{mode:?}: the crushed side resigned in {resigned} of 3"
        );
        assert!(
            accepted >= 3,
            "{mode:?}: the crushed side took a draw in {accepted} of 3"
        );
    }
}

#[test]
fn four_player_teams_judge_by_the_team() {
    for (mode, open) in [(Mode::Dark, false), (Mode::Dark, true), (Mode::Open, false)] {
        let rules = Rules {
            partners_open: open,
            ..Rules::four_player(mode)
        };
        let mut rng = Pcg64Mcg::seed_from_u64(11);
        let layouts = [0, 1, 2, 3].map(|_| Layout::random(&rules, &mut rng));
        let game = Game::new_four(rules, layouts, Side::South).unwrap();
        let seen = drive_game(
            game,
            |s| {
                if s.team() == Team::SouthNorth {
                    Drive::Winner
                } else {
                    Drive::Loser
                }
            },
            5,
        );
        assert!(
            seen.loser_resigns > 0,
            "{mode:?} open={open}: the crushed team never resigned in {} plies",
            seen.plies
        );
    }
}

#[test]
fn a_dead_level_endgame_is_offered_and_accepted_and_a_dead_middle_game_is_not_offered() {
    // Full armies, nobody attacks: dead but not an endgame, so nobody offers.
    for mode in [Mode::Dark, Mode::Open] {
        let mut game = two_player_game(mode, 4);
        let mut rng = Pcg64Mcg::seed_from_u64(4);
        while game.result().is_none() {
            let side = game.turn();
            let view = game.view(side);
            assert_eq!(
                turn_action(&view, false),
                None,
                "{mode:?} ply {}",
                view.ply()
            );
            if view.quiet_plies() < 20 && !standing(&view).own_flag_threatened {
                assert!(!answer_draw(&view, false), "{mode:?} ply {}", view.ply());
            }
            let m = driven_move(game.position(), Drive::Quiet, &mut rng).unwrap();
            game.apply(side, Action::Move(m)).unwrap();
        }
        assert_eq!(
            game.result(),
            Some(GameResult::Draw {
                reason: DrawReason::QuietMoves
            })
        );
    }
    // Trades down to a level endgame, then nobody attacks.
    let (mut offers, mut accepted) = (0, 0);
    for seed in 0..10 {
        let mut game = two_player_game(Mode::Open, seed);
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        while game.result().is_none() {
            let side = game.turn();
            let view = game.view(side);
            let st = standing(&view);
            if turn_action(&view, false) == Some(Action::OfferDraw) {
                assert!(st.is_endgame() && st.is_dead() && !st.is_ahead(), "{st:?}");
                offers += 1;
                game.apply(side, Action::OfferDraw).unwrap();
                // Open games: both see the same material, so a level
                // offerer's opponent is level too and accepts; a behind
                // offerer's opponent is ahead and declines.
                let other = game.view(side.opponent());
                let yes = answer_draw(&other, false);
                assert_eq!(yes, !st.is_behind(), "{st:?} / {:?}", standing(&other));
                if yes {
                    game.apply(side.opponent(), Action::AcceptDraw).unwrap();
                    assert_eq!(
                        game.result(),
                        Some(GameResult::Draw {
                            reason: DrawReason::Agreed
                        })
                    );
                    accepted += 1;
                    break;
                }
                game.apply(side.opponent(), Action::DeclineDraw).unwrap();
            }
            let drive = if st.is_endgame() {
                Drive::Quiet
            } else {
                Drive::Balance
            };
            let m = driven_move(game.position(), drive, &mut rng).unwrap();
            game.apply(side, Action::Move(m)).unwrap();
        }
    }
    assert!(
        accepted >= 3,
        "a dead level endgame agreed drawn in {accepted} of 10 games ({offers} offers)"
    );
}

#[test]
fn decisions_are_deterministic() {
    let mut game = two_player_game(Mode::Dark, 9);
    let mut rng = Pcg64Mcg::seed_from_u64(9);
    for _ in 0..60 {
        let side = game.turn();
        let drive = if side == Side::South {
            Drive::Winner
        } else {
            Drive::Loser
        };
        let m = driven_move(game.position(), drive, &mut rng).unwrap();
        game.apply(side, Action::Move(m)).unwrap();
        if game.result().is_some() {
            break;
        }
    }
    let view = game.view(Side::North);
    assert_eq!(standing(&view), standing(&view.clone()));
    assert_eq!(standing(&view), standing(&game.view(Side::North)));
}

#[test]
fn who_can_still_open_a_boxed_flag_decides_draws_in_a_level_endgame() {
    use Rank::*;
    use Side::{North as N, South as S};
    // Both flags boxed in by three landmines; a division each; only South
    // keeps an engineer, so only South can still take a flag.
    let mut pieces = vec![
        ("S62", S, Flag),
        ("S61", S, Landmine),
        ("S63", S, Landmine),
        ("S52", S, Landmine),
        ("S35", S, Division),
        ("S23", S, Engineer),
        ("N62", N, Flag),
        ("N61", N, Landmine),
        ("N63", N, Landmine),
        ("N52", N, Landmine),
        ("N34", N, Division),
        ("N22", N, Platoon),
    ];
    let pos = common::open_position(&pieces, 120, 40);
    let south = PlayerView::of_open_position(&pos, S).expect("open view");
    let north = PlayerView::of_open_position(&pos, N).expect("open view");
    let s = standing(&south);
    assert!(s.own_can_open && !s.enemy_can_open && s.holds_the_keys());
    assert!(!answer_draw(&south, false) && !wants_draw(&south, false));
    let n = standing(&north);
    assert!(!n.own_can_open && n.enemy_can_open && n.lost_the_keys());
    assert!(answer_draw(&north, false));
    // A free point beside North's flag: North's platoon is no key, but
    // nothing needs one; South's flag stays shut to North.
    pieces.retain(|p| p.0 != "N52");
    let open = common::open_position(&pieces, 120, 40);
    let n = standing(&PlayerView::of_open_position(&open, N).unwrap());
    assert!(!n.own_can_open && n.enemy_can_open);
    // Dark and flip games' views are refused: they come from events.
    for mode in [Mode::Dark, Mode::Flip] {
        let hidden = Position::empty(Board::classic(), Rules::for_mode(mode), S);
        assert!(
            PlayerView::of_open_position(&hidden, S).is_err(),
            "{mode:?}"
        );
    }
}

#[test]
fn the_standing_knows_an_enemy_piece_at_the_gates_of_the_flag() {
    // A dark game of 16 actions: North's last move strikes South's flag on
    // S62 from S52.
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/dark_game_record.json"
    );
    let record: Record =
        serde_json::from_str(&std::fs::read_to_string(path).expect("the record")).expect("JSON");
    let start = Game::replay(&record, Some(0)).expect("replays");
    assert!(!standing(&start.view(Side::South)).own_flag_pressed);
    assert!(!standing(&start.view(Side::North)).own_flag_pressed);
    let before = Game::replay(&record, Some(15)).expect("replays");
    let board = before.position().board();
    let at = |name: &str| board.parse_point(name).expect("a point");
    assert_eq!(
        before.position().at(at("S62")).map(|p| (p.side, p.rank)),
        Some((Side::South, Rank::Flag))
    );
    assert_eq!(
        before.position().at(at("S52")).map(|p| p.side),
        Some(Side::North)
    );
    assert!(standing(&before.view(Side::South)).own_flag_pressed);
    // At every action, pressed exactly when a North piece stands on a
    // neighbour of the flag; two steps away is not yet at the gates.
    let dist = &junqi_game::ai::eval::tables(board).dist[at("S62").index()];
    let mut two_steps = 0;
    for k in 0..=15 {
        let g = Game::replay(&record, Some(k)).expect("replays");
        let nearest = g
            .position()
            .pieces()
            .filter(|(_, p)| p.side == Side::North)
            .map(|(q, _)| dist[q.index()])
            .min()
            .expect("North pieces");
        two_steps += usize::from(nearest == 2);
        assert_eq!(
            standing(&g.view(Side::South)).own_flag_pressed,
            nearest <= 1,
            "action {k}: nearest North piece {nearest} steps away"
        );
    }
    assert!(two_steps > 0, "no action with a North piece two steps away");
    // Outside dark games the rule does not hold a player back.
    let open = two_player_game(Mode::Open, 1);
    assert!(standing(&open.view(Side::South)).own_flag_pressed);
}
