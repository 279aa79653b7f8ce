//! Scripted cheats: how a test makes one side of a game dishonest.

use junqi_game::Layout;

use crate::flip::FLIP_SIZE;
use crate::wire::Body;

/// Scripted cheats for the test harness: each makes this side break the
/// protocol in one way. Only the `testing` feature can set them; a release
/// build always runs with [`Cheats::NONE`].
#[derive(Clone, Debug, Default)]
pub struct Cheats {
    /// Commit to (and reveal) these ranks while playing the real layout.
    pub commit_layout: Option<Layout>,
    /// Commit honestly but reveal these ranks at the audit.
    pub reveal_layout: Option<Layout>,
    /// As defender, corrupt this table entry (`Some(None)`: every entry).
    pub corrupt_table: Option<Option<usize>>,
    /// As attacker, announce another outcome than the one decrypted.
    pub false_outcome: bool,
    /// Open a wrong square when the commander dies.
    pub bad_flag_opening: bool,
    /// Never send the audit reveal.
    pub refuse_reveal: bool,
    /// As attacker, walk away after decrypting the outcome.
    pub withhold_label: bool,
    /// Flip games: commit to these values for this side's shuffle layer
    /// instead of the seed's permutation (a forged, possibly repeating map).
    pub flip_values: Option<[u8; FLIP_SIZE]>,
    /// Flip games: open every entry of this side's layer with a wrong value.
    pub bad_flip_opening: bool,
    /// Flip games: never send an opening of this side's layer.
    pub withhold_flip_opening: bool,
    /// A hostile peer: replace (or, with `None`, withhold) some of this
    /// side's own messages, signed and chained as if honest.
    pub rewrites: Vec<Rewrite>,
}

/// Replaces the `nth` (from 0) message of one kind that this side sends.
#[derive(Clone, Debug)]
pub struct Rewrite {
    /// [`Body::kind`] of the message to replace.
    pub kind: &'static str,
    /// Which one of that kind (0: the first).
    pub nth: usize,
    /// What to send instead (`None`: nothing).
    pub with: Option<Body>,
    /// Rewrites every one of that kind from the `nth` on, not just one.
    pub every: bool,
}

impl Cheats {
    /// An honest side.
    pub const NONE: Cheats = Cheats {
        commit_layout: None,
        reveal_layout: None,
        corrupt_table: None,
        false_outcome: false,
        bad_flag_opening: false,
        refuse_reveal: false,
        withhold_label: false,
        flip_values: None,
        bad_flip_opening: false,
        withhold_flip_opening: false,
        rewrites: Vec::new(),
    };

    /// What to send instead of `body` (`None`: unchanged), counting `seen`
    /// messages of each kind.
    #[cfg(feature = "testing")]
    pub(crate) fn rewrite(&self, body: &Body, seen: usize) -> Option<Option<Body>> {
        self.rewrites
            .iter()
            .find(|r| r.kind == body.kind() && (seen == r.nth || r.every && seen > r.nth))
            .map(|r| r.with.clone())
    }
}
