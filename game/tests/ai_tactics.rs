//! Tactics in open games, where every rank is known and the game is a
//! question of search alone: Master searches every move as deep as its
//! budget allows ([`SearchParams::open_full`]), so a material win that a
//! full-width search finds only from five plies is not lost among root
//! moves screened at one ply.

use junqi_game::ai::{Ai, Level};
use junqi_game::*;

/// The position of a random open game at ply 28 (South to move): a full-width
/// search of four plies or fewer plays S14-S13 (123 to 165 centi-units);
/// from five plies S31-S32 wins material (203 at five plies, 323 at seven
/// and eight). Master's screened search of ten candidates to four plies
/// played S14-S12 or S14-S13 on seeds 0, 1 and 2.
const TRAP: &str = include_str!("data/open_tactic_trap.json");

#[test]
fn master_finds_the_material_win_that_needs_five_plies() {
    let pos = position_from_json(TRAP).expect("a valid position");
    let view = PlayerView::of_open_position(&pos, pos.turn()).expect("open view");
    let never = || false;
    for seed in 0..3 {
        let mut ai = Ai::new(Level::Master, seed);
        let m = ai.choose_move(&view, &never).expect("a move");
        assert_eq!(notation::format_move(&pos, m), "S31-S32", "seed {seed}");
    }
}
