//! The session's deadlines, one slot per kind (quinn-proto's `TimerTable`):
//! each stage arms the timers it needs, [`super::Session::poll_timeout`] is
//! the earliest armed one and [`super::Session::handle_timeout`] fires the
//! expired ones.

use std::time::{Duration, Instant};

/// The latency bound: the one-way network latency the protocol assumes, and
/// the one constant every deadline of play derives from (`net/README.md`,
/// "Time"). The waiting side claims a move a round trip (2 × the bound)
/// after the mover's deadline, an answer or a reply two round trips after;
/// the claimed-on side accepts a claim only once its own deadline has
/// passed on its own clock. With one-way latency within the bound an honest
/// message never crosses an honest claim. A timeout claim that did cross a
/// move voids it only if the move was sent within the claim margin of its
/// deadline on the mover's signed clock ([`crate::envelope::Header::turn_ms`]);
/// any other crossing claim is the claimant's violation.
pub const LATENCY_BOUND: Duration = Duration::from_secs(2);

/// The grace a session starts with: the latency bound ([`Session::set_grace`](super::Session::set_grace)
/// changes it for tests of other networks).
pub const DEFAULT_GRACE: Duration = LATENCY_BOUND;

/// How long the players have to compare the pairing codes: from the code
/// shown until both commitments are in. Then the game ends before it began,
/// with no winner and nobody blamed ([`FaultKind::PairingTimeout`](crate::FaultKind::PairingTimeout)).
pub const PAIRING_TIMEOUT: Duration = Duration::from_secs(5 * 60);

/// What a deadline is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Timer {
    /// The peer's next handshake message (hello, nonce, commitment, open reveal).
    Handshake,
    /// The players' comparison of the pairing codes, until both commitments are in.
    Pairing,
    /// This side's own debt in play: its move clock, its draw answer.
    MyClock,
    /// The peer's debt in play, overdue by the claim margin: claim.
    ClaimPeer,
    /// The peer's reveal after the end of the game.
    PeerReveal,
}

/// How many timers there are.
pub(super) const COUNT: usize = Timer::ALL.len();

impl Timer {
    const ALL: [Timer; 5] = [
        Timer::Handshake,
        Timer::Pairing,
        Timer::MyClock,
        Timer::ClaimPeer,
        Timer::PeerReveal,
    ];
}

/// One optional deadline per [`Timer`].
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct TimerTable {
    data: [Option<Instant>; COUNT],
}

impl TimerTable {
    pub(super) fn get(&self, timer: Timer) -> Option<Instant> {
        self.data[timer as usize]
    }

    pub(super) fn set(&mut self, timer: Timer, at: Instant) {
        self.data[timer as usize] = Some(at);
    }

    pub(super) fn stop(&mut self, timer: Timer) {
        self.data[timer as usize] = None;
    }

    pub(super) fn stop_all(&mut self) {
        self.data = [None; COUNT];
    }

    /// The earliest armed deadline.
    pub(super) fn next(&self) -> Option<Instant> {
        self.data.iter().flatten().min().copied()
    }

    /// The earliest timer whose deadline is at or before `now`.
    pub(super) fn expired(&self, now: Instant) -> Option<Timer> {
        Timer::ALL
            .into_iter()
            .filter_map(|t| self.get(t).filter(|&at| at <= now).map(|at| (at, t)))
            .min_by_key(|&(at, _)| at)
            .map(|(_, t)| t)
    }
}
