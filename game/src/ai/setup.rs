//! The AI's own layout: a classic one (possibly mirrored and lightly
//! reshuffled) or a generated one with the flag guarded, mines around it and
//! bombs behind the front; different from game to game.

use crate::layout::{Layout, classic_layouts};
use crate::piece::Rank;
use crate::rules::Rules;
use rand::Rng;
use rand::seq::{IndexedRandom, SliceRandom};

fn is_camp(row: u8, col: u8) -> bool {
    matches!((row, col), (2, 2) | (2, 4) | (3, 3) | (4, 2) | (4, 4))
}

/// Whether (row, col) of a half is one of its two headquarters.
fn is_headquarters(row: u8, col: u8) -> bool {
    row == 6 && (col == 2 || col == 4)
}

/// Whether the flag of `l` is boxed in by landmines on all three sides, so
/// only an engineer or a bomb can open the way to it.
pub fn flag_boxed(l: &Layout) -> bool {
    flag_guard(l).is_some_and(|guard| guard.iter().all(|&p| is_mine(l, p)))
}

/// Which layouts a player's flag may have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlagBox {
    /// Any: a quarter of the classic layouts box the flag in.
    Any,
    /// Always boxed in by landmines on its three sides.
    Always,
    /// Never boxed in: some point beside the flag holds no landmine.
    Never,
    /// Never boxed in, and the way in is the centre of the back row:
    /// landmines on the flag's edge side and in front of it, none on the
    /// point between the headquarters. An edge side is one step from the
    /// end of a side railway and the front point lies on the back
    /// railway; the centre point is reached only through the middle of
    /// that railway.
    CentreOpen,
}

impl FlagBox {
    /// Whether layout `l` is one of these.
    pub fn admits(self, l: &Layout) -> bool {
        match self {
            FlagBox::Any => true,
            FlagBox::Always => flag_boxed(l),
            FlagBox::Never => !flag_boxed(l),
            FlagBox::CentreOpen => centre_open(l),
        }
    }
}

/// The flag's three neighbours: the edge side, the centre side (column 3)
/// and the front (row 5).
fn flag_guard(l: &Layout) -> Option<[(u8, u8); 3]> {
    let c = [2u8, 4]
        .into_iter()
        .find(|&c| l.get(6, c) == Some(Rank::Flag))?;
    let edge = if c == 2 { 1 } else { 5 };
    Some([(6, edge), (6, 3), (5, c)])
}

fn is_mine(l: &Layout, (r, c): (u8, u8)) -> bool {
    l.get(r, c) == Some(Rank::Landmine)
}

/// The points of the back two rows, where landmines stand.
fn back_rows() -> impl Iterator<Item = (u8, u8)> {
    (5..=6u8).flat_map(|r| (1..=5u8).map(move |c| (r, c)))
}

/// Whether `l` has landmines on its flag's edge side and in front of it
/// and none on its centre side ([`FlagBox::CentreOpen`]).
pub fn centre_open(l: &Layout) -> bool {
    flag_guard(l).is_some_and(|[edge, centre, front]| {
        is_mine(l, edge) && is_mine(l, front) && !is_mine(l, centre)
    })
}

/// `l` with its landmines moved onto the flag's edge side and front and off
/// its centre side, each by a swap with the piece there (landmines stay in
/// the back two rows); `l` itself when that breaks a rule.
fn open_centre(l: &Layout, rules: &Rules) -> Layout {
    let Some([edge, centre, front]) = flag_guard(l) else {
        return *l;
    };
    let mut out = *l;
    for need in [edge, front] {
        if is_mine(&out, need) {
            continue;
        }
        // The centre side's landmine first, then one away from the flag.
        let spare = back_rows()
            .filter(|&m| is_mine(&out, m))
            .filter(|&m| m != edge && m != front && !is_headquarters(m.0, m.1))
            .max_by_key(|&m| m == centre);
        if let Some(m) = spare {
            out = out.swapped(m, need);
        }
    }
    if is_mine(&out, centre) {
        // All three were mines: trade the centre one with a back-row piece
        // that may stand anywhere in the back rows.
        let other = back_rows().find(|&(r, c)| {
            out.get(r, c)
                .is_some_and(|k| k.is_officer() || k == Rank::Engineer)
                && !is_headquarters(r, c)
        });
        if let Some(o) = other {
            out = out.swapped(o, centre);
        }
    }
    if centre_open(&out) && out.validate(rules).is_ok() {
        out
    } else {
        *l
    }
}

/// A layout for a new game. `generated` is the chance of a freshly generated
/// layout instead of a classic one; `boxing` says whether the flag may,
/// must or must not have landmines on its three sides (a quarter of the
/// classic layouts do), or must have them on its edge side and in front
/// only ([`FlagBox::CentreOpen`]: a classic unboxed layout has its
/// landmines moved there).
pub fn choose_layout(rules: &Rules, generated: f64, boxing: FlagBox, rng: &mut impl Rng) -> Layout {
    let mut layout = if rng.random_bool(generated.clamp(0.0, 1.0)) {
        generate(rules, boxing, rng)
    } else {
        // A layout with its centre open: any unboxed one, its mines moved.
        let all: Vec<Layout> = classic_layouts()
            .into_iter()
            .map(|c| match boxing {
                FlagBox::CentreOpen if !flag_boxed(&c.layout) => open_centre(&c.layout, rules),
                _ => c.layout,
            })
            .filter(|l| boxing.admits(l))
            .collect();
        let l = *all.choose(rng).expect("classic layouts");
        let l = if rng.random_bool(0.5) {
            l.mirrored()
        } else {
            l
        };
        reshuffle(&l, rules, rng)
    };
    if layout.validate(rules).is_err() {
        layout = Layout::random(rules, rng);
    }
    layout
}

/// Swaps a few officers of neighbouring strength (keeps the plan, hides the habit).
fn reshuffle(l: &Layout, rules: &Rules, rng: &mut impl Rng) -> Layout {
    let mut out = *l;
    let cells: Vec<(u8, u8)> = (1..=6u8)
        .flat_map(|r| (1..=5u8).map(move |c| (r, c)))
        .filter(|&(r, c)| !is_camp(r, c) && !is_headquarters(r, c))
        .collect();
    for _ in 0..rng.random_range(0..4) {
        let a = *cells.choose(rng).expect("cells");
        let b = *cells.choose(rng).expect("cells");
        let (Some(ra), Some(rb)) = (out.get(a.0, a.1), out.get(b.0, b.1)) else {
            continue;
        };
        let close = ra.is_officer()
            && rb.is_officer()
            && (ra.officer_level() as i32 - rb.officer_level() as i32).abs() <= 2;
        if close {
            let t = out.swapped(a, b);
            if t.validate(rules).is_ok() {
                out = t;
            }
        }
    }
    out
}

/// A generated layout: flag in a headquarters with mines beside it (on all
/// three sides with [`FlagBox::Always`], otherwise on two), the third mine
/// otherwise in the back rows (never on the flag's free side with
/// [`FlagBox::Never`]), bombs in rows 2–4, big officers spread over the
/// middle, engineers and small officers at the front and back.
pub fn generate(rules: &Rules, boxing: FlagBox, rng: &mut impl Rng) -> Layout {
    let mut l = Layout::empty();
    let flag_col = if rng.random_bool(0.5) { 2 } else { 4 };
    l.set(6, flag_col, Some(Rank::Flag));
    // Mines next to the flag (row 5 above it, and beside it in row 6).
    let mut guard = [(5, flag_col), (6, flag_col - 1), (6, flag_col + 1)];
    guard.shuffle(rng);
    if boxing == FlagBox::CentreOpen
        && let Some([edge, centre, front]) = flag_guard(&l)
    {
        guard = [front, edge, centre];
    }
    let mut mines = 0;
    let beside = if boxing == FlagBox::Always { 3 } else { 2 };
    for &(r, c) in guard.iter().take(beside) {
        l.set(r, c, Some(Rank::Landmine));
        mines += 1;
    }
    let free_side = guard[2];
    let mut back: Vec<(u8, u8)> = back_rows()
        .filter(|&(r, c)| l.get(r, c).is_none() && !(r == 6 && c == 6 - flag_col))
        .filter(|&cell| matches!(boxing, FlagBox::Any | FlagBox::Always) || cell != free_side)
        .collect();
    back.shuffle(rng);
    while mines < 3 {
        let (r, c) = back.pop().expect("back row space");
        l.set(r, c, Some(Rank::Landmine));
        mines += 1;
    }
    // The other headquarters: a piece that enters one never leaves it, so
    // it holds a platoon (or a company), as in the classic layouts (46 and
    // 3 of 72; the other 23 hold a landmine).
    let fake_hq = (6, 6 - flag_col);
    let mut placed = None;
    if l.get(fake_hq.0, fake_hq.1).is_none() {
        let r = if rng.random_bool(0.9) {
            Rank::Platoon
        } else {
            Rank::Company
        };
        l.set(fake_hq.0, fake_hq.1, Some(r));
        placed = Some(r);
    }
    // Bombs in rows 2–4 (never in a camp).
    let mut mid: Vec<(u8, u8)> = (2..=4u8)
        .flat_map(|r| (1..=5u8).map(move |c| (r, c)))
        .filter(|&(r, c)| !is_camp(r, c) && l.get(r, c).is_none())
        .collect();
    mid.shuffle(rng);
    for _ in 0..2 {
        let (r, c) = mid.pop().expect("mid space");
        l.set(r, c, Some(Rank::Bomb));
    }
    // Officers: big ones prefer rows 1–3, small ones anywhere.
    let mut free: Vec<(u8, u8)> = (1..=6u8)
        .flat_map(|r| (1..=5u8).map(move |c| (r, c)))
        .filter(|&(r, c)| !is_camp(r, c) && l.get(r, c).is_none())
        .collect();
    free.shuffle(rng);
    let mut officers: Vec<Rank> = Rank::army()
        .into_iter()
        .filter(|r| r.is_officer())
        .collect();
    if let Some(i) = placed.and_then(|p| officers.iter().position(|&r| r == p)) {
        officers.remove(i);
    }
    for r in officers {
        let i = if r.officer_level() >= 37 {
            free.iter().position(|&(row, _)| row <= 4).unwrap_or(0)
        } else {
            0
        };
        let (row, col) = free.swap_remove(i);
        l.set(row, col, Some(r));
    }
    if l.validate(rules).is_ok() {
        l
    } else {
        Layout::random(rules, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;

    /// What stands on the headquarters without the flag.
    fn other_headquarters(l: &Layout) -> Option<Rank> {
        let flag_col = if l.get(6, 2) == Some(Rank::Flag) {
            2
        } else {
            4
        };
        l.get(6, 6 - flag_col)
    }

    #[test]
    fn a_layout_never_locks_an_officer_above_a_company_on_a_headquarters() {
        let rules = Rules::default();
        let mut rng = Pcg64Mcg::seed_from_u64(5);
        for i in 0..400 {
            let boxing = [
                FlagBox::Any,
                FlagBox::Always,
                FlagBox::Never,
                FlagBox::CentreOpen,
            ][i % 4];
            let l = choose_layout(&rules, 0.5, boxing, &mut rng);
            assert!(boxing.admits(&l), "{boxing:?}: {l:?}");
            assert!(l.validate(&rules).is_ok());
            let r = other_headquarters(&l).expect("both headquarters are filled");
            assert!(
                matches!(r, Rank::Platoon | Rank::Company | Rank::Landmine),
                "{r:?} on the other headquarters of {l:?}"
            );
        }
    }

    #[test]
    fn generated_layouts_keep_the_whole_army() {
        let rules = Rules::default();
        let mut rng = Pcg64Mcg::seed_from_u64(6);
        for boxing in [
            FlagBox::Any,
            FlagBox::Always,
            FlagBox::Never,
            FlagBox::CentreOpen,
        ] {
            for _ in 0..100 {
                let l = generate(&rules, boxing, &mut rng);
                assert!(l.validate(&rules).is_ok(), "{l:?}");
                assert!(boxing.admits(&l), "{boxing:?}: {l:?}");
            }
        }
    }

    #[test]
    fn every_unboxed_classic_layout_opens_its_centre_by_moving_landmines_only() {
        let rules = Rules::default();
        let unboxed = classic_layouts()
            .into_iter()
            .filter(|c| !flag_boxed(&c.layout));
        let mut n = 0;
        for c in unboxed {
            let l = open_centre(&c.layout, &rules);
            assert!(centre_open(&l) && !flag_boxed(&l), "{}:\n{l}", c.name);
            assert!(l.validate(&rules).is_ok());
            // Every cell keeps its piece but for the swapped ones, and each
            // swap moved a landmine.
            let changed: Vec<(u8, u8)> = (1..=6u8)
                .flat_map(|r| (1..=5u8).map(move |c| (r, c)))
                .filter(|&(r, col)| l.get(r, col) != c.layout.get(r, col))
                .collect();
            assert!(changed.len() <= 6, "{}: {changed:?}", c.name);
            for &(r, col) in &changed {
                assert!(r >= 5, "{}: ({r}, {col}) moved", c.name);
                let mine_moved = l.get(r, col) == Some(Rank::Landmine)
                    || c.layout.get(r, col) == Some(Rank::Landmine);
                assert!(mine_moved, "{}: ({r}, {col})", c.name);
            }
            n += 1;
        }
        assert_eq!(n, 54);
        let mut rng = Pcg64Mcg::seed_from_u64(7);
        for _ in 0..200 {
            let l = choose_layout(&rules, 0.5, FlagBox::CentreOpen, &mut rng);
            assert!(centre_open(&l), "{l}");
        }
    }
}
