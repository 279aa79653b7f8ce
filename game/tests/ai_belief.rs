//! The AI's belief stays consistent with the truth and with every observation.

use junqi_game::ai::behaviour::BUCKETS;
use junqi_game::ai::calibration::observe;
use junqi_game::ai::{Belief, GreedyPlayer, Player, Priors, RandomPlayer, Sample};
use junqi_game::*;
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_pcg::Pcg64Mcg;

fn new_game(mode: Mode, rng: &mut Pcg64Mcg) -> Game {
    let rules = Rules::for_mode(mode);
    if mode == Mode::Flip {
        Game::new_flip_shuffled(rules, Side::South, rng)
    } else {
        let classic = classic_layouts();
        let a = classic.choose(rng).unwrap().layout;
        let b = Layout::random(&rules, rng);
        Game::new(rules, a, b, Side::South).unwrap()
    }
}

/// Every rank of both armies under a sample: own pieces as the view knows
/// them, hidden enemy pieces from the sample.
fn ranks_under(view: &PlayerView, sample: &Sample) -> [Option<Rank>; 50] {
    let mut out = [None; 50];
    for k in view.pieces() {
        out[k.id.0 as usize] = k.known().or(sample.ranks[k.id.0 as usize]);
    }
    out
}

/// Replays the public events with the sample's ranks and checks that every
/// observation would have come out the same (dark games).
fn check_sample_explains_events(view: &PlayerView, sample: &Sample) {
    let board = view.board();
    let rules = *view.rules();
    let ranks = ranks_under(view, sample);
    let mut ids: Vec<Option<PieceId>> = vec![None; board.len()];
    for side in Side::TWO {
        for (slot, &p) in board.setup_points(side).iter().enumerate() {
            ids[p.index()] = Some(PieceId((side.index() * 25 + slot) as u8));
        }
    }
    // Counts: the army is complete.
    let enemy = view.me().opponent();
    let mut counts = [0u8; 12];
    for k in view.pieces().filter(|k| k.side == enemy) {
        let r = ranks[k.id.0 as usize].expect("every enemy piece has a rank");
        assert!(k.possible.contains(r), "sample breaks a hard fact");
        counts[r.index()] += 1;
    }
    for r in Rank::ALL {
        assert_eq!(
            counts[r.index()],
            r.count(),
            "sample breaks the counts of {r:?}"
        );
    }
    for e in view.events() {
        match *e {
            Event::Moved { from, to, .. } => {
                let id = ids[from.index()].expect("a piece moved");
                let r = ranks[id.0 as usize].unwrap();
                assert!(r.is_movable(), "a {r:?} moved in the sample");
                let straight = board.is_road_edge(from, to)
                    || board.straight_rail_path(from, to, |q| ids[q.index()].is_none());
                assert!(straight || r == Rank::Engineer, "a {r:?} turned a corner");
                ids[to.index()] = ids[from.index()].take();
            }
            Event::Battle {
                from,
                to,
                announcement,
                ..
            } => {
                let a = ids[from.index()].expect("attacker");
                let d = ids[to.index()].expect("defender");
                let (ra, rd) = (ranks[a.0 as usize].unwrap(), ranks[d.0 as usize].unwrap());
                assert!(ra.is_movable());
                let straight = board.is_road_edge(from, to)
                    || board.straight_rail_path(from, to, |q| ids[q.index()].is_none());
                assert!(straight || ra == Rank::Engineer);
                assert_eq!(
                    rules.announce(ra, rd),
                    announcement,
                    "the sample's {ra:?} vs {rd:?} would be announced differently"
                );
                ids[from.index()] = None;
                match announcement.outcome {
                    Outcome::AttackerWins => ids[to.index()] = Some(a),
                    Outcome::DefenderWins => {}
                    Outcome::BothRemoved => ids[to.index()] = None,
                }
            }
            Event::FlagRevealed { at, .. } => {
                let id = ids[at.index()].expect("flag");
                assert_eq!(ranks[id.0 as usize], Some(Rank::Flag));
            }
            _ => {}
        }
    }
}

fn check_belief(game: &Game, view: &PlayerView, rng: &mut Pcg64Mcg) {
    let pos = game.position();
    if view.rules().mode == Mode::Dark {
        // What the behaviour table learns from: every hidden enemy piece on
        // the board, its true rank among those the view allows.
        let truth = |id: PieceId| {
            pos.pieces()
                .find(|(_, pc)| pc.id == id)
                .map(|(_, pc)| pc.rank)
        };
        let obs = observe(view, truth);
        let hidden = view
            .pieces()
            .filter(|k| k.side != view.me() && k.at.is_some() && k.known().is_none())
            .count();
        assert_eq!(obs.len(), hidden);
        for o in &obs {
            assert!(o.layout[o.truth.index()] > 0.0, "{o:?}");
            assert!((o.bucket as usize) < BUCKETS);
        }
    }
    for priors in [Priors::None, Priors::Hand, Priors::Learned] {
        let belief = Belief::new(view, priors);
        if view.rules().mode == Mode::Flip {
            for (p, pc) in pos.pieces() {
                if !pc.face_up {
                    assert!(belief.flip_probability(pc.side, pc.rank) > 0.0);
                    assert_eq!(view.at(p), Some(Seen::FaceDown));
                }
            }
            for _ in 0..3 {
                let s = belief.sample(rng);
                let n_down = view.hidden().len();
                assert_eq!(s.face_down.len(), n_down);
                // Turned-over pieces plus the sample make two complete armies.
                let mut counts = [[0u8; 12]; 2];
                for k in view.pieces() {
                    counts[k.side.index()][k.known().unwrap().index()] += 1;
                }
                for &(p, side, r) in &s.face_down {
                    assert_eq!(view.at(p), Some(Seen::FaceDown));
                    counts[side.index()][r.index()] += 1;
                }
                for army in &counts {
                    for r in Rank::ALL {
                        assert_eq!(army[r.index()], r.count());
                    }
                }
                let det = belief.position(view, &s);
                if view.result().is_none() {
                    assert_eq!(det.legal_moves().len(), view.legal_moves().len());
                }
            }
            continue;
        }
        // The truth keeps a non-zero probability.
        for (_, pc) in pos.pieces() {
            if pc.side == view.me() {
                continue;
            }
            if let Some(probs) = belief.probabilities(pc.id) {
                assert!(
                    probs[pc.rank.index()] > 0.0,
                    "truth {:?} has probability zero: {:?}",
                    pc,
                    probs
                );
                let total: f32 = probs.iter().sum();
                assert!((total - 1.0).abs() < 1e-3);
            }
        }
        // Together the hidden pieces (removed ones too) hold each rank as
        // often as the army has it left: never a dead commander's rank on
        // the living, never a shown flag's elsewhere.
        let side = view.me().opponent();
        if let Some(counts) = belief.hidden_counts(side) {
            for r in Rank::ALL {
                let held: f32 = belief
                    .pieces()
                    .iter()
                    .filter(|h| h.side == side)
                    .map(|h| belief.probabilities(h.id).expect("hidden")[r.index()])
                    .sum();
                let left = counts[r.index()] as f32;
                assert!(
                    (held - left).abs() < 0.02,
                    "{r:?}: {held} held, {left} left"
                );
            }
        }
        for _ in 0..3 {
            let s = belief.sample(rng);
            check_sample_explains_events(view, &s);
            let det = belief.position(view, &s);
            let mut a: Vec<String> = det.legal_moves().iter().map(|m| format!("{m:?}")).collect();
            let mut b: Vec<String> = view
                .legal_moves()
                .iter()
                .map(|m| format!("{m:?}"))
                .collect();
            // Hidden ranks decide which enemy pieces can move, so only our own
            // moves must match.
            if view.result().is_none() && view.turn() == view.me() {
                a.sort();
                b.sort();
                assert_eq!(a, b, "a determinization changes the legal moves");
            }
        }
    }
}

fn play(mode: Mode, seed: u64, every: usize) {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut game = new_game(mode, &mut rng);
    // A random mover against a greedy attacker: many battles, many facts.
    let mut players: [Box<dyn Player>; 2] = [
        Box::new(RandomPlayer::new(seed)),
        Box::new(GreedyPlayer::new(seed + 1000)),
    ];
    let mut views = [game.view(Side::South), game.view(Side::North)];
    let mut ply = 0;
    while game.result().is_none() && ply < 400 {
        let side = game.turn();
        let action = players[side.index()].act(&views[side.index()], &|| false);
        let events = game.apply(side, action).unwrap();
        for v in views.iter_mut() {
            for e in &events {
                v.apply(e).unwrap();
            }
        }
        ply += 1;
        if ply % every == 0 {
            for v in &views {
                check_belief(&game, v, &mut rng);
            }
        }
    }
    for v in &views {
        check_belief(&game, v, &mut rng);
    }
}

#[test]
fn dark_belief_keeps_the_truth_and_samples_explain_every_event() {
    for seed in 0..12 {
        play(Mode::Dark, seed, 7);
    }
}

#[test]
fn flip_samples_complete_both_armies() {
    for seed in 0..4 {
        play(Mode::Flip, seed, 11);
    }
}

#[test]
fn open_games_hide_nothing() {
    let mut rng = Pcg64Mcg::seed_from_u64(3);
    let game = new_game(Mode::Open, &mut rng);
    let view = game.view(Side::South);
    let belief = Belief::new(&view, Priors::Hand);
    assert!(belief.pieces().is_empty());
    let det = belief.position(&view, &belief.sample(&mut rng));
    assert_eq!(&det, game.position());
}
