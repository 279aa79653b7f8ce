//! The engine's typed game terms in the player's language: the AI levels, the ranks, the AI's
//! hint reasons and the layout problems. The engine gives identifiers and typed reasons
//! ([`junqi_game::ai::Level`], [`junqi_game::Rank`], [`junqi_game::ai::HintReason`],
//! [`junqi_game::LayoutProblem`]); the words are in the Fluent files (`assets/i18n/`).

use junqi_game::ai::{Hint, HintReason, Level};
use junqi_game::{LayoutProblem, Rank};

use crate::i18n::Lang;

/// An AI level's name.
pub fn level_name(level: Level, lang: Lang) -> &'static str {
    lang.t(match level {
        Level::Novice => "level.novice",
        Level::Skilled => "level.skilled",
        Level::Expert => "level.expert",
        Level::Master => "level.master",
    })
}

/// A rank's name.
pub fn rank_name(rank: Rank, lang: Lang) -> &'static str {
    lang.t(match rank {
        Rank::Commander => "rank.commander",
        Rank::Corps => "rank.corps",
        Rank::Division => "rank.division",
        Rank::Brigade => "rank.brigade",
        Rank::Regiment => "rank.regiment",
        Rank::Battalion => "rank.battalion",
        Rank::Company => "rank.company",
        Rank::Platoon => "rank.platoon",
        Rank::Engineer => "rank.engineer",
        Rank::Landmine => "rank.landmine",
        Rank::Bomb => "rank.bomb",
        Rank::Flag => "rank.flag",
    })
}

/// A rank's short label in `lang` (a marker, the removed-pieces list): 令 军 师 … in Chinese,
/// Cmdr Corps Div … in English.
pub fn rank_short(rank: Rank, lang: Lang) -> String {
    lang.t(match rank {
        Rank::Commander => "rank.short.commander",
        Rank::Corps => "rank.short.corps",
        Rank::Division => "rank.short.division",
        Rank::Brigade => "rank.short.brigade",
        Rank::Regiment => "rank.short.regiment",
        Rank::Battalion => "rank.short.battalion",
        Rank::Company => "rank.short.company",
        Rank::Platoon => "rank.short.platoon",
        Rank::Engineer => "rank.short.engineer",
        Rank::Landmine => "rank.short.landmine",
        Rank::Bomb => "rank.short.bomb",
        Rank::Flag => "rank.short.flag",
    })
    .to_owned()
}

/// A rank's name in `lang`, or "piece" when it is not known.
pub fn piece_name(rank: Option<Rank>, lang: Lang) -> &'static str {
    match rank {
        Some(r) => rank_name(r, lang),
        None => lang.t("rank.unknown"),
    }
}

/// The name written on a piece's face: Chinese whatever the player's language, as on a real
/// set (the board's tiles, the battle captions' bold font).
pub fn piece_face(rank: Rank) -> &'static str {
    rank_name(rank, Lang::Zh)
}

/// The AI's one-line reason for a hint or a review's better move.
pub fn hint_text(hint: &Hint, lang: Lang) -> String {
    let text = match hint.reason {
        HintReason::Flip { at } => lang.tr("hint.flip", &[("at", at.to_string().into())]),
        HintReason::TakeFlag { from, to } => lang.tr(
            "hint.take_flag",
            &[
                ("from", from.to_string().into()),
                ("to", to.to_string().into()),
            ],
        ),
        HintReason::Attack {
            from,
            to,
            likely: Some((rank, percent)),
        } => lang.tr(
            "hint.attack_likely",
            &[
                ("from", from.to_string().into()),
                ("to", to.to_string().into()),
                ("rank", rank_name(rank, lang).to_lowercase().into()),
                // An English article agrees with the rank's first sound ("an engineer").
                ("kind", rank.key().into()),
                ("percent", percent.into()),
            ],
        ),
        HintReason::Attack { from, to, .. } => lang.tr(
            "hint.attack",
            &[
                ("from", from.to_string().into()),
                ("to", to.to_string().into()),
            ],
        ),
        HintReason::Camp { from, to } => lang.tr(
            "hint.camp",
            &[
                ("from", from.to_string().into()),
                ("to", to.to_string().into()),
            ],
        ),
        HintReason::Advance { from, to } => lang.tr(
            "hint.advance",
            &[
                ("from", from.to_string().into()),
                ("to", to.to_string().into()),
            ],
        ),
        HintReason::Steady { from, to } => lang.tr(
            "hint.steady",
            &[
                ("from", from.to_string().into()),
                ("to", to.to_string().into()),
            ],
        ),
    };
    if hint.wins {
        lang.tr("hint.wins", &[("hint", text.into())])
    } else {
        text
    }
}

/// A layout problem in words, the point named by its row and column as the player counts them
/// on the board (rows from the front), after what is wrong.
pub fn problem_text(p: &LayoutProblem, lang: Lang) -> String {
    use LayoutProblem::*;
    match *p {
        WrongCount {
            rank,
            expected,
            found,
        } => lang.tr(
            "problem.count",
            &[
                ("rank", rank_name(rank, lang).into()),
                ("expected", expected.into()),
                ("found", found.into()),
            ],
        ),
        PieceInCamp { row, col, .. } => {
            lang.tr("problem.camp", &[("row", row.into()), ("col", col.into())])
        }
        FlagOutsideHeadquarters { row, col } => {
            lang.tr("problem.flag", &[("row", row.into()), ("col", col.into())])
        }
        MineOutsideBackRows { row, col } => {
            lang.tr("problem.mine", &[("row", row.into()), ("col", col.into())])
        }
        BombInFrontRow { row, col } => {
            lang.tr("problem.bomb", &[("row", row.into()), ("col", col.into())])
        }
        EmptyPoint { row, col } => {
            lang.tr("problem.empty", &[("row", row.into()), ("col", col.into())])
        }
    }
}

/// The way a four-player game is played: 四暗, 双明 or 全明.
pub fn way_key(rules: &junqi_game::Rules) -> &'static str {
    match (rules.mode, rules.partners_open) {
        (junqi_game::Mode::Open, _) => "four.open",
        (_, true) => "four.partners",
        _ => "four.dark",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use junqi_game::{Board, Move};

    fn every_reason() -> Vec<HintReason> {
        let b = Board::classic();
        let (f, t) = (b.parse_point("S53").unwrap(), b.parse_point("S43").unwrap());
        let (from, to) = (b.name_of(f), b.name_of(t));
        let mut out = vec![
            HintReason::Flip { at: from },
            HintReason::TakeFlag { from, to },
            HintReason::Attack {
                from,
                to,
                likely: None,
            },
            HintReason::Camp { from, to },
            HintReason::Advance { from, to },
            HintReason::Steady { from, to },
        ];
        out.extend(Rank::ALL.map(|r| HintReason::Attack {
            from,
            to,
            likely: Some((r, 40)),
        }));
        out
    }

    #[test]
    fn every_level_rank_and_hint_reason_has_words_in_both_languages() {
        for l in Level::ALL {
            assert_ne!(level_name(l, Lang::Zh), level_name(l, Lang::En));
            assert!(level_name(l, Lang::En).is_ascii());
        }
        for r in Rank::ALL {
            assert_ne!(rank_name(r, Lang::Zh), rank_name(r, Lang::En));
            assert!(rank_name(r, Lang::En).is_ascii());
        }
        for reason in every_reason() {
            for wins in [false, true] {
                let hint = Hint {
                    mv: Move::Flip {
                        at: junqi_game::Point(0),
                    },
                    reason,
                    wins,
                };
                let (zh, en) = (hint_text(&hint, Lang::Zh), hint_text(&hint, Lang::En));
                assert!(en.is_ascii() && !zh.is_ascii(), "{zh} / {en}");
                assert!(zh.contains("S53") && en.contains("S53"), "{zh} / {en}");
                assert_eq!(en.ends_with("it wins"), wins, "{en}");
            }
        }
        let likely = Hint {
            mv: Move::Flip {
                at: junqi_game::Point(0),
            },
            reason: every_reason()[6],
            wins: false,
        };
        assert_eq!(
            hint_text(&likely, Lang::En),
            "S53 attacks S43: most likely a commander (40%)"
        );
    }
}
