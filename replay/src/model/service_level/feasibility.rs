//! Brute-force feasibility on one preemptive machine: the ground truth that the
//! admission test and the greedy policy are measured against.
//!
//! Both functions rest on one classical fact: on a single preemptive machine,
//! earliest-deadline-first meets every deadline whenever any schedule does (Liu and
//! Layland; Horn for release times). So "is this set feasible?" is answered by running
//! EDF over it and looking for a miss. Times are `u128` so no sum can overflow.

use kernel::Tick;

/// [`optimal_accepted_work`] enumerates all subsets; more jobs than this are refused.
pub const MAX_OPTIMAL_JOBS: usize = 10;

/// Whether `jobs`, given as `(remaining, deadline)` and all available at `now`, can
/// all meet their deadlines on one machine: in deadline order, every cumulative
/// finish time `now + sum of remaining` must be at or before that job's deadline.
pub fn edf_feasible(now: Tick, jobs: &[(Tick, Tick)]) -> bool {
    let mut by_deadline = jobs.to_vec();
    by_deadline.sort_by_key(|&(_, deadline)| deadline);
    let mut finish = u128::from(now);
    by_deadline.iter().all(|&(remaining, deadline)| {
        finish += u128::from(remaining);
        finish <= u128::from(deadline)
    })
}

/// The largest total processing time of a subset of `jobs`, given as
/// `(release, p, deadline)`, that one preemptive machine can finish on time, each job
/// running only from its release: what an offline scheduler that knows every job in
/// advance could accept.
///
/// # Panics
/// When given more than [`MAX_OPTIMAL_JOBS`] jobs: the search is over all subsets.
pub fn optimal_accepted_work(jobs: &[(Tick, Tick, Tick)]) -> u64 {
    assert!(jobs.len() <= MAX_OPTIMAL_JOBS, "{} jobs is too many for a brute-force optimum", jobs.len());
    let mut best = 0u128;
    let mut subset = Vec::with_capacity(jobs.len());
    for mask in 0u32..(1 << jobs.len()) {
        subset.clear();
        subset.extend(jobs.iter().enumerate().filter(|&(i, _)| mask & (1 << i) != 0).map(|(_, &job)| job));
        let work: u128 = subset.iter().map(|&(_, p, _)| u128::from(p)).sum();
        // Only a subset that would beat the best so far is worth simulating.
        if work > best && edf_meets_deadlines(&subset) {
            best = work;
        }
    }
    // A feasible set runs between its first release and last deadline, both ticks.
    u64::try_from(best).unwrap_or(u64::MAX)
}

/// Runs preemptive EDF over `jobs` (`(release, p, deadline)`) and reports whether every
/// job completes by its deadline. Between two releases the released job with the
/// earliest deadline runs; ties go to the earlier index, which changes nothing here.
pub(crate) fn edf_meets_deadlines(jobs: &[(Tick, Tick, Tick)]) -> bool {
    let mut remaining: Vec<u128> = jobs.iter().map(|&(_, p, _)| u128::from(p)).collect();
    let release = |i: usize| u128::from(jobs[i].0);
    let mut now = 0u128;
    loop {
        let open = |i: &usize| remaining[*i] > 0;
        let ready = (0..jobs.len()).filter(open).filter(|&i| release(i) <= now).min_by_key(|&i| jobs[i].2);
        let next_release = (0..jobs.len()).filter(open).map(release).filter(|&r| r > now).min();
        let Some(i) = ready else {
            match next_release {
                Some(r) => now = r,
                None => return true,
            }
            continue;
        };
        let run = next_release.map_or(remaining[i], |r| remaining[i].min(r - now));
        now += run;
        remaining[i] -= run;
        if remaining[i] == 0 && now > u128::from(jobs[i].2) {
            return false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edf_feasible_checks_cumulative_finish_in_deadline_order() {
        assert!(edf_feasible(0, &[]));
        // Given out of order: sorted, the finishes are 2 <= 2 and 5 <= 5.
        assert!(edf_feasible(0, &[(3, 5), (2, 2)]));
        assert!(!edf_feasible(1, &[(3, 5), (2, 2)]));
        assert!(!edf_feasible(0, &[(Tick::MAX, Tick::MAX), (1, Tick::MAX)]));
    }

    #[test]
    fn optimum_chooses_the_heaviest_feasible_subset() {
        assert_eq!(optimal_accepted_work(&[]), 0);
        // Only one of the first two fits in [0, 4]; the third fits after either.
        assert_eq!(optimal_accepted_work(&[(0, 3, 4), (0, 4, 4), (4, 2, 6)]), 6);
        // Preemption is allowed: the long job is split around the short one.
        assert_eq!(optimal_accepted_work(&[(0, 4, 6), (1, 2, 3)]), 6);
        // A job that cannot fit even alone never counts.
        assert_eq!(optimal_accepted_work(&[(5, 3, 7)]), 0);
    }

    #[test]
    fn a_late_release_cannot_be_served_early() {
        // Both finish by 4 if the second could start at 0; it is released at 2.
        assert!(!edf_meets_deadlines(&[(0, 2, 4), (2, 3, 4)]));
        assert!(edf_meets_deadlines(&[(0, 2, 4), (2, 2, 4)]));
    }
}
