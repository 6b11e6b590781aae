//! The rules every `--help` of `replay` and `host-sim` keeps, checked on the help
//! text itself as a reader sees it (`replay/tests/help.rs` and `host-sim/tests/help.rs`
//! include this file), so that a new subcommand or option is checked without touching
//! the tests:
//!
//! 1. Every argument, option or positional, has a line of help.
//! 2. An option that takes a value names its form or unit in its value name: words
//!    of [`FORMS`], or lowercase literal values, joined by `|` (`<all|0|DURATION>`),
//!    or clap's `[possible values: ...]` lists them.
//! 3. An optional option that takes a value says what it is when absent: clap's
//!    `[default: ...]`, or its help says `default` or `without it`. An option whose
//!    help starts with `Write` names a file to write, and without it none is.
//!
//! The help is parsed as clap (without its `wrap_help` feature) prints it: sections
//! headed `Arguments:` and `Options:`, an entry per argument starting two spaces in,
//! its help after it on the same line or on the lines below, indented further.

/// The value names an option may use, each a form or a unit:
/// - `N`: a whole number; `NUMBER`: a decimal number (up to three decimals unless the
///   help says otherwise); `SHARE`: a fraction from 0 to 1; `PCT`: a percent;
/// - `SECONDS`, `TICKS`: a whole number of that unit; `DURATION`: a number with a unit
///   (s, m, h, d, w: `7d`), as the help says;
/// - `LIST`: comma-separated values; `A..B`: a range; `K/N`: part K of N;
/// - `NAME`: one of the names the help lists; `EXPR`: an expression the help describes;
/// - `FILE` (`FILE.csv` for a format), `DIR`, `LOG` (a decision log), `STREAM` (a
///   device record stream): paths.
pub const FORMS: [&str; 16] = [
    "N", "NUMBER", "SHARE", "PCT", "SECONDS", "TICKS", "DURATION", "LIST", "A..B", "K/N", "NAME", "EXPR",
    "FILE", "DIR", "LOG", "STREAM",
];

/// One argument of a subcommand's help.
#[derive(Debug)]
pub struct Entry {
    /// `--long` for an option, `<NAME>` for a positional.
    pub name: String,
    /// The value name between `<` and `>`, for an option that takes a value.
    pub value: Option<String>,
    /// The help text, its lines joined by spaces.
    pub help: String,
}

/// The subcommands listed in `help`'s `Commands:` section, but `help`.
pub fn subcommands(help: &str) -> Vec<String> {
    section(help, "Commands:")
        .iter()
        .filter(|line| line.starts_with("  ") && !line.starts_with("   "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

/// The lines of the section headed `title`, up to the first line not indented.
fn section<'a>(help: &'a str, title: &str) -> Vec<&'a str> {
    let mut lines = help.lines().skip_while(|line| *line != title);
    lines.next();
    lines.take_while(|line| line.is_empty() || line.starts_with(' ')).collect()
}

/// The arguments and options of a subcommand's help.
pub fn entries(help: &str) -> Vec<Entry> {
    let mut entries: Vec<Entry> = Vec::new();
    for title in ["Arguments:", "Options:"] {
        for line in section(help, title) {
            let indent = line.len() - line.trim_start().len();
            let text = line.trim();
            if text.is_empty() {
                continue;
            }
            // An entry starts at most six spaces in (`  -h, --help`, `      --long`,
            // `  <NAME>`); its help lines below are indented further.
            if indent <= 6 {
                entries.push(parse_head(text));
            } else if let Some(last) = entries.last_mut() {
                last.help = format!("{} {text}", last.help).trim().to_owned();
            }
        }
    }
    entries
}

/// `-h, --long <VALUE>  help...` or `<NAME>  help...`.
fn parse_head(text: &str) -> Entry {
    let (head, help) = text.split_once("  ").unwrap_or((text, ""));
    let head = head.trim();
    let name_part = head.rsplit(", ").next().unwrap_or(head);
    let (name, value) = match name_part.split_once(' ') {
        Some((name, value)) => {
            (name, Some(value.trim_matches(['<', '>']).trim_end_matches("...").to_owned()))
        }
        None => (name_part, None),
    };
    let value = value.map(|v| v.trim_end_matches('>').to_owned());
    Entry { name: name.to_owned(), value, help: help.trim().to_owned() }
}

/// The options the usage line of `help` requires (named outside `[...]`).
pub fn required(help: &str) -> Vec<String> {
    let usage = help.lines().find(|line| line.starts_with("Usage:")).unwrap_or_default();
    let mut depth = 0_i32;
    let mut out = Vec::new();
    for word in usage.split_whitespace() {
        if depth == 0 && word.starts_with("--") {
            out.push(word.to_owned());
        }
        depth += i32::try_from(word.matches('[').count()).unwrap_or(0);
        depth -= i32::try_from(word.matches(']').count()).unwrap_or(0);
    }
    out
}

/// Whether `value` is a value name of the rule: forms of [`FORMS`] (`FILE.csv` for
/// `FILE`) or lowercase literals, joined by `|`.
pub fn is_form(value: &str) -> bool {
    value.split('|').all(|part| {
        let literal = !part.is_empty()
            && part.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        let file = part.strip_prefix("FILE.").is_some_and(|ext| ext.chars().all(|c| c.is_ascii_lowercase()));
        literal || file || FORMS.contains(&part)
    })
}

/// The text of `help` without clap's bracketed notes (`[default: ...]`, `[possible
/// values: ...]`).
fn without_notes(help: &str) -> String {
    let mut text = help.to_owned();
    for note in ["[default: ", "[possible values: "] {
        if let Some(at) = text.find(note) {
            let end = text[at..].find(']').map_or(text.len(), |e| at + e + 1);
            text.replace_range(at..end, "");
        }
    }
    text.trim().to_owned()
}

/// Every way `help` (the `--help` of `command`, e.g. `host-sim run`) breaks the
/// rules, each naming the command and the argument.
pub fn violations(command: &str, help: &str) -> Vec<String> {
    let required = required(help);
    let mut found = Vec::new();
    for entry in entries(help) {
        let at = format!("{command} {}", entry.name);
        if without_notes(&entry.help).is_empty() {
            found.push(format!("{at}: no help line"));
        }
        let Some(value) = &entry.value else { continue };
        let listed = entry.help.contains("[possible values: ");
        if !listed && !is_form(value) {
            found.push(format!("{at}: value name <{value}> is not a form or unit of {FORMS:?}"));
        }
        let lower = entry.help.to_lowercase();
        let says_absent =
            lower.contains("default") || lower.contains("without it") || entry.help.starts_with("Write ");
        if !required.contains(&entry.name) && !says_absent {
            found.push(format!("{at}: says neither its default nor what happens without it"));
        }
    }
    found
}
