//! What the app learns from a [`super::Session`]: [`AppEvent`].

use junqi_game::{Event, GameResult, Rules, Side};

use super::verdict::Verdict;
use crate::crypto::Digest;
use crate::fault::FaultKind;

/// What the app learns from the session.
#[derive(Clone, Debug, PartialEq)]
pub enum AppEvent {
    /// Both nonces are in: show this code and ask the player to compare it
    /// with the other screen; call [`Session::confirm_pairing`](super::Session::confirm_pairing) when they
    /// match. Nothing about the setup is sent before that.
    PairingCode {
        /// Six digits, `"123-456"`.
        code: String,
    },
    /// Guest: the host proposes these rules; call [`Session::accept`](super::Session::accept) to join.
    RulesOffered {
        /// The rules.
        rules: Rules,
        /// The host's display name.
        peer_name: String,
    },
    /// Both setups are committed: play begins.
    Started {
        /// This side.
        me: Side,
        /// Who moves first.
        first: Side,
        /// The game id.
        game_id: Digest,
    },
    /// A public event, already applied to [`Session::view`](super::Session::view).
    Game(Event),
    /// It is this side's turn.
    YourTurn,
    /// This side's move clock ran out; the peer will claim the timeout.
    TimeExpired,
    /// The peer offers a draw: answer with [`Session::accept_draw`](super::Session::accept_draw) or
    /// [`Session::decline_draw`](super::Session::decline_draw).
    DrawOffered,
    /// The peer broke the protocol; the game ends and the audit runs.
    Fault {
        /// Who cheated.
        culprit: Side,
        /// What was seen.
        reason: FaultKind,
    },
    /// The game is over (the audit follows).
    Finished(GameResult),
    /// The end-of-game audit.
    Verdict(Verdict),
}
