//! host-sim end to end and AccaSim on the same trace, run after run, alternating, so
//! that both see the same machine conditions; medians, and the median of the
//! per-pair ratios.

use std::path::Path;

use serde_json::Value;

use super::accasim;
use super::child::{self, Job, timed};
use super::context::{Context, MACHINES, NASA, SLACK, median, progress};
use crate::cmd::Result;

/// host-sim and AccaSim on NASA, run by run.
#[derive(Debug, Default)]
pub struct SideBySide {
    pub hostsim_jobs_per_s: f64,
    pub hostsim_peak_rss_mib: Option<f64>,
    pub accasim_jobs_per_s: Option<f64>,
    pub accasim_peak_rss_mib: Option<f64>,
    /// The median of the per-pair ratios host-sim / AccaSim.
    pub ratio: Option<f64>,
}

pub fn run(ctx: &Context, runs: u32, notes: &mut Vec<String>) -> Result<SideBySide> {
    let trace = ctx.trace(NASA)?;
    let hostsim = ctx.host_sim_job(trace, &ctx.out.join("x.log"));
    progress(&format!("side by side on {NASA}: one warm-up, then {runs} runs each, alternating"));
    hostsim_rate(&hostsim)?;
    let accasim = accasim_job(ctx, trace).inspect_err(|why| notes.push(why.clone())).ok();
    let (mut ours, mut theirs, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for run in 1..=runs {
        let h = hostsim_rate(&hostsim)?;
        ours.push(h);
        if let Some(a) = accasim.as_ref().map(accasim_rate).transpose()? {
            theirs.push(a);
            ratios.push(h / a);
        }
        let accasim_rate = theirs.last().map_or_else(|| "-".to_owned(), |a| format!("{a:.0}"));
        progress(&format!("run {run}/{runs}: host-sim {h:.0} jobs/s, AccaSim {accasim_rate} jobs/s"));
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

/// AccaSim installed, the trace decompressed for it, and one warm-up run done; or
/// why it cannot be had, and then its figures are null.
fn accasim_job(ctx: &Context, trace: &Path) -> std::result::Result<Job, String> {
    let unavailable = |why: String| format!("AccaSim could not be had, its figures are null: {why}");
    let accasim = accasim::setup(&ctx.target).map_err(unavailable)?;
    let job = accasim.job(&accasim::plain_trace(trace, &ctx.out)?, &ctx.out.join("accasim"));
    accasim_rate(&job).map_err(unavailable)?;
    Ok(job)
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
pub fn hostsim_jobs(stdout: &str) -> Result<u64> {
    let summary: Value = serde_json::from_str(stdout).map_err(|e| format!("host-sim --json output: {e}"))?;
    let submitted = summary["jobs"].as_u64().ok_or("host-sim --json output has no `jobs`")?;
    let excluded: u64 =
        summary["excluded"].as_object().map_or(0, |reasons| reasons.values().filter_map(Value::as_u64).sum());
    Ok(submitted + excluded)
}
