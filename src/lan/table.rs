//! Four-seat LAN tables (四国大战 over the LAN): the one owner of a table's handle
//! ([`TableLink`], a [`junqi_net::table_handle::TableHandle`]). Screens ask with
//! [`TableRequest`]s and follow the seat through [`TableNews`]; the game screen's decisions
//! ([`LanRequest::Send`], [`LanRequest::Leave`]) reach the table's seat when a table is
//! running, so that the board plays a table as it plays a two-player LAN game.

use bevy::prelude::*;
use junqi_net::peer::PeerCmd;
use junqi_net::table::TableCmd;
use junqi_net::table_handle::{TableHandle, TableReport, TableRole};

use super::LanRequest;
use crate::{redraw::Waker, storage::DataDir};

/// The handle on the running table (it exists while its thread runs).
#[derive(Resource, Debug)]
pub struct TableLink(TableHandle);

/// What a screen asks of a four-seat table.
#[derive(Message, Clone, Debug)]
pub enum TableRequest {
    /// Open or join a table (replacing a running one), or resume the one a crash left.
    Start(TableRole),
    /// A decision of the player's.
    Send(TableCmd),
}

/// One report of the table's thread, in order.
#[derive(Message, Clone, Debug)]
pub struct TableNews(pub TableReport);

/// The folder of four-seat tables' journals and kept game files, apart from two-player
/// games' (each kind resumes on its own).
pub fn table_dir(dir: &DataDir) -> std::path::PathBuf {
    dir.lan().join("table")
}

pub(crate) fn plugin(app: &mut App) {
    app.add_message::<TableRequest>()
        .add_message::<TableNews>()
        .add_systems(PreUpdate, forward)
        .add_systems(PostUpdate, requests);
}

fn forward(
    mut commands: Commands,
    link: Option<Res<TableLink>>,
    mut out: MessageWriter<TableNews>,
) {
    let Some(link) = link else { return };
    while let Some(r) = link.0.try_recv() {
        let stopped = matches!(r, TableReport::Stopped);
        out.write(TableNews(r));
        if stopped {
            commands.remove_resource::<TableLink>();
            break;
        }
    }
}

/// The game screen's decisions, as a table's seat takes them.
fn table_cmd(cmd: PeerCmd) -> Option<TableCmd> {
    Some(match cmd {
        PeerCmd::Play(m) => TableCmd::Play(m),
        PeerCmd::OfferDraw => TableCmd::OfferDraw,
        PeerCmd::AcceptDraw => TableCmd::AnswerDraw(true),
        PeerCmd::DeclineDraw => TableCmd::AnswerDraw(false),
        PeerCmd::Resign => TableCmd::Resign,
        PeerCmd::Quit => TableCmd::Leave,
        PeerCmd::Accept(_) | PeerCmd::Ready(_) | PeerCmd::Disconnect => return None,
    })
}

fn requests(
    mut commands: Commands,
    mut reader: MessageReader<TableRequest>,
    mut lan: MessageReader<LanRequest>,
    link: Option<Res<TableLink>>,
    dir: Res<DataDir>,
    waker: Res<Waker>,
) {
    let mut fresh: Option<TableLink> = None;
    let mut leave = false;
    for r in reader.read() {
        match r {
            TableRequest::Start(role) => {
                let waker = waker.clone();
                fresh = Some(TableLink(TableHandle::start(
                    role.clone(),
                    Some(table_dir(&dir)),
                    move || waker.wake(),
                )));
                leave = false;
            }
            TableRequest::Send(cmd) => match fresh.as_ref().or(link.as_deref()) {
                Some(l) => l.0.send(*cmd),
                None => debug!("no table for {cmd:?}"),
            },
        }
    }
    for r in lan.read() {
        match r {
            LanRequest::Send(cmd) => {
                if let (Some(l), Some(c)) = (fresh.as_ref().or(link.as_deref()), table_cmd(*cmd)) {
                    l.0.send(c);
                }
            }
            LanRequest::Leave => {
                fresh = None;
                leave = true;
            }
            LanRequest::Start(_) | LanRequest::Browse(_) => {}
        }
    }
    // Dropping the handle leaves the table (its seat goes silent, or signs its leave).
    if let Some(l) = fresh {
        commands.insert_resource(l);
    } else if leave {
        commands.remove_resource::<TableLink>();
    }
}
