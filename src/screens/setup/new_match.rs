//! A new game against the computer from the setup screen's options: two players, or four
//! round the big board.

use junqi_game::{Game, Layout, Mode, Side, ai::Ai};
use rand::Rng;

use super::options::{First, MatchOptions, Table};
use crate::{ai, game_match::Match, model::now_secs};

/// Starts a game against the computer from the options and the player's layout (South).
pub fn new_match(options: &MatchOptions, mine: &Layout, rng: &mut impl Rng) -> Option<Match> {
    if options.table == Table::Four {
        return new_four_match(options, mine, rng);
    }
    let rules = options.rules;
    let first = match options.first {
        First::Me => Side::South,
        First::Ai => Side::North,
        First::Random => {
            if rng.random_bool(0.5) {
                Side::South
            } else {
                Side::North
            }
        }
    };
    let game = if rules.mode == Mode::Flip {
        Game::new_flip_shuffled(rules, first, rng)
    } else {
        let north = Ai::new(ai::level(options.level), rng.random()).choose_layout(&rules);
        Game::new(rules, *mine, north, first).ok()?
    };
    Some(Match::new(
        game,
        Side::South,
        format!("ai-{}", options.level),
        now_secs(),
    ))
}

/// A four-player game: the player in `options.seat` with its layout, each other seat's layout
/// chosen by the computer at that seat's level.
fn new_four_match(options: &MatchOptions, mine: &Layout, rng: &mut impl Rng) -> Option<Match> {
    let rules = options.rules;
    let me = options.seat;
    let clockwise = rules.clockwise;
    let first = match options.first {
        First::Me => me,
        First::Ai => me.next(clockwise),
        First::Random => Side::FOUR[rng.random_range(0..4)],
    };
    let layouts = Side::FOUR.map(|side| {
        if side == me {
            *mine
        } else {
            Ai::new(ai::level(options.levels[side.index()]), rng.random()).choose_layout(&rules)
        }
    });
    let game = Game::new_four(rules, layouts, first).ok()?;
    Some(Match::new(game, me, four_key(options), now_secs()))
}

/// The profile's name for a four-player table: the levels of the partner, the next and the
/// previous seat (`four:3-2-2`).
pub fn four_key(options: &MatchOptions) -> String {
    let me = options.seat;
    let clockwise = options.rules.clockwise;
    let level = |s: Side| options.levels[s.index()];
    format!(
        "four:{}-{}-{}",
        level(me.partner()),
        level(me.next(clockwise)),
        level(me.next(clockwise).partner())
    )
}
