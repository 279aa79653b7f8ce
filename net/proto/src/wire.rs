//! The protocol messages and their mapping to the rules engine's types.

use junqi_game::{Announcement, Board, Layout, Point, Rules, Side};
use serde::{Deserialize, Serialize};

use crate::announced::{Announced, AnnouncementTable};
use crate::commit::{ARMY_SIZE, PieceOpening};
use crate::crypto::{Digest, Seed};
use crate::flip::{FLIP_SIZE, FlipOpening};
use crate::ot::{OtResponse, OtReveal};
use crate::rank::{Seat, WireRank};

/// Longest display name in a hello.
pub const MAX_NAME: usize = 64;
/// Longest reason in a dispute.
pub const MAX_REASON: usize = 256;

/// One protocol message (the body of an [`crate::envelope::Envelope`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Body {
    /// Start of a game: the host's proposal, then the guest's acceptance with
    /// the same rules.
    Hello {
        /// The sender's ed25519 public key.
        key: [u8; 32],
        /// The guest's fresh nonce; in the host's hello, the commitment
        /// `H("junqi v1 nonce", nonce)` to the host's, opened by
        /// [`Body::Nonce`] only after the guest's nonce is in. Neither side
        /// can then choose its nonce after seeing the other's: not who moves
        /// first, and not the pairing code (a relay cannot grind it).
        nonce: [u8; 32],
        /// The rule options.
        rules: Rules,
        /// The sender's display name.
        name: String,
    },
    /// The host opens its hello nonce (after the guest's hello).
    Nonce {
        /// The nonce committed to in the host's hello.
        nonce: [u8; 32],
    },
    /// Setup commitments: sent only once the player has confirmed that both
    /// screens show the same pairing code.
    Commit {
        /// `C_s` for the 25 setup slots (empty in flip games).
        pieces: Vec<Digest>,
        /// Commitment to the seed.
        seed: Digest,
        /// The oblivious-transfer key `S`.
        ot_key: [u8; 32],
        /// Flip games: the 50 entry commitments of the sender's layer.
        flip: Vec<Digest>,
    },
    /// The seed and the 25 ranks by slot: at the start of an open game and at
    /// the end-of-game audit (flip games: no ranks).
    Reveal {
        /// The game seed.
        seed: Seed,
        /// WireRank codes by slot.
        ranks: Vec<WireRank>,
    },
    /// A move to a point that is empty (or any move in open and flip games).
    Step {
        /// From (engine point index).
        from: u8,
        /// To.
        to: u8,
    },
    /// Dark games: an attack, with the oblivious-transfer request.
    Attack {
        /// From.
        from: u8,
        /// To.
        to: u8,
        /// `R`.
        r: [u8; 32],
    },
    /// Dark games: the defender's table.
    Table(OtResponse),
    /// Dark games: the attacker's label.
    Label(OtReveal),
    /// A commander died: the opening of its side's flag.
    FlagOpen(PieceOpening),
    /// Flip games: turn over the piece on a point.
    Flip {
        /// The point.
        at: u8,
    },
    /// Flip games: one layer's opening for the point being turned over.
    FlipOpen(FlipOpening),
    /// Flip games: the host accepts the guest's move that turns a piece
    /// over, so the move is final before the guest opens anything for it.
    Proceed,
    /// The side to move ran out of time at this ply (sent by the other side).
    ClaimTimeout {
        /// The ply that timed out.
        ply: u16,
    },
    /// The peer stalled inside a battle, a reveal or an answer: it forfeits.
    ClaimForfeit,
    /// The side to move has no legal move.
    NoMoves,
    /// Answer to [`Body::NoMoves`]: whether the answering side can move.
    NoMovesReply {
        /// Whether the answering side has a legal move.
        can_move: bool,
    },
    /// Offer a draw (on one's own turn).
    OfferDraw,
    /// Accept the standing offer.
    AcceptDraw,
    /// Decline it.
    DeclineDraw,
    /// Give up.
    Resign,
    /// Something is wrong: the audit starts at once.
    Dispute {
        /// Why.
        reason: String,
    },
}

impl Body {
    /// A short name for logs.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            Body::Hello { .. } => "hello",
            Body::Nonce { .. } => "nonce",
            Body::Commit { .. } => "commit",
            Body::Reveal { .. } => "reveal",
            Body::Step { .. } => "step",
            Body::Attack { .. } => "attack",
            Body::Table(_) => "table",
            Body::Label(_) => "label",
            Body::FlagOpen(_) => "flag-open",
            Body::Flip { .. } => "flip",
            Body::FlipOpen(_) => "flip-open",
            Body::Proceed => "proceed",
            Body::ClaimTimeout { .. } => "claim-timeout",
            Body::ClaimForfeit => "claim-forfeit",
            Body::NoMoves => "no-moves",
            Body::NoMovesReply { .. } => "no-moves-reply",
            Body::OfferDraw => "offer-draw",
            Body::AcceptDraw => "accept-draw",
            Body::DeclineDraw => "decline-draw",
            Body::Resign => "resign",
            Body::Dispute { .. } => "dispute",
        }
    }

    /// Checks the sizes of variable-length fields.
    ///
    /// # Errors
    /// The first field out of bounds, with its size.
    pub fn check_bounds(&self) -> Result<(), BoundsError> {
        match self {
            Body::Hello { name, .. } if name.len() > MAX_NAME => {
                Err(BoundsError::NameTooLong { len: name.len() })
            }
            Body::Commit { pieces, flip, .. }
                if !(pieces.is_empty() || pieces.len() == ARMY_SIZE)
                    || !(flip.is_empty() || flip.len() == FLIP_SIZE) =>
            {
                Err(BoundsError::CommitmentCount {
                    pieces: pieces.len(),
                    flip: flip.len(),
                })
            }
            Body::Reveal { ranks, .. } if !(ranks.is_empty() || ranks.len() == ARMY_SIZE) => {
                Err(BoundsError::RevealedRankCount { len: ranks.len() })
            }
            Body::Table(t) if t.label_hashes.len() > AnnouncementTable::MAX_ALPHABET => {
                Err(BoundsError::TooManyLabelHashes {
                    len: t.label_hashes.len(),
                })
            }
            Body::Dispute { reason } if reason.len() > MAX_REASON => {
                Err(BoundsError::ReasonTooLong { len: reason.len() })
            }
            _ => Ok(()),
        }
    }
}

/// Which bound of [`Body::check_bounds`] a message breaks, and by how much.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BoundsError {
    /// A hello's name longer than [`MAX_NAME`] bytes.
    #[error("name too long: {len} bytes, at most {MAX_NAME}")]
    NameTooLong {
        /// Its length in bytes.
        len: usize,
    },
    /// Commitments neither empty nor one per setup slot / flip entry.
    #[error(
        "wrong number of commitments: {pieces} pieces (0 or {ARMY_SIZE}), {flip} flip entries (0 or {FLIP_SIZE})"
    )]
    CommitmentCount {
        /// Piece commitments sent.
        pieces: usize,
        /// Flip-entry commitments sent.
        flip: usize,
    },
    /// Revealed ranks neither empty nor one per setup slot.
    #[error("wrong number of revealed ranks: {len} (0 or {ARMY_SIZE})")]
    RevealedRankCount {
        /// Ranks sent.
        len: usize,
    },
    /// More label hashes than any table has announcements.
    #[error(
        "too many label hashes: {len}, at most {}",
        AnnouncementTable::MAX_ALPHABET
    )]
    TooManyLabelHashes {
        /// Hashes sent.
        len: usize,
    },
    /// A dispute's reason longer than [`MAX_REASON`] bytes.
    #[error("reason too long: {len} bytes, at most {MAX_REASON}")]
    ReasonTooLong {
        /// Its length in bytes.
        len: usize,
    },
}

/// The engine's side of a seat: the host plays South.
#[must_use]
pub fn side_of(seat: Seat) -> Side {
    match seat {
        Seat::Host => Side::South,
        Seat::Guest => Side::North,
    }
}

/// The seat of an engine side.
#[must_use]
pub fn seat_of(side: Side) -> Seat {
    if side == Side::South {
        Seat::Host
    } else {
        Seat::Guest
    }
}

/// The protocol rank of an engine rank.
#[must_use]
pub fn rank_from_game(r: junqi_game::Rank) -> WireRank {
    use junqi_game::Rank as G;
    match r {
        G::Commander => WireRank::Commander,
        G::Corps => WireRank::Corps,
        G::Division => WireRank::Division,
        G::Brigade => WireRank::Brigade,
        G::Regiment => WireRank::Regiment,
        G::Battalion => WireRank::Battalion,
        G::Company => WireRank::Company,
        G::Platoon => WireRank::Platoon,
        G::Engineer => WireRank::Engineer,
        G::Landmine => WireRank::Mine,
        G::Bomb => WireRank::Bomb,
        G::Flag => WireRank::Flag,
    }
}

/// The engine rank of a protocol rank.
#[must_use]
pub fn rank_to_game(r: WireRank) -> junqi_game::Rank {
    use junqi_game::Rank as G;
    match r {
        WireRank::Commander => G::Commander,
        WireRank::Corps => G::Corps,
        WireRank::Division => G::Division,
        WireRank::Brigade => G::Brigade,
        WireRank::Regiment => G::Regiment,
        WireRank::Battalion => G::Battalion,
        WireRank::Company => G::Company,
        WireRank::Platoon => G::Platoon,
        WireRank::Engineer => G::Engineer,
        WireRank::Mine => G::Landmine,
        WireRank::Bomb => G::Bomb,
        WireRank::Flag => G::Flag,
    }
}

/// What a battle delivers when the engine announces `a` and the defender
/// has rank `d` (shown only when `a` says so).
#[must_use]
pub fn announced(a: &Announcement, d: WireRank) -> Announced {
    Announced::new(*a, a.defender_revealed.then_some(d))
}

/// The engine announcement of what a battle delivered, and the defender's
/// rank when it is shown.
#[must_use]
pub fn announcement_of(o: &Announced) -> (Announcement, Option<junqi_game::Rank>) {
    (o.announcement(), o.revealed().map(rank_to_game))
}

/// `f(c, d)` from the engine's combat rules ([`Rules::announce`]).
#[must_use]
pub fn table_from_rules(rules: &Rules) -> AnnouncementTable {
    AnnouncementTable::from_fn(|a, d| {
        announced(&rules.announce(rank_to_game(a), rank_to_game(d)), d)
    })
    .expect("the engine's table has few outcomes")
}

/// The 25 ranks of a deployment by slot.
#[must_use]
pub fn slots_of(layout: &Layout, side: Side) -> Vec<WireRank> {
    let board = Board::classic();
    board
        .setup_points(side)
        .iter()
        .map(|&p| {
            let i = board.info(p);
            layout
                .get(i.row, i.col)
                .map_or(WireRank::Flag, rank_from_game)
        })
        .collect()
}

/// A layout from 25 ranks by slot (may break the setup rules).
#[must_use]
pub fn layout_of(ranks: &[WireRank], side: Side) -> Layout {
    let board = Board::classic();
    let mut l = Layout::empty();
    for (&p, &r) in board.setup_points(side).iter().zip(ranks) {
        let i = board.info(p);
        l.set(i.row, i.col, Some(rank_to_game(r)));
    }
    l
}

/// The setup point of `side`'s slot on `board` (the classic board, or the
/// four-player board of a two-player game with `Rules::four_player_board`):
/// slots are numbered on the classic board ([`slots_of`]), and a half has
/// the same rows and columns on either board.
#[must_use]
pub fn slot_point(board: &Board, side: Side, slot: u8) -> Option<Point> {
    let classic = Board::classic();
    let at = *classic.setup_points(side).get(slot as usize)?;
    let (row, col) = (classic.info(at).row, classic.info(at).col);
    board.setup_points(side).iter().copied().find(|&p| {
        let i = board.info(p);
        (i.row, i.col) == (row, col)
    })
}

/// The slot of a setup point of `side`.
#[must_use]
pub fn point_slot(side: Side, p: Point) -> Option<u8> {
    Board::classic()
        .setup_points(side)
        .iter()
        .position(|&q| q == p)
        .map(|i| i as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slot_is_the_same_square_of_the_half_on_either_board() {
        for board in [Board::classic(), Board::four_player()] {
            for side in [Side::South, Side::North] {
                let points: Vec<Point> = (0..25)
                    .map(|s| slot_point(board, side, s).expect("a setup point"))
                    .collect();
                let mut sorted = points.clone();
                sorted.sort_unstable_by_key(|p| p.index());
                sorted.dedup();
                assert_eq!(sorted.len(), 25, "25 distinct points");
                for &p in &points {
                    assert!(board.setup_points(side).contains(&p));
                }
            }
        }
        assert_eq!(slot_point(Board::classic(), Side::South, 25), None);
    }

    #[test]
    fn ranks_round_trip() {
        for r in WireRank::ALL {
            assert_eq!(rank_from_game(rank_to_game(r)), r);
        }
        for r in junqi_game::Rank::ALL {
            assert_eq!(rank_to_game(rank_from_game(r)), r);
            // The oblivious transfer indexes attackers by the first codes.
            assert_eq!(rank_from_game(r).is_movable(), r.is_movable());
        }
    }

    #[test]
    fn layouts_round_trip_through_slots() {
        let l = junqi_game::classic_layouts()[0].layout;
        for side in Side::TWO {
            let slots = slots_of(&l, side);
            assert_eq!(slots.len(), 25);
            assert_eq!(layout_of(&slots, side), l);
        }
    }

    #[test]
    fn announcements_round_trip() {
        let rules = Rules {
            engineer_scouting: true,
            ..Rules::default()
        };
        let t = table_from_rules(&rules);
        for o in t.alphabet() {
            let (a, d) = announcement_of(o);
            assert_eq!(announced(&a, d.map_or(WireRank::Flag, rank_from_game)), *o);
        }
    }
}
