//! The reservation model's rules, one small scenario each, checked decision by decision.
//!
//! Unless a test says otherwise: a pool of 4 nodes, 10-tick slots, a 64-slot horizon
//! (640 ticks at time 0), EDF, no fixing.

use kernel::Tick;
use kernel::reservation::{
    Config, ConfigError, Criterion, Decision, Event, Fixing, Outcome, RejectReason, Request, RequestKind,
    ReservationKernel,
};

use Decision::{Accept, End, Fix, Offer, Reject, Replan, Start};
use RequestKind::{Flexible, RelaxedStart, Strict};

type Kernel = ReservationKernel<64, 8, 8, 3>;

fn kernel_with(criterion: Criterion, fixing: Fixing) -> Kernel {
    Kernel::new(Config { criterion, fixing, ..Config::new(4, 10) }).unwrap()
}

fn kernel() -> Kernel {
    kernel_with(Criterion::Edf, Fixing::Never)
}

#[allow(clippy::too_many_arguments)]
fn request(
    t: Tick,
    job: u32,
    nodes: u32,
    estimate: Tick,
    ready: Tick,
    deadline: Tick,
    kind: RequestKind,
) -> Event {
    Event::Request(Request { t, job, nodes, estimate, ready, deadline, kind, shuffle_key: 0 })
}

/// A strict request at `t` for `[ready, ready + estimate)`.
fn strict(t: Tick, job: u32, nodes: u32, ready: Tick, estimate: Tick) -> Event {
    request(t, job, nodes, estimate, ready, ready + estimate, Strict)
}

/// A relaxed request at `t`: `estimate` ticks by `deadline`.
fn relaxed(t: Tick, job: u32, nodes: u32, estimate: Tick, deadline: Tick) -> Event {
    request(t, job, nodes, estimate, 0, deadline, RelaxedStart)
}

/// A flexible request at `t`: `estimate` ticks inside `[ready, deadline]`.
fn flexible(t: Tick, job: u32, nodes: u32, estimate: Tick, ready: Tick, deadline: Tick) -> Event {
    request(t, job, nodes, estimate, ready, deadline, Flexible)
}

fn accepted(start: Tick) -> Outcome {
    Outcome::Accepted { start }
}

fn rejected(reason: RejectReason, offers: u8) -> Outcome {
    Outcome::Rejected { reason, offers }
}

const ADVANCED: Outcome = Outcome::Advanced;

/// Runs `steps` through `kernel`, compares every decision and outcome, and holds every
/// rejection at the kernel's current time to leaving the state exactly as it was.
fn check<const H: usize, const W: usize, const RUN: usize, const OFFERS: usize>(
    mut kernel: ReservationKernel<H, W, RUN, OFFERS>,
    steps: &[(Event, Outcome, &[Decision])],
) -> ReservationKernel<H, W, RUN, OFFERS> {
    for (i, (event, outcome, expected)) in steps.iter().enumerate() {
        let before = kernel.clone();
        let mut got = Vec::new();
        let out = kernel.step(*event, &mut |d| got.push(d));
        assert_eq!(&got[..], *expected, "decisions of step {i} ({event:?})");
        assert_eq!(out, *outcome, "outcome of step {i} ({event:?})");
        let same_time = event.time().is_none_or(|t| t <= before.now());
        if matches!(out, Outcome::Rejected { .. } | Outcome::Refused(_)) && same_time {
            assert_eq!(kernel, before, "a rejection at the current time changed the state (step {i})");
        }
    }
    kernel
}

// --- The three kinds -------------------------------------------------------------

#[test]
fn a_strict_request_gets_exactly_its_window_or_nothing() {
    check(
        kernel(),
        &[
            (strict(0, 1, 4, 100, 30), accepted(100), &[Accept { job: 1, start: 100 }]),
            // [110, 140) overlaps job 1 on all 4 nodes. Offers, best |ϕ| first: after
            // job 1 (shift 20), before it (shift 40).
            (
                strict(0, 2, 1, 110, 30),
                rejected(RejectReason::NoRoom, 2),
                &[
                    Reject { job: 2, reason: RejectReason::NoRoom },
                    Offer { job: 2, ready: 130, deadline: 160, start: 130 },
                    Offer { job: 2, ready: 70, deadline: 100, start: 70 },
                ],
            ),
            (strict(0, 3, 1, 130, 30), accepted(130), &[Accept { job: 3, start: 130 }]),
        ],
    );
}

#[test]
fn a_relaxed_request_goes_first_fit_from_now() {
    check(
        kernel(),
        &[
            (Event::Advance { t: 5 }, ADVANCED, &[]),
            // [5, 25) occupies slots 0..3 (5 is inside slot 0, 25 inside slot 2).
            (relaxed(5, 1, 4, 20, 100), accepted(5), &[Accept { job: 1, start: 5 }, Start { t: 5, job: 1 }]),
            // Its `ready` is not read: the window opens at 5. Slots 0..3 are full, so
            // the first fit is the boundary of slot 3.
            (relaxed(5, 2, 2, 10, 100), accepted(30), &[Accept { job: 2, start: 30 }]),
            // Latest start 29: slots 0..3 are full, and 30 is too late.
            (
                relaxed(5, 3, 2, 10, 39),
                rejected(RejectReason::NoRoom, 1),
                &[
                    Reject { job: 3, reason: RejectReason::NoRoom },
                    // Just after job 1 (deadline 35) would only narrow the window; just
                    // after job 2 (deadline 40 + 10) fits, and first fit starts it at 30.
                    Offer { job: 3, ready: 5, deadline: 50, start: 30 },
                ],
            ),
        ],
    );
}

#[test]
fn a_flexible_request_moves_inside_its_window() {
    check(
        kernel(),
        &[
            (strict(0, 1, 3, 100, 20), accepted(100), &[Accept { job: 1, start: 100 }]),
            (flexible(0, 2, 2, 10, 100, 150), accepted(120), &[Accept { job: 2, start: 120 }]),
            (flexible(0, 3, 1, 10, 100, 150), accepted(100), &[Accept { job: 3, start: 100 }]),
        ],
    );
}

#[test]
fn slots_are_occupied_by_overlap() {
    check(
        kernel(),
        &[
            // [15, 25) overlaps slots 1 and 2.
            (strict(0, 1, 4, 15, 10), accepted(15), &[Accept { job: 1, start: 15 }]),
            // [25, 35) does not overlap it in ticks, but shares slot 2.
            (
                strict(0, 2, 4, 25, 10),
                rejected(RejectReason::NoRoom, 0),
                &[Reject { job: 2, reason: RejectReason::NoRoom }],
            ),
            (strict(0, 3, 4, 30, 10), accepted(30), &[Accept { job: 3, start: 30 }]),
        ],
    );
}

// --- Criteria ----------------------------------------------------------------------

/// Job 1 is accepted, then job 2; returns job 2's decisions.
fn second_admission(criterion: Criterion, first: Request, second: Request) -> Vec<Decision> {
    let mut kernel = kernel_with(criterion, Fixing::Never);
    assert!(matches!(kernel.step(Event::Request(first), &mut |_| {}), Outcome::Accepted { .. }));
    let mut got = Vec::new();
    kernel.step(Event::Request(second), &mut |d| got.push(d));
    got
}

fn req(job: u32, estimate: Tick, ready: Tick, deadline: Tick, shuffle_key: u32) -> Request {
    Request { t: 0, job, nodes: 4, estimate, ready, deadline, kind: Flexible, shuffle_key }
}

#[test]
fn the_criterion_decides_who_is_placed_first() {
    // Pair A: job 2 has the later deadline, but less flexibility and more work.
    //   job 1: [200, 500], 30 ticks (Δ 270, size 120); job 2: [200, 510], 200 ticks (Δ 110, size 800).
    // Pair B: job 2 has the earlier deadline, less flexibility and less work.
    //   job 1 as above; job 2: [200, 300], 10 ticks (Δ 90, size 40).
    let one = req(1, 30, 200, 500, 2);
    let a = req(2, 200, 200, 510, 1);
    let b = req(2, 10, 200, 300, 3);
    let after_a = vec![Accept { job: 2, start: 230 }];
    let before_a = vec![Accept { job: 2, start: 200 }, Replan { job: 1, start: 400 }];
    let after_b = vec![Accept { job: 2, start: 230 }];
    let before_b = vec![Accept { job: 2, start: 200 }, Replan { job: 1, start: 210 }];
    let table = [
        (Criterion::Fifo, &after_a, &after_b),
        (Criterion::Edf, &after_a, &before_b),
        (Criterion::LeastFlexibleFirst, &before_a, &before_b),
        (Criterion::BiggestJobFirst, &before_a, &after_b),
        // Shuffle keys: job 1 has 2; job 2 has 1 in pair A and 3 in pair B.
        (Criterion::Shuffle, &before_a, &after_b),
    ];
    for (criterion, expect_a, expect_b) in table {
        assert_eq!(&second_admission(criterion, one, a), expect_a, "{criterion:?}, pair A");
        assert_eq!(&second_admission(criterion, one, b), expect_b, "{criterion:?}, pair B");
    }
}

#[test]
fn equal_keys_fall_back_to_acceptance_order() {
    // Same deadline: EDF keeps job 1 first, so job 2 goes after it.
    let got = second_admission(Criterion::Edf, req(1, 30, 100, 300, 0), req(2, 30, 100, 300, 0));
    assert_eq!(got, [Accept { job: 2, start: 130 }]);
    let got = second_admission(Criterion::Shuffle, req(1, 30, 100, 300, 5), req(2, 30, 100, 300, 5));
    assert_eq!(got, [Accept { job: 2, start: 130 }]);
}

#[test]
fn fixqueue_swaps_a_job_that_the_new_one_would_break() {
    // LFF. Job 1: [100, 200], 30 ticks (Δ 70) at 100; job 2: [100, 400], 30 ticks at 130.
    // Job 3: [120, 210], 60 ticks (Δ 30) sorts first and takes 120..180, after which
    // job 1 has no room left in its window: fixqueue puts job 1 back at 100, job 3
    // after it at 130, and re-plans job 2 behind them.
    check(
        kernel_with(Criterion::LeastFlexibleFirst, Fixing::Never),
        &[
            (flexible(0, 1, 4, 30, 100, 200), accepted(100), &[Accept { job: 1, start: 100 }]),
            (flexible(0, 2, 4, 30, 100, 400), accepted(130), &[Accept { job: 2, start: 130 }]),
            (
                flexible(0, 3, 4, 60, 120, 210),
                accepted(130),
                &[Accept { job: 3, start: 130 }, Replan { job: 2, start: 190 }],
            ),
        ],
    );
    // Under FIFO job 3 comes last, finds 100..160 taken, and is rejected.
    let fifo = check(
        kernel_with(Criterion::Fifo, Fixing::Never),
        &[
            (flexible(0, 1, 4, 30, 100, 200), accepted(100), &[Accept { job: 1, start: 100 }]),
            (flexible(0, 2, 4, 30, 100, 400), accepted(130), &[Accept { job: 2, start: 130 }]),
        ],
    );
    let mut got = Vec::new();
    let out = fifo.clone().step(flexible(0, 3, 4, 60, 120, 210), &mut |d| got.push(d));
    assert_eq!(out, rejected(RejectReason::NoRoom, 3));
    assert_eq!(got[0], Reject { job: 3, reason: RejectReason::NoRoom });
}

#[test]
fn a_rejection_restores_a_plan_that_was_re_placed() {
    // EDF. Job 3 sorts before jobs 2 and 1, which are taken out and placed again
    // behind it, until job 2 has no room left; the swap puts job 3 after job 2, where
    // it has none either. Everything goes back where it was.
    let kernel = check(
        kernel(),
        &[
            (flexible(0, 1, 4, 30, 100, 300), accepted(100), &[Accept { job: 1, start: 100 }]),
            (
                flexible(0, 2, 4, 30, 100, 160),
                accepted(100),
                &[Accept { job: 2, start: 100 }, Replan { job: 1, start: 130 }],
            ),
        ],
    );
    let before = kernel.clone();
    let after = check(
        kernel,
        &[(
            flexible(0, 3, 4, 40, 100, 150),
            rejected(RejectReason::NoRoom, 3),
            &[
                Reject { job: 3, reason: RejectReason::NoRoom },
                // Before job 1 (shift 20): job 3 first at 80, jobs 2 and 1 behind it.
                Offer { job: 3, ready: 80, deadline: 130, start: 80 },
                // After job 2 (30): job 1 moves behind job 3.
                Offer { job: 3, ready: 130, deadline: 180, start: 130 },
                // Before job 2 (50).
                Offer { job: 3, ready: 50, deadline: 100, start: 50 },
            ],
        )],
    );
    assert_eq!(after, before);
    let plan: Vec<_> = after.plan().waiting().iter().map(|r| (r.job, r.start)).collect();
    assert_eq!(plan, [(1, 130), (2, 100)]);
}

// --- Offers --------------------------------------------------------------------------

#[test]
fn offers_skip_infeasible_candidates_and_come_best_first() {
    // Jobs 1 on [100, 130) and 2 on [130, 160) fill the pool. Job 3 asks for [110, 140).
    // Candidates by |ϕ|: before job 2 (shift 10, job 1 is there), after job 1 (20, job 2
    // is there), before job 1 (40), after job 2 (50).
    let steps: &[(Event, Outcome, &[Decision])] = &[
        (strict(0, 1, 4, 100, 30), accepted(100), &[Accept { job: 1, start: 100 }]),
        (strict(0, 2, 4, 130, 30), accepted(130), &[Accept { job: 2, start: 130 }]),
        (
            strict(0, 3, 4, 110, 30),
            rejected(RejectReason::NoRoom, 2),
            &[
                Reject { job: 3, reason: RejectReason::NoRoom },
                Offer { job: 3, ready: 70, deadline: 100, start: 70 },
                Offer { job: 3, ready: 160, deadline: 190, start: 160 },
            ],
        ),
    ];
    check(kernel(), steps);
    // Three tests find only the first; one offer at most stops there too.
    let three_trials = Kernel::new(Config { offer_trials: 3, ..Config::new(4, 10) }).unwrap();
    let mut limited = steps.to_vec();
    limited[2] = (
        strict(0, 3, 4, 110, 30),
        rejected(RejectReason::NoRoom, 1),
        &[
            Reject { job: 3, reason: RejectReason::NoRoom },
            Offer { job: 3, ready: 70, deadline: 100, start: 70 },
        ],
    );
    check(three_trials, &limited);
    check(ReservationKernel::<64, 8, 8, 1>::new(Config::new(4, 10)).unwrap(), &limited);
    let none = Kernel::new(Config { offer_trials: 0, ..Config::new(4, 10) }).unwrap();
    limited[2] = (
        strict(0, 3, 4, 110, 30),
        rejected(RejectReason::NoRoom, 0),
        &[Reject { job: 3, reason: RejectReason::NoRoom }],
    );
    check(none, &limited);
}

#[test]
fn an_offer_is_accepted_when_requested() {
    let kernel = check(
        kernel(),
        &[
            (strict(0, 1, 4, 100, 30), accepted(100), &[Accept { job: 1, start: 100 }]),
            (
                flexible(0, 2, 2, 30, 90, 135),
                rejected(RejectReason::NoRoom, 2),
                &[
                    Reject { job: 2, reason: RejectReason::NoRoom },
                    // Before job 1, shift 35; after it, shift 40.
                    Offer { job: 2, ready: 55, deadline: 100, start: 55 },
                    Offer { job: 2, ready: 130, deadline: 175, start: 130 },
                ],
            ),
        ],
    );
    check(kernel, &[(flexible(0, 2, 2, 30, 130, 175), accepted(130), &[Accept { job: 2, start: 130 }])]);
}

// --- Fixing ----------------------------------------------------------------------------

#[test]
fn a_fixed_reservation_is_not_re_planned() {
    // Job 1 waits from 0 to 100; at half of it, 50, it is fixed. Job 2 sorts before it
    // under EDF but has to go around it.
    check(
        kernel_with(Criterion::Edf, Fixing::Half),
        &[
            (flexible(0, 1, 4, 30, 100, 300), accepted(100), &[Accept { job: 1, start: 100 }]),
            (Event::Advance { t: 60 }, ADVANCED, &[Fix { t: 50, job: 1 }]),
            (flexible(60, 2, 4, 40, 100, 170), accepted(130), &[Accept { job: 2, start: 130 }]),
        ],
    );
    // Never fixed: job 2 takes 100 and job 1 moves.
    check(
        kernel(),
        &[
            (flexible(0, 1, 4, 30, 100, 300), accepted(100), &[Accept { job: 1, start: 100 }]),
            (Event::Advance { t: 60 }, ADVANCED, &[]),
            (
                flexible(60, 2, 4, 40, 100, 170),
                accepted(100),
                &[Accept { job: 2, start: 100 }, Replan { job: 1, start: 140 }],
            ),
        ],
    );
}

#[test]
fn fixing_moments() {
    let table = [
        (Fixing::AtAcceptance, Some(0)),
        (Fixing::Quarter, Some(25)),
        (Fixing::Half, Some(50)),
        (Fixing::ThreeQuarters, Some(75)),
        (Fixing::Never, None),
    ];
    for (fixing, at) in table {
        let mut kernel = kernel_with(Criterion::Edf, fixing);
        let mut got = Vec::new();
        kernel.step(flexible(0, 1, 1, 10, 100, 200), &mut |d| got.push(d));
        kernel.step(Event::Advance { t: 100 }, &mut |d| got.push(d));
        let mut expected = vec![Accept { job: 1, start: 100 }];
        expected.extend(at.map(|t| Fix { t, job: 1 }));
        expected.push(Start { t: 100, job: 1 });
        assert_eq!(got, expected, "{fixing:?}");
    }
    // A job that starts at once is not fixed first.
    check(
        kernel_with(Criterion::Edf, Fixing::AtAcceptance),
        &[(relaxed(0, 1, 1, 10, 100), accepted(0), &[Accept { job: 1, start: 0 }, Start { t: 0, job: 1 }])],
    );
}

// --- Running: early finishes and overruns ---------------------------------------------

#[test]
fn an_early_finish_releases_the_rest_and_an_overrun_is_cut() {
    let kernel = check(
        kernel(),
        &[
            (relaxed(0, 1, 4, 50, 100), accepted(0), &[Accept { job: 1, start: 0 }, Start { t: 0, job: 1 }]),
            (relaxed(0, 2, 4, 20, 200), accepted(50), &[Accept { job: 2, start: 50 }]),
            // Job 1 ends at 23: slots 3 and 4 are free again; slot 2 stays taken.
            (
                Event::Finish { t: 23, job: 1 },
                Outcome::Finished,
                &[End { t: 23, job: 1, early: true, cut: false }],
            ),
            // Waiting reservations are not pulled forward by a release; a new request
            // can use it. [23, 43) would need slot 2, so 30 is the first fit.
            (relaxed(23, 3, 4, 20, 200), accepted(30), &[Accept { job: 3, start: 30 }]),
            // Nobody reports jobs 3 and 2: each is cut at the end of its reservation.
            (
                Event::Advance { t: 100 },
                ADVANCED,
                &[
                    Start { t: 30, job: 3 },
                    End { t: 50, job: 3, early: false, cut: true },
                    Start { t: 50, job: 2 },
                    End { t: 70, job: 2, early: false, cut: true },
                ],
            ),
        ],
    );
    assert_eq!(kernel.counters().early, 1);
    assert_eq!(kernel.counters().cut, 2);
}

#[test]
fn a_finish_at_the_end_is_on_time_and_after_it_is_too_late() {
    let kernel = check(
        kernel(),
        &[
            (relaxed(0, 1, 1, 20, 100), accepted(0), &[Accept { job: 1, start: 0 }, Start { t: 0, job: 1 }]),
            (relaxed(0, 2, 1, 20, 100), accepted(0), &[Accept { job: 2, start: 0 }, Start { t: 0, job: 2 }]),
            // At 20 both reservations end; job 1 reports on time.
            (Event::Advance { t: 20 }, ADVANCED, &[]),
            (
                Event::Finish { t: 20, job: 1 },
                Outcome::Finished,
                &[End { t: 20, job: 1, early: false, cut: false }],
            ),
            // Job 2's report comes late: time passing 20 cuts it first.
            (
                Event::Finish { t: 21, job: 2 },
                Outcome::Refused(RejectReason::NotRunning),
                &[End { t: 20, job: 2, early: false, cut: true }],
            ),
            (Event::Finish { t: 21, job: 7 }, Outcome::Refused(RejectReason::NotRunning), &[]),
        ],
    );
    assert_eq!(kernel.counters().early, 0);
    assert_eq!(kernel.counters().cut, 1);
}

#[test]
fn a_job_that_ran_for_no_time_gives_back_every_slot() {
    check(
        kernel(),
        &[
            (Event::Advance { t: 5 }, ADVANCED, &[]),
            // [5, 25) holds slots 0..3; ending at 5 it overlapped none of them.
            (relaxed(5, 1, 4, 20, 100), accepted(5), &[Accept { job: 1, start: 5 }, Start { t: 5, job: 1 }]),
            (
                Event::Finish { t: 5, job: 1 },
                Outcome::Finished,
                &[End { t: 5, job: 1, early: true, cut: false }],
            ),
            (relaxed(5, 2, 4, 20, 100), accepted(5), &[Accept { job: 2, start: 5 }, Start { t: 5, job: 2 }]),
            // Ending at 6 it overlapped slot 0, which stays taken.
            (
                Event::Finish { t: 6, job: 2 },
                Outcome::Finished,
                &[End { t: 6, job: 2, early: true, cut: false }],
            ),
            (relaxed(6, 3, 4, 5, 100), accepted(10), &[Accept { job: 3, start: 10 }]),
        ],
    );
}

#[test]
fn a_waiting_job_cannot_finish() {
    check(
        kernel(),
        &[
            (strict(0, 1, 1, 100, 10), accepted(100), &[Accept { job: 1, start: 100 }]),
            (Event::Finish { t: 50, job: 1 }, Outcome::Refused(RejectReason::NotRunning), &[]),
        ],
    );
}

// --- Limits and bad requests -------------------------------------------------------------

#[test]
fn bad_requests_are_rejected_with_a_reason() {
    use RejectReason::*;
    let cases: &[(Event, RejectReason)] = &[
        (strict(0, 1, 0, 10, 10), ZeroNodes),
        (strict(0, 1, 5, 10, 10), TooManyNodes),
        (strict(0, 1, 1, 10, 0), ZeroEstimate),
        (request(0, 1, 1, 10, 20, 29, Strict), WindowTooShort),
        (request(0, 1, 1, 10, 20, 19, Flexible), WindowTooShort),
        (relaxed(0, 1, 1, 10, 9), WindowTooShort),
        (request(0, 1, 1, 10, 20, 31, Strict), KindMismatch),
        (request(0, 1, 1, 10, 20, 30, Flexible), KindMismatch),
        // The window [0, 15] opened before 50 and cannot be met any more.
        (request(50, 1, 1, 10, 0, 15, Flexible), WindowPassed),
        (strict(50, 1, 1, 40, 10), WindowPassed),
    ];
    for &(event, reason) in cases {
        let mut kernel = kernel();
        let mut got = Vec::new();
        let out = kernel.step(event, &mut |d| got.push(d));
        assert_eq!(out, rejected(reason, 0), "{event:?}");
        assert_eq!(got, [Reject { job: 1, reason }], "{event:?}");
    }
}

#[test]
fn time_going_backwards_is_refused() {
    let kernel = check(kernel(), &[(Event::Advance { t: 50 }, ADVANCED, &[])]);
    check(
        kernel,
        &[
            (
                strict(49, 1, 1, 60, 10),
                rejected(RejectReason::TimeWentBackwards, 0),
                &[Reject { job: 1, reason: RejectReason::TimeWentBackwards }],
            ),
            (Event::Advance { t: 49 }, Outcome::Refused(RejectReason::TimeWentBackwards), &[]),
            (Event::Finish { t: 49, job: 1 }, Outcome::Refused(RejectReason::TimeWentBackwards), &[]),
        ],
    );
}

#[test]
fn a_duplicate_job_is_rejected_while_the_first_is_held() {
    check(
        kernel(),
        &[
            (strict(0, 1, 1, 10, 10), accepted(10), &[Accept { job: 1, start: 10 }]),
            (
                strict(0, 1, 1, 30, 10),
                rejected(RejectReason::DuplicateJob, 0),
                &[Reject { job: 1, reason: RejectReason::DuplicateJob }],
            ),
            (Event::Advance { t: 15 }, ADVANCED, &[Start { t: 10, job: 1 }]),
            (
                strict(15, 1, 1, 30, 10),
                rejected(RejectReason::DuplicateJob, 0),
                &[Reject { job: 1, reason: RejectReason::DuplicateJob }],
            ),
            // Once it has ended, the identifier is free again.
            (
                strict(21, 1, 1, 30, 10),
                accepted(30),
                &[End { t: 20, job: 1, early: false, cut: true }, Accept { job: 1, start: 30 }],
            ),
        ],
    );
}

#[test]
fn a_full_waiting_queue_rejects() {
    let kernel = ReservationKernel::<64, 2, 8, 3>::new(Config::new(4, 10)).unwrap();
    check(
        kernel,
        &[
            (strict(0, 1, 1, 10, 10), accepted(10), &[Accept { job: 1, start: 10 }]),
            (strict(0, 2, 1, 10, 10), accepted(10), &[Accept { job: 2, start: 10 }]),
            (
                strict(0, 3, 1, 10, 10),
                rejected(RejectReason::QueueFull, 0),
                &[Reject { job: 3, reason: RejectReason::QueueFull }],
            ),
            // Once one starts there is room again.
            (
                strict(10, 3, 1, 10, 10),
                accepted(10),
                &[
                    Start { t: 10, job: 1 },
                    Start { t: 10, job: 2 },
                    Accept { job: 3, start: 10 },
                    Start { t: 10, job: 3 },
                ],
            ),
        ],
    );
}

#[test]
fn the_horizon_moves_with_time() {
    // 64 slots of 10 ticks: at 0 the calendar ends at 640.
    check(
        kernel(),
        &[
            (
                strict(0, 1, 1, 700, 10),
                rejected(RejectReason::BeyondHorizon, 0),
                &[Reject { job: 1, reason: RejectReason::BeyondHorizon }],
            ),
            (
                flexible(0, 1, 1, 50, 600, 800),
                rejected(RejectReason::BeyondHorizon, 0),
                &[Reject { job: 1, reason: RejectReason::BeyondHorizon }],
            ),
            (strict(0, 1, 1, 630, 10), accepted(630), &[Accept { job: 1, start: 630 }]),
            (Event::Advance { t: 100 }, ADVANCED, &[]),
            (strict(100, 2, 1, 700, 10), accepted(700), &[Accept { job: 2, start: 700 }]),
        ],
    );
}

#[test]
fn a_full_calendar_rejects_and_has_nothing_to_offer() {
    check(
        kernel(),
        &[
            (relaxed(0, 1, 4, 640, 640), accepted(0), &[Accept { job: 1, start: 0 }, Start { t: 0, job: 1 }]),
            // The only candidate, after job 1, is past the horizon.
            (
                relaxed(0, 2, 1, 10, 700),
                rejected(RejectReason::NoRoom, 0),
                &[Reject { job: 2, reason: RejectReason::NoRoom }],
            ),
            // Starts past the horizon cannot be planned yet: what the horizon holds is full.
            (
                relaxed(0, 3, 1, 10, 1000),
                rejected(RejectReason::NoRoom, 0),
                &[Reject { job: 3, reason: RejectReason::NoRoom }],
            ),
        ],
    );
}

#[test]
fn reset_forgets_everything() {
    let mut kernel = check(
        kernel(),
        &[
            (relaxed(0, 1, 4, 50, 100), accepted(0), &[Accept { job: 1, start: 0 }, Start { t: 0, job: 1 }]),
            (Event::Advance { t: 500 }, ADVANCED, &[End { t: 50, job: 1, early: false, cut: true }]),
        ],
    );
    assert_eq!(kernel.step(Event::Reset, &mut |_| {}), Outcome::Reset);
    assert_eq!(kernel, self::kernel());
}

#[test]
fn configurations_are_checked() {
    assert_eq!(Kernel::new(Config::new(0, 10)), Err(ConfigError::NoNodes));
    assert_eq!(Kernel::new(Config::new(4, 0)), Err(ConfigError::ZeroSlotLength));
    assert_eq!(Kernel::new(Config::new(5, 10)), Err(ConfigError::RunningTooSmall { nodes: 5, capacity: 8 }));
    assert_eq!(
        ConfigError::RunningTooSmall { nodes: 5, capacity: 8 }.to_string(),
        "5 nodes need room for 2 x 5 running jobs, the kernel has 8"
    );
}

#[test]
fn size_of_the_state() {
    use core::mem::size_of;
    assert_eq!(size_of::<kernel::reservation::Reservation>(), 64);
    assert_eq!(size_of::<kernel::reservation::Running>(), 24);
    assert_eq!(size_of::<ReservationKernel<64, 16, 16, 4>>(), 2_072);
    assert_eq!(size_of::<ReservationKernel<2048, 256, 256, 4>>(), 39_304);
    assert_eq!(size_of::<ReservationKernel<16_384, 256, 256, 8>>(), 153_992);
}
