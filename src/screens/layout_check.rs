//! Layout tests: the screens' panels (game, setup, title, settings, profile, replay, review)
//! laid out by egui at the phone, phone landscape and desktop sizes, without a window, and
//! every piece of text and every widget checked against the window, the other texts and the
//! board's area; and a message appearing on a screen moves nothing a player points at.

use bevy_egui::egui::{self, Pos2, Rect, Shape, epaint::ClippedShape};
use junqi_game::Side;

use super::game_hud::{HudTab, hud};
use super::setup::{SetupState, SetupTab, Table, setup_panels};
use crate::model::ActiveGame;
use crate::{demo, form::Form, i18n::Lang, theme};

/// Portrait phones, a phone held sideways, the desktop window (logical pixels).
const SIZES: [(f32, f32); 4] = [
    (720.0, 1600.0),
    (1080.0, 2400.0),
    (1600.0, 720.0),
    (1280.0, 800.0),
];

/// A shape as drawn: its bounds, what of it the clip leaves visible, and its text and colour if
/// any.
struct Drawn {
    bounds: Rect,
    visible: Rect,
    text: Option<String>,
    colour: Option<egui::Color32>,
}

fn flatten(shape: &Shape, clip: Rect, out: &mut Vec<Drawn>) {
    match shape {
        Shape::Vec(shapes) => shapes.iter().for_each(|s| flatten(s, clip, out)),
        Shape::Noop => {}
        s => {
            let bounds = s.visual_bounding_rect();
            if !bounds.is_positive() {
                return;
            }
            let (text, colour) = match s {
                Shape::Text(t) => {
                    let section = t.galley.job.sections.first().map(|s| s.format.color);
                    let colour = section
                        .filter(|c| *c != egui::Color32::PLACEHOLDER)
                        .unwrap_or(t.fallback_color);
                    (Some(t.galley.text().to_owned()), Some(colour))
                }
                _ => (None, None),
            };
            out.push(Drawn {
                bounds,
                visible: bounds.intersect(clip),
                text,
                colour,
            });
        }
    }
}

/// Runs `panels` (which returns the board's rectangle) for a few frames at `size` and returns the
/// window in points, the board's rectangle and what the last frame drew.
fn lay_out(
    size: (f32, f32),
    mut panels: impl FnMut(&egui::Context, Form) -> Rect,
) -> (Rect, Rect, Vec<Drawn>) {
    let ctx = egui::Context::default();
    theme::style(&ctx);
    let logical = bevy::math::Vec2::new(size.0, size.1);
    let form = Form::of(logical);
    let zoom = form.zoom(logical);
    let screen = Rect::from_min_size(Pos2::ZERO, egui::vec2(size.0 / zoom, size.1 / zoom));
    let mut board = Rect::NOTHING;
    let mut shapes: Vec<ClippedShape> = Vec::new();
    // egui sizes panels from the frame before: let it settle.
    for _ in 0..4 {
        let input = egui::RawInput {
            screen_rect: Some(screen),
            ..Default::default()
        };
        let mut output = ctx.run_ui(input, |ui| board = panels(ui.ctx(), form));
        output.textures_delta.clear();
        shapes = output.shapes;
    }
    let mut drawn = Vec::new();
    for c in &shapes {
        flatten(&c.shape, c.clip_rect, &mut drawn);
    }
    (screen, board, drawn)
}

/// Everything inside the window; no text cut at its sides by a panel or overlapping another; the
/// board's area a fair share of the window and clear of every text.
fn check(what: &str, size: (f32, f32), screen: Rect, board: Rect, drawn: &[Drawn]) {
    check_texts(what, size, screen, drawn, board);
    check_board(what, size, screen, board);
}

/// A page without a board (title, settings, profile): everything inside the window, no text
/// cut at its sides or overlapping another.
fn check_page(what: &str, size: (f32, f32), screen: Rect, drawn: &[Drawn]) {
    check_texts(what, size, screen, drawn, Rect::NOTHING);
}

fn check_texts(what: &str, size: (f32, f32), screen: Rect, drawn: &[Drawn], board: Rect) {
    let tol = 0.5;
    let inside = |r: Rect| {
        r.min.x >= screen.min.x - tol
            && r.min.y >= screen.min.y - tol
            && r.max.x <= screen.max.x + tol
            && r.max.y <= screen.max.y + tol
    };
    let texts: Vec<&Drawn> = drawn
        .iter()
        .filter(|d| {
            d.text.as_deref().is_some_and(|t| !t.trim().is_empty()) && d.visible.is_positive()
        })
        .collect();
    assert!(
        texts.len() > 5,
        "{what} at {size:?}: only {} texts drawn",
        texts.len()
    );
    for d in drawn.iter().filter(|d| d.visible.is_positive()) {
        assert!(
            inside(d.visible),
            "{what} at {size:?}: {:?} at {:?} outside the window {screen:?}",
            d.text,
            d.visible
        );
    }
    for d in &texts {
        let t = d.text.as_deref().unwrap_or_default();
        // Clipped left or right means cut off; above or below is a scroll area's edge.
        assert!(
            d.visible.width() >= d.bounds.width() - 1.0,
            "{what} at {size:?}: {t:?} cut at the side ({:?} of {:?})",
            d.visible,
            d.bounds
        );
        let over = d.visible.intersect(board);
        assert!(
            !over.is_positive() || over.area() < 2.0,
            "{what} at {size:?}: {t:?} at {:?} over the board {board:?}",
            d.visible
        );
    }
    for (i, a) in texts.iter().enumerate() {
        for b in &texts[i + 1..] {
            let o = a.visible.intersect(b.visible);
            assert!(
                !o.is_positive() || o.area() < 4.0,
                "{what} at {size:?}: {:?} at {:?} overlaps {:?} at {:?}",
                a.text,
                a.visible,
                b.text,
                b.visible
            );
        }
    }
}

fn check_board(what: &str, size: (f32, f32), screen: Rect, board: Rect) {
    let tol = 0.5;
    let inside = |r: Rect| {
        r.min.x >= screen.min.x - tol
            && r.min.y >= screen.min.y - tol
            && r.max.x <= screen.max.x + tol
            && r.max.y <= screen.max.y + tol
    };
    assert!(
        inside(board),
        "{what} at {size:?}: board {board:?} outside {screen:?}"
    );
    let share = board.area() / screen.area();
    assert!(
        share > 0.3,
        "{what} at {size:?}: the board has {share:.2} of the window"
    );
    if Form::of(bevy::math::Vec2::new(size.0, size.1)) == Form::Portrait {
        assert!(
            board.width() >= screen.width() - 1.0,
            "{what} at {size:?}: board not full width"
        );
    }
}

/// A crowded game: a marker menu open, a confirmation asked, a hint and a message shown.
fn crowded(mut g: ActiveGame) -> ActiveGame {
    g.confirm_resign = true;
    g.status = Some("不能认输：开局 20 步之内".into());
    g.marking = g
        .game_match
        .view
        .pieces()
        .find(|k| k.side != g.game_match.me() && k.at.is_some())
        .and_then(|k| k.at);
    g
}

#[test]
fn the_game_screen_fits_every_size_in_both_languages() {
    let two = crowded(ActiveGame::new(demo::demo_match(Some(40), 5), 3));
    let (four, options) = demo::demo_four_match(demo::FourDemo::Partners, 24, 5);
    let four = crowded(ActiveGame::table(four, options.levels));
    for (name, g) in [("two-player game", &two), ("four-player game", &four)] {
        for lang in [Lang::Zh, Lang::En] {
            for size in SIZES {
                for tab in [HudTab::Log, HudTab::Removed, HudTab::Table] {
                    let mut tab = tab;
                    let (screen, board, drawn) = lay_out(size, |ctx, form| {
                        hud(ctx, g, lang, form, &mut tab, false).board
                    });
                    check(
                        &format!("{name} ({lang:?}, {tab:?})"),
                        size,
                        screen,
                        board,
                        &drawn,
                    );
                }
            }
        }
    }
}

#[test]
fn the_setup_screen_fits_every_size_in_both_languages() {
    // The last: the LAN host's form with the big board chosen (its note on flip shown).
    for (table, lan_host) in [
        (Table::Two, false),
        (Table::Four, false),
        (Table::TwoOnBig, true),
    ] {
        for lang in [Lang::Zh, Lang::En] {
            for size in SIZES {
                for tab in [SetupTab::Layout, SetupTab::Options] {
                    let mut state = SetupState {
                        lan_host,
                        ..SetupState::default()
                    };
                    state.options.set_table(table);
                    state.options.seat = Side::South;
                    state.saved = vec!["我的布阵".into(), "layout 2".into()];
                    state.message = Some(("布阵合法".into(), false));
                    let mut tab = tab;
                    let (screen, board, drawn) = lay_out(size, |ctx, form| {
                        setup_panels(ctx, &mut state, lang, form, &mut tab).board
                    });
                    check(
                        &format!("setup {table:?} ({lang:?}, {tab:?})"),
                        size,
                        screen,
                        board,
                        &drawn,
                    );
                }
            }
        }
    }
}

/// The check itself fails on what it is there to catch: text over text, text cut at a panel's
/// side, a board squeezed out.
#[test]
fn the_check_sees_overlaps_cuts_and_a_squeezed_board() {
    let size = (720.0, 1600.0);
    let attempt = |draw: fn(&mut egui::Ui)| {
        let (screen, board, drawn) = lay_out(size, |ctx, _| {
            let mut root = theme::root_ui(ctx);
            egui::Panel::top("t").show(&mut root, |ui| {
                for i in 0..6 {
                    ui.label(format!("line {i}"));
                }
                draw(ui);
            });
            root.available_rect_before_wrap()
        });
        std::panic::catch_unwind(|| check("probe", size, screen, board, &drawn)).is_ok()
    };
    assert!(attempt(|_| {}));
    assert!(!attempt(|ui| {
        let r = ui.max_rect();
        ui.put(
            egui::Rect::from_min_size(r.min, egui::vec2(60.0, 16.0)),
            egui::Label::new("over line 0"),
        );
    }));
    assert!(!attempt(|ui| {
        ui.horizontal(|ui| {
            ui.add_space(ui.available_width() - 20.0);
            ui.add(egui::Label::new("a long text cut at the side").extend());
        });
    }));
    assert!(!attempt(|ui| {
        ui.add_space(800.0);
    }));
}

/// The same texts at the same places: what a player points at in `calm` has not moved in
/// `busy` (the same screen with messages shown), and the board has kept its place and size.
/// A text whose wording changed (a counter) is not compared.
fn nothing_moved(what: &str, calm: &(Rect, Vec<Drawn>), busy: &(Rect, Vec<Drawn>)) {
    let close = |a: Rect, b: Rect| (a.min - b.min).length() < 0.5 && (a.max - b.max).length() < 0.5;
    assert!(
        calm.0 == Rect::NOTHING || close(calm.0, busy.0),
        "{what}: the board moved from {:?} to {:?}",
        calm.0,
        busy.0
    );
    let mut compared = 0;
    for d in calm.1.iter().filter(|d| d.visible.is_positive()) {
        let Some(text) = d.text.as_deref().filter(|t| !t.trim().is_empty()) else {
            continue;
        };
        let same: Vec<&Drawn> = busy
            .1
            .iter()
            .filter(|b| b.text.as_deref() == Some(text))
            .collect();
        if same.is_empty() {
            continue;
        }
        compared += 1;
        assert!(
            same.iter().any(|b| close(b.bounds, d.bounds)),
            "{what}: {text:?} moved from {:?} to {:?}",
            d.bounds,
            same.iter().map(|b| b.bounds).collect::<Vec<_>>()
        );
    }
    assert!(compared > 5, "{what}: only {compared} texts compared");
}

/// A message appearing (a hint, a refusal, a confirmation, a draw offer; the setup's refusal;
/// a damaged record; the review's move) moves neither the board nor a control, at any size.
#[test]
fn a_message_appearing_moves_nothing_a_player_points_at() {
    let calm = ActiveGame::new(demo::demo_match(Some(40), 5), 3);
    let mut busy = calm.clone();
    busy.say("前 20 步不能认输".to_owned());
    busy.confirm_resign = true;
    busy.hint = Some(junqi_game::ai::Hint {
        mv: junqi_game::Move::Flip {
            at: junqi_game::Point(0),
        },
        // The longest reason the engine gives: an attack with the likely rank.
        reason: junqi_game::ai::HintReason::Attack {
            from: junqi_game::PointName {
                half: Some(junqi_game::Side::South),
                row: 3,
                col: 4,
            },
            to: junqi_game::PointName {
                half: Some(junqi_game::Side::North),
                row: 5,
                col: 1,
            },
            likely: Some((junqi_game::Rank::Battalion, 45)),
        },
        wins: false,
    });
    busy.ai_offer = Some(busy.game_match.me().opponent());
    for lang in [Lang::Zh, Lang::En] {
        for size in SIZES {
            let run = |g: &ActiveGame| {
                let mut tab = HudTab::Log;
                let (_, board, drawn) = lay_out(size, |ctx, form| {
                    hud(ctx, g, lang, form, &mut tab, false).board
                });
                (board, drawn)
            };
            nothing_moved(
                &format!("game ({lang:?}) at {size:?}"),
                &run(&calm),
                &run(&busy),
            );
            let setup = |message: Option<(String, bool)>| {
                let mut state = SetupState {
                    message,
                    ..Default::default()
                };
                let mut tab = SetupTab::Layout;
                let (_, board, drawn) = lay_out(size, |ctx, form| {
                    setup_panels(ctx, &mut state, lang, form, &mut tab).board
                });
                (board, drawn)
            };
            let refusal = "不能交换：炸弹不能放在第一行（第 1 行第 3 列）；地雷只能放在最后两行（第 2 行第 1 列）";
            nothing_moved(
                &format!("setup ({lang:?}) at {size:?}"),
                &setup(None),
                &setup(Some((refusal.into(), true))),
            );
        }
    }
}

/// A finished demo game as the app saves it.
fn finished() -> crate::game_match::GameFile {
    demo::demo_match(None, 11).saved().expect("a local game")
}

/// The title (with 继续上局 and two damaged-file notices), settings (with a damaged file and a
/// save), profile, replay and review screens fit every size in both languages: nothing cut or
/// overlapping, 退出 and every board colour in view, the notices in the warning colour.
#[test]
fn the_other_screens_fit_every_size_in_both_languages() {
    use super::title::{TitleView, title_panels};
    use crate::settings::{Settings, SettingsStatus};
    use crate::storage::StoreError;
    let damaged = |name: &str| StoreError::MovedAside {
        to: std::path::PathBuf::from(format!("/data/junqi/{name}.damaged-1.json")),
        detail: "EOF while parsing".into(),
    };
    let root = std::env::temp_dir().join(format!("junqi-layout-replay-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let dir = crate::storage::DataDir(root.clone());
    std::fs::create_dir_all(dir.records()).unwrap();
    let game = finished();
    for i in 0..12 {
        let path = dir.records().join(format!("game-17000000{i:02}.json"));
        crate::storage::save_json(&path, &game).unwrap();
    }
    std::fs::write(dir.records().join("game-1700000099.json"), "{").unwrap();
    let mut profile = crate::profile::Profile::default();
    for (key, outcome) in [
        ("ai-1", crate::profile::WinLossDraw::Win),
        ("ai-4", crate::profile::WinLossDraw::Loss),
        ("four:4-2-2", crate::profile::WinLossDraw::Draw),
        ("lan:xiaozhang-pc", crate::profile::WinLossDraw::Win),
    ] {
        profile.record(key, outcome, 1);
    }
    for lang in [Lang::Zh, Lang::En] {
        let notices = vec![
            damaged("settings").notice("err.settings_damaged", lang),
            damaged("profile").notice("err.profile_damaged", lang),
        ];
        for size in SIZES {
            // Title.
            let view = TitleView {
                resumable: Some(8),
                notices: notices.clone(),
            };
            let (screen, _, drawn) = lay_out(size, |ctx, _| {
                title_panels(ctx, &view, lang);
                Rect::NOTHING
            });
            let what = format!("title ({lang:?}) at {size:?}");
            check_page(&what, size, screen, &drawn);
            let quit = drawn
                .iter()
                .find(|d| d.text.as_deref() == Some(lang.t("menu.quit")))
                .unwrap_or_else(|| panic!("{what}: no 退出"));
            assert!(
                quit.visible.height() >= quit.bounds.height() - 0.5,
                "{what}: 退出 cut off at {:?}",
                quit.visible
            );
            for n in &notices {
                let d = drawn
                    .iter()
                    .find(|d| d.text.as_deref() == Some(n.as_str()))
                    .unwrap_or_else(|| panic!("{what}: {n} not shown"));
                assert_eq!(d.colour, Some(theme::palette::WARN), "{what}: {n}");
            }

            // Settings.
            let status = SettingsStatus {
                loaded: Some(damaged("settings")),
                saved: Some(Ok(())),
            };
            let mut settings = Settings::default();
            let (screen, _, drawn) = lay_out(size, |ctx, _| {
                super::settings::settings_page(ctx, &mut settings, &status, lang);
                Rect::NOTHING
            });
            let what = format!("settings ({lang:?}) at {size:?}");
            check_page(&what, size, screen, &drawn);
            for t in crate::settings::BoardTheme::ALL {
                let name = lang.t(t.key());
                let d = drawn
                    .iter()
                    .find(|d| d.text.as_deref() == Some(name))
                    .unwrap_or_else(|| panic!("{what}: {name} not drawn"));
                assert!(
                    d.visible.width() >= d.bounds.width() - 0.5 && d.visible.is_positive(),
                    "{what}: {name} out of reach at {:?}",
                    d.bounds
                );
            }
            let notice = &notices[0];
            let d = drawn
                .iter()
                .find(|d| d.text.as_deref() == Some(notice.as_str()))
                .unwrap_or_else(|| panic!("{what}: the damaged file is not reported"));
            assert_eq!(d.colour, Some(theme::palette::WARN), "{what}: not green");

            // Profile.
            let status = crate::profile::ProfileStatus(Some(damaged("profile")), Some(3));
            let (screen, _, drawn) = lay_out(size, |ctx, _| {
                super::profile::profile_page(ctx, &profile, &status, lang);
                Rect::NOTHING
            });
            check_page(
                &format!("profile ({lang:?}) at {size:?}"),
                size,
                screen,
                &drawn,
            );

            // Replay, a record open at its middle.
            let mut state = super::replay::ReplayState::default();
            state.list(&dir);
            state.open_file(&dir, "game-1700000003").unwrap();
            state.step = state.len() / 2;
            let (screen, board, drawn) = lay_out(size, |ctx, form| {
                super::replay::replay_panels(ctx, &mut state, &dir, lang, form).board
            });
            check(
                &format!("replay ({lang:?}) at {size:?}"),
                size,
                screen,
                board,
                &drawn,
            );

            // Review, at a move in the middle.
            let mut review = super::review::ReviewState::default();
            review.open(game.clone(), super::Screen::Replay);
            review.step = review.len() / 2;
            let settings = Settings::default();
            let (screen, board, drawn) = lay_out(size, |ctx, form| {
                super::review::review_panels(ctx, &mut review, &settings, lang, form).board
            });
            check(
                &format!("review ({lang:?}) at {size:?}"),
                size,
                screen,
                board,
                &drawn,
            );
        }
    }
    let _ = std::fs::remove_dir_all(&root);
}

/// Four-seat LAN tables: the lobby's list of tables with their seat buttons, the host's seat
/// setup, the wait for players, the pairing code with the seat table and the rules line, and the
/// game screen's seat table with the players' names and links.
#[test]
fn the_table_lobby_and_the_seat_table_fit_every_size_in_both_languages() {
    use super::lobby::LobbyState;
    use super::lobby_table::{SeatChoice, TableLobby, TablePhase, Way, browse_ui, panel_ui};
    use junqi_net::discovery::{Discovery, HostInfo, read_seats};
    use junqi_net::table_handle::{SeatInfo, computer_name, partner_computer_name};

    let mut lobby = LobbyState::default();
    for (name, rules, seats, ip) in [
        ("junqi-dave", "dark 60s", None, 5),
        (
            "junqi-gina-on-a-phone",
            "open 45s big no-inference",
            None,
            13,
        ),
        ("junqi-alice", "four dark 30s", Some("ENW"), 7),
        ("junqi-gina", "four partners 30s", Some("NW+E4"), 13),
        (
            "junqi-erin-with-a-long-name",
            "four partners 30s",
            Some("E"),
            9,
        ),
        ("junqi-frank", "four open 30s", Some("-"), 11),
    ] {
        lobby.apply(Discovery::Found(HostInfo {
            fullname: format!("{name}._junqi._udp.local."),
            name: name.into(),
            version: 1,
            rules: rules.into(),
            addrs: vec![std::net::SocketAddr::from(([192, 168, 1, ip], 4433))],
            free_seats: seats.and_then(|s| {
                let (free, with) = s.split_once('+').unwrap_or((s, ""));
                read_seats(Some(free), (!with.is_empty()).then_some(with))
            }),
        }));
    }
    let seat = |name: &str, link| SeatInfo {
        name: Some(name.into()),
        link,
        ..SeatInfo::default()
    };
    // Every kind of line: a computer on the host, one on its partner's device, a hand-over.
    let mut seats = [
        seat("junqi-alice", Some(true)),
        seat(&computer_name(4), Some(true)),
        seat("junqi-bob-on-a-phone", Some(false)),
        seat(&partner_computer_name(1), Some(true)),
    ];
    seats[2].hand_over = true;
    let mut phases = vec![
        ("table list", TablePhase::Idle),
        ("table setup", TablePhase::Setup),
        ("table waiting", TablePhase::Waiting { port: Some(52011) }),
        (
            "table pairing",
            TablePhase::Pairing {
                code: "482-913".into(),
                rules: Way::Partners.rules(),
                confirmed: false,
            },
        ),
    ];
    phases.push((
        "table confirmed",
        TablePhase::Pairing {
            code: "482-913".into(),
            rules: Way::Dark.rules(),
            confirmed: true,
        },
    ));
    for lang in [Lang::Zh, Lang::En] {
        for size in SIZES {
            for (what, phase) in &phases {
                let mut table = TableLobby {
                    phase: phase.clone(),
                    seats: seats.clone(),
                    seat: Some(junqi_net::four::FourSeat::North),
                    ..Default::default()
                };
                table.setup.seats = [
                    SeatChoice::Computer(4),
                    SeatChoice::Player,
                    SeatChoice::Computer(1),
                ];
                let (screen, _, drawn) = lay_out(size, |ctx, _| {
                    theme::page(ctx, lang.t("menu.back"), lang.t("lobby.title"), |ui| {
                        let mut out = Vec::new();
                        if table.busy() {
                            panel_ui(ui, &mut table, "junqi-alice", lang, &mut out);
                        } else {
                            // The two-player games above the tables, as the lobby shows them.
                            let mut joins = Vec::new();
                            super::lobby::host_list_ui(ui, &lobby, lang, &mut joins);
                            browse_ui(ui, &lobby, &table, lang, &mut out);
                        }
                    });
                    Rect::NOTHING
                });
                check_page(
                    &format!("{what} ({lang:?}) at {size:?}"),
                    size,
                    screen,
                    &drawn,
                );
            }
            // The game: the seat table with the players' names and links.
            let (four, _) = demo::demo_four_match(demo::FourDemo::Dark, 24, 5);
            let lan = crate::model::LanGame {
                peer: "junqi-bob · junqi-carol".into(),
                code: "482-913".into(),
                connected: false,
                table: Some(Box::new(crate::model::LanTable {
                    host: false,
                    seats: seats.clone(),
                    ..Default::default()
                })),
                ..Default::default()
            };
            let g = ActiveGame::lan(four, lan);
            for tab in [HudTab::Log, HudTab::Removed, HudTab::Table] {
                let mut tab = tab;
                let (screen, board, drawn) = lay_out(size, |ctx, form| {
                    hud(ctx, &g, lang, form, &mut tab, false).board
                });
                check(
                    &format!("LAN table game ({lang:?}, {tab:?}) at {size:?}"),
                    size,
                    screen,
                    board,
                    &drawn,
                );
                if tab == HudTab::Table || size.0 > size.1 {
                    assert!(
                        drawn
                            .iter()
                            .any(|d| d.text.as_deref().is_some_and(|t| t.starts_with("○bob"))),
                        "the seat table names the players ({lang:?}, {tab:?}, {size:?})"
                    );
                }
            }
        }
    }
}
