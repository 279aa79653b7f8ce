//! A game against the computer or a LAN peer (`Opponent`): click a piece to see its legal targets, click a target (or drag
//! the piece) to move; battles announced on the board and in the log; the last move highlighted;
//! the per-move clock; resign, offer a draw, hint; private markers on enemy pieces; removed
//! pieces; the computer thinks on the async compute pool; in a LAN game the player's decisions
//! go to the LAN plugin as [`LanRequest`]s and the peer's moves arrive as its events
//! ([`crate::lan::play`]).

use std::time::Duration;

use bevy::{
    prelude::*,
    tasks::{Task, block_on, futures_lite::future},
};
use bevy_egui::EguiContexts;
use junqi_game::ai::{concede, inference::Inference};
use junqi_game::{Action, Move, Seen, Side};
use junqi_net::peer::PeerCmd;

use super::game_hud::{GameAction, HudTab, hud, seats_in_order};
use super::{Navigate, Screen};
use crate::{
    ai::{self, Thought},
    board::{
        BoardArea, BoardClick, BoardDrag, BoardEffect, BoardLongPress, BoardScene, BoardZoom,
        Colour, Face, Tile,
    },
    form::Form,
    game_match::{GameFile, LogEntry, Match, action_error_text, seat_key},
    game_text::rank_short,
    i18n::Lang,
    lan::LanRequest,
    model::{ActiveGame, LastGame, NotSaved},
    profile::Profile,
    redraw::{self, Redraw, Waker},
    settings::{PieceColour, Settings},
    storage::{self, DataDir},
};

/// A computation on the async pool (the computer's move or a hint).
#[derive(Component)]
struct Thinking {
    task: Task<Thought>,
    hint: bool,
}

pub(super) fn plugin(app: &mut App) {
    app.add_message::<GameAction>();
    app.add_systems(Update, save_lan_record);
    app.add_systems(OnExit(Screen::Game), exit).add_systems(
        Update,
        (
            input,
            actions,
            start_ai,
            poll_ai,
            clock,
            announce_table,
            finish,
            infer,
            show,
        )
            .chain()
            .after(crate::board::BoardInput)
            .run_if(in_state(Screen::Game).and_then(resource_exists::<ActiveGame>)),
    );
    super::add_ui(app, Screen::Game, ui.run_if(resource_exists::<ActiveGame>));
}

fn exit(
    mut commands: Commands,
    mut scene: ResMut<BoardScene>,
    mut zoom: ResMut<BoardZoom>,
    tasks: Query<Entity, With<Thinking>>,
) {
    *scene = BoardScene::default();
    *zoom = BoardZoom::default();
    for e in &tasks {
        commands.entity(e).despawn();
    }
}

/// Plays a move in the match and announces it on the board; in a LAN game, sends it to the
/// network session (the view follows when it is played).
fn play(
    game: &mut ActiveGame,
    mv: Move,
    lang: Lang,
    effects: &mut MessageWriter<BoardEffect>,
    lan: &mut MessageWriter<LanRequest>,
) -> bool {
    if game.game_match.is_remote() {
        if !game.game_match.my_turn() || !game.game_match.view.legal_moves().contains(&mv) {
            return false;
        }
        lan.write(LanRequest::Send(PeerCmd::Play(mv)));
        game.game_match.sent_move();
        game.hint = None;
        game.selected = None;
        return true;
    }
    play_local(game, mv, lang, effects)
}

/// Plays a move through the local referee (the player's or the computer's) and announces it.
fn play_local(
    game: &mut ActiveGame,
    mv: Move,
    lang: Lang,
    effects: &mut MessageWriter<BoardEffect>,
) -> bool {
    match game.game_match.play(mv) {
        Ok(callout) => {
            game.hint = None;
            game.selected = None;
            // Round a four-player table the battle is announced with its seat ([`announce_table`]).
            if let Some(a) = callout.filter(|_| !game.game_match.view.is_team_game())
                && let Some(text) = a.caption(lang)
            {
                effects.write(BoardEffect {
                    at: a.at,
                    text,
                    battle: a.battle(),
                });
            }
            true
        }
        Err(e) => {
            warn!("the referee refused {mv:?}: {e}");
            false
        }
    }
}

fn input(
    mut game: ResMut<ActiveGame>,
    mut clicks: MessageReader<BoardClick>,
    mut drags: MessageReader<BoardDrag>,
    mut long: MessageReader<BoardLongPress>,
    mut effects: MessageWriter<BoardEffect>,
    mut lan: MessageWriter<LanRequest>,
    lang: Res<Lang>,
) {
    // A long press on an enemy piece opens its marker menu.
    for BoardLongPress(p) in long.read() {
        if let Some(Seen::Piece { side, .. }) = game.game_match.view.at(*p)
            && side != game.game_match.me()
        {
            game.selected = None;
            game.marking = Some(*p);
        }
    }
    for BoardClick(p) in clicks.read() {
        if let Some(mv) = game.click(*p) {
            play(&mut game, mv, *lang, &mut effects, &mut lan);
        }
    }
    for d in drags.read() {
        let mv = Move::Step {
            from: d.from,
            to: d.to,
        };
        if game.game_match.my_turn()
            && game.thinking.is_none()
            && game.game_match.moves_from(d.from).contains(&mv)
        {
            play(&mut game, mv, *lang, &mut effects, &mut lan);
        }
    }
}

/// The computer seats other than `offerer` still in answer a standing draw offer in turn order,
/// each from its own view; `true` if all of them accept.
fn answer_draw_for_computers(game: &mut ActiveGame, offerer: Side) -> bool {
    let me = game.game_match.me();
    let answering: Vec<Side> = seats_in_order(&game.game_match.view)
        .into_iter()
        .filter(|&s| s != me && s != offerer && game.game_match.view.is_in(s))
        .collect();
    for seat in answering {
        let for_win = game
            .opponent
            .level(seat)
            .is_some_and(|n| ai::level(n).plays_for_win());
        let yes = game
            .game_match
            .game()
            .is_some_and(|g| concede::answer_draw(&g.view(seat), for_win));
        let answer = if yes {
            Action::AcceptDraw
        } else {
            Action::DeclineDraw
        };
        let _ = game.game_match.act(seat, answer);
        if !yes {
            return false;
        }
    }
    true
}

fn start_ai(mut commands: Commands, mut game: ResMut<ActiveGame>, waker: Res<Waker>) {
    let s = &game.game_match;
    // The computer seats move one at a time, in turn order: the side to move, when it is one.
    if let Some(referee) = s.game()
        && let Some(level) = game.opponent.level(referee.turn())
        && s.result().is_none()
        && referee.turn() != s.me()
        && game.thinking.is_none()
        && game.ai_offer.is_none()
    {
        let view = referee.view(referee.turn());
        let task = ai::think(view, level, rand::random(), waker.clone());
        commands.spawn((Thinking { task, hint: false }, DespawnOnExit(Screen::Game)));
        game.thinking = Some(0.0);
    }
    if game.hint_pending && !game.game_match.my_turn() {
        game.hint_pending = false;
    }
}

/// The computer's move is shown after at least this long, so the player can follow.
const MIN_THINK_SECS: f32 = 0.6;

fn poll_ai(
    mut commands: Commands,
    mut game: ResMut<ActiveGame>,
    mut tasks: Query<(Entity, &mut Thinking)>,
    time: Res<Time>,
    mut effects: MessageWriter<BoardEffect>,
    mut redraw: ResMut<Redraw>,
    lang: Res<Lang>,
) {
    if let Some(t) = game.thinking.as_mut() {
        *t += time.delta_secs();
        // Shown no sooner than this: wake then (an answer found later wakes the app itself).
        if *t < MIN_THINK_SECS {
            redraw.within(Duration::from_secs_f32(MIN_THINK_SECS - *t));
        }
    }
    for (e, mut task) in &mut tasks {
        let waited = game.thinking.is_none_or(|t| t >= MIN_THINK_SECS);
        if !task.task.is_finished() || !(task.hint || waited) {
            continue;
        }
        let Some(thought) = block_on(future::poll_once(&mut task.task)) else {
            continue;
        };
        commands.entity(e).despawn();
        match thought {
            Thought::Turn { concede, mv } => {
                game.thinking = None;
                let s = &game.game_match;
                if s.result().is_none() && s.turn() != s.me() {
                    let seat = s.turn();
                    match concede {
                        Some(Action::Resign)
                            if game.game_match.act(seat, Action::Resign).is_ok() =>
                        {
                            continue;
                        }
                        Some(Action::OfferDraw)
                            if game.game_match.act(seat, Action::OfferDraw).is_ok() =>
                        {
                            // The other computer seats answer at once; the player last, on
                            // the screen; the move waits for the answer.
                            if answer_draw_for_computers(&mut game, seat) {
                                game.ai_offer = Some(seat);
                            }
                            continue;
                        }
                        _ => {}
                    }
                    match mv {
                        Some(mv) => {
                            play_local(&mut game, mv, *lang, &mut effects);
                        }
                        None => {
                            let side = game.game_match.turn();
                            let _ = game.game_match.act(side, Action::Timeout);
                        }
                    }
                }
            }
            Thought::Hint(h) => {
                if game.hint_pending && game.game_match.my_turn() {
                    game.hint = h;
                }
                game.hint_pending = false;
            }
        }
    }
}

fn clock(
    mut commands: Commands,
    mut game: ResMut<ActiveGame>,
    time: Res<Time>,
    tasks: Query<Entity, With<Thinking>>,
    mut redraw: ResMut<Redraw>,
) {
    if game.ai_offer.is_some() {
        return;
    }
    if game.game_match.result().is_none() {
        redraw.within(redraw::next_second(game.game_match.clock));
    }
    if game.game_match.tick(time.delta_secs()) {
        game.selected = None;
        game.thinking = None;
        game.hint = None;
        game.hint_pending = false;
        for e in &tasks {
            commands.entity(e).despawn();
        }
    }
}

/// Four-player games: each battle is announced on the board with the attacking seat's name, and
/// a player going out with a burst on its headquarters, so that a person can follow three
/// computer seats.
fn announce_table(
    game: Res<ActiveGame>,
    lang: Res<Lang>,
    mut seen: Local<usize>,
    mut effects: MessageWriter<BoardEffect>,
) {
    let s = &game.game_match;
    if game.is_added() || s.log.len() < *seen {
        *seen = s.log.len();
    }
    if !s.view.is_team_game() {
        *seen = s.log.len();
        return;
    }
    let (me, clockwise) = (s.me(), s.rules().clockwise);
    for e in &s.log[*seen..] {
        let (at, text, battle) = match e {
            LogEntry::Move {
                side,
                to,
                battle: Some(b),
                ..
            } => (
                *to,
                format!(
                    "{} {}",
                    lang.t(seat_key(*side, me, true, clockwise)),
                    lang.t(b.caption_key())
                ),
                Some(b.kind()),
            ),
            LogEntry::Out { side, .. } => {
                let Some(hq) = s.view.board().point(*side, 6, 2) else {
                    continue;
                };
                (
                    hq,
                    lang.tr(
                        "board.out",
                        &[
                            ("seat", crate::game_match::person(*side, me)),
                            ("who", lang.t(seat_key(*side, me, true, clockwise)).into()),
                        ],
                    ),
                    Some(crate::battle::BattleKind::Flag),
                )
            }
            _ => continue,
        };
        effects.write(BoardEffect { at, text, battle });
    }
    *seen = s.log.len();
}

/// Seconds the finished game's board stays before the result screen.
const SHOW_END_SECS: f32 = 1.8;

fn finish(
    mut game: ResMut<ActiveGame>,
    time: Res<Time>,
    dir: Res<DataDir>,
    mut profile: ResMut<Profile>,
    mut commands: Commands,
    mut nav: MessageWriter<Navigate>,
    mut redraw: ResMut<Redraw>,
) {
    let Some(result) = game.game_match.result() else {
        return;
    };
    if !game.saved {
        game.saved = true;
        let saved = game.game_match.saved();
        let written = match &saved {
            Some(saved) => save_record(&dir, saved),
            None => Err(NotSaved::AwaitingAudit),
        };
        let team = game.game_match.view.is_team_game();
        let (key, outcome, score) = crate::profile::entry(
            result,
            game.game_match.me(),
            team,
            game.game_match.plies(),
            game.game_match.undos,
            &game.game_match.opponent,
        );
        profile.record(&key, outcome, score);
        if let Err(e) = profile.save(&dir) {
            warn!("{e}");
        }
        commands.insert_resource(LastGame {
            game: saved,
            started: game.game_match.started,
            result: Some(result),
            me: game.game_match.me(),
            plies: game.game_match.plies(),
            opponent: game.game_match.opponent.clone(),
            saved: written,
            lan: game.lan_state().cloned(),
            four: team,
            score,
            undos: game.game_match.undos,
        });
    }
    let t = game.ended.get_or_insert(0.0);
    *t += time.delta_secs();
    if *t > SHOW_END_SECS {
        nav.write(Navigate(Screen::GameOver));
    } else {
        redraw.within(Duration::from_secs_f32(SHOW_END_SECS - *t + 0.01));
    }
}

/// Saves a game's record in the records folder, never replacing an earlier one (a suffix is
/// added when the name is taken).
fn save_record(dir: &DataDir, saved: &GameFile) -> Result<std::path::PathBuf, NotSaved> {
    let mut path = dir.records().join(format!("game-{}.json", saved.started));
    let mut n = 1;
    while path.exists() {
        path = dir
            .records()
            .join(format!("game-{}-{n}.json", saved.started));
        n += 1;
    }
    storage::save_json(&path, saved)
        .map(|_| path)
        .map_err(NotSaved::Store)
}

/// A finished LAN game is saved once the audit has rebuilt its whole record (both setups,
/// every action): then it replays like any other game, the full board included.
fn save_lan_record(dir: Res<DataDir>, last: Option<ResMut<LastGame>>) {
    let Some(mut last) = last else { return };
    if last.game.is_some() {
        return;
    }
    let Some(record) = last.lan.as_ref().and_then(|l| {
        let two = l.verdict.as_ref().and_then(|v| v.record.as_deref());
        // A four-seat table's record, once its audit rebuilt it from the four armies.
        two.or_else(|| l.table.as_ref()?.verdict.as_ref()?.record.as_ref())
    }) else {
        return;
    };
    let saved = GameFile {
        version: 1,
        started: last.started,
        opponent: last.opponent.clone(),
        me: last.me,
        record: record.clone(),
        result: last.result,
        undos: 0,
    };
    last.saved = save_record(&dir, &saved);
    // The signed log goes next to the record, for the replay screen's audit export.
    if let (Ok(path), Some(journal)) = (
        &last.saved,
        last.lan.as_ref().and_then(|l| l.journal.clone()),
    ) && let Err(e) = crate::lan::keep_journal(&journal, path)
    {
        warn!("cannot keep the journal next to {}: {e}", path.display());
    }
    last.game = Some(saved);
}

/// The tile colours of the player and the opponent.
pub fn colours(settings: &Settings) -> (Colour, Colour) {
    match settings.my_colour {
        PieceColour::Red => (Colour::Red, Colour::Blue),
        PieceColour::Blue => (Colour::Blue, Colour::Red),
    }
}

/// The tile colour of `side`'s pieces for the player `me`: the settings' two colours in
/// two-player games, each seat's own colour round a four-player table.
pub fn colour_of(side: Side, me: Side, four: bool, settings: &Settings) -> Colour {
    if four {
        return Colour::of_seat(side);
    }
    let (mine, theirs) = colours(settings);
    if side == me { mine } else { theirs }
}

/// What the player sees of a match as a board scene; `full` shows the referee's whole truth
/// (finished games in the replay viewer).
pub fn scene_of(s: &Match, settings: &Settings, full: bool) -> BoardScene {
    let me = s.me();
    let board = s.view.board();
    let four = s.view.is_team_game();
    let colour = |side: Side| colour_of(side, me, four, settings);
    let mut pieces = Vec::new();
    for p in board.points() {
        let tile = if let Some(g) = s.game().filter(|_| full) {
            g.position().at(p).map(|pc| Tile {
                face: Face::Rank(pc.rank),
                colour: if pc.face_up {
                    colour(pc.side)
                } else {
                    Colour::Neutral
                },
                marker: None,
            })
        } else {
            s.view.at(p).map(|seen| match seen {
                Seen::FaceDown => Tile {
                    face: Face::FaceDown,
                    colour: Colour::Neutral,
                    marker: None,
                },
                Seen::Piece { side, id, rank } => Tile {
                    face: rank.map(Face::Rank).unwrap_or(Face::Back),
                    colour: colour(side),
                    marker: (side != me).then(|| s.markers.get(&id).cloned()).flatten(),
                },
            })
        };
        if let Some(t) = tile {
            pieces.push((p, t));
        }
    }
    // Halves nobody plays (two players on the big board) and players who are out.
    let dim_halves = if board.sides().len() == 4 {
        Side::FOUR
            .into_iter()
            .filter(|&side| {
                if four {
                    !s.view.is_in(side)
                } else {
                    side != me && side != me.opponent()
                }
            })
            .collect()
    } else {
        Vec::new()
    };
    // Round a four-player table, each seat's latest move in its colour.
    let mut seat_moves = Vec::new();
    if four {
        for side in Side::FOUR {
            let last = s.log.iter().rev().find_map(|e| match *e {
                LogEntry::Move {
                    side: m, from, to, ..
                } if m == side => Some((from, to)),
                _ => None,
            });
            if let Some((from, to)) = last {
                seat_moves.push((from, to, Colour::of_seat(side)));
            }
        }
    }
    BoardScene {
        active: true,
        bottom: Some(me),
        pieces,
        last_move: s
            .view
            .last_move()
            .map(|(a, b)| vec![a, b])
            .unwrap_or_default(),
        show_nicknames: settings.nicknames,
        four: board.sides().len() == 4,
        dim_halves,
        seat_moves,
        ..default()
    }
}

/// Keeps the inference board up to date with the player's view (only while it is on; the
/// belief costs a few milliseconds, so once per change of the view, not per frame).
fn infer(mut game: ResMut<ActiveGame>) {
    let key = game.game_match.view.events().len();
    if game.inference.as_ref().is_some_and(|(k, _)| *k != key) {
        let inf = junqi_game::ai::inference::infer(&game.game_match.view);
        game.inference = Some((key, inf));
    }
}

fn show(game: Res<ActiveGame>, settings: Res<Settings>, mut scene: ResMut<BoardScene>) {
    let mut new = scene_of(&game.game_match, &settings, false);
    // 推理: the most likely rank on each hidden piece that carries no marker of the player's.
    if let Some((_, inf)) = &game.inference {
        for (p, tile) in &mut new.pieces {
            if tile.marker.is_none()
                && let Some((rank, _)) = inf.at(*p).and_then(|g| g.likely().first().copied())
            {
                tile.marker = Some(format!("{}?", rank.zh_short()));
            }
        }
    }
    new.selected = game.selected.or(game.marking);
    new.targets = game.targets();
    match game.hint.as_ref().map(|h| h.mv) {
        Some(Move::Step { from, to }) => new.hint = vec![from, to],
        Some(Move::Flip { at }) => new.hint = vec![at],
        None => {}
    }
    if *scene != new {
        *scene = new;
    }
}

fn actions(
    mut commands: Commands,
    mut game: ResMut<ActiveGame>,
    mut reader: MessageReader<GameAction>,
    lang: Res<Lang>,
    mut lan: MessageWriter<LanRequest>,
    mut zoom: ResMut<BoardZoom>,
    waker: Res<Waker>,
) {
    let lang = *lang;
    // Read-only test first: the game is marked changed (and redrawn) only when it is.
    if game.status_is_stale() {
        game.status = None;
    }
    for a in reader.read() {
        let me = game.game_match.me();
        match *a {
            GameAction::Zoom => {
                zoom.0 = match zoom.0 {
                    Some(_) => None,
                    None => Some(BoardZoom::HOME),
                };
                continue;
            }
            GameAction::AskResign => {
                // Refused at once in the first moves: asking for an irreversible confirmation
                // only to refuse it after would be a trap.
                let n = game.game_match.rules().resign_after_plies;
                if game.game_match.rules().may_resign(game.game_match.plies()) {
                    game.confirm_resign = true;
                } else {
                    game.confirm_resign = false;
                    game.say(resign_early(n, lang));
                }
                continue;
            }
            GameAction::CancelResign => {
                game.confirm_resign = false;
                continue;
            }
            GameAction::Resign => game.confirm_resign = false,
            GameAction::AskLeave(ask) => {
                game.confirm_leave = ask;
                continue;
            }
            GameAction::Inference => {
                // A room rule (the LAN host's, shared with the peer by the game's rules).
                if !game.game_match.rules().inference_applies() {
                    game.inference = None;
                    continue;
                }
                game.inference = match game.inference {
                    Some(_) => None,
                    None => Some((usize::MAX, Inference::default())),
                };
                continue;
            }
            GameAction::Undo => {
                if game.game_match.is_remote() {
                    continue;
                }
                if game.game_match.undos >= u32::from(game.undo_limit) {
                    game.say(lang.t("game.undo_none").to_owned());
                } else if game.game_match.undo() {
                    game.selected = None;
                    game.hint = None;
                    game.marking = None;
                    game.status = None;
                } else {
                    game.say(lang.t("game.undo_refused").to_owned());
                }
                continue;
            }
            _ => {}
        }
        if game.game_match.is_remote() {
            lan_action(&mut game, *a, &mut lan, lang);
            if !matches!(a, GameAction::Hint | GameAction::Mark(_)) {
                continue;
            }
        }
        match *a {
            GameAction::Resign => match game.game_match.act(me, Action::Resign) {
                Ok(_) => game.status = None,
                Err(junqi_game::ActionError::ResignTooEarly(n)) => game.say(resign_early(n, lang)),
                Err(e) => game.say(action_error_text(&e, lang)),
            },
            GameAction::OfferDraw => {
                if game.game_match.act(me, Action::OfferDraw).is_err() {
                    continue;
                }
                // Each computer seat still in answers, from its own view.
                let accept = answer_draw_for_computers(&mut game, me);
                game.say(
                    lang.t(if accept {
                        "game.draw_accepted"
                    } else {
                        "game.draw_refused"
                    })
                    .to_owned(),
                );
            }
            GameAction::Hint => {
                if game.game_match.my_turn() && !game.hint_pending {
                    game.hint_pending = true;
                    let task =
                        ai::hint(game.game_match.view.clone(), rand::random(), waker.clone());
                    commands.spawn((Thinking { task, hint: true }, DespawnOnExit(Screen::Game)));
                }
            }
            GameAction::Mark(rank) => {
                if let Some(p) = game.marking.take()
                    && let Some(Seen::Piece { id, .. }) = game.game_match.view.at(p)
                {
                    match rank {
                        Some(r) => {
                            game.game_match.markers.insert(id, rank_short(r, lang));
                        }
                        None => {
                            game.game_match.markers.remove(&id);
                        }
                    }
                }
            }
            GameAction::AnswerDraw(yes) => {
                if game.ai_offer.take().is_some() {
                    let answer = if yes {
                        Action::AcceptDraw
                    } else {
                        Action::DeclineDraw
                    };
                    let _ = game.game_match.act(me, answer);
                }
            }
            GameAction::AskResign
            | GameAction::CancelResign
            | GameAction::Undo
            | GameAction::Inference
            | GameAction::Zoom
            | GameAction::AskLeave(_) => {}
        }
    }
}

/// Why 认输 is refused in the first `n` plies.
fn resign_early(n: u16, lang: Lang) -> String {
    action_error_text(&junqi_game::ActionError::ResignTooEarly(n), lang)
}

/// Resign, draw offers and answers in a LAN game go to the network session.
fn lan_action(
    game: &mut ActiveGame,
    a: GameAction,
    lan: &mut MessageWriter<LanRequest>,
    lang: Lang,
) {
    let mut send = |cmd| {
        lan.write(LanRequest::Send(cmd));
    };
    match a {
        GameAction::Resign => {
            let n = game.game_match.rules().resign_after_plies;
            if !game.game_match.rules().may_resign(game.game_match.plies()) {
                game.say(resign_early(n, lang));
            } else {
                send(PeerCmd::Resign);
                game.status = None;
            }
        }
        GameAction::OfferDraw => {
            if game.game_match.my_turn() {
                send(PeerCmd::OfferDraw);
                game.say(lang.t("lan.draw_sent").to_owned());
            }
        }
        GameAction::AnswerDraw(yes) => {
            if let Some(l) = game.lan_state_mut()
                && std::mem::take(&mut l.draw_offered)
            {
                send(if yes {
                    PeerCmd::AcceptDraw
                } else {
                    PeerCmd::DeclineDraw
                });
            }
        }
        GameAction::Hint
        | GameAction::Mark(_)
        | GameAction::AskResign
        | GameAction::CancelResign
        | GameAction::Undo
        | GameAction::Inference
        | GameAction::Zoom
        | GameAction::AskLeave(_) => {}
    }
}

#[allow(clippy::too_many_arguments)]
fn ui(
    mut contexts: EguiContexts,
    lang: Res<Lang>,
    form: Res<Form>,
    game: Res<ActiveGame>,
    mut tab: Local<HudTab>,
    mut area: ResMut<BoardArea>,
    zoom: Res<BoardZoom>,
    mut nav: MessageWriter<Navigate>,
    mut actions: MessageWriter<GameAction>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let out = hud(ctx, &game, *lang, *form, &mut tab, zoom.0.is_some());
    area.0 = Some(crate::form::board_area(out.board, ctx));
    actions.write_batch(out.actions);
    if let Some(to) = out.nav {
        nav.write(Navigate(to));
    }
    Ok(())
}
