//! What is checked in integers, whatever the solver says: one machine's preemptive
//! EDF over a set of jobs, the split of a window into independent clusters, and the
//! bracket `[best, upper]` a window's `V*` lies in.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use replay::model::service_level::OfflineJob;
use serde::{Deserialize, Serialize};

/// Whether one preemptive machine finishes every job of `jobs` by its deadline, each
/// running only from its release: earliest-deadline-first, which meets every deadline
/// whenever any schedule does (Horn), simulated exactly in `O(n log n)`.
pub fn edf_feasible(jobs: &[OfflineJob]) -> bool {
    edf_segments(jobs).is_some()
}

/// The income of the jobs `schedule` places (each job's machine, or `None`).
pub fn income(jobs: &[OfflineJob], schedule: &[Option<u16>]) -> u128 {
    jobs.iter().zip(schedule).filter(|(_, m)| m.is_some()).map(|(j, _)| u128::from(j.income)).sum()
}

/// A schedule (each job's machine, or `None`) and its income.
pub type Scheduled = (Vec<Option<u16>>, u128);

/// The preemptive EDF schedule of `jobs` on one machine as runs `(job index, start,
/// end)`, or `None` when a job misses its deadline.
pub fn edf_segments(jobs: &[OfflineJob]) -> Option<Vec<(usize, u64, u64)>> {
    let (runs, missed) = edf_runs(jobs, (0..jobs.len()).collect());
    missed.is_none().then_some(runs)
}

/// Preemptive EDF on one machine over `set` (indices into `jobs`), ties by index: its
/// runs `(job index, start, end)` up to the first job that misses its deadline (its
/// run the last, ending when the job would have finished), and that job.
pub fn edf_runs(jobs: &[OfflineJob], mut set: Vec<usize>) -> (Vec<(usize, u64, u64)>, Option<usize>) {
    set.sort_by_key(|&i| (jobs[i].release, i));
    // Released jobs by deadline, with their remaining work.
    let mut ready: BinaryHeap<Reverse<(u64, usize, u64)>> = BinaryHeap::new();
    let mut runs = Vec::new();
    let (mut now, mut next) = (0u64, 0usize);
    loop {
        if ready.is_empty() {
            let Some(&i) = set.get(next) else { return (runs, None) };
            now = now.max(jobs[i].release);
        }
        while let Some(&i) = set.get(next).filter(|&&i| jobs[i].release <= now) {
            ready.push(Reverse((jobs[i].deadline, i, jobs[i].p)));
            next += 1;
        }
        let Some(Reverse((deadline, i, remaining))) = ready.pop() else { continue };
        let until = set.get(next).map_or(u64::MAX, |&k| jobs[k].release);
        // A finish past `u64::MAX` is past every deadline.
        let finish = now.checked_add(remaining);
        if finish.is_none_or(|f| f <= until) {
            let end = finish.unwrap_or(u64::MAX);
            runs.push((i, now, end));
            if finish.is_none_or(|f| f > deadline) {
                return (runs, Some(i));
            }
            now = end;
        } else {
            runs.push((i, now, until));
            ready.push(Reverse((deadline, i, remaining - (until - now))));
            now = until;
        }
    }
}

/// The window's jobs split into clusters whose windows `[release, deadline)` do not
/// overlap another cluster's: no schedule lets one cluster's jobs share time with
/// another's, so each cluster's optimum is found alone and the window's is their sum.
/// Each cluster lists indices into `jobs`, in release order.
pub fn clusters(jobs: &[OfflineJob]) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by_key(|&i| (jobs[i].release, i));
    let mut out: Vec<Vec<usize>> = Vec::new();
    let mut reach = 0u64;
    for i in order {
        match out.last_mut() {
            Some(cluster) if jobs[i].release < reach => cluster.push(i),
            _ => out.push(vec![i]),
        }
        reach = reach.max(jobs[i].deadline);
    }
    out
}

/// Two upper bounds of `V*` in work times `u_max`, to say where `c_V^l`'s slack comes
/// from: `limited`, `c_V^l`'s own denominator `u_max min(sum p, m d_max)`, and
/// `clustered`, `u_max sum_c min(sum_c p, m span_c)` over the clusters, which leaves
/// out the time outside every job's window (no schedule can use it) and caps each
/// cluster by its own span. `V* <= clustered <= limited`.
pub fn work_bounds(jobs: &[OfflineJob], machines: u64, u_max: u64) -> (u128, u128) {
    let m = u128::from(machines);
    let work: u128 = jobs.iter().map(|j| u128::from(j.p)).sum();
    let d_max = jobs.iter().map(|j| u128::from(j.deadline)).max().unwrap_or(0);
    let clustered: u128 = clusters(jobs)
        .iter()
        .map(|c| {
            let (work, span) = work_and_span(c.iter().map(|&i| &jobs[i]));
            work.min(m * u128::from(span))
        })
        .sum();
    let u = u128::from(u_max);
    (u * work.min(m * d_max), u * clustered)
}

/// The work of `jobs` and their span, from the earliest release to the latest
/// deadline (0 for none).
pub fn work_and_span<'a>(jobs: impl Iterator<Item = &'a OfflineJob> + Clone) -> (u128, u64) {
    let work = jobs.clone().map(|j| u128::from(j.p)).sum();
    let start = jobs.clone().map(|j| j.release).min().unwrap_or(0);
    let end = jobs.map(|j| j.deadline).max().unwrap_or(0);
    (work, end.saturating_sub(start))
}

/// Whether `job` has no slack (`d - r = p`): it runs over its whole window, a fixed
/// interval.
pub fn without_slack(job: &OfflineJob) -> bool {
    job.deadline - job.release == job.p
}

/// How a window's `V*` was settled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// `best == upper`: the optimum, proven.
    Exact,
    /// The time limit stopped the solver: `V*` lies in `[best, upper]`.
    Bracketed,
}

/// What proves a window's upper bound of `V*` (`bound_by` in `cv.csv`): the most
/// any of its clusters needed, in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Proof {
    /// Every job that fits alone is earned: the bound is all of their income.
    AllEarned,
    /// The clusters' capacity bound (`bound_clustered`) meets the best schedule.
    Capacity,
    /// The optimum of the model's linear relaxation, floored.
    Relaxation,
    /// The dual bound of the solver's branch and bound (of the whole model, or of the
    /// pooled one on several machines), floored.
    BranchAndBound,
    /// Nothing closes it: `V*` is bracketed.
    Open,
}

impl Proof {
    pub fn name(self) -> &'static str {
        match self {
            Self::AllEarned => "all_earned",
            Self::Capacity => "capacity",
            Self::Relaxation => "relaxation",
            Self::BranchAndBound => "branch_and_bound",
            Self::Open => "open",
        }
    }
}

/// A window's `V*`: `best`, the income of a schedule checked exactly (every machine's
/// jobs by EDF), and `upper`, a proven upper bound (the solver's dual bound, floored).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Bracket {
    pub best: u128,
    pub upper: u128,
}

impl Bracket {
    pub fn exact(value: u128) -> Self {
        Self { best: value, upper: value }
    }

    pub fn status(&self) -> Status {
        if self.best >= self.upper { Status::Exact } else { Status::Bracketed }
    }

    /// The sum of two independent parts' brackets.
    pub fn plus(self, other: Self) -> Self {
        Self { best: self.best + other.best, upper: self.upper + other.upper }
    }

    /// `V*` as text: the value, or `[best, upper]`.
    pub fn label(&self) -> String {
        match self.status() {
            Status::Exact => self.best.to_string(),
            Status::Bracketed => format!("[{}, {}]", self.best, self.upper),
        }
    }

    /// `c_V = V / V*` for the greedy income `v`: `(low, high)`, equal when exact
    /// (`V / upper` and `V / best`). A window where no schedule earns anything has
    /// `c_V = 1`: greedy earned all there was.
    pub fn factor(&self, v: u128) -> (f64, f64) {
        let ratio = |den: u128| if den == 0 { 1.0 } else { v as f64 / den as f64 };
        (ratio(self.upper), ratio(self.best))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(release: u64, p: u64, deadline: u64) -> OfflineJob {
        OfflineJob { release, p, deadline, income: p }
    }

    #[test]
    fn edf_agrees_with_the_reference_on_small_sets() {
        let sets: [&[(u64, u64, u64)]; 5] = [
            &[(0, 3, 4), (0, 4, 4)],
            &[(0, 4, 6), (1, 2, 3)],
            &[(0, 4, 6), (1, 2, 3), (3, 1, 5)],
            &[(5, 3, 8), (0, 1, 1)],
            &[(0, 2, 10), (2, 2, 4), (2, 2, 6), (6, 4, 10)],
        ];
        let expected = [false, true, false, true, true];
        for (set, want) in sets.iter().zip(expected) {
            let jobs: Vec<OfflineJob> = set.iter().map(|&(r, p, d)| job(r, p, d)).collect();
            assert_eq!(edf_feasible(&jobs), want, "{set:?}");
            let one = replay::model::service_level::optimal_income(&jobs, 1);
            let all: u128 = jobs.iter().map(|j| u128::from(j.income)).sum();
            assert_eq!(one == all, want, "{set:?}");
        }
    }

    #[test]
    fn clusters_split_where_no_window_overlaps() {
        let jobs = [job(0, 1, 5), job(4, 1, 6), job(6, 1, 8), job(20, 1, 30), job(7, 1, 9)];
        assert_eq!(clusters(&jobs), vec![vec![0, 1], vec![2, 4], vec![3]]);
    }

    #[test]
    fn a_bracket_reads_as_its_value_or_its_range() {
        let exact = Bracket::exact(40);
        assert_eq!((exact.status(), exact.label()), (Status::Exact, "40".to_owned()));
        assert_eq!(exact.factor(30), (0.75, 0.75));
        let open = Bracket { best: 40, upper: 50 };
        assert_eq!((open.status(), open.label()), (Status::Bracketed, "[40, 50]".to_owned()));
        assert_eq!(open.factor(30), (0.6, 0.75));
        assert_eq!(Bracket::exact(0).factor(0), (1.0, 1.0));
        assert_eq!(open.plus(exact), Bracket { best: 80, upper: 90 });
    }
}
