//! Compact move notation, for move lists and game records.
//!
//! Points are named as in RULES.md §2 with the half's letter: `S53` is South's
//! row 5, column 3.
//!
//! | text | meaning |
//! |---|---|
//! | `S53-S43` | a move to an empty point |
//! | `S13xN13` | an attack |
//! | `fN33` | flip games: turn the face-down piece on N33 over |
//! | `timeout` | the side to move ran out of time |
//! | `S:resign`, `N:offer-draw`, `S:accept-draw`, `S:decline-draw` | the other actions, with the acting side |
//!
//! In a record an attack is followed by what the referee announced:
//!
//! - the outcome: `>` the attacker won, `<` the attacker lost, `=` both were
//!   removed, `#` the flag was captured (`#=` by a bomb: both removed);
//! - the ranks where they were public, as nicknames (40 … 32, 31 landmine,
//!   30 flag, 00 bomb) or `?`: `S13xN13>(38,35)` in open and flip games,
//!   `S13xN13<(?,40)` for a piece shown by engineer scouting;
//! - marks: `!a` the attacker was a commander and died, `!d` the defender was
//!   a commander and died (each reveals that side's flag), `!s` the defender
//!   was shown by engineer scouting.
//!
//! A flip shows the piece turned over, its colour and rank: `fN33(S40)`. An
//! attack in a flip game on a face-down piece of the attacker's own colour (or
//! on a flag still guarded by mines) only turns it over: `S13xN13~(S33)`.
//!
//! A movetext is these tokens separated by white space, in order. Moves and
//! time-outs belong to the side to move (the turn passes after each); the
//! other actions name their side. Four-player movetexts name the points of
//! the four-player board (`S35-E31`, `C5xN13`, or as BOARD4.md writes them,
//! `S:35-E:31`); whose turn a token is there depends on who has gone out,
//! so they are read through the referee with [`parse_movetext_in`].
//!
//! ```
//! use junqi_game::notation::{Written, parse_movetext, movetext};
//! use junqi_game::Side;
//! let text = "S53-S43 N13xS13=!a!d timeout S:offer-draw N:decline-draw";
//! let list: Vec<Written> = parse_movetext(text, Side::South).unwrap();
//! assert_eq!(list[1].side, Side::North);
//! assert_eq!(list[2].side, Side::South);
//! assert_eq!(movetext(&list), text);
//! ```

mod annotate;
mod parse;
mod replay;
mod written;

pub use annotate::{annotate, record_movetext};
pub use parse::{
    parse_legal_move, parse_move, parse_movetext, parse_movetext_on, parse_written,
    parse_written_on,
};
pub use replay::parse_movetext_in;
pub use written::{NotationError, Note, Written, format_move, movetext, movetext_on, note_of};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::game::{Action, Game};
    use crate::piece::Side;
    use crate::position::Move;
    use crate::rules::Outcome;

    fn round_trip(text: &str) {
        let w = parse_written(text, Side::South).unwrap();
        assert_eq!(w.to_string(), text);
    }

    #[test]
    fn tokens_round_trip() {
        for t in [
            "S53-S43",
            "S13xN13",
            "S13xN13>",
            "S13xN13<",
            "S13xN13=",
            "S13xN13#",
            "S13xN13>(38,35)",
            "S13xN13<(32,40)!s",
            "S13xN13<(?,40)!s",
            "S13xN13=!a!d",
            "S13xN13<!a",
            "S13xN13#(38,30)",
            "S13xN13#=(00,30)",
            "fN33",
            "fN33(S40)",
            "fS62(N30)",
            "S13xN13~(S33)",
            "timeout",
            "S:resign",
            "N:offer-draw",
            "S:accept-draw",
            "S:decline-draw",
        ] {
            round_trip(t);
        }
    }

    #[test]
    fn a_bomb_on_the_flag_reads_back_as_both_removed() {
        let w = parse_written("S13xN13#=(00,30)", Side::South).unwrap();
        let Some(Note::Battle { announcement, .. }) = w.note else {
            panic!("{w:?}")
        };
        assert_eq!(announcement.outcome, Outcome::BothRemoved);
        assert!(announcement.flag_captured);
        let w = parse_written("S13xN13#(38,30)", Side::South).unwrap();
        let Some(Note::Battle { announcement, .. }) = w.note else {
            panic!("{w:?}")
        };
        assert_eq!(announcement.outcome, Outcome::AttackerWins);
    }

    #[test]
    fn bad_tokens_say_what_is_wrong() {
        for (t, needle) in [
            ("", "empty"),
            ("S73-S43", "S73"),
            ("S53+S43", "'-' or 'x'"),
            ("S53-S43>", "quiet move"),
            ("S13xN13?", "outcome"),
            ("S13xN13>(38)", "two ranks"),
            ("S13xN13>(38,99)", "unknown rank"),
            ("S13xN13>!q", "marks"),
            ("S13xN13>!a!a", "repeated"),
            ("fN33(X40)", "colour"),
            ("fN3", "point"),
            ("resign", "who acts"),
            ("N:S53-S43", "side to move"),
            ("N:timeout", "side to move"),
            ("Q:resign", "side letter"),
            ("S13xN13~", "turned over"),
            ("S13xN13>(38,35", "')'"),
            ("司令", "point"),
        ] {
            let e = parse_written(t, Side::South).unwrap_err();
            assert!(e.to_string().contains(needle), "{t}: {e}");
        }
        let e = parse_movetext("S53-S43 N13-N23 S11yS12", Side::South).unwrap_err();
        assert_eq!(e.token, 3);
        assert!(e.to_string().starts_with("token 3 \"S11yS12\""));
    }

    #[test]
    fn moves_in_a_position_use_x_for_attacks() {
        let pos = crate::position_from_json(
            r#"{"pieces": {"south": {"S13": "engineer", "S62": "flag"},
                           "north": {"N13": "40", "N62": "flag"}}}"#,
        )
        .unwrap();
        let texts: Vec<String> = pos
            .legal_moves()
            .iter()
            .map(|&m| format_move(&pos, m))
            .collect();
        assert!(texts.contains(&"S13xN13".to_string()));
        assert!(texts.contains(&"S13-S12".to_string()));
        for t in &texts {
            assert_eq!(format_move(&pos, parse_legal_move(&pos, t).unwrap()), *t);
        }
        for (t, needle) in [
            ("S13-N13", "occupied"),
            ("S13xS12", "empty"),
            ("S13-S33", "illegal"),
            ("N13-N23", "illegal"),
            ("timeout", "expected a move"),
        ] {
            let e = parse_legal_move(&pos, t).unwrap_err();
            assert!(e.to_string().contains(needle), "{t}: {e}");
        }
    }

    #[test]
    fn four_player_moves_name_points_of_the_four_player_board() {
        let pos = crate::position_from_json(
            r#"{"board": "four-player", "turn": "south",
                "pieces": {"south": {"S35": "corps", "C5": "engineer", "S62": "flag"},
                           "east": {"E31": "engineer", "E62": "flag"},
                           "north": {"N43": "platoon", "N62": "flag"},
                           "west": {"W43": "platoon", "W62": "flag"}}}"#,
        )
        .unwrap();
        let texts: Vec<String> = pos
            .legal_moves()
            .iter()
            .map(|&m| format_move(&pos, m))
            .collect();
        for t in ["S35-E21", "S35xE31", "S35-N51", "C5-C8", "C5-W51", "C5xE31"] {
            assert!(texts.contains(&t.to_string()), "{t} missing from {texts:?}");
        }
        for t in &texts {
            assert_eq!(format_move(&pos, parse_legal_move(&pos, t).unwrap()), *t);
        }
        assert!(parse_legal_move(&pos, "S35-E41").is_err());
        assert!(parse_legal_move(&pos, "C0-C5").is_err());
    }

    #[test]
    fn four_player_records_write_four_player_names() {
        use rand::SeedableRng;
        use rand::seq::IndexedRandom;
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(3);
        let rules = crate::Rules::four_player(crate::Mode::Dark);
        let layouts = std::array::from_fn(|_| crate::Layout::random(&rules, &mut rng));
        let mut game = Game::new_four(rules, layouts, Side::South).unwrap();
        for _ in 0..200 {
            if game.result().is_some() {
                break;
            }
            let m = *game.position().legal_moves().choose(&mut rng).unwrap();
            game.apply(game.turn(), Action::Move(m)).unwrap();
        }
        let text = record_movetext(game.record()).unwrap();
        assert_eq!(text.split_whitespace().count(), game.record().actions.len());
        // Every move token names points of the four-player board.
        let board = Board::four_player();
        for token in text.split_whitespace().filter(|t| !t.contains(':')) {
            let w = parse_written_on(board, token, Side::South).unwrap();
            assert!(matches!(w.action, Action::Move(_)), "{token}");
        }
        assert!(text.contains('E') || text.contains('W') || text.contains('C'));
    }

    #[test]
    fn bare_moves_parse() {
        let b = Board::classic();
        let p = |s| b.parse_point(s).unwrap();
        assert_eq!(
            parse_move("S53-S43"),
            Ok(Move::Step {
                from: p("S53"),
                to: p("S43")
            })
        );
        assert_eq!(parse_move("fN62"), Ok(Move::Flip { at: p("N62") }));
        assert!(parse_move("S13xN13>").is_err());
        assert!(parse_move("timeout").is_err());
    }
}
