//! The rules page's text (规则说明), written from the project's rule book: its sections'
//! headings and paragraphs by key; the words are in the Fluent files (`assets/i18n/`).

use crate::i18n::Lang;

/// The rules' sections: a heading's key and its paragraphs' keys.
const SECTIONS: &[(&str, &[&str])] = &[
    ("rules.pieces", &["rules.pieces.p1", "rules.pieces.p2"]),
    (
        "rules.board",
        &[
            "rules.board.p1",
            "rules.board.p2",
            "rules.board.p3",
            "rules.board.p4",
        ],
    ),
    ("rules.setup", &["rules.setup.p1", "rules.setup.p2"]),
    (
        "rules.moving",
        &[
            "rules.moving.p1",
            "rules.moving.p2",
            "rules.moving.p3",
            "rules.moving.p4",
            "rules.moving.p5",
        ],
    ),
    (
        "rules.combat",
        &[
            "rules.combat.p1",
            "rules.combat.p2",
            "rules.combat.p3",
            "rules.combat.p4",
        ],
    ),
    (
        "rules.modes",
        &["rules.modes.p1", "rules.modes.p2", "rules.modes.p3"],
    ),
    (
        "rules.clock",
        &["rules.clock.p1", "rules.clock.p2", "rules.clock.p3"],
    ),
    ("rules.rating", &["rules.rating.p1", "rules.rating.p2"]),
    (
        "rules.options",
        &[
            "rules.options.p1",
            "rules.options.p2",
            "rules.options.p3",
            "rules.options.p4",
        ],
    ),
];

/// The rules as `(heading, paragraphs)` sections in `lang`.
pub fn sections(lang: Lang) -> Vec<(&'static str, Vec<&'static str>)> {
    SECTIONS
        .iter()
        .map(|(heading, paragraphs)| {
            (
                lang.t(heading),
                paragraphs.iter().map(|p| lang.t(p)).collect(),
            )
        })
        .collect()
}
