//! The four-player rules of RULES.md §9 on the board of BOARD4.md, point by
//! point (points written as BOARD4.md writes them, `S:35`, `C:8`).

use Rank::*;
use Side::{East as E, North as N, South as S, West as W};
use junqi_game::*;

fn pt(name: &str) -> Point {
    Board::four_player().parse_point(name).unwrap()
}

fn step(from: &str, to: &str) -> Move {
    Move::Step {
        from: pt(from),
        to: pt(to),
    }
}

/// A four-player position from (point, side, rank) triples, `turn` to move,
/// with a flag for each side in its headquarters unless given, and the
/// turn settled (a seat without a legal move is out).
fn position(rules: Rules, turn: Side, pieces: &[(&str, Side, Rank)]) -> Position {
    let mut pos = Position::empty(Board::four_player(), rules, turn);
    let mut next_id = [0u8; 4];
    let mut put = |pos: &mut Position, p: Point, side: Side, rank: Rank| {
        let id = PieceId(side.index() as u8 * 25 + next_id[side.index()]);
        next_id[side.index()] += 1;
        pos.set(
            p,
            Some(Piece {
                side,
                rank,
                face_up: true,
                id,
            }),
        );
    };
    for &(p, side, rank) in pieces {
        put(&mut pos, pt(p), side, rank);
    }
    for side in Side::FOUR {
        if !pieces.iter().any(|&(_, s, r)| s == side && r == Flag) {
            let hq = Board::four_player().point(side, 6, 2).unwrap();
            put(&mut pos, hq, side, Flag);
        }
    }
    pos.settle();
    pos
}

fn four() -> Rules {
    Rules::four_player(Mode::Dark)
}

/// A movable piece for each of E, N and W far from the action, so nobody is
/// out for want of a move.
const BYSTANDERS: [(&str, Side, Rank); 3] = [
    ("E:43", E, Platoon),
    ("N:43", N, Platoon),
    ("W:43", W, Platoon),
];

fn with_bystanders<'a>(pieces: &[(&'a str, Side, Rank)]) -> Vec<(&'a str, Side, Rank)> {
    let mut v = pieces.to_vec();
    for b in BYSTANDERS {
        if !v.iter().any(|&(_, s, _)| s == b.1) {
            v.push(b);
        }
    }
    v
}

#[test]
fn curve_line_s35_to_e31_needs_the_points_between_empty() {
    let pos = position(four(), S, &with_bystanders(&[("S:35", S, Corps)]));
    // BOARD4.md §3: along line 15 through S:25, S:15, the curve, E:11, E:21.
    assert!(pos.is_legal(step("S:35", "E:31")));
    assert!(pos.is_legal(step("S:35", "E:51")));
    // Line 12 runs straight on through the centre to North's column 1.
    assert!(pos.is_legal(step("S:35", "N:51")));
    // A turn at C:9 or at S:15 is not straight.
    assert!(!pos.is_legal(step("S:35", "C:8")));
    assert!(!pos.is_legal(step("S:35", "S:14")));
    // Any piece on E:21 blocks the run; an enemy there can be attacked.
    let blocked = position(
        four(),
        S,
        &with_bystanders(&[("S:35", S, Corps), ("E:21", E, Engineer)]),
    );
    assert!(blocked.is_legal(step("S:35", "E:21")));
    assert!(!blocked.is_legal(step("S:35", "E:31")));
}

#[test]
fn long_line_s55_to_n51_passes_eleven_points() {
    let pos = position(four(), S, &with_bystanders(&[("S:55", S, Brigade)]));
    assert!(pos.is_legal(step("S:55", "N:51")));
    assert!(pos.is_legal(step("S:55", "C:3")));
    let blocked = position(
        four(),
        S,
        &with_bystanders(&[("S:55", S, Brigade), ("C:6", W, Engineer)]),
    );
    assert!(blocked.is_legal(step("S:55", "C:6")));
    assert!(!blocked.is_legal(step("S:55", "C:3")));
    assert!(!blocked.is_legal(step("S:55", "N:51")));
}

#[test]
fn centre_line_s13_to_n13_and_no_rail_from_s12() {
    let pos = position(
        four(),
        S,
        &with_bystanders(&[
            ("S:13", S, Corps),
            ("S:12", S, Engineer),
            ("S:11", S, Division),
        ]),
    );
    assert!(pos.is_legal(step("S:13", "N:13")));
    assert!(pos.is_legal(step("S:13", "C:5")));
    // S:12 has no edge toward the centre; even an engineer must go round by
    // S:11 (taken) or S:13 (taken).
    assert!(!pos.is_legal(step("S:12", "C:8")));
    // S:11 → C:8 turns at C:7: engineers only.
    assert!(!pos.is_legal(step("S:11", "C:8")));
    let eng = position(four(), S, &with_bystanders(&[("S:11", S, Engineer)]));
    assert!(eng.is_legal(step("S:11", "C:8")));
    // On an otherwise empty railway the engineer reaches every other railway
    // point (the bystanders stand off it), plus its one road step, the
    // diagonal to the camp S:22.
    let rail = Board::four_player()
        .points()
        .filter(|&p| Board::four_player().info(p).rail)
        .count();
    let from = eng.moves_from(pt("S:11"));
    assert_eq!(from.len(), rail - 1 + 1);
}

#[test]
fn a_partners_piece_is_no_target_and_blocks_a_railway_run() {
    // North's piece on S:35 is South's partner: no attack, no passing.
    let pos = position(
        four(),
        S,
        &with_bystanders(&[("S:55", S, Corps), ("S:35", N, Platoon)]),
    );
    assert!(pos.is_legal(step("S:55", "S:45")));
    assert_eq!(
        pos.check(step("S:55", "S:35")),
        Err(IllegalMove::Unreachable)
    );
    assert!(!pos.is_legal(step("S:55", "S:25")));
    assert!(!pos.is_legal(step("S:55", "E:31")));
    // The same for an engineer searching the railway graph: round by row 5
    // and column 1 it still gets to S:15 through the centre, never onto N's piece.
    let eng = position(
        four(),
        S,
        &with_bystanders(&[("S:55", S, Engineer), ("S:35", N, Platoon)]),
    );
    assert!(!eng.is_legal(step("S:55", "S:35")));
    assert!(eng.is_legal(step("S:55", "S:25")));
    assert!(eng.moves_from(pt("S:55")).iter().all(|m| match *m {
        Move::Step { to, .. } => eng.at(to).is_none_or(|pc| pc.side != N),
        Move::Flip { .. } => false,
    }));
    // East's piece there (an enemy) is attacked and stops the run.
    let enemy = position(
        four(),
        S,
        &with_bystanders(&[("S:55", S, Corps), ("S:35", E, Platoon)]),
    );
    assert!(enemy.is_legal(step("S:55", "S:35")));
    assert!(!enemy.is_legal(step("S:55", "S:25")));
}

#[test]
fn partners_never_attack_each_other_in_legal_moves() {
    let pos = position(
        four(),
        S,
        &with_bystanders(&[
            ("S:13", S, Commander),
            ("S:14", N, Engineer),
            ("S:12", N, Bomb),
            ("C:8", N, Division),
            ("S:23", N, Platoon),
        ]),
    );
    let moves = pos.legal_moves();
    assert!(!moves.is_empty());
    for m in &moves {
        if let Move::Step { to, .. } = *m {
            assert!(pos.at(to).is_none_or(|pc| pc.side.team() != S.team()));
        }
    }
}

#[test]
fn turns_go_south_east_north_west_and_skip_seats_that_are_out() {
    let pieces = [
        ("S:43", S, Platoon),
        ("E:43", E, Platoon),
        ("N:43", N, Platoon),
        ("W:43", W, Platoon),
    ];
    let mut pos = position(four(), S, &pieces);
    let mut order = Vec::new();
    for m in [
        step("S:43", "S:53"),
        step("E:43", "E:53"),
        step("N:43", "N:53"),
        step("W:43", "W:53"),
    ] {
        order.push(pos.turn());
        pos.play(m).unwrap();
    }
    assert_eq!(order, [S, E, N, W]);
    assert_eq!(pos.turn(), S);
    // East resigns (not on its turn): South's move now passes to North.
    pos.put_out(E, WinReason::Resignation);
    assert!(!pos.is_in(E));
    assert_eq!(pos.out_reason(E), Some(WinReason::Resignation));
    assert!(pos.pieces().all(|(_, pc)| pc.side != E));
    pos.play(step("S:53", "S:43")).unwrap();
    assert_eq!(pos.turn(), N);
    // Clockwise (联众): S → W → N → E.
    let mut cw = position(
        Rules {
            clockwise: true,
            ..four()
        },
        S,
        &pieces,
    );
    cw.play(step("S:43", "S:53")).unwrap();
    assert_eq!(cw.turn(), W);
    cw.play(step("W:43", "W:53")).unwrap();
    assert_eq!(cw.turn(), N);
}

#[test]
fn a_captured_flag_puts_its_player_out_and_the_capturer_stays() {
    let mut pos = position(
        four(),
        S,
        &with_bystanders(&[
            ("E:52", S, Engineer),
            ("E:62", E, Flag),
            ("E:33", E, Commander),
            ("E:61", E, Landmine),
        ]),
    );
    let before = pos.ply();
    let effect = pos.play(step("E:52", "E:62")).unwrap();
    assert!(matches!(effect, Effect::Battle { clash, .. } if clash.flag_captured));
    assert!(!pos.is_in(E));
    assert_eq!(pos.out_reason(E), Some(WinReason::FlagCaptured));
    assert!(pos.pieces().all(|(_, pc)| pc.side != E), "{pos:?}");
    assert_eq!(
        pos.at(pt("E:62")).map(|pc| (pc.side, pc.rank)),
        Some((S, Engineer))
    );
    // The game goes on; East's turn is skipped.
    assert_eq!(pos.result(), None);
    assert_eq!(pos.turn(), N);
    assert_eq!(pos.ply(), before + 1);
    // The flag point no longer blocks: the captured flag's points are empty.
    assert!(pos.at(pt("E:33")).is_none());
}

#[test]
fn the_team_with_a_player_left_wins() {
    let mut pos = position(
        four(),
        S,
        &with_bystanders(&[("E:52", S, Engineer), ("E:62", E, Flag)]),
    );
    pos.put_out(W, WinReason::Timeouts);
    assert_eq!(pos.result(), None);
    pos.play(step("E:52", "E:62")).unwrap();
    assert_eq!(
        pos.result(),
        Some(GameResult::Win {
            winner: S,
            reason: WinReason::FlagCaptured
        })
    );
    assert!(pos.legal_moves().is_empty());
    // A team with one player out still plays on and can win: South out, North wins.
    let mut lone = position(
        four(),
        N,
        &with_bystanders(&[("E:52", N, Engineer), ("E:62", E, Flag)]),
    );
    lone.put_out(S, WinReason::Resignation);
    lone.put_out(W, WinReason::Resignation);
    assert_eq!(lone.turn(), N);
    lone.play(step("E:52", "E:62")).unwrap();
    assert_eq!(
        lone.result(),
        Some(GameResult::Win {
            winner: N,
            reason: WinReason::FlagCaptured
        })
    );
}

#[test]
fn a_player_without_a_legal_move_is_out_when_its_turn_comes() {
    // East has only mines and its flag: when South has moved, East is out
    // and North moves.
    let mut pos = position(
        four(),
        S,
        &[
            ("S:43", S, Platoon),
            ("E:51", E, Landmine),
            ("N:43", N, Platoon),
            ("W:43", W, Platoon),
        ],
    );
    assert!(pos.is_in(E));
    pos.play(step("S:43", "S:53")).unwrap();
    assert!(!pos.is_in(E));
    assert_eq!(pos.out_reason(E), Some(WinReason::NoLegalMove));
    assert!(pos.pieces().all(|(_, pc)| pc.side != E));
    assert_eq!(pos.turn(), N);
    assert_eq!(pos.result(), None);
}

#[test]
fn nothing_movable_anywhere_is_a_draw() {
    // Two platoons trade: only mines and flags are left.
    let rules = Rules {
        last_pieces: false,
        ..four()
    };
    let mut pos = position(
        rules,
        S,
        &[
            ("S:43", S, Platoon),
            ("S:53", E, Platoon),
            ("E:51", E, Landmine),
            ("N:51", N, Landmine),
            ("W:51", W, Landmine),
        ],
    );
    pos.play(step("S:43", "S:53")).unwrap();
    assert_eq!(
        pos.result(),
        Some(GameResult::Draw {
            reason: DrawReason::NoMovesEither
        })
    );
}

#[test]
fn last_pieces_trade_wins_for_the_attacker_when_the_rule_is_on() {
    let pieces = [
        ("S:43", S, Regiment),
        ("S:53", E, Regiment),
        ("E:51", E, Landmine),
        ("N:51", N, Landmine),
        ("W:51", W, Landmine),
    ];
    // With the rule (the four-player default) South's team wins.
    let mut pos = position(four(), S, &pieces);
    assert!(pos.rules().last_pieces);
    pos.play(step("S:43", "S:53")).unwrap();
    assert_eq!(
        pos.result(),
        Some(GameResult::Win {
            winner: S,
            reason: WinReason::NoMovablePieces
        })
    );
    assert!(!pos.is_in(E) && !pos.is_in(W));
    assert!(pos.is_in(S) && pos.is_in(N));
    // Without it nothing can move any more: a draw.
    let mut off = position(
        Rules {
            last_pieces: false,
            ..four()
        },
        S,
        &pieces,
    );
    off.play(step("S:43", "S:53")).unwrap();
    assert_eq!(
        off.result(),
        Some(GameResult::Draw {
            reason: DrawReason::NoMovesEither
        })
    );
    // A trade while the partner still has a movable piece is no last trade.
    let mut more = position(
        four(),
        S,
        &[
            ("S:43", S, Regiment),
            ("S:53", E, Regiment),
            ("E:51", E, Landmine),
            ("N:43", N, Platoon),
            ("W:51", W, Landmine),
        ],
    );
    more.play(step("S:43", "S:53")).unwrap();
    assert_eq!(more.result(), None);
    assert!(more.is_in(N));
}

#[test]
fn the_last_pieces_rule_applies_to_two_player_games_when_switched_on() {
    let rules = Rules {
        last_pieces: true,
        ..Rules::default()
    };
    let mut pos = Position::empty(Board::classic(), rules, S);
    let b = Board::classic();
    let q = |n: &str| b.parse_point(n).unwrap();
    for (i, (p, side, rank)) in [
        ("S43", S, Regiment),
        ("S53", N, Regiment),
        ("S62", S, Flag),
        ("N62", N, Flag),
    ]
    .into_iter()
    .enumerate()
    {
        pos.set(
            q(p),
            Some(Piece {
                side,
                rank,
                face_up: true,
                id: PieceId(i as u8),
            }),
        );
    }
    pos.play(Move::Step {
        from: q("S43"),
        to: q("S53"),
    })
    .unwrap();
    assert_eq!(
        pos.result(),
        Some(GameResult::Win {
            winner: S,
            reason: WinReason::NoMovablePieces
        })
    );
}

#[test]
fn seventy_quiet_plies_draw_a_four_player_game() {
    let mut pos = position(
        four(),
        S,
        &[
            ("S:43", S, Platoon),
            ("E:43", E, Platoon),
            ("N:43", N, Platoon),
            ("W:43", W, Platoon),
        ],
    );
    assert_eq!(pos.rules().quiet_draw_plies, 70);
    for ply in 0..70 {
        assert_eq!(pos.result(), None, "ply {ply}");
        let side = pos.turn();
        let (a, b) = (
            Board::four_player().point(side, 4, 3).unwrap(),
            Board::four_player().point(side, 5, 3).unwrap(),
        );
        let m = if pos.at(a).is_some() {
            Move::Step { from: a, to: b }
        } else {
            Move::Step { from: b, to: a }
        };
        pos.play(m).unwrap();
    }
    assert_eq!(
        pos.result(),
        Some(GameResult::Draw {
            reason: DrawReason::QuietMoves
        })
    );
}

#[test]
fn four_player_defaults_follow_rules_section_9() {
    let r = Rules::four_player(Mode::Dark);
    assert_eq!(r.quiet_draw_plies, 70);
    assert_eq!(r.max_timeouts, 4);
    assert_eq!(r.move_seconds, 30);
    assert_eq!(r.resign_after_plies, 20);
    assert!(r.last_pieces && !r.clockwise && !r.partners_open);
    let two = Rules::default();
    assert!(!two.last_pieces);
    assert_eq!(two.quiet_draw_plies, 60);
}

#[test]
fn a_bomb_on_a_flag_takes_it_and_both_are_removed() {
    let mut pos = position(
        four(),
        S,
        &with_bystanders(&[("E:52", S, Bomb), ("E:62", E, Flag), ("E:33", E, Corps)]),
    );
    pos.play(step("E:52", "E:62")).unwrap();
    assert!(!pos.is_in(E));
    assert_eq!(pos.out_reason(E), Some(WinReason::FlagCaptured));
    assert!(pos.at(pt("E:62")).is_none() && pos.at(pt("E:52")).is_none());
    // Engineers only: the bomb is removed and the flag stays.
    let mut engineers_only = position(
        Rules {
            flag_capture: FlagCapture::EngineersOnly,
            ..four()
        },
        S,
        &with_bystanders(&[("E:52", S, Bomb), ("E:62", E, Flag), ("E:33", E, Corps)]),
    );
    engineers_only.play(step("E:52", "E:62")).unwrap();
    assert!(engineers_only.is_in(E));
    assert_eq!(engineers_only.at(pt("E:62")).map(|pc| pc.rank), Some(Flag));
}

#[test]
fn a_player_out_for_want_of_a_move_can_be_the_partner_of_the_mover() {
    // North (South's partner) has only mines: after South's move the turn
    // would pass East then North; East moves, North is out, West moves.
    let mut pos = position(
        four(),
        S,
        &[
            ("S:43", S, Platoon),
            ("E:43", E, Platoon),
            ("N:51", N, Landmine),
            ("W:43", W, Platoon),
        ],
    );
    pos.play(step("S:43", "S:53")).unwrap();
    assert_eq!(pos.turn(), E);
    assert!(pos.is_in(N));
    pos.play(step("E:43", "E:53")).unwrap();
    assert!(!pos.is_in(N));
    assert_eq!(pos.turn(), W);
    // South plays on alone for the team.
    pos.play(step("W:43", "W:53")).unwrap();
    assert_eq!(pos.turn(), S);
    assert_eq!(pos.result(), None);
}
