//! host-sim and `replay verify` on every shared trace, the thesis' grid on each, and
//! the replay figures on the largest.

use std::path::Path;
use std::time::Duration;

use super::child::{self, Job, timed};
use super::context::{Context, median, progress, trace_name};
use super::report::TraceRow;
use super::side_by_side::hostsim_jobs;
use crate::cmd::Result;

/// host-sim once, `replay verify` once and the grid once on every shared trace.
pub fn every_trace(ctx: &Context) -> Result<Vec<TraceRow>> {
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

pub fn largest(traces: &[TraceRow]) -> Result<TraceRow> {
    traces.iter().max_by_key(|t| t.jobs).cloned().ok_or_else(|| "no shared traces".to_owned())
}

/// `replay verify` on the log of `name`, `runs` times: records per second and bytes
/// per record.
#[derive(Debug)]
pub struct ReplayFigures {
    pub records_per_s: f64,
    pub bytes_per_record: f64,
}

pub fn replay_on(ctx: &Context, name: &str, runs: u32) -> Result<ReplayFigures> {
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
