//! A LAN game on the board: created from the snapshot the handle sends when play begins
//! ([`PeerEvent::Started`]), then following the events that come after it, one by one (a voided
//! move rewinds it to the snapshot and the events that still stand); the connection, draw
//! offers, faults, the result and the audit's verdict go to the game's [`LanGame`] (the audit's
//! also to [`LastGame`] once the game is over).

use bevy::prelude::*;
use junqi_net::peer::{PeerEvent, rewind};

use super::plugin::LanEvent;
use crate::{
    board::BoardEffect,
    game_match::{Callout, Match},
    i18n::Lang,
    model::{ActiveGame, LanGame, LastGame, now_secs},
};

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(Update, follow);
}

fn follow(
    mut commands: Commands,
    mut reader: MessageReader<LanEvent>,
    mut game: Option<ResMut<ActiveGame>>,
    mut last: Option<ResMut<LastGame>>,
    mut effects: MessageWriter<BoardEffect>,
    lang: Res<Lang>,
) {
    // A game that begins in this frame takes the events that follow in this frame.
    let mut fresh: Option<ActiveGame> = None;
    for LanEvent(e) in reader.read() {
        if let PeerEvent::Started {
            code,
            peer,
            view,
            my_turn,
            ..
        } = e
        {
            let mut game_match = Match::remote((**view).clone(), format!("lan:{peer}"), now_secs());
            game_match.set_turn(*my_turn);
            let lan = LanGame {
                peer: peer.clone(),
                start: Some(view.clone()),
                code: code.clone(),
                connected: true,
                ..default()
            };
            fresh = Some(ActiveGame::lan(game_match, lan));
            continue;
        }
        // The audit's findings also go to the result screen's record of the game.
        if let Some(l) = last.as_deref_mut().and_then(|l| l.lan.as_mut()) {
            match e {
                PeerEvent::Verdict(v) => l.verdict = Some(v.clone()),
                PeerEvent::Kept(path) => l.journal = Some(path.clone()),
                _ => {}
            }
        }
        // The resource belongs to this LAN game only once it was created from it.
        let g = match fresh.as_mut() {
            Some(g) => Some(g),
            None => game.as_deref_mut().filter(|g| g.lan_state().is_some()),
        };
        let Some(g) = g else { continue };
        match e {
            PeerEvent::Game(event) => match g.game_match.follow(event) {
                Ok(a) => announce(g, a, *lang, &mut effects),
                // The network session applied it to its own view: this view then is not the network session's
                // (a bug, not the network's doing); the next voided move or resume resets it.
                Err(err) => error!("the LAN board cannot take {event:?}: {err}"),
            },
            PeerEvent::Voided { kept } => {
                let back = g
                    .lan_state()
                    .and_then(|l| l.start.as_deref())
                    .map(|start| rewind(start, &g.game_match.view, *kept));
                match back {
                    Some(Ok(view)) => {
                        g.game_match.rewind(view);
                        g.hint = None;
                        g.selected = None;
                    }
                    Some(Err(err)) => error!("cannot rewind the LAN board: {err}"),
                    None => {}
                }
            }
            PeerEvent::Turn(t) => {
                g.game_match.set_turn(*t);
                if *t {
                    g.status = None;
                }
            }
            PeerEvent::Connected => set(g, |l| l.connected = true),
            PeerEvent::Dropped(err) => {
                info!("LAN connection dropped: {err}");
                set(g, |l| {
                    l.connected = false;
                    l.drops += 1;
                });
            }
            PeerEvent::DrawOffered => set(g, |l| l.draw_offered = true),
            PeerEvent::Refused(err) => {
                g.say(crate::lan_text::refusal_text(err, *lang));
            }
            PeerEvent::Fault { culprit, reason } => {
                set(g, |l| l.fault = Some((*culprit, reason.clone())));
            }
            PeerEvent::Finished(r) => g.game_match.set_result(*r),
            PeerEvent::Verdict(v) => set(g, |l| l.verdict = Some(v.clone())),
            PeerEvent::Kept(path) => set(g, |l| l.journal = Some(path.clone())),
            PeerEvent::NotKept(err) => warn!("the finished game's log was not kept: {err}"),
            PeerEvent::Listening { .. }
            | PeerEvent::PairingCode { .. }
            | PeerEvent::RulesOffered { .. }
            | PeerEvent::PeerReady
            | PeerEvent::Started { .. }
            | PeerEvent::TimeExpired
            | PeerEvent::Error(_)
            | PeerEvent::Stopped => {}
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
pub(super) fn announce(
    g: &mut ActiveGame,
    a: Option<Callout>,
    lang: Lang,
    effects: &mut MessageWriter<BoardEffect>,
) {
    if let Some(a) = a {
        g.hint = None;
        if let Some(text) = a.caption(lang) {
            effects.write(BoardEffect {
                at: a.at,
                text,
                battle: a.battle(),
            });
        }
    }
    if g.game_match.my_turn() {
        g.status = None;
    }
}
