//! The model's rules, one small scenario each, checked decision by decision.

use kernel::service_level::{
    Config, Decision, Event, Level, Outcome, Policy, RejectReason, ServiceLevelKernel,
};

use Decision::{Accept, Complete, Preempt, Reject, Start};

fn config<const L: usize>(machines: u16, slacks: &[u32]) -> Config<L> {
    let mut levels = heapless::Vec::new();
    for &sf in slacks {
        levels.push(Level::whole(sf, 21 - sf)).unwrap();
    }
    Config { machines, policy: Policy::FirstFit, levels }
}

fn submit(t: u64, job: u32, p: u64, level: u8) -> Event {
    Event::Submit { t, job, p, level }
}

/// Runs `events` through `kernel` and compares every decision and outcome.
fn check<const M: usize, const Q: usize, const L: usize>(
    mut kernel: ServiceLevelKernel<M, Q, L>,
    steps: &[(Event, Outcome, &[Decision])],
) {
    for (i, (event, outcome, expected)) in steps.iter().enumerate() {
        let mut got = Vec::new();
        let out = kernel.step(*event, &mut |d| got.push(d));
        assert_eq!(&got[..], *expected, "decisions of step {i} ({event:?})");
        assert_eq!(out, *outcome, "outcome of step {i} ({event:?})");
    }
}

const ACCEPTED_M0: Outcome = Outcome::Accepted { machine: 0 };

#[test]
fn earlier_deadline_preempts_a_running_job() {
    let kernel = ServiceLevelKernel::<1, 8, 1>::new(config(1, &[2])).unwrap();
    check(
        kernel,
        &[
            (
                submit(0, 1, 10, 0),
                ACCEPTED_M0,
                &[
                    Accept { job: 1, machine: 0, deadline: 20, preempted: None },
                    Start { t: 0, job: 1, machine: 0 },
                ],
            ),
            // d = 5 + 6 = 11 < 20: job 2 takes the head; 5 + 3 <= 11 and 8 + 5 <= 20.
            (
                submit(5, 2, 3, 0),
                ACCEPTED_M0,
                &[
                    Accept { job: 2, machine: 0, deadline: 11, preempted: Some(1) },
                    Preempt { t: 5, job: 1, machine: 0 },
                    Start { t: 5, job: 2, machine: 0 },
                ],
            ),
            (
                Event::Advance { t: 100 },
                Outcome::Advanced,
                &[
                    Complete { t: 8, job: 2, machine: 0 },
                    Start { t: 8, job: 1, machine: 0 },
                    Complete { t: 13, job: 1, machine: 0 },
                ],
            ),
        ],
    );
}

#[test]
fn a_job_that_would_make_a_later_one_late_goes_to_the_next_machine() {
    let kernel = ServiceLevelKernel::<2, 8, 1>::new(config(2, &[1])).unwrap();
    check(
        kernel,
        &[
            (
                submit(0, 1, 10, 0),
                ACCEPTED_M0,
                &[
                    Accept { job: 1, machine: 0, deadline: 10, preempted: None },
                    Start { t: 0, job: 1, machine: 0 },
                ],
            ),
            // On m0 job 2 would finish at 1 but push job 1 to 11 > 10.
            (
                submit(0, 2, 1, 0),
                Outcome::Accepted { machine: 1 },
                &[
                    Accept { job: 2, machine: 1, deadline: 1, preempted: None },
                    Start { t: 0, job: 2, machine: 1 },
                ],
            ),
            (
                submit(0, 3, 1, 0),
                Outcome::Rejected(RejectReason::NoFeasibleMachine),
                &[Reject { job: 3, reason: RejectReason::NoFeasibleMachine }],
            ),
        ],
    );
}

#[test]
fn equal_deadlines_keep_admission_order() {
    let kernel = ServiceLevelKernel::<1, 8, 2>::new(config(1, &[2, 3])).unwrap();
    check(
        kernel,
        &[
            (
                submit(0, 1, 4, 0),
                ACCEPTED_M0,
                &[
                    Accept { job: 1, machine: 0, deadline: 8, preempted: None },
                    Start { t: 0, job: 1, machine: 0 },
                ],
            ),
            // d = 2 + 3 * 2 = 8, equal to job 1's: it queues behind, 2 + 2 + 2 <= 8.
            (submit(2, 2, 2, 1), ACCEPTED_M0, &[Accept { job: 2, machine: 0, deadline: 8, preempted: None }]),
            (
                Event::Advance { t: Tick::MAX },
                Outcome::Advanced,
                &[
                    Complete { t: 4, job: 1, machine: 0 },
                    Start { t: 4, job: 2, machine: 0 },
                    Complete { t: 6, job: 2, machine: 0 },
                ],
            ),
        ],
    );
}

use kernel::Tick;

#[test]
fn completions_at_the_submit_time_come_first() {
    let kernel = ServiceLevelKernel::<1, 1, 1>::new(config(1, &[1])).unwrap();
    check(
        kernel,
        &[
            (
                submit(0, 1, 5, 0),
                ACCEPTED_M0,
                &[
                    Accept { job: 1, machine: 0, deadline: 5, preempted: None },
                    Start { t: 0, job: 1, machine: 0 },
                ],
            ),
            // Job 1 ends exactly at 5, so the one-entry queue has room again.
            (
                submit(5, 2, 5, 0),
                ACCEPTED_M0,
                &[
                    Complete { t: 5, job: 1, machine: 0 },
                    Accept { job: 2, machine: 0, deadline: 10, preempted: None },
                    Start { t: 5, job: 2, machine: 0 },
                ],
            ),
        ],
    );
}

#[test]
fn a_displaced_head_that_never_ran_is_not_an_interruption() {
    let kernel = ServiceLevelKernel::<1, 4, 1>::new(config(1, &[2])).unwrap();
    check(
        kernel,
        &[
            (
                submit(0, 1, 5, 0),
                ACCEPTED_M0,
                &[
                    Accept { job: 1, machine: 0, deadline: 10, preempted: None },
                    Start { t: 0, job: 1, machine: 0 },
                ],
            ),
            (
                submit(0, 2, 1, 0),
                ACCEPTED_M0,
                &[
                    Accept { job: 2, machine: 0, deadline: 2, preempted: None },
                    Preempt { t: 0, job: 1, machine: 0 },
                    Start { t: 0, job: 2, machine: 0 },
                ],
            ),
        ],
    );
}

#[test]
fn a_full_queue_rejects_with_its_own_reason() {
    let kernel = ServiceLevelKernel::<1, 2, 2>::new(config(1, &[10, 1])).unwrap();
    let full = Outcome::Rejected(RejectReason::QueueFull);
    check(
        kernel,
        &[
            (
                submit(0, 1, 1, 0),
                ACCEPTED_M0,
                &[
                    Accept { job: 1, machine: 0, deadline: 10, preempted: None },
                    Start { t: 0, job: 1, machine: 0 },
                ],
            ),
            (
                submit(0, 2, 1, 0),
                ACCEPTED_M0,
                &[Accept { job: 2, machine: 0, deadline: 10, preempted: None }],
            ),
            (submit(0, 3, 1, 0), full, &[Reject { job: 3, reason: RejectReason::QueueFull }]),
            // d = 9 takes the head and pushes job 2 to 11 > 10: infeasible anyway, so
            // the reason is the test, not the room.
            (
                submit(0, 4, 9, 1),
                Outcome::Rejected(RejectReason::NoFeasibleMachine),
                &[Reject { job: 4, reason: RejectReason::NoFeasibleMachine }],
            ),
        ],
    );
}

#[test]
fn invalid_requests_are_rejected_with_a_reason() {
    let kernel = ServiceLevelKernel::<1, 4, 1>::new(config(1, &[2])).unwrap();
    let rejected = |reason| Outcome::Rejected(reason);
    check(
        kernel,
        &[
            (
                submit(10, 1, 0, 0),
                rejected(RejectReason::ZeroProcessingTime),
                &[Reject { job: 1, reason: RejectReason::ZeroProcessingTime }],
            ),
            (
                submit(10, 2, 1, 3),
                rejected(RejectReason::UnknownLevel),
                &[Reject { job: 2, reason: RejectReason::UnknownLevel }],
            ),
            (
                submit(9, 3, 1, 0),
                rejected(RejectReason::TimeWentBackwards),
                &[Reject { job: 3, reason: RejectReason::TimeWentBackwards }],
            ),
            (
                submit(10, 4, u64::MAX / 2 + 1, 0),
                rejected(RejectReason::Overflow),
                &[Reject { job: 4, reason: RejectReason::Overflow }],
            ),
            (Event::Advance { t: 3 }, Outcome::Refused(RejectReason::TimeWentBackwards), &[]),
        ],
    );
}

#[test]
fn reset_starts_an_independent_experiment() {
    let kernel = ServiceLevelKernel::<1, 4, 1>::new(config(1, &[1])).unwrap();
    check(
        kernel,
        &[
            (
                submit(50, 1, 5, 0),
                ACCEPTED_M0,
                &[
                    Accept { job: 1, machine: 0, deadline: 55, preempted: None },
                    Start { t: 50, job: 1, machine: 0 },
                ],
            ),
            (Event::Reset, Outcome::Reset, &[]),
            (
                submit(0, 2, 5, 0),
                ACCEPTED_M0,
                &[
                    Accept { job: 2, machine: 0, deadline: 5, preempted: None },
                    Start { t: 0, job: 2, machine: 0 },
                ],
            ),
        ],
    );
}

#[test]
fn bad_configurations_are_refused() {
    use kernel::service_level::ConfigError;
    assert_eq!(ServiceLevelKernel::<2, 4, 1>::new(config(0, &[1])).unwrap_err(), ConfigError::NoMachines);
    assert_eq!(
        ServiceLevelKernel::<2, 4, 1>::new(config(3, &[1])).unwrap_err(),
        ConfigError::TooManyMachines { requested: 3, capacity: 2 }
    );
    assert_eq!(ServiceLevelKernel::<2, 4, 1>::new(config(1, &[])).unwrap_err(), ConfigError::NoLevels);
    let mut low = config::<2>(1, &[1]);
    low.levels.push(Level { slack_milli: 999, price_per_tick: 1 }).unwrap();
    assert_eq!(ServiceLevelKernel::<2, 4, 2>::new(low).unwrap_err(), ConfigError::SlackBelowOne { index: 1 });
}

#[test]
fn state_sizes_are_as_documented() {
    use core::mem::size_of;
    assert_eq!(size_of::<ServiceLevelKernel<1, 16, 4>>(), 600);
    assert_eq!(size_of::<ServiceLevelKernel<4, 32, 8>>(), 4_072);
    assert_eq!(size_of::<ServiceLevelKernel<16, 256, 32>>(), 120_104);
    assert_eq!(size_of::<ServiceLevelKernel<64, 256, 32>>(), 479_528);
}
