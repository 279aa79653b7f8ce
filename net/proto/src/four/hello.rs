//! The start of a table: one game id and one pairing code from all four
//! hellos and nonces, and who moves first.

use junqi_game::Rules;

use super::seat::FourSeat;
use crate::crypto::{Digest, ctx, h};
use crate::envelope::PROTOCOL_VERSION;
use crate::frame::encode_payload;

/// `H("junqi v1 game4", version, rules, key_S, key_E, key_N, key_W, nonce_S,
/// …, nonce_W)`, and when any seat agreed to hand its seat over
/// ([`super::Body4::HelloHandOver`]) `"hand over"` and the seats' bits
/// (S = 1, E = 2, N = 4, W = 8) after them, so that the agreements are in
/// the code every player compares (a table without one keeps the id it had
/// before there were agreements). Each seat opened its nonce only once it
/// held all four nonce commitments, so nobody chose its nonce knowing
/// another: nobody steers the id, the first mover or the pairing code.
#[must_use]
pub fn game_id(
    rules: &Rules,
    keys: &[[u8; 32]; 4],
    nonces: &[[u8; 32]; 4],
    hand_over: [bool; 4],
) -> Digest {
    let settings = encode_payload(rules).expect("rules encode");
    let v = PROTOCOL_VERSION.to_le_bytes();
    let mut parts: Vec<&[u8]> = vec![&v, &settings];
    parts.extend(keys.iter().map(<[u8; 32]>::as_slice));
    parts.extend(nonces.iter().map(<[u8; 32]>::as_slice));
    let bits = [hand_over
        .iter()
        .enumerate()
        .fold(0u8, |b, (i, &on)| b | (u8::from(on) << i))];
    if bits[0] != 0 {
        parts.push(b"hand over");
        parts.push(&bits);
    }
    h(ctx::GAME4, &parts)
}

/// Who moves first: two bits of the game id.
#[must_use]
pub fn first_seat(game_id: &Digest) -> FourSeat {
    FourSeat::ALL[(game_id[0] & 3) as usize]
}

/// The one pairing code every player compares: the two-player derivation
/// ([`crate::session::pairing_code`]) of the four-seat game id. A relay that
/// shows some seats other keys gives them other ids, hence other codes.
#[must_use]
pub fn pairing_code(game_id: &Digest) -> String {
    crate::session::pairing_code(game_id)
}
