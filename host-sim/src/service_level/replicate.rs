//! Replications: one configuration run once per seed (`run --seeds 1..30`), in
//! parallel, and each metric's mean, sample standard deviation and 95% confidence
//! interval across the seeds.
//!
//! A seed draws each job's service level (and, for the synthetic workload, the
//! workload itself), so with one service level and a trace every seed gives the same
//! run and the interval is a point. Each seed's value of a metric is that run's mean
//! across its windows; the across-window standard deviation of each run is averaged
//! over the seeds and shown beside, so the two sources of spread can be compared.
//!
//! The interval is `mean ± t * sd / sqrt(n)`, with `sd` the sample standard deviation
//! (divided by `n - 1`) and `t` Student's two-sided 95% critical value for `n - 1`
//! degrees of freedom, from [`T_975`]: exact table values for 1 to 30, then 40, 60 and
//! 120; between table rows the row below is used (a slightly wider, conservative
//! interval); past 120, 1.960 (the normal value). One seed has no interval.

use indicatif::ProgressBar;
use rayon::prelude::*;
use serde::Serialize;

use crate::error::CliError;
use crate::service_level::metrics::{METRIC_KEYS, Metrics};
use crate::service_level::sim::{self, RunConfig, RunReport};
use crate::workload::Workload;

/// Student's t, two-sided 95% (the 0.975 quantile), by degrees of freedom: `(df, t)`.
pub const T_975: [(u64, f64); 33] = [
    (1, 12.706),
    (2, 4.303),
    (3, 3.182),
    (4, 2.776),
    (5, 2.571),
    (6, 2.447),
    (7, 2.365),
    (8, 2.306),
    (9, 2.262),
    (10, 2.228),
    (11, 2.201),
    (12, 2.179),
    (13, 2.160),
    (14, 2.145),
    (15, 2.131),
    (16, 2.120),
    (17, 2.110),
    (18, 2.101),
    (19, 2.093),
    (20, 2.086),
    (21, 2.080),
    (22, 2.074),
    (23, 2.069),
    (24, 2.064),
    (25, 2.060),
    (26, 2.056),
    (27, 2.052),
    (28, 2.048),
    (29, 2.045),
    (30, 2.042),
    (40, 2.021),
    (60, 2.000),
    (120, 1.980),
];

/// The normal 0.975 quantile, used past the table.
pub const Z_975: f64 = 1.960;

/// Student's t for a two-sided 95% interval with `df` degrees of freedom (`df >= 1`).
pub fn t_975(df: u64) -> f64 {
    if df > 120 {
        return Z_975;
    }
    T_975.iter().rev().find(|(d, _)| *d <= df).map_or(T_975[0].1, |(_, t)| *t)
}

/// One seed's run: its across-window mean and standard deviation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeedRun {
    pub seed: u64,
    pub windows: u64,
    pub mean: Metrics,
    pub window_sd: Metrics,
}

/// The replications' summary.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Replications {
    pub seeds: Vec<u64>,
    /// Across seeds: the mean of the per-seed values.
    pub mean: Metrics,
    /// Across seeds: the sample standard deviation (divided by `n - 1`; 0 for one seed).
    pub sd: Metrics,
    /// Student's t used for the interval (`None` for one seed).
    pub t: Option<f64>,
    pub ci95_low: Metrics,
    pub ci95_high: Metrics,
    /// The runs' across-window standard deviations, averaged over the seeds.
    pub window_sd_mean: Metrics,
    pub runs: Vec<SeedRun>,
}

/// Runs `config` once per seed (its `seed` replaced), in parallel; `workload_for`
/// gives each seed's workload. `progress` counts runs. Results are in seed order.
pub fn run(
    config: &RunConfig,
    seeds: &[u64],
    workload_for: impl Fn(u64) -> Result<Workload, CliError> + Sync,
    progress: &ProgressBar,
) -> Result<Replications, CliError> {
    progress.set_length(seeds.len() as u64);
    let runs = seeds
        .par_iter()
        .map(|&seed| {
            let workload = workload_for(seed)?;
            let config = RunConfig { seed, ..config.clone() };
            let report: RunReport = sim::run(&config, &workload.jobs, None).map_err(CliError::from)?;
            progress.inc(1);
            Ok(SeedRun { seed, windows: report.windows_simulated, mean: report.mean, window_sd: report.sd })
        })
        .collect::<Result<Vec<_>, CliError>>()?;
    Ok(summarise(seeds.to_vec(), runs))
}

/// The across-seed statistics of `runs`.
pub fn summarise(seeds: Vec<u64>, runs: Vec<SeedRun>) -> Replications {
    let n = runs.len() as f64;
    let values: Vec<[f64; 13]> = runs.iter().map(|r| r.mean.to_array()).collect();
    let mut mean = [0.0; 13];
    let mut window_sd = [0.0; 13];
    for (run, v) in runs.iter().zip(&values) {
        mean.iter_mut().zip(v).for_each(|(m, x)| *m += x);
        window_sd.iter_mut().zip(run.window_sd.to_array()).for_each(|(m, x)| *m += x);
    }
    mean.iter_mut().chain(window_sd.iter_mut()).for_each(|m| *m /= n);
    let mut sd = [0.0; 13];
    if runs.len() > 1 {
        for v in &values {
            sd.iter_mut().zip(v).zip(mean).for_each(|((s, x), m)| *s += (x - m) * (x - m));
        }
        sd.iter_mut().for_each(|s| *s = (*s / (n - 1.0)).sqrt());
    }
    let t = (runs.len() > 1).then(|| t_975(runs.len() as u64 - 1));
    let half: [f64; 13] = std::array::from_fn(|i| t.map_or(0.0, |t| t * sd[i] / n.sqrt()));
    Replications {
        seeds,
        mean: Metrics::from_array(mean),
        sd: Metrics::from_array(sd),
        t,
        ci95_low: Metrics::from_array(std::array::from_fn(|i| mean[i] - half[i])),
        ci95_high: Metrics::from_array(std::array::from_fn(|i| mean[i] + half[i])),
        window_sd_mean: Metrics::from_array(window_sd),
        runs,
    }
}

/// The summary as a table: one row per metric.
pub fn write_table<W: std::io::Write>(r: &Replications, mut out: W) -> std::io::Result<()> {
    let first = r.seeds.first().copied().unwrap_or(0);
    let last = r.seeds.last().copied().unwrap_or(0);
    writeln!(out, "host-sim run --seeds: {} runs (seeds {first} .. {last})", r.runs.len())?;
    match r.t {
        Some(t) => writeln!(out, "95% interval: mean ± {t} × sd / sqrt({}) (Student's t)", r.runs.len())?,
        None => writeln!(out, "one seed: no interval")?,
    }
    writeln!(out)?;
    writeln!(
        out,
        "{:>14} {:>18} {:>16} {:>18} {:>18} {:>18}",
        "metric", "mean over seeds", "sd over seeds", "95% CI low", "95% CI high", "across-window sd"
    )?;
    let rows = r
        .mean
        .to_array()
        .into_iter()
        .zip(r.sd.to_array())
        .zip(r.ci95_low.to_array().into_iter().zip(r.ci95_high.to_array()))
        .zip(r.window_sd_mean.to_array());
    for (key, (((m, s), (lo, hi)), w)) in METRIC_KEYS.iter().zip(rows) {
        let n = crate::service_level::report::num;
        writeln!(out, "{key:>14} {:>18} {:>16} {:>18} {:>18} {:>18}", n(m), n(s), n(lo), n(hi), n(w))?;
    }
    Ok(())
}

/// The core of `run --seeds`' summary: the trace, or each seed's generated workload
/// (each its own input), without counts (its figures are per seed, in `runs`).
pub fn core(
    trace: Option<&Workload>,
    seeds: &[u64],
    workload_for: &dyn Fn(u64) -> Result<Workload, CliError>,
) -> Result<crate::summary::Core, CliError> {
    let Some(trace) = trace else {
        // Each seed's own workload; the limits are the options', the same for every seed.
        let mut core: Option<crate::summary::Core> = None;
        for &seed in seeds {
            let next = crate::summary::Core::of_workload("service_level", &workload_for(seed)?);
            match &mut core {
                None => core = Some(next),
                Some(core) => {
                    for input in next.inputs {
                        if !core.inputs.contains(&input) {
                            core.inputs.push(input);
                        }
                    }
                }
            }
        }
        return core.ok_or_else(|| CliError::Usage("--seeds names no seed".into()));
    };
    Ok(crate::summary::Core::of_workload("service_level", trace))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t_values_come_from_the_table_and_fall_back_conservatively() {
        assert_eq!(t_975(1), 12.706);
        assert_eq!(t_975(29), 2.045);
        assert_eq!(t_975(30), 2.042);
        assert_eq!(t_975(35), 2.042); // between 30 and 40: the row below
        assert_eq!(t_975(60), 2.000);
        assert_eq!(t_975(121), 1.960);
    }

    fn run_with(seed: u64, prj: f64) -> SeedRun {
        let mean = Metrics { prj, ..Metrics::default() };
        SeedRun { seed, windows: 1, mean, window_sd: Metrics { prj: 1.0, ..Metrics::default() } }
    }

    #[test]
    fn mean_sample_sd_and_interval_by_hand() {
        // 2, 4, 6: mean 4, sample sd 2, t(2) = 4.303, half width 4.303 * 2 / sqrt(3).
        let r = summarise(vec![1, 2, 3], vec![run_with(1, 2.0), run_with(2, 4.0), run_with(3, 6.0)]);
        assert_eq!(r.mean.prj, 4.0);
        assert_eq!(r.sd.prj, 2.0);
        assert_eq!(r.t, Some(4.303));
        let half = 4.303 * 2.0 / 3f64.sqrt();
        assert!((r.ci95_low.prj - (4.0 - half)).abs() < 1e-12);
        assert!((r.ci95_high.prj - (4.0 + half)).abs() < 1e-12);
        assert_eq!(r.window_sd_mean.prj, 1.0);
        let one = summarise(vec![1], vec![run_with(1, 2.0)]);
        assert_eq!((one.sd.prj, one.t, one.ci95_low.prj, one.ci95_high.prj), (0.0, None, 2.0, 2.0));
    }
}
