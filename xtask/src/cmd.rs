//! The workspace and how a step runs a command: its root, cargo's target directory,
//! the release binaries, the shared traces, and running, echoing and describing a
//! command. Every other module builds on these, and this one imports none of them, so
//! the modules' dependencies run one way.

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

pub(crate) type Result<T = ()> = std::result::Result<T, String>;

/// The workspace root: xtask lives one level below it.
pub(crate) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// Cargo's target directory: `CARGO_TARGET_DIR` (relative to the root) or `target/`.
pub(crate) fn target_dir() -> PathBuf {
    env::var_os("CARGO_TARGET_DIR").map_or_else(|| root().join("target"), |dir| root().join(dir))
}

pub(crate) fn cargo() -> Command {
    let mut cmd = Command::new(env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.current_dir(root());
    cmd
}

/// `cargo +nightly ...` through the rustup proxy: the `CARGO` that runs xtask is the
/// stable toolchain's own binary, which does not understand `+nightly`, and its
/// environment would pin nested cargo calls to stable.
pub(crate) fn nightly_cargo() -> Command {
    let mut cmd = Command::new("cargo");
    cmd.current_dir(root()).arg("+nightly");
    for var in ["CARGO", "RUSTUP_TOOLCHAIN", "RUSTC", "RUSTDOC", "CARGO_TARGET_DIR"] {
        cmd.env_remove(var);
    }
    cmd
}

/// Runs `cmd`, echoing it; a non-zero exit is an error naming `step`.
pub(crate) fn run(step: &str, cmd: &mut Command) -> Result {
    println!("==> {step}: {}", render(cmd));
    let status = cmd.status().map_err(|e| format!("{step}: cannot start {}: {e}", render(cmd)))?;
    if status.success() { Ok(()) } else { Err(format!("{step}: `{}` exited with {status}", render(cmd))) }
}

/// Whether `cmd` runs and exits zero, quietly.
pub(crate) fn works(cmd: &mut Command) -> bool {
    cmd.stdout(Stdio::null()).stderr(Stdio::null());
    cmd.status().is_ok_and(|s| s.success())
}

pub(crate) fn render(cmd: &Command) -> String {
    let args: Vec<_> = cmd.get_args().map(|a| a.to_string_lossy().into_owned()).collect();
    format!("{} {}", cmd.get_program().to_string_lossy(), args.join(" "))
}

/// A step this machine lacks the tools for: one line naming what is missing, what was
/// therefore not checked and the single command that installs it. With `CI=true` it is
/// an error instead: a CI run skips nothing.
pub(crate) fn skipped(step: &str, missing: &str, lost: &str, install: &str) -> Result {
    let line = format!(
        "{step}: SKIPPED, {missing} not found, so {lost} (install: `{install}`; .ci/run installs it)"
    );
    if in_ci() {
        return Err(format!("{line}, and CI=true skips nothing"));
    }
    println!("==> {line}");
    Ok(())
}

pub(crate) fn in_ci() -> bool {
    env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

pub(crate) fn replay_bin() -> PathBuf {
    target_dir().join("release/replay")
}

pub(crate) fn host_sim_bin() -> PathBuf {
    target_dir().join("release/host-sim")
}

/// The shared traces, sorted by name; `None` (with a notice) when the folder is
/// absent, which is an error when `CI=true`.
pub(crate) fn shared_traces(step: &str) -> Result<Option<Vec<PathBuf>>> {
    let dir = root().join("../shared/traces");
    let Ok(entries) = fs::read_dir(&dir) else {
        if in_ci() {
            return Err(format!("{step}: {} is missing, and CI=true requires it", dir.display()));
        }
        println!("==> {step}: SKIPPED, {} is absent (required when CI=true)", dir.display());
        return Ok(None);
    };
    let mut traces: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".swf.gz") || p.to_string_lossy().ends_with(".swf"))
        .collect();
    traces.sort();
    Ok(Some(traces))
}

/// Waits for `child`, which `what` names in errors, and stops it once it has run for
/// `limit`: an emulator that hangs fails its step instead of the whole run.
pub(crate) fn wait_within(child: &mut Child, limit: Duration, what: &str) -> Result<ExitStatus> {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().map_err(|e| format!("{what}: waiting: {e}"))? {
            return Ok(status);
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("{what} ran past {} s and was stopped", limit.as_secs()));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}
