//! What a window will cost the solver, known before solving: its clusters settled
//! without the solver, those the solver gets and the size of their models. The
//! expected time is what [`MICROS_PER_COLUMN`] says of those models, never more than
//! the time limit; `--shard` balances shards by it and `--plan N` prints each of
//! N shards' expected time without solving anything.

use replay::model::service_level::OfflineJob;
use serde::Serialize;

use super::capture::CapturedWindow;
use super::exact::{clusters, edf_feasible};

/// The most columns a model may have: past it (a busy month-long cluster on four
/// machines), building it alone takes longer than a time limit and gigabytes, and the
/// cluster keeps the bracket `[known schedule, capacity bound]`.
pub const MAX_COLUMNS: usize = 400_000;

/// The solver's expected microseconds per column of a one-machine model, on one core;
/// a model of `m` machines is expected to take `m²` times as long per column (its
/// symmetric assignments). Calibrated on the 56 windows of one-day KTH windows that
/// docs/shards.md lists ("The optimum's plan"), where the time is known to follow the
/// columns only roughly.
pub const MICROS_PER_COLUMN: u64 = 500;

/// The columns [`super::milp`]'s model would have for `jobs` on `machines` machines:
/// per job, one `y` and one `z` per interval of its window, on each machine it may use.
pub fn columns(jobs: &[OfflineJob], machines: usize) -> usize {
    let mut cuts: Vec<u64> = jobs.iter().flat_map(|j| [j.release, j.deadline]).collect();
    cuts.sort_unstable();
    cuts.dedup();
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by_key(|&j| (jobs[j].release, j));
    order
        .iter()
        .enumerate()
        .map(|(rank, &j)| {
            let span = cuts.partition_point(|&c| c < jobs[j].deadline)
                - cuts.partition_point(|&c| c < jobs[j].release);
            (span + 1) * machines.min(rank + 1)
        })
        .sum()
}

/// One cluster of a window as the optimum sees it.
#[derive(Debug)]
pub struct Part {
    /// The cluster's jobs that can fit alone (the others earn nothing in any schedule).
    pub jobs: Vec<OfflineJob>,
    /// The machine the known schedule completed each of `jobs` on.
    pub placed: Vec<Option<u16>>,
    /// All of their income, and the known schedule's.
    pub total: u128,
    pub known: u128,
    /// Whether its optimum is known without the solver: the known schedule completed
    /// all of it, or one machine's EDF meets every deadline.
    pub settled: bool,
}

/// The clusters of `jobs`, in release order, `completed` giving where a known
/// schedule completed each job.
pub fn parts(jobs: &[OfflineJob], completed: &[Option<u16>]) -> Vec<Part> {
    let fits = |j: &OfflineJob| j.p > 0 && j.deadline.saturating_sub(j.release) >= j.p;
    clusters(jobs)
        .into_iter()
        .map(|cluster| {
            let kept: Vec<usize> = cluster.into_iter().filter(|&i| fits(&jobs[i])).collect();
            let part: Vec<OfflineJob> = kept.iter().map(|&i| jobs[i]).collect();
            let placed: Vec<Option<u16>> =
                kept.iter().map(|&i| completed.get(i).copied().flatten()).collect();
            let total: u128 = part.iter().map(|j| u128::from(j.income)).sum();
            let known: u128 = part
                .iter()
                .zip(&placed)
                .filter(|(_, m)| m.is_some())
                .map(|(j, _)| u128::from(j.income))
                .sum();
            let settled = known == total || edf_feasible(&part);
            Part { jobs: part, placed, total, known, settled }
        })
        .collect()
}

/// A window's expected cost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Estimate {
    pub jobs: usize,
    pub clusters: usize,
    /// Clusters the solver gets (not settled, and within [`MAX_COLUMNS`] on one machine).
    pub solver_clusters: usize,
    /// Their models' columns, summed.
    pub columns: u64,
    /// The expected solve time in milliseconds, at most the time limit.
    pub millis: u64,
}

/// The expected cost of `window` on `machines` machines within `limit_millis`.
pub fn estimate(window: &CapturedWindow, machines: usize, limit_millis: u64) -> Estimate {
    let parts = parts(&window.jobs, &window.completed);
    let mut estimate = Estimate { jobs: window.jobs.len(), clusters: parts.len(), ..Estimate::default() };
    let square = (machines as u64).saturating_mul(machines as u64);
    let mut micros = 0u64;
    for part in parts.iter().filter(|p| !p.settled) {
        // On several machines a model too large still gets the steps, whose models are
        // a machine's size (`search`).
        let steps_fit = columns(&part.jobs, 1) <= MAX_COLUMNS;
        let columns = columns(&part.jobs, machines) as u64;
        if columns <= MAX_COLUMNS as u64 || steps_fit {
            estimate.solver_clusters += 1;
            estimate.columns += columns;
            micros = micros.saturating_add(columns.saturating_mul(MICROS_PER_COLUMN).saturating_mul(square));
        }
    }
    estimate.millis = (micros / 1000).min(if estimate.solver_clusters > 0 { limit_millis } else { 0 });
    estimate
}

/// The time limit in whole milliseconds (at least one).
pub fn limit_millis(seconds: f64) -> u64 {
    // `seconds` is positive and finite (checked by `SolveArgs::seconds`).
    ((seconds * 1000.0).ceil() as u64).max(1)
}
