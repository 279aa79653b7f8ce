//! Fair-play protocol for LAN games.
