//! SWF lines into reservation requests: processor counts, the one-minute cut, the
//! deadline model, flexible windows, load scaling, run-time models and determinism.

use host_sim::reservation::mapping::{self, Estimates, Flex, MapOptions, ReserveJob};
use host_sim::swf::{self, SwfOptions};
use kernel::reservation::RequestKind;

/// Job 1: 8 allocated. Job 2: allocation unknown, 16 requested. Job 3: 59 s, removed.
/// Job 4: 60 s, kept. Job 5: neither count, left out. Job 6: 1 hour on 128.
const TRACE: &str = "\
; MaxNodes: 128
1 0 5 600 8 -1 -1 8 900 -1 1 1 1 1 1 1 -1 -1
2 100 0 1200 -1 -1 -1 16 1800 -1 1 1 1 1 1 1 -1 -1
3 150 0 59 4 -1 -1 4 60 -1 1 1 1 1 1 1 -1 -1
4 300 0 60 2 -1 -1 2 60 -1 1 1 1 1 1 1 -1 -1
5 400 0 600 -1 -1 -1 -1 600 -1 1 1 1 1 1 1 -1 -1
6 1000 0 3600 128 -1 -1 128 3600 -1 1 1 1 1 1 1 -1 -1
";

fn map(options: MapOptions) -> mapping::Mapped {
    let trace = swf::parse("hand.swf", TRACE.as_bytes(), SwfOptions::default()).unwrap();
    mapping::map_jobs(&trace.workload.jobs, &options)
}

fn options(flex: Flex, estimates: Estimates, load_milli: u64) -> MapOptions {
    MapOptions { seed: 1, load_milli, flex, estimates }
}

#[test]
fn processors_fall_back_to_requested_and_short_jobs_go() {
    let trace = swf::parse("hand.swf", TRACE.as_bytes(), SwfOptions::default()).unwrap();
    let procs: Vec<(u32, u32)> = trace.workload.jobs.iter().map(|j| (j.id, j.procs)).collect();
    assert_eq!(procs, [(1, 8), (2, 16), (3, 4), (4, 2), (5, 0), (6, 128)]);
    let mapped = map(options(Flex::None, Estimates::Accurate, 1000));
    let ids: Vec<u32> = mapped.jobs.iter().map(|j| j.id).collect();
    assert_eq!(ids, [1, 2, 4, 6]);
    assert_eq!((mapped.excluded_short, mapped.excluded_no_procs), (1, 1));
    let nodes: Vec<u32> = mapped.jobs.iter().map(|j| j.nodes).collect();
    assert_eq!(nodes, [8, 16, 2, 128]);
}

/// The deadline model: `D = t + Te p` with `p >= 1`, a strict window `[D - Te, D]`.
fn check_strict(j: &ReserveJob) {
    assert_eq!(j.kind, RequestKind::Strict);
    assert_eq!(j.deadline - j.ready, j.estimate);
    assert!(j.ready >= j.submit);
    assert_eq!((j.deadline - j.submit) % j.estimate, 0);
}

#[test]
fn fixed_intervals_are_strict_reservations() {
    let mapped = map(options(Flex::None, Estimates::Accurate, 1000));
    let submits: Vec<u64> = mapped.jobs.iter().map(|j| j.submit).collect();
    assert_eq!(submits, [0, 100, 300, 1000]);
    for j in &mapped.jobs {
        check_strict(j);
        assert_eq!(j.actual, j.estimate);
    }
}

#[test]
fn load_divides_submit_times() {
    let mapped = map(options(Flex::None, Estimates::Accurate, 1250));
    let submits: Vec<u64> = mapped.jobs.iter().map(|j| j.submit).collect();
    assert_eq!(submits, [0, 80, 240, 800]);
    assert_eq!(mapping::scale(1000, 1500), 666);
    // The draws do not depend on the load: the same p for every job.
    let base = map(options(Flex::None, Estimates::Accurate, 1000));
    for (a, b) in mapped.jobs.iter().zip(&base.jobs) {
        assert_eq!(a.deadline - a.submit, b.deadline - b.submit);
    }
}

#[test]
fn flexible_windows_only_widen_deadlines() {
    let fixed = map(options(Flex::None, Estimates::Accurate, 1000));
    for flex in [Flex::Short, Flex::Medium, Flex::Long] {
        let mapped = map(options(flex, Estimates::Accurate, 1000));
        for (a, b) in mapped.jobs.iter().zip(&fixed.jobs) {
            assert_eq!((a.ready, a.estimate, a.shuffle_key), (b.ready, b.estimate, b.shuffle_key));
            match a.kind {
                RequestKind::Flexible => assert!(a.deadline > b.deadline),
                _ => assert_eq!(a.deadline, b.deadline),
            }
        }
    }
}

#[test]
fn inaccurate_estimates_shorten_most_runs() {
    let mapped = map(options(Flex::None, Estimates::Poisson80, 1000));
    for j in &mapped.jobs {
        assert!(j.actual >= 1);
        assert_ne!(j.actual, j.estimate, "80% on average, exactly 100% is rare");
    }
}

#[test]
fn same_seed_same_requests_and_another_seed_differs() {
    let a = map(options(Flex::Long, Estimates::Poisson80, 1000));
    let b = map(options(Flex::Long, Estimates::Poisson80, 1000));
    assert_eq!(a, b);
    let c = map(MapOptions { seed: 2, ..options(Flex::Long, Estimates::Poisson80, 1000) });
    assert_ne!(a.jobs, c.jobs);
}
