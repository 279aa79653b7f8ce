# Junqi — English (en).
# Each message's id is the key the code names, with "-" for the code's "."
# (code `menu.resume` -> id `menu-resume`); adding a string is one line in each
# language's file. Variables are named: { $n }. See docs/i18n.md.


## App and menus.
app-title = Junqi
app-subtitle = Land Battle Chess · two or four players
punct-colon = :{" "}
punct-list = ;{" "}
menu-resume = Resume game
menu-resume_detail = Unfinished game against the computer, { $moves ->
        [one] one move
       *[other] { $moves } moves
    } played
menu-vs_ai = Play the computer
menu-lan = LAN game
menu-replay = Replays
menu-profile = Profile
menu-settings = Settings
menu-rules = Rules
menu-quit = Quit
menu-back = Back
menu-main = Main menu
menu-language = 中文

## Setup.
setup-title = Setup
setup-hint = Click a piece, then another, to swap them.
setup-go = March!
setup-default = Default layout
setup-random = Random
setup-mirror = Mirror
setup-classic = Classic layouts
setup-save = Save layout
setup-load = Load layout
setup-delete = Delete
setup-name = Layout name
setup-saved = Saved
setup-loaded = Loaded
setup-refused = Swap refused
setup-swapped = Swapped
setup-no_layouts = No saved layouts yet

## Game options.
opt-mode = Mode
opt-mode-dark = Dark
opt-mode-open = Open
opt-mode-flip = Flip
opt-level = Computer level
opt-table = Table
opt-coordinates = Show coordinates (as in the move log)
opt-table-two = Two players
opt-table-four = Four players (2 v 2)
opt-table-two_big = Two players, big board
opt-big_no_flip = Over the LAN the big board plays dark or open games, not flip
opt-qq_preset = QQ room rules
opt-seat = My seat
seat-south = South
seat-east = East
seat-north = North
seat-west = West
opt-last_pieces = Last pieces: a final trade wins for the attacker
opt-clockwise = Clockwise turns (联众)
setup-cannot_start = Cannot start: a computer layout breaks the rules
opt-first = Who starts
opt-first-me = Me
opt-first-ai = Computer
opt-first-random = Random
opt-inference = Inference board allowed
opt-no_inference = No inference board in this game
opt-clock = Seconds per move
opt-timeouts = Timeouts allowed
opt-flying_bombs_tip = Bombs may stand in the front row and fly round railway corners like engineers
opt-hq_exit_tip = A piece that entered a headquarters may leave it again
opt-scouting_tip = An engineer that loses an attack reveals the piece that beat it
opt-inference_tip = Players may open the inference board: what each hidden enemy piece may be, from their own view only
opt-facedown_immune_tip = Flip games: a face-down piece cannot be attacked
opt-no_suicide_tip = Flip games: an attack you can see will lose is refused (a trade is allowed)
opt-last_pieces_tip = When each side is down to its last movable piece and they trade, the attacker's side wins instead of a draw
opt-clockwise_tip = Turns go South → West → North → East (联众) instead of South → East → North → West (QQ)
opt-mine_trades_tip = A piece other than an engineer that attacks a landmine is removed with it (engineers still clear mines)
opt-bomb_mines_tip = Every attack on a landmine removes both pieces
opt-flying_bombs = Flying bombs
opt-mine_trades = Mine trades
opt-bomb_mines = Bomb mines
opt-hq_exit = HQ exit
opt-scouting = Engineer scouting
opt-flag_capture = Flag capture
opt-flag-anyone = Anyone
opt-flag-no_commander = Anyone but the commander
opt-flag-engineers = Engineers only
opt-quiet_moves = Moves without attack to draw
opt-facedown_immune = Face-down pieces cannot be attacked
opt-no_suicide = No suicide attacks
opt-nicknames = Show ranks as 40…32

## Game.
game-title = Game
game-your_turn = Your move
game-ai_turn = The computer is thinking…
game-resign = Resign
game-resign_confirm = Resign? You lose, and it cannot be undone
game-resign_yes = Resign
game-resign_no = Keep playing
game-draw = Offer draw
game-hint = Hint
game-log = Move log
game-table = Table
game-offer_from = { $seat ->
        [you] You offer a draw
       *[other] { $who } offers a draw
    }
setup-tab-layout = Layout
setup-tab-options = Options
game-captured = Removed pieces
game-clock = Clock
game-timeouts = Timeouts
game-you = You
game-undo = Undo
game-leave_local = Leave the game? It will not be saved.
game-leave_lan = Leave the game? You can resume it from the lobby.
game-leave_yes = Leave
game-inference = Inference
game-zoom = Zoom
game-zoom_tip = Zoom the board in for a finger; drag where no piece is to move it, tap again for the whole board
game-inference_tip = What your own view allows about the enemy's pieces (the same belief the computer uses)
game-inference_pick = Click an enemy piece to see what it may be; below, each army's remaining pieces
game-undo_tip = Take back your last move and the computer's reply (the game counts apart, no score)
game-undo_none = No takebacks left in this game
game-undo_refused = Nothing to take back now
opt-undos = Takebacks per game
game-enemy = Opponent
seat-next = Next (right)
seat-partner = Partner
seat-previous = Previous (left)
seat-out = out
board-out = { $seat ->
        [you] You are out
       *[other] { $who } is out
    }
log-move = { $who }: { $piece } { $from }→{ $to }
log-battle = { $move }, { $verdict }
log-flip = { $seat ->
        [you] You flip
       *[other] { $who } flips
    } { $owner }: { $rank }
log-draw_declined = { $seat ->
        [you] You decline the draw
       *[other] { $who } declines the draw
    }
log-timeout = { $who } { $count ->
        [one] timed out (once)
       *[other] timed out ({ $count } times)
    }
log-flag_shown = { $who }: the commander fell, the flag is shown
log-out = { $who } out ({ $why })
log-takes = takes { $piece }
log-taken_by = is taken by { $piece }
log-trades_with = trades with { $piece }
seat-moving = { $seat ->
        [you] Your move
       *[other] { $who } to move
    }
seat-header = Seat · level · timeouts
four-title = 2 v 2
over-team_win = Your team wins
over-team_loss = Your team loses
over-score = Score
over-unscored_undo = {" "}(a game with takebacks is not scored)
over-unscored_quick = {" "}(a quick win is not scored)
over-unscored_draw = {" "}(a draw is not scored)
four-dark = All hidden
four-partners = Partners open
four-open = All open
game-marker = Mark
game-marker-clear = Clear mark
game-draw_refused = The opponent refused the draw
game-draw_accepted = The opponent accepted the draw
game-resign_early = You cannot resign in the first { $moves ->
        [one] move
       *[other] { $moves } moves
    }
game-flip_hint = A flip game needs no setup: the pieces start face down in a random order; once the game begins, click one on your turn to flip it
game-move = Move { $n }

## Battle announcements.
## What the referee calls out on the board for a battle (src/battle.rs).
call-flag = Flag taken!
call-bomb = Boom!
call-takes = Takes!
call-mine = Mine!
call-repelled = Repelled!
call-trade = Both fall!
battle-flag = flag captured

## Game over.
over-title = Game over
over-win = Victory!
over-loss = Defeat
over-draw = Draw
over-again = Play again
over-replay = Replay this game
over-review = Review this game
over-saved = Record saved
reason-flag = flag captured
reason-no_moves = no legal move
reason-no_pieces = no movable piece left
reason-timeouts = too many timeouts
reason-resign = resignation
reason-forfeit = forfeit
reason-agreed = draw agreed
reason-quiet = too many moves without an attack
reason-stalemate = neither side can move

## Lobby.
lobby-clock = { $seconds } s per move
lobby-title = LAN lobby
lobby-searching = Looking for games on the local network…
lobby-none = No games found yet
lobby-host = Host a game
lobby-join = Join
lobby-name = Your name
lobby-code = Pairing code
lobby-waiting = Waiting for an opponent…
lobby-port = Port
lobby-joining = Connecting to
lobby-cancel = Cancel
lobby-host_here = Host this game
lobby-host_hint = Choose the mode, rules and clock on the setup page, then host; both players arrange their armies after pairing
lobby-error = LAN error
lobby-compare = Compare this code with your opponent's screen: start only if they match
lobby-confirm = Codes match: arrange my army
lobby-mismatch = Codes differ, leave
setup-lan-arrange = Codes confirmed: arrange your army, then press Ready
setup-lan-ready = Ready
setup-lan-is_ready = Ready ✓
setup-lan-waiting = Ready: waiting for your opponent…
setup-lan-peer_ready = Your opponent is ready
setup-lan-peer_arranging = Your opponent is arranging…
setup-lan-host_rules = The host's rules (fixed)
setup-lan-my_rules = The rules you offered (fixed)
setup-lan-first_drawn = Who moves first is drawn at pairing
peer-storage = Cannot use the data folder
peer-journal = The saved game's file is damaged or cannot be written
peer-nothing = No unfinished game to resume
peer-restore = The saved game cannot be restored
peer-session = Cannot start the game
peer-network = Network error
peer-thread = Cannot start networking
lobby-unfinished = Unfinished LAN game
lobby-resume = Resume
lobby-discard = Discard
lobby-resuming = Resuming, waiting for your opponent…
lan-vs = vs
lan-peer_turn = Your opponent is thinking…
lan-code_check = Checked: both screens showed this code
lan-dropped = Opponent dropped, waiting to reconnect…
lan-fault = Protocol fault
lan-draw_offer = Your opponent offers a draw
lan-draw_sent = Draw offered, waiting for the answer
lan-accept = Accept
lan-decline = Decline
lan-auditing = Auditing the game…
lan-clean = Audit clean: nobody cheated
lan-cheat = The audit found a cheater
lan-evidence = Evidence

## LAN faults and audit verdicts, one text per `FaultKind` (`crate::lan_text`).
fault-battle = cheated in a battle
fault-refused = sent a message the protocol does not allow
fault-malformed = sent a malformed message
fault-frame = sent data that cannot be read
fault-hello = sent an invalid hello
fault-other_game = reconnected to another game
fault-other_rules = proposed other rules than the host's
fault-unplayable_rules = offered rules no game can be played under
fault-nonce = opened a pairing nonce other than the one it committed to
fault-bad_commit = sent an unusable setup commitment
fault-out_of_turn = moved out of turn
fault-unexpected = sent a message nothing asked for
fault-move = played an illegal move
fault-draw_twice = offered a draw twice in one turn
fault-early_timeout = claimed a timeout before the time was up
fault-stale_journal = the saved game on this device is older than the game (restored from a backup?): the game stopped so that your pieces stay hidden; nobody is at fault
fault-claim_early_move = claimed a timeout over a move sent long before the time was up
fault-move_clock = sent a move whose signed time contradicts when it arrived
fault-baseless_forfeit = claimed a forfeit nothing supported
fault-no_moves = claimed to have no legal move while it had one
fault-no_moves_reply = answered a no-moves claim falsely
fault-request = sent an invalid battle request
fault-setup = used an illegal setup
fault-commit = revealed a setup other than the one it committed to
fault-seed = revealed a seed other than the one it committed to
fault-shuffle = committed to a shuffle its seed does not give
fault-outcome = announced a false battle outcome
fault-table = sent a corrupt battle table
fault-rank = lied about its piece in a battle
fault-battle_key = used a battle key its seed does not give
fault-flag = opened a false flag
fault-flip = opened a face-down piece falsely
fault-no_reveal = refused to reveal its setup at the audit
fault-flooding = flooded messages after the game instead of revealing its setup
fault-handshake = the opponent did not complete the handshake
fault-pairing_timeout = the pairing code was not confirmed in time; the game did not start
fault-dispute = the opponent disputes the game
fault-own_dispute = was found at fault before the restart
fault-unsupported_dispute = raised a dispute the audit does not support
fault-protocol = broke the protocol
lan-detail = Details

## Refused LAN requests (`crate::lan_text::refusal_text`).
refused-phase = Not possible now
refused-turn = It is not your turn
refused-illegal = That move is not legal
refused-layout = The layout breaks the rules
refused-resign = You cannot resign yet
refused-time = Your move time is up
refused-offered = You already offered a draw this turn
refused-unplayable = No game can be played over the LAN under these rules
lobby-ended = The game could not start

## Replay.
replay-title = Replays
replay-review = Review
review-title = Review
review-computing = Reviewing
review-failed = The review failed
review-curve = How each side judged the game from what it knew; up is good for you. Click the curve to go there
review-view_of = { $seat ->
        [you] Your view
       *[other] { $who }'s view
    }
review-mistakes = Mistakes
review-no_mistakes = No clear mistakes
review-ply = Move { $n }:
review-mistake = Mistake
review-good = Close to the computer's choice
review-ai = Computer
review-flip = flip { $at }
replay-none = No saved games yet
replay-pick = Choose a game to replay
replay-unfinished = Unfinished
replay-first = Start
replay-export = Export for audit
replay-exported = Exported to
replay-audit_cmd = Anyone can check the game with:
replay-export_failed = Export failed
replay-prev = Back
replay-next = Next
replay-last = End
replay-play = Play
replay-pause = Pause
replay-full = Show every piece

## Profile.
profile-rebuilt = Record rebuilt from { $games ->
        [one] one saved game
       *[other] { $games } saved games
    }
profile-title = Profile
profile-level = Rank
profile-score = Score
profile-games = Games
profile-wins = Won
profile-losses = Lost
profile-draws = Drawn
profile-vs = Opponent
profile-next = Next rank
profile-ai = Computer

## Settings.
settings-title = Settings
settings-language = Language
settings-board_colours = Board colours
settings-theme-classic = Classic wood
settings-theme-green = Army green
settings-theme-paper = Plain paper
settings-my_colour = My colour
settings-red = Red
settings-blue = Blue
settings-default_clock = Default seconds per move
settings-saved = Settings saved
settings-sound = Sound effects
settings-animations = Animations
settings-about = About

## Rules.
rules-title = Rules

## Errors.
err-corrupt = The file is damaged and cannot be read
err-missing = The file does not exist
err-moved_aside = The file was damaged and is kept as { $file }
err-settings_damaged = The settings file was damaged: the default settings are used, the old file is kept as { $file }
err-profile_damaged = The profile file was damaged and is kept as { $file }
err-io = Could not read or write the file
err-record_layout = A layout in the record breaks the rules
err-record_opening = The record's opening does not fit its rules
err-record_action = Action { $n } of the record is against the rules
err-no_journal = No signed log was kept for this game
err-journal = The signed log is damaged
err-name = A name must not be empty and may hold only letters, digits, Chinese characters, - and _

## The engine's terms: AI levels, ranks, hint reasons, layout problems (src/game_text.rs).
level-novice = Novice
level-skilled = Skilled
level-expert = Expert
level-master = Master
rank-commander = Commander
rank-corps = Corps commander
rank-division = Division commander
rank-brigade = Brigade commander
rank-regiment = Regiment commander
rank-battalion = Battalion commander
rank-company = Company commander
rank-platoon = Platoon commander
rank-engineer = Engineer
rank-landmine = Landmine
rank-bomb = Bomb
rank-flag = Flag
rank-unknown = piece
rank-short-commander = Cmdr
rank-short-corps = Corps
rank-short-division = Div
rank-short-brigade = Brig
rank-short-regiment = Regt
rank-short-battalion = Bn
rank-short-company = Coy
rank-short-platoon = Plt
rank-short-engineer = Eng
rank-short-landmine = Mine
rank-short-bomb = Bomb
rank-short-flag = Flag
hint-flip = Flip { $at }: learn more of the board
hint-take_flag = { $from } takes the flag on { $to }
hint-attack_likely = { $from } attacks { $to }: most likely { $kind ->
        [engineer] an
       *[other] a
    } { $rank } ({ $percent }%)
hint-attack = { $from } attacks { $to }
hint-camp = { $from } into the camp { $to }: safe and ready to strike
hint-advance = { $from } to { $to }: pressure on the enemy flag
hint-steady = { $from } to { $to }: out of danger, keeping the position
hint-wins = { $hint }, and it wins
problem-camp = Camps start empty (row { $row }, column { $col })
problem-count = { $rank }: { $found } instead of { $expected }
problem-flag = The flag must stand in a headquarters (row { $row }, column { $col })
problem-mine = Landmines stand only in the last two rows (row { $row }, column { $col })
problem-bomb = Bombs may not stand in the front row (row { $row }, column { $col })
problem-empty = This point must hold a piece (row { $row }, column { $col })

## Rating levels by score (src/profile.rs).
rating-private = Private
rating-vice_squad = Vice squad leader
rating-squad = Squad leader
rating-vice_platoon = Vice platoon leader
rating-platoon = Platoon leader
rating-vice_company = Vice company commander
rating-company = Company commander
rating-vice_battalion = Vice battalion commander
rating-battalion = Battalion commander
rating-vice_regiment = Vice regiment commander
rating-regiment = Regiment commander
rating-vice_brigade = Vice brigade commander
rating-brigade = Brigade commander
rating-vice_division = Vice division commander
rating-division = Division commander
rating-vice_corps = Vice corps commander
rating-corps = Corps commander
rating-commander = Commander

## The rules page (src/screens/rules_text.rs).
rules-pieces = 1. Pieces
rules-pieces-p1 = Each side has 25 pieces: Commander 1, Corps commander 1, Division commander 2, Brigade commander 2, Regiment commander 2, Battalion commander 2, Company commander 3, Platoon commander 3, Engineer 3, Landmine 3, Bomb 2, Flag 1.
rules-pieces-p2 = Ranks from high to low: Commander (40) > Corps (39) > Division (38) > Brigade (37) > Regiment (36) > Battalion (35) > Company (34) > Platoon (33) > Engineer (32).
rules-board = 2. The board
rules-board-p1 = Each side owns a half of 6 rows by 5 columns, 30 points. Row 1 faces the enemy. A point is named by its half, row and column: row 3, column 1 of the South half is S31, of the North half N31; the four-player board adds East E, West W and the centre C1…C9. The move log and the board's coordinates use the same names.
rules-board-p2 = Stations are the ordinary points. Camps (circles) are each half's 22, 24, 33, 42 and 44 (e.g. S22): a piece in a camp cannot be attacked. Headquarters are 62 and 64 (e.g. S62): the flag must stand in one of them.
rules-board-p3 = Railways (thick lines): rows 1 and 5, and columns 1 and 5 from row 1 to row 5. Roads (thin lines): the other neighbouring points and the diagonals at camps.
rules-board-p4 = The halves meet at the mountain line; only columns 1, 3 and 5 cross it, by railway.
rules-setup = 3. Setup
rules-setup-p1 = Before the game each player places 25 pieces on their own half: camps stay empty; the flag goes in a headquarters; landmines only in the last two rows; bombs never in the first row.
rules-setup-p2 = Click a piece and then another to swap them; a swap that breaks a rule is refused and the reason shown. Classic layouts, random layouts and mirroring are available, and you can save your own layouts.
rules-moving = 4. Moving
rules-moving-p1 = Players take turns; each turn moves one of your own pieces.
rules-moving-p2 = On a road a piece moves one step. On the railway it moves any distance in a straight line through empty points.
rules-moving-p3 = Engineers may turn corners on the railway: any path along clear railway.
rules-moving-p4 = Landmines and the flag never move. A piece that enters a headquarters stays there.
rules-moving-p5 = Camps are safe: a piece in a camp cannot be attacked, and camps are entered and left by a single road step.
rules-combat = 5. Combat
rules-combat-p1 = Moving onto an enemy piece attacks it. The higher rank wins; equal ranks remove each other.
rules-combat-p2 = A bomb and whatever it meets are both removed (landmines and the flag included).
rules-combat-p3 = An engineer clears a landmine; any other piece that attacks a landmine is removed and the mine stays.
rules-combat-p4 = Capturing the enemy flag wins the game. When a commander falls, its side's flag is shown.
rules-modes = 6. Ways to play
rules-modes-p1 = Dark: you see only your own pieces; the referee announces only which pieces were removed.
rules-modes-p2 = Open: after both sides set up, every piece is shown face up.
rules-modes-p3 = Flip: all 50 pieces start face down on the non-camp points; on a turn flip one piece or move one of your face-up pieces. The colour of your first flip is your colour.
rules-clock = 7. Clock, results and draws
rules-clock-p1 = Each move has a time limit (60 s by default). Running out loses the turn; more than 3 timeouts loses the game.
rules-clock-p2 = You lose when your flag is captured, when you cannot move, by timeouts, or by resigning (not allowed in the first 20 moves).
rules-clock-p3 = The game is drawn when nobody can move, when both agree, or after 60 moves in a row without an attack.
rules-rating = 8. Rating levels
rules-rating-p1 = A win scores +1, a loss −1; a win in fewer than 30 moves scores nothing.
rules-rating-p2 = Private 0, Vice squad leader 10, Squad leader 20, Vice platoon leader 30, Platoon leader 50, Vice company commander 100, Company commander 150, Vice battalion commander 220, Battalion commander 350, Vice regiment commander 500, Regiment commander 750, Vice brigade commander 1000, Brigade commander 1550, Vice division commander 2150, Division commander 3150, Vice corps commander 5000, Corps commander 6350, Commander 12750.
rules-options = 9. Rule options
rules-options-p1 = Flying bombs: bombs may stand in row 1 and fly on the railway like engineers.
rules-options-p2 = Mine trades: a piece that attacks a mine dies together with it (engineers still clear mines). Bomb mines: every attack on a mine removes both.
rules-options-p3 = HQ exit: pieces may leave a headquarters. Engineer scouting: an engineer's failed attack reveals the defender.
rules-options-p4 = Flag capture: anyone / anyone but the commander / engineers only.

## Four-seat LAN tables (四国大战 over the LAN).
table-tables = 2 v 2 tables
table-none = No 2 v 2 table nearby
table-free = Free seats
table-full = Full
table-host = Host a 2 v 2 table
table-host_hint = You sit South; leave each other seat to a player or fill it with the computer
table-setup = Host a 2 v 2 table: rules and seats
table-way = Way
table-per_move = { $seconds } s per move
table-open_seat = A player
table-computer = Computer
table-open_table = Open the table
table-waiting = Waiting for players to sit…
table-joining = Taking the seat:{" "}
table-your_seat = Your seat
table-ai_on_host = Computer ({ $level }), host's device
table-link_up = online
table-link_down = offline
table-rules_devices = A device knows the pieces of the seats it runs, and no others.
table-rules_partners = Partners open: partners see each other's pieces; the other team does not.
table-rules_open = All open: every piece is face up.
table-rules_host_ai = { $seat }: a computer seat run by the host's device: the host can see its pieces.
table-rules_enemy_ai = The host's device also runs a computer seat of the other team: confirming the code means you agree.
table-ai_on_partner = Computer ({ $level }), { $partner }'s device
table-handed_over = Computer (on partner's device)
table-rules_partner_ai = { $seat }: a computer seat run by { $partner }'s device: { $partner } can see its pieces.
table-rules_hand_over = If { $seat } leaves, { $partner }'s device plays it on with its computer, and then sees its pieces.
table-hand_over = If I leave, my partner's device plays my seat on with its computer
table-hand_over_host = The host's seat cannot be handed over: the table runs through the host's device.
table-comes_with = Taking { $seat }, your device also runs its partner { $partner }, a computer ({ $level })
table-compare = All four players compare this one code (say it aloud); confirm if it is the same
table-confirm = Same code: confirm
table-seat_header = Seat · player · timeouts
table-confirmed = Confirmed; waiting for the other players…
table-refused_early = Too early to resign
table-refused_offered = A draw was offered this turn already
table-blamed = The audit found a cheater: { $seat }
table-left = { $seat } left the table
table-abandoned = The table broke off: no result
table-unplayed = The table never started
table-stale = This device's journal is older than the table: it cannot go on
table-not_audited = Not audited: a seat did not open its army
table-unfinished = Unfinished 2 v 2 table
table-ended = The table ended
table-host_stopped = The host stopped relaying: the table has no result
