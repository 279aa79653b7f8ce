//! What a [`super::PeerHandle`]'s owner and the game's thread say to each other: the owner's
//! [`PeerCmd`]s and the thread's [`PeerEvent`]s, in order.

use std::io;
use std::path::PathBuf;
use std::sync::Arc;

use junqi_game::{Event, GameResult, Layout, Move, PlayerView, Rules, Side};

use super::error::PeerError;
use crate::session::{SessionError, Verdict};

/// The owner's decisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PeerCmd {
    /// Guest: accept the host's rules ([`PeerEvent::RulesOffered`]) with a first layout (the
    /// player may arrange another until it is ready).
    Accept(Layout),
    /// The player compared the pairing codes and arranged its army: commit to this layout
    /// (ignored in flip games). Play begins once both sides are ready.
    Ready(Layout),
    /// Play a move.
    Play(Move),
    /// Offer a draw.
    OfferDraw,
    /// Accept the peer's draw offer.
    AcceptDraw,
    /// Decline the peer's draw offer.
    DeclineDraw,
    /// Resign.
    Resign,
    /// Break the connection as a failing network would (the session stays; both sides
    /// reconnect and resume). For tests of the reconnection.
    Disconnect,
    /// Leave: the thread stops (the journal is kept for a resume if play had begun).
    Quit,
}

/// What the game's thread reports, in order.
#[derive(Clone, Debug)]
pub enum PeerEvent {
    /// The host listens on this port (and is advertised when mDNS is on).
    Listening {
        /// The UDP port.
        port: u16,
    },
    /// Connected (again) to the peer.
    Connected,
    /// The connection dropped; reconnecting.
    Dropped(Arc<io::Error>),
    /// Both hello nonces are in: show the code; the players compare it on both screens, then
    /// each arranges its army and is [`PeerCmd::Ready`]. Nothing about the setup is sent before.
    PairingCode {
        /// The code, `"123-456"`.
        code: String,
        /// The peer's name.
        peer: String,
        /// The host's rules.
        rules: Rules,
        /// Whether this side hosts.
        host: bool,
    },
    /// Guest: the host's rules; answer with [`PeerCmd::Accept`].
    RulesOffered {
        /// The rules.
        rules: Rules,
        /// The host's name.
        peer: String,
    },
    /// The peer is ready: its army is committed.
    PeerReady,
    /// Both armies are committed: play begins (or a saved game resumes) from this view.
    Started {
        /// This side.
        me: Side,
        /// The pairing code both screens show.
        code: String,
        /// The peer's name.
        peer: String,
        /// The player's view: the snapshot the events that follow apply to.
        view: Box<PlayerView>,
        /// Whether the session accepts a move now.
        my_turn: bool,
    },
    /// One public event, to apply to the view.
    Game(Event),
    /// A move of this side was voided: only the first `kept` events of the view stand (see
    /// [`super::rewind`]); the events that follow apply to that view.
    Voided {
        /// How many of the view's events stand.
        kept: usize,
    },
    /// Whether the session accepts a move now (reported when it changes).
    Turn(bool),
    /// The peer offers a draw.
    DrawOffered,
    /// The player's move clock ran out.
    TimeExpired,
    /// A decision was refused.
    Refused(SessionError),
    /// The peer broke the protocol.
    Fault {
        /// Who.
        culprit: Side,
        /// What was seen.
        reason: crate::FaultKind,
    },
    /// The game is over (the audit follows).
    Finished(GameResult),
    /// The finished game's signed log was kept at this path, as a journal `junqi-audit` reads
    /// (sent just before [`PeerEvent::Verdict`]; the live journal is deleted once the game is
    /// done). Only with a data folder.
    Kept(PathBuf),
    /// The finished game's signed log could not be kept (the game is unaffected; its record
    /// just cannot be exported for an audit).
    NotKept(Arc<io::Error>),
    /// The end-of-game audit.
    Verdict(Verdict),
    /// A fatal error: the thread stops.
    Error(PeerError),
    /// The thread stopped: nothing more comes.
    Stopped,
}
