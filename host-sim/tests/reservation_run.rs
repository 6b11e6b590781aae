//! The reservation run loop on a hand-made workload, with every figure worked out by
//! hand: four nodes, one-minute slots, one 400-second window.

use host_sim::reservation::mapping::ReserveJob;
use host_sim::reservation::metrics::WindowStats;
use host_sim::reservation::run::{self, RunOptions};
use kernel::Tick;
use kernel::reservation::{Criterion, Fixing, RequestKind};

#[allow(clippy::too_many_arguments)]
fn job(
    id: u32,
    submit: Tick,
    nodes: u32,
    estimate: Tick,
    actual: Tick,
    ready: Tick,
    deadline: Tick,
) -> ReserveJob {
    let kind = if deadline - ready > estimate { RequestKind::Flexible } else { RequestKind::Strict };
    ReserveJob { id, submit, nodes, estimate, actual, ready, deadline, kind, shuffle_key: id }
}

/// A: all four nodes over [60, 180). B: two nodes over [120, 240), clashes with A.
/// C: two nodes reserved over [180, 300), finishes early at 240. D: four nodes for 60 s
/// anywhere in [240, 360]; C holds slot [240, 300), so D goes to [300, 360). E: two
/// nodes over [360, 420), runs 120 s and is cut at 420.
fn workload() -> Vec<ReserveJob> {
    vec![
        job(1, 0, 4, 120, 120, 60, 180),
        job(2, 0, 2, 120, 120, 120, 240),
        job(3, 30, 2, 120, 60, 180, 300),
        job(4, 100, 4, 60, 60, 240, 360),
        job(5, 250, 2, 60, 120, 360, 420),
    ]
}

fn run(offers_phi_milli: Option<u64>) -> WindowStats {
    let options = RunOptions {
        nodes: 4,
        slot_ticks: 60,
        criterion: Criterion::Edf,
        fixing: Fixing::Never,
        offers_phi_milli,
        offer_trials: 16,
        window_ticks: 400,
    };
    let jobs = workload();
    let split = run::split(&jobs, 400);
    assert_eq!(split.windows.len(), 1);
    assert!(!split.trailing_dropped, "a single window is kept");
    let mut stats = run::run_windows(&jobs, &split.windows, &options).unwrap();
    assert_eq!(stats.len(), 1);
    stats.remove(0)
}

#[test]
fn hand_made_workload_without_offers() {
    let w = run(None);
    assert_eq!((w.requests, w.strict, w.flexible), (5, 4, 1));
    assert_eq!(w.accepted, 4);
    assert_eq!(w.rejected.get("no_room"), Some(&1));
    assert_eq!((w.offers_made, w.offers_accepted), (0, 0));
    assert_eq!((w.early_finishes, w.cut_overruns), (1, 1));
    // Inside [0, 400): A 4 x 120 + C 2 x 60 + D 4 x 60 + E 2 x 40 = 920 of 4 x 400.
    assert_eq!(w.work_in_window, 920);
    assert_eq!(w.utilisation(), 57.5);
    // In all: E's 2 x 60 counts whole; the span runs to E's cut at 420.
    assert_eq!((w.work_total, w.last_end), (960, 420));
    assert_eq!(w.utilisation_span(), 96_000.0 / 1680.0);
    assert_eq!(w.acceptance_rate(), 0.8);
}

#[test]
fn the_user_takes_an_offer_within_the_bound() {
    // B's only offer starts after A, at 180: its deadline moves from 240 to 300,
    // phi = 60 / 120 = 0.5. B then shares [180, 300) with C; D and E are unchanged.
    let w = run(Some(500));
    assert_eq!(w.accepted, 4);
    assert_eq!(w.offers_accepted, 1);
    assert!(w.offers_made >= 1);
    assert_eq!(w.offer_phi_sum, 0.5);
    assert_eq!(w.work_in_window, 920 + 240);
    assert_eq!(w.utilisation(), 72.5);
    assert_eq!(w.acceptance_rate(), 1.0);
}

#[test]
fn an_offer_beyond_the_bound_is_declined() {
    let w = run(Some(250));
    assert!(w.offers_made >= 1);
    assert_eq!((w.accepted, w.offers_accepted), (4, 0));
    assert_eq!(w.utilisation(), 57.5);
}

#[test]
fn offers_are_measured_exactly() {
    use kernel::reservation::Request;
    let request = Request {
        t: 0,
        job: 1,
        nodes: 1,
        estimate: 120,
        ready: 120,
        deadline: 240,
        kind: RequestKind::Strict,
        shuffle_key: 0,
    };
    assert_eq!(run::offer_shift(&request, 180, 300), 60);
    assert_eq!(run::offer_shift(&request, 90, 210), 30);
    assert!(run::within(60, 120, 500));
    assert!(!run::within(61, 120, 500));
    assert!(run::within(0, 1, 0));
}

#[test]
fn windows_are_cut_and_the_last_is_dropped() {
    let jobs: Vec<ReserveJob> =
        [0, 10, 25, 31, 65].iter().map(|&t| job(t as u32 + 1, t, 1, 60, 60, t, t + 60)).collect();
    let split = run::split(&jobs, 20);
    // Windows [0, 20), [20, 40), (none in [40, 60)), [60, 80): the last is dropped.
    let ranges: Vec<_> = split.windows.iter().map(|w| (w.index, w.start, w.jobs.clone())).collect();
    assert_eq!(ranges, vec![(0, 0, 0..2), (1, 20, 2..4)]);
    assert_eq!(split.empty, 1);
    assert!(split.trailing_dropped);
}
