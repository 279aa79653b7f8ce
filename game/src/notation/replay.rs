//! Reading a movetext against the game it belongs to. A four-player
//! movetext cannot be read token by token alone: whose turn a token is
//! depends on who has gone out (a flag taken, a fifth timeout, a
//! resignation, no move left), which only the game knows. So the tokens are
//! played through the referee from the start of the game, each move checked
//! for legality and each written announcement against the referee's.

use super::parse::parse_written_on;
use super::written::{NotationError, Note, Written, note_of};
use crate::game::{Action, Game};
use crate::position::Move;

/// Parses `text`, a movetext of the game `start` (its record replayed to
/// where the movetext begins), playing every token through the referee:
/// moves and timeouts belong to the seat to move, the other actions name
/// their side; a move must be legal, `-`/`x` must match the target, and an
/// announcement written after an attack must be the referee's. Two- and
/// four-player games alike; points are named on the game's board.
pub fn parse_movetext_in(start: &Game, text: &str) -> Result<Vec<Written>, NotationError> {
    let mut game = start.clone();
    let board = game.position().board();
    let mut out = Vec::new();
    for (i, token) in text.split_whitespace().enumerate() {
        let fail = |message: String| NotationError {
            token: i + 1,
            text: token.to_string(),
            message,
        };
        if game.result().is_some() {
            return Err(fail("the game is already over".into()));
        }
        let turn = game.turn();
        let w = parse_written_on(board, token, turn).map_err(|mut e| {
            e.token = i + 1;
            e
        })?;
        if let Action::Move(Move::Step { to, .. }) = w.action
            && to.index() < board.len()
            && w.attack != game.position().at(to).is_some()
            && !matches!(w.note, Some(Note::Battle { .. } | Note::Void { .. }))
        {
            return Err(fail(if w.attack {
                "written as an attack (x) but the target point is empty".into()
            } else {
                "written as a quiet move (-) but the target point is occupied".into()
            }));
        }
        let events = game
            .apply(w.side, w.action)
            .map_err(|e| fail(format!("refused: {e}")))?;
        let announced = note_of(&events);
        if w.note.is_some() && w.note != announced {
            return Err(fail(format!(
                "the movetext says {:?}, the referee announced {announced:?}",
                w.note
            )));
        }
        out.push(w);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Setup;
    use crate::layout::classic_layouts;
    use crate::notation::record_movetext;
    use crate::piece::Side;
    use crate::rules::{Mode, Rules};

    /// A four-player game with a player out on the way (East resigns at ply
    /// 24), played with the last legal move each turn.
    fn four_player_game(plies: usize) -> Game {
        let c = classic_layouts();
        let layouts = [c[4].layout, c[5].layout, c[6].layout, c[7].layout];
        let mut game =
            Game::new_four(Rules::four_player(Mode::Dark), layouts, Side::South).unwrap();
        for ply in 0..plies {
            if game.result().is_some() {
                break;
            }
            if ply == 24 && game.is_in(Side::East) {
                game.apply_table(Side::East, Action::Resign).unwrap();
            }
            let side = game.turn();
            let m = *game.position().legal_moves().last().unwrap();
            game.apply_table(side, Action::Move(m)).unwrap();
        }
        game
    }

    fn start_of(game: &Game) -> Game {
        Game::replay(game.record(), Some(0)).unwrap()
    }

    #[test]
    fn four_player_movetext_reads_back_with_the_turn_skipping_players_out() {
        let game = four_player_game(60);
        assert!(!game.is_in(Side::East), "East resigned");
        assert!(matches!(game.record().setup, Setup::Four { .. }));
        let text = record_movetext(game.record()).unwrap();
        let list = parse_movetext_in(&start_of(&game), &text).unwrap();
        let actions: Vec<_> = list.iter().map(|w| (w.side, w.action)).collect();
        assert_eq!(actions, game.record().actions);
        // After East is out the turn goes South → North → West.
        let after: Vec<Side> = list
            .iter()
            .skip_while(|w| w.action != Action::Resign)
            .skip(1)
            .take(6)
            .map(|w| w.side)
            .collect();
        assert!(!after.contains(&Side::East), "{after:?}");
        // BOARD4.md's colon names read the same.
        let board = game.position().board();
        let colons: Vec<String> = text
            .split_whitespace()
            .map(|t| {
                let mut out = String::new();
                let mut chars = t.chars().peekable();
                while let Some(c) = chars.next() {
                    out.push(c);
                    if "SENWC".contains(c) && chars.peek().is_some_and(char::is_ascii_digit) {
                        out.push(':');
                    }
                }
                out
            })
            .collect();
        assert_ne!(colons.join(" "), text);
        let again = parse_movetext_in(&start_of(&game), &colons.join(" ")).unwrap();
        assert_eq!(again, list);
        assert!(std::ptr::eq(board, crate::Board::four_player()));
    }

    #[test]
    fn a_wrong_token_is_reported_with_its_place() {
        let game = four_player_game(12);
        let text = record_movetext(game.record()).unwrap();
        let mut tokens: Vec<String> = text.split_whitespace().map(String::from).collect();
        // A move by the wrong seat: the fourth token is West's; write it for South.
        tokens[3] = format!("S:{}", tokens[3]);
        let e = parse_movetext_in(&start_of(&game), &tokens.join(" ")).unwrap_err();
        assert_eq!(e.token, 4, "{e}");
        // An illegal move.
        let e = parse_movetext_in(&start_of(&game), "S61-C5").unwrap_err();
        assert_eq!(e.token, 1);
        assert!(e.message.contains("refused"), "{e}");
        // Not a point of the board.
        assert!(parse_movetext_in(&start_of(&game), "S99-S98").is_err());
    }

    #[test]
    fn two_player_movetext_reads_back_too() {
        let c = classic_layouts();
        let mut game = Game::new(Rules::default(), c[0].layout, c[1].layout, Side::South).unwrap();
        for _ in 0..30 {
            let side = game.turn();
            let m = *game.position().legal_moves().first().unwrap();
            game.apply(side, Action::Move(m)).unwrap();
        }
        let text = record_movetext(game.record()).unwrap();
        let list = parse_movetext_in(&start_of(&game), &text).unwrap();
        let actions: Vec<_> = list.iter().map(|w| (w.side, w.action)).collect();
        assert_eq!(actions, game.record().actions);
    }
}
