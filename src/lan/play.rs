//! A LAN game on the game screen: created when play begins ([`LanMsg::Started`] carries the
//! view), then kept in step with the network session by applying its forwarded events to the
//! player's view; the connection, draw offers, faults, the result and the audit's verdict go to
//! the game's [`LanGame`] (the audit's also to [`LastGame`] once the game screen was left).

use bevy::prelude::*;

use super::link::{LanCmd, LanMsg};
use super::plugin::{LanEvent, LanRequest};
use crate::{
    board::BoardEffect,
    i18n::Lang,
    screens::setup::now_secs,
    screens::{
        Navigate, Screen,
        game::{ActiveGame, LanGame, LastGame},
    },
    session::{Announcement, Session},
};

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(Update, follow);
}

#[allow(clippy::too_many_arguments)] // a Bevy system's parameters
fn follow(
    mut commands: Commands,
    mut reader: MessageReader<LanEvent>,
    mut game: Option<ResMut<ActiveGame>>,
    mut last: Option<ResMut<LastGame>>,
    mut effects: MessageWriter<BoardEffect>,
    mut nav: MessageWriter<Navigate>,
    mut requests: MessageWriter<LanRequest>,
    lang: Res<Lang>,
) {
    // A game that begins in this frame takes the events that follow in this frame.
    let mut fresh: Option<ActiveGame> = None;
    for LanEvent(msg) in reader.read() {
        if let LanMsg::Started {
            code,
            peer,
            view,
            my_turn,
            ..
        } = msg
        {
            let mut session = Session::remote((**view).clone(), format!("lan:{peer}"), now_secs());
            session.update_view(session.view.clone(), *my_turn);
            let lan = LanGame {
                peer: peer.clone(),
                code: code.clone(),
                connected: true,
                ..default()
            };
            fresh = Some(ActiveGame::lan(session, lan));
            nav.write(Navigate(Screen::Game));
            continue;
        }
        // The resource belongs to this LAN game only once it was created from it.
        let g = match fresh.as_mut() {
            Some(g) => Some(g),
            None => game.as_deref_mut().filter(|g| g.lan_state().is_some()),
        };
        // The audit's findings also go to the game over screen's record of the game, which
        // exists once the game screen was left.
        if let Some(l) = last.as_deref_mut().and_then(|l| l.lan.as_mut()) {
            match msg {
                LanMsg::Verdict(v) => l.verdict = Some(v.clone()),
                LanMsg::Kept(path) => l.journal = Some(path.clone()),
                _ => {}
            }
        }
        let Some(g) = g else { continue };
        match msg {
            LanMsg::Events { events, my_turn } => {
                match g.session.follow(events, *my_turn) {
                    Ok(a) => announce(g, a, &mut effects),
                    Err(e) => {
                        // The view could not follow: ask for the whole view rather than
                        // show a board that differs from the session's.
                        warn!("LAN view out of step ({e}); asking for the whole view");
                        requests.write(LanRequest::Send(LanCmd::Resync));
                    }
                }
            }
            LanMsg::Resync { view, my_turn } => {
                g.session.resync((**view).clone(), *my_turn);
                g.hint = None;
                g.selected = None;
            }
            LanMsg::Connected => set(g, |l| l.connected = true),
            LanMsg::Dropped(e) => {
                info!("LAN connection dropped: {e}");
                set(g, |l| {
                    l.connected = false;
                    l.drops += 1;
                });
            }
            LanMsg::DrawOffered => set(g, |l| l.draw_offered = true),
            LanMsg::Refused(e) => g.status = Some(crate::lan_text::refusal_text(e, *lang)),
            LanMsg::Fault { culprit, reason } => {
                set(g, |l| l.fault = Some((*culprit, reason.clone())))
            }
            LanMsg::Finished(r) => g.session.set_result(*r),
            LanMsg::Verdict(v) => set(g, |l| l.verdict = Some(v.clone())),
            LanMsg::Kept(path) => set(g, |l| l.journal = Some(path.clone())),
            LanMsg::Listening { .. }
            | LanMsg::PairingCode { .. }
            | LanMsg::RulesOffered { .. }
            | LanMsg::Started { .. }
            | LanMsg::TimeExpired
            | LanMsg::Error(_) => {}
        }
    }
    if let Some(g) = fresh {
        commands.insert_resource(g);
    }
}

fn set(g: &mut ActiveGame, f: impl FnOnce(&mut LanGame)) {
    if let Some(l) = g.lan_state_mut() {
        f(l);
    }
}

/// Shows what the peer's move did, and clears what no longer holds once the view moved on.
fn announce(g: &mut ActiveGame, a: Option<Announcement>, effects: &mut MessageWriter<BoardEffect>) {
    if let Some(a) = a {
        g.hint = None;
        if !a.text.is_empty() {
            effects.write(BoardEffect {
                at: a.at,
                text: a.text,
                battle: a.battle,
            });
        }
    }
    if g.session.my_turn() {
        g.status = None;
    }
}
