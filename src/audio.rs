//! Sound effects: a piece set down, a battle, a bomb, a mine, a captured flag, the clock running
//! out, your turn in a LAN game. The sounds are synthesized by `scripts/make-sounds.py` (the
//! project's own, same licence) and built into the binary, like the fonts.
//!
//! Two halves, so that the headless tests need no sound device:
//! - [`cues_plugin`] (in [`crate::LogicPlugin`]) watches the game on screen and writes a
//!   [`PlaySound`] for what the player just saw: the new lines of the match log (the same
//!   facts the board's announcements come from), the turn passing to the player in a LAN game,
//!   the player's clock crossing [`WARN_SECS`]. Nothing is written while the sound is switched
//!   off in the settings.
//! - [`playback_plugin`] (in [`crate::AppPlugin`] only, next to Bevy's audio) plays each
//!   [`PlaySound`]. A machine with no sound output ([`output_present`]) gets neither it nor
//!   Bevy's audio, and plays silently.

use bevy::prelude::*;

use crate::{
    battle::{BattleKind, BattleSeen},
    game_match::{LogEntry, Match},
    model::ActiveGame,
    nav::Screen,
    settings::Settings,
};

/// One sound effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sound {
    /// A piece set down (a quiet move or a flip).
    Move,
    /// Two pieces fought.
    Battle,
    /// A landmine: stepped on, or dug up by an engineer.
    Mine,
    /// A bomb went off.
    Bomb,
    /// A flag was captured.
    Flag,
    /// The player's move clock is about to run out.
    TimeoutWarning,
    /// The turn has come to the player (LAN games).
    YourTurn,
}

impl Sound {
    /// Every sound.
    pub const ALL: [Sound; 7] = [
        Sound::Move,
        Sound::Battle,
        Sound::Mine,
        Sound::Bomb,
        Sound::Flag,
        Sound::TimeoutWarning,
        Sound::YourTurn,
    ];

    /// The sound's WAV file.
    pub fn wav(self) -> &'static [u8] {
        match self {
            Sound::Move => include_bytes!("../assets/sounds/move.wav"),
            Sound::Battle => include_bytes!("../assets/sounds/battle.wav"),
            Sound::Mine => include_bytes!("../assets/sounds/mine.wav"),
            Sound::Bomb => include_bytes!("../assets/sounds/bomb.wav"),
            Sound::Flag => include_bytes!("../assets/sounds/flag.wav"),
            Sound::TimeoutWarning => include_bytes!("../assets/sounds/timeout.wav"),
            Sound::YourTurn => include_bytes!("../assets/sounds/turn.wav"),
        }
    }
}

/// A request to play a sound (written by [`cues_plugin`], played by [`playback_plugin`]).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlaySound(pub Sound);

/// The warning sounds when the player's clock gets this low (seconds), once per move, and
/// only with a clock longer than that.
pub const WARN_SECS: f32 = 10.0;

/// The sound of a battle, as the player saw it (the same order as the board's caption:
/// a flag first, then a bomb, then a mine).
pub fn battle_sound(seen: &BattleSeen) -> Sound {
    match seen.kind() {
        BattleKind::Flag => Sound::Flag,
        BattleKind::Bomb => Sound::Bomb,
        BattleKind::Mine => Sound::Mine,
        BattleKind::Trade | BattleKind::Capture => Sound::Battle,
    }
}

/// What has already been sounded for the game on screen.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct Heard {
    /// The game (start time, opponent), to tell a new game from the one followed.
    game: Option<(u64, String)>,
    /// Log lines already sounded.
    log_len: usize,
    /// Whether it was the player's turn.
    my_turn: bool,
    /// Whether the clock warning was given for this move.
    warned: bool,
}

/// The sounds for what changed in `s` since `heard`, and `heard` brought up to date. A game
/// not followed before (or a log that got shorter) is taken as it is, silently: opening a
/// game or a replay does not replay its sounds.
pub fn cues(heard: &mut Heard, s: &Match) -> Vec<Sound> {
    let game = Some((s.started, s.opponent.clone()));
    let my_turn = s.my_turn() && s.result().is_none();
    if heard.game != game || s.log.len() < heard.log_len {
        *heard = Heard {
            game,
            log_len: s.log.len(),
            my_turn,
            warned: false,
        };
        return Vec::new();
    }
    let mut out = Vec::new();
    // Several new lines at once (a LAN resync): only the most telling one, not a clatter.
    let loudest = s.log[heard.log_len..]
        .iter()
        .filter_map(|e| match e {
            LogEntry::Move { battle: None, .. } | LogEntry::Flip { .. } => Some(Sound::Move),
            LogEntry::Move {
                battle: Some(b), ..
            } => Some(battle_sound(b)),
            _ => None,
        })
        .max();
    out.extend(loudest);
    if s.log.len() != heard.log_len || my_turn != heard.my_turn {
        heard.warned = false;
    }
    // Against the computer its move's own sound says the turn is back; a LAN peer may take long.
    if s.is_remote() && my_turn && !heard.my_turn {
        out.push(Sound::YourTurn);
    }
    if my_turn
        && !heard.warned
        && s.rules().move_seconds as f32 > WARN_SECS
        && s.clock <= WARN_SECS
        && s.clock > 0.0
    {
        heard.warned = true;
        out.push(Sound::TimeoutWarning);
    }
    heard.log_len = s.log.len();
    heard.my_turn = my_turn;
    out
}

/// The cues: registered in [`crate::LogicPlugin`] (no audio needed).
pub fn cues_plugin(app: &mut App) {
    app.add_message::<PlaySound>()
        .init_resource::<Heard>()
        .add_systems(Update, cue.run_if(in_state(Screen::Game)));
}

fn cue(
    game: Option<Res<ActiveGame>>,
    settings: Res<Settings>,
    mut heard: ResMut<Heard>,
    mut out: MessageWriter<PlaySound>,
) {
    let Some(game) = game else {
        return;
    };
    // Followed even when muted, so switching the sound on does not play what went before.
    let sounds = cues(&mut heard, &game.game_match);
    if settings.sound {
        out.write_batch(sounds.into_iter().map(PlaySound));
    }
}

/// The decoded sounds, one handle each.
#[derive(Resource)]
struct SoundBank(Vec<(Sound, Handle<AudioSource>)>);

/// Playback: only in the rendering app, after Bevy's `AudioPlugin` (part of `DefaultPlugins`).
pub fn playback_plugin(app: &mut App) {
    app.add_message::<PlaySound>()
        .add_systems(Startup, load_sounds)
        .add_systems(Update, play.run_if(resource_exists::<SoundBank>));
}

/// Whether the machine can play sound at all. On Linux a machine without a sound card (a
/// server, a container, a virtual machine) and without a sound server makes ALSA print eight
/// lines of errors when the audio output is opened; the app then leaves Bevy's audio out and
/// plays silently, as it would anyway. Elsewhere the system decides (true).
pub fn output_present() -> bool {
    #[cfg(target_os = "linux")]
    {
        let cards = std::fs::read_to_string("/proc/asound/cards").unwrap_or_default();
        linux_output_present(&cards, |name| std::env::var_os(name))
    }
    #[cfg(not(target_os = "linux"))]
    true
}

/// [`output_present`] on Linux, from `/proc/asound/cards` and the environment: a sound card,
/// or a PulseAudio or PipeWire server (which may play over the network or a socket).
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
fn linux_output_present(cards: &str, env: impl Fn(&str) -> Option<std::ffi::OsString>) -> bool {
    let has_card = !cards.trim().is_empty() && !cards.contains("no soundcards");
    let server_socket = env("XDG_RUNTIME_DIR").is_some_and(|dir| {
        let dir = std::path::Path::new(&dir);
        dir.join("pulse/native").exists() || dir.join("pipewire-0").exists()
    });
    has_card || env("PULSE_SERVER").is_some() || server_socket
}

fn load_sounds(mut commands: Commands, mut sources: ResMut<Assets<AudioSource>>) {
    let bank = Sound::ALL
        .into_iter()
        .map(|s| {
            let source = AudioSource {
                bytes: std::sync::Arc::from(s.wav()),
            };
            (s, sources.add(source))
        })
        .collect();
    commands.insert_resource(SoundBank(bank));
}

fn play(mut commands: Commands, mut requests: MessageReader<PlaySound>, bank: Res<SoundBank>) {
    for PlaySound(sound) in requests.read() {
        if let Some((_, handle)) = bank.0.iter().find(|(s, _)| s == sound) {
            commands.spawn((AudioPlayer(handle.clone()), PlaybackSettings::DESPAWN));
        }
    }
}

#[cfg(test)]
mod tests {

    /// A card or a sound server means sound; neither (a headless machine) means none.
    #[test]
    fn sound_output_from_cards_and_servers() {
        let none = |_: &str| None;
        assert!(!linux_output_present("", none));
        assert!(!linux_output_present("--- no soundcards ---\n", none));
        let card = " 0 [PCH            ]: HDA-Intel - HDA Intel PCH\n";
        assert!(linux_output_present(card, none));
        let pulse = |name: &str| (name == "PULSE_SERVER").then(|| "tcp:host".into());
        assert!(linux_output_present("", pulse));
        let tmp = std::env::temp_dir().join(format!("junqi-sound-{}", std::process::id()));
        std::fs::create_dir_all(&tmp).unwrap();
        let runtime = |name: &str| (name == "XDG_RUNTIME_DIR").then(|| tmp.clone().into());
        assert!(!linux_output_present("", runtime));
        std::fs::write(tmp.join("pipewire-0"), b"").unwrap();
        assert!(linux_output_present("", runtime));
        std::fs::remove_dir_all(&tmp).unwrap();
    }
    use super::*;
    use crate::demo::demo_match;
    use junqi_game::Rank;
    use junqi_game::{Move, Outcome};

    fn battle(attacker: Option<Rank>, defender: Option<Rank>, outcome: Outcome) -> BattleSeen {
        BattleSeen {
            attacker,
            defender,
            outcome,
            flag_captured: false,
        }
    }

    #[test]
    fn battles_sound_as_they_are_captioned() {
        use Outcome::*;
        let r = Some;
        assert_eq!(
            battle_sound(&battle(r(Rank::Bomb), None, BothRemoved)),
            Sound::Bomb
        );
        assert_eq!(
            battle_sound(&battle(None, r(Rank::Bomb), BothRemoved)),
            Sound::Bomb
        );
        // Stepped on a mine, and an engineer digging one up.
        assert_eq!(
            battle_sound(&battle(None, r(Rank::Landmine), DefenderWins)),
            Sound::Mine
        );
        assert_eq!(
            battle_sound(&battle(r(Rank::Engineer), r(Rank::Landmine), AttackerWins)),
            Sound::Mine
        );
        assert_eq!(
            battle_sound(&battle(None, None, AttackerWins)),
            Sound::Battle
        );
        let flag = BattleSeen {
            flag_captured: true,
            ..battle(r(Rank::Bomb), r(Rank::Flag), AttackerWins)
        };
        assert_eq!(battle_sound(&flag), Sound::Flag);
    }

    /// A step for the side to move (the player's or the computer's).
    fn first_step(s: &Match) -> Move {
        *s.game()
            .unwrap()
            .view(s.turn())
            .legal_moves()
            .iter()
            .find(|m| matches!(m, Move::Step { .. }))
            .unwrap()
    }

    #[test]
    fn a_move_sounds_once_and_a_new_game_is_silent() {
        let mut s = demo_match(Some(0), 3);
        let mut heard = Heard::default();
        assert_eq!(cues(&mut heard, &s), vec![], "opening a game is silent");
        let mv = first_step(&s);
        assert!(s.play(mv).unwrap().is_some());
        assert_eq!(cues(&mut heard, &s), vec![Sound::Move]);
        assert_eq!(cues(&mut heard, &s), vec![], "each line sounds once");
        // A different game (started later) is taken silently, however long its log is.
        let mut other = s.clone();
        other.started += 1;
        assert_eq!(cues(&mut heard, &other), vec![]);
    }

    #[test]
    fn the_clock_warning_sounds_once_per_move_on_the_players_turn_only() {
        let mut s = demo_match(Some(0), 3);
        assert!(s.my_turn() && s.rules().move_seconds as f32 > WARN_SECS);
        let mut heard = Heard::default();
        cues(&mut heard, &s);
        s.clock = WARN_SECS + 1.0;
        assert_eq!(cues(&mut heard, &s), vec![]);
        s.clock = WARN_SECS - 0.5;
        assert_eq!(cues(&mut heard, &s), vec![Sound::TimeoutWarning]);
        s.clock = 3.0;
        assert_eq!(cues(&mut heard, &s), vec![], "once per move");
        // The computer's turn: its clock running low is not the player's concern.
        let mv = first_step(&s);
        s.play(mv).unwrap();
        assert!(!s.my_turn());
        s.clock = 3.0;
        assert_eq!(cues(&mut heard, &s), vec![Sound::Move]);
        // The player's next move warns again.
        let mv = first_step(&s);
        s.play(mv).unwrap();
        assert!(s.my_turn());
        s.clock = WARN_SECS;
        let heard_now = cues(&mut heard, &s);
        // The computer's step (quiet or an attack), then the warning.
        assert_eq!(heard_now.len(), 2, "{heard_now:?}");
        assert_eq!(heard_now[1], Sound::TimeoutWarning);
    }

    #[test]
    fn every_sound_is_a_short_mono_wav() {
        for s in Sound::ALL {
            let wav = s.wav();
            assert_eq!(&wav[0..4], b"RIFF", "{s:?}");
            assert_eq!(&wav[8..12], b"WAVE", "{s:?}");
            let channels = u16::from_le_bytes([wav[22], wav[23]]);
            let rate = u32::from_le_bytes([wav[24], wav[25], wav[26], wav[27]]);
            assert_eq!((channels, rate), (1, 22_050), "{s:?}");
            let secs = (wav.len() - 44) as f32 / (2.0 * rate as f32);
            assert!(secs > 0.05 && secs < 1.0, "{s:?}: {secs} s");
        }
    }
}
