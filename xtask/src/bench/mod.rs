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
mod footprint;
mod report;

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Map, Value};

use crate::steps::{Result, cargo, root, run};
use child::{Job, timed};
use report::{Report, TraceRow};

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
        let target =
            std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root().join("target"), |d| root().join(d));
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
    let side = side_by_side(&ctx, runs, &mut report.notes)?;
    report.traces = every_trace(&ctx)?;
    let largest = largest(&report.traces)?;
    let replay = replay_on(&ctx, &largest.name, runs)?;
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

/// host-sim and AccaSim on NASA, run by run.
#[derive(Debug, Default)]
struct SideBySide {
    hostsim_jobs_per_s: f64,
    hostsim_peak_rss_mib: Option<f64>,
    accasim_jobs_per_s: Option<f64>,
    accasim_peak_rss_mib: Option<f64>,
    /// The median of the per-pair ratios host-sim / AccaSim.
    ratio: Option<f64>,
}

fn side_by_side(ctx: &Context, runs: u32, notes: &mut Vec<String>) -> Result<SideBySide> {
    let trace = ctx.trace(NASA)?;
    let hostsim = ctx.host_sim_job(trace, &ctx.out.join("x.log"));
    let accasim = match accasim::setup(&ctx.target) {
        Ok(a) => Some(a.job(&accasim::plain_trace(trace, &ctx.out)?, &ctx.out.join("accasim"))),
        Err(why) => {
            notes.push(format!("AccaSim could not be had, its figures are null: {why}"));
            None
        }
    };
    progress(&format!("side by side on {NASA}: one warm-up, then {runs} runs each, alternating"));
    hostsim_rate(&hostsim)?;
    accasim.as_ref().map(accasim_rate).transpose()?;
    let (mut ours, mut theirs, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for run in 1..=runs {
        let h = hostsim_rate(&hostsim)?;
        ours.push(h);
        if let Some(a) = accasim.as_ref().map(accasim_rate).transpose()? {
            theirs.push(a);
            ratios.push(h / a);
        }
        progress(&format!("run {run}/{runs}: host-sim {h:.0} jobs/s, AccaSim {:?} jobs/s", theirs.last()));
    }
    notes.push(format!(
        "side by side: {NASA}; host-sim run --machines {MACHINES} --slack {SLACK} --log --json \
         against AccaSim FIFO + first fit on the trace's processors; jobs/s = trace job lines / process wall time; \
         medians of {runs} alternating runs, ratio = median of the per-pair ratios"
    ));
    Ok(SideBySide {
        hostsim_jobs_per_s: median(ours).unwrap_or_default(),
        hostsim_peak_rss_mib: child::peak_rss_mib(&hostsim, &ctx.out)?,
        accasim_jobs_per_s: median(theirs),
        accasim_peak_rss_mib: accasim
            .as_ref()
            .map(|a| child::peak_rss_mib(a, &ctx.out))
            .transpose()?
            .flatten(),
        ratio: median(ratios),
    })
}

/// Trace job lines per second of wall time, end to end.
fn hostsim_rate(job: &Job) -> Result<f64> {
    let run = timed(job)?;
    Ok(hostsim_jobs(&run.stdout)? as f64 / run.wall.as_secs_f64())
}

fn accasim_rate(job: &Job) -> Result<f64> {
    let run = timed(job)?;
    Ok(accasim::jobs(&run.stdout)? as f64 / run.wall.as_secs_f64())
}

/// Every job line host-sim read: those it submitted and those it left out by reason.
fn hostsim_jobs(stdout: &str) -> Result<u64> {
    let summary: Value = serde_json::from_str(stdout).map_err(|e| format!("host-sim --json output: {e}"))?;
    let submitted = summary["jobs"].as_u64().ok_or("host-sim --json output has no `jobs`")?;
    let excluded: u64 =
        summary["excluded"].as_object().map_or(0, |reasons| reasons.values().filter_map(Value::as_u64).sum());
    Ok(submitted + excluded)
}

/// host-sim once, `replay verify` once and the grid once on every shared trace.
fn every_trace(ctx: &Context) -> Result<Vec<TraceRow>> {
    let mut rows = Vec::new();
    for trace in &ctx.traces {
        let name = trace_name(trace);
        let log = ctx.out.join(format!("{name}.log"));
        let job = ctx.host_sim_job(trace, &log);
        let sim = timed(&job)?;
        let (records, verify) = verify(ctx, &log)?;
        let grid = grid(ctx, trace, &name)?;
        let row = TraceRow {
            jobs: hostsim_jobs(&sim.stdout)?,
            hostsim_s: sim.wall.as_secs_f64(),
            peak_rss_mib: child::peak_rss_mib(&job, &ctx.out)?,
            records,
            verify_s: verify.as_secs_f64(),
            log_bytes: std::fs::metadata(&log).map_err(|e| format!("{}: {e}", log.display()))?.len(),
            grid_s: grid.as_secs_f64(),
            name,
        };
        progress(&format!(
            "{}: {} jobs in {:.3} s, {} records verified in {:.3} s, grid in {:.1} s",
            row.name, row.jobs, row.hostsim_s, row.records, row.verify_s, row.grid_s
        ));
        rows.push(row);
    }
    Ok(rows)
}

/// `replay verify LOG`: the records it verified and how long it took.
fn verify(ctx: &Context, log: &Path) -> Result<(u64, Duration)> {
    let run = timed(&Job::new(ctx.replay()).arg("verify").arg(log))?;
    // "<log>: verified N records (...)"
    let records = run
        .stdout
        .split_once(": verified ")
        .and_then(|(_, rest)| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| format!("replay verify printed no record count: {}", run.stdout))?;
    Ok((records, run.wall))
}

/// The thesis' default grid over one trace: `host-sim sweep` with its defaults.
fn grid(ctx: &Context, trace: &Path, name: &str) -> Result<Duration> {
    progress(&format!(
        "grid on {name}: host-sim sweep (sf 1..20, 1..64 machines, single and multi, 7d windows)"
    ));
    let out = ctx.out.join("sweep").join(name);
    let job = Job::new(ctx.host_sim()).arg("sweep").arg("--trace").arg(trace).arg("--out").arg(out);
    Ok(timed(&job)?.wall)
}

fn largest(traces: &[TraceRow]) -> Result<TraceRow> {
    traces.iter().max_by_key(|t| t.jobs).cloned().ok_or_else(|| "no shared traces".to_owned())
}

/// `replay verify` on the log of `name`, `runs` times: records per second and bytes
/// per record.
#[derive(Debug)]
struct ReplayFigures {
    records_per_s: f64,
    bytes_per_record: f64,
}

fn replay_on(ctx: &Context, name: &str, runs: u32) -> Result<ReplayFigures> {
    let log = ctx.out.join(format!("{name}.log"));
    let mut rates = Vec::new();
    let mut records = 0;
    for _ in 0..runs {
        let (n, wall) = verify(ctx, &log)?;
        records = n;
        rates.push(n as f64 / wall.as_secs_f64());
    }
    let bytes = std::fs::metadata(&log).map_err(|e| format!("{}: {e}", log.display()))?.len();
    Ok(ReplayFigures {
        records_per_s: median(rates).unwrap_or_default(),
        bytes_per_record: bytes as f64 / records.max(1) as f64,
    })
}
