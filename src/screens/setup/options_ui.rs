//! The options form (also the LAN host's): table, way to play, levels, who starts, the clock and
//! every rule option; for four players the seats and each computer seat's level.

use bevy_egui::egui;
use junqi_game::{FlagCapture, MineRule, Mode, Side};

use super::options::{First, MatchOptions, Table};
use crate::{ai, i18n::Lang};

/// The options form (also used by the LAN host screen).
fn level_text(n: u8, lang: Lang) -> &'static str {
    crate::game_text::level_name(ai::level(n), lang)
}

/// The options form (also used by the LAN host screen, `lan`: two-player tables only).
pub fn options_ui(ui: &mut egui::Ui, o: &mut MatchOptions, lang: Lang, lan: bool) {
    ui.strong(lang.t("opt.table"));
    ui.horizontal_wrapped(|ui| {
        // A LAN game is two players on either board (four-seat tables are hosted apart), and
        // flip is not played on the big board over the LAN.
        let tables: &[(Table, &str)] = if lan {
            &[
                (Table::Two, "opt.table.two"),
                (Table::TwoOnBig, "opt.table.two_big"),
            ]
        } else {
            &[
                (Table::Two, "opt.table.two"),
                (Table::Four, "opt.table.four"),
                (Table::TwoOnBig, "opt.table.two_big"),
            ]
        };
        for &(t, key) in tables {
            let flip_big = lan && t == Table::TwoOnBig && o.rules.mode == Mode::Flip;
            let chosen = ui
                .add_enabled(
                    !flip_big,
                    egui::Button::selectable(o.table == t, lang.t(key)),
                )
                .on_disabled_hover_text(lang.t("opt.big_no_flip"));
            if chosen.clicked() {
                o.set_table(t);
            }
        }
    });
    if o.table == Table::Four && !lan {
        four_options_ui(ui, o, lang);
    } else {
        let big = lan && o.table == Table::TwoOnBig;
        let r = &mut o.rules;
        ui.strong(lang.t("opt.mode"));
        ui.horizontal(|ui| {
            ui.selectable_value(&mut r.mode, Mode::Dark, lang.t("opt.mode.dark"));
            ui.selectable_value(&mut r.mode, Mode::Open, lang.t("opt.mode.open"));
            ui.add_enabled_ui(!big, |ui| {
                ui.selectable_value(&mut r.mode, Mode::Flip, lang.t("opt.mode.flip"))
                    .on_disabled_hover_text(lang.t("opt.big_no_flip"));
            });
        });
        // Said, not only greyed: a phone shows no hover text.
        if lan && (big || r.mode == Mode::Flip) {
            ui.weak(lang.t("opt.big_no_flip"));
        }
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
