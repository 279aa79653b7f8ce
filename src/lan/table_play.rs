//! A four-seat LAN table on the board: its [`ActiveGame`] is created from the view the seat
//! reports when play begins ([`TableReport::Started`]), then follows the seat's view after each
//! announcement (a voided move puts the view back to before it); the seat table, a draw to
//! answer and the verdict go to the game's [`LanTable`] (the verdict also to [`LastGame`]).

use bevy::prelude::*;
use junqi_net::table_handle::{HOST_SEAT, TableReport};

use super::{play::announce, table::TableNews};
use crate::{
    board::BoardEffect,
    game_match::Match,
    i18n::Lang,
    model::{ActiveGame, LanGame, LanTable, LastGame, now_secs},
};

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(Update, follow);
}

/// The other players' names, a computer seat named by `computer` (its level).
fn others(table: &LanTable, me: junqi_game::Side, computer: impl Fn(u8) -> String) -> String {
    junqi_game::Side::FOUR
        .iter()
        .filter(|s| **s != me)
        .filter_map(|s| table.name(*s))
        .map(|n| match junqi_net::table_handle::computer_level(n) {
            Some(level) => computer(level),
            None => n.to_owned(),
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

fn follow(
    mut commands: Commands,
    mut reader: MessageReader<TableNews>,
    mut game: Option<ResMut<ActiveGame>>,
    mut last: Option<ResMut<LastGame>>,
    mut effects: MessageWriter<BoardEffect>,
    lang: Res<Lang>,
    // The seat table and code as they were before play (the lobby's pairing).
    mut pending: Local<(LanTable, String)>,
) {
    let mut fresh: Option<ActiveGame> = None;
    for TableNews(r) in reader.read() {
        match r {
            TableReport::Listening { .. } => *pending = (LanTable::default(), String::new()),
            TableReport::PairingCode { code, .. } => pending.1 = code.clone(),
            TableReport::Started {
                seat,
                view,
                my_turn,
            } => {
                let mut table = pending.0.clone();
                table.host = *seat == HOST_SEAT;
                let me = seat.side();
                // The record's and the profile's key is the same in every language.
                let key = format!("lan:{}", others(&table, me, |l| format!("ai-{l}")));
                let mut m = Match::remote((**view).clone(), key, now_secs());
                m.set_turn(*my_turn);
                let lang = *lang;
                let lan = LanGame {
                    peer: others(&table, me, |_| lang.t("table.computer").to_owned()),
                    code: pending.1.clone(),
                    connected: true,
                    table: Some(Box::new(table)),
                    ..default()
                };
                fresh = Some(ActiveGame::lan(m, lan));
                continue;
            }
            TableReport::Seats(seats) => pending.0.seats = (**seats).clone(),
            _ => {}
        }
        // The verdict also goes to the result screen's record of the game.
        if let TableReport::Over { verdict, kept } = r
            && let Some(l) = last.as_deref_mut().and_then(|l| l.lan.as_mut())
            && let Some(t) = l.table.as_mut()
        {
            t.verdict = Some(verdict.clone());
            l.journal = kept.clone();
        }
        let g = match fresh.as_mut() {
            Some(g) => Some(g),
            None => game
                .as_deref_mut()
                .filter(|g| g.lan_state().is_some_and(|l| l.table.is_some())),
        };
        let Some(g) = g else { continue };
        match r {
            TableReport::View { view, my_turn, .. } => {
                let a = g.game_match.update_view((**view).clone(), *my_turn);
                announce(g, a, *lang, &mut effects);
            }
            TableReport::Voided { view, my_turn } => {
                g.game_match.set_turn(*my_turn);
                g.game_match.rewind((**view).clone());
                g.hint = None;
                g.selected = None;
            }
            TableReport::Turn(t) => {
                g.game_match.set_turn(*t);
                if *t {
                    g.status = None;
                }
            }
            TableReport::Seats(seats) => {
                let host = table(g).is_some_and(|t| t.host);
                if let Some(l) = g.lan_state_mut() {
                    // A guest's own link to the host is its connection.
                    if !host && let Some(up) = seats[HOST_SEAT.index()].link {
                        l.connected = up;
                    }
                    if let Some(t) = l.table.as_mut() {
                        t.seats = (**seats).clone();
                    }
                }
            }
            TableReport::AnswerDraw { by } => {
                if let Some(l) = g.lan_state_mut() {
                    l.draw_offered = true;
                    if let Some(t) = l.table.as_mut() {
                        t.draw_by = Some(by.side());
                    }
                }
            }
            TableReport::Refused(err) => {
                g.say(crate::table_text::table_refusal_text(*err, *lang));
            }
            TableReport::Over { verdict, kept } => {
                if let Some(res) = verdict.result {
                    g.game_match.set_result(res);
                }
                if let Some(l) = g.lan_state_mut() {
                    l.journal = kept.clone();
                    l.draw_offered = false;
                    if let Some(t) = l.table.as_mut() {
                        t.verdict = Some(verdict.clone());
                    }
                }
            }
            TableReport::Listening { .. }
            | TableReport::PairingCode { .. }
            | TableReport::Started { .. }
            | TableReport::Error(_)
            | TableReport::Stopped => {}
        }
    }
    if let Some(g) = fresh {
        commands.insert_resource(g);
    }
}

fn table(g: &ActiveGame) -> Option<&LanTable> {
    g.lan_state().and_then(|l| l.table.as_deref())
}
