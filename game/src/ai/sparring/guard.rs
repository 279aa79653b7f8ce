//! A cautious defender: it keeps its flag boxed in by its landmines (a
//! classic layout that does so), keeps its pieces at home, attacks only
//! what it beats for sure (or a piece that has come near its flag), and
//! never leaves a piece where the enemy's best reply takes it. One ply and
//! the enemy's captures in reply, judged by expected values over its own
//! [`Guess`]; no search tree, no samples. It stands for the careful player
//! that never blunders and never comes out: Master has to take its flag.

use super::guess::{Guess, Guessed, is_guessed, restricted};
use super::steps::steps;
use super::values::{WIN, value};
use crate::{Move, Outcome, Piece, PlayerView, Point, Position, Rank, RankSet, Side};

/// An attack it may make: a sure win (losing or trading at most this often).
const SURE: f32 = 0.05;
/// Enemy pieces this close to its flag are fought whatever the odds.
const NEAR_FLAG: u8 = 2;
/// An attack it would rather not make, or a strike at a face-down piece.
const RELUCTANT: f32 = -2000.0;
/// Turning a piece over when a quiet move would do.
const FLIP: f32 = -30.0;
/// Per hop its moved piece comes nearer home (its flag, or its own half).
const HOMEWARD: f32 = 3.0;
/// A piece standing in the enemy half.
const ABROAD: f32 = 20.0;

/// Every legal move with its score for `view`'s player (higher is better).
pub fn scored(view: &PlayerView) -> Vec<(Move, f32)> {
    let me = view.me();
    let guess = Guess::new(view);
    let (pos, guessed) = guess.board(view);
    let board = pos.board();
    let hops = steps(board);
    let flag: Option<Point> = pos
        .pieces()
        .find(|(_, pc)| pc.side == me && pc.face_up && pc.rank == Rank::Flag)
        .map(|(p, _)| p);
    let home = |p: Point| -> f32 {
        match flag {
            Some(f) => -(hops.between(p, f) as f32),
            // Flip games before its flag shows: the back of its own half.
            None if board.info(p).half == Some(me) => board.info(p).row as f32,
            None => -(board.info(p).row as f32) - 6.0,
        }
    };
    let mut out = Vec::new();
    for m in pos.legal_moves() {
        let (score, after) = match m {
            Move::Flip { at } => {
                let exposed = pos.pieces().any(|(q, pc)| {
                    pc.side != me && pc.face_up && pc.rank.is_movable() && hops.between(q, at) <= 1
                });
                (FLIP - if exposed { 40.0 } else { 0.0 }, None)
            }
            Move::Step { from, to } => match pos.at(to) {
                Some(d) if !d.face_up => (RELUCTANT, None),
                Some(d) => {
                    let a = pos.at(from).expect("a mover");
                    let (swing, p_bad, p_flag) = expected_attack(&guess, &pos, guessed, a, d);
                    let threat = flag.is_some_and(|f| hops.between(to, f) <= NEAR_FLAG);
                    let score = if p_flag > 0.5 {
                        WIN as f32
                    } else if p_bad <= SURE || threat {
                        swing
                    } else {
                        RELUCTANT + swing
                    };
                    (score, likely_after(&guess, &pos, guessed, m))
                }
                None => {
                    let mut c = pos.clone();
                    c.play_unchecked(m);
                    let mut s = HOMEWARD * (home(to) - home(from));
                    if board.info(to).half == Some(me.opponent()) {
                        s -= ABROAD;
                    }
                    (s, Some((c, guessed)))
                }
            },
        };
        let danger = after.map_or(0.0, |(c, g)| best_reply(&guess, &c, g, me));
        out.push((m, score - danger));
    }
    out
}

/// Expected material swing of `a` attacking `d` for the attacker, the
/// chance it loses or trades, and the chance it takes the flag.
fn expected_attack(
    guess: &Guess,
    pos: &Position,
    guessed: Guessed,
    a: Piece,
    d: Piece,
) -> (f32, f32, f32) {
    let chances = |pc: Piece, movable: bool| -> [f32; 12] {
        let guessed_here = is_guessed(guessed, pc);
        match guess.chances(pc.id).filter(|_| guessed_here) {
            Some(c) if movable => restricted(c, RankSet::MOVABLE),
            Some(c) => *c,
            None => {
                let mut c = [0f32; 12];
                c[pc.rank.index()] = 1.0;
                c
            }
        }
    };
    let (pa, pd) = (chances(a, true), chances(d, false));
    let (mut swing, mut bad, mut flag) = (0f32, 0f32, 0f32);
    for ra in Rank::ALL {
        for rd in Rank::ALL {
            let p = pa[ra.index()] * pd[rd.index()];
            if p <= 0.0 {
                continue;
            }
            let clash = pos.rules().clash(ra, rd);
            if clash.flag_captured {
                flag += p;
                swing += p * WIN as f32;
                continue;
            }
            swing += p * match clash.outcome {
                Outcome::AttackerWins => value(rd) as f32,
                Outcome::DefenderWins => -value(ra) as f32,
                Outcome::BothRemoved => (value(rd) - value(ra)) as f32,
            };
            if clash.outcome != Outcome::AttackerWins {
                bad += p;
            }
        }
    }
    (swing, bad, flag)
}

/// The board after `m`'s most likely outcome.
fn likely_after(
    guess: &Guess,
    pos: &Position,
    guessed: Guessed,
    m: Move,
) -> Option<(Position, Guessed)> {
    if let Move::Step { from, to } = m
        && let Some(branches) = guess.battle(pos, guessed, from, to)
    {
        return branches
            .into_iter()
            .max_by(|x, y| x.0.total_cmp(&y.0))
            .map(|(_, c, g)| (c, g));
    }
    let mut c = pos.clone();
    c.play_unchecked(m);
    Some((c, guessed))
}

/// What the enemy's best attack in reply gains on average (0 if none gains).
fn best_reply(guess: &Guess, pos: &Position, guessed: Guessed, me: Side) -> f32 {
    if pos.result().is_some() {
        return 0.0;
    }
    let mut best = 0f32;
    for m in pos.legal_moves() {
        let Move::Step { from, to } = m else {
            continue;
        };
        let (Some(a), Some(d)) = (pos.at(from), pos.at(to)) else {
            continue;
        };
        if d.side != me || !d.face_up {
            continue;
        }
        let (swing, _, _) = expected_attack(guess, pos, guessed, a, d);
        best = best.max(swing);
    }
    best
}
