//! The two Fluent files against each other and against the code: every message in both, the
//! variables each uses, every key the code names; and the sentences whose grammar depends on
//! who or how many.

use std::collections::{BTreeMap, BTreeSet};

use fluent_syntax::ast;

use super::*;

/// Literals in the sources that look like keys but name files.
const NOT_KEYS: &[&str] = &["profile.damaged", "no.such.key"];

/// Each message of `lang`'s file: its id and the variables it uses (in text or selectors).
fn messages(lang: Lang) -> BTreeMap<String, BTreeSet<String>> {
    let resource = fluent_syntax::parser::parse(lang.ftl())
        .unwrap_or_else(|(_, errors)| panic!("{lang:?}'s file does not parse: {errors:?}"));
    let mut out = BTreeMap::new();
    for entry in resource.body {
        if let ast::Entry::Message(m) = entry {
            let mut vars = BTreeSet::new();
            if let Some(p) = &m.value {
                pattern_vars(p, &mut vars);
            }
            assert!(
                out.insert(m.id.name.to_owned(), vars).is_none(),
                "{lang:?}: {} twice",
                m.id.name
            );
        }
    }
    out
}

fn pattern_vars(p: &ast::Pattern<&str>, vars: &mut BTreeSet<String>) {
    for e in &p.elements {
        if let ast::PatternElement::Placeable { expression } = e {
            expression_vars(expression, vars);
        }
    }
}

fn expression_vars(e: &ast::Expression<&str>, vars: &mut BTreeSet<String>) {
    match e {
        ast::Expression::Select { selector, variants } => {
            inline_vars(selector, vars);
            for v in variants {
                pattern_vars(&v.value, vars);
            }
        }
        ast::Expression::Inline(i) => inline_vars(i, vars),
    }
}

fn inline_vars(i: &ast::InlineExpression<&str>, vars: &mut BTreeSet<String>) {
    match i {
        ast::InlineExpression::VariableReference { id } => {
            vars.insert(id.name.to_owned());
        }
        ast::InlineExpression::Placeable { expression } => expression_vars(expression, vars),
        _ => {}
    }
}

/// The sources of the app (tests included: a key a test names must exist too).
fn sources() -> Vec<(std::path::PathBuf, String)> {
    fn walk(dir: &std::path::Path, out: &mut Vec<(std::path::PathBuf, String)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs")
                // This file's own examples are not the app's.
                && !path.ends_with("i18n/tests.rs")
            {
                let text = std::fs::read_to_string(&path).unwrap();
                // Comments name keys and calls as examples.
                let code: Vec<&str> = text
                    .lines()
                    .filter(|l| !l.trim_start().starts_with("//"))
                    .collect();
                out.push((path, code.join("\n")));
            }
        }
    }
    let mut out = Vec::new();
    walk(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut out,
    );
    out
}

/// Every string literal shaped like a key (`word.word…`, lowercase).
fn literal_keys(text: &str) -> Vec<String> {
    let mut keys = Vec::new();
    for (i, part) in text.split('"').enumerate() {
        let key_like = i % 2 == 1
            && part.contains('.')
            && part.starts_with(|c: char| c.is_ascii_lowercase())
            && part
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '.')
            && !part.ends_with(".json")
            && !part.ends_with(".tmp")
            && part
                .split('.')
                .all(|w| w.starts_with(|c: char| c.is_ascii_lowercase()));
        if key_like && !NOT_KEYS.contains(&part) {
            keys.push(part.to_owned());
        }
    }
    keys
}

/// Each `tr("key", &[("name", …), …])` call: the key and the names it passes.
fn tr_calls(text: &str) -> Vec<(String, BTreeSet<String>)> {
    let mut calls = Vec::new();
    for (at, _) in text.match_indices("tr(") {
        // `tr(` itself, not a name ending in "tr".
        if text[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
        {
            continue;
        }
        let rest = text[at + 3..].trim_start();
        // `tr(lang, "key", …)` (the free function) or `lang.tr("key", …)`.
        let rest = match rest.strip_prefix('"') {
            Some(r) => r,
            None => match rest.split_once(',') {
                Some((_, r)) if r.trim_start().starts_with('"') => &r.trim_start()[1..],
                _ => continue,
            },
        };
        let Some(end) = rest.find('"') else { continue };
        let key = rest[..end].to_owned();
        let rest = &rest[end + 1..];
        // The arguments follow the key: `tr("key", &[…])`, a literal slice; any other form is
        // a call the test cannot read, and fails it.
        let after = rest.trim_start();
        assert!(
            after.starts_with(',') && after[1..].trim_start().starts_with("&["),
            "tr(\"{key}\", …) without a literal argument slice"
        );
        let open = rest.find("&[").unwrap();
        // The argument slice: up to its matching bracket.
        let mut depth = 0;
        let mut close = open;
        for (i, c) in rest[open + 1..].char_indices() {
            match c {
                '[' => depth += 1,
                ']' => {
                    depth -= 1;
                    if depth == 0 {
                        close = open + 1 + i;
                        break;
                    }
                }
                _ => {}
            }
        }
        let slice = &rest[open..close];
        let mut names = BTreeSet::new();
        for piece in slice.split("(\"").skip(1) {
            if let Some(q) = piece.find("\",")
                && piece[..q]
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c == '_')
            {
                names.insert(piece[..q].to_owned());
            }
        }
        calls.push((key, names));
    }
    calls
}

#[test]
fn both_files_load_without_a_fault() {
    for lang in Lang::ALL {
        assert_eq!(load_faults(lang), Vec::new(), "{lang:?}");
        assert!(catalog(lang).plain.len() > 300, "{lang:?}");
    }
}

/// A broken file is reported, not a panic: what parses is kept, the rest shows its key.
#[test]
fn a_broken_file_is_reported_and_the_rest_kept() {
    let broken = "ok = fine\nbroken = { $n\nalso-ok = yes\nok = twice\n";
    let (catalog, faults) = load_source(Lang::En, broken);
    assert!(
        faults.iter().any(|f| matches!(f, LoadFault::Parse(_))),
        "{faults:?}"
    );
    assert!(
        faults.iter().any(|f| matches!(f, LoadFault::Bundle(_))),
        "{faults:?}"
    );
    assert_eq!(catalog.plain.get("ok").map(String::as_str), Some("fine"));
    assert_eq!(
        catalog.plain.get("also.ok").map(String::as_str),
        Some("yes")
    );
    assert!(!catalog.plain.contains_key("broken"));
}

#[test]
fn every_message_is_in_both_languages() {
    let (zh, en) = (messages(Lang::Zh), messages(Lang::En));
    let only_zh: Vec<_> = zh.keys().filter(|k| !en.contains_key(*k)).collect();
    let only_en: Vec<_> = en.keys().filter(|k| !zh.contains_key(*k)).collect();
    assert!(only_zh.is_empty(), "only in zh-CN.ftl: {only_zh:?}");
    assert!(only_en.is_empty(), "only in en.ftl: {only_en:?}");
    for (id, text) in &catalog(Lang::Zh).plain {
        assert!(!text.trim().is_empty(), "{id} is empty");
    }
}

/// The variables: each `tr` call passes exactly the variables its message uses (in one
/// language or the other: `seat`, for instance, makes an English verb agree and Chinese needs
/// no such thing), never one that neither uses; no language uses one the code does not pass;
/// and a message the code names without variables (`t`) has none.
#[test]
fn every_variable_is_passed_and_used() {
    let files = [messages(Lang::Zh), messages(Lang::En)];
    let mut passed: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (path, text) in sources() {
        for (key, names) in tr_calls(&text) {
            let id = fluent_id(&key);
            for (lang, file) in Lang::ALL.iter().zip(&files) {
                let used = file
                    .get(&id)
                    .unwrap_or_else(|| panic!("{lang:?} lacks {key}"));
                let unknown: Vec<_> = used.difference(&names).collect();
                assert!(
                    unknown.is_empty(),
                    "{path:?}: {lang:?} {key} uses {unknown:?}, not passed"
                );
            }
            let used: BTreeSet<_> = files[0][&id].union(&files[1][&id]).cloned().collect();
            let unused: Vec<_> = names.difference(&used).collect();
            assert!(
                unused.is_empty(),
                "{path:?}: {key} is passed {unused:?}, which no language uses"
            );
            passed.insert(key, names);
        }
    }
    assert!(passed.len() >= 20, "only {} tr calls found", passed.len());
    // A message with variables is only ever formatted with them.
    for (path, text) in sources() {
        for key in literal_keys(&text) {
            let id = fluent_id(&key);
            let needs = files
                .iter()
                .any(|f| f.get(&id).is_some_and(|v| !v.is_empty()));
            // Keys handed to a function that calls `tr` with their variables (the damaged files'
            // notices, StoreError::notice).
            let notice = key.starts_with("err.") && key.ends_with("_damaged");
            assert!(
                !needs || passed.contains_key(&key) || notice,
                "{path:?} names {key}, which has variables, outside a tr call"
            );
        }
    }
}

/// Every key the code names is in the files, and every message in the files is named by the
/// code (no dead strings).
#[test]
fn the_code_and_the_files_name_the_same_keys() {
    let ids: BTreeSet<String> = messages(Lang::En).into_keys().collect();
    let mut named = BTreeSet::new();
    for (path, text) in sources() {
        for key in literal_keys(&text) {
            assert!(!key.contains('-'), "{key}: a code key has no '-'");
            assert!(
                ids.contains(&fluent_id(&key)),
                "{path:?} names {key}, in no file"
            );
            named.insert(fluent_id(&key));
        }
    }
    let dead: Vec<_> = ids.difference(&named).collect();
    assert!(dead.is_empty(), "messages no code names: {dead:?}");
}

/// Variables are Fluent's, named: no `{}` filled in by hand after a look-up.
#[test]
fn no_placeholder_is_filled_by_hand() {
    for (path, text) in sources() {
        assert!(
            !text.contains(".replace(\"{}\""),
            "{path:?} fills a {{}} by hand: use tr with a named variable"
        );
    }
    for lang in Lang::ALL {
        assert!(!lang.ftl().contains("{}"), "{lang:?}: a {{}} in the file");
    }
}

#[test]
fn lookup_and_fallback() {
    assert_eq!(t(Lang::Zh, "setup.go"), "出征");
    assert_eq!(t(Lang::En, "setup.go"), "March!");
    assert_eq!(t(Lang::En, "no.such.key"), "no.such.key");
    assert_eq!(tr(Lang::En, "no.such.key", &[]), "no.such.key");
    assert_eq!(Lang::Zh.toggled(), Lang::En);
    assert_eq!(Lang::En.colon(), ": ");
    assert_eq!(Lang::Zh.colon(), "：");
}

/// The sentences the hand-assembled strings got wrong: the verb agrees with "You".
#[test]
fn a_draw_offer_agrees_with_who_offers() {
    let offer = |lang: Lang, seat: &'static str, who: &'static str| {
        tr(
            lang,
            "game.offer_from",
            &[("seat", seat.into()), ("who", who.into())],
        )
    };
    assert_eq!(offer(Lang::En, "you", "You"), "You offer a draw");
    assert_eq!(
        offer(Lang::En, "other", "Opponent"),
        "Opponent offers a draw"
    );
    assert_eq!(offer(Lang::En, "other", "Partner"), "Partner offers a draw");
    assert_eq!(offer(Lang::Zh, "other", "对方"), "对方提出和棋");
    assert_eq!(offer(Lang::Zh, "you", "我方"), "我方提出和棋");
}

#[test]
fn a_count_takes_the_plural_it_needs() {
    let resume = |lang: Lang, n: u32| tr(lang, "menu.resume_detail", &[("moves", n.into())]);
    assert_eq!(
        resume(Lang::En, 1),
        "Unfinished game against the computer, one move played"
    );
    assert_eq!(
        resume(Lang::En, 3),
        "Unfinished game against the computer, 3 moves played"
    );
    assert_eq!(resume(Lang::Zh, 3), "上次未下完的人机对局，已走 3 步");
    let early = |n: u16| tr(Lang::En, "game.resign_early", &[("moves", n.into())]);
    assert_eq!(early(1), "You cannot resign in the first move");
    assert_eq!(early(30), "You cannot resign in the first 30 moves");
}

#[test]
fn a_chinese_sentence_takes_its_variable_in_place() {
    assert_eq!(tr(Lang::Zh, "game.move", &[("n", 12.into())]), "第 12 步");
    assert_eq!(
        tr(
            Lang::Zh,
            "err.moved_aside",
            &[("file", "profile.damaged-1.json".into())]
        ),
        "文件已损坏，已另存为 profile.damaged-1.json"
    );
    // No isolation marks around a variable (the fonts have no glyph for them).
    assert!(!tr(Lang::En, "game.move", &[("n", 7.into())]).contains('\u{2068}'));
}

/// The key scanner and the call scanner find what they should.
#[test]
fn the_scanners_read_keys_and_calls() {
    let text = r#"lang.t("menu.resume"); x("a.json"); lang.tr("game.move", &[("n", a[b[0]].into()), ("who", w.into())]);
        tr(lang, "review.ply", &[("n", 1.into())]); lang.tr(
            "seat.moving",
            &[]
        ); attr("x"); lang.tr(key, &[("file", f)]);"#;
    assert_eq!(
        literal_keys(text),
        ["menu.resume", "game.move", "review.ply", "seat.moving"]
    );
    let calls = tr_calls(text);
    let keys: Vec<&str> = calls.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(keys, ["game.move", "review.ply", "seat.moving"]);
    assert_eq!(
        calls[0].1,
        BTreeSet::from(["n".to_owned(), "who".to_owned()])
    );
    assert!(calls[2].1.is_empty());
}
