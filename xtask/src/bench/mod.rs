//! `cargo xtask bench`: every performance figure of `docs/performance.md`, measured
//! in one run on this machine, next to its goal.
//!
//! In order: the kernel's figures (`cargo bench -p host-sim --bench figures`, which
//! prints them as JSON); host-sim end to end and AccaSim on the NASA trace, run after
//! run, alternating; host-sim and `replay verify` on every shared trace; the thesis'
//! full grid (`host-sim sweep`) over every shared trace; the kernel's code size for
//! `thumbv7em-none-eabihf`. Scratch files go to `<target>/xtask/bench/`.
//! Progress goes to stderr; the report to stdout, with `--json` ending in one line
//! that holds every figure as a JSON object.

mod accasim;
mod child;
mod figures;
pub(crate) mod footprint;
mod report;
mod side_by_side;
mod traces;

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::steps::{Result, cargo, root, run, target_dir};
use child::Job;
use report::Report;

/// The trace of the side-by-side runs.
const NASA: &str = "NASA-iPSC-1993-3.1-cln";
/// host-sim's set-up end to end: one level, sf 2, on its largest machine count.
const MACHINES: &str = "64";
const SLACK: &str = "2";

/// Paths every step needs.
#[derive(Debug)]
struct Context {
    /// Cargo's target directory (`CARGO_TARGET_DIR`, else `target/`).
    target: PathBuf,
    /// Scratch space: logs, sweeps, the decompressed trace.
    out: PathBuf,
    /// Every `.swf.gz` of `../shared/traces/`, by name.
    traces: Vec<PathBuf>,
}

impl Context {
    fn new() -> Result<Self> {
        let target = target_dir();
        let out = target.join("xtask/bench");
        std::fs::create_dir_all(&out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
        Ok(Self { target, out, traces: shared_traces()? })
    }

    fn host_sim(&self) -> PathBuf {
        self.target.join("release/host-sim")
    }

    fn replay(&self) -> PathBuf {
        self.target.join("release/replay")
    }

    fn trace(&self, name: &str) -> Result<&Path> {
        self.traces
            .iter()
            .find(|t| trace_name(t) == name)
            .map(PathBuf::as_path)
            .ok_or_else(|| format!("the shared trace {name} is missing"))
    }

    /// host-sim end to end on `trace`, its log to `log`, its metrics as JSON.
    fn host_sim_job(&self, trace: &Path, log: &Path) -> Job {
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
fn trace_name(path: &Path) -> String {
    let file = path.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    file.trim_end_matches(".gz").trim_end_matches(".swf").to_owned()
}

fn progress(message: &str) {
    eprintln!("==> bench: {message}");
}

fn median(mut xs: Vec<f64>) -> Option<f64> {
    xs.sort_by(f64::total_cmp);
    xs.get(xs.len() / 2).copied()
}

pub fn bench(json: bool, runs: u32) -> Result {
    let runs = runs.max(1);
    let ctx = Context::new()?;
    run(
        "bench: build release tools",
        cargo().args(["build", "--release", "-p", "host-sim", "-p", "replay"]),
    )?;
    let mut report = Report { kernel: kernel_figures()?, ..Report::default() };
    let side = side_by_side::run(&ctx, runs, &mut report.notes)?;
    report.traces = traces::every_trace(&ctx)?;
    let largest = traces::largest(&report.traces)?;
    let replay = traces::replay_on(&ctx, &largest.name, runs)?;
    report.notes.push(format!(
        "replay figures: `replay verify` on the log of {}, the largest shared trace, median of {runs} runs",
        largest.name
    ));
    let grid_s: f64 = report.traces.iter().map(|t| t.grid_s).sum();
    let code_bytes = footprint::code_bytes(&ctx.target)
        .inspect_err(|why| report.notes.push(format!("kernel code size not measured: {why}")))
        .ok();
    report.figures = figures::all(&report.kernel, &side, &replay, largest.peak_rss_mib, grid_s, code_bytes);
    if !child::has_gnu_time() {
        report
            .notes
            .push("peak RSS not measured: /usr/bin/time is missing (`apt-get install time`)".to_owned());
    }
    print(&report, json);
    Ok(())
}

fn print(report: &Report, json: bool) {
    println!("\n{}", report.table());
    if json {
        println!("{}", report.json());
    }
}

/// Runs the kernel figures bench and returns its JSON object (its last stdout line).
fn kernel_figures() -> Result<Map<String, Value>> {
    progress("kernel figures: cargo bench -p host-sim --bench figures");
    let output = cargo()
        .args(["bench", "-p", "host-sim", "--bench", "figures"])
        .stderr(std::process::Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run the figures bench: {e}"))?;
    if !output.status.success() {
        return Err(format!("the figures bench exited with {}", output.status));
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    let last = stdout.lines().rev().find(|l| l.starts_with('{')).unwrap_or_default();
    match serde_json::from_str(last) {
        Ok(Value::Object(map)) => Ok(map),
        _ => Err(format!("the figures bench printed no JSON object; its output:\n{stdout}")),
    }
}
