//! `cargo xtask bench --scale`: how every model's run and verification grow with the
//! length of a trace, and what they hold in memory (issue 18's measures).
//!
//! 1. Generated traces of each size asked for (`--scale-jobs`, by default 100,000 and
//!    1,000,000 jobs on 1,024 processors), gzipped, written once under
//!    `target/xtask/scale/` by the corpus' generator.
//! 2. Every model's run (the traces step's runs) with its log, then `replay verify`:
//!    wall time and peak resident memory (GNU time's) of each, and the growth of each
//!    time per doubling of the trace between consecutive sizes,
//!    `(t_b / t_a) ^ (1 / log2(b / a))`: 2.0 is linear.
//!    Beside the traces step's runs, `single+jobs` is the first of them with
//!    `--jobs-out` (the per-job table), so that its memory is measured too.
//! 3. With `--scale-memory N` (10,000,000 is the point), the same runs on a
//!    trace of `N` jobs, written once like the others (about 1 GB of text, 200 MB
//!    gzipped): their peaks and times in a table of their own, with no growth.
//! 4. End to end against decompression: `gzip -dc` of HPC2N, the largest shared trace
//!    (into /dev/null), beside `host-sim run` on it with 64 machines and its log,
//!    alternated fifteen times: the ratio of their medians and the median of the
//!    pairs' ratios, for the build the README's main command makes and, when the
//!    release tools have it, the one with the `optimum` feature.
//! 5. Requests a second end to end on HPC2N's first 200,000 jobs, the measure
//!    of the newer models: `reserve` and `tiers` with their defaults and their logs,
//!    alternated five times, the requests (accepted and rejected, from `replay
//!    verify`) over the median wall time, beside the goals (200,000 and 500,000).

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::cmd::{Result, host_sim_bin, shared_traces, target_dir};
use crate::corpus::shapes::Shape;
use crate::corpus::{self, Row, Run};

/// The sizes measured unless `--scale-jobs` says otherwise.
pub const DEFAULT_SIZES: [u32; 2] = [100_000, 1_000_000];
/// The trace of the end-to-end ratio.
const HPC2N: &str = "HPC2N-2002-2.2-cln.swf.gz";
/// Alternations of the end-to-end comparison: its runs take about 0.06 s each, and a
/// machine's other work moves single runs by more than the changes it measures.
const ROUNDS: usize = 15;

pub fn scale(sizes: &[u32], memory: Option<u32>, runs: &[Run]) -> Result {
    let dir = target_dir().join("xtask/scale");
    std::fs::create_dir_all(&dir).map_err(|e| format!("scale: cannot create {}: {e}", dir.display()))?;
    let runs = with_jobs_out(&dir, runs);
    let mut by_size: Vec<(u32, Vec<Row>)> = Vec::new();
    for &jobs in sizes {
        by_size.push((jobs, measure(&dir, jobs, &runs)?));
    }
    print!("{}", table(&by_size, &runs));
    if let Some(jobs) = memory {
        let rows = measure(&dir, jobs, &runs)?;
        println!("\nmemory at {jobs} jobs (peak resident set of each process):");
        print!("{}", table(&[(jobs, rows)], &runs));
    }
    end_to_end(&dir)
}

/// Every run of `runs` on a generated trace of `jobs` jobs, then its verification.
fn measure(dir: &Path, jobs: u32, runs: &[Run]) -> Result<Vec<Row>> {
    let name: &'static str = Box::leak(format!("scale-{jobs}").into_boxed_str());
    eprintln!("==> scale: {jobs} jobs");
    let trace = corpus::write(dir, &Shape::scale(name, jobs))?;
    // The per-job table of the last length measured: a run replacing it would be
    // timed removing it (620 MB at ten million jobs).
    let _ = std::fs::remove_file(dir.join(JOBS_TABLE));
    runs.iter()
        .map(|&(label, subcommand, options)| {
            corpus::one(dir, ("--trace", &trace), label, subcommand, options)
        })
        .collect()
}

/// Where `single+jobs` writes its per-job table, in the benchmark's folder.
const JOBS_TABLE: &str = "jobs.csv";

/// `runs`, then the first of them again writing its per-job table into `dir`.
fn with_jobs_out(dir: &Path, runs: &[Run]) -> Vec<Run> {
    let mut all = runs.to_vec();
    if let Some(&(_, subcommand, options)) = runs.first() {
        let table: &'static str = Box::leak(dir.join(JOBS_TABLE).display().to_string().into_boxed_str());
        let options: &'static [&'static str] =
            Box::leak([options, &["--jobs-out", table]].concat().into_boxed_slice());
        all.push(("single+jobs", subcommand, options));
    }
    all
}

fn table(by_size: &[(u32, Vec<Row>)], runs: &[Run]) -> String {
    let mut text = format!(
        "\n{:<12} {:>10} {:>9} {:>9} {:>8} {:>8} {:>9} {:>9}\n",
        "model", "jobs", "run s", "verify s", "run x2", "ver. x2", "run MiB", "ver. MiB"
    );
    let mib = |p: Option<f64>| p.map_or_else(|| "-".to_owned(), |p| format!("{p:.1}"));
    for (i, &(label, ..)) in runs.iter().enumerate() {
        let mut previous: Option<(u32, &Row)> = None;
        for (jobs, rows) in by_size {
            let Some(row) = rows.get(i) else { continue };
            let growth = |now: Duration, then: fn(&Row) -> Duration| {
                previous.map_or_else(
                    || "-".to_owned(),
                    |(a, before)| {
                        format!("{:.2}", per_doubling(then(before), now, *jobs as f64 / f64::from(a)))
                    },
                )
            };
            text.push_str(&format!(
                "{:<12} {:>10} {:>9.2} {:>9.2} {:>8} {:>8} {:>9} {:>9}\n",
                label,
                jobs,
                row.run.as_secs_f64(),
                row.verify.as_secs_f64(),
                growth(row.run, |r| r.run),
                growth(row.verify, |r| r.verify),
                mib(row.peak_mib),
                mib(row.verify_peak_mib)
            ));
            previous = Some((*jobs, row));
        }
    }
    text
}

/// The factor a time grows by per doubling of the input, from `before` to `after`
/// over an input `ratio` times as long.
fn per_doubling(before: Duration, after: Duration, ratio: f64) -> f64 {
    let (a, b) = (before.as_secs_f64().max(1e-3), after.as_secs_f64().max(1e-3));
    (b / a).powf(1.0 / ratio.log2())
}

/// `gzip -dc` of HPC2N beside `host-sim run` on it (64 machines, with its log): the
/// build the README's main command makes, and the release tools' when they have the
/// `optimum` feature (HiGHS and the C++ runtime it loads at start-up).
fn end_to_end(dir: &Path) -> Result {
    let Some(traces) = shared_traces("scale")? else { return Ok(()) };
    let Some(trace) = traces.iter().find(|t| t.file_name().is_some_and(|n| n == HPC2N)) else {
        println!("end to end: ../shared/traces/{HPC2N} is missing; not measured");
        return Ok(());
    };
    let mut builds = vec![("host-sim", plain_host_sim()?)];
    if crate::toolchain::optimum()? {
        builds.push(("host-sim --features optimum", host_sim_bin()));
    }
    let log = dir.join("hpc2n.log");
    let mut gzip = Vec::new();
    let mut runs = vec![Vec::new(); builds.len()];
    for _ in 0..ROUNDS {
        // Into /dev/null, as a shell's `gzip -dc T > /dev/null`: not through a pipe
        // into this process's memory, which would add the copy to gzip's time.
        let mut inflate = Command::new("gzip");
        inflate.arg("-dc").arg(trace).stdout(std::process::Stdio::null());
        gzip.push(corpus::timed(&mut inflate, "gzip -dc")?.0);
        for ((_, bin), times) in builds.iter().zip(runs.iter_mut()) {
            // A new log, as the first run writes it: replacing the last one would add
            // the kernel's freeing of the old file to the rename (2.8 ms on HPC2N).
            let _ = std::fs::remove_file(&log);
            let mut run = Command::new(bin);
            run.args(["run", "--machines", "64", "--trace"]).arg(trace).arg("--log").arg(&log);
            times.push(corpus::timed(&mut run, "host-sim run")?.0);
        }
    }
    let g = median(&mut gzip.clone()).as_secs_f64().max(1e-6);
    println!("end to end on {HPC2N}, {ROUNDS} rounds of gzip -dc ({g:.3} s) and each run alternated:");
    for ((label, _), times) in builds.iter().zip(&runs) {
        let mut ratios: Vec<f64> =
            times.iter().zip(&gzip).map(|(h, g)| h.as_secs_f64() / g.as_secs_f64().max(1e-6)).collect();
        ratios.sort_unstable_by(f64::total_cmp);
        let h = median(&mut times.clone()).as_secs_f64();
        let pairs = ratios.get(ratios.len() / 2).copied().unwrap_or_default();
        println!(
            "  {label:<28} run --machines 64 --log {h:.3} s: {:.2}x the median, {pairs:.2}x the median of pairs",
            h / g
        );
    }
    requests_per_second(dir, trace)
}

/// `host-sim` as the README's main command builds it, without the release tools'
/// features: the release tools themselves when they have none, else a build of its
/// own under `target/xtask/plain`.
fn plain_host_sim() -> Result<std::path::PathBuf> {
    if !crate::toolchain::optimum()? {
        return Ok(host_sim_bin());
    }
    let plain = target_dir().join("xtask/plain");
    let mut build = crate::cmd::cargo();
    build.args(["build", "--release", "-p", "host-sim", "--target-dir"]).arg(&plain);
    crate::cmd::run("scale: host-sim without features", &mut build)?;
    Ok(plain.join("release/host-sim"))
}

/// The newer models on the first 200,000 jobs of `trace`: requests a second, end to
/// end, against their goals.
fn requests_per_second(dir: &Path, trace: &Path) -> Result {
    const MODELS: [(&str, &str, f64); 2] =
        [("reservation", "reserve", 200_000.0), ("tiers", "tiers", 500_000.0)];
    const ROUNDS: usize = 5;
    let mut rows: Vec<(Vec<Duration>, u64)> = vec![(Vec::new(), 0); MODELS.len()];
    for _ in 0..ROUNDS {
        for ((label, subcommand, _), (times, requests)) in MODELS.iter().zip(rows.iter_mut()) {
            let row = corpus::one(dir, ("--trace", trace), label, subcommand, &["--limit", "200000"])?;
            times.push(row.run);
            *requests = row.requests;
        }
    }
    println!(
        "requests a second on the first 200,000 jobs of {HPC2N} (defaults, with the log; medians of {ROUNDS}, alternated):"
    );
    for ((label, _, goal), (times, requests)) in MODELS.iter().zip(rows.iter_mut()) {
        let wall = median(times).as_secs_f64().max(1e-6);
        let rate = *requests as f64 / wall;
        let met = if rate >= *goal { "met" } else { "NOT met" };
        println!(
            "  {label:<12} {requests:>8} requests {wall:>6.3} s {rate:>10.0}/s (goal {goal:.0}/s: {met})"
        );
    }
    Ok(())
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort_unstable();
    times.get(times.len() / 2).copied().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn growth_per_doubling_is_two_when_linear() {
        let s = Duration::from_secs;
        assert!((per_doubling(s(1), s(10), 10.0) - 2.0).abs() < 1e-9);
        assert!((per_doubling(s(1), s(100), 10.0) - 4.0).abs() < 1e-9);
        assert!((per_doubling(s(2), s(2), 10.0) - 1.0).abs() < 1e-9);
    }
}
