//! What a window will cost the solver, known before solving: its clusters settled
//! without the solver, those the solver gets and the size of their models. The
//! expected time is what [`MICROS_PER_COLUMN`] says of those models, never more than
//! the time limit; `--shard` balances shards by it and `--plan N` prints each of
//! N shards' expected time without solving anything.

use replay::model::service_level::OfflineJob;
use serde::Serialize;

use super::capture::CapturedWindow;
use super::exact::{clusters, edf_feasible, without_slack, work_and_span};

/// The most columns a model may have: past it building it alone takes gigabytes, and
/// the cluster keeps the bracket `[known schedule, capacity bound]`. The largest
/// one-machine model of the competitive-factor sample, a CTC week at sf 20 (717,586
/// columns), is solved exactly in 11 s and 527 MB. On several machines the steps'
/// models are a machine's size, and the whole model runs only where the time left
/// carries it through its first relaxation (`search`).
pub const MAX_COLUMNS: usize = 1_000_000;

/// The solver's expected microseconds per column of a model whose jobs pay one price,
/// on one core. A cluster whose jobs pay several prices is expected to take all of the
/// time limit: there the relaxation's bound is not tight, and the solver rarely closes
/// a week before the limit. So is one on several machines with more work than they
/// have time over its span: the pooled bound allows migration, and the machines'
/// schedules rarely reach it. Calibrated on the competitive-factor sample solved at
/// 60 s (docs/shards.md, "The exact optimum in shards"), where one-machine windows
/// took 10 to 30 µs per column.
pub const MICROS_PER_COLUMN: u64 = 25;

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
    let mut micros = 0u64;
    for part in parts.iter().filter(|p| !p.settled) {
        // On several machines a model too large still gets the steps, whose models are
        // a machine's size (`search`).
        let steps_fit = columns(&part.jobs, 1) <= MAX_COLUMNS;
        let columns = columns(&part.jobs, machines) as u64;
        if columns <= MAX_COLUMNS as u64 || steps_fit {
            estimate.solver_clusters += 1;
            estimate.columns += columns;
            let cost = if several_prices(&part.jobs) || (machines > 1 && overloaded(&part.jobs, machines)) {
                limit_millis.saturating_mul(1000)
            } else {
                columns.saturating_mul(MICROS_PER_COLUMN)
            };
            micros = micros.saturating_add(cost);
        }
    }
    estimate.millis = (micros / 1000).min(if estimate.solver_clusters > 0 { limit_millis } else { 0 });
    estimate
}

/// Whether `jobs` hold more work than `machines` machines have time over their span,
/// and some of them have slack (jobs without slack are intervals, which the
/// relaxation already schedules whole).
fn overloaded(jobs: &[OfflineJob], machines: usize) -> bool {
    let (work, span) = work_and_span(jobs.iter());
    !jobs.iter().all(without_slack) && work > u128::from(span).saturating_mul(machines as u128)
}

/// Whether `jobs` pay more than one price per tick of work (income over `p`).
fn several_prices(jobs: &[OfflineJob]) -> bool {
    let price = |j: &OfflineJob| (u128::from(j.income), u128::from(j.p));
    let Some((income, p)) = jobs.first().map(price) else { return false };
    jobs.iter().map(price).any(|(i, q)| i.saturating_mul(p) != income.saturating_mul(q))
}

/// The time limit in whole milliseconds (at least one).
pub fn limit_millis(seconds: f64) -> u64 {
    // `seconds` is positive and finite (checked by `SolveArgs::seconds`).
    ((seconds * 1000.0).ceil() as u64).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(release: u64, p: u64, deadline: u64, price: u64) -> OfflineJob {
        OfflineJob { release, p, deadline, income: price * p }
    }

    /// A window of `jobs` that the greedy run completed none of.
    fn window(jobs: Vec<OfflineJob>) -> CapturedWindow {
        let completed = vec![None; jobs.len()];
        CapturedWindow { jobs, completed, income: 0, u_max: 3 }
    }

    /// Three jobs of 4 ticks due by 8: one machine fits two of them.
    fn crowded(prices: [u64; 3]) -> Vec<OfflineJob> {
        prices.iter().map(|&u| job(0, 4, 8, u)).collect()
    }

    #[test]
    fn one_price_costs_its_columns() {
        // A job of 4 ticks released every tick, each due 6 ticks later: one cluster,
        // four times more work than one machine holds.
        let w = window((0..60).map(|t| job(t, 4, t + 6, 2)).collect());
        let e = estimate(&w, 1, 60_000);
        assert_eq!((e.clusters, e.solver_clusters, e.columns as usize), (1, 1, columns(&w.jobs, 1)));
        assert!(e.millis > 0);
        assert_eq!(e.millis, e.columns * MICROS_PER_COLUMN / 1000);
    }

    #[test]
    fn several_prices_take_the_limit() {
        let e = estimate(&window(crowded([1, 2, 2])), 1, 60_000);
        assert_eq!(e.millis, 60_000);
    }

    #[test]
    fn more_work_than_the_machines_hold_takes_the_limit() {
        // Two machines hold 16 ticks of the 8-tick span; five jobs of 4 are 20.
        let jobs: Vec<OfflineJob> = (0..5).map(|_| job(0, 4, 8, 2)).collect();
        assert_eq!(estimate(&window(jobs.clone()), 2, 60_000).millis, 60_000);
        // Three machines hold them all: EDF on one machine still fails, so the solver
        // runs, at the cost of its columns.
        assert!(estimate(&window(jobs), 3, 60_000).millis < 60_000);
        // Jobs without slack are intervals: never expected to take the limit.
        let pinned: Vec<OfflineJob> = (0..5).map(|_| job(0, 8, 8, 2)).collect();
        assert!(estimate(&window(pinned), 2, 60_000).millis < 60_000);
    }
}
