//! QUIC transport: a thin async shell over the [`Session`] state machine.
//!
//! Each installation has a self-signed certificate (rcgen) and an ed25519
//! signing key. Both sides present their certificates (mutual TLS) and accept
//! any certificate: TLS only encrypts the link. Trust comes from the
//! session's **pairing code** ([`Session::pairing`], from both signing keys
//! and both committed nonces), shown on both screens and confirmed by the
//! players before anything about the setup is sent; a relay in the middle
//! cannot make the two codes match. A game uses one bidirectional stream
//! carrying length-delimited bincode frames ([`crate::frame`]).
//!
//! [`play`] is the one driver of a game over QUIC, used by `junqi-peer` and
//! the app alike: it connects (and reconnects after a drop), runs the session
//! with [`drive`], saves every message to a [`Journal`] before sending
//! anything, and hands events and the owner's commands to a [`Handler`].

use std::io;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use ed25519_dalek::SigningKey;
use quinn::crypto::rustls::{QuicClientConfig, QuicServerConfig};
use quinn::{Connection, Endpoint, RecvStream, SendStream};
use rustls::DistinguishedName;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer, ServerName, UnixTime};
use rustls::server::danger::{ClientCertVerified, ClientCertVerifier};
use rustls::{DigitallySignedStruct, SignatureScheme};

use crate::resume::Journal;
use crate::session::{AppEvent, LATENCY_BOUND, Session};

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

/// How long the QUIC handshake of a connection may take (both ways): twice
/// a round trip at the latency bound, so a silent opener is dropped soon.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(LATENCY_BOUND.as_secs() * 4);

/// How long the other end has, once connected, to open the game stream and
/// send its stream start (a round trip at the latency bound).
pub const STREAM_START_TIMEOUT: Duration = Duration::from_secs(LATENCY_BOUND.as_secs() * 2);

/// How many incoming connections a host checks at once; more are refused
/// at once, so a flood of openers costs bounded memory.
pub const MAX_PENDING: usize = 8;

/// The value a stream start is signed over: a TLS exporter both ends of this
/// one connection derive, and no other connection shares.
///
/// # Errors
/// If the TLS session cannot export keying material.
pub fn connection_binding(conn: &Connection) -> io::Result<[u8; 32]> {
    let mut out = [0u8; 32];
    conn.export_keying_material(&mut out, b"junqi v1 stream start", b"")
        .map_err(|_| io::Error::other("no keying material"))?;
    Ok(out)
}

fn timed_out(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::TimedOut, format!("{what} timed out"))
}

/// Host: waits for one guest's connection and its game stream (the guest
/// opens it, and speaks first: the host sends nothing before it has checked
/// the guest's stream start). The handshake and the stream have deadlines.
///
/// # Errors
/// Connection errors and timeouts.
pub async fn accept_game(ep: &Endpoint) -> io::Result<(Connection, SendStream, RecvStream)> {
    let incoming = ep
        .accept()
        .await
        .ok_or_else(|| io::Error::other("endpoint closed"))?;
    accept_incoming(incoming).await
}

async fn accept_incoming(
    incoming: quinn::Incoming,
) -> io::Result<(Connection, SendStream, RecvStream)> {
    let conn = tokio::time::timeout(HANDSHAKE_TIMEOUT, incoming)
        .await
        .map_err(|_| timed_out("handshake"))?
        .map_err(io::Error::other)?;
    let (send, recv) = tokio::time::timeout(STREAM_START_TIMEOUT, conn.accept_bi())
        .await
        .map_err(|_| timed_out("stream"))?
        .map_err(io::Error::other)?;
    Ok((conn, send, recv))
}

/// Guest: connects to a host and opens the game stream. The handshake has a
/// deadline.
///
/// # Errors
/// Connection errors and timeouts.
pub async fn join_game(
    ep: &Endpoint,
    addr: SocketAddr,
) -> io::Result<(Connection, SendStream, RecvStream)> {
    let connecting = ep.connect(addr, "junqi.local").map_err(io::Error::other)?;
    let conn = tokio::time::timeout(HANDSHAKE_TIMEOUT, connecting)
        .await
        .map_err(|_| timed_out("handshake"))?
        .map_err(io::Error::other)?;
    let (send, recv) = conn.open_bi().await.map_err(io::Error::other)?;
    Ok((conn, send, recv))
}

/// Reads the other end's stream start, with its deadline; returns it and
/// the bytes that came after it (not taken as anything until the start is
/// accepted).
async fn read_start(recv: &mut RecvStream) -> io::Result<(crate::resume::StreamStart, Vec<u8>)> {
    let read = async {
        let mut dec = crate::frame::FrameDecoder::new();
        let mut buf = vec![0u8; 4096];
        loop {
            if let Some(s) = dec
                .next_frame::<crate::resume::StreamStart>()
                .map_err(io::Error::other)?
            {
                return Ok((s, dec.take_buffered()));
            }
            match recv.read(&mut buf).await.map_err(io::Error::other)? {
                Some(n) => dec.push(&buf[..n]),
                None => return Err(io::Error::other("stream closed before it started")),
            }
        }
    };
    tokio::time::timeout(STREAM_START_TIMEOUT, read)
        .await
        .map_err(|_| timed_out("stream start"))?
}

/// Why a stream start was refused (a stranger, not the paired peer).
fn refused(e: crate::resume::StreamRefused) -> io::Error {
    io::Error::new(io::ErrorKind::PermissionDenied, e)
}

/// Takes the other end's checked stream start into the session (resends
/// queued) and the bytes that followed it.
fn take_start(
    session: &mut Session,
    start: crate::resume::StreamStart,
    rest: &[u8],
    binding: &[u8; 32],
) -> io::Result<()> {
    let now = Instant::now();
    session
        .accept_stream_start(now, start, binding)
        .map_err(refused)?;
    if !rest.is_empty() {
        session.handle_bytes(now, rest);
    }
    Ok(())
}

/// Exchanges [`crate::resume::StreamStart`] frames on a new stream bound to
/// no connection (tests and benchmarks; [`play`] binds each start to its
/// connection): the guest writes first, the host only once the guest's start
/// is accepted. Each side then resends what the other missed.
///
/// # Errors
/// Stream errors, a timeout, or a start that is not the paired peer's.
pub async fn start_stream(
    session: &mut Session,
    send: &mut SendStream,
    recv: &mut RecvStream,
) -> io::Result<()> {
    start_stream_bound(session, send, recv, &[0; 32]).await
}

/// [`start_stream`] with each start signed over `binding`
/// ([`connection_binding`]).
///
/// # Errors
/// Stream errors, a timeout, or a start that is not the paired peer's.
pub async fn start_stream_bound(
    session: &mut Session,
    send: &mut SendStream,
    recv: &mut RecvStream,
    binding: &[u8; 32],
) -> io::Result<()> {
    let host = session.side() == junqi_game::Side::South;
    if !host {
        send.write_all(&session.stream_start_bound(binding))
            .await
            .map_err(io::Error::other)?;
    }
    let (start, rest) = read_start(recv).await?;
    if host {
        // Checked before a byte goes out.
        let mine = session.stream_start_bound(binding);
        take_start(session, start, &[], binding)?;
        send.write_all(&mine).await.map_err(io::Error::other)?;
        if !rest.is_empty() {
            session.handle_bytes(Instant::now(), &rest);
        }
        return Ok(());
    }
    take_start(session, start, &rest, binding)
}

/// A guest's connection whose stream start has been read, not yet checked.
struct Opened {
    conn: Connection,
    send: SendStream,
    recv: RecvStream,
    start: crate::resume::StreamStart,
    rest: Vec<u8>,
    binding: [u8; 32],
}

/// Host: one incoming connection up to its stream start, every step with its
/// deadline (run on its own task, so that a slow opener holds nobody up).
async fn open_incoming(incoming: quinn::Incoming) -> io::Result<Opened> {
    let (conn, send, mut recv) = accept_incoming(incoming).await?;
    let binding = connection_binding(&conn)?;
    let (start, rest) = read_start(&mut recv).await.inspect_err(|_| {
        conn.close(2u32.into(), b"no stream start");
    })?;
    Ok(Opened {
        conn,
        send,
        recv,
        start,
        rest,
        binding,
    })
}

/// Host: accepts connections until one proves to be the paired peer (or,
/// for a new game, names no game); the others are closed unblamed. Several
/// are checked at once, each with its deadlines.
async fn accept_peer(
    session: &mut Session,
    ep: &Endpoint,
) -> io::Result<(Connection, SendStream, RecvStream)> {
    let mut pending = tokio::task::JoinSet::new();
    loop {
        tokio::select! {
            incoming = ep.accept() => {
                let incoming = incoming.ok_or_else(|| io::Error::other("endpoint closed"))?;
                if pending.len() >= MAX_PENDING {
                    incoming.refuse();
                } else {
                    pending.spawn(open_incoming(incoming));
                }
            }
            Some(done) = pending.join_next() => {
                let Ok(Ok(o)) = done else { continue };
                let mine = session.stream_start_bound(&o.binding);
                match take_start(session, o.start, &[], &o.binding) {
                    Ok(()) => {
                        pending.abort_all();
                        let Opened { conn, mut send, recv, rest, .. } = o;
                        send.write_all(&mine).await.map_err(io::Error::other)?;
                        if !rest.is_empty() {
                            session.handle_bytes(Instant::now(), &rest);
                        }
                        return Ok((conn, send, recv));
                    }
                    Err(_) => o.conn.close(3u32.into(), b"not the paired peer"),
                }
            }
        }
    }
}

/// Guest: connects to the host, sends its stream start (the only bytes that
/// go out before the host is checked: signed, bound to this connection, no
/// secret in it) and checks the host's.
async fn connect_peer(
    session: &mut Session,
    ep: &Endpoint,
    addr: SocketAddr,
) -> io::Result<(Connection, SendStream, RecvStream)> {
    let (conn, mut send, mut recv) = join_game(ep, addr).await?;
    let binding = connection_binding(&conn)?;
    let r = async {
        send.write_all(&session.stream_start_bound(&binding))
            .await
            .map_err(io::Error::other)?;
        let (start, rest) = read_start(&mut recv).await?;
        take_start(session, start, &rest, &binding)
    }
    .await;
    match r {
        Ok(()) => Ok((conn, send, recv)),
        Err(e) => {
            conn.close(3u32.into(), b"not the paired peer");
            Err(e)
        }
    }
}

/// A journal failure, marked so that [`play`] stops instead of reconnecting.
fn journal_failed(e: crate::resume::JournalError) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, e)
}

/// The next command; never, without a channel. `None` when the channel closed.
async fn next_cmd<C>(cmds: Option<&mut tokio::sync::mpsc::UnboundedReceiver<C>>) -> Option<C> {
    match cmds {
        Some(rx) => rx.recv().await,
        None => std::future::pending().await,
    }
}

/// A [`Handler`] made of a closure over the session's events, for owners
/// that send no commands (tests, benchmarks).
pub struct OnEvent<F>(pub F);

impl<F: FnMut(&mut Session, AppEvent)> Handler for OnEvent<F> {
    type Cmd = std::convert::Infallible;
    fn event(&mut self, session: &mut Session, event: AppEvent) {
        (self.0)(session, event);
    }
    fn command(&mut self, _session: &mut Session, cmd: Self::Cmd) -> Control {
        match cmd {}
    }
}

/// What the owner of a game wants after one of its commands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// Go on.
    Continue,
    /// Break the connection as a failing network would (the session stays;
    /// [`play`] reconnects and resumes).
    Disconnect,
    /// Leave the game now (the connection is closed cleanly).
    Quit,
}

/// How [`drive`] or [`play`] ended without an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// The session is done (the verdict is in).
    Done,
    /// The owner quit ([`Control::Quit`], or its command channel closed).
    Quit,
}

/// The owner of a game: the app or `junqi-peer`. Its methods run on the
/// driver's task and may call the session back (play a move, confirm the
/// pairing…); whatever that queues is saved and sent by the driver.
pub trait Handler {
    /// The owner's commands (moves, confirmations…) arriving on [`play`]'s channel.
    type Cmd;
    /// One event of the session.
    fn event(&mut self, session: &mut Session, event: AppEvent);
    /// One command; what it asks the driver to do.
    fn command(&mut self, session: &mut Session, cmd: Self::Cmd) -> Control;
    /// The session has nothing more to say for now (the driver is about to wait).
    fn settled(&mut self, _session: &Session) {}
    /// A connection to the peer is up (again).
    fn connected(&mut self, _session: &Session) {}
    /// The connection dropped; [`play`] reconnects.
    fn dropped(&mut self, _session: &Session, _error: &io::Error) {}
}

/// Runs `session` over one stream until it is done, handing every event and
/// command to `handler`. With a `journal`, every new message is appended to
/// it (and fsynced) before anything is sent, so a crash never loses a message
/// the peer has seen.
///
/// # Errors
/// Stream or journal errors, or the peer closing the stream before the game
/// is done (the caller may reconnect and resume).
pub async fn drive<H: Handler>(
    session: &mut Session,
    send: &mut SendStream,
    recv: &mut RecvStream,
    mut journal: Option<&mut Journal>,
    mut cmds: Option<&mut tokio::sync::mpsc::UnboundedReceiver<H::Cmd>>,
    handler: &mut H,
) -> io::Result<Ended> {
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        let mut busy = true;
        while busy {
            busy = false;
            while let Some(ev) = session.poll_event() {
                handler.event(session, ev);
                busy = true;
            }
            if let Some(j) = journal.as_deref_mut() {
                j.record(session).map_err(journal_failed)?;
            }
            while let Some(bytes) = session.poll_transmit() {
                send.write_all(&bytes).await.map_err(io::Error::other)?;
                busy = true;
            }
        }
        if session.is_done() {
            let _ = send.finish();
            return Ok(Ended::Done);
        }
        handler.settled(session);
        let deadline = session.poll_timeout();
        let sleep = async {
            match deadline {
                Some(t) => tokio::time::sleep_until(tokio::time::Instant::from_std(t)).await,
                None => std::future::pending().await,
            }
        };
        let cmd = next_cmd(cmds.as_deref_mut());
        tokio::select! {
            r = recv.read(&mut buf) => match r {
                Ok(Some(n)) => session.handle_bytes(Instant::now(), &buf[..n]),
                Ok(None) => return Err(io::Error::new(io::ErrorKind::ConnectionAborted, "the peer closed the stream")),
                Err(e) => return Err(io::Error::new(io::ErrorKind::ConnectionAborted, e)),
            },
            () = sleep => session.handle_timeout(Instant::now()),
            cmd = cmd => match cmd.map(|c| handler.command(session, c)) {
                Some(Control::Continue) => {}
                Some(Control::Disconnect) => {
                    return Err(io::Error::new(io::ErrorKind::ConnectionAborted, "disconnected on request"));
                }
                Some(Control::Quit) | None => return Ok(Ended::Quit),
            },
        }
    }
}

/// How [`play`] reaches the peer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dial {
    /// Host: accept a guest on the endpoint (again after each drop).
    Accept,
    /// Guest: connect to the host at this address (retrying until it answers).
    Connect(SocketAddr),
}

/// Plays a whole game over QUIC: connects as `dial` says, exchanges stream
/// starts ([`start_stream`]), runs [`drive`], and after a dropped connection
/// connects again and resumes, until the session is done, the owner quits,
/// or `give_up` passes while disconnected. Commands are taken while
/// connecting too (a player may resign or leave while the peer is away).
///
/// # Errors
/// Journal errors, or the last connection error once `give_up` has passed.
pub async fn play<H: Handler>(
    session: &mut Session,
    ep: &Endpoint,
    dial: Dial,
    mut journal: Option<&mut Journal>,
    mut cmds: Option<&mut tokio::sync::mpsc::UnboundedReceiver<H::Cmd>>,
    handler: &mut H,
    give_up: Option<Instant>,
) -> io::Result<Ended> {
    let late = || give_up.is_some_and(|t| Instant::now() >= t);
    if session.is_done() {
        // Restored from the journal of a game that had ended (a crash before the
        // journal was deleted): there is nothing left to exchange, and the peer
        // may never connect again.
        while let Some(ev) = session.poll_event() {
            handler.event(session, ev);
        }
        return Ok(Ended::Done);
    }
    loop {
        let (conn, mut send, mut recv) = loop {
            let attempt = async {
                match dial {
                    Dial::Accept => accept_peer(session, ep).await,
                    Dial::Connect(a) => connect_peer(session, ep, a).await,
                }
            };
            tokio::select! {
                r = attempt => match r {
                    Ok(c) => break c,
                    Err(e) if late() => return Err(e),
                    // A guest retries until the host answers; a host drops a
                    // connection attempt that failed (e.g. one that gave up
                    // while the host still waited on the dead connection) and
                    // keeps listening.
                    Err(_) => {
                        if matches!(dial, Dial::Connect(_)) {
                            tokio::time::sleep(std::time::Duration::from_millis(500)).await;
                        }
                    }
                },
                cmd = next_cmd(cmds.as_deref_mut()) => match cmd.map(|c| handler.command(session, c)) {
                    Some(Control::Continue | Control::Disconnect) => {
                        // A decision taken offline is saved now; it is sent
                        // with the stream start's resend.
                        while let Some(ev) = session.poll_event() {
                            handler.event(session, ev);
                        }
                        if let Some(j) = journal.as_deref_mut() {
                            j.record(session).map_err(journal_failed)?;
                        }
                        handler.settled(session);
                    }
                    Some(Control::Quit) | None => return Ok(Ended::Quit),
                },
            }
        };
        handler.connected(session);
        let r = async {
            drive(
                session,
                &mut send,
                &mut recv,
                journal.as_deref_mut(),
                cmds.as_deref_mut(),
                handler,
            )
            .await
        }
        .await;
        match r {
            Ok(Ended::Done) => {
                // Let the last frames reach the peer before closing.
                let _ = tokio::time::timeout(
                    std::time::Duration::from_secs(2),
                    recv.read_to_end(1 << 20),
                )
                .await;
                conn.close(0u32.into(), b"done");
                return Ok(Ended::Done);
            }
            Ok(Ended::Quit) => {
                conn.close(0u32.into(), b"quit");
                return Ok(Ended::Quit);
            }
            Err(e) => {
                conn.close(1u32.into(), b"lost");
                if e.kind() == io::ErrorKind::InvalidData || late() {
                    // A journal that cannot be written is not a network
                    // failure: reconnecting would not help.
                    return Err(e);
                }
                handler.dropped(session, &e);
            }
        }
    }
}
