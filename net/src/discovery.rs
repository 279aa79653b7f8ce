//! LAN discovery with mDNS-SD: hosts advertise `_junqi._udp.local.` with TXT
//! records (display name, protocol version, rules summary); a browser streams
//! hosts appearing and disappearing.

use std::net::{IpAddr, SocketAddr};

use mdns_sd::{ServiceDaemon, ServiceEvent, ServiceInfo};

use crate::envelope::PROTOCOL_VERSION;

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
}

impl Advert {
    /// Advertises a host listening on `port`.
    ///
    /// # Errors
    /// mDNS daemon errors.
    pub fn start(name: &str, port: u16, rules_summary: &str) -> Result<Advert, Error> {
        let daemon = ServiceDaemon::new()?;
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
        let props = [
            ("name", name),
            ("v", version.as_str()),
            ("rules", rules_summary),
        ];
        let info =
            ServiceInfo::new(SERVICE, &instance, &host, "", port, &props[..])?.enable_addr_auto();
        let fullname = info.get_fullname().to_string();
        daemon.register(info)?;
        Ok(Advert { daemon, fullname })
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

/// Browses for hosts; returns the daemon (keep it alive) and a stream of
/// discoveries.
///
/// # Errors
/// mDNS daemon errors.
pub fn browse() -> Result<(ServiceDaemon, std::sync::mpsc::Receiver<Discovery>), Error> {
    let daemon = ServiceDaemon::new()?;
    let rx = daemon.browse(SERVICE)?;
    let (tx, out) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        while let Ok(ev) = rx.recv() {
            let d = match ev {
                ServiceEvent::ServiceResolved(info) => {
                    let mut addrs: Vec<SocketAddr> = info
                        .get_addresses()
                        .iter()
                        .map(|a| SocketAddr::new(a.to_ip_addr(), info.get_port()))
                        .collect();
                    addrs.sort_by_key(|a| (!matches!(a.ip(), IpAddr::V4(_)), a.ip().is_loopback()));
                    Discovery::Found(HostInfo {
                        fullname: info.get_fullname().to_string(),
                        name: info.get_property_val_str("name").unwrap_or("").to_string(),
                        version: info
                            .get_property_val_str("v")
                            .and_then(|v| v.parse().ok())
                            .unwrap_or(0),
                        rules: info.get_property_val_str("rules").unwrap_or("").to_string(),
                        addrs,
                    })
                }
                ServiceEvent::ServiceRemoved(_, fullname) => Discovery::Lost(fullname),
                _ => continue,
            };
            if tx.send(d).is_err() {
                break;
            }
        }
    });
    Ok((daemon, out))
}

/// A short rules summary for the TXT record.
#[must_use]
pub fn rules_summary(rules: &junqi_game::Rules) -> String {
    let mode = match rules.mode {
        junqi_game::Mode::Dark => "dark",
        junqi_game::Mode::Open => "open",
        junqi_game::Mode::Flip => "flip",
    };
    let aids = if rules.inference_board {
        ""
    } else {
        " no-inference"
    };
    format!("{mode} {}s{aids}", rules.move_seconds)
}
