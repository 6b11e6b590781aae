//! What every bench step shares: the paths of a run (`Context`), the side-by-side
//! set-up, the shared traces by name, progress lines and the median. The steps import
//! it, and the bench's driver (`mod.rs`) imports the steps, so nothing goes back up.

use std::path::{Path, PathBuf};

use super::child::Job;
use crate::cmd::{Result, root, target_dir};

/// The trace of the side-by-side runs.
pub(super) const NASA: &str = "NASA-iPSC-1993-3.1-cln";
/// host-sim's set-up end to end: one level, sf 2, on its largest machine count.
pub(super) const MACHINES: &str = "64";
pub(super) const SLACK: &str = "2";

/// Paths every step needs.
#[derive(Debug)]
pub(super) struct Context {
    /// Cargo's target directory (`CARGO_TARGET_DIR`, else `target/`).
    pub(super) target: PathBuf,
    /// Scratch space: logs, sweeps, the decompressed trace.
    pub(super) out: PathBuf,
    /// Every `.swf.gz` of `../shared/traces/`, by name.
    pub(super) traces: Vec<PathBuf>,
}

impl Context {
    pub(super) fn new() -> Result<Self> {
        let target = target_dir();
        let out = target.join("xtask/bench");
        std::fs::create_dir_all(&out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
        Ok(Self { target, out, traces: shared_traces()? })
    }

    pub(super) fn host_sim(&self) -> PathBuf {
        self.target.join("release/host-sim")
    }

    pub(super) fn replay(&self) -> PathBuf {
        self.target.join("release/replay")
    }

    pub(super) fn trace(&self, name: &str) -> Result<&Path> {
        self.traces
            .iter()
            .find(|t| trace_name(t) == name)
            .map(PathBuf::as_path)
            .ok_or_else(|| format!("the shared trace {name} is missing"))
    }

    /// host-sim end to end on `trace`, its log to `log`, its metrics as JSON.
    pub(super) fn host_sim_job(&self, trace: &Path, log: &Path) -> Job {
        Job::new(self.host_sim())
            .arg("run")
            .arg("--trace")
            .arg(trace)
            .arg("--machines")
            .arg(MACHINES)
            .arg("--slack")
            .arg(SLACK)
            .arg("--log")
            .arg(log)
            .arg("--json")
    }
}

fn shared_traces() -> Result<Vec<PathBuf>> {
    let dir = root().join("../shared/traces");
    let entries =
        std::fs::read_dir(&dir).map_err(|e| format!("the benchmarks need {}: {e}", dir.display()))?;
    let mut traces: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".swf.gz"))
        .collect();
    traces.sort();
    Ok(traces)
}

/// `NAME` of `.../NAME.swf.gz`.
pub(super) fn trace_name(path: &Path) -> String {
    let file = path.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    file.trim_end_matches(".gz").trim_end_matches(".swf").to_owned()
}

pub(super) fn progress(message: &str) {
    eprintln!("==> bench: {message}");
}

pub(super) fn median(mut xs: Vec<f64>) -> Option<f64> {
    xs.sort_by(f64::total_cmp);
    xs.get(xs.len() / 2).copied()
}
