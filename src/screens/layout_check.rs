//! Layout tests: the game and setup screens' panels laid out by egui at the phone, phone
//! landscape and desktop sizes, without a window, and every piece of text and every widget
//! checked against the window, the other texts and the board's area.

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

/// A shape as drawn: its bounds, what of it the clip leaves visible, and its text if any.
struct Drawn {
    bounds: Rect,
    visible: Rect,
    text: Option<String>,
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
            let text = match s {
                Shape::Text(t) => Some(t.galley.text().to_owned()),
                _ => None,
            };
            out.push(Drawn {
                bounds,
                visible: bounds.intersect(clip),
                text,
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
    for table in [Table::Two, Table::Four] {
        for lang in [Lang::Zh, Lang::En] {
            for size in SIZES {
                for tab in [SetupTab::Layout, SetupTab::Options] {
                    let mut state = SetupState::default();
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
