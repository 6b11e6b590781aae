//! The offline optimum by brute force, on one machine or several: the income `V*` the
//! competitive factor `c_V = V / V*` divides by, for instances small enough to search.
//!
//! A schedule accepts a subset of the jobs and gives each accepted job one machine;
//! a job runs only from its release, may be preempted, and never migrates (the
//! kernel's rules). On each machine, preemptive EDF meets every deadline whenever any
//! schedule does, so a subset with an assignment is feasible exactly when EDF meets
//! the deadlines on every machine. The search assigns the jobs one at a time, heaviest
//! first, to a machine that stays feasible or to no machine; machines are
//! interchangeable, so a job opens at most one new machine, and a branch stops when
//! the income still available cannot beat the best found.

use kernel::Tick;

use super::feasibility::edf_meets_deadlines;

/// [`optimal_income`] searches every assignment; more jobs than this are refused.
pub const MAX_BRUTE_FORCE_JOBS: usize = 12;

/// One job of an offline instance: released at `release`, `p` ticks of work, due at
/// `deadline`, and earning `income` when it finishes on time (`u_j p_j` in the thesis).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OfflineJob {
    pub release: Tick,
    pub p: Tick,
    pub deadline: Tick,
    pub income: u64,
}

/// The largest total income of jobs that `machines` preemptive machines can finish
/// on time without migration: what a scheduler that knew every job in advance could
/// earn. Zero machines earn nothing.
///
/// # Panics
/// When given more than [`MAX_BRUTE_FORCE_JOBS`] jobs: the search is exponential.
pub fn optimal_income(jobs: &[OfflineJob], machines: usize) -> u128 {
    assert!(jobs.len() <= MAX_BRUTE_FORCE_JOBS, "{} jobs is too many for a brute-force optimum", jobs.len());
    let mut order: Vec<OfflineJob> = jobs.to_vec();
    order.sort_by_key(|job| std::cmp::Reverse(job.income));
    // `left[i]`: the income of jobs `i..`, the most a branch at job `i` can still add.
    let mut left = vec![0u128; order.len() + 1];
    for i in (0..order.len()).rev() {
        left[i] = left[i + 1] + u128::from(order[i].income);
    }
    let mut search = Search { order, left, machines: vec![Vec::new(); machines], best: 0 };
    search.place(0, 0);
    search.best
}

struct Search {
    order: Vec<OfflineJob>,
    left: Vec<u128>,
    /// The jobs each machine holds, as `(release, p, deadline)`.
    machines: Vec<Vec<(Tick, Tick, Tick)>>,
    best: u128,
}

impl Search {
    fn place(&mut self, i: usize, income: u128) {
        self.best = self.best.max(income);
        let Some(&job) = self.order.get(i) else { return };
        if income + self.left[i] <= self.best {
            return;
        }
        let entry = (job.release, job.p, job.deadline);
        // Machines holding nothing are alike: trying the first of them is enough.
        let mut tried_empty = false;
        for m in 0..self.machines.len() {
            if self.machines[m].is_empty() {
                if tried_empty {
                    continue;
                }
                tried_empty = true;
            }
            self.machines[m].push(entry);
            if edf_meets_deadlines(&self.machines[m]) {
                self.place(i + 1, income + u128::from(job.income));
            }
            self.machines[m].pop();
        }
        self.place(i + 1, income);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::service_level::optimal_accepted_work;

    fn job(release: Tick, p: Tick, deadline: Tick, income: u64) -> OfflineJob {
        OfflineJob { release, p, deadline, income }
    }

    #[test]
    fn one_machine_with_incomes_equal_to_work_is_the_accepted_work_optimum() {
        let cases: [&[(Tick, Tick, Tick)]; 3] =
            [&[(0, 3, 4), (0, 4, 4), (4, 2, 6)], &[(0, 4, 6), (1, 2, 3)], &[(5, 3, 7), (0, 1, 1)]];
        for case in cases {
            let jobs: Vec<OfflineJob> = case.iter().map(|&(r, p, d)| job(r, p, d, p)).collect();
            assert_eq!(optimal_income(&jobs, 1), u128::from(optimal_accepted_work(case)));
        }
    }

    #[test]
    fn a_second_machine_takes_what_the_first_cannot() {
        let jobs = [job(0, 4, 4, 4), job(0, 4, 4, 4), job(0, 4, 4, 4)];
        assert_eq!(optimal_income(&jobs, 0), 0);
        assert_eq!(optimal_income(&jobs, 1), 4);
        assert_eq!(optimal_income(&jobs, 2), 8);
        assert_eq!(optimal_income(&jobs, 5), 12);
    }

    #[test]
    fn a_job_never_migrates_between_machines() {
        // Two machines, three jobs of 2 ticks due at 3: with migration the three would
        // share 6 ticks of capacity; without it, one machine cannot hold two of them.
        let jobs = [job(0, 2, 3, 2), job(0, 2, 3, 2), job(0, 2, 3, 2)];
        assert_eq!(optimal_income(&jobs, 2), 4);
    }

    #[test]
    fn the_higher_price_wins_a_conflict() {
        // One slot of 5 ticks: the short job at a high price beats the long cheap one.
        let jobs = [job(0, 5, 5, 5), job(0, 2, 5, 20)];
        assert_eq!(optimal_income(&jobs, 1), 20);
    }
}
