//! Where the audit stage stands ([`Audit`]): the result, the acts to check and what the
//! reveals are checked against ([`Setups`]).

use junqi_game::{GameResult, PlayerView};

use super::mode::Flip;
use super::setup_state::PeerCommit;
use crate::announced::AnnouncementTable;
use crate::audit::Act;
use crate::commit::SetupCommitment;
use crate::crypto::{Digest, Seed};
use crate::rank::WireRank;

#[derive(Clone)]
pub(super) struct Audit {
    pub(super) result: GameResult,
    /// The final board, if play began.
    pub(super) view: Option<PlayerView>,
    pub(super) acts: Vec<Act>,
    pub(super) peer: PeerCommit,
    pub(super) setups: Setups,
    pub(super) peer_reveal: Option<(Seed, Vec<WireRank>)>,
    /// Whether this side has opened its seed and setup: at once if its own
    /// message ended the game, else only after the peer's opening checked out.
    pub(super) revealed: bool,
    /// Messages read after the end of the game.
    pub(super) after_end: u32,
}

/// What the audit checks the reveals against.
// Lives boxed in `Stage::Audit`: the variants' sizes do not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
pub(super) enum Setups {
    /// Dark and open games: both setups, square by square.
    Army {
        mine: SetupCommitment,
        peer_pieces: Vec<Digest>,
        table: AnnouncementTable,
    },
    /// Flip games: both shuffle layers and the local referee.
    Flip(Flip),
}

impl Audit {
    /// Whether this side has opened its seed and setup.
    pub(super) fn revealed(&self) -> bool {
        self.revealed
    }

    pub(super) fn result(&self) -> GameResult {
        self.result
    }

    pub(super) fn view(&self) -> Option<&PlayerView> {
        self.view.as_ref()
    }

    pub(super) fn into_view(self) -> Option<PlayerView> {
        self.view
    }
}
