//! The evaluation's weights: how much each of its hand-set terms counts.
//!
//! Each weight scales one table or constant of [`super::eval`] in percent,
//! so [`Weights::HAND`] (every weight 100, but the home guard's, the
//! plug's and the shield's 0: Master's own) is the evaluation as written and
//! a tuner can move them without touching the tables' shapes. The arena
//! sets them by name (`master:hunt=120`) and its `tune` command moves them
//! by self-play (game/README.md, *Tuning by self-play*).

/// Percent scales of the evaluation's terms (100 = as hand-set).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Our pieces near the enemy flag (`super::eval::NEAR_FLAG`).
    pub near_flag: i32,
    /// Enemy pieces near our flag (`DEFEND_FLAG`).
    pub defend_flag: i32,
    /// Closing in on weaker enemy pieces in thin positions (`HUNT`).
    pub hunt: i32,
    /// The strongest officer left when the enemy has nothing that beats it.
    pub top_officer: i32,
    /// Against a shut flag: no engineer and no bomb left (`NO_MEANS`).
    pub no_means: i32,
    /// Against a shut flag: one engineer or bomb left (`LAST_MEANS`).
    pub last_means: i32,
    /// An engineer closing in on the mines that shut the enemy flag (`DIG`).
    pub dig: i32,
    /// A bomb closing in on the enemy officer nothing else beats (`BOMB_HUNT`).
    pub bomb_hunt: i32,
    /// Flip games: the enemy flag open, its last landmine gone (`OPEN_FLAG`).
    pub open_flag: i32,
    /// Flip games: an engineer or bomb closing in on the enemy's last
    /// landmine (`LAST_MINE_STEP`).
    pub last_mine: i32,
    /// Trading down when ahead: a material lead counting more as the armies
    /// thin (`TRADE_DOWN`), and closing in on what ours trade with (`TRADE_HUNT`).
    pub trade_down: i32,
    /// A strong piece kept near the searcher's own flag where the flag has
    /// a way in (`eval::HOME_GUARD`); 0 in [`Weights::HAND`], Master turns
    /// it on ([`super::Level::params`]).
    pub home_guard: i32,
    /// An own piece standing in each such way in (`eval::PLUG`); 0 in
    /// [`Weights::HAND`], Master turns it on.
    pub plug: i32,
    /// An own piece on each point from which a landmine beside the flag
    /// can be attacked (`eval::SHIELD`); 0 in [`Weights::HAND`], Master
    /// turns it on.
    pub shield: i32,
    /// Dark games: the searcher's own last engineers and bombs against an
    /// enemy flag the sample boxes in by its landmines (`NO_MEANS`,
    /// `LAST_MEANS`, counted for the searcher's side only); 0 in
    /// [`Weights::HAND`] and at every level (journal, 7 December).
    pub keys: i32,
    /// The share (percent) of a lead that fades to the draw's value when
    /// the side ahead has lost the means to win (`super::means`, with
    /// `Knowledge::Technique`); 0 in [`Weights::HAND`] and at every level,
    /// an arena key (journal, 7 December, *the means to win*).
    pub means: i32,
}

impl Default for Weights {
    fn default() -> Self {
        Weights::HAND
    }
}

impl Weights {
    /// The evaluation as written (without the home guard, the plug and the
    /// shield, Master's own).
    pub const HAND: Weights = Weights {
        near_flag: 100,
        defend_flag: 100,
        hunt: 100,
        top_officer: 100,
        no_means: 100,
        last_means: 100,
        dig: 100,
        bomb_hunt: 100,
        open_flag: 100,
        last_mine: 100,
        trade_down: 100,
        home_guard: 0,
        plug: 0,
        shield: 0,
        keys: 0,
        means: 0,
    };

    /// The weights' names, as the arena and the tuner spell them.
    pub const NAMES: [&'static str; 16] = [
        "near_flag",
        "defend_flag",
        "hunt",
        "top_officer",
        "no_means",
        "last_means",
        "dig",
        "bomb_hunt",
        "open_flag",
        "last_mine",
        "trade_down",
        "home_guard",
        "plug",
        "shield",
        "keys",
        "means",
    ];

    fn slot(&mut self, name: &str) -> Option<&mut i32> {
        Some(match name {
            "near_flag" => &mut self.near_flag,
            "defend_flag" => &mut self.defend_flag,
            "hunt" => &mut self.hunt,
            "top_officer" => &mut self.top_officer,
            "no_means" => &mut self.no_means,
            "last_means" => &mut self.last_means,
            "dig" => &mut self.dig,
            "bomb_hunt" => &mut self.bomb_hunt,
            "open_flag" => &mut self.open_flag,
            "last_mine" => &mut self.last_mine,
            "trade_down" => &mut self.trade_down,
            "home_guard" => &mut self.home_guard,
            "plug" => &mut self.plug,
            "shield" => &mut self.shield,
            "keys" => &mut self.keys,
            "means" => &mut self.means,
            _ => return None,
        })
    }

    /// Sets the weight called `name` (one of [`Weights::NAMES`]) to
    /// `percent`; `false` if there is no such weight or the value is
    /// negative (a term never turns into its opposite).
    pub fn set(&mut self, name: &str, percent: i32) -> bool {
        match self.slot(name) {
            Some(w) if percent >= 0 => {
                *w = percent;
                true
            }
            _ => false,
        }
    }

    /// The weight called `name`, if there is one.
    pub fn get(&self, name: &str) -> Option<i32> {
        let mut copy = *self;
        copy.slot(name).map(|w| *w)
    }
}

/// `base` scaled by `percent`.
#[inline]
pub(crate) fn scaled(base: i32, percent: i32) -> i32 {
    base * percent / 100
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_sets_and_reads_its_own_weight() {
        for (i, name) in Weights::NAMES.iter().enumerate() {
            let mut w = Weights::HAND;
            assert!(w.set(name, 150 + i as i32));
            assert_eq!(w.get(name), Some(150 + i as i32));
            let others = Weights::NAMES.iter().filter(|n| *n != name);
            for other in others {
                assert_eq!(
                    w.get(other),
                    Weights::HAND.get(other),
                    "{name} moved {other}"
                );
            }
        }
    }

    #[test]
    fn unknown_names_and_negative_weights_are_refused() {
        let mut w = Weights::HAND;
        assert!(!w.set("material", 120));
        assert!(!w.set("hunt", -5));
        assert_eq!(w, Weights::HAND);
        assert_eq!(w.get("material"), None);
    }

    #[test]
    fn the_hand_weights_leave_every_term_as_written() {
        for base in [0, 1, 7, 70, 220, 320, -90] {
            assert_eq!(scaled(base, Weights::HAND.hunt), base);
        }
        assert_eq!(scaled(70, 150), 105);
    }
}
