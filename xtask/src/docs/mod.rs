//! `cargo xtask docs`: every command the Markdown shows is run, and the output it
//! shows is compared (a step of `verify`).
//!
//! The files: README.md, ARCHITECTURE.md and every `.md` under `docs/`. Every fence
//! carries a language. A ```` ```console ```` block is a test, read by the `trycmd`
//! crate: `$ PROGRAM ARGS` runs, `> ` continues the command, `? STATUS` states the exit
//! status, and the lines after it are the expected standard output and error, merged;
//! a line `...` stands for any lines and `[..]` for any text within one; output that
//! ends on a line of text is followed by an empty line, since trycmd drops the last
//! newline ([`console_ending`] checks it). The programs
//! are the release `host-sim` and `replay` and a few file tools ([`TOOLS`]). A
//! ```` ```sh ```` block holds only the commands this step does not run, each checked
//! instead ([`sh_line`]): `cargo xtask` lines must parse as xtask's own command line;
//! `cargo`, `rustup`, `apt-get` and `pip` lines are the setup and steps `verify` runs
//! itself.
//!
//! Each file runs in a scratch folder of its own, `target/xtask/docs/NAME/main`, made
//! fresh with copies of the example inputs ([`INPUTS`]) and an empty `out/`, and with
//! `../shared` beside it, as a fresh clone has. A file whose commands need the
//! `optimum` feature ([`NEEDS_OPTIMUM`]) runs only in a build that has it. `--bless`
//! writes what the commands printed back into the Markdown, for review.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use clap::Parser;

use crate::cmd::{Result, host_sim_bin, in_ci, render, replay_bin, root, target_dir};

/// The repository folders copied into each scratch folder: the inputs the docs name.
const INPUTS: &[&str] = &["scenarios", "examples", "snapshots/logs"];

/// The file tools a console block may run besides `host-sim` and `replay`.
const TOOLS: &[&str] = &["mkdir", "head", "ls", "cat", "wc", "gzip", "cmp"];

/// Files whose commands run only where `host-sim` was built with `optimum` (HiGHS).
const NEEDS_OPTIMUM: &[&str] = &["docs/competitive-factor.md"];

/// The first words of a `sh` block's lines: setup, and steps `verify` runs itself.
const SH_PROGRAMS: &[&str] = &["cargo", "rustup", "apt-get", "pip", "python3"];

pub fn docs(bless: bool, only: &[PathBuf]) -> Result {
    let files = if only.is_empty() { markdown_files()? } else { only.iter().map(|f| resolve(f)).collect() };
    let mut runnable = Vec::new();
    for file in &files {
        let text =
            fs::read_to_string(file).map_err(|e| format!("docs: cannot read {}: {e}", file.display()))?;
        if check_fences(&relative(file), &text)? {
            runnable.push(file.clone());
        }
    }
    println!("==> docs: {} files, every fence tagged, every sh line checked", files.len());
    if runnable.is_empty() {
        return Ok(());
    }
    let shared = root().join("../shared");
    if !shared.is_dir() {
        if in_ci() {
            return Err(format!("docs: {} is missing, and CI=true requires it", shared.display()));
        }
        println!(
            "==> docs: SKIPPED running the commands, {} is absent (required when CI=true)",
            shared.display()
        );
        return Ok(());
    }
    let optimum = crate::toolchain::optimum()?;
    crate::toolchain::build_release_tools("docs: build release tools")?;
    let mut failed = Vec::new();
    for file in &runnable {
        let name = relative(file);
        if !optimum && NEEDS_OPTIMUM.contains(&name.as_str()) {
            println!("==> docs {name}: SKIPPED, its commands need the `optimum` feature (see above)");
            continue;
        }
        if !run_file(file, &name, &shared, bless)? {
            failed.push(name);
        }
    }
    match failed.as_slice() {
        [] => Ok(()),
        names => Err(format!(
            "docs: the commands of {} did not print what they show (above); `cargo xtask docs --bless FILE` \
             writes what they printed into the file, for review",
            names.join(", ")
        )),
    }
}

/// Runs one file's console blocks in a fresh scratch folder; whether they all passed.
fn run_file(file: &Path, name: &str, shared: &Path, bless: bool) -> Result<bool> {
    let scratch = target_dir().join("xtask/docs").join(name.replace('/', "-").trim_end_matches(".md"));
    let main = scratch.join("main");
    let fail = |what: &str, path: &Path, e: std::io::Error| {
        format!("docs {name}: cannot {what} {}: {e}", path.display())
    };
    if main.exists() {
        fs::remove_dir_all(&main).map_err(|e| fail("remove", &main, e))?;
    }
    fs::create_dir_all(main.join("out")).map_err(|e| fail("create", &main, e))?;
    for input in INPUTS {
        let from = root().join(input);
        if from.is_dir() {
            copy_dir(&from, &main.join(input)).map_err(|e| fail("copy", &from, e))?;
        }
    }
    let link = scratch.join("shared");
    if fs::symlink_metadata(&link).is_err() {
        std::os::unix::fs::symlink(shared.canonicalize().unwrap_or(shared.to_path_buf()), &link)
            .map_err(|e| fail("link", &link, e))?;
    }
    let exe = std::env::current_exe().map_err(|e| format!("docs: cannot find xtask itself: {e}"))?;
    let mut case = Command::new(exe);
    case.arg("docs-case").arg(file).current_dir(&main).env("RUST_BACKTRACE", "0");
    if bless {
        case.env("TRYCMD", "overwrite");
    }
    println!("==> docs {name}: {} (in {})", render(&case), main.display());
    let status = case.status().map_err(|e| format!("docs {name}: cannot start {}: {e}", render(&case)))?;
    Ok(status.success())
}

/// The child process of one file: trycmd runs its console blocks from this folder.
pub fn docs_case(file: &Path) -> Result {
    let cases = trycmd::TestCases::new();
    cases.case(file).register_bin("host-sim", host_sim_bin()).register_bin("replay", replay_bin());
    for tool in TOOLS {
        if let Some(path) = on_path(tool) {
            cases.register_bin(*tool, path);
        }
    }
    cases.env("NO_COLOR", "1").timeout(std::time::Duration::from_secs(300));
    // trycmd reports each case and panics when one fails, which exits this process
    // non-zero; the parent names the file.
    cases.run();
    Ok(())
}

/// Checks every fence of `text` (from `name`); whether it holds a console block.
fn check_fences(name: &str, text: &str) -> Result<bool> {
    let mut console = false;
    let mut lines = text.lines().enumerate();
    while let Some((at, line)) = lines.next() {
        let trimmed = line.trim_start();
        let Some(info) = trimmed.strip_prefix("```") else { continue };
        let fence = &trimmed[..3 + info.len() - info.trim_start_matches('`').len()];
        let lang = info.trim_start_matches('`').split(',').next().unwrap_or("").trim();
        let here = format!("{name}:{}", at + 1);
        if lang.is_empty() {
            return Err(format!(
                "docs {here}: a fence without a language, which trycmd would run as commands; tag it (`text` for plain text)"
            ));
        }
        let is_console = lang == "console" || lang == "trycmd";
        if is_console && trimmed.len() != line.len() {
            return Err(format!(
                "docs {here}: an indented console block, which trycmd would not run; unindent it"
            ));
        }
        console |= is_console;
        let mut body = Vec::new();
        for (at, line) in lines.by_ref() {
            if line.trim_start().starts_with(fence) {
                break;
            }
            body.push((at + 1, line));
        }
        if is_console {
            console_ending(&body).map_err(|e| format!("docs {name}:{e}"))?;
        }
        if matches!(lang, "sh" | "bash" | "shell") {
            for (at, command) in joined(&body) {
                sh_line(&command).map_err(|e| format!("docs {name}:{at}: `{command}`: {e}"))?;
            }
        }
    }
    Ok(console)
}

/// trycmd drops the last newline of the shown output, so output that ends on a line of
/// text would never match a program's: it must end with an empty line, or with `...`.
fn console_ending(body: &[(usize, &str)]) -> Result {
    match body.last() {
        Some(&(at, last))
            if !last.is_empty()
                && last != "..."
                && !["$ ", "> ", "? "].iter().any(|p| last.starts_with(p)) =>
        {
            Err(format!(
                "{at}: the shown output ends on a line of text; add an empty line after it (trycmd drops the \
                 last newline) or end it with `...`"
            ))
        }
        _ => Ok(()),
    }
}

/// A `sh` block's commands, continuation lines joined, comments and blank lines left
/// out, each with its first line's number.
fn joined(body: &[(usize, &str)]) -> Vec<(usize, String)> {
    let mut commands: Vec<(usize, String)> = Vec::new();
    let mut open = false;
    for &(at, line) in body {
        let code = line.split(" #").next().unwrap_or("").trim();
        if !open && (code.is_empty() || code.starts_with('#')) {
            continue;
        }
        let (part, continues) = match code.strip_suffix('\\') {
            Some(part) => (part.trim(), true),
            None => (code, false),
        };
        if open && let Some((_, command)) = commands.last_mut() {
            command.push(' ');
            command.push_str(part);
        } else {
            commands.push((at, part.to_owned()));
        }
        open = continues;
    }
    commands
}

/// One command of a `sh` block: a setup program, or an xtask command line that parses.
fn sh_line(command: &str) -> Result {
    let words: Vec<&str> = command.split_whitespace().collect();
    let program = words.first().copied().unwrap_or("");
    if !SH_PROGRAMS.contains(&program) {
        return Err(format!(
            "a sh block holds only {} lines, which this step checks rather than runs; show `{program}` in a \
             console block, which it runs",
            SH_PROGRAMS.join(", ")
        ));
    }
    if words.get(1) == Some(&"xtask") {
        crate::Cli::try_parse_from(std::iter::once("xtask").chain(words[2..].iter().copied())).map_err(
            |e| format!("not an xtask command line: {}", e.to_string().lines().next().unwrap_or("")),
        )?;
    }
    Ok(())
}

/// README.md, ARCHITECTURE.md and every `.md` under `docs/`, sorted.
fn markdown_files() -> Result<Vec<PathBuf>> {
    let mut files = vec![root().join("README.md"), root().join("ARCHITECTURE.md")];
    let mut folders = vec![root().join("docs")];
    while let Some(folder) = folders.pop() {
        let entries =
            fs::read_dir(&folder).map_err(|e| format!("docs: cannot read {}: {e}", folder.display()))?;
        for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|x| x == "md") {
                files.push(path);
            }
        }
    }
    files[2..].sort();
    Ok(files.into_iter().map(|f| f.canonicalize().unwrap_or(f)).collect())
}

/// A file named on the command line: as given when it exists, else from the root.
fn resolve(file: &Path) -> PathBuf {
    let path = if file.exists() { file.to_path_buf() } else { root().join(file) };
    path.canonicalize().unwrap_or(path)
}

/// The file's path from the workspace root, as messages name it.
fn relative(file: &Path) -> String {
    let root = root().canonicalize().unwrap_or_else(|_| root());
    file.strip_prefix(&root).unwrap_or(file).to_string_lossy().into_owned()
}

fn on_path(tool: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|dir| dir.join(tool)).find(|p| p.is_file())
}

fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    fs::create_dir_all(to)?;
    for entry in fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else {
            fs::copy(entry.path(), target)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
