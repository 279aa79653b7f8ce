//! What a sparring partner assumes about the pieces it cannot see, from its
//! player's view only: chances per rank for each unidentified enemy piece
//! (the army's counts spread over the ranks each piece may have, scaled
//! until every rank's chances add up to how many of it are unaccounted for;
//! no layout or behaviour priors, no samples), one fixed rank per such
//! piece for the search's board (what decides whether it moves), and in
//! flip games the pool of face-down pieces with their counts.
//!
//! Battles whose outcome depends on an unidentified piece are split into
//! their outcome classes, each with its chance and one representative rank
//! pair ([`Guess::battle`]); turning over or striking a face-down piece is
//! split over the pool ([`Guess::pool_kinds`]).

use crate::{
    Hidden, Move, Outcome, Piece, PieceId, PlayerView, Point, Position, Rank, RankSet, Side,
};
use arrayvec::ArrayVec;

/// Chances of the 12 ranks, in [`Rank::index`] order.
pub type Chances = [f32; 12];

/// Ids of the pieces whose rank on the search's board is a guess (bit `id`).
pub type Guessed = u128;

/// A player's assumptions about what it cannot see.
#[derive(Clone, Debug)]
pub struct Guess {
    /// By piece id: the chances of an enemy piece whose rank is not known.
    chances: Vec<Option<Chances>>,
    /// Flip games: face-down pieces not yet turned over, by side index and rank.
    pool: [[u8; 12]; 2],
}

/// The bit of piece `id` in a [`Guessed`] set (none for the ids of
/// face-down fillers, 255).
pub fn bit(id: PieceId) -> Guessed {
    if id.0 < 128 { 1 << id.0 } else { 0 }
}

/// Whether `pc`'s rank on the search's board is a guess.
pub fn is_guessed(guessed: Guessed, pc: Piece) -> bool {
    guessed & bit(pc.id) != 0
}

/// One outcome of a battle or a turned piece: its chance, the board after it,
/// and which pieces are still guesses there.
pub type Branch = (f32, Position, Guessed);

impl Guess {
    /// The assumptions of `view`'s player.
    pub fn new(view: &PlayerView) -> Guess {
        let enemy = view.me().opponent();
        let mut chances = vec![None; 128];
        // The enemy's ranks not yet accounted for by pieces it knows.
        let mut left = [0f32; 12];
        for r in Rank::ALL {
            left[r.index()] = r.count() as f32;
        }
        let mut rows: Vec<(PieceId, RankSet)> = Vec::new();
        for k in view.pieces().filter(|k| k.side == enemy) {
            match k.known() {
                Some(r) => left[r.index()] = (left[r.index()] - 1.0).max(0.0),
                None => rows.push((k.id, k.possible)),
            }
        }
        let mut m: Vec<Chances> = rows
            .iter()
            .map(|&(_, possible)| {
                let mut row = [0f32; 12];
                for r in Rank::ALL {
                    if possible.contains(r) && left[r.index()] > 0.0 {
                        row[r.index()] = left[r.index()];
                    }
                }
                if row.iter().sum::<f32>() <= 0.0 {
                    // Inconsistent counts: fall back on what the piece may be.
                    for r in Rank::ALL {
                        if possible.contains(r) {
                            row[r.index()] = 1.0;
                        }
                    }
                }
                row
            })
            .collect();
        // Scale rows to one and ranks to their counts, in turn.
        for _ in 0..30 {
            for row in m.iter_mut() {
                let s: f32 = row.iter().sum();
                if s > 0.0 {
                    row.iter_mut().for_each(|x| *x /= s);
                }
            }
            for r in 0..12 {
                let s: f32 = m.iter().map(|row| row[r]).sum();
                if s > 0.0 && left[r] > 0.0 {
                    let f = left[r] / s;
                    m.iter_mut().for_each(|row| row[r] *= f);
                }
            }
        }
        for (row, &(id, _)) in m.iter_mut().zip(&rows) {
            let s: f32 = row.iter().sum();
            if s > 0.0 {
                row.iter_mut().for_each(|x| *x /= s);
            }
            chances[id.0 as usize] = Some(*row);
        }
        let mut pool = [[0u8; 12]; 2];
        if view.rules().mode == crate::Mode::Flip {
            for side in Side::TWO {
                for r in Rank::ALL {
                    pool[side.index()][r.index()] = r.count();
                }
            }
            for k in view.pieces() {
                if let Some(r) = k.known()
                    && k.side.index() < 2
                {
                    let n = &mut pool[k.side.index()][r.index()];
                    *n = n.saturating_sub(1);
                }
            }
        }
        Guess { chances, pool }
    }

    /// The chances of an unidentified enemy piece (`None` when its rank is known).
    pub fn chances(&self, id: PieceId) -> Option<&Chances> {
        self.chances.get(id.0 as usize).and_then(Option::as_ref)
    }

    /// The search's board: unidentified enemy pieces at their fixed guess
    /// ([`fixed_rank`]), face-down pieces dealt from the pool in a fixed
    /// order; and the set of guessed pieces.
    pub fn board(&self, view: &PlayerView) -> (Position, Guessed) {
        let mut deal = self.dealt().into_iter();
        let enemy = view.me().opponent();
        let mut guessed: Guessed = 0;
        let pos = view.determinize(|h| match h {
            Hidden::Enemy(id) => {
                guessed |= bit(id);
                let rank = self.chances(id).map_or(Rank::Platoon, fixed_rank);
                (enemy, rank)
            }
            Hidden::FaceDown(_) => deal.next().unwrap_or((enemy, Rank::Platoon)),
        });
        (pos, guessed)
    }

    /// The pool as a list of pieces in a fixed order (ranks from the top,
    /// sides alternating), to fill face-down points.
    fn dealt(&self) -> Vec<(Side, Rank)> {
        let mut out = Vec::new();
        for r in Rank::ALL {
            for k in 0..3u8 {
                for side in Side::TWO {
                    if self.pool[side.index()][r.index()] > k {
                        out.push((side, r));
                    }
                }
            }
        }
        out
    }

    /// Flip games: every kind of face-down piece left, with its chance.
    pub fn pool_kinds(&self) -> ArrayVec<(f32, Side, Rank), 24> {
        let total: u32 = self.pool.iter().flatten().map(|&n| n as u32).sum();
        let mut out = ArrayVec::new();
        if total == 0 {
            return out;
        }
        for side in Side::TWO {
            for r in Rank::ALL {
                let n = self.pool[side.index()][r.index()];
                if n > 0 {
                    out.push((n as f32 / total as f32, side, r));
                }
            }
        }
        out
    }

    /// Flip games: `m` (a flip, or a strike at a face-down piece) played in
    /// `pos` once for every kind the face-down piece may be.
    pub fn turned(&self, pos: &Position, guessed: Guessed, m: Move) -> ArrayVec<Branch, 24> {
        let at = match m {
            Move::Flip { at } => at,
            Move::Step { to, .. } => to,
        };
        let mines = [pos.mines_left(Side::South), pos.mines_left(Side::North)];
        let mut out = ArrayVec::new();
        for (p, side, rank) in self.pool_kinds() {
            let mut child = pos.clone();
            child.set(
                at,
                Some(Piece {
                    side,
                    rank,
                    face_up: false,
                    id: PieceId(255),
                }),
            );
            // The count of landmines is the view's, whatever lies here.
            child.set_mines_left(Side::South, mines[0]);
            child.set_mines_left(Side::North, mines[1]);
            child.play_unchecked(m);
            out.push((p, child, guessed));
        }
        out
    }

    /// The outcome classes of the battle `from` → `to` in `pos` when a
    /// guessed piece takes part (`None` when both ranks are known there):
    /// each with its chance and the board after it, the two pieces at the
    /// most likely rank pair of the class (no longer guesses).
    pub fn battle(
        &self,
        pos: &Position,
        guessed: Guessed,
        from: Point,
        to: Point,
    ) -> Option<ArrayVec<Branch, 5>> {
        let (a, d) = (pos.at(from)?, pos.at(to)?);
        let a_guess = is_guessed(guessed, a);
        let d_guess = is_guessed(guessed, d) && d.face_up;
        if !a_guess && !d_guess {
            return None;
        }
        let certain = |rank: Rank| {
            let mut c = [0f32; 12];
            c[rank.index()] = 1.0;
            c
        };
        let pa = if a_guess {
            // It moves, so it is neither a landmine nor the flag.
            restricted(self.chances(a.id)?, RankSet::MOVABLE)
        } else {
            certain(a.rank)
        };
        let pd = if d_guess {
            *self.chances(d.id)?
        } else {
            certain(d.rank)
        };
        // Classes: attacker wins, defender wins, both removed, flag taken.
        let mut class_p = [0f32; 4];
        let mut best: [Option<(f32, Rank, Rank)>; 4] = [None; 4];
        let rules = pos.rules();
        for ra in Rank::ALL {
            let p_a = pa[ra.index()];
            if p_a <= 0.0 {
                continue;
            }
            for rd in Rank::ALL {
                let p = p_a * pd[rd.index()];
                if p <= 0.0 {
                    continue;
                }
                let clash = rules.clash(ra, rd);
                let class = if clash.flag_captured {
                    3
                } else {
                    match clash.outcome {
                        Outcome::AttackerWins => 0,
                        Outcome::DefenderWins => 1,
                        Outcome::BothRemoved => 2,
                    }
                };
                class_p[class] += p;
                if best[class].is_none_or(|b| p > b.0) {
                    best[class] = Some((p, ra, rd));
                }
            }
        }
        let total: f32 = class_p.iter().sum();
        if total <= 0.0 {
            return None;
        }
        let rest = guessed & !bit(a.id) & !bit(d.id);
        let mut out = ArrayVec::new();
        for class in 0..4 {
            let Some((_, ra, rd)) = best[class] else {
                continue;
            };
            let mut child = pos.clone();
            child.set(from, Some(Piece { rank: ra, ..a }));
            child.set(to, Some(Piece { rank: rd, ..d }));
            if !child.is_legal(Move::Step { from, to }) {
                continue;
            }
            child.play_unchecked(Move::Step { from, to });
            out.push((class_p[class] / total, child, rest));
        }
        (!out.is_empty()).then_some(out)
    }
}

/// `c` restricted to `set` and scaled back to one (unchanged if nothing is left).
pub fn restricted(c: &Chances, set: RankSet) -> Chances {
    let mut out = *c;
    for r in Rank::ALL {
        if !set.contains(r) {
            out[r.index()] = 0.0;
        }
    }
    let s: f32 = out.iter().sum();
    if s <= 0.0 {
        return *c;
    }
    out.iter_mut().for_each(|x| *x /= s);
    out
}

/// The rank an unidentified piece gets on the search's board: the flag or a
/// landmine when those are at least even odds together (it does not move),
/// else its most likely rank among those that move.
pub fn fixed_rank(c: &Chances) -> Rank {
    let (mine, flag) = (c[Rank::Landmine.index()], c[Rank::Flag.index()]);
    if mine + flag >= 0.5 {
        return if flag > mine {
            Rank::Flag
        } else {
            Rank::Landmine
        };
    }
    let mut best = Rank::Platoon;
    let mut best_p = -1.0;
    for r in Rank::ALL {
        if RankSet::MOVABLE.contains(r) && c[r.index()] > best_p {
            best = r;
            best_p = c[r.index()];
        }
    }
    best
}
