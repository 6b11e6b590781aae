//! A better first schedule for the solver: the known schedule improved by inserting
//! the jobs it rejected, each at the cost of the cheapest jobs that make room for it.
//!
//! A rejected job `j` is tried on every machine. When that machine's EDF then misses a
//! deadline `b`, the miss names an overloaded interval `[a, b]`: the run of work before
//! the miss that only jobs due by `b` filled, back to the last idle time or the last run
//! of a job due later. The jobs released in it and due by `b` hold more work than
//! `b - a`; removing that excess of work from them (never `j`) clears the interval. The
//! removal takes the cheapest job that covers the excess alone, or else the job with the
//! most work per income, and EDF is run again, until the machine passes or the removed
//! income reaches `j`'s. The best machine's move is made when it earns more than it
//! removes. Passes repeat while one improves, within a budget of EDF runs.
//!
//! Every schedule it returns is checked by exact EDF per machine, in integers; it only
//! ever raises the income of the schedule it starts from.

use std::cmp::Reverse;

use replay::model::service_level::OfflineJob;

use super::exact::edf_runs;

/// EDF runs a whole improvement may make, per job of the cluster: it bounds the time
/// the search takes before the solver starts (a few milliseconds per hundred jobs).
const EDF_RUNS_PER_JOB: usize = 40;

/// Passes over the rejected jobs at most.
const PASSES: usize = 8;

/// The schedule `placed` (each job's machine or `None`) of `jobs` on `machines`
/// machines, improved; its income is at least the one it started from.
pub fn improve(jobs: &[OfflineJob], machines: usize, placed: &[Option<u16>]) -> Vec<Option<u16>> {
    let mut on = by_machine(placed, machines);
    let mut placed = placed.to_vec();
    let mut budget = EDF_RUNS_PER_JOB.saturating_mul(jobs.len().max(1));
    let order = dearest_first(jobs);
    for _ in 0..PASSES {
        let mut improved = false;
        for &j in &order {
            if placed[j].is_some() || budget == 0 {
                continue;
            }
            let best = (0..machines)
                .filter_map(|m| insert(jobs, &on[m], j, jobs[j].income, &mut budget).map(|out| (m, out)))
                .min_by_key(|(m, (_, lost))| (*lost, *m));
            let Some((m, (removed, _))) = best else { continue };
            on[m].retain(|k| !removed.contains(k));
            on[m].push(j);
            for &k in &removed {
                placed[k] = None;
            }
            placed[j] = u16::try_from(m).ok();
            improved = true;
        }
        if !improved || budget == 0 {
            break;
        }
    }
    placed
}

/// Each machine's jobs (indices into the schedule `placed`) on `machines` machines.
pub(super) fn by_machine(placed: &[Option<u16>], machines: usize) -> Vec<Vec<usize>> {
    let mut on: Vec<Vec<usize>> = vec![Vec::new(); machines];
    for (j, machine) in placed.iter().enumerate() {
        if let Some(set) = machine.and_then(|m| on.get_mut(usize::from(m))) {
            set.push(j);
        }
    }
    on
}

/// Whether every machine's jobs in the schedule `placed` pass exact EDF.
#[cfg(feature = "optimum")]
pub(super) fn every_machine_feasible(jobs: &[OfflineJob], placed: &[Option<u16>], machines: usize) -> bool {
    let feasible = |set: &Vec<usize>| super::exact::edf_feasible(&set.iter().map(|&j| jobs[j]).collect::<Vec<_>>());
    by_machine(placed, machines).iter().all(feasible)
}

/// The jobs' indices, the dearest first (ties by release, then index): the order in
/// which the searches try the jobs left out.
pub(super) fn dearest_first(jobs: &[OfflineJob]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by_key(|&j| (Reverse(jobs[j].income), jobs[j].release, j));
    order
}

/// The jobs to remove from machine set `set` so that `j` fits, and their income, when
/// that income is below `limit` (each EDF run taken from `budget`).
pub(super) fn insert(
    jobs: &[OfflineJob],
    set: &[usize],
    j: usize,
    limit: u64,
    budget: &mut usize,
) -> Option<(Vec<usize>, u64)> {
    let mut trial: Vec<usize> = set.to_vec();
    trial.push(j);
    let mut removed = Vec::new();
    let mut lost = 0u64;
    loop {
        *budget = budget.checked_sub(1)?;
        let Some(miss) = first_miss(jobs, &trial) else { return Some((removed, lost)) };
        let inside = |k: &usize| jobs[*k].release >= miss.from && jobs[*k].deadline <= miss.deadline;
        let work: u64 = trial.iter().filter(|k| inside(k)).map(|&k| jobs[k].p).sum();
        let candidates: Vec<usize> = trial.iter().copied().filter(|k| *k != j && inside(k)).collect();
        let excess = work.checked_sub(miss.deadline - miss.from)?;
        let cover = candidates
            .iter()
            .copied()
            .filter(|&k| jobs[k].p >= excess)
            .min_by_key(|&k| (jobs[k].income, jobs[k].p, k));
        // Otherwise the job freeing the most work per unit of income lost.
        let pick = cover.or_else(|| {
            candidates.iter().copied().max_by(|&a, &b| {
                let (x, y) = (jobs[a], jobs[b]);
                (u128::from(x.p) * u128::from(y.income))
                    .cmp(&(u128::from(y.p) * u128::from(x.income)))
                    .then(b.cmp(&a))
            })
        })?;
        lost += jobs[pick].income;
        if lost >= limit {
            return None;
        }
        trial.retain(|&k| k != pick);
        removed.push(pick);
    }
}

/// Where one machine's EDF first misses a deadline: the missed `deadline` and the start
/// `from` of the work before it that only jobs due by then filled.
#[derive(Debug, PartialEq, Eq)]
struct Miss {
    from: u64,
    deadline: u64,
}

/// EDF over `set` (indices into `jobs`) until its first miss.
fn first_miss(jobs: &[OfflineJob], set: &[usize]) -> Option<Miss> {
    let (runs, missed) = edf_runs(jobs, set.to_vec());
    let deadline = jobs[missed?].deadline;
    Some(Miss { from: busy_from(jobs, &runs, deadline), deadline })
}

/// The start of the unbroken runs `(job index, start, end)`, back from the last, of
/// jobs due by `deadline`.
fn busy_from(jobs: &[OfflineJob], runs: &[(usize, u64, u64)], deadline: u64) -> u64 {
    let mut from = runs.last().map_or(0, |r| r.1);
    for &(i, start, end) in runs.iter().rev().skip(1) {
        if end != from || jobs[i].deadline > deadline {
            break;
        }
        from = start;
    }
    from
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service_level::optimum::exact::edf_feasible;

    fn job(release: u64, p: u64, deadline: u64) -> OfflineJob {
        OfflineJob { release, p, deadline, income: p }
    }

    fn income(jobs: &[OfflineJob], placed: &[Option<u16>]) -> u64 {
        placed.iter().zip(jobs).filter(|(m, _)| m.is_some()).map(|(_, j)| j.income).sum()
    }

    #[test]
    fn a_miss_names_the_interval_only_earlier_deadlines_filled() {
        // Job 0 (due late) runs first; jobs 1 and 2 arrive at 2 and cannot both finish by 6.
        let jobs = [job(0, 10, 30), job(2, 3, 6), job(2, 3, 6)];
        assert_eq!(first_miss(&jobs, &[0, 1, 2]), Some(Miss { from: 2, deadline: 6 }));
        assert_eq!(first_miss(&jobs, &[0, 1]), None);
    }

    #[test]
    fn a_big_rejected_job_replaces_the_small_one_in_its_way() {
        // Greedy took the small job 0; the big job 1 earns more and needs its time.
        let jobs = [job(0, 2, 4), job(1, 8, 9), job(12, 2, 14)];
        let placed = [Some(0), None, Some(0)];
        let better = improve(&jobs, 1, &placed);
        assert_eq!(better, vec![None, Some(0), Some(0)]);
        assert_eq!(income(&jobs, &better), 10);
    }

    #[test]
    fn every_machine_stays_feasible_and_income_never_falls() {
        let jobs: Vec<OfflineJob> = (0..40u64).map(|i| job(i * 3 % 17, 1 + i * 7 % 9, i * 3 % 17 + 12)).collect();
        for machines in 1..=3u16 {
            let placed = vec![None; jobs.len()];
            let better = improve(&jobs, usize::from(machines), &placed);
            for m in 0..machines {
                let set: Vec<OfflineJob> =
                    jobs.iter().zip(&better).filter(|(_, p)| **p == Some(m)).map(|(j, _)| *j).collect();
                assert!(edf_feasible(&set), "machine {m} of {machines}");
            }
            assert!(income(&jobs, &better) > 0);
        }
    }
}
