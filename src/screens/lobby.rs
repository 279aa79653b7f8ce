//! The LAN lobby: hosts discovered by mDNS (live), hosting a game with the setup screen's options,
//! joining a listed host, comparing the pairing code, resuming an unfinished game. It asks the
//! LAN plugin ([`crate::lan`]) for what it needs and follows its reports up to the start of play;
//! the game screen takes over from there.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use junqi_game::{Layout, Mode, Rules};
use junqi_net::discovery::{Discovery, Lobby};
use junqi_net::peer::{PeerCmd, PeerEvent, Role};
use std::time::Instant;

pub use super::lobby_state::{LobbyAction, LobbyPhase, LobbyState};
use super::{
    Navigate, Screen,
    lobby_table::{self, TableAction, TableLobby},
    setup::{LanArranging, SetupState},
};
use crate::{
    i18n::Lang,
    lan::{LanEvent, LanFound, LanLink, LanRequest},
    storage::DataDir,
    theme,
};

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
    setup.leave_lan();
}

fn start_browsing(lobby: Res<LobbyState>, mut lan: MessageWriter<LanRequest>) {
    if !lobby.fed() {
        lan.write(LanRequest::Browse(true));
    }
}

/// Looks for a game an earlier run left unfinished (not while a LAN game runs).
fn find_unfinished(mut lobby: ResMut<LobbyState>, dir: Res<DataDir>, link: Option<Res<LanLink>>) {
    if link.is_some() {
        return;
    }
    match junqi_net::peer::unfinished(&dir.lan()) {
        Ok(u) => lobby.unfinished = u,
        Err(e) => {
            lobby.unfinished = None;
            lobby.error = Some(e);
        }
    }
}

fn stop_browsing(mut lobby: ResMut<LobbyState>, mut lan: MessageWriter<LanRequest>) {
    if !lobby.fed() {
        lan.write(LanRequest::Browse(false));
        lobby.hosts = Lobby::new();
    }
}

/// How often the lobby looks for hosts found (the browser has no waker of its own).
const BROWSE_POLL: std::time::Duration = std::time::Duration::from_secs(1);

fn discover(
    mut lobby: ResMut<LobbyState>,
    mut found: MessageReader<LanFound>,
    mut redraw: ResMut<crate::redraw::Redraw>,
) {
    redraw.within(BROWSE_POLL);
    // Without `dev` no test feed adds to it.
    #[cfg_attr(not(feature = "dev"), allow(unused_mut))]
    let mut all: Vec<Discovery> = found.read().map(|LanFound(d)| d.clone()).collect();
    #[cfg(feature = "dev")]
    if let Some(rx) = &lobby.feed {
        all.extend(rx.lock().expect("not poisoned").try_iter());
    }
    for d in all {
        lobby.apply(d);
    }
    // Games no longer announced leave the list (the app wakes at least once a second).
    if !lobby.hosts.is_empty() {
        let now = Instant::now();
        lobby.bypass_change_detection().hosts.expire(now);
    }
}

/// A layout for `rules`: the player's if it is legal under them, a random legal one otherwise.
fn layout_for(rules: &Rules, mine: Layout) -> Layout {
    if rules.mode == Mode::Flip || mine.validate(rules).is_ok() {
        mine
    } else {
        Layout::random(rules, &mut rand::rng())
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
                // The army is arranged after the pairing: a legal layout until then.
                lobby.peer_ready = false;
                lan.write(LanRequest::Start(Role::Host {
                    rules,
                    layout: layout_for(&rules, setup.layout),
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
                let found = lobby
                    .hosts
                    .hosts()
                    .into_iter()
                    .find(|h| &h.fullname == fullname);
                let Some(h) = found.cloned() else {
                    continue;
                };
                let Some(addr) = h.addrs.first().copied() else {
                    continue;
                };
                let host = h.name.clone();
                lobby.peer_ready = false;
                lan.write(LanRequest::Start(Role::Join {
                    addr,
                    name: lobby.name.clone(),
                }));
                lobby.unfinished = None;
                lobby.ended = None;
                lobby.error = None;
                lobby.phase = LobbyPhase::Joining { host };
            }
            LobbyAction::ConfirmPairing => {
                if let LobbyPhase::Pairing {
                    code,
                    peer,
                    rules,
                    host,
                } = lobby.phase.clone()
                {
                    let mut l = LanArranging::new(code.clone(), peer.clone(), host);
                    l.peer_ready = lobby.peer_ready;
                    setup.arrange(l, rules, *lang);
                    lobby.phase = LobbyPhase::Arranging { code, peer };
                    nav.write(Navigate(Screen::Setup));
                }
            }
            LobbyAction::Resume => {
                let Some(u) = lobby.unfinished.take() else {
                    continue;
                };
                lobby.peer_ready = false;
                lan.write(LanRequest::Start(Role::Resume));
                lobby.ended = None;
                lobby.error = None;
                lobby.phase = LobbyPhase::Resuming { peer: u.peer };
            }
            LobbyAction::Discard => {
                junqi_net::peer::discard(&dir.lan());
                lobby.unfinished = None;
            }
            LobbyAction::Cancel => {
                lan.write(LanRequest::Leave);
                lobby.phase = LobbyPhase::Browsing;
                setup.leave_lan();
            }
        }
    }
}

/// Follows the LAN game up to the start of play: the guest accepts the host's rules, the
/// pairing code is shown, each side arranges its army (the peer's readiness and a refused
/// layout go to the setup screen), and when play begins the board takes over.
fn follow(
    mut reader: MessageReader<LanEvent>,
    mut lobby: ResMut<LobbyState>,
    mut setup: ResMut<SetupState>,
    lang: Res<Lang>,
    screen: Res<State<Screen>>,
    mut lan: MessageWriter<LanRequest>,
    mut nav: MessageWriter<Navigate>,
) {
    for LanEvent(e) in reader.read() {
        let arranging = matches!(lobby.phase, LobbyPhase::Arranging { .. });
        match e {
            PeerEvent::Listening { port } => {
                if let LobbyPhase::Hosting { port: p, .. } = &mut lobby.phase {
                    *p = Some(*port);
                }
            }
            PeerEvent::RulesOffered { rules, .. } => {
                // A legal first layout; the player arranges its own after the pairing.
                let layout = layout_for(rules, setup.layout);
                lan.write(LanRequest::Send(PeerCmd::Accept(layout)));
            }
            PeerEvent::PairingCode {
                code,
                peer,
                rules,
                host,
            } => {
                lobby.phase = LobbyPhase::Pairing {
                    code: code.clone(),
                    peer: peer.clone(),
                    rules: *rules,
                    host: *host,
                };
            }
            PeerEvent::PeerReady => {
                lobby.peer_ready = true;
                if let Some(l) = setup.lan.as_mut() {
                    l.peer_ready = true;
                }
            }
            PeerEvent::Refused(err) if arranging => {
                if let Some(l) = setup.lan.as_mut() {
                    l.ready = false;
                }
                setup.message = Some((crate::lan_text::refusal_text(err, *lang), true));
            }
            PeerEvent::Started { .. } => {
                lobby.phase = LobbyPhase::Browsing;
                setup.leave_lan();
                nav.write(Navigate(Screen::Game));
            }
            PeerEvent::Verdict(v) if lobby.before_play() => {
                // The game ended before play began (the peer broke off the handshake, or
                // cheated in it, or nobody got ready in time): back to the list, saying why.
                lobby.ended = v.reason.clone();
                lobby.phase = LobbyPhase::Browsing;
                setup.leave_lan();
                lan.write(LanRequest::Leave);
                if *screen.get() == Screen::Setup {
                    nav.write(Navigate(Screen::Lobby));
                }
            }
            PeerEvent::Error(err) => {
                lobby.error = Some(err.clone());
                if lobby.before_play() {
                    lobby.phase = LobbyPhase::Browsing;
                    setup.leave_lan();
                    if *screen.get() == Screen::Setup {
                        nav.write(Navigate(Screen::Lobby));
                    }
                }
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
    mut table: ResMut<TableLobby>,
    mut table_actions: MessageWriter<TableAction>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let lang = *lang;
    let back = theme::page(ctx, lang.t("menu.back"), lang.t("lobby.title"), |ui| {
        ui.horizontal(|ui| {
            ui.label(lang.t("lobby.name"));
            let busy = lobby.phase != LobbyPhase::Browsing || table.busy();
            ui.add_enabled(
                !busy,
                egui::TextEdit::singleline(&mut lobby.name).desired_width(200.0),
            );
        });
        ui.add_space(8.0);
        match lobby.phase.clone() {
            LobbyPhase::Browsing if table.busy() => {
                let name = lobby.name.clone();
                let mut out = Vec::new();
                lobby_table::panel_ui(ui, &mut table, &name, lang, &mut out);
                table_actions.write_batch(out);
            }
            LobbyPhase::Browsing => {
                if let Some(u) = lobby.unfinished.clone() {
                    egui::Frame::group(ui.style()).show(ui, |ui| {
                        ui.label(egui::RichText::new(lang.t("lobby.unfinished")).strong());
                        let board = if u.big_board {
                            format!("{} · ", lang.t("opt.table.two_big"))
                        } else {
                            String::new()
                        };
                        ui.label(format!(
                            "{} {} · {board}{}",
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
                let mut out = Vec::new();
                host_list_ui(ui, &lobby, lang, &mut out);
                actions.write_batch(out);
                ui.add_space(8.0);
                if theme::menu_button(ui, lang.t("lobby.host")).clicked() {
                    actions.write(LobbyAction::Host);
                }
                ui.weak(lang.t("lobby.host_hint"));
                ui.add_space(12.0);
                let mut out = Vec::new();
                lobby_table::browse_ui(ui, &lobby, &table, lang, &mut out);
                table_actions.write_batch(out);
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
            LobbyPhase::Pairing { code, peer, .. } => {
                ui.label(format!("{} {peer}", lang.t("lan.vs")));
                ui.label(
                    egui::RichText::new(format!("{}  {code}", lang.t("lobby.code")))
                        .size(36.0)
                        .color(egui::Color32::from_rgb(250, 210, 80)),
                );
                ui.label(lang.t("lobby.compare"));
                ui.add_space(8.0);
                ui.horizontal_wrapped(|ui| {
                    if theme::menu_button(ui, lang.t("lobby.confirm")).clicked() {
                        actions.write(LobbyAction::ConfirmPairing);
                    }
                    if theme::menu_button(ui, lang.t("lobby.mismatch")).clicked() {
                        actions.write(LobbyAction::Cancel);
                    }
                });
            }
            LobbyPhase::Arranging { code, peer } => {
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
                format!("{}{}{kind}", lang.t("lobby.ended"), lang.colon()),
            );
            if let Some(d) = detail {
                ui.weak(format!("{}{}{d}", lang.t("lan.detail"), lang.colon()));
            }
        }
        if let Some(e) = &lobby.error {
            let (what, detail) = crate::lan_text::peer_error_text(e, lang);
            ui.colored_label(
                theme::palette::WARN,
                format!("{}{}{what}", lang.t("lobby.error"), lang.colon()),
            );
            if let Some(d) = detail {
                ui.weak(format!("{}{}{d}", lang.t("lan.detail"), lang.colon()));
            }
        }
    });
    if back {
        actions.write(LobbyAction::Cancel);
        table_actions.write(TableAction::Cancel);
        nav.write(Navigate(Screen::Title));
    }
    Ok(())
}

/// The two-player games found, one wrapped row each (name, rules, address, 加入): on a phone
/// held upright the join button goes to the next line instead of past the screen's edge.
pub(crate) fn host_list_ui(
    ui: &mut egui::Ui,
    lobby: &LobbyState,
    lang: Lang,
    out: &mut Vec<LobbyAction>,
) {
    egui::Frame::group(ui.style()).show(ui, |ui| {
        // Shorter when four-seat tables are listed below, so that they show too.
        let tables = lobby.hosts.hosts().iter().any(|h| lobby_table::is_table(h));
        let height = if tables { 80.0 } else { 220.0 };
        ui.set_min_size(egui::vec2(ui.available_width().min(640.0), height));
        if lobby.hosts.hosts().iter().all(|h| lobby_table::is_table(h)) {
            ui.weak(lang.t("lobby.none"));
        }
        for h in lobby.hosts.hosts() {
            if lobby_table::is_table(h) {
                continue;
            }
            ui.horizontal_wrapped(|ui| {
                ui.spacing_mut().item_spacing.x = 16.0;
                ui.label(egui::RichText::new(&h.name).size(20.0).strong());
                let parts = rules_parts(&h.rules, lang);
                let last = parts.len().saturating_sub(1);
                for (i, part) in parts.into_iter().enumerate() {
                    // The dot ends a part, so that no line of a wrapped row begins with one.
                    let part = if i == last {
                        part
                    } else {
                        format!("{part} ·")
                    };
                    // Close together, as one text; the row's spacing after the last.
                    ui.spacing_mut().item_spacing.x = if i == last { 16.0 } else { 6.0 };
                    ui.add(egui::Label::new(part).wrap_mode(egui::TextWrapMode::Extend));
                }
                ui.weak(h.addrs.first().map(|a| a.to_string()).unwrap_or_default());
                if ui.button(lang.t("lobby.join")).clicked() {
                    out.push(LobbyAction::Join(h.fullname.clone()));
                }
            });
            ui.add_space(6.0);
        }
    });
}

/// The string key of a mode's name.
fn mode_key(mode: junqi_game::Mode) -> &'static str {
    match mode {
        junqi_game::Mode::Dark => "opt.mode.dark",
        junqi_game::Mode::Open => "opt.mode.open",
        junqi_game::Mode::Flip => "opt.mode.flip",
    }
}

/// A host's rules summary (`dark 60s`, `dark 60s big`: [`junqi_net::discovery::rules_summary`])
/// in the player's language; a game on the big board says so first (两人四国棋盘).
pub fn rules_text(summary: &str, lang: Lang) -> String {
    rules_parts(summary, lang).join(" · ")
}

/// [`rules_text`]'s parts: the board when it is the big one, the way to play, the clock, and
/// whether the inference board is off. A row shows them as words of their own, so that on a
/// narrow screen the row breaks between them, never inside one.
fn rules_parts(summary: &str, lang: Lang) -> Vec<String> {
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
        .and_then(|s| s.parse::<u32>().ok())
        .map(|s| lang.tr("lobby.clock", &[("seconds", s.into())]))
        .unwrap_or_default();
    let rest: Vec<&str> = parts.collect();
    let mut out = Vec::with_capacity(4);
    if rest.contains(&"big") {
        out.push(lang.t("opt.table.two_big").to_owned());
    }
    out.push(mode.to_owned());
    out.push(clock);
    if rest.contains(&"no-inference") {
        out.push(lang.t("opt.no_inference").to_owned());
    }
    out
}
