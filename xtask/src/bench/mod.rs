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
mod context;
mod figures;
mod footprint;
pub mod optimum;
mod report;
mod side_by_side;
mod traces;

use serde_json::{Map, Value};

use crate::cmd::{Result, cargo};
use context::{Context, progress};
use report::Report;

pub fn bench(json: bool, runs: u32) -> Result {
    let runs = runs.max(1);
    let ctx = Context::new()?;
    crate::toolchain::build_release_tools("bench: build release tools")?;
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
