//! The LAN plugin: the one owner of the game's handle ([`LanLink`]) and of the host browser
//! ([`LanBrowsing`]). Screens write [`LanRequest`]s; the plugin starts, feeds and stops them, and
//! forwards each report as a [`LanEvent`] and each host found as a [`LanFound`].

use bevy::prelude::*;
use junqi_net::discovery::Discovery;
use junqi_net::peer::{Browser, PeerCmd, PeerEvent, PeerHandle, Role};

use crate::{redraw::Waker, storage::DataDir};

/// The handle on the running LAN game (it exists while its thread runs).
#[derive(Resource, Debug)]
pub struct LanLink(PeerHandle);

/// The host browser (it exists while a lobby browses).
#[derive(Resource, Debug)]
pub struct LanBrowsing(Browser);

/// What a screen asks of the LAN plugin.
#[derive(Message, Clone, Debug)]
pub enum LanRequest {
    /// Start a LAN game (replacing a running one).
    Start(Role),
    /// A decision for the running game.
    Send(PeerCmd),
    /// Leave the running game (its journal is kept for a resume if play had begun).
    Leave,
    /// Browse for hosts (on), or stop (off).
    Browse(bool),
}

/// One report of the game's thread, in order.
#[derive(Message, Clone, Debug)]
pub struct LanEvent(pub PeerEvent);

/// A host appeared or went away.
#[derive(Message, Clone, Debug)]
pub struct LanFound(pub Discovery);

/// Reports are forwarded before the screens' systems run, requests handled after them, so a
/// request made in a frame reaches the thread in that frame.
pub fn plugin(app: &mut App) {
    app.add_message::<LanRequest>()
        .add_message::<LanEvent>()
        .add_message::<LanFound>()
        .add_systems(PreUpdate, forward)
        .add_systems(PostUpdate, requests);
}

fn forward(
    mut commands: Commands,
    link: Option<Res<LanLink>>,
    browsing: Option<Res<LanBrowsing>>,
    mut out: MessageWriter<LanEvent>,
    mut found: MessageWriter<LanFound>,
) {
    if let Some(b) = browsing {
        while let Some(d) = b.0.try_recv() {
            found.write(LanFound(d));
        }
    }
    let Some(link) = link else { return };
    while let Some(e) = link.0.try_recv() {
        // The thread stopped: nothing more will come.
        let stopped = matches!(e, PeerEvent::Stopped);
        out.write(LanEvent(e));
        if stopped {
            commands.remove_resource::<LanLink>();
            break;
        }
    }
}

fn requests(
    mut commands: Commands,
    mut reader: MessageReader<LanRequest>,
    link: Option<Res<LanLink>>,
    dir: Res<DataDir>,
    waker: Res<Waker>,
    mut out: MessageWriter<LanEvent>,
) {
    // A game started in this frame takes the requests that follow it in this frame.
    let mut fresh: Option<LanLink> = None;
    let mut leave = false;
    for r in reader.read() {
        match r {
            LanRequest::Start(role) => {
                let waker = waker.clone();
                fresh = Some(LanLink(PeerHandle::start_waking(
                    role.clone(),
                    Some(dir.lan()),
                    move || waker.wake(),
                )));
                leave = false;
            }
            LanRequest::Send(cmd) => match fresh.as_ref().or(link.as_deref()) {
                Some(l) => l.0.send(*cmd),
                None => debug!("no LAN game for {cmd:?}"),
            },
            LanRequest::Leave => {
                fresh = None;
                leave = true;
            }
            LanRequest::Browse(true) => match Browser::start() {
                Ok(b) => commands.insert_resource(LanBrowsing(b)),
                Err(e) => {
                    out.write(LanEvent(PeerEvent::Error(e)));
                }
            },
            LanRequest::Browse(false) => commands.remove_resource::<LanBrowsing>(),
        }
    }
    // Replacing or removing the resource drops the old handle, which stops its thread.
    if let Some(l) = fresh {
        commands.insert_resource(l);
    } else if leave {
        commands.remove_resource::<LanLink>();
    }
}
