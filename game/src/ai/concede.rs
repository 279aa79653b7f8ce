//! Draw offers, draw answers and resignations the way a person decides them.
//!
//! Every decision reads one seat's [`PlayerView`] only, like the rest of the
//! AI: its own pieces exactly, the enemies' from what is public (in flip and
//! open games every removed or face-up rank; in dark games the [`Belief`]'s
//! samples, which respect the 25-piece army and every observed fact), plus
//! the counters and whether a flag stands next to a piece that could take
//! it. Four-player games are judged by the team: the partner's pieces count
//! (exactly in 双明 and 全明, by the belief in 四暗).
//!
//! The decisions are deterministic: the samples are drawn from a generator
//! seeded by the view's seat and ply.

use super::eval::{boxed_in, opens_shut_flags, tables, value};
use super::{Belief, Priors};
use crate::board::Point;
use crate::game::{Action, Event};
use crate::piece::{Rank, Side};
use crate::rank_set::RankSet;
use crate::rules::Mode;
use crate::view::{PlayerView, Seen};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// Dark-game samples averaged for the enemies' expected material.
const SAMPLES: usize = 24;

/// The movable material (about a division's) with which a player out for
/// the win does not resign.
pub const FIGHT_ON: f32 = 500.0;

/// Plies after one of its own draw offers during which a seat does not offer
/// again (a person does not repeat a declined offer every move).
const OFFER_PAUSE: u16 = 20;

/// The balance of a game as one seat can tell it. Material counts the
/// movable pieces only (officers, engineers, bombs): mines and the flag win
/// nothing by themselves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Standing {
    /// The seat's team's movable material (its own exactly; a partner's
    /// exactly when visible, else expected).
    pub own: f32,
    /// The enemies' expected movable material.
    pub enemy: f32,
    /// The movable material both teams started with together.
    pub start: f32,
    /// An enemy piece that may take it stands next to a flag of the team
    /// (by road, or first along a railway line).
    pub own_flag_threatened: bool,
    /// A piece of the team that can take it stands next to a known enemy flag.
    pub enemy_flag_threatened: bool,
    /// The team can still open the enemy flag: it is not shut in, or the
    /// team keeps an engineer or a bomb (`can_open`).
    pub own_can_open: bool,
    /// The enemies can still open the team's flag.
    pub enemy_can_open: bool,
    /// Two-player dark games: the seat's flag is still boxed in by its own
    /// landmines on all three sides, so the enemy must first dig with an engineer
    /// or a bomb.
    pub own_flag_boxed: bool,
    /// Two-player dark games: an enemy piece stands within [`AT_THE_GATES`]
    /// steps of the seat's flag (by road or railway, whatever stands
    /// between). Always true in other games.
    pub own_flag_pressed: bool,
    /// Plies played.
    pub ply: u16,
    /// Plies since the last attack.
    pub quiet: u16,
    /// The quiet-move draw limit ([`crate::Rules::quiet_draw_plies`]).
    pub quiet_limit: u16,
    /// Resigning is refused before this ply ([`crate::Rules::resign_after_plies`]).
    pub resign_after: u16,
}

impl Standing {
    /// The lead that counts as a real advantage: a fixed part plus a share of
    /// what is left, so a brigade matters in an endgame and not at the start.
    pub fn margin(&self) -> f32 {
        120.0 + 0.04 * (self.own + self.enemy)
    }

    /// Clearly ahead: a person would play on for the win.
    pub fn is_ahead(&self) -> bool {
        self.own - self.enemy >= self.margin()
    }

    /// Clearly behind.
    pub fn is_behind(&self) -> bool {
        self.enemy - self.own >= self.margin()
    }

    /// Few pieces left on both sides.
    pub fn is_endgame(&self) -> bool {
        self.own + self.enemy <= 0.4 * self.start
    }

    /// Nothing is happening: past half the quiet-move limit, past the
    /// opening, and no flag in danger either way.
    pub fn is_dead(&self) -> bool {
        self.ply >= 2 * self.resign_after
            && 2 * self.quiet >= self.quiet_limit
            && !self.own_flag_threatened
            && !self.enemy_flag_threatened
    }

    /// Lost beyond hope: the enemies hold more than three times the team's
    /// movable material and a real amount of it, and the team is not about
    /// to take a flag. Never true when the team is ahead or level.
    pub fn is_hopeless(&self) -> bool {
        !self.enemy_flag_threatened && self.enemy >= 3.0 * self.own + 250.0
    }

    /// Can win by the flag and cannot lose by it: the team can still open
    /// the enemy flag and the enemies can no longer open the team's, and it
    /// is not behind in material (which could lose it every movable piece).
    pub fn holds_the_keys(&self) -> bool {
        self.own_can_open && !self.enemy_can_open && !self.is_behind()
    }

    /// The other way round: the team's flag can still be opened and the
    /// enemy flag no longer can.
    pub fn lost_the_keys(&self) -> bool {
        !self.own_can_open && self.enemy_can_open
    }

    /// Accepts a draw offer when it cannot expect to win: behind, level in an
    /// endgame or a dead position, with its flag in danger, or with no
    /// engineer or bomb left for a shut enemy flag while its own can still
    /// be opened; never when ahead, about to take a flag, or holding the
    /// only keys to a shut flag. A player out for the win (`for_win`) takes
    /// a level game for a game still to play: only being behind, its flag
    /// in danger or its keys lost make it accept.
    pub fn accepts_draw(&self, for_win: bool) -> bool {
        let level_reason = !for_win && (self.is_endgame() || self.is_dead());
        !self.is_ahead()
            && !self.enemy_flag_threatened
            && !self.holds_the_keys()
            && (self.is_behind()
                || level_reason
                || self.own_flag_threatened
                || self.lost_the_keys())
    }

    /// Offers a draw in a dead endgame it is not winning (one out for the
    /// win, `for_win`, only when it is behind). Not in a dead middle game:
    /// with many pieces left there is still play, and an early offer gave
    /// away games the stronger side would have won.
    pub fn offers_draw(&self, for_win: bool) -> bool {
        !self.is_ahead()
            && (!for_win || self.is_behind())
            && !self.holds_the_keys()
            && self.is_dead()
            && self.is_endgame()
    }

    /// Resigns a hopeless game once the rules allow resigning. A player out
    /// for the win (`for_win`) plays on while it keeps [`FIGHT_ON`] of
    /// movable material (against a side that leaves its flag open that is
    /// enough to take it: Master resigned 11 of the 100 dark games it
    /// played against greedy, seed 9300, with more) and, in dark games,
    /// while its flag is still boxed in by its landmines (the enemy has yet
    /// to find and dig it: Master played 7 of the 10 dark games it resigned
    /// against greedy on seed 32000 to a win or a draw without resigning)
    /// or while no enemy piece has come within [`AT_THE_GATES`] steps of it.
    pub fn resigns(&self, for_win: bool) -> bool {
        self.ply >= self.resign_after
            && self.is_hopeless()
            && (!for_win || (self.own < FIGHT_ON && !self.own_flag_boxed && self.own_flag_pressed))
    }
}

/// The balance of the game as `view`'s seat can tell it.
pub fn standing(view: &PlayerView) -> Standing {
    let rules = view.rules();
    let (own, enemy) = material(view);
    let armies = if view.is_team_game() { 4.0 } else { 2.0 };
    Standing {
        own,
        enemy,
        start: armies * army_movable_value(),
        own_flag_threatened: flag_threatened(view, true),
        enemy_flag_threatened: flag_threatened(view, false),
        own_can_open: can_open(view, true),
        enemy_can_open: can_open(view, false),
        own_flag_boxed: flag_boxed(view),
        own_flag_pressed: flag_pressed(view),
        ply: view.ply(),
        quiet: view.quiet_plies(),
        quiet_limit: rules.quiet_draw_plies,
        resign_after: rules.resign_after_plies,
    }
}

/// Whether `view`'s seat accepts the standing draw offer: yes when it cannot
/// expect to win, no when it is ahead (see [`Standing::accepts_draw`];
/// `for_win`: the seat plays for a win, [`super::LevelParams::plays_for_win`]).
/// Call it when another player has offered; the answer ignores whose offer it is.
pub fn answer_draw(view: &PlayerView, for_win: bool) -> bool {
    view.result().is_none() && standing(view).accepts_draw(for_win)
}

/// Whether `view`'s seat offers a draw now: a dead endgame it is not
/// winning, no offer standing, and none of its own in the last 20 plies.
pub fn wants_draw(view: &PlayerView, for_win: bool) -> bool {
    view.result().is_none()
        && view.draw_offer().is_none()
        && !offered_lately(view)
        && standing(view).offers_draw(for_win)
}

/// Whether `view`'s seat resigns now: a hopeless game, never one it is
/// winning or level in, never before [`crate::Rules::resign_after_plies`].
pub fn wants_to_resign(view: &PlayerView, for_win: bool) -> bool {
    view.result().is_none() && standing(view).resigns(for_win)
}

/// What the seat does on its turn before moving: resign, offer a draw, or
/// nothing (`None`: just move); `for_win` as for [`answer_draw`].
pub fn turn_action(view: &PlayerView, for_win: bool) -> Option<Action> {
    if view.turn() != view.me() || view.result().is_some() {
        return None;
    }
    let s = standing(view);
    if s.resigns(for_win) {
        Some(Action::Resign)
    } else if view.draw_offer().is_none() && !offered_lately(view) && s.offers_draw(for_win) {
        Some(Action::OfferDraw)
    } else {
        None
    }
}

/// The movable material of one full army.
fn army_movable_value() -> f32 {
    RankSet::MOVABLE
        .iter()
        .map(|r| (value(r) * i32::from(r.count())) as f32)
        .sum()
}

fn movable_value(r: Rank) -> f32 {
    if RankSet::MOVABLE.contains(r) {
        value(r) as f32
    } else {
        0.0
    }
}

/// Whether `side` plays on the seat's team.
fn friendly(view: &PlayerView, side: Side) -> bool {
    if view.is_team_game() {
        side.team() == view.me().team()
    } else {
        side == view.me()
    }
}

/// (team, enemies) movable material on the board.
fn material(view: &PlayerView) -> (f32, f32) {
    let mut totals = [0f32; 2];
    let mut add = |side: Side, v: f32| totals[usize::from(!friendly(view, side))] += v;
    if view.rules().mode == Mode::Flip {
        // Every rank that has left the board was public, so each colour's
        // material is its army less what it lost, face-down pieces included.
        for side in Side::TWO {
            add(side, army_movable_value());
        }
        for k in view.pieces().filter(|k| k.at.is_none()) {
            if let Some(r) = k.known() {
                add(k.side, -movable_value(r));
            }
        }
        return (totals[0], totals[1]);
    }
    let mut unknown = Vec::new();
    for k in view.pieces().filter(|k| k.at.is_some()) {
        match k.known() {
            Some(r) => add(k.side, movable_value(r)),
            None => unknown.push((k.side, k.id)),
        }
    }
    if !unknown.is_empty() {
        let belief = Belief::new(view, Priors::Hand);
        let seed = (u64::from(view.ply()) << 8) | view.me().index() as u64;
        let mut rng = Pcg64Mcg::seed_from_u64(seed ^ 0x0063_6f6e_6365_6465);
        let mut sums = vec![0f32; unknown.len()];
        for _ in 0..SAMPLES {
            let s = belief.sample(&mut rng);
            for (sum, &(_, id)) in sums.iter_mut().zip(&unknown) {
                *sum += s.ranks[id.0 as usize].map_or(0.0, movable_value);
            }
        }
        for (sum, &(side, _)) in sums.iter().zip(&unknown) {
            add(side, sum / SAMPLES as f32);
        }
    }
    (totals[0], totals[1])
}

/// Whether a flag of the seat's team (`ours`) or a known enemy flag stands
/// next to a piece of the other team that may take it: by road, or first
/// along a railway line. In flip games a flag cannot fall while its mines live.
fn flag_threatened(view: &PlayerView, ours: bool) -> bool {
    let board = view.board();
    let rules = view.rules();
    let flip = rules.mode == Mode::Flip;
    let may_take = |at: Point| match view.at(at) {
        Some(Seen::Piece { side, id, rank }) if friendly(view, side) != ours => {
            let possible = rank.map_or_else(
                || view.piece(id).map_or(RankSet::EMPTY, |k| k.possible),
                Rank::bit,
            );
            // The attacker is the other team: for our flag an enemy whose rank
            // may be any that takes it, for theirs one of ours that surely does.
            let movable = possible & RankSet::MOVABLE;
            let takers = movable
                .iter()
                .filter(|&r| rules.clash(r, Rank::Flag).flag_captured)
                .count();
            if ours {
                takers > 0
            } else {
                takers > 0 && takers == possible.len()
            }
        }
        _ => false,
    };
    view.pieces()
        .filter(|k| friendly(view, k.side) == ours && k.known() == Some(Rank::Flag))
        .filter(|k| !flip || view.mines_left(k.side) == 0)
        .filter_map(|k| k.at)
        .any(|flag| {
            board.road_neighbours(flag).iter().any(|&q| may_take(q))
                || board.rail_rays(flag).any(|ray| {
                    ray.iter()
                        .find(|&&q| view.at(q).is_some())
                        .is_some_and(|&q| may_take(q))
                })
        })
}

/// Whether the seat's team (`ours`) or its enemies can still open the
/// other's flag in a two-player game: it is not shut in, or the attacker
/// keeps an engineer or a bomb. A flag is shut in as the evaluation has it
/// (`eval::technique`): in flip games while its side has a landmine left,
/// in open games when it is [`boxed_in`]. Only what is public counts: in
/// flip games every removed piece was shown (so the keys left are the
/// army's five less those lost, face-down ones included), in open games
/// every piece is. Dark games and team games cannot tell, so the answer
/// there is yes.
fn can_open(view: &PlayerView, ours: bool) -> bool {
    if view.is_team_game() {
        return true;
    }
    let me = view.me();
    let (attacker, defender) = if ours {
        (me, me.opponent())
    } else {
        (me.opponent(), me)
    };
    match view.rules().mode {
        Mode::Dark => true,
        Mode::Flip => {
            let lost = view
                .pieces()
                .filter(|k| {
                    k.side == attacker && k.at.is_none() && k.known().is_some_and(opens_shut_flags)
                })
                .count();
            view.mines_left(defender) == 0
                || lost < usize::from(Rank::Engineer.count() + Rank::Bomb.count())
        }
        Mode::Open => {
            // Nothing is hidden: the filler is never asked.
            let pos = view.determinize(|_| (defender, Rank::Engineer));
            let shut = pos
                .pieces()
                .filter(|(_, pc)| pc.side == defender && pc.rank == Rank::Flag)
                .all(|(flag, _)| boxed_in(&pos, flag));
            !shut
                || pos
                    .pieces()
                    .any(|(_, pc)| pc.side == attacker && opens_shut_flags(pc.rank))
        }
    }
}

/// Two-player dark games: where the seat's own flag stands (`None` in
/// other games, where the rules below do not apply).
fn own_dark_flag(view: &PlayerView) -> Option<Point> {
    if view.rules().mode != Mode::Dark || view.is_team_game() {
        return None;
    }
    let me = view.me();
    view.pieces()
        .find(|k| k.side == me && k.known() == Some(Rank::Flag))
        .and_then(|k| k.at)
}

/// Two-player dark games: whether the seat's flag is boxed in by its own
/// landmines (its own pieces are known exactly; the filler of the hidden
/// enemy pieces never makes one of its mines).
fn flag_boxed(view: &PlayerView) -> bool {
    own_dark_flag(view).is_some_and(|flag| {
        let pos = view.determinize(|_| (view.me().opponent(), Rank::Engineer));
        boxed_in(&pos, flag)
    })
}

/// How close (in steps) an enemy piece must stand to its flag before a
/// player out for the win resigns a dark game: on a neighbour, from where
/// it takes the flag next move. Two steps let greedy's wandering pieces
/// count; one resigned fewer games that were not lost (+0.006 a seed over
/// five, none lower: game/README.md, *The flag's way in*).
pub const AT_THE_GATES: u8 = 1;

/// Two-player dark games: whether an enemy piece stands within
/// [`AT_THE_GATES`] steps of the seat's flag; true in every other game.
fn flag_pressed(view: &PlayerView) -> bool {
    own_dark_flag(view).is_none_or(|flag| {
        let dist = &tables(view.board()).dist[flag.index()];
        view.pieces()
            .filter(|k| k.side != view.me())
            .filter_map(|k| k.at)
            .any(|q| dist[q.index()] <= AT_THE_GATES)
    })
}

/// Whether the seat offered a draw within the last [`OFFER_PAUSE`] plies.
fn offered_lately(view: &PlayerView) -> bool {
    let me = view.me();
    let mut plies = 0u16;
    for e in view.events().iter().rev() {
        match *e {
            Event::DrawOffered { side } if side == me => return true,
            Event::Moved { .. }
            | Event::Battle { .. }
            | Event::Flipped { .. }
            | Event::VoidAttack { .. }
            | Event::TimedOut { .. } => {
                plies += 1;
                if plies >= OFFER_PAUSE {
                    return false;
                }
            }
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A standing at ply 60 of a two-player game, nothing threatened.
    fn standing_of(own: f32, enemy: f32, quiet: u16) -> Standing {
        Standing {
            own,
            enemy,
            start: 2.0 * army_movable_value(),
            own_flag_threatened: false,
            enemy_flag_threatened: false,
            own_can_open: true,
            enemy_can_open: true,
            own_flag_boxed: false,
            own_flag_pressed: true,
            ply: 60,
            quiet,
            quiet_limit: 60,
            resign_after: 20,
        }
    }

    #[test]
    fn far_ahead_never_resigns_accepts_or_offers() {
        for quiet in [0, 30, 59] {
            let s = standing_of(3000.0, 600.0, quiet);
            assert!(s.is_ahead());
            assert!(!s.resigns(false) && !s.accepts_draw(false) && !s.offers_draw(false));
        }
    }

    #[test]
    fn only_a_flag_and_mines_against_officers_resigns_after_ply_20() {
        // Flag and a mine: no movable material; several officers against it.
        let mut s = standing_of(0.0, 720.0 + 480.0 + 330.0, 5);
        assert!(s.resigns(false));
        s.ply = 19;
        assert!(!s.resigns(false), "resigning is refused before ply 20");
        s.ply = 20;
        assert!(s.resigns(false));
        s.enemy_flag_threatened = true;
        assert!(!s.resigns(false), "about to take a flag");
    }

    #[test]
    fn a_player_out_for_the_win_resigns_only_with_too_little_left_to_take_a_flag() {
        // A division and a brigade against most of an army: hopeless by
        // material, but enough to go for an open flag.
        let s = standing_of(480.0 + 330.0, 4000.0, 5);
        assert!(s.is_hopeless() && s.resigns(false) && !s.resigns(true));
        let mut s = standing_of(240.0, 4000.0, 5);
        assert!(s.resigns(true), "a regiment alone");
        s.own_flag_boxed = true;
        assert!(!s.resigns(true), "its flag still boxed in by its mines");
        assert!(s.resigns(false));
        s.own_flag_boxed = false;
        s.own_flag_pressed = false;
        assert!(!s.resigns(true), "no enemy piece near its flag yet");
        assert!(s.resigns(false));
        let s = standing_of(3000.0, 600.0, 5);
        assert!(!s.resigns(true) && !s.resigns(false));
    }

    #[test]
    fn the_standing_knows_whether_the_seats_flag_is_boxed_in() {
        use crate::ai::setup::flag_boxed as layout_boxed;
        use crate::game::Game;
        use crate::layout::classic_layouts;
        use crate::rules::Rules;
        let layouts = classic_layouts();
        let boxed = layouts
            .iter()
            .find(|l| layout_boxed(&l.layout))
            .expect("one");
        let open = layouts
            .iter()
            .find(|l| !layout_boxed(&l.layout))
            .expect("one");
        for mode in [Mode::Dark, Mode::Open] {
            let rules = Rules::for_mode(mode);
            let game =
                Game::new(rules, boxed.layout, open.layout, Side::South).expect("classic layouts");
            let dark = mode == Mode::Dark;
            assert_eq!(standing(&game.view(Side::South)).own_flag_boxed, dark);
            assert!(!standing(&game.view(Side::North)).own_flag_boxed);
        }
    }

    #[test]
    fn the_side_holding_the_only_keys_to_a_shut_flag_plays_on() {
        // A dead level endgame, but only the seat can still open a flag.
        let mut keys = standing_of(900.0, 950.0, 35);
        keys.enemy_can_open = false;
        assert!(keys.holds_the_keys());
        assert!(!keys.offers_draw(false) && !keys.accepts_draw(false));
        // Behind in material it can still lose every piece: a draw is fine.
        let mut behind = standing_of(900.0, 1400.0, 35);
        behind.enemy_can_open = false;
        assert!(!behind.holds_the_keys() && behind.accepts_draw(false));
        // The other way round, level in the middle game: take the draw.
        let mut lost = standing_of(5000.0, 5000.0, 3);
        lost.ply = 30;
        lost.own_can_open = false;
        assert!(lost.lost_the_keys() && lost.accepts_draw(false));
        assert!(!lost.offers_draw(false), "offers wait for a dead endgame");
    }

    #[test]
    fn level_dead_endgame_offers_and_accepts_level_middlegame_declines() {
        let dead = standing_of(900.0, 950.0, 35);
        assert!(dead.offers_draw(false) && dead.accepts_draw(false) && !dead.resigns(false));
        let lively = standing_of(900.0, 950.0, 10);
        assert!(!lively.offers_draw(false) && lively.accepts_draw(false));
        let mut middle = standing_of(5000.0, 5000.0, 3);
        middle.ply = 30;
        assert!(!middle.offers_draw(false) && !middle.accepts_draw(false));
        let dead_middle = standing_of(5000.0, 5000.0, 35);
        assert!(!dead_middle.offers_draw(false) && dead_middle.accepts_draw(false));
        let behind = standing_of(4000.0, 5000.0, 3);
        assert!(behind.accepts_draw(false) && !behind.resigns(false));
    }

    #[test]
    fn a_player_out_for_the_win_plays_level_games_on_and_takes_draws_when_behind() {
        let level_dead = standing_of(900.0, 950.0, 35);
        assert!(level_dead.accepts_draw(false) && level_dead.offers_draw(false));
        assert!(!level_dead.accepts_draw(true) && !level_dead.offers_draw(true));
        let dead_middle = standing_of(5000.0, 5000.0, 35);
        assert!(!dead_middle.accepts_draw(true));
        let behind = standing_of(600.0, 950.0, 35);
        assert!(behind.accepts_draw(true) && behind.offers_draw(true));
        let mut threatened = standing_of(900.0, 950.0, 5);
        threatened.own_flag_threatened = true;
        assert!(threatened.accepts_draw(true));
        let mut lost = standing_of(900.0, 950.0, 5);
        lost.own_can_open = false;
        assert!(lost.accepts_draw(true));
        for quiet in [0, 30, 59] {
            let ahead = standing_of(3000.0, 600.0, quiet);
            assert!(!ahead.accepts_draw(true) && !ahead.offers_draw(true));
        }
    }

    #[test]
    fn the_army_counts_its_movable_pieces() {
        // 1000 + 720 + 2·480 + 2·330 + 2·240 + 2·170 + 3·120 + 3·85 + 3·110 + 2·420.
        assert_eq!(army_movable_value(), 5945.0);
    }
}
