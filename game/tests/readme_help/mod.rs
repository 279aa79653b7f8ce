//! The `--help` text of a command-line tool, kept in a README between two markers and
//! checked against the tool: the README shows what clap prints, never a hand-written copy.
//! Included by `game/tests/cli.rs` and the net crate's CLI tests.
//!
//! A stale block fails the test, which prints the expected block; running the test with
//! `JUNQI_BLESS_HELP=1` writes it into the README instead.

use std::path::Path;
use std::process::Command;

/// The block for tool `name` (run from `exe`): `$ name --help` and the help of each of
/// `commands` (`$ name COMMAND --help`), in a `<details>` element; trailing spaces dropped.
pub(crate) fn help_block(name: &str, exe: &str, commands: &[&str]) -> String {
    let mut block = format!(
        "<details><summary><code>{name} --help</code>{}</summary>\n\n```text\n",
        if commands.is_empty() {
            ""
        } else {
            " and each command's"
        }
    );
    let runs = std::iter::once(None).chain(commands.iter().map(Some));
    for (i, command) in runs.enumerate() {
        let args: Vec<&str> = command.into_iter().copied().chain(["--help"]).collect();
        let out = Command::new(exe)
            .args(&args)
            .output()
            .expect("the tool runs");
        assert!(out.status.success(), "{name} {args:?}");
        if i > 0 {
            block.push('\n');
        }
        block.push_str(&format!("$ {name} {}\n", args.join(" ")));
        // Without the blank lines' indentation, which editors strip.
        for line in String::from_utf8(out.stdout).expect("UTF-8 help").lines() {
            block.push_str(line.trim_end());
            block.push('\n');
        }
    }
    block.push_str("```\n\n</details>\n");
    block
}

/// Checks that `readme` holds `block` between `<!-- begin help: NAME -->` and
/// `<!-- end help: NAME -->`, or writes it there with `JUNQI_BLESS_HELP=1`.
pub(crate) fn check_block(readme: &Path, name: &str, block: &str) {
    let text = std::fs::read_to_string(readme).expect("the README");
    let begin = format!("<!-- begin help: {name} -->\n");
    let end = format!("<!-- end help: {name} -->");
    let (Some(b), Some(e)) = (text.find(&begin), text.find(&end)) else {
        panic!("{}: no {begin:?} … {end:?} markers", readme.display());
    };
    let start = b + begin.len();
    assert!(
        start <= e,
        "{}: {name}'s markers out of order",
        readme.display()
    );
    if &text[start..e] == block {
        return;
    }
    if std::env::var_os("JUNQI_BLESS_HELP").is_some() {
        let new = format!("{}{block}{}", &text[..start], &text[e..]);
        std::fs::write(readme, new).expect("the README is writable");
        return;
    }
    panic!(
        "{}: the help of {name} is stale (rerun with JUNQI_BLESS_HELP=1 to write it); \
         expected:\n{block}",
        readme.display()
    );
}
