//! Converting an advantage (issue: an AI that wins, not draws): endgame
//! studies in open games, where nothing is hidden, so the only question is
//! technique. Each study is a position the stronger side wins only with a
//! plan the search does not see within its plies: hunting a weaker piece
//! out of the camps, spending a bomb on the enemy's commander, digging a
//! flag boxed in by landmines with engineers, trading down when ahead. The
//! stronger side (South) is Master; North defends with Expert's search.
//! Every study must end with South's win before the quiet-move draw.

use junqi_game::ai::{Ai, Level};
use junqi_game::*;

/// An open-game position with South to move: `pieces` by point name, ids
/// in order per side.
fn study(pieces: &[(&str, Side, Rank)]) -> Position {
    let board = Board::classic();
    let mut pos = Position::empty(board, Rules::for_mode(Mode::Open), Side::South);
    let mut next = [0u8, 25];
    for &(name, side, rank) in pieces {
        let p = board.parse_point(name).expect("point name");
        let id = &mut next[side.index()];
        pos.set(
            p,
            Some(Piece {
                side,
                rank,
                face_up: true,
                id: PieceId(*id),
            }),
        );
        *id += 1;
    }
    pos.set_counters(100, 0);
    pos
}

/// Plays the study out, South Master, North Expert, each from its own
/// view; the result and the plies it took.
fn play(mut pos: Position, seed: u64) -> (Option<GameResult>, u16, Vec<String>) {
    let mut south = Ai::new(Level::Master, seed);
    let mut north = Ai::new(Level::Expert, seed + 1);
    let start = pos.ply();
    let mut moves = Vec::new();
    let never = || false;
    while pos.result().is_none() && pos.ply() - start < 400 {
        let turn = pos.turn();
        let view = PlayerView::of_open_position(&pos, turn).expect("open view");
        let ai = if turn == Side::South {
            &mut south
        } else {
            &mut north
        };
        let Some(m) = ai.choose_move(&view, &never) else {
            break;
        };
        moves.push(junqi_game::notation::format_move(&pos, m));
        pos.play(m).expect("legal");
    }
    (pos.result(), pos.ply() - start, moves)
}

use Rank::*;
use Side::{North as N, South as S};

fn boxed_flags() -> Vec<(&'static str, Side, Rank)> {
    vec![
        ("S62", S, Flag),
        ("S61", S, Landmine),
        ("S63", S, Landmine),
        ("S52", S, Landmine),
        ("N62", N, Flag),
        ("N61", N, Landmine),
        ("N63", N, Landmine),
        ("N52", N, Landmine),
    ]
}

/// The studies' seeds: each plays the study out three times.
const SEEDS: [u64; 3] = [0, 1, 2];

#[test]
fn a_bomb_takes_the_commander_that_outranks_every_officer_and_the_flag_falls() {
    // North's commander beats South's corps and division; only South's
    // bomb answers it, and only an engineer or a bomb opens North's boxed
    // flag. The bomb has to hunt the commander down (or dig), then the
    // officers win. Master's full evaluation alone drew one of the three
    // seeds by the quiet-move rule.
    let mut pieces = boxed_flags();
    pieces.extend([
        ("S31", S, Corps),
        ("S35", S, Division),
        ("S44", S, Bomb),
        ("N31", N, Commander),
        ("N45", N, Company),
    ]);
    for seed in SEEDS {
        let (result, plies, moves) = play(study(&pieces), seed);
        assert!(
            matches!(result, Some(GameResult::Win { winner: S, .. })),
            "seed {seed}: {result:?} after {plies} plies: {}",
            moves.join(" ")
        );
    }
}

#[test]
fn the_enemys_last_engineer_is_stopped_before_it_digs_out_the_flag() {
    // South's flag is boxed in by three landmines; North's one engineer is
    // the only piece that can open it. South, a corps against a division,
    // has to take that engineer (its own engineer trades with it) rather
    // than go forward: with the full evaluation alone Master lost two of
    // the three seeds to the engineer digging through the mine at S52.
    let mut pieces = boxed_flags();
    pieces.extend([
        ("S35", S, Corps),
        ("S23", S, Engineer),
        ("N22", N, Engineer),
        ("N34", N, Division),
        ("N44", N, Brigade),
    ]);
    for seed in SEEDS {
        let (result, plies, moves) = play(study(&pieces), seed);
        assert!(
            !matches!(result, Some(GameResult::Win { winner: N, .. })),
            "seed {seed}: {result:?} after {plies} plies: {}",
            moves.join(" ")
        );
        assert!(
            !moves.iter().any(|m| m.ends_with("S52")),
            "seed {seed}: North reached the mine: {}",
            moves.join(" ")
        );
    }
}
