//! LAN discovery with mDNS-SD: hosts advertise `_junqi._udp.local.` with TXT
//! records (display name, protocol version, rules summary, and for a
//! four-seat table the seats still free and the computer seats that come
//! with one of them); a browser streams
//! hosts appearing and disappearing, and a [`Lobby`] keeps the list a player
//! sees, bounded by construction: at most [`MAX_HOSTS`] games, each dropped
//! [`HOST_TTL`] after it was last announced, every field cut to size, so a
//! flood of announcements costs bounded memory and time.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::time::{Duration, Instant};

use mdns_sd::{ServiceDaemon, ServiceEvent, ServiceInfo};

use crate::envelope::PROTOCOL_VERSION;
use junqi_proto::four::FourSeat;

/// The mDNS service type.
pub const SERVICE: &str = "_junqi._udp.local.";

/// Errors of discovery.
pub type Error = mdns_sd::Error;

/// A host found on the LAN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostInfo {
    /// The mDNS instance name (unique key).
    pub fullname: String,
    /// Display name.
    pub name: String,
    /// Protocol version it speaks.
    pub version: u16,
    /// Rules summary, e.g. `dark 60s`.
    pub rules: String,
    /// Addresses to try, IPv4 first.
    pub addrs: Vec<SocketAddr>,
    /// A four-seat table: the seats still free (`None`: a two-player game,
    /// or an announcement without a readable seat list).
    pub free_seats: Option<FreeSeats>,
}

/// The seats of a four-seat table still free, as its host advertises them
/// (TXT key `seats`: the free seats' letters in seat order, `S`, `E`, `N`,
/// `W`, e.g. `EW`; `-` when none is free), and the computer seats that come
/// with a free seat (TXT key `with`, absent when none: each computer seat's
/// letter and level in seat order, e.g. `E2`: East is a computer of level 2
/// that the device taking its partner seat, West, runs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FreeSeats {
    /// The free seats, one bit per seat.
    free: u8,
    /// By seat: the level of the computer seat that comes with its partner
    /// seat (0: none).
    with: [u8; 4],
}

impl FreeSeats {
    /// Every seat but `taken`.
    #[must_use]
    pub fn all_but(taken: &[FourSeat]) -> FreeSeats {
        FreeSeats {
            free: FourSeat::ALL
                .iter()
                .filter(|s| !taken.contains(s))
                .fold(0, |m, s| m | 1 << s.index()),
            with: [0; 4],
        }
    }

    /// These seats, where the device that takes `computer`'s partner seat
    /// also runs `computer` as a computer player of `level` (1…4); ignored
    /// unless `computer` is taken, its partner free and the level one of
    /// the four.
    #[must_use]
    pub fn with_computer(mut self, computer: FourSeat, level: u8) -> FreeSeats {
        if !self.contains(computer) && self.contains(computer.partner()) && (1..=4).contains(&level)
        {
            self.with[computer.index()] = level;
        }
        self
    }

    /// The computer seat (and its level) that comes with taking `seat`: the
    /// device that takes it runs that one too.
    #[must_use]
    pub fn computer_with(self, seat: FourSeat) -> Option<(FourSeat, u8)> {
        let c = seat.partner();
        let level = self.with[c.index()];
        (self.contains(seat) && level != 0).then_some((c, level))
    }

    /// Whether `seat` is free.
    #[must_use]
    pub fn contains(self, seat: FourSeat) -> bool {
        self.free & 1 << seat.index() != 0
    }

    /// The free seats in seat order.
    pub fn seats(self) -> impl Iterator<Item = FourSeat> {
        FourSeat::ALL.into_iter().filter(move |&s| self.contains(s))
    }

    /// The TXT value.
    #[must_use]
    pub fn to_txt(self) -> String {
        let v: String = self.seats().map(seat_letter).collect();
        if v.is_empty() { "-".to_string() } else { v }
    }

    /// Reads a TXT value: one to four distinct seat letters in seat order,
    /// or `-`; anything else (longer, unknown letters, repeats, out of
    /// order) is not a seat list.
    #[must_use]
    pub fn parse(txt: &str) -> Option<FreeSeats> {
        if txt == "-" {
            return Some(FreeSeats::default());
        }
        if txt.is_empty() || txt.len() > 4 {
            return None;
        }
        let mut mask = 0u8;
        let mut last = None;
        for c in txt.chars() {
            let seat = FourSeat::ALL.into_iter().find(|&s| seat_letter(s) == c)?;
            if last.is_some_and(|l: FourSeat| l.index() >= seat.index()) {
                return None;
            }
            last = Some(seat);
            mask |= 1 << seat.index();
        }
        Some(FreeSeats {
            free: mask,
            with: [0; 4],
        })
    }

    /// The `with` TXT value (`None`: no computer seat comes with a free seat).
    #[must_use]
    pub fn computers_txt(self) -> Option<String> {
        let v: String = FourSeat::ALL
            .into_iter()
            .filter(|s| self.with[s.index()] != 0)
            .map(|s| format!("{}{}", seat_letter(s), self.with[s.index()]))
            .collect();
        (!v.is_empty()).then_some(v)
    }

    /// These seats with a `with` TXT value read: pairs of a seat letter and
    /// a level 1…4, in seat order, each a taken seat whose partner is free;
    /// anything else is not a seat list (the table shows as full: a device
    /// that took the seat without its computer would leave the table short).
    #[must_use]
    pub fn parse_computers(self, txt: &str) -> Option<FreeSeats> {
        let chars: Vec<char> = txt.chars().collect();
        if chars.is_empty() || chars.len() > 8 || !chars.len().is_multiple_of(2) {
            return None;
        }
        let mut out = self;
        let mut last: Option<FourSeat> = None;
        for pair in chars.chunks(2) {
            let seat = FourSeat::ALL
                .into_iter()
                .find(|&s| seat_letter(s) == pair[0])?;
            let level = pair[1].to_digit(10).and_then(|l| u8::try_from(l).ok())?;
            if last.is_some_and(|l| l.index() >= seat.index()) {
                return None;
            }
            last = Some(seat);
            out = out.with_computer(seat, level);
            if level == 0 || out.with[seat.index()] != level {
                return None;
            }
        }
        Some(out)
    }
}

fn seat_letter(s: FourSeat) -> char {
    match s {
        FourSeat::South => 'S',
        FourSeat::East => 'E',
        FourSeat::North => 'N',
        FourSeat::West => 'W',
    }
}

/// A table's free seats from its TXT values `seats` and `with` (an
/// announcement without `with`, as older hosts send, has no computer seat
/// that comes with a free one).
#[must_use]
pub fn read_seats(seats: Option<&str>, with: Option<&str>) -> Option<FreeSeats> {
    let free = FreeSeats::parse(seats?)?;
    match with {
        None => Some(free),
        Some(w) => free.parse_computers(w),
    }
}

/// What the browser reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Discovery {
    /// A host appeared (or changed).
    Found(HostInfo),
    /// A host went away.
    Lost(String),
}

/// A running advertisement; dropped or [`Advert::stop`]ped to withdraw it.
pub struct Advert {
    daemon: ServiceDaemon,
    fullname: String,
    /// What it announces, to announce again with other free seats.
    name: String,
    port: u16,
    rules: String,
}

impl Advert {
    /// Advertises a host listening on `port`.
    ///
    /// # Errors
    /// mDNS daemon errors.
    pub fn start(name: &str, port: u16, rules_summary: &str) -> Result<Advert, Error> {
        let daemon = ServiceDaemon::new()?;
        let fullname = register(&daemon, name, port, rules_summary, None)?;
        Ok(Advert {
            daemon,
            fullname,
            name: name.to_string(),
            port,
            rules: rules_summary.to_string(),
        })
    }

    /// Advertises a four-seat table listening on `port` with `free` seats.
    ///
    /// # Errors
    /// mDNS daemon errors.
    pub fn start_table(
        name: &str,
        port: u16,
        rules_summary: &str,
        free: FreeSeats,
    ) -> Result<Advert, Error> {
        let mut a = Advert::start(name, port, rules_summary)?;
        a.set_free_seats(free)?;
        Ok(a)
    }

    /// Announces the table again with other free seats (a seat taken).
    ///
    /// # Errors
    /// mDNS daemon errors.
    pub fn set_free_seats(&mut self, free: FreeSeats) -> Result<(), Error> {
        self.fullname = register(&self.daemon, &self.name, self.port, &self.rules, Some(free))?;
        Ok(())
    }

    /// The advertised instance name.
    #[must_use]
    pub fn fullname(&self) -> &str {
        &self.fullname
    }

    /// Withdraws the advertisement.
    pub fn stop(self) {
        let _ = self.daemon.unregister(&self.fullname);
        let _ = self.daemon.shutdown();
    }
}

/// Registers (or registers again, with new TXT values) the service.
fn register(
    daemon: &ServiceDaemon,
    name: &str,
    port: u16,
    rules_summary: &str,
    free: Option<FreeSeats>,
) -> Result<String, Error> {
    {
        let instance: String = name
            .chars()
            .filter(|c| c.is_alphanumeric() || *c == '-')
            .take(40)
            .collect();
        let instance = if instance.is_empty() {
            "junqi".to_string()
        } else {
            instance
        };
        let host = format!("{instance}.local.");
        let version = PROTOCOL_VERSION.to_string();
        let seats = free.map(FreeSeats::to_txt);
        let with = free.and_then(FreeSeats::computers_txt);
        let mut props = vec![
            ("name", name),
            ("v", version.as_str()),
            ("rules", rules_summary),
        ];
        if let Some(s) = &seats {
            props.push(("seats", s.as_str()));
        }
        if let Some(w) = &with {
            props.push(("with", w.as_str()));
        }
        let info =
            ServiceInfo::new(SERVICE, &instance, &host, "", port, &props[..])?.enable_addr_auto();
        let fullname = info.get_fullname().to_string();
        daemon.register(info)?;
        Ok(fullname)
    }
}

/// The most advertised games a [`Lobby`] keeps; a newer announcement
/// replaces the one heard longest ago.
pub const MAX_HOSTS: usize = 64;

/// How long an advertised game stays listed after its last announcement
/// (mDNS hosts re-announce well within it; the records' own lifetime is
/// 120 s).
pub const HOST_TTL: Duration = Duration::from_secs(150);

/// Longest display name, rules summary and address list kept of an announcement.
const MAX_FIELD: usize = 64;
const MAX_ADDRS: usize = 8;

/// How many discoveries wait between the mDNS thread and the reader; beyond
/// that, announcements are dropped (the hosts announce again).
pub const DISCOVERY_QUEUE: usize = 256;

/// The advertised games a player chooses from: capped by count and age.
#[derive(Debug, Default)]
pub struct Lobby {
    /// Each game with when it was last announced and its place in the order first heard.
    hosts: HashMap<String, (HostInfo, Instant, u64)>,
    /// The next game's place.
    next: u64,
}

impl Lobby {
    /// An empty lobby.
    #[must_use]
    pub fn new() -> Lobby {
        Lobby::default()
    }

    /// Takes one discovery heard at `now`. Returns whether the list changed.
    pub fn apply(&mut self, d: Discovery, now: Instant) -> bool {
        self.expire(now);
        match d {
            Discovery::Lost(name) => self.hosts.remove(&name).is_some(),
            Discovery::Found(mut h) => {
                h.fullname = cut(&h.fullname, MAX_FIELD * 4);
                h.name = cut(&h.name, MAX_FIELD);
                h.rules = cut(&h.rules, MAX_FIELD);
                h.addrs.truncate(MAX_ADDRS);
                if !self.hosts.contains_key(&h.fullname)
                    && self.hosts.len() >= MAX_HOSTS
                    && let Some(oldest) = self
                        .hosts
                        .iter()
                        .min_by_key(|(_, (_, seen, _))| *seen)
                        .map(|(k, _)| k.clone())
                {
                    self.hosts.remove(&oldest);
                }
                // A game announced again keeps its place, so that the list a player points at
                // does not reorder.
                let place = match self.hosts.get(&h.fullname) {
                    Some((_, _, place)) => *place,
                    None => {
                        self.next += 1;
                        self.next
                    }
                };
                self.hosts.insert(h.fullname.clone(), (h, now, place));
                true
            }
        }
    }

    /// Drops the games not announced for [`HOST_TTL`]. Returns whether any went.
    pub fn expire(&mut self, now: Instant) -> bool {
        let before = self.hosts.len();
        self.hosts
            .retain(|_, (_, seen, _)| now.saturating_duration_since(*seen) < HOST_TTL);
        self.hosts.len() != before
    }

    /// The games listed, in the order they were first heard (an announcement again does not
    /// move a game).
    #[must_use]
    pub fn hosts(&self) -> Vec<&HostInfo> {
        let mut v: Vec<&(HostInfo, Instant, u64)> = self.hosts.values().collect();
        v.sort_by_key(|e| e.2);
        v.into_iter().map(|(h, _, _)| h).collect()
    }

    /// How many games are listed.
    #[must_use]
    pub fn len(&self) -> usize {
        self.hosts.len()
    }

    /// Whether no game is listed.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.hosts.is_empty()
    }
}

/// `s` cut to at most `max` bytes on a character boundary.
fn cut(s: &str, max: usize) -> String {
    let mut end = s.len().min(max);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s[..end].to_string()
}

/// Forwards discoveries to a bounded queue, dropping what does not fit: the
/// mDNS thread never blocks on a slow reader, and a flood never grows memory.
/// Returns how many were dropped, once the source or the reader is gone.
pub fn forward(
    source: impl IntoIterator<Item = Discovery>,
    to: &std::sync::mpsc::SyncSender<Discovery>,
) -> u64 {
    let mut dropped = 0;
    for d in source {
        match to.try_send(d) {
            Ok(()) => {}
            Err(std::sync::mpsc::TrySendError::Full(_)) => dropped += 1,
            Err(std::sync::mpsc::TrySendError::Disconnected(_)) => break,
        }
    }
    dropped
}

/// Browses for hosts; returns the daemon (keep it alive) and a bounded
/// stream of discoveries (at most [`DISCOVERY_QUEUE`] waiting; feed them to
/// a [`Lobby`]).
///
/// # Errors
/// mDNS daemon errors.
pub fn browse() -> Result<(ServiceDaemon, std::sync::mpsc::Receiver<Discovery>), Error> {
    let daemon = ServiceDaemon::new()?;
    let rx = daemon.browse(SERVICE)?;
    let (tx, out) = std::sync::mpsc::sync_channel(DISCOVERY_QUEUE);
    std::thread::spawn(move || {
        let events = std::iter::from_fn(|| rx.recv().ok()).filter_map(|ev| match ev {
            ServiceEvent::ServiceResolved(info) => {
                let mut addrs: Vec<SocketAddr> = info
                    .get_addresses()
                    .iter()
                    .take(MAX_ADDRS * 4)
                    .map(|a| SocketAddr::new(a.to_ip_addr(), info.get_port()))
                    .collect();
                addrs.sort_by_key(|a| (!matches!(a.ip(), IpAddr::V4(_)), a.ip().is_loopback()));
                addrs.truncate(MAX_ADDRS);
                Some(Discovery::Found(HostInfo {
                    fullname: cut(info.get_fullname(), MAX_FIELD * 4),
                    name: cut(info.get_property_val_str("name").unwrap_or(""), MAX_FIELD),
                    version: info
                        .get_property_val_str("v")
                        .and_then(|v| v.parse().ok())
                        .unwrap_or(0),
                    rules: cut(info.get_property_val_str("rules").unwrap_or(""), MAX_FIELD),
                    addrs,
                    free_seats: read_seats(
                        info.get_property_val_str("seats"),
                        info.get_property_val_str("with"),
                    ),
                }))
            }
            ServiceEvent::ServiceRemoved(_, fullname) => Some(Discovery::Lost(fullname)),
            _ => None,
        });
        forward(events, &tx);
    });
    Ok((daemon, out))
}

/// A short rules summary for the TXT record (`dark 60s`, `dark 60s big` for two players on the
/// four-player board, `open 30s no-inference`): the way to play and the clock first, so that a
/// browser that knows no later word still reads them.
#[must_use]
pub fn rules_summary(rules: &junqi_game::Rules) -> String {
    let mode = match rules.mode {
        junqi_game::Mode::Dark => "dark",
        junqi_game::Mode::Open => "open",
        junqi_game::Mode::Flip => "flip",
    };
    let board = if rules.four_player_board { " big" } else { "" };
    let aids = if rules.inference_board {
        ""
    } else {
        " no-inference"
    };
    format!("{mode} {}s{board}{aids}", rules.move_seconds)
}

/// What a four-seat table advertises as its rules (`four dark 30s`, `four
/// partners 30s` for 双明, `four open 30s`): two-player browsers skip it.
#[must_use]
pub fn table_summary(rules: &junqi_game::Rules) -> String {
    let mode = match (rules.mode, rules.partners_open) {
        (junqi_game::Mode::Dark, true) => "partners",
        (junqi_game::Mode::Dark, false) => "dark",
        (junqi_game::Mode::Open, _) => "open",
        (junqi_game::Mode::Flip, _) => "flip",
    };
    format!("four {mode} {}s", rules.move_seconds)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(i: usize) -> Discovery {
        Discovery::Found(HostInfo {
            fullname: format!("host{i}._junqi._udp.local."),
            name: "x".repeat(10_000),
            version: 4,
            rules: "dark 60s".into(),
            addrs: (0..100)
                .map(|p| SocketAddr::from(([10, 0, 0, 1], p)))
                .collect(),
            free_seats: None,
        })
    }

    #[test]
    fn a_flood_of_announcements_keeps_the_lobby_small_and_fast() {
        let t0 = Instant::now();
        let mut lobby = Lobby::new();
        let started = Instant::now();
        for i in 0..20_000 {
            lobby.apply(found(i), t0 + Duration::from_millis(i as u64));
            assert!(lobby.len() <= MAX_HOSTS);
        }
        // Bounded work per announcement: a flood is absorbed in well under a
        // second even unoptimised.
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "{:?}",
            started.elapsed()
        );
        assert_eq!(lobby.len(), MAX_HOSTS);
        // The newest are kept, in the order first heard, each cut to size.
        let hosts = lobby.hosts();
        assert_eq!(hosts[0].fullname, found_name(20_000 - MAX_HOSTS));
        assert_eq!(
            hosts[MAX_HOSTS - 1].fullname,
            "host19999._junqi._udp.local."
        );
        assert!(
            hosts
                .iter()
                .all(|h| h.name.len() <= 64 && h.addrs.len() <= 8)
        );
        // A real host announcing again stays; the flood expires.
        let later = t0 + Duration::from_millis(20_000) + HOST_TTL;
        lobby.apply(found(7), later);
        lobby.expire(later + Duration::from_secs(1));
        assert_eq!(lobby.len(), 1);
        assert!(lobby.apply(Discovery::Lost(found_name(7)), later));
        assert!(lobby.is_empty());
    }

    fn found_name(i: usize) -> String {
        format!("host{i}._junqi._udp.local.")
    }

    #[test]
    fn the_discovery_queue_is_bounded_and_never_blocks_the_browser() {
        let (tx, rx) = std::sync::mpsc::sync_channel(DISCOVERY_QUEUE);
        // Nobody reads while 100,000 announcements arrive.
        let dropped = forward((0..100_000).map(found), &tx);
        assert_eq!(dropped, 100_000 - DISCOVERY_QUEUE as u64);
        assert_eq!(rx.try_iter().count(), DISCOVERY_QUEUE);
    }

    #[test]
    fn a_summary_says_the_big_board_after_the_way_to_play_and_the_clock() {
        let classic = junqi_game::Rules::default();
        let big = junqi_game::Rules {
            four_player_board: true,
            inference_board: false,
            ..classic
        };
        assert_eq!(rules_summary(&classic), "dark 60s");
        assert_eq!(rules_summary(&big), "dark 60s big no-inference");
        // A four-seat table's summary stays apart (two-player browsers skip it).
        assert!(table_summary(&big).starts_with("four "));
    }

    #[test]
    fn a_seat_list_reads_back_and_anything_else_is_no_seat_list() {
        for mask in 0u8..16 {
            let taken: Vec<FourSeat> = FourSeat::ALL
                .into_iter()
                .filter(|s| mask & 1 << s.index() == 0)
                .collect();
            let free = FreeSeats::all_but(&taken);
            for s in FourSeat::ALL {
                assert_eq!(free.contains(s), !taken.contains(&s));
            }
            assert_eq!(FreeSeats::parse(&free.to_txt()), Some(free), "{mask}");
        }
        assert_eq!(FreeSeats::all_but(&[FourSeat::South]).to_txt(), "ENW");
        // A table whose East is a computer that comes with West.
        let free = FreeSeats::all_but(&[FourSeat::South, FourSeat::East]);
        let with = free.with_computer(FourSeat::East, 2);
        assert_eq!(with.computers_txt().as_deref(), Some("E2"));
        assert_eq!(read_seats(Some("NW"), Some("E2")), Some(with));
        assert_eq!(
            with.computer_with(FourSeat::West),
            Some((FourSeat::East, 2))
        );
        assert_eq!(with.computer_with(FourSeat::North), None);
        // An older host's announcement, without `with`, still reads.
        assert_eq!(read_seats(Some("NW"), None), Some(free));
        assert_eq!(free.computers_txt(), None);
        // A computer seat only with a free partner, of a level 1…4.
        assert_eq!(free.with_computer(FourSeat::West, 2), free);
        assert_eq!(free.with_computer(FourSeat::East, 0), free);
        assert_eq!(free.with_computer(FourSeat::East, 5), free);
        // Once West is taken, East no longer comes with a free seat.
        let taken = FreeSeats::all_but(&[FourSeat::South, FourSeat::East, FourSeat::West])
            .with_computer(FourSeat::East, 2);
        assert_eq!(taken.computers_txt(), None);
        for bad in [
            "", "E", "E0", "E5", "EX", "W2", "N2", "E2E2", "E22", "X2", "东2",
        ] {
            assert_eq!(read_seats(Some("NW"), Some(bad)), None, "{bad:?}");
        }
        for bad in [
            "",
            "SS",
            "ES",
            "SENWS",
            "X",
            "s",
            "S E",
            "-S",
            "--",
            "南",
            "SEN\0",
            &"S".repeat(300),
        ] {
            assert_eq!(FreeSeats::parse(bad), None, "{bad:?}");
        }
    }
}
