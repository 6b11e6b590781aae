//! What tidy found and how it is judged: a finding names a file, a line and the
//! rule; the exception lists excuse some; the rest, and any exception that excuses
//! nothing, fail the check.

use super::exceptions::{EXCEPTIONS, Entry, IN_PROGRESS};
use crate::cmd::Result;

/// One rule broken at one place: `function` is the function's name for the
/// function rule, `"import cycle"` for a cycle and empty otherwise, as in the
/// exception lists; `line` is 0 when the finding is about a whole path.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Finding {
    pub(super) path: String,
    pub(super) line: usize,
    pub(super) function: String,
    pub(super) message: String,
}

/// What the rules looked at, for the summary line.
#[derive(Debug, Default)]
pub(super) struct Counts {
    pub(super) files: usize,
    pub(super) test_files: usize,
    pub(super) functions: usize,
    pub(super) crates: usize,
}

/// Whether `entry` excuses `finding`.
fn excuses(entry: &Entry, finding: &Finding) -> bool {
    entry.0 == finding.path && entry.1 == finding.function
}

/// Prints the summary and every finding nothing excuses; fails on such a finding and
/// on an exception that excuses nothing.
pub(super) fn judge(findings: &[Finding], summary: &str) -> Result {
    let open: Vec<&Finding> =
        findings.iter().filter(|f| !EXCEPTIONS.iter().chain(IN_PROGRESS).any(|e| excuses(e, f))).collect();
    let stale: Vec<&Entry> = EXCEPTIONS.iter().filter(|e| !findings.iter().any(|f| excuses(e, f))).collect();
    for entry in IN_PROGRESS.iter().filter(|e| !findings.iter().any(|f| excuses(e, f))) {
        println!("==> tidy: IN_PROGRESS entry no longer needed, delete it: {:?}", (entry.0, entry.1));
    }
    println!(
        "==> tidy: {summary}: {} findings, {} excused ({} exceptions, {} in progress)",
        findings.len(),
        findings.len() - open.len(),
        EXCEPTIONS.len(),
        IN_PROGRESS.len()
    );
    for f in &open {
        let at = if f.line == 0 { f.path.clone() } else { format!("{}:{}", f.path, f.line) };
        eprintln!("{at}: {}", f.message);
    }
    for e in &stale {
        eprintln!("xtask/src/tidy/exceptions.rs: the exception {:?} excuses nothing: delete it", (e.0, e.1));
    }
    if open.is_empty() && stale.is_empty() {
        return Ok(());
    }
    Err(format!(
        "tidy: {} findings and {} stale exceptions (listed above; exceptions in xtask/src/tidy/exceptions.rs)",
        open.len(),
        stale.len()
    ))
}
