//! The engine's typed game terms in the player's language: the AI levels, the ranks and the
//! AI's hint reasons. The engine gives identifiers and typed reasons ([`junqi_game::ai::Level`],
//! [`junqi_game::Rank`], [`junqi_game::ai::HintReason`]); the words live here.

use junqi_game::ai::{Hint, HintReason, Level};
use junqi_game::{LayoutProblem, Rank};

use crate::i18n::Lang;

/// An AI level's name.
pub fn level_name(level: Level, lang: Lang) -> &'static str {
    match (level, lang) {
        (Level::Novice, Lang::Zh) => "新手",
        (Level::Novice, Lang::En) => "Novice",
        (Level::Skilled, Lang::Zh) => "熟练",
        (Level::Skilled, Lang::En) => "Skilled",
        (Level::Expert, Lang::Zh) => "高手",
        (Level::Expert, Lang::En) => "Expert",
        (Level::Master, Lang::Zh) => "大师",
        (Level::Master, Lang::En) => "Master",
    }
}

/// A rank's name.
pub fn rank_name(rank: Rank, lang: Lang) -> &'static str {
    match lang {
        Lang::Zh => match rank {
            Rank::Commander => "司令",
            Rank::Corps => "军长",
            Rank::Division => "师长",
            Rank::Brigade => "旅长",
            Rank::Regiment => "团长",
            Rank::Battalion => "营长",
            Rank::Company => "连长",
            Rank::Platoon => "排长",
            Rank::Engineer => "工兵",
            Rank::Landmine => "地雷",
            Rank::Bomb => "炸弹",
            Rank::Flag => "军旗",
        },
        Lang::En => match rank {
            Rank::Commander => "Commander",
            Rank::Corps => "Corps commander",
            Rank::Division => "Division commander",
            Rank::Brigade => "Brigade commander",
            Rank::Regiment => "Regiment commander",
            Rank::Battalion => "Battalion commander",
            Rank::Company => "Company commander",
            Rank::Platoon => "Platoon commander",
            Rank::Engineer => "Engineer",
            Rank::Landmine => "Landmine",
            Rank::Bomb => "Bomb",
            Rank::Flag => "Flag",
        },
    }
}

/// A rank's name in `lang`, or "piece" when it is not known.
pub fn piece_name(rank: Option<Rank>, lang: Lang) -> &'static str {
    match (rank, lang) {
        (Some(r), _) => rank_name(r, lang),
        (None, Lang::Zh) => "棋子",
        (None, Lang::En) => "piece",
    }
}

/// The name written on a piece's face: Chinese whatever the player's language, as on a real
/// set (the board's tiles, the battle captions' bold font).
pub fn piece_face(rank: Rank) -> &'static str {
    rank_name(rank, Lang::Zh)
}

/// A rank's short label in `lang` (a marker, the removed-pieces list): 令 军 师 … in Chinese,
/// Cmdr Corps Div … in English.
pub fn rank_short(r: Rank, lang: Lang) -> String {
    const EN: [&str; 12] = [
        "Cmdr", "Corps", "Div", "Brig", "Regt", "Bn", "Coy", "Plt", "Eng", "Mine", "Bomb", "Flag",
    ];
    match lang {
        Lang::Zh => r.zh_short().to_string(),
        Lang::En => EN[r.index()].to_owned(),
    }
}

/// The AI's one-line reason for a hint or a review's better move.
pub fn hint_text(hint: &Hint, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    let text = match hint.reason {
        HintReason::Flip { at } if zh => format!("翻开 {at}：看清局面"),
        HintReason::Flip { at } => format!("Flip {at}: learn more of the board"),
        HintReason::TakeFlag { from, to } if zh => format!("{from} 吃 {to} 的军旗"),
        HintReason::TakeFlag { from, to } => format!("{from} takes the flag on {to}"),
        HintReason::Attack {
            from,
            to,
            likely: Some((rank, percent)),
        } if zh => format!(
            "{from} 攻击 {to}：对方最可能是{}（{percent}%）",
            rank_name(rank, lang)
        ),
        HintReason::Attack {
            from,
            to,
            likely: Some((rank, percent)),
        } => format!(
            "{from} attacks {to}: most likely a {} ({percent}%)",
            rank_name(rank, lang).to_lowercase()
        ),
        HintReason::Attack { from, to, .. } if zh => format!("{from} 攻击 {to}"),
        HintReason::Attack { from, to, .. } => format!("{from} attacks {to}"),
        HintReason::Camp { from, to } if zh => format!("{from} 进入行营 {to}：安全且能支援"),
        HintReason::Camp { from, to } => {
            format!("{from} into the camp {to}: safe and ready to strike")
        }
        HintReason::Advance { from, to } if zh => format!("{from} 前进到 {to}：向对方军旗施压"),
        HintReason::Advance { from, to } => format!("{from} to {to}: pressure on the enemy flag"),
        HintReason::Steady { from, to } if zh => format!("{from} 到 {to}：避开威胁、稳住阵地"),
        HintReason::Steady { from, to } => {
            format!("{from} to {to}: out of danger, keeping the position")
        }
    };
    match (hint.wins, zh) {
        (false, _) => text,
        (true, true) => format!("{text}，可以取胜"),
        (true, false) => format!("{text}, and it wins"),
    }
}

/// A layout problem in words, the point named by its row and column as the player counts them
/// on the board (rows from the front), after what is wrong.
pub fn problem_text(p: &LayoutProblem, lang: Lang) -> String {
    use LayoutProblem::*;
    let at = |row: u8, col: u8| match lang {
        Lang::Zh => format!("（第 {row} 行第 {col} 列）"),
        Lang::En => format!(" (row {row}, column {col})"),
    };
    match (*p, lang) {
        (PieceInCamp { row, col, .. }, Lang::Zh) => format!("行营开局必须空着{}", at(row, col)),
        (PieceInCamp { row, col, .. }, Lang::En) => format!("Camps start empty{}", at(row, col)),
        (
            WrongCount {
                rank,
                expected,
                found,
            },
            Lang::Zh,
        ) => {
            format!(
                "{}应为 {expected} 个，现有 {found} 个",
                rank_name(rank, lang)
            )
        }
        (
            WrongCount {
                rank,
                expected,
                found,
            },
            Lang::En,
        ) => {
            format!("{}: {found} instead of {expected}", rank_name(rank, lang))
        }
        (FlagOutsideHeadquarters { row, col }, Lang::Zh) => {
            format!("军旗只能放在大本营{}", at(row, col))
        }
        (FlagOutsideHeadquarters { row, col }, Lang::En) => {
            format!("The flag must stand in a headquarters{}", at(row, col))
        }
        (MineOutsideBackRows { row, col }, Lang::Zh) => {
            format!("地雷只能放在最后两行{}", at(row, col))
        }
        (MineOutsideBackRows { row, col }, Lang::En) => {
            format!("Landmines stand only in the last two rows{}", at(row, col))
        }
        (BombInFrontRow { row, col }, Lang::Zh) => format!("炸弹不能放在第一行{}", at(row, col)),
        (BombInFrontRow { row, col }, Lang::En) => {
            format!("Bombs may not stand in the front row{}", at(row, col))
        }
        (EmptyPoint { row, col }, Lang::Zh) => format!("此处不能空着{}", at(row, col)),
        (EmptyPoint { row, col }, Lang::En) => {
            format!("This point must hold a piece{}", at(row, col))
        }
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
