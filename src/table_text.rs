//! What a player reads about a four-seat LAN table, in the player's language: seats and who
//! plays them, the rules line (which device knows which seat's pieces), refusals, and how the
//! table ended. Never a protocol string.

use junqi_game::{Mode, Rules, Side};
use junqi_net::four::{Ending, FourCallError, FourSeat, FourVerdict};
use junqi_net::table_handle::{ComputerHome, SeatInfo};

use crate::{game_text::level_name, i18n::Lang};

/// A seat's compass name (南, 东, 北, 西).
pub fn seat_name(side: Side, lang: Lang) -> &'static str {
    lang.t(match side {
        Side::South => "seat.south",
        Side::East => "seat.east",
        Side::North => "seat.north",
        Side::West => "seat.west",
    })
}

/// Who plays `seat`: the player's name, or the computer and the device that runs it (the
/// host's, or its partner's: its level; a seat its player handed over: its partner's); `…`
/// while its hello is not in.
pub fn seat_who(seat: FourSeat, info: &SeatInfo, lang: Lang) -> String {
    let level = |l: u8| level_name(crate::ai::level(l), lang);
    let partner = seat_name(seat.partner().side(), lang);
    if info.handed_over {
        return lang.t("table.handed_over").to_owned();
    }
    match (info.computer(), info.computer_home(), &info.name) {
        (Some(l), Some(ComputerHome::Partner), _) => lang.tr(
            "table.ai_on_partner",
            &[("level", level(l).into()), ("partner", partner.into())],
        ),
        (Some(l), _, _) => lang.tr("table.ai_on_host", &[("level", level(l).into())]),
        (None, _, Some(name)) => name.clone(),
        (None, _, None) => "…".into(),
    }
}

/// A seat's connection as this device knows it (`None`: not known here).
pub fn link_text(info: &SeatInfo, lang: Lang) -> Option<&'static str> {
    info.link.map(|up| {
        lang.t(if up {
            "table.link_up"
        } else {
            "table.link_down"
        })
    })
}

/// The way a table is played and its clock: `四暗 · 每步 30 秒`.
pub fn way_text(rules: &Rules, lang: Lang) -> String {
    let way = lang.t(crate::game_text::way_key(rules));
    let clock = lang.tr("table.per_move", &[("seconds", rules.move_seconds.into())]);
    format!("{way} · {clock}")
}

/// A lobby summary's way (`four dark 30s`, `four partners 30s`, `four open 30s`), translated.
pub fn summary_text(summary: &str, lang: Lang) -> String {
    let mut w = summary.split_whitespace().skip(1);
    let mode = w.next().unwrap_or_default();
    let secs: u16 = w
        .next()
        .and_then(|s| s.strip_suffix('s'))
        .and_then(|s| s.parse().ok())
        .unwrap_or(30);
    let rules = Rules {
        partners_open: mode == "partners",
        move_seconds: secs,
        ..Rules::four_player(if mode == "open" {
            Mode::Open
        } else {
            Mode::Dark
        })
    };
    way_text(&rules, lang)
}

/// The rules line every player reads before confirming the code: the way, and which device
/// knows which seat's pieces (each device its own seat's; the host the computer seats it runs,
/// a guest its partner seat's computer; partners each other's in 双明; everyone everything in
/// 全明; a partner's device the seat it takes over if its player agreed to a hand-over), and,
/// when the host's device runs a computer seat of the other team, that confirming is every
/// player's agreement to it.
pub fn rules_lines(rules: &Rules, seats: &[SeatInfo; 4], lang: Lang) -> Vec<String> {
    let mut out = vec![
        way_text(rules, lang),
        lang.t("table.rules_devices").to_owned(),
    ];
    if rules.mode == Mode::Open {
        out.push(lang.t("table.rules_open").to_owned());
    } else if rules.partners_open {
        out.push(lang.t("table.rules_partners").to_owned());
    }
    let mut enemy = false;
    for seat in FourSeat::ALL {
        let name = seat_name(seat.side(), lang);
        let partner = seat_name(seat.partner().side(), lang);
        match seats[seat.index()].computer_home() {
            Some(ComputerHome::Host) => {
                out.push(lang.tr("table.rules_host_ai", &[("seat", name.into())]));
                // The host's team is South and North.
                enemy |= matches!(seat, FourSeat::East | FourSeat::West);
            }
            Some(ComputerHome::Partner) => out.push(lang.tr(
                "table.rules_partner_ai",
                &[("seat", name.into()), ("partner", partner.into())],
            )),
            None => {}
        }
    }
    for seat in FourSeat::ALL {
        if seats[seat.index()].hand_over {
            out.push(lang.tr(
                "table.rules_hand_over",
                &[
                    ("seat", seat_name(seat.side(), lang).into()),
                    ("partner", seat_name(seat.partner().side(), lang).into()),
                ],
            ));
        }
    }
    if enemy {
        out.push(lang.t("table.rules_enemy_ai").to_owned());
    }
    out
}

/// A command the seat refused.
pub fn table_refusal_text(e: FourCallError, lang: Lang) -> String {
    lang.t(match e {
        FourCallError::NotYourMove => "refused.turn",
        FourCallError::Illegal => "refused.illegal",
        FourCallError::TooEarly => "table.refused_early",
        FourCallError::OfferedThisTurn => "table.refused_offered",
        FourCallError::NoOffer
        | FourCallError::NothingToConfirm
        | FourCallError::NothingHandedOver => "refused.phase",
        FourCallError::BadSetup => "refused.layout",
    })
    .to_owned()
}

/// How the table ended for the player (`me`), in one line: a clean audit, a seat blamed, a
/// seat that left, no result.
pub fn ending_text(v: &FourVerdict, me: Side, lang: Lang) -> String {
    let seat = |s: FourSeat| {
        if s.side() == me {
            lang.t("game.you").to_owned()
        } else {
            seat_name(s.side(), lang).to_owned()
        }
    };
    if let Some(b) = &v.blame {
        return lang.tr("table.blamed", &[("seat", seat(b.seat).into())]);
    }
    match v.ending {
        Ending::Left(s) => lang.tr("table.left", &[("seat", seat(s).into())]),
        Ending::HostStopped { .. } => lang.t("table.host_stopped").to_owned(),
        Ending::Abandoned => lang.t("table.abandoned").to_owned(),
        Ending::Unplayed(_) => lang.t("table.unplayed").to_owned(),
        Ending::StaleJournal { .. } => lang.t("table.stale").to_owned(),
        _ if v.record.is_some() => lang.t("lan.clean").to_owned(),
        _ => lang.t("table.not_audited").to_owned(),
    }
}
