//! The setup screen's state ([`SetupState`]): the player's layout, the options, the last
//! message, a LAN game's arranging step, and the swaps that keep the layout legal.

use bevy::prelude::*;
use junqi_game::{Layout, LayoutProblem, Point, Rules};

use super::options::{MatchOptions, Table};
use crate::{game_text::problem_text, i18n::Lang};

/// The layout shown first: a sound standard layout (flag in the left headquarters, mines around it).
pub const DEFAULT_LAYOUT: &str =
    "师 兵 营 连 团\n营 . 炸 . 排\n军 旅 . 兵 令\n连 . 炸 . 排\n旅 雷 师 兵 连\n团 旗 雷 雷 排";

/// The setup screen's state (kept between games so the player's layout stays).
#[derive(Resource, Clone, Debug)]
pub struct SetupState {
    /// The player's layout.
    pub layout: Layout,
    /// The options.
    pub options: MatchOptions,
    /// The first point clicked of a swap, as (row, col).
    pub selected: Option<(u8, u8)>,
    /// Points the last refusal concerns.
    pub warn: Vec<Point>,
    /// The last message and whether it is an error.
    pub message: Option<(String, bool)>,
    /// The name typed for saving.
    pub name: String,
    /// Saved layout names.
    pub saved: Vec<String>,
    /// Index into the classic layouts.
    pub classic: usize,
    /// The options are for hosting a LAN game (from the lobby): 出征 hosts it.
    pub lan_host: bool,
    /// A LAN game's players are arranging their armies (after the pairing).
    pub lan: Option<LanArranging>,
}

/// A LAN game's arranging step: the player arranges its army under the host's rules, then is ready.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LanArranging {
    /// The pairing code both screens showed.
    pub code: String,
    /// The peer's name.
    pub peer: String,
    /// Whether this side hosts (its rules are the game's).
    pub host: bool,
    /// This player is ready: its layout is committed.
    pub ready: bool,
    /// The peer is ready.
    pub peer_ready: bool,
    /// The player's own options, back once the LAN arranging is over.
    own: Option<MatchOptions>,
}

impl LanArranging {
    /// The arranging step after the pairing code `code` with `peer`.
    pub fn new(code: String, peer: String, host: bool) -> Self {
        Self {
            code,
            peer,
            host,
            ready: false,
            peer_ready: false,
            own: None,
        }
    }
}

impl Default for SetupState {
    fn default() -> Self {
        Self {
            layout: DEFAULT_LAYOUT.parse().expect("the default layout parses"),
            options: MatchOptions::default(),
            selected: None,
            warn: Vec::new(),
            message: None,
            name: String::new(),
            saved: Vec::new(),
            classic: 0,
            lan_host: false,
            lan: None,
        }
    }
}

/// What the setup screen's buttons ask for.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum SetupAction {
    /// The default layout.
    Default,
    /// A random legal layout.
    Random,
    /// Mirror left-right.
    Mirror,
    /// Classic layout number `n` (0-based).
    Classic(usize),
    /// Save under a name.
    Save(String),
    /// Load a saved layout.
    Load(String),
    /// Delete a saved layout.
    Delete(String),
    /// Start the game (in a LAN game: ready).
    March,
    /// Leave the screen (a LAN game's setup: leave the game).
    Back,
}

fn problem_point(p: &LayoutProblem, o: &MatchOptions) -> Option<Point> {
    use LayoutProblem::*;
    let (row, col) = match *p {
        PieceInCamp { row, col, .. }
        | FlagOutsideHeadquarters { row, col }
        | MineOutsideBackRows { row, col }
        | BombInFrontRow { row, col }
        | EmptyPoint { row, col } => (row, col),
        WrongCount { .. } => return None,
    };
    o.board().point(o.my_side(), row, col)
}

impl SetupState {
    /// A LAN game's setup begins: the host's `rules` on their board, the classic one or the big
    /// one (the player arranges a half of it either way, shown at the bottom; the player's own
    /// options come back afterwards, [`SetupState::leave_lan`]); the layout is checked against
    /// them.
    pub fn arrange(&mut self, mut lan: LanArranging, rules: Rules, lang: Lang) {
        lan.own = Some(self.options.clone());
        self.options.table = if rules.four_player_board {
            Table::TwoOnBig
        } else {
            Table::Two
        };
        self.options.rules = rules;
        self.lan = Some(lan);
        self.lan_host = false;
        let note = lang.t("setup.lan.arrange").to_owned();
        self.set_layout(self.layout, lang, note);
    }

    /// The LAN game's setup is over (play began, or the game was left).
    pub fn leave_lan(&mut self) {
        if let Some(own) = self.lan.take().and_then(|l| l.own) {
            self.options = own;
        }
    }

    /// Whether the layout may be changed (not once a LAN player is ready).
    pub fn editable(&self) -> bool {
        self.lan.as_ref().is_none_or(|l| !l.ready)
    }

    /// Tries to swap two points of the player's half; a swap that breaks a rule is refused with
    /// the reasons. Returns whether it happened.
    pub fn try_swap(&mut self, a: (u8, u8), b: (u8, u8), lang: Lang) -> bool {
        self.selected = None;
        if a == b {
            return false;
        }
        let swapped = self.layout.swapped(a, b);
        match swapped.validate(&self.options.rules) {
            Ok(_) => {
                self.layout = swapped;
                self.warn.clear();
                self.message = Some((lang.t("setup.swapped").to_owned(), false));
                true
            }
            Err(errors) => {
                let before = self.layout.validate(&self.options.rules).err();
                let new: Vec<&LayoutProblem> = errors
                    .0
                    .iter()
                    .filter(|p| before.as_ref().is_none_or(|b| !b.0.contains(p)))
                    .collect();
                if new.is_empty() {
                    // The layout was already broken (e.g. the rules changed): allow the swap.
                    self.layout = swapped;
                    return true;
                }
                self.warn = new
                    .iter()
                    .filter_map(|p| problem_point(p, &self.options))
                    .collect();
                let reasons: Vec<String> = new.iter().map(|p| problem_text(p, lang)).collect();
                self.message = Some((
                    format!(
                        "{}{}{}",
                        lang.t("setup.refused"),
                        lang.colon(),
                        reasons.join(lang.t("punct.list"))
                    ),
                    true,
                ));
                false
            }
        }
    }

    pub(super) fn set_layout(&mut self, layout: Layout, lang: Lang, note: String) {
        self.layout = layout;
        self.selected = None;
        self.warn.clear();
        self.message = match self.layout.validate(&self.options.rules) {
            Ok(_) => Some((note, false)),
            Err(e) => Some((
                e.0.iter()
                    .map(|p| problem_text(p, lang))
                    .collect::<Vec<_>>()
                    .join(lang.t("punct.list")),
                true,
            )),
        };
    }
}
