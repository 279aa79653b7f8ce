//! A battle as the player saw it ([`BattleSeen`]), classified once ([`BattleSeen::kind`]): its
//! caption on the board, its sound and its effect all follow from that one answer. The
//! engine decides who survives and whether a flag fell (its announcement); the ranks are
//! those the player knows.

use junqi_game::{Outcome, Rank};

/// What one side saw of a battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BattleSeen {
    /// The attacker's rank if the viewer knows it.
    pub attacker: Option<Rank>,
    /// The defender's rank if the viewer knows it.
    pub defender: Option<Rank>,
    /// Who survived.
    pub outcome: Outcome,
    /// A flag fell.
    pub flag_captured: bool,
}

/// What kind of battle a player saw: decides its caption, its sound and its effect on the board
/// (a flag first, then a bomb, then a mine).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BattleKind {
    /// A flag fell.
    Flag,
    /// A bomb went off.
    Bomb,
    /// A landmine: dug out by an engineer, or it stopped the attacker.
    Mine,
    /// Both pieces removed.
    Trade,
    /// One piece took the other.
    Capture,
}

impl BattleSeen {
    /// The battle's kind: the one classification of a battle in the app.
    pub fn kind(&self) -> BattleKind {
        if self.flag_captured {
            BattleKind::Flag
        } else if self.attacker == Some(Rank::Bomb) || self.defender == Some(Rank::Bomb) {
            BattleKind::Bomb
        } else if self.defender == Some(Rank::Landmine) {
            BattleKind::Mine
        } else if self.outcome == Outcome::BothRemoved {
            BattleKind::Trade
        } else {
            BattleKind::Capture
        }
    }

    /// The i18n key of the caption a referee calls out for the battle ("吃！", "踩雷！"…): the
    /// kind, and for a capture or a mine who survived.
    pub fn caption_key(&self) -> &'static str {
        match (self.kind(), self.outcome) {
            (BattleKind::Flag, _) => "call.flag",
            (BattleKind::Bomb, _) => "call.bomb",
            (BattleKind::Trade, _) | (BattleKind::Mine, Outcome::BothRemoved) => "call.trade",
            (BattleKind::Mine, Outcome::DefenderWins) => "call.mine",
            (BattleKind::Capture, Outcome::DefenderWins) => "call.repelled",
            (BattleKind::Mine | BattleKind::Capture, _) => "call.takes",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen(attacker: Option<Rank>, defender: Option<Rank>, outcome: Outcome) -> BattleSeen {
        BattleSeen {
            attacker,
            defender,
            outcome,
            flag_captured: false,
        }
    }

    /// The caption never says something the kind does not: a bomb's caption is the bomb's, a
    /// trade's the trade's, a fallen flag's the flag's, whatever else is known.
    #[test]
    fn the_caption_follows_the_kind() {
        let ranks = [
            None,
            Some(Rank::Bomb),
            Some(Rank::Landmine),
            Some(Rank::Engineer),
        ];
        let outcomes = [
            Outcome::AttackerWins,
            Outcome::DefenderWins,
            Outcome::BothRemoved,
        ];
        for attacker in ranks {
            for defender in ranks {
                for outcome in outcomes {
                    for flag_captured in [false, true] {
                        let s = BattleSeen {
                            flag_captured,
                            ..seen(attacker, defender, outcome)
                        };
                        let key = s.caption_key();
                        match s.kind() {
                            BattleKind::Flag => assert_eq!(key, "call.flag"),
                            BattleKind::Bomb => assert_eq!(key, "call.bomb"),
                            BattleKind::Trade => assert_eq!(key, "call.trade"),
                            BattleKind::Mine => assert!(
                                ["call.mine", "call.takes", "call.trade"].contains(&key),
                                "{s:?}: {key}"
                            ),
                            BattleKind::Capture => assert!(
                                ["call.takes", "call.repelled"].contains(&key),
                                "{s:?}: {key}"
                            ),
                        }
                    }
                }
            }
        }
        let engineer = Some(Rank::Engineer);
        let mine = Some(Rank::Landmine);
        assert_eq!(
            seen(engineer, mine, Outcome::AttackerWins).caption_key(),
            "call.takes"
        );
        assert_eq!(
            seen(None, mine, Outcome::DefenderWins).caption_key(),
            "call.mine"
        );
        assert_eq!(
            seen(None, None, Outcome::DefenderWins).caption_key(),
            "call.repelled"
        );
    }
}
