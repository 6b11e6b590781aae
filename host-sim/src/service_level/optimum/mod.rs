//! The exact offline optimum `V*` of a window and the true competitive factor
//! `c_V = V / V*` (`host-sim optimum`, `host-sim cv-sweep`).
//!
//! The thesis measures `c_V` only from below (`c_V^u`, `c_V^l` divide `V` by upper
//! bounds of `V*`). Here `V*` is the largest income any schedule could earn from the
//! same submits under the same model (the same levels, deadlines and prices, `m`
//! preemptive machines, no migration), computed per window:
//!
//! 1. the greedy run ([`crate::service_level::sim::run`]) is made as `run` makes it,
//!    and [`capture::Capture`] keeps each window's submits and `V` from its events;
//! 2. a window splits into clusters of jobs whose windows `[r_j, d_j)` overlap
//!    ([`exact::clusters`]), each solved alone: all of a cluster's income when the
//!    greedy run completed all of it or when one machine's EDF meets every deadline,
//!    otherwise in `search`'s steps (the greedy schedule improved by [`improve`], the
//!    relaxation's bound, a small model around the schedule) and, when they leave it
//!    open, the mixed-integer program of `milp` (HiGHS; the `optimum` feature);
//! 3. what the solver returns is checked in integers ([`exact::edf_feasible`] per
//!    machine), and a cluster the time limit stops is bracketed ([`exact::Bracket`]);
//! 4. every cluster's best schedule is replayed through the service-level audit
//!    ([`audit_schedule`]), whose income must be the bracket's best, and the window
//!    records what proves its upper bound ([`exact::Proof`]).
//!
//! - [`capture`]: the greedy run's windows, from its event stream.
//! - [`exact`]: exact EDF, clusters, brackets.
//! - [`improve`]: the greedy schedule improved by inserting the jobs it rejected.
//! - `search`: a cluster's steps, and `--method whole` without them (feature `optimum`).
//! - `milp`: the mixed-integer program and its relaxation (feature `optimum`).
//! - `pack`: a set the machines run pooled, packed onto them (feature `optimum`).
//! - [`cli`]: `host-sim optimum` and `host-sim cv-sweep`.
//! - [`grid`]: the cv grid over traces, sampled weeks, modes and machine counts.
//! - [`plan`]: each window's expected solve time, known before solving (`--plan`).
//! - `shards`: `--shard K/N` and the merge of `optimum` and `cv-sweep`.
//! - [`figures`]: the `cv` figures and the summary table.

pub mod capture;
pub mod cli;
pub mod exact;
pub mod figures;
pub mod grid;
pub mod improve;
#[cfg(feature = "optimum")]
pub mod milp;
#[cfg(feature = "optimum")]
pub mod pack;
#[cfg(feature = "optimum")]
pub mod search;
#[cfg(feature = "optimum")]
mod slices;
pub mod plan;
mod shards;

use std::time::Instant;

use rayon::prelude::*;
use replay::model::service_level::{OfflineJob, ServiceLevelViolation, audit_schedule};
use serde::{Deserialize, Serialize};

use capture::{Capture, CapturedWindow};
use exact::{Bracket, Proof, Status};

use crate::service_level::sim::{self, RunConfig, SimError};
use crate::workload::Workload;

/// What stops a window's optimum.
#[derive(Debug, thiserror::Error)]
pub enum OptimumError {
    #[error("the greedy run: {0}")]
    Run(#[from] SimError),
    #[error(
        "this host-sim was built without the `optimum` feature (the HiGHS MIP solver); build one that has it with `cargo build --release -p host-sim --features optimum` (needs cmake, a C++ compiler and libclang)"
    )]
    NoSolver,
    #[cfg(feature = "optimum")]
    #[error(transparent)]
    Solver(#[from] milp::MilpError),
    #[error("window {window}: {source}")]
    InWindow { window: u64, source: Box<OptimumError> },
    #[error("the audit refused the schedule of V* {best}: {source}")]
    Audit { best: u128, source: ServiceLevelViolation },
    #[error("the schedule of V* {best} earns {audited} by the audit")]
    AuditedIncome { best: u128, audited: u128 },
}

/// How a cluster the solver gets is solved (`--method`; the steps are `search`'s, the
/// first of them [`improve`]). The variants' lines are `--help`'s.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Method {
    /// The greedy schedule improved, the relaxation's bound, a small model around the
    /// schedule, then the whole model with the time left
    #[default]
    Steps,
    /// The whole model alone, from the greedy schedule: the solver as it was before the
    /// steps, kept to measure them against
    Whole,
}

/// A window's time limit and how its clusters are solved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    pub seconds: f64,
    pub method: Method,
}

impl Budget {
    /// `seconds` with the default method.
    pub fn of(seconds: f64) -> Self {
        Self { seconds, method: Method::Steps }
    }
}

/// Whether this build has the solver.
pub const HAS_SOLVER: bool = cfg!(feature = "optimum");

/// One window's greedy income beside its optimum.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WindowRow {
    /// The window's index, counted from the first, empty windows included (as `run`'s).
    pub window: u64,
    pub start_ticks: u64,
    pub jobs: usize,
    /// `V`, the greedy run's income.
    pub v: u128,
    /// `V*`, or the best schedule found when bracketed.
    pub v_star_best: u128,
    /// A proven upper bound of `V*` (equal to `v_star_best` when exact).
    pub v_star_upper: u128,
    pub status: Status,
    /// `V / V*`: `V / upper` and `V / best`, equal when exact.
    pub cv_low: f64,
    pub cv_high: f64,
    pub cv_u: f64,
    pub cv_l: f64,
    pub greedy_bound: f64,
    /// `c_V^l`'s bound of `V*`, `u_max min(sum p, m d_max)`, and the tighter
    /// `u_max sum_c min(sum_c p, m span_c)` over the clusters ([`exact::work_bounds`]).
    pub bound_limited: u128,
    pub bound_clustered: u128,
    /// Clusters of the window, and those the solver was needed for.
    pub clusters: usize,
    pub clusters_solved: usize,
    /// The income of the best schedule as the service-level audit replayed it (each
    /// cluster's schedule through `audit_schedule`): always `v_star_best`, or the
    /// window fails.
    pub audited: u128,
    /// What proves `v_star_upper`.
    pub bound_by: Proof,
    pub solve_seconds: f64,
}

/// One configuration of the grid on one trace.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Point {
    pub trace: String,
    pub mode: crate::service_level::sweep::Mode,
    /// `sf` (single) or `k` (multi), in thousandths.
    pub x_milli: u32,
    pub machines: u16,
}

/// One solved window of the grid.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GridRow {
    pub point: Point,
    pub row: WindowRow,
}

/// The leading columns of `cv.csv`.
pub const LEAD: [&str; 4] = ["trace", "mode", "sf_or_k", "machines"];

impl Point {
    pub fn lead(&self) -> Vec<String> {
        vec![
            self.trace.clone(),
            self.mode.name().to_owned(),
            crate::units::format_milli(u64::from(self.x_milli)),
            self.machines.to_string(),
        ]
    }
}

/// The `count` windows, evenly spaced, out of `simulated` (all when `count` is `None`
/// or not smaller): window `floor((2i + 1) simulated / (2 count))` for `i < count`.
pub fn sample(simulated: usize, count: Option<usize>) -> Option<Vec<usize>> {
    let count = count.filter(|&c| c < simulated)?;
    Some((0..count).map(|i| (2 * i + 1) * simulated / (2 * count)).collect())
}

/// The greedy run of `workload` under `config`, and the windows `keep` names (positions
/// among the simulated windows) with their metrics.
pub fn greedy_windows(
    config: &RunConfig,
    workload: &Workload,
    keep: impl FnOnce(usize) -> Option<Vec<usize>>,
) -> Result<Vec<(sim::WindowReport, CapturedWindow)>, OptimumError> {
    let simulated = crate::window::split(&workload.jobs, config.window_ticks).windows.len();
    let mut capture = Capture::new(&config.levels, keep(simulated));
    let report = sim::run(config, &workload.jobs, Some(&mut capture))?;
    let windows = capture.finish();
    Ok(windows.into_iter().filter_map(|(k, w)| report.windows.get(k).map(|r| (r.clone(), w))).collect())
}

/// Every window's row, solved in parallel, each within `seconds`.
pub fn solve_windows(
    windows: &[&(sim::WindowReport, CapturedWindow)],
    machines: usize,
    budget: Budget,
    done: &(dyn Fn(&WindowRow) + Sync),
) -> Result<Vec<WindowRow>, OptimumError> {
    windows
        .par_iter()
        .map(|(report, window)| {
            let row = solve_window(report, window, machines, budget)?;
            done(&row);
            Ok(row)
        })
        .collect()
}

/// One window's row: [`optimum`] of its jobs beside the greedy run's `V` and bounds.
pub fn solve_window(
    report: &sim::WindowReport,
    window: &CapturedWindow,
    machines: usize,
    budget: Budget,
) -> Result<WindowRow, OptimumError> {
    let started = Instant::now();
    let found = optimum(&window.jobs, &window.completed, machines, budget)
        .map_err(|e| OptimumError::InWindow { window: report.index, source: Box::new(e) })?;
    let v = window.income;
    let (bound_limited, bound_clustered) = exact::work_bounds(&window.jobs, machines as u64, window.u_max);
    // The clusters' capacity bound holds for every schedule: a bracket the solver left
    // wider than it is cut to it.
    let bracket = Bracket {
        best: found.bracket.best,
        upper: found.bracket.upper.min(bound_clustered).max(found.bracket.best),
    };
    let proof = match found.proof {
        Proof::Open if bracket.status() == Status::Exact => Proof::Capacity,
        proof => proof,
    };
    let found = Found { bracket, proof, ..found };
    let (cv_low, cv_high) = found.bracket.factor(v);
    let metrics = &report.metrics;
    Ok(WindowRow {
        window: report.index,
        start_ticks: report.start_ticks,
        jobs: window.jobs.len(),
        v,
        v_star_best: found.bracket.best,
        v_star_upper: found.bracket.upper,
        status: found.bracket.status(),
        cv_low,
        cv_high,
        cv_u: metrics.cv_u,
        cv_l: metrics.cv_l,
        greedy_bound: metrics.greedy_bound,
        bound_limited,
        bound_clustered,
        clusters: found.clusters,
        clusters_solved: found.solved,
        audited: found.audited,
        bound_by: found.proof,
        solve_seconds: started.elapsed().as_secs_f64(),
    })
}

/// A window's `V*` and how it was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    pub bracket: Bracket,
    pub clusters: usize,
    /// Clusters the solver was needed for.
    pub solved: usize,
    /// The best schedule's income by the audit (`bracket.best`), and what proves
    /// `bracket.upper`.
    pub audited: u128,
    pub proof: Proof,
}

/// One cluster's result: its bracket, a schedule that earns `bracket.best` (each job's
/// machine, or `None`), and what proves `bracket.upper`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    pub bracket: Bracket,
    pub schedule: Vec<Option<u16>>,
    pub proof: Proof,
}

/// The optimum of `jobs` on `machines` machines, `completed` giving the machine on
/// which a known schedule (the greedy run's) completed each job, if it did: clusters
/// settled in turn, those the solver gets from the fewest jobs to the most, each given
/// an equal share of what is left of `seconds` among those still to solve (so the time
/// the small ones leave goes to the large ones, and the last gets all that is left). A
/// cluster reached after the time is spent keeps the bracket `[known schedule's income,
/// all of its income]`.
pub fn optimum(
    jobs: &[OfflineJob],
    completed: &[Option<u16>],
    machines: usize,
    budget: Budget,
) -> Result<Found, OptimumError> {
    let started = Instant::now();
    let mut found = Found { bracket: Bracket::default(), clusters: 0, solved: 0, audited: 0, proof: Proof::AllEarned };
    let mut clusters = plan::parts(jobs, completed);
    // Settled clusters first; the rest by their jobs (a stable sort keeps ties in order).
    clusters.sort_by_key(|c| (!c.settled, c.jobs.len()));
    let mut pending = clusters.iter().filter(|c| !c.settled).count();
    for cluster in clusters {
        found.clusters += 1;
        let solved = if cluster.settled {
            // The known schedule earned all of it, or one machine's EDF takes it all.
            let schedule = if cluster.known == cluster.total { cluster.placed } else { vec![Some(0); cluster.jobs.len()] };
            Solved { bracket: Bracket::exact(cluster.total), schedule, proof: Proof::AllEarned }
        } else {
            found.solved += 1;
            let share = pending.max(1) as f64;
            pending = pending.saturating_sub(1);
            let left = (budget.seconds - started.elapsed().as_secs_f64()) / share;
            if left <= 0.0 {
                let bracket = Bracket { best: cluster.known, upper: cluster.total };
                Solved { bracket, schedule: cluster.placed, proof: Proof::Open }
            } else {
                let budget = Budget { seconds: left, ..budget };
                solve_cluster(&cluster.jobs, machines, budget, &cluster.placed, cluster.known)?
            }
        };
        found.audited += audited(&cluster.jobs, machines, &solved)?;
        found.bracket = found.bracket.plus(solved.bracket);
        found.proof = found.proof.max(solved.proof);
    }
    Ok(found)
}

/// The income of `solved`'s schedule by the service-level audit, which must be its
/// bracket's best.
fn audited(jobs: &[OfflineJob], machines: usize, solved: &Solved) -> Result<u128, OptimumError> {
    let best = solved.bracket.best;
    let machines = u16::try_from(machines).unwrap_or(u16::MAX);
    let audited = audit_schedule(jobs, machines, &solved.schedule).map_err(|source| OptimumError::Audit { best, source })?;
    if audited != best {
        return Err(OptimumError::AuditedIncome { best, audited });
    }
    Ok(audited)
}

#[cfg(feature = "optimum")]
fn solve_cluster(
    jobs: &[OfflineJob],
    machines: usize,
    budget: Budget,
    placed: &[Option<u16>],
    floor: u128,
) -> Result<Solved, OptimumError> {
    Ok(search::solve(jobs, machines, budget, placed, floor)?)
}

#[cfg(not(feature = "optimum"))]
fn solve_cluster(
    _: &[OfflineJob],
    _: usize,
    _: Budget,
    _: &[Option<u16>],
    _: u128,
) -> Result<Solved, OptimumError> {
    Err(OptimumError::NoSolver)
}

#[cfg(test)]
mod tests;
