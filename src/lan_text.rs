//! LAN verdicts, faults and refusals in the player's language.
//!
//! The protocol core reports a refused request as a typed `SessionError`, translated here
//! variant by variant (a new variant fails to compile until it has a text). Faults and audit
//! verdicts still come as the core's English sentences: they are sorted here by what they
//! start with into a few kinds the player can understand ("played an illegal move", "revealed
//! a setup other than the one it committed to"…), and the English sentence is kept as the
//! detail, since it names the exact evidence for whoever checks the game. A sentence of an
//! unknown kind falls back to "broke the protocol" with the sentence as the detail, so nothing
//! is ever hidden.

use junqi_net::session::SessionError;

use crate::i18n::Lang;

/// What the core's fault sentences start with, and the key of their kind. The first match wins.
const KINDS: &[(&str, &str)] = &[
    ("battle ", "fault.battle"),
    ("refused message", "fault.refused"),
    ("malformed", "fault.malformed"),
    ("bad frame", "fault.frame"),
    ("stream closed inside a frame", "fault.frame"),
    ("invalid public key", "fault.hello"),
    ("reconnected to another game", "fault.other_game"),
    ("illegal move", "fault.move"),
    ("illegal action", "fault.move"),
    ("refused move", "fault.move"),
    ("illegal setup", "fault.setup"),
    ("setup:", "fault.setup"),
    ("opened setup does not match", "fault.commit"),
    ("the reveal does not match", "fault.commit"),
    ("the revealed seed does not match", "fault.seed"),
    ("its committed shuffle layer", "fault.shuffle"),
    ("the attacker announced a false outcome", "fault.outcome"),
    ("the defender's oblivious-transfer table", "fault.table"),
    ("table:", "fault.table"),
    ("oblivious-transfer", "fault.table"),
    ("bad flip opening", "fault.flip"),
    ("piece ", "fault.flip"),
    ("refused to open its seed", "fault.no_reveal"),
    ("the peer did not complete the handshake", "fault.handshake"),
    ("the peer disputes", "fault.dispute"),
];

/// A fault or verdict sentence of the core: its kind in `lang`, and the original sentence as
/// the detail (`None` when the kind says it all).
pub fn fault_text(reason: &str, lang: Lang) -> (String, Option<String>) {
    let reason = reason.trim();
    let key = KINDS
        .iter()
        .find(|(prefix, _)| reason.starts_with(prefix))
        .map_or("fault.protocol", |(_, k)| k);
    let kind = lang.t(key).to_owned();
    // Sentences that are nothing but their kind need no detail in English.
    let plain = matches!(
        reason,
        "the peer did not complete the handshake"
            | "reconnected to another game"
            | "invalid public key in hello"
    );
    let hide = reason.is_empty() || (plain && lang == Lang::En);
    let detail = (!hide).then(|| reason.to_owned());
    (kind, detail)
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
    };
    match e {
        SessionError::BadLayout(why) => format!("{}：{why}", lang.t(key)),
        _ => lang.t(key).to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cores_sentences_are_sorted_into_kinds() {
        // Sentences as the core writes them today.
        for (sentence, key) in [
            ("illegal move: not your piece", "fault.move"),
            ("refused message: bad signature", "fault.refused"),
            ("the attacker announced a false outcome: x", "fault.outcome"),
            (
                "battle 3: the attacker announced a false outcome",
                "fault.battle",
            ),
            (
                "refused to open its seed and setup at the audit",
                "fault.no_reveal",
            ),
            (
                "the revealed seed does not match its commitment",
                "fault.seed",
            ),
            ("piece 7 opened twice", "fault.flip"),
            ("something new", "fault.protocol"),
        ] {
            let (zh, detail) = fault_text(sentence, Lang::Zh);
            assert_eq!(zh, Lang::Zh.t(key), "{sentence}");
            assert_ne!(zh, key, "{key} has a text");
            assert_eq!(detail.as_deref(), Some(sentence), "the evidence is kept");
            assert_eq!(fault_text(sentence, Lang::En).0, Lang::En.t(key));
        }
        assert_eq!(
            fault_text("the peer did not complete the handshake", Lang::En).1,
            None
        );
    }

    #[test]
    fn every_refusal_has_a_text_in_both_languages() {
        for e in [
            SessionError::WrongPhase,
            SessionError::NotYourTurn,
            SessionError::Illegal,
            SessionError::BadLayout("x".into()),
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
