//! The Rust files tidy reads: the workspace's `.rs` files that git tracks or would
//! track (so a new file is checked before its first commit), or, without git, every
//! `.rs` file under the root outside `target/` folders and hidden ones; and which of
//! them hold only tests.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;
use std::process::Command;

use super::scan;
use crate::cmd::Result;

/// One Rust file: its path relative to the root, with `/`, and its text.
#[derive(Debug)]
pub(super) struct Source {
    pub(super) path: String,
    pub(super) text: String,
}

/// Every Rust file of the workspace, sorted by path.
pub(super) fn read_all(root: &Path) -> Result<Vec<Source>> {
    let mut paths = git_files(root).unwrap_or_else(|| walk(root, ""));
    paths.sort();
    paths.dedup();
    let mut sources = Vec::with_capacity(paths.len());
    for path in paths {
        let full = root.join(&path);
        // A file deleted but not yet committed is still listed by git: skip it. The
        // scaffold's templates are checked where `cargo xtask scaffold` puts them.
        if !full.is_file() || path.starts_with("xtask/scaffold/") {
            continue;
        }
        let text = fs::read_to_string(&full).map_err(|e| format!("tidy: cannot read {path}: {e}"))?;
        sources.push(Source { path, text });
    }
    Ok(sources)
}

/// `git ls-files` for tracked and untracked-but-not-ignored `.rs` files, or `None`
/// when git cannot answer (no git, or not a repository).
fn git_files(root: &Path) -> Option<Vec<String>> {
    let output = Command::new("git")
        .current_dir(root)
        .args(["ls-files", "--cached", "--others", "--exclude-standard", "--", "*.rs"])
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    Some(String::from_utf8_lossy(&output.stdout).lines().map(str::to_owned).collect())
}

/// The `.rs` files under `root/relative`, skipping `target` folders and hidden ones.
fn walk(root: &Path, relative: &str) -> Vec<String> {
    let Ok(entries) = fs::read_dir(root.join(relative)) else { return Vec::new() };
    let mut found = Vec::new();
    for entry in entries.filter_map(std::result::Result::ok) {
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = if relative.is_empty() { name.clone() } else { format!("{relative}/{name}") };
        let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        if is_dir && name != "target" && !name.starts_with('.') {
            found.extend(walk(root, &path));
        } else if !is_dir && name.ends_with(".rs") {
            found.push(path);
        }
    }
    found
}

/// The paths that hold only tests: by their place ([`scan::is_test_path`]), and the
/// files of modules declared `#[cfg(test)] mod NAME;`.
pub(super) fn test_files(sources: &[Source]) -> BTreeSet<String> {
    let mut tests: BTreeSet<String> =
        sources.iter().map(|s| s.path.clone()).filter(|p| scan::is_test_path(p)).collect();
    for source in sources {
        let dir = scan::module_dir(&source.path);
        for name in scan::test_module_files(&source.text) {
            let prefix = if dir.is_empty() { String::new() } else { format!("{dir}/") };
            tests.insert(format!("{prefix}{name}.rs"));
            tests.insert(format!("{prefix}{name}/mod.rs"));
        }
    }
    tests
}
