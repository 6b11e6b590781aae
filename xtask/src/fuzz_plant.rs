//! The negative control of the `service_level` fuzz target's competitive-bound checks
//! (run by `cargo xtask fuzz` and so by `verify`, after the smoke runs): the target
//! built with `--features planted-bound`, where `replay`'s `check_case` holds greedy
//! acceptance to `1 - 1/(2f)` instead of the thesis' `1 - 1/f` (a bound that is false),
//! must fail, on a competitive bound, within [`RUNS`] inputs from an empty corpus and a
//! fixed libFuzzer seed, so the check cannot pass by checking nothing. The corpus
//! and the crash artifact live under `target/xtask/fuzz-planted/`, emptied first, so
//! that every run is the same run.

use std::fs;
use std::time::Instant;

use crate::cmd::{Result, nightly_cargo, render, root, target_dir};

/// Inputs the planted run may take; it fails after about 4,000 with seed 1 (two
/// seconds once built).
const RUNS: u32 = 200_000;
/// What `BoundViolation`'s message says when the planted rule is the one broken.
const MARK: &str = "PLANTED (wrong on purpose)";

/// Runs the planted target; `show` prints its whole output (`cargo xtask fuzz --plant`).
pub(crate) fn planted_bound(show: bool) -> Result {
    let dir = target_dir().join("xtask/fuzz-planted");
    let (corpus, artifacts) = (dir.join("corpus"), dir.join("artifacts"));
    let step = "fuzz service_level (planted bound)";
    if dir.exists() {
        fs::remove_dir_all(&dir).map_err(|e| format!("{step}: cannot empty {}: {e}", dir.display()))?;
    }
    for d in [&corpus, &artifacts] {
        fs::create_dir_all(d).map_err(|e| format!("{step}: cannot create {}: {e}", d.display()))?;
    }
    let mut cmd = nightly_cargo();
    cmd.current_dir(root().join("fuzz"))
        .args(["fuzz", "run", "service_level", "--features", "planted-bound"])
        .arg(&corpus)
        .args(["--", "-seed=1", &format!("-runs={RUNS}")])
        .arg(format!("-artifact_prefix={}/", artifacts.display()));
    println!("==> {step}: {}; this must fail", render(&cmd));
    let started = Instant::now();
    let output = cmd.output().map_err(|e| format!("{step}: cannot start {}: {e}", render(&cmd)))?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    if show {
        eprintln!("{stderr}");
    }
    if output.status.success() {
        return Err(format!(
            "{step}: {RUNS} inputs passed although the bound is wrong: the bound checks prove nothing"
        ));
    }
    let lines: Vec<&str> = stderr.lines().collect();
    let Some(at) = lines.iter().position(|l| l.contains(MARK)) else {
        let tail = lines[lines.len().saturating_sub(30)..].join("\n");
        return Err(format!("{step}: the run failed, but not on the planted bound:\n{tail}"));
    };
    println!(
        "==> {step}: negative control: the planted bound fails the target, as it must ({:.1} s):",
        started.elapsed().as_secs_f64()
    );
    for line in &lines[at.saturating_sub(1)..(at + 2).min(lines.len())] {
        println!("    {line}");
    }
    Ok(())
}
