//! The game being played: the match, whom it is against, and what the player is doing on the
//! board (a selected piece, a marker menu, a hint, a confirmation asked).

use bevy::prelude::*;
use junqi_game::{Move, Point, Seen, Side, ai::Hint, ai::inference::Inference};

use super::{LanGame, Opponent};
use crate::game_match::Match;

/// The game being played.
#[derive(Resource, Clone, Debug)]
pub struct ActiveGame {
    /// The match.
    pub game_match: Match,
    /// The computer or a LAN peer.
    pub opponent: Opponent,
    /// The selected own piece.
    pub selected: Option<Point>,
    /// The enemy piece the marker menu is open for.
    pub marking: Option<Point>,
    /// A hint.
    pub hint: Option<Hint>,
    /// A hint is being computed.
    pub hint_pending: bool,
    /// A message for the player (a refused resignation, a refused move, a draw declined…),
    /// shown until the next move: set it with [`ActiveGame::say`].
    pub status: Option<String>,
    /// The ply [`Self::status`] was said at.
    pub status_ply: u16,
    /// Seconds since the computer started thinking.
    pub thinking: Option<f32>,
    /// Seconds since the game ended (the board stays a moment before the result screen).
    pub ended: Option<f32>,
    /// Whether the record has been saved (and the profile updated).
    pub saved: bool,
    /// 认输 was pressed: the player is asked to confirm before the game is given up.
    pub confirm_resign: bool,
    /// Takebacks (悔棋) allowed in this game (never in LAN games).
    pub undo_limit: u8,
    /// 主菜单 was pressed during the game: the player is asked before it is left.
    pub confirm_leave: bool,
    /// The inference board (推理) is on: the ply and view event count it was computed for, and
    /// what the player's own view allows (recomputed when the view changes).
    pub inference: Option<(usize, Inference)>,
    /// A computer seat offered a draw on its turn and waits for the player's answer (its clock
    /// stands still meanwhile: it is the one waiting).
    pub ai_offer: Option<Side>,
}

/// Takebacks allowed a game unless the setup says otherwise.
pub const DEFAULT_UNDOS: u8 = 3;

impl ActiveGame {
    /// A fresh game against the computer at `level`.
    pub fn new(game_match: Match, level: u8) -> Self {
        Self::with(game_match, Opponent::Ai { level })
    }

    /// A four-player game against the computer at `levels` (by seat).
    pub fn table(game_match: Match, levels: [u8; 4]) -> Self {
        Self::with(game_match, Opponent::Table { levels })
    }

    /// A LAN game (the match has no local referee).
    pub fn lan(game_match: Match, lan: LanGame) -> Self {
        Self::with(game_match, Opponent::Lan(lan))
    }

    fn with(game_match: Match, opponent: Opponent) -> Self {
        Self {
            game_match,
            opponent,
            selected: None,
            marking: None,
            hint: None,
            hint_pending: false,
            status: None,
            status_ply: 0,
            thinking: None,
            ended: None,
            saved: false,
            confirm_resign: false,
            undo_limit: DEFAULT_UNDOS,
            confirm_leave: false,
            inference: None,
            ai_offer: None,
        }
    }

    /// Shows `text` to the player until the next move is played.
    pub fn say(&mut self, text: impl Into<String>) {
        self.status = Some(text.into());
        self.status_ply = self.game_match.plies();
    }

    /// Whether the message was said before the last move, and is to be forgotten: a refusal
    /// answers what the player tried then, not what the board shows now.
    pub fn status_is_stale(&self) -> bool {
        self.status.is_some() && self.game_match.plies() != self.status_ply
    }

    /// The LAN game's state, if this is one.
    pub fn lan_state(&self) -> Option<&LanGame> {
        match &self.opponent {
            Opponent::Lan(l) => Some(l),
            Opponent::Ai { .. } | Opponent::Table { .. } => None,
        }
    }

    /// The LAN game's state, if this is one.
    pub fn lan_state_mut(&mut self) -> Option<&mut LanGame> {
        match &mut self.opponent {
            Opponent::Lan(l) => Some(l),
            Opponent::Ai { .. } | Opponent::Table { .. } => None,
        }
    }

    /// Legal targets of the selected piece.
    pub fn targets(&self) -> Vec<Point> {
        let Some(from) = self.selected else {
            return Vec::new();
        };
        self.game_match
            .moves_from(from)
            .iter()
            .filter_map(|m| match *m {
                Move::Step { to, .. } => Some(to),
                Move::Flip { .. } => None,
            })
            .collect()
    }

    /// Handles a click on a board point; returns the move to play, if the click makes one.
    pub fn click(&mut self, p: Point) -> Option<Move> {
        let s = &self.game_match;
        let seen = s.view.at(p);
        let me = s.me();
        // Markers may be set on enemy pieces at any time.
        if let Some(Seen::Piece { side, .. }) = seen
            && side != me
            && !(self.selected.is_some() && self.targets().contains(&p))
        {
            self.selected = None;
            self.marking = Some(p);
            return None;
        }
        if !s.my_turn() || self.thinking.is_some() {
            return None;
        }
        if let Some(from) = self.selected
            && self.targets().contains(&p)
        {
            self.selected = None;
            return Some(Move::Step { from, to: p });
        }
        match seen {
            Some(Seen::FaceDown) => {
                self.selected = None;
                let mv = Move::Flip { at: p };
                s.view.legal_moves().contains(&mv).then_some(mv)
            }
            Some(Seen::Piece { side, .. }) if side == me => {
                self.marking = None;
                self.selected = if self.selected == Some(p) {
                    None
                } else {
                    Some(p)
                };
                None
            }
            _ => {
                self.selected = None;
                None
            }
        }
    }
}
