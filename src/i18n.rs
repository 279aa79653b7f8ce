//! The player's language ([`Lang`]) and what the app says in it: Project Fluent files, one per
//! language (`assets/i18n/zh-CN.ftl`, `assets/i18n/en.ftl`), built into the app and parsed once,
//! when the app starts (or at the first look-up, in a test).
//!
//! The code names a message by its key, `menu.resume`; the file's id for it is the key with
//! `-` for each `.` (`menu-resume`). [`t`] gives a message without variables (formatted once, a
//! `&'static str`); [`tr`] formats one with named variables (`{ $n }`) and selectors (who, how
//! many). A message missing from a file, or a file that does not parse, is logged and shows its
//! key; the tests fail on either (docs/i18n.md).

use std::collections::HashMap;
use std::sync::OnceLock;

use bevy::prelude::*;
pub use fluent_bundle::FluentValue;
use fluent_bundle::{FluentArgs, FluentResource, concurrent::FluentBundle};
use serde::{Deserialize, Serialize};
use unic_langid::{LanguageIdentifier, langid};

/// The language the app shows.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Lang {
    /// 中文 (default).
    #[default]
    Zh,
    /// English.
    En,
}

impl Lang {
    /// The other language.
    pub fn toggled(self) -> Self {
        match self {
            Lang::Zh => Lang::En,
            Lang::En => Lang::Zh,
        }
    }

    /// Both languages.
    pub const ALL: [Lang; 2] = [Lang::Zh, Lang::En];

    /// The colon between a label and its value: full-width in Chinese, `": "` in English.
    pub fn colon(self) -> &'static str {
        t(self, "punct.colon")
    }

    /// Looks up `key` in this language (the key itself if it is missing).
    pub fn t(self, key: &'static str) -> &'static str {
        t(self, key)
    }

    /// Formats `key` in this language with its variables ([`tr`]).
    pub fn tr(self, key: &'static str, args: &[(&'static str, FluentValue<'_>)]) -> String {
        tr(self, key, args)
    }

    /// The language's Fluent file, as built into the app.
    pub fn ftl(self) -> &'static str {
        match self {
            Lang::Zh => include_str!("../assets/i18n/zh-CN.ftl"),
            Lang::En => include_str!("../assets/i18n/en.ftl"),
        }
    }

    /// The language's identifier (its plural rules come with it).
    fn id(self) -> LanguageIdentifier {
        match self {
            Lang::Zh => langid!("zh-CN"),
            Lang::En => langid!("en"),
        }
    }
}

/// Registers the [`Lang`] resource and parses both languages' files (a fault is logged now,
/// not at the first screen that needs the message).
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Lang>();
    for lang in Lang::ALL {
        catalog(lang);
    }
}

/// The Fluent id of a code key: `menu.resume` -> `menu-resume`.
pub fn fluent_id(key: &str) -> String {
    key.replace('.', "-")
}

/// The code key of a Fluent id: `menu-resume` -> `menu.resume`.
pub fn code_key(id: &str) -> String {
    id.replace('-', ".")
}

/// One language's messages: the bundle, and each message without variables formatted once.
struct Catalog {
    bundle: FluentBundle<FluentResource>,
    /// By code key.
    plain: HashMap<String, String>,
}

/// What went wrong loading a language's file (each is a test failure; the app logs it).
#[derive(Debug, PartialEq)]
pub enum LoadFault {
    /// A part of the file that does not parse (it is left out).
    Parse(fluent_syntax::parser::ParserError),
    /// A message the bundle refused (an id twice: the first is kept).
    Bundle(fluent_bundle::FluentError),
}

/// Parses `lang`'s file into a bundle; what fails to load is left out and reported.
fn load(lang: Lang) -> (Catalog, Vec<LoadFault>) {
    load_source(lang, lang.ftl())
}

/// Parses `source` as `lang`'s messages.
fn load_source(lang: Lang, source: &str) -> (Catalog, Vec<LoadFault>) {
    let mut faults = Vec::new();
    let resource = match FluentResource::try_new(source.to_owned()) {
        Ok(r) => r,
        Err((r, errors)) => {
            faults.extend(errors.into_iter().map(LoadFault::Parse));
            r
        }
    };
    let ids: Vec<String> = resource
        .entries()
        .filter_map(|e| match e {
            fluent_syntax::ast::Entry::Message(m) if m.value.is_some() => {
                Some(m.id.name.to_owned())
            }
            _ => None,
        })
        .collect();
    let mut bundle = FluentBundle::new_concurrent(vec![lang.id()]);
    // No Unicode isolation marks around variables: the fonts have no glyph for them.
    bundle.set_use_isolating(false);
    if let Err(errors) = bundle.add_resource(resource) {
        faults.extend(errors.into_iter().map(LoadFault::Bundle));
    }
    let mut plain = HashMap::new();
    for id in ids {
        let Some(pattern) = bundle.get_message(&id).and_then(|m| m.value()) else {
            continue;
        };
        let mut errors = Vec::new();
        let text = bundle.format_pattern(pattern, None, &mut errors);
        // A message with variables is formatted by `tr` only.
        if errors.is_empty() {
            plain.insert(code_key(&id), text.into_owned());
        }
    }
    (Catalog { bundle, plain }, faults)
}

/// Each language's loading faults (none, in a build whose tests pass).
pub fn load_faults(lang: Lang) -> Vec<LoadFault> {
    load(lang).1
}

fn catalog(lang: Lang) -> &'static Catalog {
    static CATALOGS: OnceLock<[Catalog; 2]> = OnceLock::new();
    let all = CATALOGS.get_or_init(|| {
        Lang::ALL.map(|l| {
            let (catalog, faults) = load(l);
            for f in faults {
                error!("{:?} messages: {f:?}", l);
            }
            catalog
        })
    });
    &all[lang as usize]
}

/// Looks up `key` in `lang`; a missing key (or a message that needs variables: [`tr`]) is
/// returned as it is, so gaps show up on screen, and logged.
pub fn t(lang: Lang, key: &'static str) -> &'static str {
    match catalog(lang).plain.get(key) {
        Some(text) => text,
        None => {
            warn!("no {lang:?} message {key} without variables");
            key
        }
    }
}

/// Formats `key` in `lang` with its named variables, e.g.
/// `tr(lang, "game.move", &[("n", 12.into())])`; a missing message gives the key, a missing
/// variable its name in braces (both logged).
pub fn tr(lang: Lang, key: &'static str, args: &[(&'static str, FluentValue<'_>)]) -> String {
    let bundle = &catalog(lang).bundle;
    let Some(pattern) = bundle.get_message(&fluent_id(key)).and_then(|m| m.value()) else {
        warn!("no {lang:?} message {key}");
        return key.to_owned();
    };
    let mut fluent_args = FluentArgs::new();
    for (name, value) in args {
        fluent_args.set(*name, value.clone());
    }
    let mut errors = Vec::new();
    let text = bundle.format_pattern(pattern, Some(&fluent_args), &mut errors);
    for e in errors {
        warn!("{lang:?} message {key}: {e:?}");
    }
    text.into_owned()
}

#[cfg(test)]
mod tests;
