//! The LAN lobby: hosts discovered by mDNS (live), hosting a game with the setup screen's options,
//! joining a listed host, comparing the pairing code, resuming an unfinished game. It asks the
//! LAN plugin ([`crate::lan`]) for what it needs and follows its reports up to the start of play;
//! the game screen takes over from there.

use std::sync::{Mutex, mpsc};

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use junqi_net::discovery::{Discovery, HostInfo, browse};

use super::{Navigate, Screen, setup::SetupState};
use crate::{
    i18n::Lang,
    lan::{LanCmd, LanEvent, LanLink, LanMsg, LanRequest, Role, default_name},
    storage::DataDir,
    theme,
};

/// Where the lobby is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum LobbyPhase {
    /// Listing hosts.
    #[default]
    Browsing,
    /// Hosting: waiting for a guest.
    Hosting {
        /// The port, once listening.
        port: Option<u16>,
        /// The advertised rules summary.
        rules: String,
    },
    /// Connecting to a host.
    Joining {
        /// The host's name.
        host: String,
    },
    /// Resuming the unfinished game: reconnecting to the peer.
    Resuming {
        /// The peer's name.
        peer: String,
    },
    /// Both nonces are in: the players compare the pairing code on both screens before anything
    /// about the setup is sent.
    Pairing {
        /// The pairing code.
        code: String,
        /// The peer's name.
        peer: String,
        /// This player confirmed; waiting for the other.
        confirmed: bool,
    },
    /// Both sides are connected and committed: the pairing code, then the board.
    Paired {
        /// The pairing code.
        code: String,
        /// The peer's name.
        peer: String,
    },
}

/// The lobby's state.
#[derive(Resource)]
pub struct LobbyState {
    /// Hosts found, in order of discovery.
    pub hosts: Vec<HostInfo>,
    /// Where the lobby is.
    pub phase: LobbyPhase,
    /// The last error.
    pub error: Option<String>,
    /// The player's display name.
    pub name: String,
    /// Advertise by mDNS when hosting (off in tests: listen on 127.0.0.1 only).
    pub mdns: bool,
    /// Why the last LAN session ended before play began (the verdict's kind, shown
    /// translated).
    pub ended: Option<junqi_net::FaultKind>,
    /// An unfinished LAN game saved by an earlier run (after a crash, say): offered to resume.
    pub unfinished: Option<crate::lan::Unfinished>,
    /// Discoveries: from the mDNS browser, or fed by a test.
    feed: Option<Mutex<mpsc::Receiver<Discovery>>>,
    /// The mDNS daemon (kept alive while browsing).
    daemon: Option<mdns_sd::ServiceDaemon>,
}

impl Default for LobbyState {
    fn default() -> Self {
        Self {
            hosts: Vec::new(),
            phase: LobbyPhase::Browsing,
            error: None,
            name: default_name(),
            mdns: true,
            unfinished: None,
            ended: None,
            feed: None,
            daemon: None,
        }
    }
}

impl LobbyState {
    /// Takes discoveries from `rx` instead of mDNS (tests, demos).
    pub fn set_feed(&mut self, rx: mpsc::Receiver<Discovery>) {
        self.feed = Some(Mutex::new(rx));
    }

    /// Whether a LAN session is being set up and play has not begun.
    pub fn before_play(&self) -> bool {
        matches!(
            self.phase,
            LobbyPhase::Hosting { .. }
                | LobbyPhase::Joining { .. }
                | LobbyPhase::Resuming { .. }
                | LobbyPhase::Pairing { .. }
        )
    }

    /// Applies one discovery to the list.
    pub fn apply(&mut self, d: Discovery) {
        match d {
            Discovery::Found(h) => match self.hosts.iter_mut().find(|o| o.fullname == h.fullname) {
                Some(o) => *o = h,
                None => self.hosts.push(h),
            },
            Discovery::Lost(fullname) => self.hosts.retain(|h| h.fullname != fullname),
        }
    }
}

/// What the lobby's buttons ask for.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum LobbyAction {
    /// Go to the setup screen to choose the options, then host.
    Host,
    /// Host now with the setup screen's options and layout.
    StartHosting,
    /// Join the host with this mDNS full name.
    Join(String),
    /// The pairing codes match on both screens: start.
    ConfirmPairing,
    /// Resume the unfinished game.
    Resume,
    /// Delete the unfinished game.
    Discard,
    /// Stop hosting or joining (also: the pairing codes differ).
    Cancel,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<LobbyState>()
        .add_message::<LobbyAction>()
        .add_systems(OnEnter(Screen::Lobby), (start_browsing, find_unfinished))
        .add_systems(OnExit(Screen::Lobby), stop_browsing)
        .add_systems(OnEnter(Screen::Title), leave)
        .add_systems(
            Update,
            (discover.run_if(in_state(Screen::Lobby)), actions, follow).chain(),
        );
    super::add_ui(app, Screen::Lobby, ui);
}

/// Back at the title: any LAN game is over (or abandoned).
fn leave(
    mut lan: MessageWriter<LanRequest>,
    mut lobby: ResMut<LobbyState>,
    mut setup: ResMut<SetupState>,
) {
    lan.write(LanRequest::Leave);
    lobby.phase = LobbyPhase::Browsing;
    setup.lan_host = false;
}

fn start_browsing(mut lobby: ResMut<LobbyState>) {
    if lobby.feed.is_some() {
        return;
    }
    match browse() {
        Ok((daemon, rx)) => {
            lobby.daemon = Some(daemon);
            lobby.feed = Some(Mutex::new(rx));
        }
        Err(e) => lobby.error = Some(e.to_string()),
    }
}

/// Looks for a game an earlier run left unfinished (not while a LAN game runs).
fn find_unfinished(mut lobby: ResMut<LobbyState>, dir: Res<DataDir>, link: Option<Res<LanLink>>) {
    if link.is_some() {
        return;
    }
    match crate::lan::unfinished(&dir.lan()) {
        Ok(u) => lobby.unfinished = u,
        Err(e) => {
            lobby.unfinished = None;
            lobby.error = Some(e.to_string());
        }
    }
}

fn stop_browsing(mut lobby: ResMut<LobbyState>) {
    if let Some(d) = lobby.daemon.take() {
        let _ = d.shutdown();
        lobby.feed = None;
        lobby.hosts.clear();
    }
}

fn discover(mut lobby: ResMut<LobbyState>) {
    let found: Vec<Discovery> = match &lobby.feed {
        Some(rx) => rx.lock().expect("not poisoned").try_iter().collect(),
        None => return,
    };
    for d in found {
        lobby.apply(d);
    }
}

fn actions(
    mut reader: MessageReader<LobbyAction>,
    mut lobby: ResMut<LobbyState>,
    mut setup: ResMut<SetupState>,
    lang: Res<Lang>,
    dir: Res<DataDir>,
    mut lan: MessageWriter<LanRequest>,
    mut nav: MessageWriter<Navigate>,
) {
    for a in reader.read() {
        match a {
            LobbyAction::Host => {
                setup.lan_host = true;
                nav.write(Navigate(Screen::Setup));
            }
            LobbyAction::StartHosting => {
                let rules = setup.options.rules;
                if rules.mode != junqi_game::Mode::Flip
                    && let Err(e) = setup.layout.validate(&rules)
                {
                    let reasons: Vec<String> =
                        e.0.iter()
                            .map(|p| super::setup::problem_text(p, *lang))
                            .collect();
                    setup.message = Some((reasons.join("；"), true));
                    continue;
                }
                lan.write(LanRequest::Start(Role::Host {
                    rules,
                    layout: setup.layout,
                    name: lobby.name.clone(),
                    port: 0,
                    mdns: lobby.mdns,
                }));
                // A new game replaces the unfinished one.
                lobby.unfinished = None;
                lobby.ended = None;
                setup.lan_host = false;
                lobby.error = None;
                lobby.phase = LobbyPhase::Hosting {
                    port: None,
                    rules: junqi_net::discovery::rules_summary(&rules),
                };
                nav.write(Navigate(Screen::Lobby));
            }
            LobbyAction::Join(fullname) => {
                let Some(h) = lobby.hosts.iter().find(|h| &h.fullname == fullname) else {
                    continue;
                };
                let Some(addr) = h.addrs.first().copied() else {
                    lobby.error = Some(format!("{}: no address", h.name));
                    continue;
                };
                let host = h.name.clone();
                lan.write(LanRequest::Start(Role::Join {
                    addr,
                    layout: setup.layout,
                    name: lobby.name.clone(),
                }));
                lobby.unfinished = None;
                lobby.ended = None;
                lobby.error = None;
                lobby.phase = LobbyPhase::Joining { host };
            }
            LobbyAction::ConfirmPairing => {
                if let LobbyPhase::Pairing { confirmed, .. } = &mut lobby.phase
                    && !*confirmed
                {
                    lan.write(LanRequest::Send(LanCmd::ConfirmPairing));
                    *confirmed = true;
                }
            }
            LobbyAction::Resume => {
                let Some(u) = lobby.unfinished.take() else {
                    continue;
                };
                lan.write(LanRequest::Start(Role::Resume));
                lobby.ended = None;
                lobby.error = None;
                lobby.phase = LobbyPhase::Resuming { peer: u.peer };
            }
            LobbyAction::Discard => {
                crate::lan::discard(&dir.lan());
                lobby.unfinished = None;
            }
            LobbyAction::Cancel => {
                lan.write(LanRequest::Leave);
                lobby.phase = LobbyPhase::Browsing;
            }
        }
    }
}

/// Follows the LAN session up to the start of play (the game screen takes over from there).
fn follow(
    mut reader: MessageReader<LanEvent>,
    mut lobby: ResMut<LobbyState>,
    mut lan: MessageWriter<LanRequest>,
) {
    for LanEvent(msg) in reader.read() {
        match msg {
            LanMsg::Listening { port } => {
                if let LobbyPhase::Hosting { port: p, .. } = &mut lobby.phase {
                    *p = Some(*port);
                }
            }
            LanMsg::PairingCode { code, peer } => {
                lobby.phase = LobbyPhase::Pairing {
                    code: code.clone(),
                    peer: peer.clone(),
                    confirmed: false,
                };
            }
            LanMsg::Started { code, peer, .. } => {
                lobby.phase = LobbyPhase::Paired {
                    code: code.clone(),
                    peer: peer.clone(),
                };
            }
            LanMsg::Verdict(v) if lobby.before_play() => {
                // The session ended before play began (the peer broke off the handshake, or
                // cheated in it): back to the list, saying why.
                lobby.ended = v.reason.clone();
                lobby.phase = LobbyPhase::Browsing;
                lan.write(LanRequest::Leave);
            }
            LanMsg::Error(e) => {
                lobby.error = Some(e.clone());
                lobby.phase = LobbyPhase::Browsing;
            }
            _ => {}
        }
    }
}

fn ui(
    mut contexts: EguiContexts,
    lang: Res<Lang>,
    mut lobby: ResMut<LobbyState>,
    mut nav: MessageWriter<Navigate>,
    mut actions: MessageWriter<LobbyAction>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let lang = *lang;
    let back = theme::page(ctx, lang.t("menu.back"), lang.t("lobby.title"), |ui| {
        ui.horizontal(|ui| {
            ui.label(lang.t("lobby.name"));
            let busy = lobby.phase != LobbyPhase::Browsing;
            ui.add_enabled(
                !busy,
                egui::TextEdit::singleline(&mut lobby.name).desired_width(200.0),
            );
        });
        ui.add_space(8.0);
        match lobby.phase.clone() {
            LobbyPhase::Browsing => {
                if let Some(u) = lobby.unfinished.clone() {
                    egui::Frame::group(ui.style()).show(ui, |ui| {
                        ui.label(egui::RichText::new(lang.t("lobby.unfinished")).strong());
                        ui.label(format!(
                            "{} {} · {}",
                            lang.t("lan.vs"),
                            u.peer,
                            lang.t(mode_key(u.mode))
                        ));
                        ui.horizontal(|ui| {
                            if ui.button(lang.t("lobby.resume")).clicked() {
                                actions.write(LobbyAction::Resume);
                            }
                            if ui.button(lang.t("lobby.discard")).clicked() {
                                actions.write(LobbyAction::Discard);
                            }
                        });
                    });
                    ui.add_space(8.0);
                }
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label(lang.t("lobby.searching"));
                });
                ui.add_space(8.0);
                egui::Frame::group(ui.style()).show(ui, |ui| {
                    ui.set_min_size(egui::vec2(ui.available_width().min(640.0), 220.0));
                    if lobby.hosts.is_empty() {
                        ui.weak(lang.t("lobby.none"));
                    }
                    egui::Grid::new("hosts")
                        .num_columns(4)
                        .spacing([24.0, 10.0])
                        .show(ui, |ui| {
                            for h in &lobby.hosts {
                                ui.label(egui::RichText::new(&h.name).size(20.0).strong());
                                ui.label(rules_text(&h.rules, lang));
                                ui.weak(h.addrs.first().map(|a| a.to_string()).unwrap_or_default());
                                if ui.button(lang.t("lobby.join")).clicked() {
                                    actions.write(LobbyAction::Join(h.fullname.clone()));
                                }
                                ui.end_row();
                            }
                        });
                });
                ui.add_space(8.0);
                if theme::menu_button(ui, lang.t("lobby.host")).clicked() {
                    actions.write(LobbyAction::Host);
                }
                ui.weak(lang.t("lobby.host_hint"));
            }
            LobbyPhase::Hosting { port, rules } => {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label(egui::RichText::new(lang.t("lobby.waiting")).size(22.0));
                });
                ui.label(format!(
                    "{} · {}{}",
                    rules_text(&rules, lang),
                    lang.t("lobby.port"),
                    port.map(|p| format!(" {p}")).unwrap_or_default()
                ));
                if ui.button(lang.t("lobby.cancel")).clicked() {
                    actions.write(LobbyAction::Cancel);
                }
            }
            LobbyPhase::Joining { host } => {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label(format!("{} {host}…", lang.t("lobby.joining")));
                });
                if ui.button(lang.t("lobby.cancel")).clicked() {
                    actions.write(LobbyAction::Cancel);
                }
            }
            LobbyPhase::Resuming { peer } => {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label(format!(
                        "{} · {} {peer}",
                        lang.t("lobby.resuming"),
                        lang.t("lan.vs")
                    ));
                });
                if ui.button(lang.t("lobby.cancel")).clicked() {
                    actions.write(LobbyAction::Cancel);
                }
            }
            LobbyPhase::Pairing {
                code,
                peer,
                confirmed,
            } => {
                ui.label(format!("{} {peer}", lang.t("lan.vs")));
                ui.label(
                    egui::RichText::new(format!("{}  {code}", lang.t("lobby.code")))
                        .size(36.0)
                        .color(egui::Color32::from_rgb(250, 210, 80)),
                );
                ui.label(lang.t("lobby.compare"));
                ui.add_space(8.0);
                if confirmed {
                    ui.horizontal(|ui| {
                        ui.spinner();
                        ui.label(lang.t("lobby.confirmed_wait"));
                    });
                } else {
                    ui.horizontal(|ui| {
                        if theme::menu_button(ui, lang.t("lobby.confirm")).clicked() {
                            actions.write(LobbyAction::ConfirmPairing);
                        }
                        if theme::menu_button(ui, lang.t("lobby.mismatch")).clicked() {
                            actions.write(LobbyAction::Cancel);
                        }
                    });
                }
            }
            LobbyPhase::Paired { code, peer } => {
                ui.label(format!("{} {peer}", lang.t("lan.vs")));
                ui.label(
                    egui::RichText::new(format!("{}  {code}", lang.t("lobby.code")))
                        .size(36.0)
                        .color(egui::Color32::from_rgb(250, 210, 80)),
                );
                ui.weak(lang.t("lan.code_check"));
            }
        }
        if let Some(reason) = &lobby.ended {
            let (kind, detail) = crate::lan_text::fault_text(reason, lang);
            ui.colored_label(
                theme::palette::WARN,
                format!("{}：{kind}", lang.t("lobby.ended")),
            );
            if let Some(d) = detail {
                ui.weak(format!("{}：{d}", lang.t("lan.detail")));
            }
        }
        if let Some(e) = &lobby.error {
            ui.colored_label(
                theme::palette::WARN,
                format!("{}：{e}", lang.t("lobby.error")),
            );
        }
    });
    if back {
        actions.write(LobbyAction::Cancel);
        nav.write(Navigate(Screen::Title));
    }
    Ok(())
}

/// The string key of a mode's name.
fn mode_key(mode: junqi_game::Mode) -> &'static str {
    match mode {
        junqi_game::Mode::Dark => "opt.mode.dark",
        junqi_game::Mode::Open => "opt.mode.open",
        junqi_game::Mode::Flip => "opt.mode.flip",
    }
}

/// A host's rules summary (`dark 60s`) in the player's language.
pub fn rules_text(summary: &str, lang: Lang) -> String {
    let mut parts = summary.split_whitespace();
    let mode = match parts.next() {
        Some("dark") => lang.t("opt.mode.dark"),
        Some("open") => lang.t("opt.mode.open"),
        Some("flip") => lang.t("opt.mode.flip"),
        Some(other) => other,
        None => "",
    };
    let clock = parts
        .next()
        .and_then(|s| s.strip_suffix('s'))
        .map(|s| match lang {
            Lang::Zh => format!("每步 {s} 秒"),
            Lang::En => format!("{s} s per move"),
        })
        .unwrap_or_default();
    let aids = if parts.any(|p| p == "no-inference") {
        format!(" · {}", lang.t("opt.no_inference"))
    } else {
        String::new()
    };
    format!("{mode} · {clock}{aids}")
}
