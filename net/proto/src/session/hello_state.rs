//! Where the hello exchange stands ([`Hello`]): the hello stage's data.

use junqi_game::Layout;

/// Where the hello exchange stands.
#[derive(Clone, Debug)]
pub(super) enum Hello {
    /// Host: its hello (with the nonce commitment) is out; waiting for the guest's.
    HostWaits { layout: Layout },
    /// Guest: waiting for the host's hello.
    GuestWaits,
    /// Guest: the host's rules are offered; waiting for the player to accept.
    Accept { nonce_commit: [u8; 32] },
    /// Guest: its hello (with its nonce) is out; waiting for the host to open its nonce.
    Nonce {
        nonce_commit: [u8; 32],
        layout: Layout,
    },
}

impl Hello {
    pub(super) fn name(&self) -> &'static str {
        match self {
            Hello::HostWaits { .. } | Hello::GuestWaits => "hello",
            Hello::Accept { .. } => "accept",
            Hello::Nonce { .. } => "nonce",
        }
    }

    /// Whether the peer's hello is what comes next.
    pub(super) fn awaits_hello(&self) -> bool {
        matches!(self, Hello::HostWaits { .. } | Hello::GuestWaits)
    }

    /// Whether the peer owes the next message (not this side's player).
    pub(super) fn awaits_peer(&self) -> bool {
        !matches!(self, Hello::Accept { .. })
    }
}
