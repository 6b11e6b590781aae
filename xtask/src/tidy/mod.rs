//! `cargo xtask tidy` (and a step of `verify`, right after fmt): the size and shape
//! rules of the workspace, checked on its Rust files as text.
//!
//! - **Files**: a non-test `.rs` file has at most [`FILE_LINES_MAX`] lines. Test files
//!   are those under a `tests/` or `benches/` folder, files named `tests.rs`, and the
//!   files of modules declared `#[cfg(test)] mod NAME;`; fuzz targets count as code.
//! - **Functions**: a function outside `#[cfg(test)]` items has at most
//!   [`FN_LINES_MAX`] lines, from its `fn` line through its closing brace.
//! - **Models**: every model of [`registry::models`] has its place in every layer of
//!   [`registry::LAYERS`], and is named in every shared file of
//!   [`registry::MENTIONS`] (the xtask's trace runs and cross-host runs, the
//!   panic-free probe, the determinism test).
//! - **Test names**: an integration test file about one model is `MODEL_topic.rs`
//!   (see [`test_names`]).
//! - **Map documents**: README.md and ARCHITECTURE.md within [`DOC_BYTES_MAX`].
//! - **Cycles**: no two files of a crate import each other, directly or round a loop
//!   (see [`cycles`]).
//!
//! Each finding names its file and line. A finding is excused by an entry of
//! [`exceptions::EXCEPTIONS`] (kept on purpose, with its reason) or of
//! [`exceptions::IN_PROGRESS`] (work under way on another branch). An exception that
//! excuses nothing fails, so the list stays true; an in-progress entry that excuses
//! nothing is only reported, to be deleted when its branch lands.
//!
//! With `--repeats` it also lists the runs of code repeated outside tests (see
//! [`repeats`]), as a report that fails nothing.

mod cycles;
mod exceptions;
mod files;
mod registry;
mod repeats;
mod report;
mod scan;
mod test_names;

use crate::cmd::{Result, root};
use report::{Counts, Finding, judge};

/// The most lines a non-test file may have: a file is read whole, and past this it
/// usually holds more than one job.
pub(crate) const FILE_LINES_MAX: usize = 400;
/// The most lines a non-test function may have: one screen, read at once.
pub(crate) const FN_LINES_MAX: usize = 70;

pub fn tidy(show_repeats: bool) -> Result {
    let root = root();
    let sources = files::read_all(&root)?;
    let mut findings = Vec::new();
    let mut counts = Counts::default();
    let tests = files::test_files(&sources);
    for source in &sources {
        if tests.contains(&source.path) {
            counts.test_files += 1;
            continue;
        }
        counts.files += 1;
        counts.functions += sizes(&source.path, &source.text, &mut findings);
    }
    for (model, path) in registry::required() {
        if !root.join(&path).exists() {
            let message = format!("the model `{model}` has no {path} (see xtask/src/tidy/registry.rs)");
            findings.push(Finding { path, line: 0, function: String::new(), message });
        }
    }
    let names: Vec<&str> = registry::models().into_iter().map(|(name, _)| name).collect();
    findings.extend(test_names::check(sources.iter().map(|s| s.path.as_str()), &names));
    findings.extend(doc_sizes(&root));
    let text_of = |path: &str| sources.iter().find(|s| s.path == path).map(|s| s.text.as_str());
    findings.extend(registry::unmentioned(&registry::models(), registry::MENTIONS, text_of));
    counts.crates = cycles::check(&sources, &tests, &mut findings);
    if show_repeats {
        let runs = repeats::find(&sources, &tests);
        runs.iter().for_each(|run| println!("{run}"));
        println!(
            "==> tidy: {} runs of {} or more lines of code repeated (a report)",
            runs.len(),
            repeats::RUN_LINES
        );
    }
    let summary = format!(
        "{} files ({} test files skipped), {} functions, {} models x {} layers, imports of {} crates",
        counts.files,
        counts.test_files,
        counts.functions,
        registry::models().len(),
        registry::LAYERS.len() + registry::MENTIONS.len(),
        counts.crates
    );
    judge(&findings, &summary)
}

/// The file and function rules on one file; returns how many functions it has.
fn sizes(path: &str, text: &str, findings: &mut Vec<Finding>) -> usize {
    if let Some(message) = file_too_long(text) {
        let line = FILE_LINES_MAX + 1;
        findings.push(Finding { path: path.to_owned(), line, function: String::new(), message });
    }
    let functions = scan::functions(text);
    for f in functions.iter().filter(|f| f.lines > FN_LINES_MAX) {
        let message = format!("fn {} has {} lines, over the {FN_LINES_MAX}-line limit", f.name, f.lines);
        findings.push(Finding { path: path.to_owned(), line: f.line, function: f.name.clone(), message });
    }
    functions.len()
}

/// The map documents and their most bytes: the README is a newcomer's first ten
/// minutes and ARCHITECTURE.md the map, so the details live in the guides under
/// `docs/` and in each crate's `//!` pages.
pub(crate) const DOC_BYTES_MAX: &[(&str, u64)] = &[("README.md", 15 * 1024), ("ARCHITECTURE.md", 25 * 1024)];

fn doc_sizes(root: &std::path::Path) -> Vec<Finding> {
    let mut findings = Vec::new();
    for &(path, most) in DOC_BYTES_MAX {
        let bytes = std::fs::metadata(root.join(path)).map_or(0, |m| m.len());
        if bytes > most {
            let message = format!("{bytes} bytes, over the {most}-byte limit for this map document");
            findings.push(Finding { path: path.to_owned(), line: 0, function: String::new(), message });
        }
    }
    findings
}

/// Why `text` is too long for a non-test file, if it is.
fn file_too_long(text: &str) -> Option<String> {
    let lines = text.lines().count();
    (lines > FILE_LINES_MAX)
        .then(|| format!("{lines} lines, over the {FILE_LINES_MAX}-line limit for a file"))
}

#[cfg(test)]
mod tests;
