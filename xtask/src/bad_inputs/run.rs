//! One case run in its scratch folder, and held to its own words and to the checks
//! every case must pass (no signal, a reason on failure, no debug text, no raw control
//! characters, no line over 1,000 characters, inputs unchanged and no `*.tmp` left).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::cmd::{host_sim_bin, render, replay_bin, root, wait_within};

use super::case::Case;
use super::edits::apply;

/// How long a command may run before it is killed.
const LIMIT: Duration = Duration::from_secs(60);
/// The longest line standard error may have.
const LINE_MAX: usize = 1000;
/// Rust debug text a message must not show.
const DEBUG_TEXT: &[&str] = &["Some(", "Ok(", "Err(", "Os {", "kind: ", "(Payload)"];

/// What a command did.
struct Ran {
    line: String,
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Runs `case` in `scratch`; `Err` is the report of what failed.
pub(super) fn run_case(case: &Case, scratch: &Path) -> Result<(), String> {
    prepare(case, scratch)?;
    let before = snapshot(scratch).map_err(|e| format!("reading the scratch folder: {e}"))?;
    let ran = execute(&case.run, scratch, "out")?;
    let mut problems = Vec::new();
    match ran.code {
        None => problems.push("killed by a signal (a panic that aborts, or a crash)".to_owned()),
        Some(code) if code != case.status => {
            problems.push(format!("status: expected {}, got {code}", case.status))
        }
        Some(_) => {}
    }
    if ran.code != Some(0) && ran.stderr.trim().is_empty() {
        problems.push("it failed without a word on standard error".to_owned());
    }
    problems.extend(missing("stderr", &case.stderr, &ran.stderr));
    problems.extend(missing("stdout", &case.stdout, &ran.stdout));
    problems.extend(message_faults(&ran.stderr));
    let after = snapshot(scratch).map_err(|e| format!("reading the scratch folder: {e}"))?;
    problems.extend(file_faults(&before, &after, &case.changes, ran.code == Some(0)));
    if problems.is_empty() {
        return Ok(());
    }
    Err(format!("  command: {}\n  {}\n  stderr:\n{}", ran.line, problems.join("\n  "), indent(&ran.stderr)))
}

/// The scratch folder made fresh: files, copies, folders, the setup run, the edits made.
fn prepare(case: &Case, scratch: &Path) -> Result<(), String> {
    if scratch.exists() {
        fs::remove_dir_all(scratch).map_err(|e| format!("cannot empty {}: {e}", scratch.display()))?;
    }
    fs::create_dir_all(scratch).map_err(|e| format!("cannot make {}: {e}", scratch.display()))?;
    let write = |name: &str, bytes: &[u8]| {
        let path = scratch.join(name);
        path.parent()
            .map(fs::create_dir_all)
            .transpose()
            .and_then(|_| fs::write(&path, bytes))
            .map_err(|e| format!("cannot write {name}: {e}"))
    };
    for (name, bytes) in &case.files {
        write(name, bytes)?;
    }
    for (name, from) in &case.copies {
        let bytes = fs::read(root().join(from)).map_err(|e| format!("copy: cannot read {from}: {e}"))?;
        write(name, &bytes)?;
    }
    for dir in &case.dirs {
        fs::create_dir_all(scratch.join(dir)).map_err(|e| format!("cannot make folder {dir}: {e}"))?;
    }
    for (i, command) in case.setup.iter().enumerate() {
        let ran = execute(command, scratch, &format!("setup{}", i + 1))?;
        if ran.code != Some(0) {
            return Err(format!("  setup command failed: {}\n  stderr:\n{}", ran.line, indent(&ran.stderr)));
        }
    }
    for edit in &case.edits {
        let path = scratch.join(&edit.file);
        let mut bytes = fs::read(&path).map_err(|e| format!("edit: cannot read {}: {e}", edit.file))?;
        apply(&mut bytes, &edit.change).map_err(|e| format!("edit of {}: {e}", edit.file))?;
        fs::write(&path, bytes).map_err(|e| format!("edit: cannot write {}: {e}", edit.file))?;
    }
    Ok(())
}

/// The words of a command with `{repo}` and `{shared}` put in.
pub(super) fn expand(word: &str) -> String {
    let repo = root();
    let shared = repo.join("../shared");
    word.replace("{repo}", &repo.display().to_string()).replace("{shared}", &shared.display().to_string())
}

/// Runs `command` in `dir`, its output kept beside the folder (`N.STEM.stdout`), and
/// stopped after [`LIMIT`].
fn execute(command: &[String], dir: &Path, stem: &str) -> Result<Ran, String> {
    let program = if command[0] == "host-sim" { host_sim_bin() } else { replay_bin() };
    let args: Vec<String> = command[1..].iter().map(|w| expand(w)).collect();
    let line = format!("{} {}", command[0], args.join(" "));
    let name = dir.file_name().map_or(String::new(), |n| n.to_string_lossy().into_owned());
    let (out_path, err_path) = (sibling(dir, &name, stem, "stdout"), sibling(dir, &name, stem, "stderr"));
    let open = |p: &PathBuf| fs::File::create(p).map_err(|e| format!("cannot make {}: {e}", p.display()));
    let mut cmd = Command::new(&program);
    cmd.args(&args).current_dir(dir).stdin(Stdio::null()).stdout(open(&out_path)?).stderr(open(&err_path)?);
    let mut child = cmd.spawn().map_err(|e| format!("cannot start {}: {e}", render(&cmd)))?;
    let status = wait_within(&mut child, LIMIT, &line)?;
    let read =
        |p: &PathBuf| fs::read(p).map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default();
    Ok(Ran { line, code: status.code(), stdout: read(&out_path), stderr: read(&err_path) })
}

fn sibling(dir: &Path, name: &str, stem: &str, stream: &str) -> PathBuf {
    dir.with_file_name(format!("{name}.{stem}.{stream}"))
}

fn missing(stream: &str, words: &[String], text: &str) -> Vec<String> {
    let absent: Vec<String> =
        words.iter().filter(|w| !text.contains(w.as_str())).map(|w| format!("{w:?}")).collect();
    if absent.is_empty() { Vec::new() } else { vec![format!("missing on {stream}: {}", absent.join(", "))] }
}

/// What no message may hold: Rust debug text, raw control characters, long lines.
pub(super) fn message_faults(stderr: &str) -> Vec<String> {
    let mut faults = Vec::new();
    for pattern in DEBUG_TEXT {
        if stderr.contains(pattern) {
            faults.push(format!("standard error shows Rust debug text: {pattern:?}"));
        }
    }
    if has_word(stderr, "None") {
        faults.push("standard error shows Rust debug text: \"None\"".to_owned());
    }
    if let Some(field) = struct_field(stderr) {
        faults.push(format!("standard error shows a Rust struct: {field:?}"));
    }
    if let Some(c) = stderr.chars().find(|&c| c.is_control() && c != '\n' && c != '\t') {
        faults.push(format!(
            "standard error holds a raw control character {:?}",
            c.escape_unicode().to_string()
        ));
    }
    if let Some((n, line)) = stderr.lines().enumerate().find(|(_, l)| l.chars().count() > LINE_MAX) {
        faults.push(format!(
            "line {} of standard error has {} characters (at most {LINE_MAX})",
            n + 1,
            line.chars().count()
        ));
    }
    faults
}

fn has_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// `Name { field: ` as Rust's debug output writes a struct, if any.
fn struct_field(text: &str) -> Option<&str> {
    text.match_indices(" { ").find_map(|(at, _)| {
        let name = text[..at].rsplit(|c: char| !c.is_alphanumeric() && c != '_').next()?;
        let rest = &text[at + 3..];
        let field = rest.split(|c: char| !c.is_alphanumeric() && c != '_').next()?;
        let starts_upper = name.chars().next().is_some_and(char::is_uppercase);
        let is_field = !field.is_empty() && rest[field.len()..].starts_with(": ");
        (starts_upper && is_field).then(|| &text[at - name.len()..at + 3 + field.len() + 1])
    })
}

/// Every file under `dir` (relative name to its bytes, or to a link's target); other
/// kinds of file (devices, FIFOs) are named with no bytes and never opened.
fn snapshot(dir: &Path) -> std::io::Result<BTreeMap<String, Vec<u8>>> {
    let mut files = BTreeMap::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(folder) = pending.pop() {
        for entry in fs::read_dir(&folder)? {
            let path = entry?.path();
            let kind = fs::symlink_metadata(&path)?.file_type();
            let name = path.strip_prefix(dir).unwrap_or(&path).display().to_string();
            if kind.is_dir() {
                pending.push(path);
            } else if kind.is_symlink() {
                files.insert(name, fs::read_link(&path)?.display().to_string().into_bytes());
            } else if kind.is_file() {
                files.insert(name, fs::read(&path)?);
            } else {
                files.insert(name, Vec::new());
            }
        }
    }
    Ok(files)
}

/// Inputs altered or removed (outside `changes`), new `*.tmp` files left, and any new
/// file outside `changes` when the command failed (an output appears whole or not at all).
fn file_faults(
    before: &BTreeMap<String, Vec<u8>>,
    after: &BTreeMap<String, Vec<u8>>,
    changes: &[String],
    succeeded: bool,
) -> Vec<String> {
    let mut faults = Vec::new();
    for (name, bytes) in before.iter().filter(|(name, _)| !changes.contains(name)) {
        match after.get(name) {
            None => faults.push(format!("{name} was removed")),
            Some(now) if now != bytes => faults.push(format!("{name} was changed")),
            Some(_) => {}
        }
    }
    for name in after.keys().filter(|n| !before.contains_key(*n)) {
        if name.ends_with(".tmp") {
            faults.push(format!("{name} was left behind"));
        } else if !succeeded && !changes.contains(name) {
            faults.push(format!("{name} was made by a command that failed"));
        }
    }
    faults
}

fn indent(text: &str) -> String {
    let text = if text.trim().is_empty() { "(nothing)" } else { text.trim_end() };
    text.lines().map(|l| format!("    {l}")).collect::<Vec<_>>().join("\n")
}
