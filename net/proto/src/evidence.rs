//! Where the evidence of a two-player fault is: which signed message,
//! commitment or act of the log a third party reads to check it. Typed, so
//! that `junqi-audit`, `junqi-peer` and the app point at the message itself;
//! `Display` gives the English they print (the words the string had before).

use junqi_game::Side;

/// What part of a side's messages holds the evidence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Part {
    /// A message (whichever it is, by its sequence number).
    Message,
    /// The defender's oblivious-transfer table.
    Table,
    /// The attacker's label.
    Label,
    /// A flip game's opening.
    FlipOpening,
    /// A flag opening after a commander's death.
    FlagOpening,
    /// The end-of-game reveal (seed and setup).
    Reveal,
    /// A dispute message.
    Dispute,
}

impl std::fmt::Display for Part {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Part::Message => "message",
            Part::Table => "table",
            Part::Label => "label",
            Part::FlipOpening => "flip opening",
            Part::FlagOpening => "flag opening",
            Part::Reveal => "reveal",
            Part::Dispute => "dispute message",
        })
    }
}

/// Where the evidence of a fault is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Evidence {
    /// The peer's byte stream (frames that do not decode).
    Stream,
    /// The peer's hello.
    Hello,
    /// The signed message with this sequence number, which the chain refused.
    Seq(u64),
    /// A side's message: which part, and its sequence number when one message holds it.
    Message {
        /// Whose.
        by: Side,
        /// Which part.
        part: Part,
        /// Its sequence number.
        seq: Option<u64>,
    },
    /// The side's last message (a move the engine refused once it was applied).
    LastMessage(Side),
    /// The side's reveal against its flip commitments.
    FlipCommitments(Side),
    /// The side's commitment, and no reveal after this side opened its own.
    NoRevealAfterOwn(Side),
    /// No reveal came before the deadline.
    NoRevealInTime,
    /// A dispute this side sent before a restart, replayed from the log.
    ReplayedDispute,
    /// The log's message with this index (a third party's replay of it).
    LogMessage(usize),
    /// No reveal message in the log.
    NoRevealInLog,
    /// The side's commit and reveal messages.
    CommitAndReveal,
    /// The side's commit message.
    Commit,
    /// The side's reveal message.
    Reveal,
    /// The act with this index in the game's log.
    Act(usize),
}

impl Evidence {
    /// A side's message by its sequence number.
    #[must_use]
    pub fn message(by: Side, seq: u64) -> Evidence {
        Evidence::Message {
            by,
            part: Part::Message,
            seq: Some(seq),
        }
    }
}

impl std::fmt::Display for Evidence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Evidence::Stream => f.write_str("stream"),
            Evidence::Hello => f.write_str("hello"),
            Evidence::Seq(seq) => write!(f, "message seq {seq}"),
            Evidence::Message {
                by,
                part: Part::Message,
                seq: Some(seq),
            } => write!(f, "{by} message seq {seq}"),
            Evidence::Message {
                by,
                part,
                seq: Some(seq),
            } => write!(f, "{by} {part}, message seq {seq}"),
            Evidence::Message {
                by,
                part,
                seq: None,
            } => write!(f, "{by} {part}"),
            Evidence::LastMessage(side) => write!(f, "{side}'s last message"),
            Evidence::FlipCommitments(side) => write!(f, "{side} reveal and flip commitments"),
            Evidence::NoRevealAfterOwn(side) => {
                write!(f, "{side} commitment and no reveal after this side's")
            }
            Evidence::NoRevealInTime => f.write_str("no reveal message before the deadline"),
            Evidence::ReplayedDispute => f.write_str("replayed dispute"),
            Evidence::LogMessage(n) => write!(f, "message {n} of the log"),
            Evidence::NoRevealInLog => f.write_str("no reveal message in the log"),
            Evidence::CommitAndReveal => f.write_str("commit and reveal messages"),
            Evidence::Commit => f.write_str("commit message"),
            Evidence::Reveal => f.write_str("reveal message"),
            Evidence::Act(n) => write!(f, "action {n} of the log"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_english_is_the_words_the_string_had() {
        let s = Side::South;
        for (e, text) in [
            (Evidence::message(s, 7), format!("{s} message seq 7")),
            (
                Evidence::Message {
                    by: s,
                    part: Part::Table,
                    seq: Some(3),
                },
                format!("{s} table, message seq 3"),
            ),
            (
                Evidence::Message {
                    by: s,
                    part: Part::Dispute,
                    seq: None,
                },
                format!("{s} dispute message"),
            ),
            (Evidence::Act(4), "action 4 of the log".to_owned()),
            (Evidence::Seq(9), "message seq 9".to_owned()),
        ] {
            assert_eq!(e.to_string(), text);
        }
    }
}
