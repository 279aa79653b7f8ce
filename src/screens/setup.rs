//! The setup screen (布阵): the new-game options ([`MatchOptions`]: mode, level, rule options,
//! who starts) and the player's layout: click two pieces (or drag one onto another) to swap
//! them, classic presets, random, mirror, named layouts saved in the data directory, and 出征.
//! In a LAN game each player arranges its own army here after the pairing
//! ([`SetupState::lan`]): the host's rules are shown, not editable, and 布好了 (ready) commits
//! the layout; play begins once both players are ready.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use junqi_game::{
    Board, FlagCapture, Game, Layout, LayoutProblem, MineRule, Mode, NamedLayout, Point, Rules,
    Side, ai::Ai, classic_layouts,
};
use rand::Rng;
use serde::{Deserialize, Serialize};

use super::{Navigate, Screen};
use crate::{
    ai,
    board::{BoardArea, BoardClick, BoardDrag, BoardScene, Colour, Face, Tile},
    form::Form,
    game_match::Match,
    i18n::Lang,
    model::{ActiveGame, DEFAULT_UNDOS, now_secs},
    settings::{PieceColour, Settings},
    storage::{self, DataDir, StoreError},
    theme,
};

/// The layout shown first: a sound standard layout (flag in the left headquarters, mines around it).
pub const DEFAULT_LAYOUT: &str =
    "师 兵 营 连 团\n营 . 炸 . 排\n军 旅 . 兵 令\n连 . 炸 . 排\n旅 雷 师 兵 连\n团 旗 雷 雷 排";

/// Who moves first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum First {
    /// The player.
    #[default]
    Me,
    /// The computer.
    Ai,
    /// Decided at random.
    Random,
}

/// Who plays, on which board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Table {
    /// Two players on the classic board.
    #[default]
    Two,
    /// Two players on the four-player board (QQ 两人 rooms): South against North through the
    /// centre, East and West empty.
    TwoOnBig,
    /// Four players (四国大战): the player, a computer partner and two computer enemies.
    Four,
}

/// The new-game options.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct MatchOptions {
    /// Every rule option.
    pub rules: Rules,
    /// Computer level 1…4 (新手, 熟练, 高手, 大师).
    pub level: u8,
    /// Who moves first.
    pub first: First,
    /// Who plays, on which board.
    pub table: Table,
    /// Four players: the player's seat.
    pub seat: Side,
    /// Four players: each computer seat's level, by [`Side::index`] (the player's is unused).
    pub levels: [u8; 4],
    /// Takebacks (悔棋) allowed a game against the computer.
    pub undos: u8,
}

impl Default for MatchOptions {
    fn default() -> Self {
        Self {
            rules: Rules::default(),
            level: 2,
            first: First::Me,
            table: Table::Two,
            seat: Side::South,
            levels: [2; 4],
            undos: DEFAULT_UNDOS,
        }
    }
}

impl MatchOptions {
    /// Switches to `table` with its default rules (RULES.md §9 for four players: 30 s, 70 quiet
    /// plies, the last-pieces rule), keeping the way to play where the table has it.
    pub fn set_table(&mut self, table: Table) {
        if table == self.table {
            return;
        }
        let mode = match (table, self.rules.mode) {
            (Table::Four, Mode::Flip) => Mode::Dark,
            (_, m) => m,
        };
        self.rules = match table {
            Table::Two => Rules::for_mode(mode),
            Table::TwoOnBig => Rules {
                four_player_board: true,
                ..Rules::for_mode(mode)
            },
            Table::Four => Rules::four_player(mode),
        };
        self.table = table;
    }

    /// The board the game is played on.
    pub fn board(&self) -> &'static Board {
        match self.table {
            Table::Two => Board::classic(),
            Table::TwoOnBig | Table::Four => Board::four_player(),
        }
    }

    /// The player's side: its seat round a four-player table, South otherwise.
    pub fn my_side(&self) -> Side {
        match self.table {
            Table::Four => self.seat,
            Table::Two | Table::TwoOnBig => Side::South,
        }
    }

    /// The QQ 四国 room's rules for the current way to play (四暗, 双明, 全明).
    pub fn qq_preset(&mut self) {
        let partners_open = self.rules.partners_open;
        self.rules = Rules {
            partners_open,
            ..Rules::four_player(self.rules.mode)
        };
    }
}

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

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SetupState>()
        .add_message::<SetupAction>()
        .add_systems(OnEnter(Screen::Setup), enter)
        .add_systems(OnExit(Screen::Setup), exit)
        .add_systems(
            Update,
            (clicks, actions, show)
                .chain()
                .after(crate::board::BoardInput)
                .run_if(in_state(Screen::Setup)),
        );
    super::add_ui(app, Screen::Setup, ui);
}

fn enter(
    mut state: ResMut<SetupState>,
    dir: Res<DataDir>,
    settings: Res<Settings>,
    mut recalled: Local<bool>,
) {
    // The first time the screen opens: the player's last choices, if any.
    if !std::mem::replace(&mut *recalled, true)
        && state.lan.is_none()
        && !state.lan_host
        && let Some(last) = super::setup_memory::recall::<MatchOptions>(&dir)
    {
        state.options = last.options;
        // A layout that no longer passes the rules (they changed) is left for the default.
        if last.layout.validate(&state.options.rules).is_ok() {
            state.layout = last.layout;
        }
    }
    // LAN games are two-player games on the classic board.
    if state.lan_host {
        state.options.set_table(Table::Two);
    }
    state.saved = storage::list_names(&dir.layouts());
    state.selected = None;
    state.warn.clear();
    // A LAN game's rules are the host's: not the player's default clock.
    if state.lan.is_none() && state.options.rules.move_seconds == Rules::default().move_seconds {
        state.options.rules.move_seconds = settings.clock_secs as u16;
    }
}

fn exit(mut scene: ResMut<BoardScene>) {
    *scene = BoardScene::default();
}

/// The player's half's (row, col) of a board point, if it is on the player's half.
fn own_rc(p: Point, o: &MatchOptions) -> Option<(u8, u8)> {
    let info = o.board().info(p);
    (info.half == Some(o.my_side())).then_some((info.row, info.col))
}

/// A layout problem in words, the point named by its row and column as the player counts them
/// on the board (rows from the front), after what is wrong.
pub fn problem_text(p: &LayoutProblem, lang: Lang) -> String {
    use LayoutProblem::*;
    let at = |row: u8, col: u8| match lang {
        Lang::Zh => format!("（第 {row} 行第 {col} 列）"),
        Lang::En => format!(" (row {row}, column {col})"),
    };
    match (*p, lang) {
        (PieceInCamp { row, col, .. }, Lang::Zh) => format!("行营开局必须空着{}", at(row, col)),
        (PieceInCamp { row, col, .. }, Lang::En) => format!("Camps start empty{}", at(row, col)),
        (
            WrongCount {
                rank,
                expected,
                found,
            },
            Lang::Zh,
        ) => {
            format!("{}应为 {expected} 个，现有 {found} 个", rank.zh_name())
        }
        (
            WrongCount {
                rank,
                expected,
                found,
            },
            Lang::En,
        ) => {
            format!("{}: {found} instead of {expected}", rank.en_name())
        }
        (FlagOutsideHeadquarters { row, col }, Lang::Zh) => {
            format!("军旗只能放在大本营{}", at(row, col))
        }
        (FlagOutsideHeadquarters { row, col }, Lang::En) => {
            format!("The flag must stand in a headquarters{}", at(row, col))
        }
        (MineOutsideBackRows { row, col }, Lang::Zh) => {
            format!("地雷只能放在最后两行{}", at(row, col))
        }
        (MineOutsideBackRows { row, col }, Lang::En) => {
            format!("Landmines stand only in the last two rows{}", at(row, col))
        }
        (BombInFrontRow { row, col }, Lang::Zh) => format!("炸弹不能放在第一行{}", at(row, col)),
        (BombInFrontRow { row, col }, Lang::En) => {
            format!("Bombs may not stand in the front row{}", at(row, col))
        }
        (EmptyPoint { row, col }, Lang::Zh) => format!("此处不能空着{}", at(row, col)),
        (EmptyPoint { row, col }, Lang::En) => {
            format!("This point must hold a piece{}", at(row, col))
        }
    }
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
    /// A LAN game's setup begins: the host's `rules` on the classic board (the player's own
    /// options come back afterwards, [`SetupState::leave_lan`]); the layout is checked against
    /// them.
    pub fn arrange(&mut self, mut lan: LanArranging, rules: Rules, lang: Lang) {
        lan.own = Some(self.options.clone());
        self.options.table = Table::Two;
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
                        reasons.join("；")
                    ),
                    true,
                ));
                false
            }
        }
    }

    fn set_layout(&mut self, layout: Layout, lang: Lang, note: String) {
        self.layout = layout;
        self.selected = None;
        self.warn.clear();
        self.message = match self.layout.validate(&self.options.rules) {
            Ok(_) => Some((note, false)),
            Err(e) => Some((
                e.0.iter()
                    .map(|p| problem_text(p, lang))
                    .collect::<Vec<_>>()
                    .join("；"),
                true,
            )),
        };
    }
}

fn clicks(
    mut state: ResMut<SetupState>,
    mut clicks: MessageReader<BoardClick>,
    mut drags: MessageReader<BoardDrag>,
    lang: Res<Lang>,
) {
    if !state.editable() {
        clicks.clear();
        drags.clear();
        return;
    }
    for BoardClick(p) in clicks.read() {
        let Some(rc) = own_rc(*p, &state.options) else {
            continue;
        };
        match state.selected {
            None if state.layout.get(rc.0, rc.1).is_some() => state.selected = Some(rc),
            None => {}
            Some(a) => {
                state.try_swap(a, rc, *lang);
            }
        }
    }
    for d in drags.read() {
        if let (Some(a), Some(b)) = (own_rc(d.from, &state.options), own_rc(d.to, &state.options)) {
            state.try_swap(a, b, *lang);
        }
    }
}

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

#[allow(clippy::too_many_arguments)] // a Bevy system's parameters
fn actions(
    mut commands: Commands,
    mut state: ResMut<SetupState>,
    mut reader: MessageReader<SetupAction>,
    lang: Res<Lang>,
    dir: Res<DataDir>,
    mut nav: MessageWriter<Navigate>,
    mut lobby: MessageWriter<super::lobby::LobbyAction>,
    mut lan: MessageWriter<crate::lan::LanRequest>,
) {
    let lang = *lang;
    for action in reader.read() {
        let changes = !matches!(
            action,
            SetupAction::Save(_) | SetupAction::Delete(_) | SetupAction::Back
        );
        if changes && !state.editable() {
            continue;
        }
        match action {
            SetupAction::Default => {
                let l = DEFAULT_LAYOUT.parse().expect("default layout");
                state.set_layout(l, lang, lang.t("setup.default").to_owned());
            }
            SetupAction::Random => {
                let l = Layout::random(&state.options.rules, &mut rand::rng());
                state.set_layout(l, lang, lang.t("setup.random").to_owned());
            }
            SetupAction::Mirror => {
                let l = state.layout.mirrored();
                state.set_layout(l, lang, lang.t("setup.mirror").to_owned());
            }
            SetupAction::Classic(i) => {
                let all = classic_layouts();
                if let Some(l) = all.get(*i % all.len().max(1)) {
                    state.classic = *i % all.len();
                    let note = format!("{} {}", lang.t("setup.classic"), l.name);
                    state.set_layout(l.layout, lang, note);
                }
            }
            SetupAction::Save(name) => {
                state.message = Some(match save_layout(&dir, name, &state.layout) {
                    Ok(n) => {
                        state.saved = storage::list_names(&dir.layouts());
                        (
                            format!("{}{}{n}", lang.t("setup.saved"), lang.colon()),
                            false,
                        )
                    }
                    Err(e) => (e.message(lang), true),
                });
            }
            SetupAction::Load(name) => match load_layout(&dir, name) {
                Ok(l) => {
                    let note = format!("{}{}{}", lang.t("setup.loaded"), lang.colon(), l.name);
                    state.set_layout(l.layout, lang, note);
                }
                Err(e) => {
                    state.message = Some((e.message(lang), true));
                    // A damaged file was moved aside: it leaves the list.
                    state.saved = storage::list_names(&dir.layouts());
                }
            },
            SetupAction::Delete(name) => {
                if let Ok(path) = storage::named_file(&dir.layouts(), name) {
                    let _ = std::fs::remove_file(path);
                }
                state.saved = storage::list_names(&dir.layouts());
            }
            SetupAction::March => {
                if state.options.rules.mode != Mode::Flip
                    && let Err(e) = state.layout.validate(&state.options.rules)
                {
                    let reasons: Vec<String> = e.0.iter().map(|p| problem_text(p, lang)).collect();
                    state.message = Some((reasons.join("；"), true));
                    continue;
                }
                if state.lan_host {
                    lobby.write(super::lobby::LobbyAction::StartHosting);
                    continue;
                }
                let layout = state.layout;
                if let Some(l) = state.lan.as_mut() {
                    l.ready = true;
                    lan.write(crate::lan::LanRequest::Send(
                        junqi_net::peer::PeerCmd::Ready(layout),
                    ));
                    state.message = Some((lang.t("setup.lan.waiting").to_owned(), false));
                    continue;
                }
                match new_match(&state.options, &state.layout, &mut rand::rng()) {
                    Some(game_match) => {
                        let mut game = if state.options.table == Table::Four {
                            ActiveGame::table(game_match, state.options.levels)
                        } else {
                            ActiveGame::new(game_match, state.options.level)
                        };
                        game.undo_limit = state.options.undos;
                        let kept =
                            super::setup_memory::remember(&dir, &state.options, state.layout);
                        if let Err(e) = kept {
                            warn!("{e}");
                        }
                        commands.insert_resource(game);
                        nav.write(Navigate(Screen::Game));
                    }
                    None => state.message = Some((lang.t("setup.cannot_start").to_owned(), true)),
                }
            }
            SetupAction::Back => {
                if state.lan.is_some() {
                    // Leaving the LAN game's setup leaves the game.
                    lobby.write(super::lobby::LobbyAction::Cancel);
                    nav.write(Navigate(Screen::Lobby));
                } else {
                    nav.write(Navigate(Screen::Title));
                }
            }
        }
    }
}

/// Saves a layout as `layouts/NAME.json`; refuses to replace a file that is not a layout.
pub fn save_layout(dir: &DataDir, name: &str, layout: &Layout) -> Result<String, StoreError> {
    let name = storage::check_name(name)?;
    let path = storage::named_file(&dir.layouts(), &name)?;
    if path.exists() {
        storage::load_json::<NamedLayout>(&path)?;
    }
    storage::save_json(
        &path,
        &NamedLayout {
            name: name.clone(),
            layout: *layout,
        },
    )?;
    Ok(name)
}

/// Loads `layouts/NAME.json`.
pub fn load_layout(dir: &DataDir, name: &str) -> Result<NamedLayout, StoreError> {
    // A damaged layout file is moved aside (and reported), never left to be saved over.
    storage::load_or_move_aside(&storage::named_file(&dir.layouts(), name)?)
}

fn show(
    state: Res<SetupState>,
    settings: Res<Settings>,
    form: Res<Form>,
    mut scene: ResMut<BoardScene>,
) {
    let board = state.options.board();
    let me = state.options.my_side();
    let four = state.options.table == Table::Four;
    let colour = match settings.my_colour {
        _ if four => Colour::of_seat(me),
        PieceColour::Red => Colour::Red,
        PieceColour::Blue => Colour::Blue,
    };
    let flip = state.options.rules.mode == Mode::Flip;
    let mut pieces = Vec::new();
    for row in 1..=6u8 {
        for col in 1..=5u8 {
            let p = board.point(me, row, col).expect("point");
            if flip {
                if board.kind(p) != junqi_game::PointKind::Camp {
                    pieces.push((
                        p,
                        Tile {
                            face: Face::FaceDown,
                            colour: Colour::Neutral,
                            marker: None,
                        },
                    ));
                    let q = board.point(Side::North, row, col).expect("point");
                    pieces.push((
                        q,
                        Tile {
                            face: Face::FaceDown,
                            colour: Colour::Neutral,
                            marker: None,
                        },
                    ));
                }
            } else if let Some(rank) = state.layout.get(row, col) {
                pieces.push((
                    p,
                    Tile {
                        face: Face::Rank(rank),
                        colour,
                        marker: None,
                    },
                ));
            }
        }
    }
    let big = board.sides().len() == 4;
    let new = BoardScene {
        active: true,
        bottom: Some(me),
        pieces,
        selected: state.selected.and_then(|(r, c)| board.point(me, r, c)),
        warn: state.warn.clone(),
        show_nicknames: settings.nicknames,
        dim_enemy_half: !flip,
        four: big,
        // On a phone held upright the big board's tiles are small: the player's own half, the
        // one being arranged, fills the width instead.
        focus_own_half: big && *form == Form::Portrait,
        // Two players on the big board: East and West stay empty.
        dim_halves: if big && !four {
            vec![Side::East, Side::West]
        } else {
            Vec::new()
        },
        ..default()
    };
    if *scene != new {
        *scene = new;
    }
}

#[allow(clippy::too_many_arguments)]
fn ui(
    mut contexts: EguiContexts,
    lang: Res<Lang>,
    form: Res<Form>,
    mut state: ResMut<SetupState>,
    mut tab: Local<SetupTab>,
    mut actions: MessageWriter<SetupAction>,
    mut nav: MessageWriter<Navigate>,
    mut area: ResMut<BoardArea>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let out = setup_panels(ctx, &mut state, *lang, *form, &mut tab);
    area.0 = Some(crate::form::board_area(out.board, ctx));
    actions.write_batch(out.actions);
    if let Some(to) = out.nav {
        nav.write(Navigate(to));
    }
    Ok(())
}

/// What the setup screen's panels asked for this frame.
pub type SetupOut = super::PanelsOut<SetupAction>;

/// The portrait layout's tabs below the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SetupTab {
    /// 布阵: default, random, classic, saved layouts.
    #[default]
    Layout,
    /// 选项: the game's options.
    Options,
}

/// The setup screen's panels for `form` (the options may be edited in place); the board gets
/// what is left. In a wide window the options are left of the board and the layout tools right
/// of it; in portrait a bar above the board holds 出征 and tabs below it the rest.
pub fn setup_panels(
    ctx: &egui::Context,
    state: &mut SetupState,
    lang: Lang,
    form: Form,
    tab: &mut SetupTab,
) -> SetupOut {
    let mut out = SetupOut::default();
    let mut root = theme::root_ui(ctx);
    let panel_frame = theme::panel(12);
    let mut opts = state.options.clone();
    match form {
        Form::Wide => {
            egui::Panel::left("setup_options")
                .exact_size(300.0)
                .resizable(false)
                .frame(panel_frame)
                .show(&mut root, |ui| {
                    ui.horizontal(|ui| {
                        back_button(ui, lang, &mut out);
                        theme::heading(ui, lang.t("setup.title"));
                    });
                    ui.separator();
                    egui::ScrollArea::vertical()
                        .show(ui, |ui| lan_options_ui(ui, &mut opts, lang, state));
                });
            egui::Panel::right("setup_tools")
                .exact_size(280.0)
                .resizable(false)
                .frame(panel_frame)
                .show(&mut root, |ui| {
                    ui.add_space(4.0);
                    lan_status(ui, state, lang);
                    march_button(ui, state, lang, &mut out, [250.0, 56.0]);
                    ui.add_space(6.0);
                    // A place of its own height: 保存布阵 and the list stay put.
                    theme::message_slot(ui, "setup_message", 3.0, |ui| message(ui, state));
                    tools_ui(ui, state, lang, &mut out, 220.0);
                });
        }
        Form::Portrait => {
            let height = root.available_height();
            egui::Panel::top("setup_top")
                .frame(panel_frame.inner_margin(8))
                .show(&mut root, |ui| {
                    ui.horizontal(|ui| {
                        back_button(ui, lang, &mut out);
                        theme::heading(ui, lang.t("setup.title"));
                        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                            march_button(ui, state, lang, &mut out, [120.0, 44.0]);
                        });
                    });
                    lan_status(ui, state, lang);
                    // A place of its own height: the board stays put.
                    theme::message_slot(ui, "setup_message", 2.0, |ui| message(ui, state));
                });
            egui::Panel::bottom("setup_bottom")
                .frame(panel_frame.inner_margin(8))
                .show(&mut root, |ui| {
                    ui.horizontal(|ui| {
                        for (t, key) in [
                            (SetupTab::Layout, "setup.tab.layout"),
                            (SetupTab::Options, "setup.tab.options"),
                        ] {
                            if ui.selectable_label(*tab == t, lang.t(key)).clicked() {
                                *tab = t;
                            }
                        }
                    });
                    ui.separator();
                    // A fixed height whatever the tab, so that the board does not jump.
                    let h = (height * 0.3).max(120.0);
                    let w = ui.available_width();
                    ui.allocate_ui_with_layout(
                        egui::vec2(w, h),
                        egui::Layout::top_down(egui::Align::Min),
                        |ui| {
                            ui.set_min_size(egui::vec2(w, h));
                            egui::ScrollArea::vertical()
                                .max_height(h)
                                .auto_shrink([false, false])
                                .show(ui, |ui| match tab {
                                    SetupTab::Layout => tools_ui(ui, state, lang, &mut out, h),
                                    SetupTab::Options => lan_options_ui(ui, &mut opts, lang, state),
                                });
                        },
                    );
                });
        }
    }
    if opts != state.options {
        state.options = opts;
    }
    out.board = root.available_rect_before_wrap();
    out
}

fn back_button(ui: &mut egui::Ui, lang: Lang, out: &mut SetupOut) {
    if ui.button(format!("◀ {}", lang.t("menu.back"))).clicked() {
        out.actions.push(SetupAction::Back);
    }
}

/// The options: editable for a game against the computer or a LAN game about to be hosted
/// (then only what applies to it); in a LAN game's setup the host's rules, shown, not editable.
fn lan_options_ui(ui: &mut egui::Ui, opts: &mut MatchOptions, lang: Lang, state: &SetupState) {
    match &state.lan {
        Some(l) => {
            ui.strong(lang.t(if l.host {
                "setup.lan.my_rules"
            } else {
                "setup.lan.host_rules"
            }));
            ui.add_enabled_ui(false, |ui| options_ui(ui, opts, lang, true));
        }
        None => options_ui(ui, opts, lang, state.lan_host),
    }
}

/// A LAN game's setup: whom it is against, the pairing code, and who is ready.
fn lan_status(ui: &mut egui::Ui, state: &SetupState, lang: Lang) {
    let Some(l) = &state.lan else { return };
    // One line each, so that the code is never wrapped in two.
    ui.strong(format!("{} {}", lang.t("lan.vs"), l.peer));
    ui.strong(format!("{} {}", lang.t("lobby.code"), l.code));
    if l.peer_ready {
        ui.colored_label(theme::palette::OK, lang.t("setup.lan.peer_ready"));
    } else {
        ui.weak(lang.t("setup.lan.peer_arranging"));
    }
}

/// 出征 (or, for a LAN host, the button that opens the room).
fn march_button(
    ui: &mut egui::Ui,
    state: &SetupState,
    lang: Lang,
    out: &mut SetupOut,
    size: [f32; 2],
) {
    let label = match &state.lan {
        Some(l) if l.ready => "setup.lan.is_ready",
        Some(_) => "setup.lan.ready",
        None if state.lan_host => "lobby.host_here",
        None => "setup.go",
    };
    let go = ui
        .add_enabled_ui(state.editable(), |ui| {
            ui.add_sized(
                size,
                egui::Button::new(
                    egui::RichText::new(lang.t(label))
                        .size(size[1] * 0.54)
                        .strong()
                        .color(egui::Color32::WHITE),
                )
                .fill(egui::Color32::from_rgb(178, 34, 34)),
            )
        })
        .inner;
    if go.clicked() {
        out.actions.push(SetupAction::March);
    }
}

fn message(ui: &mut egui::Ui, state: &SetupState) {
    if let Some((msg, err)) = &state.message {
        let c = if *err {
            theme::palette::WARN
        } else {
            theme::palette::OK
        };
        ui.colored_label(c, msg);
    }
}

/// Default, random, mirror, the classic layouts, saving and loading layouts.
fn tools_ui(
    ui: &mut egui::Ui,
    state: &mut SetupState,
    lang: Lang,
    out: &mut SetupOut,
    list_height: f32,
) {
    if state.options.rules.mode == Mode::Flip {
        ui.label(lang.t("game.flip_hint"));
        return;
    }
    ui.label(egui::RichText::new(lang.t("setup.hint")).small());
    ui.separator();
    ui.horizontal_wrapped(|ui| {
        if ui.button(lang.t("setup.default")).clicked() {
            out.actions.push(SetupAction::Default);
        }
        if ui.button(lang.t("setup.random")).clicked() {
            out.actions.push(SetupAction::Random);
        }
        if ui.button(lang.t("setup.mirror")).clicked() {
            out.actions.push(SetupAction::Mirror);
        }
    });
    ui.horizontal(|ui| {
        let n = classic_count();
        ui.label(lang.t("setup.classic"));
        if ui.button("◀").clicked() {
            out.actions
                .push(SetupAction::Classic((state.classic + n - 1) % n.max(1)));
        }
        ui.label(format!("{}/{}", state.classic + 1, n));
        if ui.button("▶").clicked() {
            out.actions
                .push(SetupAction::Classic((state.classic + 1) % n.max(1)));
        }
    });
    ui.separator();
    ui.label(lang.t("setup.name"));
    ui.horizontal(|ui| {
        ui.add(egui::TextEdit::singleline(&mut state.name).desired_width(110.0));
        if ui.button(lang.t("setup.save")).clicked() {
            out.actions.push(SetupAction::Save(state.name.clone()));
        }
    });
    ui.label(lang.t("setup.load"));
    egui::ScrollArea::vertical()
        .id_salt("saved_layouts")
        .max_height(list_height)
        .show(ui, |ui| {
            if state.saved.is_empty() {
                ui.weak(lang.t("setup.no_layouts"));
            }
            for name in state.saved.clone() {
                ui.horizontal(|ui| {
                    if ui.button(&name).clicked() {
                        out.actions.push(SetupAction::Load(name.clone()));
                    }
                    if ui
                        .small_button("×")
                        .on_hover_text(lang.t("setup.delete"))
                        .clicked()
                    {
                        out.actions.push(SetupAction::Delete(name.clone()));
                    }
                });
            }
        });
}

fn classic_count() -> usize {
    static COUNT: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *COUNT.get_or_init(|| classic_layouts().len())
}

/// The options form (also used by the LAN host screen).
fn level_text(n: u8, lang: Lang) -> &'static str {
    crate::game_text::level_name(ai::level(n), lang)
}

/// The options form (also used by the LAN host screen, `lan`: two-player tables only).
pub fn options_ui(ui: &mut egui::Ui, o: &mut MatchOptions, lang: Lang, lan: bool) {
    if !lan {
        ui.strong(lang.t("opt.table"));
        ui.horizontal_wrapped(|ui| {
            for (t, key) in [
                (Table::Two, "opt.table.two"),
                (Table::Four, "opt.table.four"),
                (Table::TwoOnBig, "opt.table.two_big"),
            ] {
                if ui.selectable_label(o.table == t, lang.t(key)).clicked() {
                    o.set_table(t);
                }
            }
        });
    }
    if o.table == Table::Four && !lan {
        four_options_ui(ui, o, lang);
    } else {
        let r = &mut o.rules;
        ui.strong(lang.t("opt.mode"));
        ui.horizontal(|ui| {
            ui.selectable_value(&mut r.mode, Mode::Dark, lang.t("opt.mode.dark"));
            ui.selectable_value(&mut r.mode, Mode::Open, lang.t("opt.mode.open"));
            ui.selectable_value(&mut r.mode, Mode::Flip, lang.t("opt.mode.flip"));
        });
        // A LAN game has no computer, and who moves first is drawn from both players' nonces.
        if !lan {
            ui.strong(lang.t("opt.level"));
            ui.horizontal_wrapped(|ui| {
                for n in 1..=4u8 {
                    ui.selectable_value(&mut o.level, n, level_text(n, lang));
                }
            });
        }
    }
    let r = &mut o.rules;
    if !lan {
        ui.strong(lang.t("opt.first"));
        ui.horizontal(|ui| {
            ui.selectable_value(&mut o.first, First::Me, lang.t("opt.first.me"));
            ui.selectable_value(&mut o.first, First::Ai, lang.t("opt.first.ai"));
            ui.selectable_value(&mut o.first, First::Random, lang.t("opt.first.random"));
        });
    } else {
        ui.weak(lang.t("setup.lan.first_drawn"));
    }
    ui.separator();
    ui.label(lang.t("opt.clock"));
    ui.add(egui::Slider::new(&mut r.move_seconds, 10..=300).step_by(5.0));
    if !lan {
        ui.label(lang.t("opt.undos"));
        ui.add(egui::Slider::new(&mut o.undos, 0..=10));
    }
    ui.label(lang.t("opt.timeouts"));
    ui.add(egui::Slider::new(&mut r.max_timeouts, 0..=10));
    ui.label(lang.t("opt.quiet_moves"));
    ui.add(egui::Slider::new(&mut r.quiet_draw_plies, 20..=200).step_by(2.0));
    ui.checkbox(&mut r.flying_bombs, lang.t("opt.flying_bombs"))
        .on_hover_text(lang.t("opt.flying_bombs_tip"));
    ui.checkbox(&mut r.hq_exit, lang.t("opt.hq_exit"))
        .on_hover_text(lang.t("opt.hq_exit_tip"));
    ui.checkbox(&mut r.engineer_scouting, lang.t("opt.scouting"))
        .on_hover_text(lang.t("opt.scouting_tip"));
    ui.checkbox(&mut r.inference_board, lang.t("opt.inference"))
        .on_hover_text(lang.t("opt.inference_tip"));
    ui.horizontal(|ui| {
        let mut trades = r.mines == MineRule::Trades;
        let mut bomb = r.mines == MineRule::BombMines;
        if ui
            .checkbox(&mut trades, lang.t("opt.mine_trades"))
            .on_hover_text(lang.t("opt.mine_trades_tip"))
            .changed()
        {
            r.mines = if trades {
                MineRule::Trades
            } else {
                MineRule::Standard
            };
        }
        if ui
            .checkbox(&mut bomb, lang.t("opt.bomb_mines"))
            .on_hover_text(lang.t("opt.bomb_mines_tip"))
            .changed()
        {
            r.mines = if bomb {
                MineRule::BombMines
            } else {
                MineRule::Standard
            };
        }
    });
    ui.label(lang.t("opt.flag_capture"));
    egui::ComboBox::from_id_salt("flag_capture")
        .selected_text(lang.t(match r.flag_capture {
            FlagCapture::Anyone => "opt.flag.anyone",
            FlagCapture::NotCommander => "opt.flag.no_commander",
            FlagCapture::EngineersOnly => "opt.flag.engineers",
        }))
        .show_ui(ui, |ui| {
            ui.selectable_value(
                &mut r.flag_capture,
                FlagCapture::Anyone,
                lang.t("opt.flag.anyone"),
            );
            ui.selectable_value(
                &mut r.flag_capture,
                FlagCapture::NotCommander,
                lang.t("opt.flag.no_commander"),
            );
            ui.selectable_value(
                &mut r.flag_capture,
                FlagCapture::EngineersOnly,
                lang.t("opt.flag.engineers"),
            );
        });
    if r.mode == Mode::Flip {
        ui.checkbox(&mut r.facedown_immune, lang.t("opt.facedown_immune"))
            .on_hover_text(lang.t("opt.facedown_immune_tip"));
        ui.checkbox(&mut r.no_suicide, lang.t("opt.no_suicide"))
            .on_hover_text(lang.t("opt.no_suicide_tip"));
    }
    if o.table == Table::Four {
        ui.checkbox(&mut r.last_pieces, lang.t("opt.last_pieces"))
            .on_hover_text(lang.t("opt.last_pieces_tip"));
        ui.checkbox(&mut r.clockwise, lang.t("opt.clockwise"))
            .on_hover_text(lang.t("opt.clockwise_tip"));
    }
}

/// Four players: the way to play, the QQ preset, the player's seat and each computer seat's
/// level, named as players name them (下家, 对家, 上家).
fn four_options_ui(ui: &mut egui::Ui, o: &mut MatchOptions, lang: Lang) {
    ui.strong(lang.t("opt.mode"));
    ui.horizontal_wrapped(|ui| {
        let r = &mut o.rules;
        for (mode, open, key) in [
            (Mode::Dark, false, "four.dark"),
            (Mode::Dark, true, "four.partners"),
            (Mode::Open, false, "four.open"),
        ] {
            let on = r.mode == mode && (mode == Mode::Open || r.partners_open == open);
            if ui.selectable_label(on, lang.t(key)).clicked() {
                r.mode = mode;
                r.partners_open = open;
            }
        }
    });
    if ui.button(lang.t("opt.qq_preset")).clicked() {
        o.qq_preset();
    }
    ui.strong(lang.t("opt.seat"));
    ui.horizontal(|ui| {
        for (side, key) in [
            (Side::South, "seat.south"),
            (Side::East, "seat.east"),
            (Side::North, "seat.north"),
            (Side::West, "seat.west"),
        ] {
            ui.selectable_value(&mut o.seat, side, lang.t(key));
        }
    });
    let me = o.seat;
    let clockwise = o.rules.clockwise;
    egui::Grid::new("seat_levels")
        .num_columns(2)
        .show(ui, |ui| {
            for side in [
                me.partner(),
                me.next(clockwise),
                me.next(clockwise).partner(),
            ] {
                ui.label(lang.t(crate::game_match::seat_key(side, me, true, clockwise)));
                egui::ComboBox::from_id_salt(("seat_level", side.index()))
                    .selected_text(level_text(o.levels[side.index()], lang))
                    .show_ui(ui, |ui| {
                        for n in 1..=4u8 {
                            ui.selectable_value(
                                &mut o.levels[side.index()],
                                n,
                                level_text(n, lang),
                            );
                        }
                    });
                ui.end_row();
            }
        });
}
