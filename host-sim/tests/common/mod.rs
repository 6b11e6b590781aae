//! What host-sim's integration tests share: running the binary, and a small
//! hand-made trace for the reservation runs.
#![allow(dead_code)] // Each test file uses its own part.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Eight jobs on a 16-node machine, with allocated (field 5) and requested (field 8)
/// processors, for the reservation tests; every figure they assert was worked out
/// by hand from these lines.
pub const HAND_TRACE: &str = "\
; MaxNodes: 16
1 0 0 600 8 -1 -1 8 900 -1 1 1 1 1 1 1 -1 -1
2 100 0 1200 16 -1 -1 16 1800 -1 1 1 1 1 1 1 -1 -1
3 200 0 900 12 -1 -1 12 900 -1 1 1 1 1 1 1 -1 -1
4 300 0 3000 10 -1 -1 10 3600 -1 1 1 1 1 1 1 -1 -1
5 400 0 1800 6 -1 -1 6 1800 -1 1 1 1 1 1 1 -1 -1
6 500 0 600 16 -1 -1 16 600 -1 1 1 1 1 1 1 -1 -1
7 600 0 2400 4 -1 -1 4 3600 -1 1 1 1 1 1 1 -1 -1
8 700 0 1200 14 -1 -1 14 1800 -1 1 1 1 1 1 1 -1 -1
";

pub fn host_sim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_host-sim")).args(args).output().expect("the host-sim binary runs")
}

/// Runs host-sim from the working directory `dir`.
pub fn host_sim_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_host-sim"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("the host-sim binary runs")
}

/// The standard output of a run that must succeed.
pub fn stdout(output: &Output) -> String {
    assert!(output.status.success(), "failed: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The standard error of a run that must fail cleanly, without a panic.
pub fn stderr_of_failure(output: &Output) -> String {
    assert!(!output.status.success(), "expected a failure");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr
}

/// A scratch directory for this test process.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("host-sim-test-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
