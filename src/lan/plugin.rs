//! The LAN plugin: the one owner of the link to the network thread ([`LanLink`]). Screens write
//! [`LanRequest`]s; the plugin starts, feeds and stops the thread, and forwards each of the
//! thread's reports as a [`LanEvent`] for any system to read.

use bevy::prelude::*;

use super::link::{LanCmd, LanLink, LanMsg, Role};
use crate::{redraw::Waker, storage::DataDir};

/// What a screen asks of the LAN plugin.
#[derive(Message, Clone, Debug)]
pub enum LanRequest {
    /// Start a LAN session (replacing a running one).
    Start(Role),
    /// A decision for the running session.
    Send(LanCmd),
    /// Leave the running session (its journal is kept for a resume if play had begun).
    Leave,
}

/// One report of the network thread, in order.
#[derive(Message, Clone, Debug)]
pub struct LanEvent(pub LanMsg);

/// Reports are forwarded before the screens' systems run, requests handled after them, so a
/// request made in a frame reaches the thread in that frame.
pub fn plugin(app: &mut App) {
    app.add_message::<LanRequest>()
        .add_message::<LanEvent>()
        .add_systems(PreUpdate, forward)
        .add_systems(PostUpdate, requests)
        .add_plugins((super::play::plugin, super::multicast::plugin));
}

fn forward(mut commands: Commands, link: Option<Res<LanLink>>, mut out: MessageWriter<LanEvent>) {
    let Some(link) = link else { return };
    while let Some(msg) = link.next() {
        // The thread stopped: nothing more will come.
        let fatal = matches!(msg, LanMsg::Error(_));
        out.write(LanEvent(msg));
        if fatal {
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
) {
    // A link started in this frame takes the requests that follow it in this frame.
    let mut fresh: Option<LanLink> = None;
    let mut leave = false;
    for r in reader.read() {
        match r {
            LanRequest::Start(role) => {
                fresh = Some(LanLink::start(role.clone(), dir.lan(), waker.clone()));
                leave = false;
            }
            LanRequest::Send(cmd) => match fresh.as_ref().or(link.as_deref()) {
                Some(l) => l.send(*cmd),
                None => debug!("no LAN session for {cmd:?}"),
            },
            LanRequest::Leave => {
                fresh = None;
                leave = true;
            }
        }
    }
    // Replacing or removing the resource drops the old link, which stops its thread.
    if let Some(l) = fresh {
        commands.insert_resource(l);
    } else if leave {
        commands.remove_resource::<LanLink>();
    }
}
