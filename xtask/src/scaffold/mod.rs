//! `cargo xtask scaffold`: a fifth model, `accept_all` (every request accepted at
//! once), added to a copy of the workspace by the recipe of ARCHITECTURE.md ("Adding a
//! model"), then measured and built.
//!
//! 1. Copies the workspace's files (what git tracks or would track) to
//!    `target/xtask/scaffold/workspace`.
//! 2. Adds the model: its own files from `xtask/scaffold/` (the same paths as in the
//!    workspace), then the recipe's registration lines ([`recipe::EDITS`]), each after
//!    a line it names, which must be in its file once.
//! 3. Counts the files and lines touched outside the model's own files (a path with a
//!    folder or file named for the model) with `git diff --no-index --numstat`, and
//!    fails past [`MAX_FILES`] files or [`MAX_LINES`] lines.
//! 4. Formats, tidies, lints, builds and tests the copy in its own target folder (a
//!    copy sharing this workspace's would have cargo take one tree's artifacts for the
//!    other's): clippy, the panic-free probe's link (which reaches the new kernel),
//!    the model's tests, the determinism test (which runs every model's sample), and
//!    its run on a trace verified and what-if'ed by the copy's tools.

mod recipe;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use crate::cmd::{Result, root, run, target_dir};
use crate::toolchain::EMBEDDED_TARGET;

/// The new model's name, as every layer names its folder or file.
pub(crate) const NAME: &str = "accept_all";
/// At most this many files outside the model's own are touched.
const MAX_FILES: usize = 12;
/// At most this many lines of those files are touched (added plus removed).
const MAX_LINES: u64 = 60;
/// The templates of the model's own files, by their paths in the workspace.
const TEMPLATES: &str = "xtask/scaffold";

/// The whole step.
pub fn scaffold() -> Result {
    let started = Instant::now();
    let work = target_dir().join("xtask/scaffold");
    let copy = work.join("workspace");
    if copy.exists() {
        fs::remove_dir_all(&copy).map_err(|e| format!("scaffold: cannot empty {}: {e}", copy.display()))?;
    }
    let files = workspace_files(&root())?;
    for file in &files {
        copy_file(&root().join(file), &copy.join(file))?;
    }
    let own = install_templates(&copy)?;
    for edit in recipe::EDITS {
        edit.apply(&copy)?;
    }
    let touched = touched(&copy, &files)?;
    report(&touched, own.len())?;
    build_and_test(&copy, &work.join("target"))?;
    println!("==> scaffold: the fifth model builds, tests and tidies ({:.0?})", started.elapsed());
    Ok(())
}

/// What git tracks or would track under `root`, relative paths.
fn workspace_files(root: &Path) -> Result<Vec<String>> {
    let output = Command::new("git")
        .current_dir(root)
        .args(["ls-files", "-z", "--cached", "--others", "--exclude-standard"])
        .output()
        .map_err(|e| format!("scaffold: cannot run git ls-files (the copy is made from git's list): {e}"))?;
    if !output.status.success() {
        return Err(format!("scaffold: git ls-files failed in {}", root.display()));
    }
    let text = String::from_utf8_lossy(&output.stdout);
    let listed = text.split('\0').filter(|p| !p.is_empty() && root.join(p).is_file());
    Ok(listed.map(str::to_owned).collect())
}

fn copy_file(from: &Path, to: &Path) -> Result {
    if let Some(parent) = to.parent() {
        fs::create_dir_all(parent)
            .map_err(|e| format!("scaffold: cannot create {}: {e}", parent.display()))?;
    }
    fs::copy(from, to).map(drop).map_err(|e| format!("scaffold: cannot copy {}: {e}", from.display()))
}

/// Copies every template into its place in `copy`; returns their paths.
fn install_templates(copy: &Path) -> Result<Vec<String>> {
    let base = root().join(TEMPLATES);
    let mut paths = Vec::new();
    list(&base, "", &mut paths)?;
    for path in &paths {
        if !is_own(path) {
            return Err(format!("scaffold: template {TEMPLATES}/{path} is not a file of the model `{NAME}`"));
        }
        copy_file(&base.join(path), &copy.join(path))?;
    }
    Ok(paths)
}

fn list(base: &Path, relative: &str, out: &mut Vec<String>) -> Result {
    let dir = base.join(relative);
    let entries = fs::read_dir(&dir).map_err(|e| format!("scaffold: cannot read {}: {e}", dir.display()))?;
    let mut names: Vec<_> = entries.filter_map(|e| e.ok()).map(|e| e.file_name()).collect();
    names.sort();
    for name in names {
        let path = if relative.is_empty() {
            name.to_string_lossy().into_owned()
        } else {
            format!("{relative}/{}", name.to_string_lossy())
        };
        if base.join(&path).is_dir() { list(base, &path, out)? } else { out.push(path) }
    }
    Ok(())
}

/// Whether `path` is one of the model's own: a folder or file named for it (its
/// scenario's snapshot, `scenarios__scenarios@accept_all_basic.scn.snap`, included).
pub(crate) fn is_own(path: &str) -> bool {
    path.split('/').any(|part| part.contains(NAME))
}

/// A file touched outside the model's own: its path, lines added and removed.
type Touched = (String, u64, u64);

/// Every file of `copy` that is not the model's own and differs from the workspace's.
/// (The templates are all the model's own: `install_templates` refuses any other.)
fn touched(copy: &Path, files: &[String]) -> Result<Vec<Touched>> {
    let mut found = Vec::new();
    for path in files.iter().filter(|p| !is_own(p)) {
        let (before, after) = (root().join(path), copy.join(path));
        if fs::read(&before).ok() == fs::read(&after).ok() {
            continue;
        }
        let output = Command::new("git")
            .args(["diff", "--no-index", "--numstat", "--"])
            .args([&before, &after])
            .output()
            .map_err(|e| format!("scaffold: cannot run git diff: {e}"))?;
        let text = String::from_utf8_lossy(&output.stdout);
        let mut numbers = text.split_whitespace().map(|n| n.parse::<u64>().unwrap_or(0));
        found.push((path.clone(), numbers.next().unwrap_or(0), numbers.next().unwrap_or(0)));
    }
    Ok(found)
}

/// Prints the touched files and holds them to the limits.
fn report(touched: &[Touched], own: usize) -> Result {
    let lines: u64 = touched.iter().map(|(_, added, removed)| added + removed).sum();
    println!("==> scaffold: `{NAME}`: {own} files of its own; outside them:");
    for (path, added, removed) in touched {
        println!("    {path}: +{added} -{removed}");
    }
    println!("    {} files, {lines} lines (at most {MAX_FILES} files and {MAX_LINES} lines)", touched.len());
    if touched.len() > MAX_FILES || lines > MAX_LINES {
        return Err(format!(
            "scaffold: a fifth model touches {} files and {lines} lines outside its own, past the limits of \
             {MAX_FILES} files and {MAX_LINES} lines",
            touched.len()
        ));
    }
    Ok(())
}

/// Formats, tidies, builds and tests the copy with `target` as its target folder.
fn build_and_test(copy: &Path, target: &PathBuf) -> Result {
    let cargo = |args: &[&str]| {
        let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
        // The copy lies inside this workspace's target folder, which git ignores: git
        // must not find this repository from there (tidy then walks the copy's files).
        let outside = copy.parent().unwrap_or(copy);
        cmd.current_dir(copy)
            .env("CARGO_TARGET_DIR", target)
            .env("GIT_CEILING_DIRECTORIES", outside)
            .args(args);
        cmd
    };
    run("scaffold: fmt", &mut cargo(&["fmt", "--all", "--check"]))?;
    run("scaffold: tidy", &mut cargo(&["run", "-q", "-p", "xtask", "--", "tidy"]))?;
    let models = ["-p", "admission-kernel", "-p", "replay", "-p", "host-sim", "-p", "snapshots"];
    run("scaffold: clippy", &mut cargo(&[&["clippy"], &models[..], &["--", "-D", "warnings"]].concat()))?;
    run("scaffold: build", &mut cargo(&["build", "-p", "host-sim", "-p", "replay"]))?;
    // The new kernel is in the panic-free probe: it links only if no panic can.
    crate::toolchain::ensure_target("scaffold: add embedded target")?;
    let probe = ["--target", EMBEDDED_TARGET, "--features", "link-check", "--manifest-path"];
    let mut link = cargo(&[&["build", "--release"], &probe[..]].concat());
    run("scaffold: panic-free link", link.arg(copy.join("xtask/footprint/Cargo.toml")))?;
    for args in recipe::TESTS {
        let mut test = cargo(&[&["test"], *args].concat());
        run("scaffold: test", test.env("INSTA_UPDATE", "no").env("INSTA_FORCE_PASS", "0"))?;
    }
    recipe::run_model(copy, &target.join("debug"))
}

#[cfg(test)]
mod tests;
