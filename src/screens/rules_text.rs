//! The rules page text (规则说明), in Chinese and English, written from the project's rule book.

use crate::i18n::Lang;

/// The rules as `(heading, paragraphs)` sections in `lang`.
pub fn sections(lang: Lang) -> &'static [(&'static str, &'static [&'static str])] {
    match lang {
        Lang::Zh => ZH,
        Lang::En => EN,
    }
}

const ZH: &[(&str, &[&str])] = &[
    (
        "一、棋子",
        &[
            "每方 25 枚棋子：司令 1、军长 1、师长 2、旅长 2、团长 2、营长 2、连长 3、排长 3、工兵 3、地雷 3、炸弹 2、军旗 1。",
            "军衔从大到小：司令(40)＞军长(39)＞师长(38)＞旅长(37)＞团长(36)＞营长(35)＞连长(34)＞排长(33)＞工兵(32)。",
        ],
    ),
    (
        "二、棋盘",
        &[
            "每方半个棋盘 6 行 5 列，共 30 个点。第 1 行面对敌方。点的名字是半盘、行、列：南方半盘的第 3 行第 1 列是 S31，北方的是 N31；四国棋盘上还有东 E、西 W 和中间九宫 C1…C9。棋谱和“显示坐标”用的都是这个写法。",
            "兵站：普通的点。行营（圆圈）：每方的 22、24、33、42、44（如 S22），行营里的棋子不能被攻击。大本营：62、64（如 S62），军旗只能放在大本营。",
            "铁路（粗线）：第 1 行、第 5 行，以及第 1 列和第 5 列的 1 至 5 行。公路（细线）：其余相邻的点，以及行营的斜线。",
            "两个半盘在山界相接，只有第 1、3、5 列的铁路能越过山界。",
        ],
    ),
    (
        "三、布阵",
        &[
            "开局前每方在自己的半盘上摆好 25 枚棋子：行营必须空着；军旗只能放在大本营；地雷只能放在最后两行；炸弹不能放在第一行。",
            "点击一个棋子再点击另一个棋子即可交换；违反规则的交换会被拒绝并说明原因。可以使用经典布阵、随机布阵、镜像，并保存自己的布阵。",
        ],
    ),
    (
        "四、走棋",
        &[
            "双方轮流走棋，每次移动自己的一枚棋子。",
            "公路上每次只能走一步。铁路上可以沿直线走任意多步，途中不能有棋子阻挡。",
            "工兵在铁路上可以转弯，沿任何畅通的铁路飞行。",
            "地雷和军旗不能移动。进入大本营的棋子不能再移动。",
            "行营是安全区：行营里的棋子不能被攻击，进出行营只能走一步公路。",
        ],
    ),
    (
        "五、吃子",
        &[
            "走到敌方棋子所在的点就是攻击。大吃小；同级同归于尽。",
            "炸弹与任何棋子相遇同归于尽（包括地雷和军旗）。",
            "工兵可以挖掉地雷；其他棋子碰到地雷则阵亡，地雷留在原处。",
            "夺得对方军旗即获胜。司令阵亡后，须亮出己方军旗。",
        ],
    ),
    (
        "六、下法",
        &[
            "暗棋：只能看到自己的棋子，裁判只宣布哪些棋子阵亡。",
            "明棋：双方布阵后，所有棋子全部明示。",
            "翻棋：50 枚棋子全部反扣在非行营的点上，每回合可以翻开一枚棋子或走一枚自己的明子；第一次翻开的颜色就是自己的颜色。",
        ],
    ),
    (
        "七、计时、胜负与和棋",
        &[
            "每步限时（默认 60 秒），超时则失去本步，超时超过 3 次判负。",
            "军旗被夺、无棋可走、超时过多或认输（前 20 步不能认输）判负。",
            "双方都无子可动、双方同意，或连续 60 步没有攻击，判为和棋。",
        ],
    ),
    (
        "八、军衔积分",
        &[
            "胜一局 +1，负一局 −1；30 步以内取胜不计分。",
            "小兵 0、副班长 10、正班长 20、副排长 30、排长 50、副连长 100、连长 150、副营长 220、营长 350、副团长 500、团长 750、副旅长 1000、旅长 1550、副师长 2150、师长 3150、副军长 5000、军长 6350、司令 12750。",
        ],
    ),
    (
        "九、可选规则",
        &[
            "炸弹满天飞：炸弹可放在第一行，并可像工兵一样在铁路上飞行。",
            "地雷同归于尽：攻击地雷的棋子与地雷同归于尽（工兵仍可挖雷）。炸弹雷：任何攻击地雷的棋子都与地雷同归于尽。",
            "大本营可出：进入大本营的棋子可以再走出来。工兵侦察：工兵攻击失败时亮出对方棋子。",
            "夺旗：任何棋子 / 司令除外 / 仅工兵。",
        ],
    ),
];

const EN: &[(&str, &[&str])] = &[
    (
        "1. Pieces",
        &[
            "Each side has 25 pieces: Commander 1, Corps commander 1, Division commander 2, Brigade commander 2, Regiment commander 2, Battalion commander 2, Company commander 3, Platoon commander 3, Engineer 3, Landmine 3, Bomb 2, Flag 1.",
            "Ranks from high to low: Commander (40) > Corps (39) > Division (38) > Brigade (37) > Regiment (36) > Battalion (35) > Company (34) > Platoon (33) > Engineer (32).",
        ],
    ),
    (
        "2. The board",
        &[
            "Each side owns a half of 6 rows by 5 columns, 30 points. Row 1 faces the enemy. A point is named by its half, row and column: row 3, column 1 of the South half is S31, of the North half N31; the four-player board adds East E, West W and the centre C1…C9. The move log and the board's coordinates use the same names.",
            "Stations are the ordinary points. Camps (circles) are each half's 22, 24, 33, 42 and 44 (e.g. S22): a piece in a camp cannot be attacked. Headquarters are 62 and 64 (e.g. S62): the flag must stand in one of them.",
            "Railways (thick lines): rows 1 and 5, and columns 1 and 5 from row 1 to row 5. Roads (thin lines): the other neighbouring points and the diagonals at camps.",
            "The halves meet at the mountain line; only columns 1, 3 and 5 cross it, by railway.",
        ],
    ),
    (
        "3. Setup",
        &[
            "Before the game each player places 25 pieces on their own half: camps stay empty; the flag goes in a headquarters; landmines only in the last two rows; bombs never in the first row.",
            "Click a piece and then another to swap them; a swap that breaks a rule is refused and the reason shown. Classic layouts, random layouts and mirroring are available, and you can save your own layouts.",
        ],
    ),
    (
        "4. Moving",
        &[
            "Players take turns; each turn moves one of your own pieces.",
            "On a road a piece moves one step. On the railway it moves any distance in a straight line through empty points.",
            "Engineers may turn corners on the railway: any path along clear railway.",
            "Landmines and the flag never move. A piece that enters a headquarters stays there.",
            "Camps are safe: a piece in a camp cannot be attacked, and camps are entered and left by a single road step.",
        ],
    ),
    (
        "5. Combat",
        &[
            "Moving onto an enemy piece attacks it. The higher rank wins; equal ranks remove each other.",
            "A bomb and whatever it meets are both removed (landmines and the flag included).",
            "An engineer clears a landmine; any other piece that attacks a landmine is removed and the mine stays.",
            "Capturing the enemy flag wins the game. When a commander falls, its side's flag is shown.",
        ],
    ),
    (
        "6. Ways to play",
        &[
            "Dark: you see only your own pieces; the referee announces only which pieces were removed.",
            "Open: after both sides set up, every piece is shown face up.",
            "Flip: all 50 pieces start face down on the non-camp points; on a turn flip one piece or move one of your face-up pieces. The colour of your first flip is your colour.",
        ],
    ),
    (
        "7. Clock, results and draws",
        &[
            "Each move has a time limit (60 s by default). Running out loses the turn; more than 3 timeouts loses the game.",
            "You lose when your flag is captured, when you cannot move, by timeouts, or by resigning (not allowed in the first 20 moves).",
            "The game is drawn when nobody can move, when both agree, or after 60 moves in a row without an attack.",
        ],
    ),
    (
        "8. Rating levels",
        &[
            "A win scores +1, a loss −1; a win in fewer than 30 moves scores nothing.",
            "Private 0, Vice squad leader 10, Squad leader 20, Vice platoon leader 30, Platoon leader 50, Vice company commander 100, Company commander 150, Vice battalion commander 220, Battalion commander 350, Vice regiment commander 500, Regiment commander 750, Vice brigade commander 1000, Brigade commander 1550, Vice division commander 2150, Division commander 3150, Vice corps commander 5000, Corps commander 6350, Commander 12750.",
        ],
    ),
    (
        "9. Rule options",
        &[
            "Flying bombs: bombs may stand in row 1 and fly on the railway like engineers.",
            "Mine trades: a piece that attacks a mine dies together with it (engineers still clear mines). Bomb mines: every attack on a mine removes both.",
            "HQ exit: pieces may leave a headquarters. Engineer scouting: an engineer's failed attack reveals the defender.",
            "Flag capture: anyone / anyone but the commander / engineers only.",
        ],
    ),
];
