//! The optimum against replay's brute force on seeded random instances.

#[cfg(feature = "optimum")]
use rand::{RngExt, SeedableRng};
#[cfg(feature = "optimum")]
use rand_chacha::ChaCha8Rng;
use replay::model::service_level::OfflineJob;
#[cfg(feature = "optimum")]
use replay::model::service_level::{MAX_BRUTE_FORCE_JOBS, optimal_income};

use super::exact::{Bracket, Proof, Status};
#[cfg(feature = "optimum")]
use super::Method;
use super::{Budget, OptimumError, Solved, audited, optimum, sample};

#[cfg(feature = "optimum")]
/// A random instance: up to 12 jobs, releases in `0..40`, work `1..12`, and one or two
/// levels (slack factors 1, 1.5, 2 or 3 at their thesis prices `21 - sf`, rounded up).
fn instance(rng: &mut ChaCha8Rng, two_levels: bool) -> Vec<OfflineJob> {
    let levels: [(u64, u64); 4] = [(1000, 20), (1500, 20), (2000, 19), (3000, 18)];
    let first = levels[rng.random_range(0..4)];
    let second = if two_levels { levels[rng.random_range(0..4)] } else { first };
    let n = rng.random_range(1..=MAX_BRUTE_FORCE_JOBS);
    (0..n)
        .map(|_| {
            let (slack_milli, price) = if rng.random_range(0..2) == 0 { first } else { second };
            let release = rng.random_range(0..40);
            let p = rng.random_range(1..12);
            let deadline = release + (slack_milli * p).div_ceil(1000);
            OfflineJob { release, p, deadline, income: price * p }
        })
        .collect()
}

/// A known schedule: each job in release order on the first machine whose jobs stay
/// EDF-feasible with it, or on none.
#[cfg(feature = "optimum")]
fn first_fit(jobs: &[OfflineJob], machines: usize) -> Vec<Option<u16>> {
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by_key(|&j| jobs[j].release);
    let mut on: Vec<Vec<OfflineJob>> = vec![Vec::new(); machines];
    let mut placed = vec![None; jobs.len()];
    for j in order {
        for (m, set) in on.iter_mut().enumerate() {
            set.push(jobs[j]);
            if super::exact::edf_feasible(set) {
                placed[j] = u16::try_from(m).ok();
                break;
            }
            set.pop();
        }
    }
    placed
}

#[cfg(feature = "optimum")]
#[test]
fn the_optimum_is_the_brute_force_one_on_every_small_instance() {
    let mut rng = ChaCha8Rng::seed_from_u64(20);
    let (mut solved, mut proofs) = (0, [0usize; 5]);
    for case in 0..240 {
        let jobs = instance(&mut rng, case % 2 == 1);
        let machines = 1 + case % 4;
        // Every other case starts the solver from a known schedule, as the greedy run's.
        let known = if case % 4 < 2 { first_fit(&jobs, machines) } else { Vec::new() };
        let want = optimal_income(&jobs, machines);
        // Both methods: the steps and the whole model alone.
        for method in [Method::Steps, Method::Whole] {
            let found = optimum(&jobs, &known, machines, Budget { seconds: 60.0, method }).unwrap();
            assert_eq!(found.bracket.status(), Status::Exact, "case {case}, {method:?}: {jobs:?}");
            assert_eq!(found.bracket.best, want, "case {case}, {machines} machines, {method:?}: {jobs:?}");
            // The audit replayed a schedule earning it, and a bound closed it.
            assert_eq!(found.audited, want, "case {case}, {method:?}");
            assert_ne!(found.proof, Proof::Open, "case {case}, {method:?}");
            proofs[found.proof as usize] += 1;
            solved += found.solved;
        }
    }
    // The solver, not only the shortcuts, was tried on many of them, and each kind of
    // proof a cluster can have closed some.
    assert!(solved > 100, "{solved} clusters went to the solver");
    let [all, _, relaxation, search, _] = proofs;
    assert!(all > 0 && relaxation > 0 && search > 0, "{proofs:?}");
}

#[cfg(feature = "optimum")]
#[test]
fn a_known_schedule_is_never_beaten_downwards() {
    // Three jobs due at 4 on one machine: one fits. The known schedule completed the
    // middle one; the optimum is the dearest.
    let jobs = [
        OfflineJob { release: 0, p: 4, deadline: 4, income: 40 },
        OfflineJob { release: 0, p: 4, deadline: 4, income: 80 },
        OfflineJob { release: 0, p: 4, deadline: 4, income: 60 },
    ];
    let found = optimum(&jobs, &[None, Some(0), None], 1, Budget::of(60.0)).unwrap();
    assert_eq!((found.bracket.best, found.bracket.upper, found.solved), (80, 80, 1));
    assert_eq!(found.audited, 80);
}

#[cfg(feature = "optimum")]
#[test]
fn no_relaxation_runs_a_job_on_two_machines_at_once() {
    // Two machines: two jobs without slack fill [0, 2], two more [4, 6], so a fifth job
    // of 4 ticks due at 6 has [2, 4] left on either machine. Run on both machines at
    // once it would fit (income 12); it cannot, and the optimum is 10: a machine holds
    // it after one job of the first pair, the other machine one job of each pair.
    let pinned = |release| OfflineJob { release, p: 2, deadline: release + 2, income: 2 };
    let long = OfflineJob { release: 0, p: 4, deadline: 6, income: 4 };
    let jobs = [pinned(0), pinned(0), long, pinned(4), pinned(4)];
    let none = [false; 5];
    // The model on two machines, and the two pooled into one with migration.
    for (machines, pooled) in [(2, 1), (1, 2)] {
        let shape = super::milp::Shape { relaxed: true, forced: &none, pooled, busy: &[] };
        let relaxed = super::milp::run(&jobs, machines, 1, shape, &[], 10.0).unwrap();
        assert!((relaxed.bound - 10.0).abs() < 1e-6, "{machines} machine(s), {pooled} pooled: {}", relaxed.bound);
    }
    let found = optimum(&jobs, &[None; 5], 2, Budget::of(60.0)).unwrap();
    assert_eq!((found.bracket.best, found.bracket.upper, found.proof), (10, 10, Proof::Relaxation));
    assert_eq!(found.audited, 10);
}

#[cfg(feature = "optimum")]
#[test]
fn slices_raise_a_schedule_to_the_optimum_and_never_break_it() {
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let mut raised = 0;
    for case in 0..60 {
        let jobs = instance(&mut rng, case % 2 == 1);
        let machines = 2 + case % 3;
        let known = first_fit(&jobs, machines);
        let start = super::exact::income(&jobs, &known);
        let want = optimal_income(&jobs, machines);
        // Slices of three jobs around the others' runs, doubled until one is all jobs.
        let (schedule, earned) = super::slices::sweeps(&jobs, (machines, 1), &known, (u128::MAX, 60.0), 3).unwrap();
        assert_eq!(super::exact::income(&jobs, &schedule), earned, "case {case}");
        assert!(super::improve::every_machine_feasible(&jobs, &schedule, machines), "case {case}");
        assert_eq!(earned, want, "case {case}, {machines} machines, from {start}: {jobs:?}");
        raised += usize::from(earned > start);
    }
    assert!(raised > 5, "{raised} schedules raised");
}

#[cfg(feature = "optimum")]
#[test]
fn a_slice_runs_around_the_jobs_outside_it() {
    // Machine 0 is full with a job without slack; the slice (the other two jobs) fits
    // both on machine 1 only, and must not count on machine 0's time.
    let jobs = [
        OfflineJob { release: 0, p: 10, deadline: 10, income: 10 },
        OfflineJob { release: 0, p: 5, deadline: 10, income: 5 },
        OfflineJob { release: 0, p: 5, deadline: 10, income: 50 },
    ];
    let found = super::slices::solve_slice(&jobs, (2, 1), &[Some(0), Some(0), None], &[1, 2], 10.0);
    assert_eq!(found.ok().flatten(), None, "the known schedule misses a deadline: no runs to keep");
    let found = super::slices::solve_slice(&jobs, (2, 1), &[Some(0), Some(1), None], &[1, 2], 10.0).unwrap();
    assert_eq!(found, Some((vec![Some(0), Some(1), Some(1)], 65)));
    // With machine 1 half taken too, only one of them fits, even relaxed.
    let busy = [vec![(0, 10)], vec![(0, 5)]];
    let shape = super::milp::Shape { relaxed: true, forced: &[false; 2], pooled: 1, busy: &busy };
    let relaxed = super::milp::run(&jobs[1..], 2, 1, shape, &[], 10.0).unwrap();
    assert!((relaxed.bound - 50.0).abs() < 1e-6, "{}", relaxed.bound);
}

#[test]
fn a_spent_time_limit_brackets_with_the_known_schedule_and_everything() {
    let jobs = [
        OfflineJob { release: 0, p: 4, deadline: 4, income: 40 },
        OfflineJob { release: 0, p: 4, deadline: 4, income: 80 },
    ];
    let found = optimum(&jobs, &[Some(0), None], 1, Budget::of(0.0)).unwrap();
    assert_eq!((found.bracket.best, found.bracket.upper), (40, 120));
    assert_eq!(found.bracket.status(), Status::Bracketed);
    assert_eq!((found.audited, found.proof), (40, Proof::Open));
}

#[test]
fn a_schedule_the_audit_refuses_or_that_earns_another_income_fails() {
    let jobs = [
        OfflineJob { release: 0, p: 4, deadline: 6, income: 40 },
        OfflineJob { release: 0, p: 4, deadline: 6, income: 80 },
    ];
    let solved = |schedule: Vec<Option<u16>>, best| Solved { bracket: Bracket::exact(best), schedule, proof: Proof::Relaxation };
    // Both on one machine miss a deadline.
    let refused = audited(&jobs, 2, &solved(vec![Some(0), Some(0)], 120));
    assert!(matches!(refused, Err(OptimumError::Audit { best: 120, .. })), "{refused:?}");
    let other = audited(&jobs, 2, &solved(vec![Some(1), None], 80));
    assert!(matches!(other, Err(OptimumError::AuditedIncome { best: 80, audited: 40 })), "{other:?}");
    assert_eq!(audited(&jobs, 2, &solved(vec![Some(1), Some(0)], 120)).unwrap(), 120);
}

#[test]
fn samples_are_evenly_spaced() {
    assert_eq!(sample(50, Some(4)), Some(vec![6, 18, 31, 43]));
    assert_eq!(sample(3, Some(4)), None);
    assert_eq!(sample(10, None), None);
}
