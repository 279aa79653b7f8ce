//! What every stage of a session shares ([`Core`]): who this side is, its secrets, the signed
//! log and the queues to the app and the peer.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use junqi_game::{Layout, Rules, Side};

use super::event::AppEvent;
use super::timers::DEFAULT_GRACE;
use crate::audit::Fault;
use crate::cheats::Cheats;
use crate::crypto::{Digest, Seed, ZERO_DIGEST};
use crate::envelope::{Envelope, Transcript};
use crate::evidence::Evidence;
use crate::fault::FaultKind;
use crate::frame::encode_frame;
use crate::ot::OtKey;
use crate::rank::Seat;
use crate::wire::{Body, side_of};

/// What every stage shares: who this side is, its secrets, the signed log
/// and the queues to the app and the peer.
#[derive(Clone)]
pub(super) struct Core {
    pub(super) seat: Seat,
    pub(super) me: Side,
    pub(super) name: String,
    pub(super) grace: Duration,
    pub(super) transcript: Transcript,
    pub(super) seed: Seed,
    pub(super) nonce: [u8; 32],
    pub(super) ot_key: OtKey,
    /// The host's proposal; the guest's from the host's hello on.
    pub(super) rules: Rules,
    /// What is saved to resume (the host's from the start, the guest's once it accepts).
    pub(super) layout: Option<Layout>,
    /// The peer's ed25519 key (zeros until its hello).
    pub(super) peer_key: [u8; 32],
    /// Zeros until both nonces are known.
    pub(super) game_id: Digest,
    pub(super) first: Side,
    pub(super) log: Vec<Envelope<Body>>,
    pub(super) out: VecDeque<Vec<u8>>,
    pub(super) events: VecDeque<AppEvent>,
    /// The first fault seen, in any stage.
    pub(super) fault: Option<Fault>,
    pub(super) peer_disputed: bool,
    /// Rebuilding from a saved log: claims are not checked against the clock
    /// (the live session already checked them, and its answer is in the log).
    pub(super) replaying: bool,
    /// Rebuilding: the side refused the message being replayed (its next own
    /// logged message is a dispute), so a claim failed its clock check then.
    pub(super) replay_refuses: bool,
    /// Rebuilding: the side's fault came from a logged dispute that the log
    /// itself does not support.
    pub(super) fault_unsupported: bool,
    /// The turn clock the next message sent carries (its signed `turn_ms`).
    pub(super) turn_ms: u32,
    /// Rebuilding: the turn clocks of this side's logged messages, by sequence
    /// number (a clock is not read again when a log is replayed).
    pub(super) replay_clocks: Vec<u32>,
    /// Restored from a journal: nothing new is sent (no move, no claim) until the peer's
    /// stream start shows that it holds no more of this side's messages than the journal
    /// (a newer message would reuse sequence numbers and battle counters the peer has seen).
    pub(super) resync_pending: bool,
    #[cfg(feature = "testing")]
    pub(super) cheats: Cheats,
    /// Messages of each kind sent so far (for [`Cheats::rewrites`]).
    #[cfg(feature = "testing")]
    pub(super) sent_kinds: std::collections::HashMap<&'static str, usize>,
}

impl Core {
    pub(super) fn new(
        seat: Seat,
        rules: Rules,
        transcript: Transcript,
        seed: Seed,
        nonce: [u8; 32],
        name: &str,
    ) -> Core {
        Core {
            seat,
            me: side_of(seat),
            name: name.chars().take(32).collect(),
            grace: DEFAULT_GRACE,
            transcript,
            ot_key: OtKey::from_seed(&seed),
            seed,
            nonce,
            rules,
            layout: None,
            peer_key: [0; 32],
            game_id: ZERO_DIGEST,
            first: Side::South,
            log: Vec::new(),
            out: VecDeque::new(),
            events: VecDeque::new(),
            fault: None,
            peer_disputed: false,
            replaying: false,
            replay_refuses: false,
            fault_unsupported: false,
            turn_ms: 0,
            replay_clocks: Vec::new(),
            resync_pending: false,
            #[cfg(feature = "testing")]
            cheats: Cheats::default(),
            #[cfg(feature = "testing")]
            sent_kinds: std::collections::HashMap::new(),
        }
    }

    #[cfg(feature = "testing")]
    pub(super) fn cheats(&self) -> &Cheats {
        &self.cheats
    }

    #[cfg(not(feature = "testing"))]
    #[allow(clippy::unused_self)]
    pub(super) fn cheats(&self) -> &'static Cheats {
        &NO_CHEATS
    }

    pub(super) fn peer(&self) -> Side {
        self.me.opponent()
    }

    pub(super) fn peer_seat(&self) -> Seat {
        self.seat.other()
    }

    pub(super) fn move_time(&self) -> Duration {
        Duration::from_secs(u64::from(self.rules.move_seconds.max(1)))
    }

    /// Whether `deadline` has passed on this side's clock; when rebuilding
    /// from a log, whether the side accepted the claim then.
    pub(super) fn clock_passed(&self, now: Instant, deadline: Instant) -> bool {
        if self.replaying {
            !self.replay_refuses
        } else {
            now >= deadline
        }
    }

    pub(super) fn send(&mut self, body: Body) {
        #[cfg(feature = "testing")]
        let body = {
            let seen = self.sent_kinds.entry(body.kind()).or_insert(0);
            let n = *seen;
            *seen += 1;
            match self.cheats.rewrite(&body, n) {
                Some(Some(other)) => other,
                Some(None) => return,
                None => body,
            }
        };
        let turn_ms = std::mem::take(&mut self.turn_ms);
        let turn_ms = if self.replaying {
            let seq = self.transcript.counts().0 as usize;
            self.replay_clocks.get(seq).copied().unwrap_or(turn_ms)
        } else {
            turn_ms
        };
        let env = self
            .transcript
            .seal_at(body, turn_ms)
            .expect("own messages fit a frame");
        let bytes = encode_frame(&env).expect("own messages fit a frame");
        self.log.push(env);
        self.out.push_back(bytes);
    }

    /// Keeps the first fault (and tells the app once); returns it.
    pub(super) fn record_fault(
        &mut self,
        culprit: Side,
        reason: FaultKind,
        evidence: Evidence,
    ) -> Fault {
        if let Some(f) = &self.fault {
            return f.clone();
        }
        self.events.push_back(AppEvent::Fault {
            culprit,
            reason: reason.clone(),
        });
        let f = Fault {
            culprit,
            reason,
            evidence,
        };
        self.fault = Some(f.clone());
        f
    }

    /// Tells the peer why this side stops: the English sentence, cut on a
    /// character boundary (`String::truncate` panics inside a character).
    pub(super) fn dispute(&mut self, reason: &FaultKind) {
        let mut r = reason.to_string();
        let mut end = r.len().min(crate::wire::MAX_REASON);
        while !r.is_char_boundary(end) {
            end -= 1;
        }
        r.truncate(end);
        self.send(Body::Dispute { reason: r });
    }
}

#[cfg(not(feature = "testing"))]
static NO_CHEATS: Cheats = Cheats::NONE;
