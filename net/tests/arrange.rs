//! Each player arranges its own army after the pairing code is shown: the layout a side sets
//! before it confirms is the one it commits to, plays and opens at the end; after the
//! confirmation it can no longer be changed.

use junqi_game::{Layout, Mode, Rules, Setup, Side};
use junqi_proto::session::SessionError;
use junqi_proto::testing::{Pair, preset};

const STEPS: usize = 200_000;

/// The layout of `side` in the audited record.
fn recorded(p: &Pair, side: Side) -> Layout {
    let v = p.verdict(0).expect("a verdict");
    assert!(v.is_clean(), "{v:?}");
    let record = v.record.as_ref().expect("a clean game's record");
    match (record.setup.clone(), side) {
        (Setup::Layouts { south, .. }, Side::South) => south,
        (Setup::Layouts { north, .. }, _) => north,
        _ => panic!("no two-player layouts in this game"),
    }
}

#[test]
fn the_layout_set_before_confirming_is_the_one_played_and_audited() {
    for (seed, mode) in [(31u64, Mode::Dark), (32, Mode::Open)] {
        let rules = Rules::for_mode(mode);
        let mut p = Pair::new(rules, seed);
        p.auto_confirm = false;
        p.step_until(|p| p.sessions.iter().all(|s| s.pairing().is_some()));
        // Both rearrange: layouts neither side started with.
        let chosen = [preset(seed as usize + 3), preset(seed as usize + 5)];
        for (i, &mine) in chosen.iter().enumerate() {
            assert_ne!(p.sessions[i].layout(), Some(mine), "a new layout");
            p.sessions[i].set_layout(mine).unwrap();
            assert_eq!(p.sessions[i].layout(), Some(mine));
            let now = p.clock(i);
            p.sessions[i].confirm_pairing(now).unwrap();
            // Committed: no more changes.
            assert_eq!(
                p.sessions[i].set_layout(preset(0)),
                Err(SessionError::WrongPhase)
            );
            assert_eq!(p.sessions[i].layout(), Some(mine));
        }
        p.run(STEPS);
        for (i, &mine) in chosen.iter().enumerate() {
            let me = p.sessions[i].side();
            assert_eq!(recorded(&p, me), mine, "{mode:?} side {i}");
        }
    }
}

#[test]
fn an_illegal_layout_is_refused_and_the_old_one_stays() {
    let mut p = Pair::new(Rules::for_mode(Mode::Dark), 33);
    p.auto_confirm = false;
    // Before the pairing code: not yet.
    assert_eq!(
        p.sessions[0].set_layout(preset(1)),
        Err(SessionError::WrongPhase)
    );
    p.step_until(|p| p.sessions.iter().all(|s| s.pairing().is_some()));
    let before = p.sessions[1].layout();
    // A camp (row 2, column 2) must stay empty.
    let bad = preset(1).swapped((1, 1), (2, 2));
    assert!(
        bad.validate(p.sessions[1].rules()).is_err(),
        "an illegal layout"
    );
    assert!(matches!(
        p.sessions[1].set_layout(bad),
        Err(SessionError::BadLayout(_))
    ));
    assert_eq!(p.sessions[1].layout(), before);
}
