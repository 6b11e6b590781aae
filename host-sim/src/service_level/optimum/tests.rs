//! The optimum against replay's brute force on seeded random instances.

#[cfg(feature = "optimum")]
use rand::{RngExt, SeedableRng};
#[cfg(feature = "optimum")]
use rand_chacha::ChaCha8Rng;
use replay::model::service_level::OfflineJob;
#[cfg(feature = "optimum")]
use replay::model::service_level::{MAX_BRUTE_FORCE_JOBS, optimal_income};

use super::exact::Status;
#[cfg(feature = "optimum")]
use super::Method;
use super::{Budget, optimum, sample};

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
    let mut solved = 0;
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
            solved += found.solved;
        }
    }
    // The solver, not only the shortcuts, was tried on many of them.
    assert!(solved > 100, "{solved} clusters went to the solver");
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
}

#[test]
fn samples_are_evenly_spaced() {
    assert_eq!(sample(50, Some(4)), Some(vec![6, 18, 31, 43]));
    assert_eq!(sample(3, Some(4)), None);
    assert_eq!(sample(10, None), None);
}
