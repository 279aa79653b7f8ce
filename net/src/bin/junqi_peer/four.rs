//! `junqi-peer` at a four-seat table (issue 47): one seat per process, the
//! host relaying for the others (`junqi_net::table`).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use ed25519_dalek::SigningKey;
use junqi_game::ai::Player;
use junqi_game::{Action, Mode, Rules};
use junqi_net::Seed;
use junqi_net::discovery::{Advert, FreeSeats, table_summary};
use junqi_net::four::{Ending, FourConfig, FourEvent, FourSeat, FourSession, FourVerdict};
use junqi_net::table::{TableDial, TableHandler, play_table, save_log};
use junqi_net::table_journal::{JOURNAL_FILE, load_journal, save_journal};
use junqi_net::transport::{Identity, endpoint};

/// What a four-seat run is asked to do.
pub(crate) struct FourPlan {
    /// This process's seat.
    pub(crate) seat: FourSeat,
    /// The host's rules, or `None` for a guest (it takes the host's).
    pub(crate) rules: Option<Rules>,
    /// The UDP port the host listens on.
    pub(crate) port: u16,
    /// The host: advertise the table by mDNS.
    pub(crate) mdns: bool,
    /// The host's address, for a guest.
    pub(crate) addr: Option<SocketAddr>,
    pub(crate) player: Box<dyn Player>,
    pub(crate) name: String,
    pub(crate) state: Option<PathBuf>,
    pub(crate) yes: bool,
    /// The player agrees that its partner's device plays its seat on if it leaves.
    pub(crate) hand_over: bool,
    /// Leave on this seat's turn after this many own moves.
    pub(crate) leave_after: Option<u32>,
}

/// What a four-seat table's advertised rules start with (two-player
/// browsers skip it).
pub(crate) const TABLE_PREFIX: &str = "four ";

/// How a four-seat run ended, for the exit status.
pub(crate) enum FourEnd {
    Clean,
    Cheated,
    Refused,
    /// Resumed from a journal older than the table (exit 4).
    Stale,
    Other,
}

struct Seat {
    player: Box<dyn Player>,
    yes: bool,
    refused: bool,
    /// The host's advertisement, announced again as seats are taken.
    advert: Option<Advert>,
    taken: Vec<FourSeat>,
    /// Where the journal is kept (`--state DIR`).
    journal: Option<PathBuf>,
    /// Own moves left before this seat leaves (`--leave-after`).
    leave_after: Option<u32>,
    /// This device's own seat (another one's events come from a seat taken over).
    own: FourSeat,
}

impl TableHandler for Seat {
    fn take_over(&mut self) -> bool {
        // The computer player plays a seat its partner handed over.
        true
    }

    fn journal(&mut self, session: &FourSession) {
        if let Some(path) = &self.journal
            && let Err(e) = save_journal(path, session)
        {
            eprintln!("cannot keep the journal: {e}");
        }
    }

    fn seat_taken(&mut self, seat: FourSeat) {
        if self.taken.contains(&seat) {
            return;
        }
        self.taken.push(seat);
        if let Some(a) = &mut self.advert
            && let Err(e) = a.set_free_seats(FreeSeats::all_but(&self.taken))
        {
            eprintln!("cannot announce the free seats: {e}");
        }
    }

    fn event(&mut self, session: &mut FourSession, event: FourEvent) {
        match event {
            FourEvent::PairingCode(code) => {
                for s in session.hand_overs() {
                    println!(
                        "hand-over agreed: if {s} leaves, {}'s device plays it on and then knows its pieces",
                        s.partner()
                    );
                }
                println!("pairing code: {code}");
                if self.yes || super::ask("Same pairing code on every screen? [y/N] ") {
                    let _ = session.confirm_pairing(Instant::now());
                } else {
                    println!("pairing codes not confirmed: leaving");
                    self.refused = true;
                    session.leave(Instant::now());
                }
            }
            FourEvent::Started { first } => {
                println!("started: I am {}, {first} moves first", session.seat())
            }
            FourEvent::Table(e) => println!("event: {e:?}"),
            FourEvent::YourTurn => {
                let Some(view) = session.view().cloned() else {
                    return;
                };
                if session.seat() == self.own
                    && let Some(n) = self.leave_after.as_mut()
                {
                    if *n == 0 {
                        println!("leaving the table");
                        self.leave_after = None;
                        session.leave(Instant::now());
                        return;
                    }
                    *n -= 1;
                }
                let deadline =
                    Instant::now() + Duration::from_secs(u64::from(view.rules().move_seconds) / 2);
                let stop = move || Instant::now() >= deadline;
                if let Action::Move(m) = self.player.act(&view, &stop)
                    && let Err(e) = session.play(Instant::now(), m)
                {
                    eprintln!("the player's move was refused: {e}");
                }
            }
            FourEvent::AnswerDraw { by } => {
                println!("{by} offers a draw: declined");
                let _ = session.answer_draw(Instant::now(), false);
            }
            FourEvent::MoveVoided => println!("my move crossed the host's timeout claim: void"),
            FourEvent::ClaimVoided => {
                println!("my timeout claim crossed the host's move: void")
            }
            FourEvent::TakeOver { seat } => {
                println!("{seat} left and handed its seat to this device")
            }
            FourEvent::Over(v) if session.seat() != self.own => {
                println!("the seat taken over ({}) is over", session.seat());
                print_verdict(&v)
            }
            FourEvent::Over(v) => print_verdict(&v),
        }
    }
}

fn print_verdict(v: &FourVerdict) {
    println!("ending: {:?}", v.ending);
    match v.result {
        Some(r) => println!("result: {r:?}"),
        None => println!("result: none"),
    }
    if let Some(r) = &v.record {
        match serde_json::to_string(r) {
            Ok(j) => println!("record: {j}"),
            Err(e) => eprintln!("cannot print the record: {e}"),
        }
    }
    for s in &v.not_opened {
        println!("not opened: {s}");
    }
    match &v.blame {
        None if v.record.is_some() => println!("verdict: clean audit"),
        None => println!("verdict: not audited"),
        Some(b) => println!("verdict: {b}"),
    }
}

fn random32() -> [u8; 32] {
    let mut b = [0u8; 32];
    getrandom::fill(&mut b).expect("the system's random source");
    b
}

/// Plays one seat.
pub(crate) fn run_four(mut plan: FourPlan) -> Result<FourEnd, std::io::Error> {
    let layout_rules = plan.rules.unwrap_or(Rules::four_player(Mode::Dark));
    let layout = plan.player.layout(&layout_rules);
    let cfg = FourConfig {
        seat: plan.seat,
        host: FourSeat::South,
        rules: plan.rules,
        name: plan.name.clone(),
        layout,
        key: SigningKey::from_bytes(&random32()),
        seed: Seed(random32()),
        nonce: random32(),
        hand_over: plan.hand_over,
    };
    let identity = Identity::generate()?;
    let host = plan.rules.is_some();
    let bind: SocketAddr = if host {
        SocketAddr::from(([0, 0, 0, 0], plan.port))
    } else {
        SocketAddr::from(([0, 0, 0, 0], 0))
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let mut handler = Seat {
        player: plan.player,
        yes: plan.yes,
        refused: false,
        advert: None,
        taken: vec![FourSeat::South],
        journal: None,
        leave_after: plan.leave_after,
        own: plan.seat,
    };
    // A journal of an unfinished game: this device crashed, its seat resumes.
    let mut resumed = None;
    if let Some(dir) = &plan.state {
        std::fs::create_dir_all(dir)?;
        let path = dir.join(JOURNAL_FILE);
        if let Ok(bytes) = std::fs::read(&path) {
            let (cfg, log) = load_journal(&bytes).map_err(std::io::Error::other)?;
            let s = FourSession::resume(cfg, log, Instant::now()).map_err(std::io::Error::other)?;
            println!(
                "resumed {} from its journal at round {}",
                s.seat(),
                s.log().round()
            );
            resumed = Some(s);
        }
        handler.journal = Some(path);
    }
    let addr = match (host, plan.addr) {
        (false, None) => Some(super::discover(Some(plan.seat)).map_err(std::io::Error::other)?),
        (_, a) => a,
    };
    let verdict = rt.block_on(async {
        let ep = endpoint(&identity, bind)?;
        let dial = if host {
            let port = ep.local_addr()?.port();
            println!("listening on 127.0.0.1:{port}");
            if plan.mdns {
                let summary = table_summary(&plan.rules.expect("the host's rules"));
                handler.advert = Some(
                    Advert::start_table(
                        &plan.name,
                        port,
                        &summary,
                        FreeSeats::all_but(&handler.taken),
                    )
                    .map_err(std::io::Error::other)?,
                );
            }
            TableDial::Host { guests: 3 }
        } else {
            TableDial::Join(addr.expect("a guest has an address"))
        };
        let mut session = match resumed {
            Some(s) => s,
            None => FourSession::new(cfg, Instant::now()).map_err(std::io::Error::other)?,
        };
        let v = play_table(&mut session, &ep, dial, &mut handler).await?;
        if let Some(dir) = &plan.state
            && !matches!(v.ending, Ending::StaleJournal { .. })
        {
            // Over: the game file keeps it; a stale journal stays as it was.
            save_log(&dir.join("table.bin"), session.log())?;
            let _ = std::fs::remove_file(dir.join(JOURNAL_FILE));
        }
        if let Some(a) = handler.advert.take() {
            a.stop();
        }
        ep.wait_idle().await;
        Ok::<_, std::io::Error>(v)
    })?;
    Ok(if handler.refused {
        FourEnd::Refused
    } else if matches!(verdict.ending, Ending::StaleJournal { .. }) {
        FourEnd::Stale
    } else if verdict.blame.is_some() {
        FourEnd::Cheated
    } else if verdict.record.is_some() {
        FourEnd::Clean
    } else {
        FourEnd::Other
    })
}
