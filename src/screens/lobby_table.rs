//! The lobby's four-seat tables (四国大战 over the LAN): tables found on the LAN with their way
//! and free seats (a free seat may come with its partner seat's computer, which the device
//! that takes it runs), and a seat picker for each; whether the player agrees that its
//! partner's device plays its seat on if it leaves; hosting a table (the way, and for each
//! other seat a player or a computer of a level, with the rules line that says which device
//! runs each computer seat); the one pairing code every player compares, with the seat table
//! and the rules line (which device knows which seat's pieces) shown before the player
//! confirms; resuming a table a crash left. It asks the table plugin
//! ([`crate::lan::table`]) for what it needs and follows its reports up to the start of play;
//! the game screen takes over from there.

use bevy::prelude::*;
use bevy_egui::egui;
use junqi_game::{Layout, Mode, Rules, Side};
use junqi_net::discovery::HostInfo;
use junqi_net::four::{FourSeat, FourVerdict};
use junqi_net::table::TableCmd;
use junqi_net::table_handle::{
    ComputerHome, SeatInfo, TableError, TableReport, TableRole, UnfinishedTable, computer_home,
    computer_name, discard_table, partner_computer_name, unfinished_table,
};

use super::{Navigate, Screen, lobby_state::LobbyState, setup::SetupState};
use crate::{
    i18n::Lang,
    lan::table::{TableNews, TableRequest, table_dir},
    storage::DataDir,
    table_text::{link_text, rules_lines, seat_name, seat_who, summary_text},
    theme,
};

/// Who plays a seat the host does not: a player, or the computer at a level (1…4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatChoice {
    /// Open for a player.
    Player,
    /// The computer at this level, on a device of its team
    /// ([`junqi_net::table_handle::computer_home`]).
    Computer(u8),
}

/// The way a table is played.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Way {
    /// 四暗: every army hidden.
    #[default]
    Dark,
    /// 双明: partners see each other's pieces.
    Partners,
    /// 全明: every piece face up.
    Open,
}

impl Way {
    /// The rules of this way (30 s a move).
    pub fn rules(self) -> Rules {
        match self {
            Way::Dark => Rules::four_player(Mode::Dark),
            Way::Partners => Rules {
                partners_open: true,
                ..Rules::four_player(Mode::Dark)
            },
            Way::Open => Rules::four_player(Mode::Open),
        }
    }
}

/// The host's choices for a new table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableSetup {
    /// The way.
    pub way: Way,
    /// East, North and West.
    pub seats: [SeatChoice; 3],
}

impl Default for TableSetup {
    fn default() -> Self {
        Self {
            way: Way::Dark,
            seats: [SeatChoice::Player; 3],
        }
    }
}

/// The seats a host may fill, in the setup's order.
pub const OTHER_SEATS: [FourSeat; 3] = [FourSeat::East, FourSeat::North, FourSeat::West];

/// Where the four-seat part of the lobby is.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum TablePhase {
    /// Nothing: the lobby lists tables.
    #[default]
    Idle,
    /// The host chooses the way and who plays each seat.
    Setup,
    /// Hosting: waiting for players to sit.
    Waiting {
        /// The port, once listening.
        port: Option<u16>,
    },
    /// Taking a seat at a host's table (or resuming one).
    Joining {
        /// The host's name.
        host: String,
        /// The seat.
        seat: FourSeat,
    },
    /// Every hello is in: the code every player compares.
    Pairing {
        /// The code.
        code: String,
        /// The table's rules.
        rules: Rules,
        /// This player confirmed; the others may not have yet.
        confirmed: bool,
    },
}

/// The four-seat part of the lobby.
#[derive(Resource)]
pub struct TableLobby {
    /// Where it is.
    pub phase: TablePhase,
    /// The host's choices.
    pub setup: TableSetup,
    /// This device's seat (once it took one).
    pub seat: Option<FourSeat>,
    /// The seat table as the table reports it.
    pub seats: [SeatInfo; 4],
    /// Why the last table ended before play.
    pub ended: Option<Box<FourVerdict>>,
    /// The last error.
    pub error: Option<TableError>,
    /// A table a crash left: offered to resume.
    pub unfinished: Option<UnfinishedTable>,
    /// The player agrees that, if it leaves a table it joined, its partner's device plays its
    /// seat on (when the partner is a player).
    pub hand_over: bool,
}

impl Default for TableLobby {
    fn default() -> Self {
        Self {
            phase: TablePhase::default(),
            setup: TableSetup::default(),
            seat: None,
            seats: Default::default(),
            ended: None,
            error: None,
            unfinished: None,
            hand_over: true,
        }
    }
}

impl TableLobby {
    /// Whether a table is being set up and play has not begun.
    pub fn busy(&self) -> bool {
        self.phase != TablePhase::Idle
    }
}

/// What the four-seat part's buttons ask for.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum TableAction {
    /// Show the host's choices.
    Setup,
    /// Open the table with the choices made.
    Host,
    /// Take `seat` at the table with this mDNS full name.
    Join {
        /// The table's full name.
        fullname: String,
        /// The seat.
        seat: FourSeat,
    },
    /// Agree (or not) that the partner's device plays the player's seat on if it leaves.
    HandOver(bool),
    /// The code is the same on every screen.
    Confirm,
    /// Resume the unfinished table.
    Resume,
    /// Delete the unfinished table.
    Discard,
    /// Leave the table being set up (also: the codes differ).
    Cancel,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<TableLobby>()
        .add_message::<TableAction>()
        .add_systems(OnEnter(Screen::Lobby), find_unfinished)
        .add_systems(OnEnter(Screen::Title), reset)
        .add_systems(Update, (actions, follow).chain());
}

fn reset(mut table: ResMut<TableLobby>) {
    table.phase = TablePhase::Idle;
}

fn find_unfinished(mut table: ResMut<TableLobby>, dir: Res<DataDir>) {
    if table.busy() {
        return;
    }
    match unfinished_table(&table_dir(&dir)) {
        Ok(u) => table.unfinished = u,
        Err(e) => {
            table.unfinished = None;
            table.error = Some(e);
        }
    }
}

/// The player's army for `rules`: the one last arranged on the setup screen if the table's
/// rules take it, a random legal one otherwise (the table commits it after the pairing).
fn layout(rules: &Rules, mine: Layout) -> Layout {
    if mine.validate(rules).is_ok() {
        mine
    } else {
        Layout::random(rules, &mut rand::rng())
    }
}

/// The seat table a host's choices make, as every player will see it at the pairing: the host
/// in South, each computer seat named by the device that runs it, the player seats empty.
pub fn setup_seats(setup: &TableSetup, name: &str) -> [SeatInfo; 4] {
    let computers = setup_computers(setup);
    let mut seats: [SeatInfo; 4] = Default::default();
    seats[FourSeat::South.index()].name = Some(name.to_owned());
    for (seat, level) in &computers {
        seats[seat.index()].name = Some(match computer_home(*seat, &computers) {
            ComputerHome::Host => computer_name(*level),
            ComputerHome::Partner => partner_computer_name(*level),
        });
    }
    seats
}

/// The computer seats of the host's choices.
fn setup_computers(setup: &TableSetup) -> Vec<(FourSeat, u8)> {
    OTHER_SEATS
        .iter()
        .zip(setup.seats)
        .filter_map(|(s, c)| match c {
            SeatChoice::Computer(level) => Some((*s, level)),
            SeatChoice::Player => None,
        })
        .collect()
}

/// Whether a lobby entry is a four-seat table.
pub fn is_table(h: &HostInfo) -> bool {
    h.free_seats.is_some() || h.rules.starts_with("four ")
}

fn actions(
    mut reader: MessageReader<TableAction>,
    mut table: ResMut<TableLobby>,
    lobby: Res<LobbyState>,
    setup: Res<SetupState>,
    dir: Res<DataDir>,
    mut requests: MessageWriter<TableRequest>,
) {
    for a in reader.read() {
        match a {
            TableAction::Setup => {
                table.ended = None;
                table.error = None;
                table.phase = TablePhase::Setup;
            }
            TableAction::Host => {
                let rules = table.setup.way.rules();
                let computers = setup_computers(&table.setup);
                requests.write(TableRequest::Start(TableRole::Host {
                    rules,
                    name: lobby.name.clone(),
                    layout: layout(&rules, setup.layout),
                    port: 0,
                    mdns: lobby.mdns,
                    computers,
                }));
                table.seat = Some(FourSeat::South);
                table.seats = Default::default();
                table.unfinished = None;
                table.phase = TablePhase::Waiting { port: None };
            }
            TableAction::Join { fullname, seat } => {
                let found = lobby
                    .hosts
                    .hosts()
                    .into_iter()
                    .find(|h| &h.fullname == fullname)
                    .cloned();
                let Some(h) = found else { continue };
                let Some(addr) = h.addrs.first().copied() else {
                    continue;
                };
                let rules = Way::Dark.rules();
                // The partner seat's computer, when it comes with this seat: this device runs
                // it, and no hand-over to a partner on the same device.
                let computers: Vec<(FourSeat, u8)> = h
                    .free_seats
                    .and_then(|f| f.computer_with(*seat))
                    .into_iter()
                    .collect();
                requests.write(TableRequest::Start(TableRole::Join {
                    addr,
                    seat: *seat,
                    name: lobby.name.clone(),
                    layout: layout(&rules, setup.layout),
                    hand_over: table.hand_over && computers.is_empty(),
                    computers,
                }));
                table.seat = Some(*seat);
                table.seats = Default::default();
                table.ended = None;
                table.error = None;
                table.unfinished = None;
                table.phase = TablePhase::Joining {
                    host: h.name.clone(),
                    seat: *seat,
                };
            }
            TableAction::HandOver(on) => table.hand_over = *on,
            TableAction::Confirm => {
                if let TablePhase::Pairing { confirmed, .. } = &mut table.phase {
                    *confirmed = true;
                    requests.write(TableRequest::Send(TableCmd::Confirm));
                }
            }
            TableAction::Resume => {
                let Some(u) = table.unfinished.take() else {
                    continue;
                };
                requests.write(TableRequest::Start(TableRole::Resume));
                table.seat = Some(u.seat);
                table.ended = None;
                table.error = None;
                table.phase = TablePhase::Joining {
                    host: String::new(),
                    seat: u.seat,
                };
            }
            TableAction::Discard => {
                discard_table(&table_dir(&dir));
                table.unfinished = None;
            }
            TableAction::Cancel => {
                if table.busy() {
                    requests.write(TableRequest::Send(TableCmd::Leave));
                }
                table.phase = TablePhase::Idle;
            }
        }
    }
}

/// Follows the table up to the start of play.
fn follow(
    mut reader: MessageReader<TableNews>,
    mut table: ResMut<TableLobby>,
    mut nav: MessageWriter<Navigate>,
) {
    for TableNews(r) in reader.read() {
        match r {
            TableReport::Listening { port } => {
                if let TablePhase::Waiting { port: p } = &mut table.phase {
                    *p = Some(*port);
                }
            }
            TableReport::Seats(s) => table.seats = (**s).clone(),
            TableReport::PairingCode { code, rules } if table.busy() => {
                table.phase = TablePhase::Pairing {
                    code: code.clone(),
                    rules: *rules,
                    confirmed: false,
                };
            }
            TableReport::Started { .. } if table.busy() => {
                table.phase = TablePhase::Idle;
                nav.write(Navigate(Screen::Game));
            }
            TableReport::Over { verdict, .. } if table.busy() => {
                // Over before play: back to the list, saying why.
                table.ended = Some(verdict.clone());
                table.phase = TablePhase::Idle;
            }
            TableReport::Error(e) => {
                table.error = Some(e.clone());
                if table.busy() && !matches!(e, TableError::Journal(_)) {
                    table.phase = TablePhase::Idle;
                }
            }
            _ => {}
        }
    }
}

/// The four-seat tables in the lobby's list, each with a button a free seat, the unfinished
/// table, and the button that opens a table.
pub fn browse_ui(
    ui: &mut egui::Ui,
    lobby: &LobbyState,
    table: &TableLobby,
    lang: Lang,
    actions: &mut Vec<TableAction>,
) {
    ui.label(egui::RichText::new(lang.t("table.tables")).strong());
    if let Some(u) = &table.unfinished {
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.label(egui::RichText::new(lang.t("table.unfinished")).strong());
            ui.label(format!(
                "{}{}{}",
                lang.t("table.your_seat"),
                lang.colon(),
                seat_name(u.seat.side(), lang)
            ));
            ui.horizontal(|ui| {
                if ui.button(lang.t("lobby.resume")).clicked() {
                    actions.push(TableAction::Resume);
                }
                if ui.button(lang.t("lobby.discard")).clicked() {
                    actions.push(TableAction::Discard);
                }
            });
        });
    }
    let tables: Vec<&HostInfo> = lobby
        .hosts
        .hosts()
        .into_iter()
        .filter(|h| is_table(h))
        .collect();
    let mut hand_over = table.hand_over;
    if ui
        .checkbox(&mut hand_over, lang.t("table.hand_over"))
        .changed()
    {
        actions.push(TableAction::HandOver(hand_over));
    }
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.set_min_width(ui.available_width().min(640.0));
        if tables.is_empty() {
            ui.weak(lang.t("table.none"));
        }
        for h in tables {
            // The name on a line of its own: a long one would run into the way.
            ui.label(egui::RichText::new(&h.name).size(20.0).strong());
            ui.label(summary_text(&h.rules, lang));
            let free: Vec<FourSeat> = h
                .free_seats
                .map(|f| f.seats().collect())
                .unwrap_or_default();
            ui.horizontal_wrapped(|ui| {
                if free.is_empty() {
                    ui.weak(lang.t("table.full"));
                } else {
                    ui.label(format!("{}{}", lang.t("table.free"), lang.colon()));
                }
                for seat in &free {
                    if ui
                        .button(egui::RichText::new(seat_name(seat.side(), lang)).size(20.0))
                        .clicked()
                    {
                        actions.push(TableAction::Join {
                            fullname: h.fullname.clone(),
                            seat: *seat,
                        });
                    }
                }
            });
            for seat in free {
                if let Some((c, level)) = h.free_seats.and_then(|f| f.computer_with(seat)) {
                    let level = crate::game_text::level_name(crate::ai::level(level), lang);
                    ui.weak(lang.tr(
                        "table.comes_with",
                        &[
                            ("seat", seat_name(seat.side(), lang).into()),
                            ("partner", seat_name(c.side(), lang).into()),
                            ("level", level.into()),
                        ],
                    ));
                }
            }
            ui.add_space(6.0);
        }
    });
    ui.add_space(4.0);
    if theme::menu_button(ui, lang.t("table.host")).clicked() {
        actions.push(TableAction::Setup);
    }
    ui.weak(lang.t("table.host_hint"));
    if let Some(v) = &table.ended {
        let me = table.seat.map_or(Side::South, FourSeat::side);
        ui.colored_label(
            theme::palette::WARN,
            format!(
                "{}{}{}",
                lang.t("table.ended"),
                lang.colon(),
                crate::table_text::ending_text(v, me, lang)
            ),
        );
    }
    if let Some(e) = &table.error {
        ui.colored_label(
            theme::palette::WARN,
            format!(
                "{}{}{}",
                lang.t("lobby.error"),
                lang.colon(),
                error_text(e, lang)
            ),
        );
    }
}

fn error_text(e: &TableError, lang: Lang) -> &'static str {
    lang.t(match e {
        TableError::Storage(_) | TableError::Journal(_) => "err.journal",
        TableError::NothingToResume => "table.unplayed",
        TableError::Session => "refused.layout",
        TableError::Network(_) => "lan.dropped",
    })
}

/// The seat table: each seat's compass name, who plays it, and its connection where known.
pub fn seats_ui(ui: &mut egui::Ui, seats: &[SeatInfo; 4], mine: Option<FourSeat>, lang: Lang) {
    egui::Grid::new("table_seats")
        .num_columns(3)
        .spacing([14.0, 4.0])
        .show(ui, |ui| {
            for seat in FourSeat::ALL {
                let info = &seats[seat.index()];
                let [r, g, b] = crate::board::Colour::of_seat(seat.side()).rgb();
                ui.label(
                    egui::RichText::new(format!("■ {}", seat_name(seat.side(), lang)))
                        .strong()
                        .color(egui::Color32::from_rgb(r, g, b).gamma_multiply(1.6)),
                );
                let mut who = seat_who(seat, info, lang);
                if Some(seat) == mine {
                    who = format!("{who}（{}）", lang.t("game.you"));
                }
                ui.label(who);
                match (info.link, link_text(info, lang)) {
                    (Some(false), Some(t)) => ui.colored_label(theme::palette::WARN, t),
                    (_, Some(t)) => ui.colored_label(theme::palette::OK, t),
                    _ => ui.label(""),
                };
                ui.end_row();
            }
        });
}

/// The panel while a table is being set up: the host's choices, waiting for seats, the code.
pub fn panel_ui(
    ui: &mut egui::Ui,
    table: &mut TableLobby,
    name: &str,
    lang: Lang,
    actions: &mut Vec<TableAction>,
) {
    match table.phase.clone() {
        TablePhase::Idle => {}
        TablePhase::Setup => {
            ui.label(
                egui::RichText::new(lang.t("table.setup"))
                    .size(22.0)
                    .strong(),
            );
            ui.add_space(6.0);
            ui.horizontal_wrapped(|ui| {
                ui.label(format!("{}{}", lang.t("table.way"), lang.colon()));
                for (w, key) in [
                    (Way::Dark, "four.dark"),
                    (Way::Partners, "four.partners"),
                    (Way::Open, "four.open"),
                ] {
                    ui.selectable_value(&mut table.setup.way, w, lang.t(key));
                }
            });
            ui.weak(crate::table_text::way_text(&table.setup.way.rules(), lang));
            ui.add_space(6.0);
            ui.label(format!(
                "{}{}{}（{}）",
                seat_name(Side::South, lang),
                lang.colon(),
                name,
                lang.t("game.you")
            ));
            for (i, seat) in OTHER_SEATS.iter().enumerate() {
                ui.horizontal_wrapped(|ui| {
                    ui.label(
                        egui::RichText::new(format!(
                            "{}{}",
                            seat_name(seat.side(), lang),
                            lang.colon()
                        ))
                        .strong(),
                    );
                    let c = &mut table.setup.seats[i];
                    ui.selectable_value(c, SeatChoice::Player, lang.t("table.open_seat"));
                    for level in 1..=4u8 {
                        ui.selectable_value(
                            c,
                            SeatChoice::Computer(level),
                            format!(
                                "{} {}",
                                lang.t("table.computer"),
                                crate::game_text::level_name(crate::ai::level(level), lang)
                            ),
                        );
                    }
                });
            }
            ui.add_space(6.0);
            // Which device will run each computer seat, as every player reads it at the pairing.
            let seats = setup_seats(&table.setup, name);
            for line in rules_lines(&table.setup.way.rules(), &seats, lang)
                .into_iter()
                .skip(1)
            {
                ui.weak(line);
            }
            ui.weak(lang.t("table.hand_over_host"));
            ui.add_space(8.0);
            ui.horizontal_wrapped(|ui| {
                if theme::menu_button(ui, lang.t("table.open_table")).clicked() {
                    actions.push(TableAction::Host);
                }
                if theme::menu_button(ui, lang.t("lobby.cancel")).clicked() {
                    actions.push(TableAction::Cancel);
                }
            });
        }
        TablePhase::Waiting { port } => {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label(egui::RichText::new(lang.t("table.waiting")).size(22.0));
            });
            ui.label(format!(
                "{}{}",
                lang.t("lobby.port"),
                port.map(|p| format!(" {p}")).unwrap_or_default()
            ));
            seats_ui(ui, &table.seats, table.seat, lang);
            if ui.button(lang.t("lobby.cancel")).clicked() {
                actions.push(TableAction::Cancel);
            }
        }
        TablePhase::Joining { host, seat } => {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label(format!(
                    "{}{} · {host}",
                    lang.t("table.joining"),
                    seat_name(seat.side(), lang)
                ));
            });
            seats_ui(ui, &table.seats, table.seat, lang);
            if ui.button(lang.t("lobby.cancel")).clicked() {
                actions.push(TableAction::Cancel);
            }
        }
        TablePhase::Pairing {
            code,
            rules,
            confirmed,
        } => {
            ui.label(
                egui::RichText::new(format!("{}  {code}", lang.t("lobby.code")))
                    .size(36.0)
                    .color(egui::Color32::from_rgb(250, 210, 80)),
            );
            ui.label(lang.t("table.compare"));
            ui.add_space(6.0);
            seats_ui(ui, &table.seats, table.seat, lang);
            ui.add_space(6.0);
            for line in rules_lines(&rules, &table.seats, lang) {
                ui.label(line);
            }
            ui.add_space(8.0);
            if confirmed {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label(lang.t("table.confirmed"));
                });
                if ui.button(lang.t("lobby.cancel")).clicked() {
                    actions.push(TableAction::Cancel);
                }
            } else {
                ui.horizontal_wrapped(|ui| {
                    if theme::menu_button(ui, lang.t("table.confirm")).clicked() {
                        actions.push(TableAction::Confirm);
                    }
                    if theme::menu_button(ui, lang.t("lobby.mismatch")).clicked() {
                        actions.push(TableAction::Cancel);
                    }
                });
            }
        }
    }
}
