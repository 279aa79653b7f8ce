//! What differs between the three games during play, as one enum: a dark
//! game runs every battle through the oblivious transfer and referees
//! nothing locally; an open game opened both setups and referees locally; a
//! flip game referees locally from a placeholder arrangement and opens each
//! face-down piece through the double shuffle when a move first touches it.

use junqi_game::{Action, Board, Event, Game, Move, Point, Rules, Setup as GameSetup, Side};

use crate::announced::AnnouncementTable;
use crate::commit::SetupCommitment;
use crate::crypto::{Digest, Seed};
use crate::flip::{FLIP_SIZE, FlipLayer, FlipVerifier};
use crate::rank::WireRank;

#[derive(Clone)]
pub(super) enum ModeState {
    Dark(Dark),
    Open(Open),
    Flip(Flip),
}

#[derive(Clone)]
pub(super) struct Dark {
    pub(super) mine: SetupCommitment,
    /// The peer's piece commitments (its flag opening is checked against them).
    pub(super) peer_pieces: Vec<Digest>,
    /// The announcement table `f(c, d)` of the rules.
    pub(super) table: AnnouncementTable,
    /// This side's flag opening, held back until the attacker's (the engine's order).
    pub(super) deferred_flag: Option<Event>,
}

#[derive(Clone)]
pub(super) struct Open {
    pub(super) mine: SetupCommitment,
    pub(super) peer_pieces: Vec<Digest>,
    pub(super) referee: Game,
    /// The peer's reveal before play: the audit needs no second one.
    pub(super) peer_reveal: (Seed, Vec<WireRank>),
}

#[derive(Clone)]
pub(super) struct Flip {
    /// This side's shuffle layer.
    pub(super) mine: FlipLayer,
    /// The checker of the peer's layer.
    pub(super) peer: FlipVerifier,
    pub(super) referee: Game,
    /// The arrangement the local referee plays from. Opened points hold
    /// their true piece; the rest hold the unopened pieces in an arbitrary
    /// order (only their multiset is public, and only it matters to the
    /// rules until a point is opened).
    pub(super) arrangement: [u8; FLIP_SIZE],
}

/// The local referee as it was before this side's last plain move.
pub(super) type RefereeSnapshot = Option<(Game, [u8; FLIP_SIZE])>;

impl Dark {
    pub(super) fn new(
        mine: SetupCommitment,
        peer_pieces: Vec<Digest>,
        table: AnnouncementTable,
    ) -> Dark {
        Dark {
            mine,
            peer_pieces,
            table,
            deferred_flag: None,
        }
    }
}

impl Open {
    pub(super) fn new(
        mine: SetupCommitment,
        peer_pieces: Vec<Digest>,
        referee: Game,
        peer_reveal: (Seed, Vec<WireRank>),
    ) -> Open {
        Open {
            mine,
            peer_pieces,
            referee,
            peer_reveal,
        }
    }
}

impl Flip {
    pub(super) fn new(rules: Rules, first: Side, mine: FlipLayer, peer: FlipVerifier) -> Flip {
        let arrangement = std::array::from_fn(|i| i as u8);
        Flip {
            mine,
            peer,
            referee: Game::new_flip(rules, arrangement, first).expect("a permutation"),
            arrangement,
        }
    }

    /// Whether the point of shuffle index `i` still holds a face-down piece.
    pub(super) fn face_down(&self, i: usize) -> bool {
        face_down(&self.referee, i)
    }

    /// The face-down point a move turns over, if any.
    pub(super) fn opened_by(&self, m: Move) -> Option<Point> {
        let at = match m {
            Move::Flip { at } | Move::Step { to: at, .. } => at,
        };
        self.referee
            .position()
            .at(at)
            .filter(|pc| !pc.face_up)
            .map(|_| at)
    }

    /// Puts `piece` under the point of shuffle index `i` (swapping it with
    /// the unopened piece that stood there). `false` if either point was
    /// already open: the same piece or point opened twice.
    pub(super) fn place(&mut self, i: usize, piece: u8) -> bool {
        let j = self
            .arrangement
            .iter()
            .position(|&x| x == piece)
            .unwrap_or(i);
        if !self.face_down(i) || !self.face_down(j) {
            return false;
        }
        if i != j {
            self.arrangement.swap(i, j);
            let mut record = self.referee.record().clone();
            record.setup = GameSetup::Flip {
                arrangement: self.arrangement.to_vec(),
            };
            self.referee = Game::replay(&record, None)
                .expect("swapping two face-down pieces keeps the record legal");
        }
        true
    }
}

/// Whether the point of shuffle index `i` still holds a face-down piece in `g`.
pub(super) fn face_down(g: &Game, i: usize) -> bool {
    flip_point(i)
        .and_then(|p| g.position().at(p))
        .is_some_and(|pc| !pc.face_up)
}

impl ModeState {
    /// The local referee (open and flip games).
    pub(super) fn referee(&self) -> Option<&Game> {
        match self {
            ModeState::Dark(_) => None,
            ModeState::Open(o) => Some(&o.referee),
            ModeState::Flip(f) => Some(&f.referee),
        }
    }

    /// Tells the local referee of an action that changes no piece (a draw
    /// offer, a declined one); a dark game has none to tell.
    pub(super) fn note(&mut self, side: Side, action: Action) {
        let referee = match self {
            ModeState::Dark(_) => return,
            ModeState::Open(o) => &mut o.referee,
            ModeState::Flip(f) => &mut f.referee,
        };
        let _ = referee.apply(side, action);
    }

    pub(super) fn save(&self) -> RefereeSnapshot {
        match self {
            ModeState::Dark(_) => None,
            ModeState::Open(o) => Some((o.referee.clone(), std::array::from_fn(|i| i as u8))),
            ModeState::Flip(f) => Some((f.referee.clone(), f.arrangement)),
        }
    }

    pub(super) fn restore(&mut self, saved: RefereeSnapshot) {
        match (self, saved) {
            (ModeState::Open(o), Some((g, _))) => o.referee = g,
            (ModeState::Flip(f), Some((g, arrangement))) => {
                f.referee = g;
                f.arrangement = arrangement;
            }
            _ => {}
        }
    }
}

/// The shuffle index of a point: its place among South's 25 setup points,
/// then North's (the order of [`junqi_game::Position::new_flip`]).
pub(super) fn flip_index(p: Point) -> Option<u8> {
    let board = Board::classic();
    board
        .setup_points(Side::South)
        .iter()
        .chain(board.setup_points(Side::North))
        .position(|&q| q == p)
        .map(|i| i as u8)
}

/// The point of shuffle index `i`.
fn flip_point(i: usize) -> Option<Point> {
    let board = Board::classic();
    board
        .setup_points(Side::South)
        .iter()
        .chain(board.setup_points(Side::North))
        .nth(i)
        .copied()
}
