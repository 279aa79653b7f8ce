//! Drawing the board with sprites, meshes and `Text2d`: railways as thick black-and-white dashed
//! lines, roads as thin lines, camps as circles, headquarters marked, the mountain line between
//! the halves; piece tiles in two colours; highlights; short battle effects.

use bevy::prelude::*;
use junqi_game::{PointKind, Side};

use super::{BoardScene, BoardView, Colour, CurrentView, Face, TileAt};

use crate::{settings::Settings, theme::Fonts};

/// How many times the board has been redrawn (for the diagnostics).
pub static REDRAWS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

/// Marks every entity of the drawn board (despawned and redrawn when the scene changes).
#[derive(Component)]
struct BoardPart;

pub(super) fn plugin(app: &mut App) {
    app
        // Before transforms and visibility are computed: a board spawned after them is not
        // rendered until something else changes (seen in LAN games, whose scene changes rarely).
        .add_systems(
            PostUpdate,
            redraw
                .after(super::track_view)
                .before(bevy::transform::TransformSystems::Propagate)
                .before(bevy::camera::visibility::VisibilitySystems::CalculateBounds),
        );
}

fn srgb(c: [u8; 3]) -> Color {
    Color::srgb_u8(c[0], c[1], c[2])
}

/// Redraws the board when the scene, the view or the settings change.
#[allow(clippy::too_many_arguments)]
fn redraw(
    mut commands: Commands,
    scene: Res<BoardScene>,
    current: Res<CurrentView>,
    settings: Res<Settings>,
    fonts: Option<Res<Fonts>>,
    parts: Query<Entity, With<BoardPart>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    mut last: Local<Option<(BoardScene, Option<BoardView>, Settings)>>,
) {
    let Some(fonts) = fonts else { return };
    let view = current.0;
    let key = (scene.clone(), view, settings.clone());
    if last.as_ref() == Some(&key) {
        return;
    }
    *last = Some(key);
    REDRAWS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    for e in &parts {
        commands.entity(e).despawn();
    }
    let Some(view) = view else { return };
    Drawer {
        commands: &mut commands,
        meshes: &mut meshes,
        materials: &mut materials,
        fonts: &fonts,
        view,
        settings: &settings,
        circle: None,
        colour_materials: Default::default(),
        tile_at: None,
    }
    .draw(&scene);
}

struct Drawer<'a, 'w, 's> {
    commands: &'a mut Commands<'w, 's>,
    meshes: &'a mut Assets<Mesh>,
    materials: &'a mut Assets<ColorMaterial>,
    fonts: &'a Fonts,
    view: BoardView,
    settings: &'a Settings,
    circle: Option<Handle<Mesh>>,
    colour_materials: std::collections::HashMap<[u8; 4], Handle<ColorMaterial>>,
    /// The piece whose tile is being drawn: its parts are tagged, so that a move can slide them.
    tile_at: Option<junqi_game::Point>,
}

impl Drawer<'_, '_, '_> {
    /// Spawns one part of the board at `at`, tagged with the piece being drawn, if any.
    fn part(&mut self, at: Vec2, bundle: impl Bundle) {
        let mut e = self.commands.spawn((BoardPart, bundle));
        if let Some(point) = self.tile_at {
            e.insert(TileAt { point, base: at });
        }
    }

    fn rect(&mut self, at: Vec2, size: Vec2, z: f32, color: Color) {
        self.part(
            at,
            (
                Sprite::from_color(color, size),
                Transform::from_translation(at.extend(z)),
            ),
        );
    }

    fn line(&mut self, a: Vec2, b: Vec2, width: f32, z: f32, color: Color) {
        let d = b - a;
        self.commands.spawn((
            BoardPart,
            Sprite::from_color(color, Vec2::new(d.length(), width)),
            Transform::from_translation(((a + b) / 2.0).extend(z))
                .with_rotation(Quat::from_rotation_z(d.y.atan2(d.x))),
        ));
    }

    fn ellipse(&mut self, at: Vec2, radii: Vec2, z: f32, color: Color) {
        // One circle mesh and one material per colour, so that the renderer can batch them.
        let mesh = self
            .circle
            .get_or_insert_with(|| self.meshes.add(Circle::new(1.0)))
            .clone();
        let material = self
            .colour_materials
            .entry(color.to_srgba().to_u8_array())
            .or_insert_with(|| self.materials.add(ColorMaterial::from_color(color)))
            .clone();
        self.part(
            at,
            (
                Mesh2d(mesh),
                MeshMaterial2d(material),
                Transform::from_translation(at.extend(z)).with_scale(radii.extend(1.0)),
            ),
        );
    }

    fn text(&mut self, at: Vec2, z: f32, text: &str, size: f32, color: Color, bold: bool) {
        let font = if bold {
            &self.fonts.bold
        } else {
            &self.fonts.regular
        };
        let font = font.clone();
        self.part(
            at,
            (
                Text2d::new(text),
                TextFont {
                    font: font.into(),
                    font_size: FontSize::Px(size),
                    ..default()
                },
                TextColor(color),
                Transform::from_translation(at.extend(z)),
            ),
        );
    }

    /// A rectangle outline.
    fn frame(&mut self, at: Vec2, size: Vec2, width: f32, z: f32, color: Color) {
        let (hx, hy) = (size.x / 2.0, size.y / 2.0);
        self.rect(
            at + Vec2::new(0.0, hy),
            Vec2::new(size.x + width, width),
            z,
            color,
        );
        self.rect(
            at - Vec2::new(0.0, hy),
            Vec2::new(size.x + width, width),
            z,
            color,
        );
        self.rect(
            at + Vec2::new(hx, 0.0),
            Vec2::new(width, size.y + width),
            z,
            color,
        );
        self.rect(
            at - Vec2::new(hx, 0.0),
            Vec2::new(width, size.y + width),
            z,
            color,
        );
    }

    /// The classic board's ground: one board with the mountain line between the halves.
    fn classic_ground(&mut self, scene: &BoardScene, board_col: Color, line_col: Color) {
        let v = self.view;
        let s = v.sy;
        let top = v.grid_to_world(Vec2::new(4.0, BoardView::ROWS));
        let bottom = v.grid_to_world(Vec2::new(0.0, 0.0));
        let size = (top - bottom).abs() + Vec2::new(v.sx * 1.2, s * 1.1);
        let mid = (top + bottom) / 2.0;
        // Outlines are drawn as strips, not as a filled rectangle under the fill: a software
        // renderer pays for every pixel of overdraw.
        self.frame(mid, size + Vec2::splat(s * 0.08), s * 0.08, 0.0, line_col);
        self.rect(mid, size, 0.1, board_col);
        if scene.dim_enemy_half {
            let enemy_mid = v.grid_to_world(Vec2::new(2.0, 8.5 + super::GAP));
            let h = 6.0 * s;
            self.rect(
                enemy_mid,
                Vec2::new(size.x, h),
                0.15,
                Color::srgba(0.0, 0.0, 0.0, 0.28),
            );
        }

        // The mountain line: a band between the halves, labelled.
        let band_y = v
            .grid_to_world(Vec2::new(2.0, 5.0 + (1.0 + super::GAP) / 2.0))
            .y;
        self.rect(
            Vec2::new(mid.x, band_y),
            Vec2::new(size.x, s * super::GAP * 0.9),
            0.2,
            board_col.darker(0.08),
        );
        for gx in [1.0, 3.0] {
            let x = v.grid_to_world(Vec2::new(gx, 0.0)).x;
            self.text(Vec2::new(x, band_y), 0.3, "山 界", s * 0.34, line_col, true);
        }
    }

    /// The four-player board's ground: a cross of four halves, each tinted in its seat's
    /// colour (dimmed when nobody plays it or its player is out), and the 九宫 centre.
    fn four_ground(&mut self, scene: &BoardScene, board_col: Color, line_col: Color) {
        let v = self.view;
        let s = v.sy;
        let board = v.board();
        for side in Side::FOUR {
            let pts: Vec<Vec2> = board
                .setup_points(side)
                .iter()
                .map(|&p| v.world(p))
                .collect();
            let (min, max) = pts.iter().fold(
                (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN)),
                |(a, b), &p| (a.min(p), b.max(p)),
            );
            let mid = (min + max) / 2.0;
            let size = max - min + Vec2::splat(s * 0.95);
            let tint = srgb(Colour::of_seat(side).rgb());
            let ground = board_col.mix(&tint, 0.12);
            self.frame(mid, size, s * 0.06, 0.0, line_col);
            self.rect(mid, size - Vec2::splat(s * 0.06), 0.1, ground);
            let dim = scene.dim_halves.contains(&side)
                || (scene.dim_enemy_half && Some(side) != scene.bottom);
            if dim {
                // Over the stations too (they are drawn at z 2), under the pieces (z 4).
                self.rect(mid, size, 3.5, Color::srgba(0.1, 0.08, 0.06, 0.45));
            }
        }
        // The centre: the square between the halves' front rows.
        let c = v.grid_to_world(Vec2::splat(BoardView::FOUR / 2.0));
        let size = Vec2::splat(s * 5.0);
        self.frame(c, size, s * 0.06, 0.0, line_col);
        self.rect(c, size - Vec2::splat(s * 0.06), 0.1, board_col.darker(0.04));
    }

    fn draw(&mut self, scene: &BoardScene) {
        let v = self.view;
        let board = v.board();
        let (_, board_rgb, line_rgb) = self.settings.theme.colours();
        let (board_col, line_col) = (srgb(board_rgb), srgb(line_rgb));
        let s = v.sy;

        if v.four {
            self.four_ground(scene, board_col, line_col);
        } else {
            self.classic_ground(scene, board_col, line_col);
        }

        // Roads: thin lines.
        let road_w = (s * 0.04).max(1.5);
        for &(a, b) in board.road_edges() {
            self.line(v.world(a), v.world(b), road_w, 1.0, line_col);
        }
        // Railways: thick black lines with white dashes.
        let rail_w = (s * 0.13).max(4.0);
        let mut drawn = std::collections::HashSet::new();
        for line in board.rail_lines() {
            for w in line.windows(2) {
                // Lines through the centre share edges: draw each once.
                if !drawn.insert((w[0].min(w[1]), w[0].max(w[1]))) {
                    continue;
                }
                let path = self.view.edge_path(w[0], w[1]);
                let curved = path.len() > 2;
                for seg in path.windows(2) {
                    let (a, b) = (seg[0], seg[1]);
                    // Arc segments overlap a little so the curve has no gaps.
                    let (a, b) = if curved {
                        let e = (b - a).normalize_or_zero() * rail_w * 0.25;
                        (a - e, b + e)
                    } else {
                        (a, b)
                    };
                    self.line(a, b, rail_w, 1.1, Color::srgb(0.08, 0.08, 0.08));
                }
                for (i, seg) in path.windows(2).enumerate() {
                    let (a, b) = (seg[0], seg[1]);
                    if curved {
                        // Every other arc segment white: the same dashes as a straight rail.
                        if i % 2 == 1 {
                            self.line(a, b, rail_w * 0.5, 1.2, Color::srgb(0.95, 0.95, 0.95));
                        }
                        continue;
                    }
                    let d = b - a;
                    let n = ((d.length() / (s * 0.45)).round() as i32).max(2);
                    for i in 0..n {
                        if i % 2 == 1 {
                            let p0 = a + d * (i as f32 / n as f32);
                            let p1 = a + d * ((i as f32 + 1.0) / n as f32);
                            self.line(p0, p1, rail_w * 0.5, 1.2, Color::srgb(0.95, 0.95, 0.95));
                        }
                    }
                }
            }
        }

        // Points: stations as boxes, camps as circles, headquarters as rounded marked boxes.
        let tile = v.tile_size();
        for p in board.points() {
            let at = v.world(p);
            match board.kind(p) {
                // A piece's tile hides the whole station box under it.
                PointKind::Station if scene.tile(p).is_some() => {}
                PointKind::Station => {
                    let edge = road_w * 0.8;
                    self.frame(at, tile * 0.86 - Vec2::splat(edge), edge, 2.0, line_col);
                    self.rect(
                        at,
                        tile * 0.86 - Vec2::splat(edge * 2.0),
                        2.1,
                        board_col.lighter(0.06),
                    );
                }
                PointKind::Camp => {
                    let r = Vec2::new(tile.x * 0.5, tile.y * 0.62);
                    self.ellipse(at, r, 1.8, line_col);
                    self.ellipse(
                        at,
                        r - Vec2::splat(road_w * 1.3),
                        1.9,
                        board_col.lighter(0.1),
                    );
                }
                PointKind::Headquarters => {
                    let r = Vec2::new(tile.x * 0.56, tile.y * 0.62);
                    self.ellipse(at, r + Vec2::splat(road_w), 1.8, line_col);
                    self.ellipse(at, r - Vec2::splat(road_w * 0.6), 1.9, srgb([200, 150, 90]));
                    self.text(at, 2.2, "大本营", s * 0.26, line_col, true);
                }
            }
        }

        // Each seat's latest move in its colour (four players), under the other highlights.
        for &(a, b, colour) in &scene.seat_moves {
            let c = srgb(colour.rgb()).lighter(0.15);
            self.frame(v.world(a), tile + Vec2::splat(3.0), 3.0, 2.9, c);
            self.frame(v.world(b), tile + Vec2::splat(3.0), 3.0, 2.9, c);
        }
        // Highlights under the pieces: the last move, a hint, a refused swap.
        for (points, grow, width, z, colour) in [
            (&scene.last_move, 6.0, 4.0, 3.0, Color::srgb(1.0, 0.55, 0.1)),
            (&scene.hint, 10.0, 4.0, 3.1, Color::srgb(0.2, 0.85, 0.95)),
            (&scene.warn, 8.0, 5.0, 3.2, Color::srgb(0.95, 0.1, 0.1)),
        ] {
            for &p in points {
                self.frame(v.world(p), tile + Vec2::splat(grow), width, z, colour);
            }
        }

        // Pieces.
        for (p, t) in &scene.pieces {
            self.tile_at = Some(*p);
            let at = v.world(*p);
            let (fill, ink) = (srgb(t.colour.rgb()), Color::WHITE);
            // Shadow (only where it shows: right and below), edge, face.
            let shadow = Color::srgba(0.0, 0.0, 0.0, 0.35);
            self.rect(
                at + Vec2::new(tile.x / 2.0 + 1.0, -3.0),
                Vec2::new(2.0, tile.y),
                4.0,
                shadow,
            );
            self.rect(
                at + Vec2::new(1.0, -tile.y / 2.0 - 1.5),
                Vec2::new(tile.x - 2.0, 3.0),
                4.0,
                shadow,
            );
            let edge = s * 0.04;
            self.frame(at, tile - Vec2::splat(edge), edge, 4.1, fill.darker(0.18));
            self.rect(at, tile - Vec2::splat(edge * 2.0), 4.2, fill);
            match t.face {
                Face::Rank(rank) => {
                    let label = if scene.show_nicknames {
                        rank.nickname()
                    } else {
                        rank.zh_name()
                    };
                    self.text(at, 4.3, label, s * 0.38, ink, true);
                }
                Face::Back => {
                    self.rect(at, tile * Vec2::new(0.62, 0.5), 4.25, fill.lighter(0.08));
                    self.frame(
                        at,
                        tile * Vec2::new(0.62, 0.5),
                        1.5,
                        4.28,
                        ink.with_alpha(0.5),
                    );
                }
                Face::FaceDown => {
                    self.frame(
                        at,
                        tile * Vec2::new(0.7, 0.56),
                        1.5,
                        4.28,
                        ink.with_alpha(0.6),
                    );
                    self.text(at, 4.35, "军", s * 0.3, ink.with_alpha(0.55), true);
                }
            }
            if let Some(m) = &t.marker {
                let badge = at + Vec2::new(tile.x * 0.42, tile.y * 0.42);
                self.ellipse(badge, Vec2::splat(s * 0.2), 4.6, srgb([250, 220, 90]));
                self.text(badge, 4.7, m, s * 0.2, Color::BLACK, true);
            }
        }
        self.tile_at = None;

        // Point names, as the move log writes them, in a corner of each point (settings).
        if self.settings.coordinates {
            let ink = line_col.with_alpha(0.85);
            for p in board.points() {
                let at = v.world(p) + Vec2::new(-tile.x * 0.3, -tile.y * 0.62);
                let name = board.name_of(p).to_string();
                self.text(at, 4.9, &name, (s * 0.2).max(8.0), ink, false);
            }
        }

        // Selection and targets on top.
        if let Some(p) = scene.selected {
            self.frame(
                v.world(p),
                tile + Vec2::splat(4.0),
                4.0,
                5.0,
                Color::srgb(1.0, 0.9, 0.1),
            );
        }
        for &p in &scene.targets {
            let at = v.world(p);
            if scene.tile(p).is_some() {
                self.frame(
                    at,
                    tile + Vec2::splat(2.0),
                    4.0,
                    5.0,
                    Color::srgb(0.95, 0.2, 0.2),
                );
            } else {
                self.ellipse(
                    at,
                    Vec2::splat(s * 0.16),
                    5.0,
                    Color::srgba(0.1, 0.7, 0.2, 0.9),
                );
            }
        }
    }
}
