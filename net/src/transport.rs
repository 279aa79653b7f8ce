//! QUIC transport: a thin async shell over the [`Session`] state machine.
//!
//! Each installation has a self-signed certificate (rcgen) and an ed25519
//! signing key. Both sides present their certificates (mutual TLS) and accept
//! any certificate: trust comes from the **pairing code**, derived from both
//! certificates and the game id and shown on both screens. A machine in the
//! middle terminates two TLS sessions with different certificates, so the two
//! screens show different codes. A game uses one bidirectional stream carrying
//! length-delimited bincode frames ([`crate::frame`]).

use std::io;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use ed25519_dalek::SigningKey;
use quinn::crypto::rustls::{QuicClientConfig, QuicServerConfig};
use quinn::{Connection, Endpoint, RecvStream, SendStream};
use rustls::DistinguishedName;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer, ServerName, UnixTime};
use rustls::server::danger::{ClientCertVerified, ClientCertVerifier};
use rustls::{DigitallySignedStruct, SignatureScheme};

use crate::crypto::{Digest, ctx, h};
use crate::session::{AppEvent, Session};

/// ALPN of the protocol.
pub const ALPN: &[u8] = b"junqi/1";

/// One installation's identity: TLS certificate and key, and the ed25519 key
/// that signs protocol messages.
#[derive(Debug)]
pub struct Identity {
    /// The self-signed certificate (DER).
    pub cert: CertificateDer<'static>,
    key: PrivatePkcs8KeyDer<'static>,
    /// The protocol signing key.
    pub signing: SigningKey,
}

impl Identity {
    /// A fresh identity.
    ///
    /// # Errors
    /// If key generation fails.
    pub fn generate() -> io::Result<Identity> {
        let ck = rcgen::generate_simple_self_signed(vec!["junqi.local".to_string()])
            .map_err(io::Error::other)?;
        let mut sk = [0u8; 32];
        getrandom::fill(&mut sk).map_err(|e| io::Error::other(e.to_string()))?;
        Ok(Identity {
            cert: ck.cert.der().clone(),
            key: PrivatePkcs8KeyDer::from(ck.signing_key.serialize_der()),
            signing: SigningKey::from_bytes(&sk),
        })
    }

    /// Loads the identity kept in `dir`, creating and saving one on first use.
    ///
    /// # Errors
    /// File-system errors.
    pub fn load_or_create(dir: &Path) -> io::Result<Identity> {
        let (c, k, s) = (
            dir.join("cert.der"),
            dir.join("key.der"),
            dir.join("sign.key"),
        );
        if let (Ok(cert), Ok(key), Ok(sign)) =
            (std::fs::read(&c), std::fs::read(&k), std::fs::read(&s))
            && let Ok(sign) = <[u8; 32]>::try_from(sign.as_slice())
        {
            return Ok(Identity {
                cert: CertificateDer::from(cert),
                key: PrivatePkcs8KeyDer::from(key),
                signing: SigningKey::from_bytes(&sign),
            });
        }
        let id = Identity::generate()?;
        std::fs::create_dir_all(dir)?;
        crate::resume::write_atomic(&c, id.cert.as_ref())?;
        crate::resume::write_atomic(&k, id.key.secret_pkcs8_der())?;
        crate::resume::write_atomic(&s, &id.signing.to_bytes())?;
        Ok(id)
    }

    fn key(&self) -> PrivateKeyDer<'static> {
        PrivateKeyDer::Pkcs8(self.key.clone_key())
    }
}

/// The short code both screens show: from both certificates and the game id.
#[must_use]
pub fn pairing_code(host_cert: &[u8], guest_cert: &[u8], game_id: &Digest) -> String {
    let d = h(ctx::PAIRING, &[host_cert, guest_cert, game_id]);
    let n = u32::from_le_bytes([d[0], d[1], d[2], d[3]]) % 1_000_000;
    format!("{:03}-{:03}", n / 1000, n % 1000)
}

#[derive(Debug)]
struct AcceptAny(Arc<rustls::crypto::CryptoProvider>);

impl ServerCertVerifier for AcceptAny {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }
    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }
    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }
    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}

impl ClientCertVerifier for AcceptAny {
    fn root_hint_subjects(&self) -> &[DistinguishedName] {
        &[]
    }
    fn verify_client_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _now: UnixTime,
    ) -> Result<ClientCertVerified, rustls::Error> {
        Ok(ClientCertVerified::assertion())
    }
    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }
    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }
    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}

fn provider() -> Arc<rustls::crypto::CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// A QUIC endpoint that accepts games on `addr` and can also join games.
///
/// # Errors
/// TLS configuration or socket errors.
pub fn endpoint(identity: &Identity, addr: SocketAddr) -> io::Result<Endpoint> {
    let p = provider();
    let verifier = Arc::new(AcceptAny(p.clone()));
    let mut server = rustls::ServerConfig::builder_with_provider(p.clone())
        .with_protocol_versions(&[&rustls::version::TLS13])
        .map_err(io::Error::other)?
        .with_client_cert_verifier(verifier.clone())
        .with_single_cert(vec![identity.cert.clone()], identity.key())
        .map_err(io::Error::other)?;
    server.alpn_protocols = vec![ALPN.to_vec()];
    let mut client = rustls::ClientConfig::builder_with_provider(p)
        .with_protocol_versions(&[&rustls::version::TLS13])
        .map_err(io::Error::other)?
        .dangerous()
        .with_custom_certificate_verifier(verifier)
        .with_client_auth_cert(vec![identity.cert.clone()], identity.key())
        .map_err(io::Error::other)?;
    client.alpn_protocols = vec![ALPN.to_vec()];
    let server = QuicServerConfig::try_from(server).map_err(io::Error::other)?;
    let client = QuicClientConfig::try_from(client).map_err(io::Error::other)?;
    let mut transport = quinn::TransportConfig::default();
    transport.keep_alive_interval(Some(std::time::Duration::from_secs(1)));
    transport.max_idle_timeout(Some(
        std::time::Duration::from_secs(4).try_into().expect("small"),
    ));
    let transport = Arc::new(transport);
    let mut sc = quinn::ServerConfig::with_crypto(Arc::new(server));
    sc.transport_config(transport.clone());
    let mut cc = quinn::ClientConfig::new(Arc::new(client));
    cc.transport_config(transport);
    let mut ep = Endpoint::server(sc, addr)?;
    ep.set_default_client_config(cc);
    Ok(ep)
}

/// The certificate the peer presented.
#[must_use]
pub fn peer_cert(conn: &Connection) -> Option<Vec<u8>> {
    let any = conn.peer_identity()?;
    let certs = any.downcast::<Vec<CertificateDer<'static>>>().ok()?;
    certs.first().map(|c| c.as_ref().to_vec())
}

/// Host: waits for one guest and opens the game stream (the host speaks first).
///
/// # Errors
/// Connection errors.
pub async fn accept_game(ep: &Endpoint) -> io::Result<(Connection, SendStream, RecvStream)> {
    let incoming = ep
        .accept()
        .await
        .ok_or_else(|| io::Error::other("endpoint closed"))?;
    let conn = incoming.await.map_err(io::Error::other)?;
    let (send, recv) = conn.open_bi().await.map_err(io::Error::other)?;
    Ok((conn, send, recv))
}

/// Guest: connects to a host and accepts the game stream.
///
/// # Errors
/// Connection errors.
pub async fn join_game(
    ep: &Endpoint,
    addr: SocketAddr,
) -> io::Result<(Connection, SendStream, RecvStream)> {
    let conn = ep
        .connect(addr, "junqi.local")
        .map_err(io::Error::other)?
        .await
        .map_err(io::Error::other)?;
    let (send, recv) = conn.accept_bi().await.map_err(io::Error::other)?;
    Ok((conn, send, recv))
}

/// Exchanges [`crate::resume::StreamStart`] frames on a new stream, so that
/// each side resends what the other missed, and hands leftover bytes to the
/// session.
///
/// # Errors
/// Stream errors or a malformed first frame.
pub async fn start_stream(
    session: &mut Session,
    send: &mut SendStream,
    recv: &mut RecvStream,
) -> io::Result<()> {
    send.write_all(&session.stream_start())
        .await
        .map_err(io::Error::other)?;
    let mut dec = crate::frame::FrameDecoder::new();
    let mut buf = vec![0u8; 4096];
    let start = loop {
        if let Some(s) = dec
            .next_frame::<crate::resume::StreamStart>()
            .map_err(io::Error::other)?
        {
            break s;
        }
        match recv.read(&mut buf).await.map_err(io::Error::other)? {
            Some(n) => dec.push(&buf[..n]),
            None => return Err(io::Error::other("stream closed before it started")),
        }
    };
    let now = Instant::now();
    session.handle_stream_start(now, start);
    let rest = dec.take_buffered();
    if !rest.is_empty() {
        session.handle_bytes(now, &rest);
    }
    Ok(())
}

/// Runs `session` over a stream until it is done, handing every app event to
/// `on_event` (which may call the session back, e.g. to play a move). With
/// `save`, the session is written to that file (atomically) before anything
/// is sent, so a crash never loses a message the peer has seen.
///
/// # Errors
/// Stream errors, or the peer closing the stream before the game is done
/// (the caller may reconnect and resume).
pub async fn drive(
    session: &mut Session,
    send: &mut SendStream,
    recv: &mut RecvStream,
    save: Option<&Path>,
    mut on_event: impl FnMut(&mut Session, AppEvent),
) -> io::Result<()> {
    let mut buf = vec![0u8; 16 * 1024];
    let mut saved_len = usize::MAX;
    loop {
        let mut busy = true;
        while busy {
            busy = false;
            while let Some(ev) = session.poll_event() {
                on_event(session, ev);
                busy = true;
            }
            if let Some(path) = save
                && session.log().len() != saved_len
            {
                session.saved().save(path)?;
                saved_len = session.log().len();
            }
            while let Some(bytes) = session.poll_transmit() {
                send.write_all(&bytes).await.map_err(io::Error::other)?;
                busy = true;
            }
        }
        if session.is_done() {
            let _ = send.finish();
            return Ok(());
        }
        let deadline = session.poll_timeout();
        let sleep = async {
            match deadline {
                Some(t) => tokio::time::sleep_until(tokio::time::Instant::from_std(t)).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            r = recv.read(&mut buf) => match r {
                Ok(Some(n)) => session.handle_bytes(Instant::now(), &buf[..n]),
                Ok(None) => return Err(io::Error::new(io::ErrorKind::ConnectionAborted, "the peer closed the stream")),
                Err(e) => return Err(io::Error::new(io::ErrorKind::ConnectionAborted, e)),
            },
            () = sleep => session.handle_timeout(Instant::now()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_machine_in_the_middle_shows_different_codes() {
        let (host, guest, mitm_a, mitm_b) = (
            Identity::generate().unwrap(),
            Identity::generate().unwrap(),
            Identity::generate().unwrap(),
            Identity::generate().unwrap(),
        );
        let gid = [7; 32];
        let direct_h = pairing_code(&host.cert, &guest.cert, &gid);
        let direct_g = pairing_code(&host.cert, &guest.cert, &gid);
        assert_eq!(direct_h, direct_g);
        assert_eq!(direct_h.len(), 7);
        // The host talks to the relay's client side, the guest to its server side.
        let seen_by_host = pairing_code(&host.cert, &mitm_a.cert, &gid);
        let seen_by_guest = pairing_code(&mitm_b.cert, &guest.cert, &gid);
        assert_ne!(seen_by_host, seen_by_guest);
    }
}
