//! Property tests over whole random games with randomized rule options:
//! the generator and the independent legality check agree, the board
//! invariants hold after every move, records replay exactly, and the
//! notation and position file round-trip.

use junqi_game::notation::{annotate, movetext, parse_movetext};
use junqi_game::*;
use proptest::prelude::*;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::collections::BTreeMap;

fn rules_strategy() -> impl Strategy<Value = Rules> {
    (
        prop_oneof![Just(Mode::Dark), Just(Mode::Open), Just(Mode::Flip)],
        any::<bool>(),
        any::<bool>(),
        prop_oneof![
            Just(MineRule::Standard),
            Just(MineRule::Trades),
            Just(MineRule::BombMines)
        ],
        prop_oneof![
            Just(FlagCapture::Anyone),
            Just(FlagCapture::NotCommander),
            Just(FlagCapture::EngineersOnly)
        ],
        any::<bool>(),
        20u16..=90,
        (any::<bool>(), any::<bool>(), 0u8..=4),
    )
        .prop_map(
            |(mode, flying, hq, mines, flag, scouting, quiet, (immune, no_suicide, timeouts))| {
                Rules {
                    mode,
                    flying_bombs: flying,
                    hq_exit: hq,
                    mines,
                    flag_capture: flag,
                    engineer_scouting: scouting,
                    quiet_draw_plies: quiet,
                    max_timeouts: timeouts,
                    facedown_immune: immune,
                    no_suicide,
                    ..Rules::default()
                }
            },
        )
}

fn new_game(rules: Rules, rng: &mut Pcg64Mcg) -> Game {
    let first = if rng.random_bool(0.5) {
        Side::South
    } else {
        Side::North
    };
    if rules.mode == Mode::Flip {
        Game::new_flip_shuffled(rules, first, rng)
    } else {
        let a = Layout::random(&rules, rng);
        let b = Layout::random(&rules, rng);
        Game::new(rules, a, b, first).expect("random layouts are legal")
    }
}

/// Every piece by identity: where it stands and what it is.
fn census(pos: &Position) -> BTreeMap<PieceId, (Point, Piece)> {
    pos.pieces().map(|(p, pc)| (pc.id, (p, pc))).collect()
}

/// The generator and the checker agree on this position.
fn check_generator_against_checker(
    pos: &Position,
    rng: &mut Pcg64Mcg,
) -> Result<(), TestCaseError> {
    let board = pos.board();
    let n = board.len();
    let moves = pos.legal_moves();
    let mut step = vec![false; n * n];
    let mut flip = vec![false; n];
    for &m in &moves {
        prop_assert!(
            pos.check(m).is_ok(),
            "generated {m:?} refused: {:?}",
            pos.check(m)
        );
        match m {
            Move::Step { from, to } => {
                prop_assert!(!step[from.index() * n + to.index()], "duplicate {m:?}");
                step[from.index() * n + to.index()] = true;
                // Camps are safe: nothing in a camp is ever attacked.
                prop_assert!(
                    board.kind(to) != PointKind::Camp || pos.at(to).is_none(),
                    "attack on a camp: {m:?}"
                );
                let pc = pos.at(from).expect("a mover");
                prop_assert!(pc.face_up && pc.side == pos.turn() && pc.rank.is_movable());
                prop_assert!(
                    board.kind(from) != PointKind::Headquarters
                        || pos.rules().may_leave_headquarters(),
                    "a piece leaves a headquarters: {m:?}"
                );
            }
            Move::Flip { at } => flip[at.index()] = true,
        }
    }
    // All destinations of a few of the side's pieces, and random pairs.
    let own: Vec<Point> = pos
        .pieces()
        .filter(|(_, pc)| pc.side == pos.turn())
        .map(|(p, _)| p)
        .collect();
    let mut froms: Vec<Point> = own.choose_multiple(rng, 3).copied().collect();
    froms.extend((0..3).map(|_| Point(rng.random_range(0..n) as u8)));
    for from in froms {
        for t in 0..n {
            let to = Point(t as u8);
            let m = Move::Step { from, to };
            prop_assert_eq!(
                pos.check(m).is_ok(),
                step[from.index() * n + t],
                "check and generator disagree on {:?}",
                m
            );
        }
    }
    for _ in 0..4 {
        let at = Point(rng.random_range(0..n) as u8);
        prop_assert_eq!(pos.check(Move::Flip { at }).is_ok(), flip[at.index()]);
    }
    Ok(())
}

/// What may change from one position to the next.
fn check_transition(
    before: &Position,
    after: &Position,
    m: Option<Move>,
) -> Result<(), TestCaseError> {
    let board = before.board();
    let (b, a) = (census(before), census(after));
    prop_assert!(a.len() <= b.len(), "pieces appeared");
    for (id, (p, pc)) in &a {
        let Some((p0, pc0)) = b.get(id) else {
            return Err(TestCaseError::fail(format!("new piece {id:?}")));
        };
        prop_assert_eq!(pc.rank, pc0.rank, "a piece changed rank");
        prop_assert!(pc.face_up || !pc0.face_up, "a piece went face down");
        if p != p0 {
            prop_assert!(pc0.face_up, "a face-down piece moved");
            prop_assert!(pc.rank.is_movable(), "a {:?} moved", pc.rank);
            prop_assert!(
                board.kind(*p0) != PointKind::Headquarters
                    || after.rules().may_leave_headquarters(),
                "a piece left a headquarters"
            );
            prop_assert_eq!(Some(Move::Step { from: *p0, to: *p }), m);
        }
    }
    if let Some(Move::Step { to, .. }) = m
        && board.kind(to) == PointKind::Camp
    {
        prop_assert!(before.at(to).is_none(), "a piece in a camp was attacked");
    }
    Ok(())
}

fn play_and_check(rules: Rules, seed: u64) -> Result<(), TestCaseError> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut game = new_game(rules, &mut rng);
    let mut history = vec![game.position().clone()];
    while game.result().is_none() {
        let before = game.position().clone();
        let side = game.turn();
        check_generator_against_checker(&before, &mut rng)?;
        let r: f64 = rng.random();
        let action = if r < 0.01 {
            Action::Timeout
        } else if r < 0.015 && game.draw_offer().is_none() {
            Action::OfferDraw
        } else if game.draw_offer() == Some(side.opponent()) {
            Action::DeclineDraw
        } else if r > 0.999 && before.ply() >= rules.resign_after_plies {
            Action::Resign
        } else {
            let moves = before.legal_moves();
            Action::Move(
                *moves
                    .choose(&mut rng)
                    .expect("a game in progress has moves"),
            )
        };
        let m = match action {
            Action::Move(m) => Some(m),
            _ => None,
        };
        if let Some(m) = m {
            let mut copy = before.clone();
            prop_assert!(copy.play(m).is_ok());
        }
        game.apply(side, action)
            .map_err(|e| TestCaseError::fail(format!("{action:?} refused: {e}")))?;
        check_transition(&before, game.position(), m)?;
        history.push(game.position().clone());
        // Once in a while: the position file round-trips here (a position
        // file has no captured flag: it describes a game in progress).
        if rng.random_bool(0.02) && game.position().flag_captured().is_none() {
            let json = position_to_json(game.position());
            let loaded =
                position_from_json(&json).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(position_to_json(&loaded), json);
            let key = |p: &Position| {
                let mut v: Vec<Move> = p.legal_moves().to_vec();
                v.sort_by_key(|m| format!("{m:?}"));
                v
            };
            prop_assert_eq!(key(&loaded), key(game.position()));
        }
    }
    // Replaying the record reproduces every state.
    let record = game.record().clone();
    let replayed = Game::replay(&record, None).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(replayed.position(), game.position());
    prop_assert_eq!(replayed.events(), game.events());
    prop_assert_eq!(replayed.result(), game.result());
    let k = rng.random_range(0..=record.actions.len());
    let partial = Game::replay(&record, Some(k)).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(partial.position(), &history[k]);
    // The record's movetext round-trips.
    let written = annotate(&record).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let text = movetext(&written);
    let parsed = parse_movetext(&text, record.first)
        .map_err(|e| TestCaseError::fail(format!("{e} in {text}")))?;
    prop_assert_eq!(&parsed, &written);
    let actions: Vec<(Side, Action)> = parsed.iter().map(|w| (w.side, w.action)).collect();
    prop_assert_eq!(actions, record.actions);
    Ok(())
}

proptest! {
    // 48 games by default; PROPTEST_CASES=N for a longer hunt.
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(48)
    ))]

    #[test]
    fn random_games_keep_every_invariant(rules in rules_strategy(), seed in any::<u64>()) {
        play_and_check(rules, seed)?;
    }
}

#[test]
fn default_rules_in_every_mode() {
    for mode in [Mode::Dark, Mode::Open, Mode::Flip] {
        for seed in 0..4 {
            play_and_check(Rules::for_mode(mode), seed).unwrap();
        }
    }
}
