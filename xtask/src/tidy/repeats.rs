//! `cargo xtask tidy --repeats`: every run of [`RUN_LINES`] or more lines of code
//! that appears twice outside tests (the "no six-line run repeated"), as a
//! report. It is not yet a rule of the check: a run is compared as text, so shared
//! boilerplate (derives, clap's `Cli`) shows up beside real copies, and a person
//! reads the list.

use std::collections::{BTreeMap, BTreeSet};

use super::files::Source;
use super::scan;

/// The shortest repeated run reported.
pub(super) const RUN_LINES: usize = 6;

/// A line of code: its file, its line number (1-based) and its trimmed text.
type Line<'a> = (&'a str, usize, &'a str);

/// A place among the code lines: the file's index and the line's index in it.
type At = (usize, usize);

/// A run of `lines` code lines at `repeat` that are the same as at `first`.
struct Run {
    first: At,
    repeat: At,
    lines: usize,
}

/// The code lines of a non-test file: trimmed, without blank lines, comments and
/// `#[cfg(test)]` items.
fn code_lines<'a>(source: &'a Source) -> Vec<Line<'a>> {
    let lines: Vec<&str> = source.text.lines().collect();
    let skipped = scan::test_lines(&lines);
    let kept = lines.iter().enumerate().zip(skipped).filter(|(_, test)| !test);
    kept.map(|((i, line), _)| (source.path.as_str(), i + 1, line.trim()))
        .filter(|(_, _, code)| !code.is_empty() && !code.starts_with("//"))
        .collect()
}

/// Every maximal repeated run, described as `PATH:FROM-TO repeats PATH:FROM-TO (N
/// lines of code)`, in the order of the files.
pub(super) fn find(sources: &[Source], tests: &BTreeSet<String>) -> Vec<String> {
    let files: Vec<Vec<Line<'_>>> =
        sources.iter().filter(|s| !tests.contains(&s.path)).map(code_lines).collect();
    // Where each window of RUN_LINES lines first occurs, by (file, index).
    let mut first: BTreeMap<Vec<&str>, At> = BTreeMap::new();
    let mut pairs: Vec<(At, At)> = Vec::new();
    for (f, lines) in files.iter().enumerate() {
        for (i, window) in lines.windows(RUN_LINES).enumerate() {
            // Runs of braces and short words say nothing: most lines must carry code.
            if window.iter().filter(|(_, _, code)| code.len() > 3).count() < RUN_LINES - 2 {
                continue;
            }
            let key: Vec<&str> = window.iter().map(|(_, _, code)| *code).collect();
            match first.get(&key) {
                Some(&earlier) => pairs.push((earlier, (f, i))),
                None => {
                    first.insert(key, (f, i));
                }
            }
        }
    }
    merge(&files, &pairs)
}

/// Joins the windows of one copy (each one line further on both sides) into runs,
/// and describes each run.
fn merge(files: &[Vec<Line<'_>>], pairs: &[(At, At)]) -> Vec<String> {
    let mut runs: Vec<Run> = Vec::new();
    for &(first, repeat) in pairs {
        // The run so far ends one window before this pair's, on both sides.
        let extends = runs.last_mut().filter(|run| {
            let next = run.lines + 1 - RUN_LINES;
            (run.first.0, run.repeat.0) == (first.0, repeat.0)
                && run.first.1 + next == first.1
                && run.repeat.1 + next == repeat.1
        });
        match extends {
            Some(run) => run.lines += 1,
            None => runs.push(Run { first, repeat, lines: RUN_LINES }),
        }
    }
    let place = |(f, i): At, n: usize| {
        let lines = files.get(f).map(Vec::as_slice).unwrap_or_default();
        let (path, from, _) = lines.get(i).copied().unwrap_or_default();
        let to = lines.get(i + n - 1).map_or(from, |l| l.1);
        format!("{path}:{from}-{to}")
    };
    let describe = |run: &Run| {
        format!(
            "{} repeats {} ({} lines of code)",
            place(run.repeat, run.lines),
            place(run.first, run.lines),
            run.lines
        )
    };
    runs.iter().map(describe).collect()
}
