//! The host's notice of every seat's link, for the guests' seat tables.
//!
//! Only the host sees every device's connection (it is the star's centre);
//! a guest sees only its own link to the host. So the host tells each
//! guest, whenever a seat's link goes down or comes back, every seat's link
//! as it sees it ([`SeatLinks`]), on a unidirectional QUIC stream of its own
//! beside the game stream. The notice is advisory: unsigned, outside the
//! signed log, never given to the session, so it can never blame anyone nor
//! change a game; a lying host can only show a wrong ○ in a guest's seat
//! table (it can already drop or delay that seat's messages). Being outside
//! the game stream, it changes nothing a journal or a game file holds, and a
//! device that does not read it (an older build) never opens the stream.

use quinn::Connection;
use serde::{Deserialize, Serialize};
use tokio::sync::watch;

use crate::frame::{FrameDecoder, MAX_FRAME, encode_frame};

/// Every seat's link as the host sees it, in seat order (`None`: no device
/// for that seat yet).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatLinks(pub [Option<bool>; 4]);

/// The host's side: opens the notice stream to the guest on `conn` and
/// writes the links each time they change, from the current ones, until the
/// connection closes or the table ends (the sender dropped).
pub(crate) async fn send_links(conn: Connection, mut links: watch::Receiver<SeatLinks>) {
    let Ok(mut stream) = conn.open_uni().await else {
        return;
    };
    loop {
        let now = *links.borrow_and_update();
        let Ok(frame) = encode_frame(&now) else {
            return;
        };
        if stream.write_all(&frame).await.is_err() {
            return;
        }
        if links.changed().await.is_err() {
            let _ = stream.finish();
            return;
        }
    }
}

/// A guest's side: reads the notices on the first unidirectional stream the
/// host opens on `conn`, giving each to `deliver` (which says whether to go
/// on), until the stream or the connection ends or a frame is not a notice.
pub(crate) async fn read_links(conn: Connection, mut deliver: impl FnMut(SeatLinks) -> bool) {
    let Ok(mut stream) = conn.accept_uni().await else {
        return;
    };
    let mut dec = FrameDecoder::new();
    let mut buf = vec![0u8; MAX_FRAME];
    loop {
        loop {
            match dec.next_frame::<SeatLinks>() {
                Ok(Some(links)) => {
                    if !deliver(links) {
                        return;
                    }
                }
                Ok(None) => break,
                Err(_) => return,
            }
        }
        match stream.read(&mut buf).await {
            Ok(Some(n)) => dec.push(&buf[..n]),
            _ => return,
        }
    }
}
