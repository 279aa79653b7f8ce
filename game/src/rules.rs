//! Game modes and rule options (RULES.md §3–§7), and the combat table of §5.

use crate::board::Board;
use crate::piece::Rank;
use serde::{Deserialize, Serialize};

/// How the pieces are played (RULES.md §6).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// 暗棋: each player sees only their own pieces.
    #[default]
    Dark,
    /// 明棋: everything is face up once both have set up.
    Open,
    /// 翻棋: all 50 pieces shuffled face down.
    Flip,
}

/// What happens when a piece attacks a landmine.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MineRule {
    /// Engineers clear mines; anything else dies on them.
    #[default]
    Standard,
    /// 地雷同归于尽: non-engineers and the mine are both removed.
    Trades,
    /// 炸弹雷: every attack on a mine removes both pieces.
    BombMines,
}

/// Which pieces may capture the flag.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FlagCapture {
    /// Any piece.
    #[default]
    Anyone,
    /// Anyone but the commander.
    NotCommander,
    /// Engineers only.
    EngineersOnly,
}

/// Every rule option of a game. Fixed once the game starts; shown to both players.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(default)]
pub struct Rules {
    /// Dark, open or flip.
    pub mode: Mode,
    /// 炸弹满天飞: bombs may start in row 1 and move like engineers on the railway.
    pub flying_bombs: bool,
    /// Pieces other than the flag and mines may leave a headquarters.
    pub hq_exit: bool,
    /// Landmine variant.
    pub mines: MineRule,
    /// Flag-capture restriction.
    pub flag_capture: FlagCapture,
    /// 工兵侦察: an engineer that attacks a piece it cannot take reveals it.
    pub engineer_scouting: bool,
    /// Plies without an attack after which the game is drawn.
    pub quiet_draw_plies: u16,
    /// A player with more timeouts than this loses.
    pub max_timeouts: u8,
    /// Seconds for one move.
    pub move_seconds: u16,
    /// Resigning is refused before this many plies have been played.
    pub resign_after_plies: u16,
    /// Flip games: face-down pieces cannot be attacked.
    pub facedown_immune: bool,
    /// Flip games: no attack on a face-up piece that would beat the attacker;
    /// trades are allowed, so engineers and bombs may attack face-up mines.
    pub no_suicide: bool,
    /// Four-player games: turns go S → W → N → E (联众) instead of S → E → N → W (QQ).
    pub clockwise: bool,
    /// Last pieces (seed 004, RULES.md §9): when each side (team) is down to
    /// its last movable piece and the two trade, the attacker's side wins
    /// instead of the game being drawn. On by default in four-player games.
    pub last_pieces: bool,
    /// 双明, four-player dark games: partners see each other's pieces from the
    /// start of play (the enemies see neither).
    pub partners_open: bool,
    /// Two-player games on the four-player board (QQ 两人 rooms, RULES.md
    /// §9): South against North meeting through the centre, East and West
    /// empty.
    pub four_player_board: bool,
    /// The players may use the inference board (推理: what their own view allows about each
    /// hidden enemy piece). It computes only what a player may know, so it is fair; a host may
    /// still switch it off for both, as a room rule.
    pub inference_board: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            mode: Mode::Dark,
            flying_bombs: false,
            hq_exit: false,
            mines: MineRule::Standard,
            flag_capture: FlagCapture::Anyone,
            engineer_scouting: false,
            quiet_draw_plies: 60,
            max_timeouts: 3,
            move_seconds: 60,
            resign_after_plies: 20,
            facedown_immune: false,
            no_suicide: false,
            clockwise: false,
            last_pieces: false,
            partners_open: false,
            four_player_board: false,
            inference_board: true,
        }
    }
}

impl Rules {
    /// Default rules for a mode.
    pub fn for_mode(mode: Mode) -> Rules {
        Rules {
            mode,
            ..Rules::default()
        }
    }

    /// The four-player defaults of RULES.md §9 for a mode (`Mode::Dark` is
    /// 四暗, `Mode::Open` 全明; set [`Rules::partners_open`] for 双明): 70
    /// quiet plies, 30 s a move, the fifth timeout puts a player out, and the
    /// last-pieces rule on.
    pub fn four_player(mode: Mode) -> Rules {
        Rules {
            mode,
            quiet_draw_plies: 70,
            max_timeouts: 4,
            move_seconds: 30,
            last_pieces: true,
            ..Rules::default()
        }
    }

    /// The board of a two-player game under these rules: the classic board,
    /// or the four-player board with [`Rules::four_player_board`].
    pub fn two_player_board(&self) -> &'static Board {
        if self.four_player_board {
            Board::four_player()
        } else {
            Board::classic()
        }
    }

    /// Whether `quiet_plies` plies without an attack draw the game (RULES.md
    /// §7): the one test of the quiet-move draw, for the referee's position,
    /// the four-player game and the protocol's dark games alike.
    #[inline]
    pub fn is_quiet_draw(&self, quiet_plies: u16) -> bool {
        quiet_plies >= self.quiet_draw_plies
    }

    /// Whether a player with `timeouts` timeouts has lost (a two-player
    /// game) or is out (a four-player game): more than
    /// [`Rules::max_timeouts`]. The one test of the timeout loss, for the
    /// referee's games and the protocol's dark games alike.
    #[inline]
    pub fn is_timeout_loss(&self, timeouts: u8) -> bool {
        timeouts > self.max_timeouts
    }

    /// Whether an inference board (what each hidden enemy piece may be) has anything to infer:
    /// the room allows it and the mode hides pieces (an open game shows every piece).
    #[inline]
    pub fn inference_applies(&self) -> bool {
        self.inference_board && self.mode != Mode::Open
    }

    /// Whether a side may resign after `ply` plies: not before
    /// [`Rules::resign_after_plies`]. The one test, for the referee's games, four-player tables
    /// and the app's 认输 button.
    #[inline]
    pub fn may_resign(&self, ply: u16) -> bool {
        ply >= self.resign_after_plies
    }

    /// Whether a piece of this rank turns corners on the railway.
    #[inline]
    pub fn rail_runner(&self, rank: Rank) -> bool {
        rank == Rank::Engineer || (self.flying_bombs && rank == Rank::Bomb)
    }

    /// Whether a piece standing on a headquarters may move.
    #[inline]
    pub fn may_leave_headquarters(&self) -> bool {
        self.hq_exit || self.mode == Mode::Flip
    }

    /// The referee's verdict when `attacker` attacks `defender` (RULES.md §5).
    pub fn clash(&self, attacker: Rank, defender: Rank) -> Clash {
        use Rank::*;
        let outcome = match (attacker, defender) {
            // RULES.md §5.1: both are removed, and the flag counts as captured.
            (Bomb, Flag) => {
                if self.flag_capture == FlagCapture::EngineersOnly {
                    Outcome::DefenderWins
                } else {
                    Outcome::BothRemoved
                }
            }
            (Bomb, _) | (_, Bomb) => Outcome::BothRemoved,
            (_, Landmine) => match self.mines {
                MineRule::BombMines => Outcome::BothRemoved,
                _ if attacker == Engineer => Outcome::AttackerWins,
                MineRule::Trades => Outcome::BothRemoved,
                MineRule::Standard => Outcome::DefenderWins,
            },
            (_, Flag) => {
                let allowed = match self.flag_capture {
                    FlagCapture::Anyone => true,
                    FlagCapture::NotCommander => attacker != Commander,
                    FlagCapture::EngineersOnly => attacker == Engineer,
                };
                if allowed {
                    Outcome::AttackerWins
                } else {
                    Outcome::DefenderWins
                }
            }
            (a, d) if a.officer_level() > d.officer_level() => Outcome::AttackerWins,
            (a, d) if a == d => Outcome::BothRemoved,
            _ => Outcome::DefenderWins,
        };
        let flag_captured = defender == Flag && outcome != Outcome::DefenderWins;
        let scouted =
            self.engineer_scouting && attacker == Engineer && outcome != Outcome::AttackerWins;
        Clash {
            outcome,
            flag_captured,
            scouted,
        }
    }

    /// The referee's announcement when `attacker` attacks `defender`.
    pub fn announce(&self, attacker: Rank, defender: Rank) -> Announcement {
        let c = self.clash(attacker, defender);
        Announcement {
            outcome: c.outcome,
            flag_captured: c.flag_captured,
            attacker_commander_died: attacker == Rank::Commander && c.attacker_removed(),
            defender_commander_died: defender == Rank::Commander && c.defender_removed(),
            defender_revealed: c.scouted,
        }
    }
}

/// What the referee announces about one battle: everything a player of a
/// dark game learns (RULES.md §5–§6). Built only from the two ranks and the rules.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Announcement {
    /// Who survives.
    pub outcome: Outcome,
    /// The defender was the flag and it fell.
    pub flag_captured: bool,
    /// The attacker was a commander and died (its flag is shown).
    pub attacker_commander_died: bool,
    /// The defender was a commander and died (its flag is shown).
    pub defender_commander_died: bool,
    /// Engineer scouting: the defender is shown to both players.
    pub defender_revealed: bool,
}

impl Announcement {
    /// A compact code 0…47 (for tables such as the fair-play protocol's).
    pub fn code(&self) -> u8 {
        let o = match self.outcome {
            Outcome::AttackerWins => 0,
            Outcome::DefenderWins => 1,
            Outcome::BothRemoved => 2,
        };
        o | (self.flag_captured as u8) << 2
            | (self.attacker_commander_died as u8) << 3
            | (self.defender_commander_died as u8) << 4
            | (self.defender_revealed as u8) << 5
    }

    /// The announcement with this code, if it is one.
    pub fn from_code(code: u8) -> Option<Announcement> {
        let outcome = match code & 3 {
            0 => Outcome::AttackerWins,
            1 => Outcome::DefenderWins,
            2 => Outcome::BothRemoved,
            _ => return None,
        };
        (code < 64).then_some(Announcement {
            outcome,
            flag_captured: code & 4 != 0,
            attacker_commander_died: code & 8 != 0,
            defender_commander_died: code & 16 != 0,
            defender_revealed: code & 32 != 0,
        })
    }
}

/// Who survives a battle.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The defender is removed and the attacker takes the point.
    AttackerWins,
    /// The attacker is removed; the defender stays.
    DefenderWins,
    /// Both are removed.
    BothRemoved,
}

/// The result of one attack by ranks.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Clash {
    /// Who survives.
    pub outcome: Outcome,
    /// The defender was the flag and it fell.
    pub flag_captured: bool,
    /// Engineer scouting: the defender's rank is shown to both players.
    pub scouted: bool,
}

impl Clash {
    /// Whether the attacker is removed.
    pub fn attacker_removed(&self) -> bool {
        self.outcome != Outcome::AttackerWins
    }
    /// Whether the defender is removed.
    pub fn defender_removed(&self) -> bool {
        self.outcome != Outcome::DefenderWins
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Outcome::*;
    use Rank::*;

    #[test]
    fn the_quiet_draw_and_the_timeout_loss_start_at_their_limits() {
        for rules in [Rules::default(), Rules::four_player(Mode::Dark)] {
            let quiet = rules.quiet_draw_plies;
            assert!(!rules.is_quiet_draw(quiet - 1));
            assert!(rules.is_quiet_draw(quiet) && rules.is_quiet_draw(quiet + 1));
            let max = rules.max_timeouts;
            assert!(!rules.is_timeout_loss(0) && !rules.is_timeout_loss(max));
            assert!(rules.is_timeout_loss(max + 1));
        }
    }

    #[test]
    fn default_table() {
        let r = Rules::default();
        assert_eq!(r.clash(Commander, Corps).outcome, AttackerWins);
        assert_eq!(r.clash(Platoon, Company).outcome, DefenderWins);
        assert_eq!(r.clash(Division, Division).outcome, BothRemoved);
        assert_eq!(r.clash(Bomb, Commander).outcome, BothRemoved);
        assert_eq!(r.clash(Commander, Bomb).outcome, BothRemoved);
        assert_eq!(r.clash(Bomb, Landmine).outcome, BothRemoved);
        assert_eq!(r.clash(Engineer, Landmine).outcome, AttackerWins);
        assert_eq!(r.clash(Commander, Landmine).outcome, DefenderWins);
        assert_eq!(r.clash(Engineer, Commander).outcome, DefenderWins);
        let c = r.clash(Bomb, Flag);
        assert_eq!((c.outcome, c.flag_captured), (BothRemoved, true));
        let c = r.clash(Engineer, Flag);
        assert_eq!((c.outcome, c.flag_captured), (AttackerWins, true));
        assert!(!r.clash(Engineer, Commander).scouted);
    }

    #[test]
    fn mine_variants() {
        let trades = Rules {
            mines: MineRule::Trades,
            ..Rules::default()
        };
        assert_eq!(trades.clash(Commander, Landmine).outcome, BothRemoved);
        assert_eq!(trades.clash(Engineer, Landmine).outcome, AttackerWins);
        let bomb_mines = Rules {
            mines: MineRule::BombMines,
            ..Rules::default()
        };
        assert_eq!(bomb_mines.clash(Engineer, Landmine).outcome, BothRemoved);
        assert_eq!(bomb_mines.clash(Corps, Landmine).outcome, BothRemoved);
    }

    #[test]
    fn flag_capture_restrictions() {
        let not_cmd = Rules {
            flag_capture: FlagCapture::NotCommander,
            ..Rules::default()
        };
        let c = not_cmd.clash(Commander, Flag);
        assert_eq!((c.outcome, c.flag_captured), (DefenderWins, false));
        assert!(not_cmd.clash(Bomb, Flag).flag_captured);
        assert!(not_cmd.clash(Platoon, Flag).flag_captured);
        let eng = Rules {
            flag_capture: FlagCapture::EngineersOnly,
            ..Rules::default()
        };
        assert!(eng.clash(Engineer, Flag).flag_captured);
        let c = eng.clash(Bomb, Flag);
        assert_eq!((c.outcome, c.flag_captured), (DefenderWins, false));
        assert!(!eng.clash(Corps, Flag).flag_captured);
    }

    #[test]
    fn announcement_codes_round_trip() {
        let r = Rules::default();
        for a in Rank::ALL.into_iter().filter(|r| r.is_movable()) {
            for d in Rank::ALL {
                let ann = r.announce(a, d);
                assert_eq!(Announcement::from_code(ann.code()), Some(ann));
            }
        }
        let ann = r.announce(Commander, Commander);
        assert!(ann.attacker_commander_died && ann.defender_commander_died);
        assert!(r.announce(Bomb, Commander).defender_commander_died);
        assert!(r.announce(Commander, Landmine).attacker_commander_died);
        assert_eq!(Announcement::from_code(3), None);
    }

    #[test]
    fn engineer_scouting_reveals_only_failed_engineer_attacks() {
        let r = Rules {
            engineer_scouting: true,
            ..Rules::default()
        };
        assert!(r.clash(Engineer, Commander).scouted);
        assert!(r.clash(Engineer, Engineer).scouted);
        assert!(r.clash(Engineer, Bomb).scouted);
        assert!(!r.clash(Engineer, Landmine).scouted);
        assert!(!r.clash(Platoon, Commander).scouted);
    }
}
