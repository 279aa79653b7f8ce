//! LAN verdicts, faults and refusals in the player's language.
//!
//! The protocol core reports a refused request as a typed `SessionError` and a fault or an
//! audit verdict as a typed `FaultKind`; both are translated here variant by variant. A
//! fault's kind is what the player is told ("played an illegal move", "revealed a setup other
//! than the one it committed to"…); the precise finding inside it (the engine's error, the
//! battle, the flip entry) is kept as the detail, in English, for whoever checks the game.
//! `FaultKind` is `#[non_exhaustive]`: a kind this build does not know yet falls back to
//! "broke the protocol" with its English sentence as the detail, so nothing is ever hidden.

use junqi_net::FaultKind;
use junqi_net::commit::RevealError;
use junqi_net::ot::BattleCheat;
use junqi_net::peer::PeerError;
use junqi_net::session::SessionError;

use crate::i18n::Lang;

/// The i18n key of a fault's kind.
fn fault_key(kind: &FaultKind) -> &'static str {
    match kind {
        FaultKind::BadFrame(_) => "fault.frame",
        FaultKind::BadKey => "fault.hello",
        FaultKind::RefusedMessage(_) => "fault.refused",
        FaultKind::Malformed { .. } => "fault.malformed",
        FaultKind::OtherGame => "fault.other_game",
        FaultKind::NoHandshake => "fault.handshake",
        FaultKind::PairingTimeout => "fault.pairing_timeout",
        FaultKind::OtherRules => "fault.other_rules",
        FaultKind::UnplayableRules(_) => "fault.unplayable_rules",
        FaultKind::NonceMismatch => "fault.nonce",
        FaultKind::BadCommitment(_) => "fault.bad_commit",
        FaultKind::OutOfTurn(_) => "fault.out_of_turn",
        FaultKind::Unexpected(_) | FaultKind::RanksInFlipGame => "fault.unexpected",
        FaultKind::IllegalMove(_) => "fault.move",
        FaultKind::RepeatedDrawOffer => "fault.draw_twice",
        FaultKind::EarlyTimeoutClaim { .. } => "fault.early_timeout",
        FaultKind::BaselessForfeitClaim => "fault.baseless_forfeit",
        FaultKind::FalseNoMoves => "fault.no_moves",
        FaultKind::FalseNoMovesReply(_) => "fault.no_moves_reply",
        FaultKind::BadRequest(_) => "fault.request",
        FaultKind::CorruptTable(_) => "fault.table",
        FaultKind::FalseOutcome(_) => "fault.outcome",
        FaultKind::Battle { cheat, .. } => match cheat {
            BattleCheat::FalseOutcome => "fault.outcome",
            BattleCheat::TableMismatch | BattleCheat::LabelMismatch => "fault.table",
            BattleCheat::WrongRank => "fault.rank",
            BattleCheat::KeyMismatch | BattleCheat::InvalidKey => "fault.battle_key",
            BattleCheat::ImmovableAttacker => "fault.move",
            _ => "fault.battle",
        },
        FaultKind::BadFlagOpening => "fault.flag",
        FaultKind::BadFlipOpening(_)
        | FaultKind::PieceOpenedTwice(_)
        | FaultKind::WrongPiece { .. } => "fault.flip",
        FaultKind::BadShuffle => "fault.shuffle",
        FaultKind::SetupMismatch(RevealError::Seed) | FaultKind::KeyMismatch => "fault.seed",
        FaultKind::SetupMismatch(_) => "fault.commit",
        FaultKind::IllegalSetup(_) => "fault.setup",
        FaultKind::RefusedToOpen => "fault.no_reveal",
        FaultKind::Flooding(_) => "fault.flooding",
        FaultKind::PeerDisputes(_) => "fault.dispute",
        FaultKind::OwnDispute(_) => "fault.own_dispute",
        FaultKind::UnsupportedDispute => "fault.unsupported_dispute",
        FaultKind::StaleJournal { .. } => "fault.stale_journal",
        FaultKind::ClaimCrossedEarlyMove { .. } => "fault.claim_early_move",
        FaultKind::MoveClockContradicted { .. } => "fault.move_clock",
        _ => "fault.protocol",
    }
}

/// The precise finding inside a fault, if it says more than its kind.
fn fault_detail(kind: &FaultKind) -> Option<String> {
    match kind {
        FaultKind::BadFrame(e) => Some(e.to_string()),
        FaultKind::RefusedMessage(e) => Some(e.to_string()),
        FaultKind::Malformed { kind, bound } => Some(format!("{kind}: {bound}")),
        FaultKind::BadCommitment(d) => Some(d.to_string()),
        FaultKind::Unexpected(d) => Some(d.to_string()),
        FaultKind::IllegalMove(d) => Some(d.to_string()),
        FaultKind::IllegalSetup(d) => Some(d.to_string()),
        FaultKind::UnplayableRules(p) => Some(p.to_string()),
        FaultKind::Unreplayable(d) => Some(d.to_string()),
        FaultKind::OwnDispute(d) => Some(d.clone()),
        FaultKind::OutOfTurn(what) => Some(what.to_string()),
        FaultKind::BadRequest(e) | FaultKind::CorruptTable(e) | FaultKind::FalseOutcome(e) => {
            Some(e.to_string())
        }
        FaultKind::BadFlipOpening(e) => Some(e.to_string()),
        FaultKind::SetupMismatch(RevealError::Seed) => None,
        FaultKind::SetupMismatch(e) => Some(e.to_string()),
        FaultKind::EarlyTimeoutClaim { .. }
        | FaultKind::FalseNoMovesReply(_)
        | FaultKind::Battle { .. }
        | FaultKind::PieceOpenedTwice(_)
        | FaultKind::WrongPiece { .. }
        | FaultKind::Flooding(_)
        | FaultKind::RanksInFlipGame => Some(kind.to_string()),
        // The peer's own words are protocol data, not something to show the player.
        FaultKind::PeerDisputes(_) => None,
        FaultKind::BadKey
        | FaultKind::OtherGame
        | FaultKind::NoHandshake
        | FaultKind::PairingTimeout
        | FaultKind::OtherRules
        | FaultKind::NonceMismatch
        | FaultKind::RepeatedDrawOffer
        | FaultKind::BaselessForfeitClaim
        | FaultKind::FalseNoMoves
        | FaultKind::BadFlagOpening
        | FaultKind::BadShuffle
        | FaultKind::KeyMismatch
        | FaultKind::RefusedToOpen
        | FaultKind::UnsupportedDispute
        | FaultKind::StaleJournal { .. }
        | FaultKind::ClaimCrossedEarlyMove { .. }
        | FaultKind::MoveClockContradicted { .. } => None,
        // A kind newer than this build: its English sentence says what it is.
        _ => Some(kind.to_string()),
    }
}

/// A fault or verdict of the core: its kind in `lang`, and the precise finding as the detail
/// (`None` when the kind says it all).
pub fn fault_text(kind: &FaultKind, lang: Lang) -> (String, Option<String>) {
    (lang.t(fault_key(kind)).to_owned(), fault_detail(kind))
}

/// A refused request (a move, a draw offer, a resignation…) in `lang`.
pub fn refusal_text(e: &SessionError, lang: Lang) -> String {
    let key = match e {
        SessionError::WrongPhase => "refused.phase",
        SessionError::NotYourTurn => "refused.turn",
        SessionError::Illegal => "refused.illegal",
        SessionError::BadLayout(_) => "refused.layout",
        SessionError::ResignTooEarly => "refused.resign",
        SessionError::TimeExpired => "refused.time",
        SessionError::AlreadyOffered => "refused.offered",
        SessionError::Unplayable(_) => "refused.unplayable",
    };
    match e {
        SessionError::BadLayout(why) => {
            let problems: Vec<String> = why
                .0
                .iter()
                .map(|p| crate::game_text::problem_text(p, lang))
                .collect();
            format!(
                "{}{}{}",
                lang.t(key),
                lang.colon(),
                problems.join(lang.t("punct.list"))
            )
        }
        _ => lang.t(key).to_owned(),
    }
}

/// Why a LAN game could not go on, in `lang`: the sentence, and the precise finding (in
/// English, as the program reports it) for the details line.
pub fn peer_error_text(e: &PeerError, lang: Lang) -> (String, Option<String>) {
    let (key, detail) = match e {
        PeerError::Storage(e) => ("peer.storage", Some(e.to_string())),
        PeerError::Journal(e) => ("peer.journal", Some(e.to_string())),
        PeerError::NothingToResume => ("peer.nothing", None),
        PeerError::Restore(why) => ("peer.restore", Some(why.to_string())),
        PeerError::Session(e) => {
            return (
                format!(
                    "{}{}{}",
                    lang.t("peer.session"),
                    lang.colon(),
                    refusal_text(e, lang)
                ),
                None,
            );
        }
        PeerError::Network(e) => ("peer.network", Some(e.to_string())),
        PeerError::Thread(e) => ("peer.thread", Some(e.to_string())),
    };
    (lang.t(key).to_owned(), detail)
}

#[cfg(test)]
mod tests {
    use super::*;

    use junqi_game::{Point, SetupError};
    use junqi_net::envelope::ChainError;
    use junqi_net::findings::{CommitmentFault, MoveFault, TurnAct, Unexpected};
    use junqi_net::flip::FlipError;
    use junqi_net::frame::FrameError;
    use junqi_net::ot::OtError;
    use junqi_net::session::ReplayFault;
    use junqi_net::wire::BoundsError;

    /// One of every kind the core has today.
    fn every_kind() -> Vec<FaultKind> {
        let mut kinds = vec![
            FaultKind::BadFrame(FrameError::Truncated(3)),
            FaultKind::BadKey,
            FaultKind::RefusedMessage(ChainError::BadSignature),
            FaultKind::Malformed {
                kind: "hello",
                bound: BoundsError::NameTooLong { len: 65 },
            },
            FaultKind::OtherGame,
            FaultKind::NoHandshake,
            FaultKind::PairingTimeout,
            FaultKind::OtherRules,
            FaultKind::UnplayableRules(junqi_game::RulesProblem::FlipOnFourPlayerBoard),
            FaultKind::NonceMismatch,
            FaultKind::BadCommitment(CommitmentFault::WrongShape { pieces: 3, flip: 0 }),
            FaultKind::OutOfTurn(TurnAct::Move),
            FaultKind::Unexpected(Unexpected::LabelWithoutBattle),
            FaultKind::IllegalMove(MoveFault::OffBoard { point: 200 }),
            FaultKind::RepeatedDrawOffer,
            FaultKind::EarlyTimeoutClaim { on_move: true },
            FaultKind::BaselessForfeitClaim,
            FaultKind::FalseNoMoves,
            FaultKind::FalseNoMovesReply(false),
            FaultKind::BadRequest(OtError::InvalidPoint),
            FaultKind::CorruptTable(OtError::NoMatchingLabel),
            FaultKind::FalseOutcome(OtError::WrongLabel),
            FaultKind::BadFlagOpening,
            FaultKind::BadFlipOpening(FlipError::BadOpening(4)),
            FaultKind::PieceOpenedTwice(7),
            FaultKind::WrongPiece {
                point: 3,
                placed: 1,
                truth: 2,
            },
            FaultKind::BadShuffle,
            FaultKind::RanksInFlipGame,
            FaultKind::SetupMismatch(RevealError::Seed),
            FaultKind::SetupMismatch(RevealError::Count { got: 1, want: 25 }),
            FaultKind::KeyMismatch,
            FaultKind::IllegalSetup(SetupError::BadArrangement),
            FaultKind::RefusedToOpen,
            FaultKind::Flooding(16),
            FaultKind::Unreplayable(ReplayFault::Diverged { kind: "step" }),
            FaultKind::PeerDisputes("y".into()),
            FaultKind::OwnDispute("illegal move: x".into()),
            FaultKind::UnsupportedDispute,
        ];
        for cheat in [
            BattleCheat::KeyMismatch,
            BattleCheat::InvalidKey,
            BattleCheat::ImmovableAttacker,
            BattleCheat::WrongRank,
            BattleCheat::LabelMismatch,
            BattleCheat::TableMismatch,
            BattleCheat::FalseOutcome,
        ] {
            kinds.push(FaultKind::Battle { k: 5, cheat });
        }
        kinds
    }

    #[test]
    fn every_fault_kind_has_its_own_text_in_both_languages() {
        for kind in every_kind() {
            let key = fault_key(&kind);
            // Known kinds never fall back to the catch-all (whose text, "broke the protocol",
            // is the right one only for a log that does not follow from its seeds).
            if !matches!(kind, FaultKind::Unreplayable(_)) {
                assert_ne!(key, "fault.protocol", "{kind:?}");
            }
            let (zh, detail) = fault_text(&kind, Lang::Zh);
            let (en, en_detail) = fault_text(&kind, Lang::En);
            assert_ne!(zh, key, "{key} has a Chinese text");
            assert_ne!(en, key, "{key} has an English text");
            assert_ne!(zh, en, "{key} is translated");
            assert_eq!(detail, en_detail, "the detail is the same evidence in both");
        }
    }

    #[test]
    fn the_precise_finding_is_kept_as_the_detail() {
        let (kind, detail) = fault_text(
            &FaultKind::IllegalMove(MoveFault::OntoOccupied {
                from: Point(12),
                to: Point(13),
            }),
            Lang::Zh,
        );
        assert_eq!(kind, Lang::Zh.t("fault.move"));
        assert_eq!(
            detail.as_deref(),
            Some("a step from 12 onto the occupied point 13")
        );
        let (_, detail) = fault_text(
            &FaultKind::Battle {
                k: 9,
                cheat: BattleCheat::WrongRank,
            },
            Lang::En,
        );
        assert_eq!(
            detail.as_deref(),
            Some("battle 9: R does not encode the committed rank of the moving piece")
        );
        assert_eq!(
            fault_text(
                &FaultKind::Battle {
                    k: 9,
                    cheat: BattleCheat::WrongRank
                },
                Lang::En
            )
            .0,
            Lang::En.t("fault.rank")
        );
        // Kinds that say it all have no detail.
        assert_eq!(fault_text(&FaultKind::NoHandshake, Lang::En).1, None);
        assert_eq!(
            fault_text(&FaultKind::BaselessForfeitClaim, Lang::Zh).1,
            None
        );
    }

    #[test]
    fn the_peers_dispute_text_is_never_shown() {
        let (kind, detail) = fault_text(&FaultKind::PeerDisputes("buy gold at …".into()), Lang::En);
        assert_eq!(kind, Lang::En.t("fault.dispute"));
        assert_eq!(detail, None);
    }

    #[test]
    fn every_refusal_has_a_text_in_both_languages() {
        for e in [
            SessionError::WrongPhase,
            SessionError::NotYourTurn,
            SessionError::Illegal,
            SessionError::BadLayout(junqi_game::LayoutErrors(vec![
                junqi_game::LayoutProblem::EmptyPoint { row: 2, col: 3 },
            ])),
            SessionError::ResignTooEarly,
            SessionError::TimeExpired,
            SessionError::AlreadyOffered,
        ] {
            for lang in [Lang::Zh, Lang::En] {
                let t = refusal_text(&e, lang);
                assert!(!t.starts_with("refused."), "{e:?} in {lang:?}: {t}");
            }
        }
        assert_ne!(
            refusal_text(&SessionError::AlreadyOffered, Lang::Zh),
            refusal_text(&SessionError::AlreadyOffered, Lang::En)
        );
    }
}
