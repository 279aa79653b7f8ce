//! Chinese (default) and English strings: the [`Lang`] resource and the [`t`] table.

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// The language the app shows.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Lang {
    /// 中文 (default).
    #[default]
    Zh,
    /// English.
    En,
}

impl Lang {
    /// The other language.
    pub fn toggled(self) -> Self {
        match self {
            Lang::Zh => Lang::En,
            Lang::En => Lang::Zh,
        }
    }

    /// The colon between a label and its value: full-width in Chinese, `": "` in English.
    pub fn colon(self) -> &'static str {
        match self {
            Lang::Zh => "：",
            Lang::En => ": ",
        }
    }

    /// Looks up `key` in this language (the key itself if it is missing).
    pub fn t(self, key: &'static str) -> &'static str {
        t(self, key)
    }
}

/// Registers the [`Lang`] resource.
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Lang>();
}

/// Looks up `key` in `lang`; a missing key is returned as it is, so gaps show up on screen.
pub fn t(lang: Lang, key: &'static str) -> &'static str {
    match STRINGS.iter().find(|(k, _, _)| *k == key) {
        Some((_, zh, en)) => match lang {
            Lang::Zh => zh,
            Lang::En => en,
        },
        None => key,
    }
}

/// `(key, 中文, English)`.
pub const STRINGS: &[(&str, &str, &str)] = &[
    // App and menus.
    ("app.title", "军棋", "Junqi"),
    (
        "app.subtitle",
        "陆战棋 · 两人对战 · 四国大战",
        "Land Battle Chess · two or four players",
    ),
    ("menu.resume", "继续上局", "Resume game"),
    (
        "menu.resume_detail",
        "上次未下完的人机对局，已走 {} 步",
        "Unfinished game against the computer, {} moves played",
    ),
    ("menu.vs_ai", "人机对战", "Play the computer"),
    ("menu.lan", "局域网对战", "LAN game"),
    ("menu.replay", "棋谱回放", "Replays"),
    ("menu.profile", "战绩", "Profile"),
    ("menu.settings", "设置", "Settings"),
    ("menu.rules", "规则说明", "Rules"),
    ("menu.quit", "退出", "Quit"),
    ("menu.back", "返回", "Back"),
    ("menu.main", "主菜单", "Main menu"),
    ("menu.language", "English", "中文"),
    // Setup.
    ("setup.title", "布阵", "Setup"),
    (
        "setup.hint",
        "点击一个棋子，再点击另一个棋子，即可交换位置。",
        "Click a piece, then another, to swap them.",
    ),
    ("setup.go", "出征", "March!"),
    ("setup.default", "默认布阵", "Default layout"),
    ("setup.random", "随机布阵", "Random"),
    ("setup.mirror", "左右镜像", "Mirror"),
    ("setup.classic", "经典布阵", "Classic layouts"),
    ("setup.save", "保存布阵", "Save layout"),
    ("setup.load", "载入布阵", "Load layout"),
    ("setup.delete", "删除", "Delete"),
    ("setup.name", "布阵名称", "Layout name"),
    ("setup.saved", "已保存", "Saved"),
    ("setup.loaded", "已载入", "Loaded"),
    ("setup.refused", "不能交换", "Swap refused"),
    ("setup.swapped", "已交换", "Swapped"),
    (
        "setup.no_layouts",
        "还没有保存的布阵",
        "No saved layouts yet",
    ),
    ("setup.options", "对局设置", "Game options"),
    // Game options.
    ("opt.mode", "下法", "Mode"),
    ("opt.mode.dark", "暗棋", "Dark"),
    ("opt.mode.open", "明棋", "Open"),
    ("opt.mode.flip", "翻棋", "Flip"),
    ("opt.level", "电脑水平", "Computer level"),
    ("opt.table", "对局", "Table"),
    (
        "opt.coordinates",
        "显示坐标（与棋谱记法一致）",
        "Show coordinates (as in the move log)",
    ),
    ("opt.table.two", "两人对战", "Two players"),
    ("opt.table.four", "四国大战", "Four players (2 v 2)"),
    (
        "opt.table.two_big",
        "两人四国棋盘",
        "Two players, big board",
    ),
    ("opt.qq_preset", "QQ四国规则", "QQ room rules"),
    ("opt.seat", "我的座位", "My seat"),
    ("seat.south", "南", "South"),
    ("seat.east", "东", "East"),
    ("seat.north", "北", "North"),
    ("seat.west", "西", "West"),
    (
        "opt.last_pieces",
        "残局兑子：最后一子兑掉算攻方胜",
        "Last pieces: a final trade wins for the attacker",
    ),
    (
        "opt.clockwise",
        "顺时针轮走（联众）",
        "Clockwise turns (联众)",
    ),
    (
        "setup.cannot_start",
        "无法开局：电脑的布阵不合规则",
        "Cannot start: a computer layout breaks the rules",
    ),
    ("opt.first", "先走", "Who starts"),
    ("opt.first.me", "我先走", "Me"),
    ("opt.first.ai", "电脑先走", "Computer"),
    ("opt.first.random", "随机", "Random"),
    (
        "opt.inference",
        "允许推理（记子）",
        "Inference board allowed",
    ),
    (
        "opt.no_inference",
        "本局不允许推理",
        "No inference board in this game",
    ),
    ("opt.clock", "每步限时（秒）", "Seconds per move"),
    ("opt.timeouts", "超时次数上限", "Timeouts allowed"),
    (
        "opt.flying_bombs_tip",
        "炸弹可放在第一行，并可像工兵一样在铁路上转弯飞行",
        "Bombs may stand in the front row and fly round railway corners like engineers",
    ),
    (
        "opt.hq_exit_tip",
        "进入大本营的棋子还可以再走出来",
        "A piece that entered a headquarters may leave it again",
    ),
    (
        "opt.scouting_tip",
        "工兵攻击失败时亮出对方棋子",
        "An engineer that loses an attack reveals the piece that beat it",
    ),
    (
        "opt.inference_tip",
        "可以打开推理，查看对方每个暗子可能是什么（只用自己看得到的信息）",
        "Players may open the inference board: what each hidden enemy piece may be, from their own view only",
    ),
    (
        "opt.facedown_immune_tip",
        "翻棋：未翻开的棋子不能被攻击",
        "Flip games: a face-down piece cannot be attacked",
    ),
    (
        "opt.no_suicide_tip",
        "翻棋：明知会输的攻击不允许（同归于尽可以）",
        "Flip games: an attack you can see will lose is refused (a trade is allowed)",
    ),
    (
        "opt.last_pieces_tip",
        "双方各剩最后一个能走的棋子并兑掉时，算攻方胜，不算和棋",
        "When each side is down to its last movable piece and they trade, the attacker's side wins instead of a draw",
    ),
    (
        "opt.clockwise_tip",
        "走棋顺序：南→西→北→东（联众），而不是南→东→北→西（QQ）",
        "Turns go South → West → North → East (联众) instead of South → East → North → West (QQ)",
    ),
    (
        "opt.mine_trades_tip",
        "工兵以外的棋子攻击地雷时与地雷同归于尽（工兵仍可挖雷）",
        "A piece other than an engineer that attacks a landmine is removed with it (engineers still clear mines)",
    ),
    (
        "opt.bomb_mines_tip",
        "任何棋子攻击地雷都与地雷同归于尽",
        "Every attack on a landmine removes both pieces",
    ),
    ("opt.flying_bombs", "炸弹满天飞", "Flying bombs"),
    ("opt.mine_trades", "地雷同归于尽", "Mine trades"),
    ("opt.bomb_mines", "炸弹雷", "Bomb mines"),
    ("opt.hq_exit", "大本营可出", "HQ exit"),
    ("opt.scouting", "工兵侦察", "Engineer scouting"),
    ("opt.flag_capture", "夺旗", "Flag capture"),
    ("opt.flag.anyone", "任何棋子", "Anyone"),
    (
        "opt.flag.no_commander",
        "司令除外",
        "Anyone but the commander",
    ),
    ("opt.flag.engineers", "仅工兵", "Engineers only"),
    (
        "opt.quiet_moves",
        "无攻击和棋步数",
        "Moves without attack to draw",
    ),
    (
        "opt.facedown_immune",
        "背面棋子不能被攻击",
        "Face-down pieces cannot be attacked",
    ),
    ("opt.no_suicide", "禁止送死", "No suicide attacks"),
    ("opt.nicknames", "显示 40…32 数字", "Show ranks as 40…32"),
    // Game.
    ("game.title", "对局", "Game"),
    ("game.your_turn", "轮到你走", "Your move"),
    ("game.ai_turn", "电脑思考中…", "The computer is thinking…"),
    ("game.resign", "认输", "Resign"),
    (
        "game.resign_confirm",
        "确定认输？认输后本局判负，不能撤回",
        "Resign? You lose, and it cannot be undone",
    ),
    ("game.resign_yes", "确定认输", "Resign"),
    ("game.resign_no", "继续下棋", "Keep playing"),
    ("game.draw", "求和", "Offer draw"),
    ("game.hint", "提示", "Hint"),
    ("game.log", "棋谱", "Move log"),
    ("game.table", "局势", "Table"),
    ("game.offer_from", "{}提议和棋", "{} offers a draw"),
    ("setup.tab.layout", "布阵", "Layout"),
    ("setup.tab.options", "选项", "Options"),
    ("game.captured", "阵亡棋子", "Removed pieces"),
    ("game.clock", "计时", "Clock"),
    ("game.timeouts", "超时", "Timeouts"),
    ("game.you", "我方", "You"),
    ("game.undo", "悔棋", "Undo"),
    (
        "game.leave_local",
        "离开对局？本局不会保存。",
        "Leave the game? It will not be saved.",
    ),
    (
        "game.leave_lan",
        "离开对局？可稍后在大厅继续。",
        "Leave the game? You can resume it from the lobby.",
    ),
    ("game.leave_yes", "离开", "Leave"),
    ("game.inference", "推理", "Inference"),
    ("game.zoom", "放大", "Zoom"),
    (
        "game.zoom_tip",
        "放大棋盘，便于手指点选；拖动空处移动棋盘，再点一次看全图",
        "Zoom the board in for a finger; drag where no piece is to move it, tap again for the whole board",
    ),
    (
        "game.inference_tip",
        "只用你自己看到的信息推算敌方棋子（与电脑用的推理相同）",
        "What your own view allows about the enemy's pieces (the same belief the computer uses)",
    ),
    (
        "game.inference_pick",
        "点一个敌方棋子，看它可能是什么；下面是各方剩余棋子",
        "Click an enemy piece to see what it may be; below, each army's remaining pieces",
    ),
    (
        "game.undo_tip",
        "收回你上一步和电脑的应着（局数另计，不计积分）",
        "Take back your last move and the computer's reply (the game counts apart, no score)",
    ),
    (
        "game.undo_none",
        "本局悔棋次数已用完",
        "No takebacks left in this game",
    ),
    (
        "game.undo_refused",
        "现在不能悔棋",
        "Nothing to take back now",
    ),
    ("opt.undos", "每局悔棋次数", "Takebacks per game"),
    ("game.enemy", "对方", "Opponent"),
    ("seat.next", "下家", "Next (right)"),
    ("seat.partner", "对家", "Partner"),
    ("seat.previous", "上家", "Previous (left)"),
    ("seat.out", "出局", "out"),
    ("seat.moving", "{}走棋", "{} to move"),
    (
        "seat.header",
        "座位 · 电脑水平 · 超时",
        "Seat · level · timeouts",
    ),
    ("four.title", "四国大战", "2 v 2"),
    ("over.team_win", "我方与对家获胜", "Your team wins"),
    ("over.team_loss", "我方与对家失利", "Your team loses"),
    ("over.score", "积分", "Score"),
    (
        "over.unscored_undo",
        "（悔过棋的对局不计分）",
        " (a game with takebacks is not scored)",
    ),
    (
        "over.unscored_quick",
        "（开局后步数不多即获胜，不计分）",
        " (a quick win is not scored)",
    ),
    (
        "over.unscored_draw",
        "（和棋不计分）",
        " (a draw is not scored)",
    ),
    ("four.dark", "四暗", "All hidden"),
    ("four.partners", "双明", "Partners open"),
    ("four.open", "全明", "All open"),
    ("game.marker", "标记", "Mark"),
    ("game.marker.clear", "清除标记", "Clear mark"),
    (
        "game.draw_refused",
        "对方拒绝和棋",
        "The opponent refused the draw",
    ),
    ("game.draw_declined", "拒绝和棋", "declines the draw"),
    ("log.draw_offered", "提议和棋", "offers a draw"),
    ("log.draw_offered_you", "提议和棋", "offer a draw"),
    ("log.draw_declined_you", "拒绝和棋", "decline the draw"),
    (
        "game.draw_accepted",
        "对方同意和棋",
        "The opponent accepted the draw",
    ),
    (
        "game.resign_early",
        "前 {} 步不能认输",
        "You cannot resign in the first {} moves",
    ),
    (
        "game.flip_hint",
        "翻棋不用布阵：棋子背面朝上随机摆放，开局后轮到你时点击一枚翻开它",
        "A flip game needs no setup: the pieces start face down in a random order; once the game begins, click one on your turn to flip it",
    ),
    ("game.move", "第 {} 步", "Move {}"),
    (
        "game.flag_revealed",
        "司令阵亡，亮出军旗",
        "Commander fallen: the flag is shown",
    ),
    // Battle announcements.
    // What the referee calls out on the board for a battle (src/battle.rs).
    ("call.flag", "夺旗！", "Flag taken!"),
    ("call.bomb", "炸！", "Boom!"),
    ("call.takes", "吃！", "Takes!"),
    ("call.mine", "踩雷！", "Mine!"),
    ("call.repelled", "碰！", "Repelled!"),
    ("call.trade", "同归于尽", "Both fall!"),
    ("battle.win", "吃掉", "takes"),
    ("battle.lose", "被吃", "is lost"),
    ("battle.trade", "同归于尽", "trade"),
    ("battle.bomb", "炸弹爆炸", "bomb explodes"),
    ("battle.mine", "踩雷", "hits a mine"),
    ("battle.flag", "军旗被夺", "flag captured"),
    // Game over.
    ("over.title", "对局结束", "Game over"),
    ("over.win", "胜利！", "Victory!"),
    ("over.loss", "失败", "Defeat"),
    ("over.draw", "和棋", "Draw"),
    ("over.again", "再来一局", "Play again"),
    ("over.replay", "回放本局", "Replay this game"),
    ("over.review", "复盘本局", "Review this game"),
    ("over.saved", "棋谱已保存", "Record saved"),
    ("reason.flag", "军旗被夺", "flag captured"),
    ("reason.no_moves", "无棋可走", "no legal move"),
    ("reason.no_pieces", "无子可动", "no movable piece left"),
    ("reason.timeouts", "超时过多", "too many timeouts"),
    ("reason.resign", "认输", "resignation"),
    ("reason.forfeit", "违规或离开", "forfeit"),
    ("reason.agreed", "双方同意和棋", "draw agreed"),
    (
        "reason.quiet",
        "长时间无攻击",
        "too many moves without an attack",
    ),
    (
        "reason.stalemate",
        "双方都无子可动",
        "neither side can move",
    ),
    // Lobby.
    ("lobby.title", "局域网大厅", "LAN lobby"),
    (
        "lobby.searching",
        "正在寻找局域网中的对局…",
        "Looking for games on the local network…",
    ),
    ("lobby.none", "暂未发现对局", "No games found yet"),
    ("lobby.host", "创建对局", "Host a game"),
    ("lobby.join", "加入", "Join"),
    ("lobby.name", "你的昵称", "Your name"),
    ("lobby.code", "配对码", "Pairing code"),
    ("lobby.hosts", "局域网中的对局", "Games on the network"),
    ("lobby.waiting", "正在寻找对手…", "Waiting for an opponent…"),
    ("lobby.port", "端口", "Port"),
    ("lobby.joining", "正在连接", "Connecting to"),
    ("lobby.cancel", "取消", "Cancel"),
    ("lobby.host_here", "开设主机", "Host this game"),
    (
        "lobby.host_hint",
        "在布阵中选规则和限时，再开设主机；配对后双方各自布阵",
        "Choose the mode, rules and clock on the setup page, then host; both players arrange their armies after pairing",
    ),
    ("lobby.error", "局域网失败", "LAN error"),
    (
        "lobby.no_mdns",
        "无法寻找局域网对局",
        "Cannot start LAN discovery",
    ),
    (
        "lobby.compare",
        "请与对方屏幕上的配对码核对，相同才开始",
        "Compare this code with your opponent's screen: start only if they match",
    ),
    (
        "lobby.confirm",
        "配对码相同，去布阵",
        "Codes match: arrange my army",
    ),
    ("lobby.mismatch", "不同，断开", "Codes differ, leave"),
    (
        "setup.lan.arrange",
        "配对码已确认：请布阵，布好后点“布好了”",
        "Codes confirmed: arrange your army, then press Ready",
    ),
    ("setup.lan.ready", "布好了", "Ready"),
    ("setup.lan.is_ready", "已布好", "Ready ✓"),
    (
        "setup.lan.waiting",
        "已布好，等待对手…",
        "Ready: waiting for your opponent…",
    ),
    (
        "setup.lan.peer_ready",
        "对手已布好阵",
        "Your opponent is ready",
    ),
    (
        "setup.lan.peer_arranging",
        "对手正在布阵…",
        "Your opponent is arranging…",
    ),
    (
        "setup.lan.host_rules",
        "主机的规则（不能改）",
        "The host's rules (fixed)",
    ),
    (
        "setup.lan.my_rules",
        "你开设的规则（不能再改）",
        "The rules you offered (fixed)",
    ),
    (
        "setup.lan.first_drawn",
        "先手在配对时随机定出",
        "Who moves first is drawn at pairing",
    ),
    (
        "peer.storage",
        "无法使用数据文件夹",
        "Cannot use the data folder",
    ),
    (
        "peer.journal",
        "保存的对局文件已损坏或无法写入",
        "The saved game's file is damaged or cannot be written",
    ),
    (
        "peer.nothing",
        "没有可继续的对局",
        "No unfinished game to resume",
    ),
    (
        "peer.restore",
        "保存的对局无法恢复",
        "The saved game cannot be restored",
    ),
    ("peer.session", "无法开始对局", "Cannot start the game"),
    ("peer.network", "联网出错", "Network error"),
    ("peer.thread", "无法启动联网", "Cannot start networking"),
    (
        "lobby.unfinished",
        "未完成的局域网对局",
        "Unfinished LAN game",
    ),
    ("lobby.resume", "继续对局", "Resume"),
    ("lobby.discard", "放弃", "Discard"),
    (
        "lobby.resuming",
        "正在恢复对局，等待对方…",
        "Resuming, waiting for your opponent…",
    ),
    ("lan.vs", "对手", "vs"),
    ("lan.peer_turn", "对方思考中…", "Your opponent is thinking…"),
    (
        "lan.code_check",
        "已核对：双方配对码相同",
        "Checked: both screens showed this code",
    ),
    (
        "lan.dropped",
        "对方掉线，正在连接…",
        "Opponent dropped, waiting to reconnect…",
    ),
    ("lan.fault", "违规", "Protocol fault"),
    ("lan.draw_offer", "对方求和", "Your opponent offers a draw"),
    (
        "lan.draw_sent",
        "已求和，对方还未回应",
        "Draw offered, waiting for the answer",
    ),
    ("lan.accept", "同意", "Accept"),
    ("lan.decline", "拒绝", "Decline"),
    (
        "lan.auditing",
        "双方公开布阵，清点对局…",
        "Auditing the game…",
    ),
    (
        "lan.clean",
        "清点结束：双方无违规",
        "Audit clean: nobody cheated",
    ),
    ("lan.cheat", "发现违规", "The audit found a cheater"),
    ("lan.evidence", "所在", "Evidence"),
    // LAN faults and audit verdicts, one text per `FaultKind` (`crate::lan_text`).
    ("fault.battle", "战斗中作弊", "cheated in a battle"),
    (
        "fault.refused",
        "发来协议不允许的消息",
        "sent a message the protocol does not allow",
    ),
    (
        "fault.malformed",
        "发来格式错误的消息",
        "sent a malformed message",
    ),
    (
        "fault.frame",
        "发来无法解读的数据",
        "sent data that cannot be read",
    ),
    ("fault.hello", "握手消息无效", "sent an invalid hello"),
    (
        "fault.other_game",
        "重连到了另一局",
        "reconnected to another game",
    ),
    (
        "fault.other_rules",
        "提出了与主机不同的规则",
        "proposed other rules than the host's",
    ),
    (
        "fault.nonce",
        "公开的配对随机数与承诺的不符",
        "opened a pairing nonce other than the one it committed to",
    ),
    (
        "fault.bad_commit",
        "发来无效的布阵承诺",
        "sent an unusable setup commitment",
    ),
    ("fault.out_of_turn", "不按轮次行棋", "moved out of turn"),
    (
        "fault.unexpected",
        "发来不该发的消息",
        "sent a message nothing asked for",
    ),
    ("fault.move", "走法不合规则", "played an illegal move"),
    (
        "fault.draw_twice",
        "一回合内重复求和",
        "offered a draw twice in one turn",
    ),
    (
        "fault.early_timeout",
        "未到时限就宣称超时",
        "claimed a timeout before the time was up",
    ),
    (
        "fault.stale_journal",
        "保存的对局不是最新的，为了你的棋子不被对方得知，对局已停止；不算任何一方的错",
        "the saved game on this device is older than the game (restored from a backup?): the game stopped so that your pieces stay hidden; nobody is at fault",
    ),
    (
        "fault.claim_early_move",
        "宣称超时，可对方的这一步在时限前就已走出",
        "claimed a timeout over a move sent long before the time was up",
    ),
    (
        "fault.move_clock",
        "这一步所记的用时与它到来的时间对不上",
        "sent a move whose signed time contradicts when it arrived",
    ),
    (
        "fault.baseless_forfeit",
        "无故宣称对方弃权",
        "claimed a forfeit nothing supported",
    ),
    (
        "fault.no_moves",
        "谎称无棋可走",
        "claimed to have no legal move while it had one",
    ),
    (
        "fault.no_moves_reply",
        "对无棋可走的宣称作了虚假回答",
        "answered a no-moves claim falsely",
    ),
    (
        "fault.request",
        "发来无效的战斗请求",
        "sent an invalid battle request",
    ),
    ("fault.setup", "布阵不合规则", "used an illegal setup"),
    (
        "fault.commit",
        "公开的布阵与承诺的不符",
        "revealed a setup other than the one it committed to",
    ),
    (
        "fault.seed",
        "公开的种子与承诺的不符",
        "revealed a seed other than the one it committed to",
    ),
    (
        "fault.shuffle",
        "洗牌与承诺的不符",
        "committed to a shuffle its seed does not give",
    ),
    (
        "fault.outcome",
        "谎报战果",
        "announced a false battle outcome",
    ),
    ("fault.table", "战斗表被篡改", "sent a corrupt battle table"),
    (
        "fault.rank",
        "战斗中谎报棋子",
        "lied about its piece in a battle",
    ),
    (
        "fault.battle_key",
        "战斗密钥与种子不符",
        "used a battle key its seed does not give",
    ),
    (
        "fault.flag",
        "公开的军旗与承诺的不符",
        "opened a false flag",
    ),
    (
        "fault.flip",
        "翻开的棋子与承诺的不符",
        "opened a face-down piece falsely",
    ),
    (
        "fault.no_reveal",
        "终局后拒绝公开布阵",
        "refused to reveal its setup at the audit",
    ),
    (
        "fault.flooding",
        "终局后滥发消息而不公开布阵",
        "flooded messages after the game instead of revealing its setup",
    ),
    (
        "fault.handshake",
        "对方未完成握手",
        "the opponent did not complete the handshake",
    ),
    (
        "fault.pairing_timeout",
        "配对码超时未确认，对局未开始",
        "the pairing code was not confirmed in time; the game did not start",
    ),
    (
        "fault.dispute",
        "对方对本局提出异议",
        "the opponent disputes the game",
    ),
    (
        "fault.own_dispute",
        "重启前已发现违规",
        "was found at fault before the restart",
    ),
    (
        "fault.unsupported_dispute",
        "提出的异议没有根据",
        "raised a dispute the audit does not support",
    ),
    ("fault.protocol", "违反对局协议", "broke the protocol"),
    ("lan.detail", "详情", "Details"),
    // Refused LAN requests (`crate::lan_text::refusal_text`).
    ("refused.phase", "现在不能这样做", "Not possible now"),
    ("refused.turn", "还没轮到你", "It is not your turn"),
    (
        "refused.illegal",
        "不合规则的走法",
        "That move is not legal",
    ),
    (
        "refused.layout",
        "布阵不合规则",
        "The layout breaks the rules",
    ),
    ("refused.resign", "现在还不能认输", "You cannot resign yet"),
    ("refused.time", "本步时间已到", "Your move time is up"),
    (
        "refused.offered",
        "本回合已经求过和了",
        "You already offered a draw this turn",
    ),
    ("lobby.ended", "对局未能开始", "The game could not start"),
    // Replay.
    ("replay.title", "棋谱回放", "Replays"),
    ("replay.review", "复盘", "Review"),
    ("review.title", "复盘", "Review"),
    ("review.computing", "正在复盘", "Reviewing"),
    ("review.failed", "复盘失败", "The review failed"),
    (
        "review.curve",
        "各方按自己所知估计的局势，向上对我方有利；点击曲线跳到该步",
        "How each side judged the game from what it knew; up is good for you. Click the curve to go there",
    ),
    ("review.my_view", "我方视角", "Your view"),
    ("review.view_of", "{}视角", "{}'s view"),
    ("review.mistakes", "失误", "Mistakes"),
    ("review.no_mistakes", "没有明显的失误", "No clear mistakes"),
    ("review.ply", "第 {} 手", "Move {}:"),
    ("review.mistake", "失误", "Mistake"),
    (
        "review.good",
        "与电脑判断相近",
        "Close to the computer's choice",
    ),
    ("review.ai", "电脑会走", "Computer"),
    ("review.flip", "翻开 {}", "flip {}"),
    ("replay.none", "还没有保存的棋谱", "No saved games yet"),
    ("replay.pick", "选一局棋谱回放", "Choose a game to replay"),
    ("replay.unfinished", "未下完", "Unfinished"),
    ("replay.first", "开始", "Start"),
    ("replay.export", "导出审计文件", "Export for audit"),
    ("replay.exported", "已导出", "Exported to"),
    (
        "replay.audit_cmd",
        "任何人都可用此命令核查本局：",
        "Anyone can check the game with:",
    ),
    ("replay.export_failed", "导出失败", "Export failed"),
    ("replay.prev", "上一步", "Back"),
    ("replay.next", "下一步", "Next"),
    ("replay.last", "结尾", "End"),
    ("replay.play", "播放", "Play"),
    ("replay.pause", "暂停", "Pause"),
    ("replay.open", "打开", "Open"),
    ("replay.full", "显示全部棋子", "Show every piece"),
    // Profile.
    (
        "profile.rebuilt",
        "战绩已按保存的 {} 局棋谱重建",
        "Record rebuilt from {} saved games",
    ),
    ("profile.title", "战绩", "Profile"),
    ("profile.level", "军衔", "Rank"),
    ("profile.score", "积分", "Score"),
    ("profile.games", "局数", "Games"),
    ("profile.wins", "胜", "Won"),
    ("profile.losses", "负", "Lost"),
    ("profile.draws", "和", "Drawn"),
    ("profile.vs", "对手", "Opponent"),
    ("profile.next", "下一军衔", "Next rank"),
    ("profile.ai", "电脑", "Computer"),
    // Settings.
    ("settings.title", "设置", "Settings"),
    ("settings.language", "语言", "Language"),
    ("settings.board_colours", "棋盘配色", "Board colours"),
    ("settings.theme.classic", "经典木纹", "Classic wood"),
    ("settings.theme.green", "军绿", "Army green"),
    ("settings.theme.paper", "素纸", "Plain paper"),
    ("settings.my_colour", "我方颜色", "My colour"),
    ("settings.red", "红", "Red"),
    ("settings.blue", "蓝", "Blue"),
    (
        "settings.default_clock",
        "默认每步限时（秒）",
        "Default seconds per move",
    ),
    ("settings.saved", "设置已保存", "Settings saved"),
    ("settings.sound", "音效", "Sound effects"),
    ("settings.animations", "动画", "Animations"),
    ("settings.about", "关于", "About"),
    // Rules.
    ("rules.title", "规则说明", "Rules"),
    // Errors.
    (
        "err.corrupt",
        "文件已损坏，无法读取",
        "The file is damaged and cannot be read",
    ),
    ("err.missing", "文件不存在", "The file does not exist"),
    (
        "err.moved_aside",
        "文件已损坏，已另存为 {}",
        "The file was damaged and is kept as {}",
    ),
    (
        "err.settings_damaged",
        "设置文件已损坏，已改用默认设置；原文件另存为 {}",
        "The settings file was damaged: the default settings are used, the old file is kept as {}",
    ),
    (
        "err.profile_damaged",
        "战绩文件已损坏，原文件另存为 {}",
        "The profile file was damaged and is kept as {}",
    ),
    ("err.io", "读写文件失败", "Could not read or write the file"),
    (
        "err.record_layout",
        "棋谱中的布阵不合规则",
        "A layout in the record breaks the rules",
    ),
    (
        "err.record_opening",
        "棋谱的开局与规则不符",
        "The record's opening does not fit its rules",
    ),
    (
        "err.record_action",
        "棋谱第{}步不合规则",
        "Action {} of the record is against the rules",
    ),
    (
        "err.no_journal",
        "本局没有审计文件",
        "No signed log was kept for this game",
    ),
    ("err.journal", "审计文件已损坏", "The signed log is damaged"),
    (
        "err.name",
        "名称不能为空，且只能含字母、数字、汉字、-、_",
        "A name must not be empty and may hold only letters, digits, Chinese characters, - and _",
    ),
    // Four-seat LAN tables.
    ("table.tables", "四国桌", "2 v 2 tables"),
    ("table.none", "附近没有四国桌", "No 2 v 2 table nearby"),
    ("table.free", "空位", "Free seats"),
    ("table.full", "已满", "Full"),
    ("table.host", "开四国桌", "Host a 2 v 2 table"),
    (
        "table.host_hint",
        "你坐南；其他座位留给玩家或由电脑补上",
        "You sit South; leave each other seat to a player or fill it with the computer",
    ),
    (
        "table.setup",
        "开四国桌：规则与座位",
        "Host a 2 v 2 table: rules and seats",
    ),
    ("table.way", "玩法", "Way"),
    ("table.per_move", "每步 {} 秒", "{} s per move"),
    ("table.open_seat", "留给玩家", "A player"),
    ("table.computer", "电脑", "Computer"),
    ("table.open_table", "开桌", "Open the table"),
    (
        "table.waiting",
        "等待玩家入座…",
        "Waiting for players to sit…",
    ),
    ("table.joining", "正在入座：", "Taking the seat: "),
    ("table.your_seat", "你的座位", "Your seat"),
    ("table.seats", "座位", "Seats"),
    (
        "table.ai_on_host",
        "电脑（{}）· 房主设备",
        "Computer ({}), host's device",
    ),
    ("table.link_up", "在线", "online"),
    ("table.link_down", "断线", "offline"),
    (
        "table.rules_devices",
        "每台设备只知道它所运行座位的棋子。",
        "A device knows the pieces of the seats it runs, and no others.",
    ),
    (
        "table.rules_partners",
        "双明：对家互见棋子，敌方看不到。",
        "Partners open: partners see each other's pieces; the other team does not.",
    ),
    (
        "table.rules_open",
        "全明：所有棋子公开。",
        "All open: every piece is face up.",
    ),
    (
        "table.rules_host_ai",
        "{}：电脑座位由房主设备运行：房主可见其棋子。",
        "{}: a computer seat run by the host's device: the host can see its pieces.",
    ),
    (
        "table.rules_enemy_ai",
        "房主设备也运行对方一队的电脑座位：确认配对码即表示你同意。",
        "The host's device also runs a computer seat of the other team: confirming the code means you agree.",
    ),
    (
        "table.compare",
        "四位玩家比对同一个配对码（可以念出来），一致再确认",
        "All four players compare this one code (say it aloud); confirm if it is the same",
    ),
    ("table.confirm", "配对码相同，确认", "Same code: confirm"),
    (
        "table.seat_header",
        "座位 · 玩家 · 超时",
        "Seat · player · timeouts",
    ),
    (
        "table.confirmed",
        "已确认，等待其他玩家确认…",
        "Confirmed; waiting for the other players…",
    ),
    (
        "table.refused_early",
        "开局前几步不能认输",
        "Too early to resign",
    ),
    (
        "table.refused_offered",
        "本回合已求和",
        "A draw was offered this turn already",
    ),
    ("table.draw_by", "{}求和", "{} offers a draw"),
    (
        "table.blamed",
        "审计发现违规：{}",
        "The audit found a cheater: {}",
    ),
    ("table.left", "{}离开了牌桌（逃跑）", "{} left the table"),
    (
        "table.abandoned",
        "牌桌中断，无结果",
        "The table broke off: no result",
    ),
    ("table.unplayed", "牌桌没有开始", "The table never started"),
    (
        "table.stale",
        "本机记录比牌桌旧，无法继续",
        "This device's journal is older than the table: it cannot go on",
    ),
    (
        "table.not_audited",
        "未审计：有座位没有亮出棋子",
        "Not audited: a seat did not open its army",
    ),
    (
        "table.unfinished",
        "未下完的四国桌",
        "Unfinished 2 v 2 table",
    ),
    ("table.ended", "牌桌结束", "The table ended"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_unique_and_complete() {
        let mut keys: Vec<_> = STRINGS.iter().map(|(k, _, _)| *k).collect();
        keys.sort_unstable();
        let n = keys.len();
        keys.dedup();
        assert_eq!(n, keys.len(), "duplicate i18n key");
        for (k, zh, en) in STRINGS {
            assert!(!zh.is_empty() && !en.is_empty(), "{k} has an empty string");
        }
    }

    #[test]
    fn lookup_and_fallback() {
        assert_eq!(t(Lang::Zh, "setup.go"), "出征");
        assert_eq!(t(Lang::En, "setup.go"), "March!");
        assert_eq!(t(Lang::En, "no.such.key"), "no.such.key");
        assert_eq!(Lang::Zh.toggled(), Lang::En);
    }
}
