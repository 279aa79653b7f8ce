//! Drawing only when something changes, to spare a phone's battery and a laptop's fan: the app
//! waits for input (winit's reactive mode) and otherwise wakes only when something asks:
//!
//! - a few frames after any input or screen change, so that the UI settles
//!   (a click's effect, a new screen's layout);
//! - every frame while something moves ([`Redraw::every_frame`]: a slide or a battle's effect
//!   on the board, a piece held down, a replay playing);
//! - at a time a screen names ([`Redraw::within`]: the move clock's next whole second, the
//!   computer's move due);
//! - from another thread, through [`Waker`]: the computer's move found, a network message.
//!
//! egui's own repaint requests (hover, its animations) reach bevy_winit as `RequestRedraw`.
//! Screenshots (`JUNQI_SCREENSHOT`) and frame-time figures (`JUNQI_DIAG`), feature `dev`, count
//! frames, so they keep the app drawing continuously.

use std::sync::mpsc;
use std::time::{Duration, Instant};

use bevy::platform::collections::HashMap;
use bevy::{
    prelude::*,
    window::{RequestRedraw, WindowEvent},
    winit::{EventLoopProxyWrapper, UpdateMode, WinitSettings, WinitUserEvent},
};
use bevy_egui::{EguiInput, EguiPreUpdateSet, egui};
use winit::event_loop::EventLoopProxy;

use crate::screens::{Navigate, Screen};

/// The longest the app sleeps when nothing asked for a time (anything polled without a waker
/// asks for its own time, as the lobby does for the hosts found).
pub const IDLE_WAIT: Duration = Duration::from_secs(5);

/// Frames drawn after an input or a change, for the UI to settle (egui lays a new screen out
/// over two frames; a state change applies in the frame after it is asked).
const SETTLE_FRAMES: u8 = 4;

/// What the screens asked of the next wake-up, gathered during a frame.
#[derive(Resource, Debug, Default)]
pub struct Redraw {
    every_frame: bool,
    within: Option<Duration>,
    settle: u8,
}

impl Redraw {
    /// Something is moving: draw the next frame too.
    pub fn every_frame(&mut self) {
        self.every_frame = true;
    }

    /// Something will change in `after`: wake up by then.
    pub fn within(&mut self, after: Duration) {
        self.within = Some(self.within.map_or(after, |w| w.min(after)));
    }

    /// Something changed: draw a few frames more.
    pub fn settle(&mut self) {
        self.settle = SETTLE_FRAMES;
    }

    /// Whether the next frame must come at once.
    pub fn wants_next_frame(&self) -> bool {
        self.every_frame || self.settle > 0
    }

    /// How long the app may sleep after this frame if nothing happens.
    pub fn wait(&self) -> Duration {
        self.within.map_or(IDLE_WAIT, |w| w.min(IDLE_WAIT))
    }

    /// Starts the next frame's gathering.
    fn next_frame(&mut self) {
        self.every_frame = false;
        self.within = None;
        self.settle = self.settle.saturating_sub(1);
    }
}

/// Wakes the app from another thread. Without a window (tests) it does nothing.
#[derive(Resource, Clone, Default)]
pub struct Waker(Option<EventLoopProxy<WinitUserEvent>>);

impl Waker {
    /// Makes the app run its next frame now.
    pub fn wake(&self) {
        if let Some(proxy) = &self.0 {
            // Fails only when the event loop is gone (the app is closing).
            let _ = proxy.send_event(WinitUserEvent::WakeUp);
        }
    }
}

/// The time until a clock showing whole seconds rounded up (`left.ceil()`) changes, a little
/// after the change so that the frame shows the new second.
pub fn next_second(left: f32) -> Duration {
    if left <= 0.0 {
        return IDLE_WAIT;
    }
    let into = left - left.ceil() + 1.0;
    Duration::from_secs_f32(into.clamp(0.0, 1.0) + 0.01)
}

/// The gathering, for every app (the screens ask whether or not a window draws).
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Redraw>()
        .init_resource::<Waker>()
        .add_systems(First, Redraw::next_frame_system);
}

/// The rendering app's side: reactive updates, and the waker.
pub(super) fn winit_plugin(app: &mut App) {
    #[cfg(feature = "dev")]
    if ["JUNQI_SCREENSHOT", "JUNQI_DIAG"]
        .iter()
        .any(|v| std::env::var_os(v).is_some())
    {
        app.insert_resource(WinitSettings::continuous());
        return;
    }
    app.insert_resource(WinitSettings {
        focused_mode: UpdateMode::reactive_low_power(IDLE_WAIT),
        unfocused_mode: UpdateMode::reactive_low_power(IDLE_WAIT),
    })
    .add_systems(Startup, (make_waker, allow_long_frames))
    .add_systems(
        PreUpdate,
        quiet_modifiers
            .after(EguiPreUpdateSet::ProcessInput)
            .before(EguiPreUpdateSet::BeginPass),
    )
    .add_systems(Update, settle_on_change)
    .add_systems(Last, apply);
}

/// bevy_egui feeds egui the keyboard modifiers as an event every frame, changed or not, and egui
/// repaints at once after any event: the app would never sleep. Only a change is passed on.
fn quiet_modifiers(
    mut inputs: Query<(Entity, &mut EguiInput)>,
    mut last: Local<HashMap<Entity, egui::Modifiers>>,
) {
    for (entity, mut input) in &mut inputs {
        let seen = last.entry(entity).or_default();
        drop_unchanged_modifiers(&mut input.0.events, seen);
    }
}

/// Removes the `ModifiersChanged` events that repeat the modifiers last seen (`seen`, updated).
fn drop_unchanged_modifiers(events: &mut Vec<egui::Event>, seen: &mut egui::Modifiers) {
    events.retain(|e| match e {
        egui::Event::ModifiersChanged(m) if m == seen => false,
        egui::Event::ModifiersChanged(m) => {
            *seen = *m;
            true
        }
        _ => true,
    });
}

impl Redraw {
    fn next_frame_system(mut redraw: ResMut<Redraw>) {
        redraw.next_frame();
    }
}

/// Frames may come a whole [`IDLE_WAIT`] apart, and the game's clocks advance by each frame's
/// delta: Bevy's virtual time would clamp a delta to a quarter of a second and the clocks would
/// run slow. The bound stays, well above the longest sleep (a suspended app's first frame).
fn allow_long_frames(mut time: ResMut<Time<Virtual>>) {
    time.set_max_delta(IDLE_WAIT * 2);
}

fn make_waker(
    mut commands: Commands,
    proxy: Option<Res<EventLoopProxyWrapper>>,
    mut waker: ResMut<Waker>,
) {
    if let Some(proxy) = proxy {
        *waker = Waker(Some((**proxy).clone()));
        commands.insert_resource(Alarm::start(waker.clone()));
    }
}

/// Wakes the app at the times the screens ask for ([`Redraw::within`]), from a thread of its
/// own. The update mode itself stays the same: bevy_winit redraws at once whenever the mode
/// changes, so a wait set anew each frame (the clock's next second) would never let it sleep.
#[derive(Resource)]
struct Alarm(mpsc::Sender<Instant>);

impl Alarm {
    fn start(waker: Waker) -> Alarm {
        let (tx, rx) = mpsc::channel::<Instant>();
        let spawned = std::thread::Builder::new()
            .name("junqi-alarm".into())
            .spawn(move || ring_at_deadlines(&rx, &|| waker.wake()));
        if let Err(e) = spawned {
            // The app then wakes at least every IDLE_WAIT.
            warn!("no alarm thread: {e}");
        }
        Alarm(tx)
    }
}

/// Calls `wake` at each deadline received (the earliest first), until the sender is gone.
fn ring_at_deadlines(rx: &mpsc::Receiver<Instant>, wake: &dyn Fn()) {
    let mut next: Option<Instant> = None;
    loop {
        let got = match next {
            Some(at) => rx.recv_timeout(at.saturating_duration_since(Instant::now())),
            None => rx.recv().map_err(|_| mpsc::RecvTimeoutError::Disconnected),
        };
        match got {
            Ok(at) => next = Some(next.map_or(at, |n| n.min(at))),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                next = None;
                wake();
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => return,
        }
    }
}

/// Input or a screen change: let the UI settle. Only what the player or the system did counts:
/// not raw mouse motion (reported even outside the window) nor the redraw requests themselves,
/// which would keep the app drawing. A change of the game itself comes from input, a [`Waker`] or a time asked for.
fn settle_on_change(
    mut redraw: ResMut<Redraw>,
    mut window: MessageReader<WindowEvent>,
    mut nav: MessageReader<Navigate>,
    screen: Option<Res<State<Screen>>>,
) {
    let input = window.read().any(|e| {
        matches!(
            e,
            WindowEvent::CursorMoved(_)
                | WindowEvent::CursorLeft(_)
                | WindowEvent::MouseButtonInput(_)
                | WindowEvent::MouseWheel(_)
                | WindowEvent::KeyboardInput(_)
                | WindowEvent::TouchInput(_)
                | WindowEvent::Ime(_)
                | WindowEvent::WindowResized(_)
                | WindowEvent::WindowScaleFactorChanged(_)
                | WindowEvent::WindowFocused(_)
                | WindowEvent::WindowOccluded(_)
                | WindowEvent::AppLifecycle(_)
        )
    });
    let navigated = nav.read().count() > 0;
    if input || navigated || screen.is_some_and(|s| s.is_changed()) {
        redraw.settle();
    }
}

/// Tells bevy_winit when to run the next frame.
fn apply(
    redraw: Res<Redraw>,
    alarm: Option<Res<Alarm>>,
    mut request: MessageWriter<RequestRedraw>,
) {
    if redraw.wants_next_frame() {
        request.write(RequestRedraw);
    } else if let Some(alarm) = alarm
        && redraw.wait() < IDLE_WAIT
    {
        // Fails only when the alarm thread is gone; IDLE_WAIT still wakes the app.
        let _ = alarm.0.send(Instant::now() + redraw.wait());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_wakes_just_after_each_whole_second() {
        // Shown as ceil(left): 29.4 shows 30 until it reaches 29.0, 0.4 s later.
        for (left, gap) in [
            (29.4_f32, 0.4_f32),
            (29.0, 1.0),
            (0.25, 0.25),
            (59.999, 0.999),
        ] {
            let wait = next_second(left).as_secs_f32();
            assert!(
                wait > gap && wait < gap + 0.02,
                "left {left}: waited {wait}"
            );
            // After the wait the clock shows one second less.
            let after = left - wait;
            assert!(after.ceil() < left.ceil() || after <= 0.0, "left {left}");
        }
        assert_eq!(next_second(0.0), IDLE_WAIT);
    }

    #[test]
    fn the_soonest_time_asked_wins_and_idle_caps_it() {
        let mut r = Redraw::default();
        assert_eq!(r.wait(), IDLE_WAIT);
        assert!(!r.wants_next_frame());
        r.within(Duration::from_millis(300));
        r.within(Duration::from_millis(700));
        assert_eq!(r.wait(), Duration::from_millis(300));
        r.within(Duration::from_secs(5));
        assert_eq!(r.wait(), Duration::from_millis(300));
        r.next_frame();
        assert_eq!(r.wait(), IDLE_WAIT);
        r.within(Duration::from_secs(5));
        assert_eq!(r.wait(), IDLE_WAIT);
    }

    #[test]
    fn the_alarm_rings_at_the_earliest_deadline_and_ends_with_its_sender() {
        let (tx, rx) = mpsc::channel::<Instant>();
        let (rang_tx, rang) = mpsc::channel::<Instant>();
        let t = std::thread::spawn(move || {
            ring_at_deadlines(&rx, &|| {
                let _ = rang_tx.send(Instant::now());
            });
        });
        let start = Instant::now();
        tx.send(start + Duration::from_millis(300)).unwrap();
        tx.send(start + Duration::from_millis(100)).unwrap();
        let first = rang.recv_timeout(Duration::from_secs(5)).unwrap();
        assert!(first >= start + Duration::from_millis(100));
        // The later deadline was folded into the earlier one: no second ring.
        assert!(rang.recv_timeout(Duration::from_millis(400)).is_err());
        // It returns once its sender is gone.
        drop(tx);
        t.join().unwrap();
    }

    #[test]
    fn only_a_change_of_the_modifiers_reaches_egui() {
        use egui::{Event, Modifiers};
        let mut seen = Modifiers::NONE;
        // Every frame bevy_egui sends the modifiers; unchanged, they are dropped.
        let mut events = vec![Event::ModifiersChanged(Modifiers::NONE)];
        drop_unchanged_modifiers(&mut events, &mut seen);
        assert!(events.is_empty());
        // A change is passed on (with the other events), once.
        let mut events = vec![
            Event::ModifiersChanged(Modifiers::SHIFT),
            Event::Text("a".into()),
        ];
        drop_unchanged_modifiers(&mut events, &mut seen);
        assert_eq!(events.len(), 2);
        assert_eq!(seen, Modifiers::SHIFT);
        let mut events = vec![Event::ModifiersChanged(Modifiers::SHIFT)];
        drop_unchanged_modifiers(&mut events, &mut seen);
        assert!(events.is_empty());
        let mut events = vec![Event::ModifiersChanged(Modifiers::NONE)];
        drop_unchanged_modifiers(&mut events, &mut seen);
        assert_eq!(events.len(), 1);
    }

    #[test]
    fn settling_lasts_a_few_frames_then_the_app_sleeps() {
        let mut r = Redraw::default();
        r.settle();
        let mut frames = 0;
        while r.wants_next_frame() {
            frames += 1;
            r.next_frame();
            assert!(frames <= SETTLE_FRAMES as usize);
        }
        assert_eq!(frames, SETTLE_FRAMES as usize);
        r.every_frame();
        assert!(r.wants_next_frame());
        r.next_frame();
        assert!(!r.wants_next_frame());
    }
}
