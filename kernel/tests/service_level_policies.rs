//! The machine-choice policies, one small scenario each, most where the policy picks
//! a different machine than first fit would. Level 0 has slack factor 3, level 1
//! slack factor 1 (no slack at all), level 2 slack factor 100.

use kernel::service_level::queue::EddQueue;
use kernel::service_level::{Config, Event, Level, Outcome, Policy, RejectReason, ServiceLevelKernel};

type K = ServiceLevelKernel<4, 8, 3>;

fn kernel(machines: u16, policy: Policy) -> K {
    let mut levels = heapless::Vec::new();
    for sf in [3, 1, 100] {
        levels.push(Level::whole(sf, 1)).unwrap();
    }
    ServiceLevelKernel::new(Config { machines, policy, levels }).unwrap()
}

fn submit_at(k: &mut K, t: u64, job: u32, p: u64, level: u8) -> Outcome {
    k.step(Event::Submit { t, job, p, level }, &mut |_| {})
}

fn submit(k: &mut K, t: u64, job: u32, p: u64) -> Outcome {
    submit_at(k, t, job, p, 0)
}

fn on(machine: u16) -> Outcome {
    Outcome::Accepted { machine }
}

#[test]
fn names_round_trip_and_the_default_is_first_fit() {
    assert_eq!(Policy::default(), Policy::FirstFit);
    for policy in Policy::ALL {
        assert_eq!(Policy::from_name(policy.name()), Some(policy));
    }
    assert_eq!(Policy::from_name("best"), None);
    // The discriminants are the log header's bytes: new policies only at the end.
    let bytes: Vec<u8> = Policy::ALL.iter().map(|p| postcard_byte(*p)).collect();
    assert_eq!(bytes, [0, 1, 2, 3, 4]);
}

fn postcard_byte(policy: Policy) -> u8 {
    let mut buf = [0u8; 4];
    let used = postcard::to_slice(&policy, &mut buf).unwrap();
    assert_eq!(used.len(), 1);
    used[0]
}

#[test]
fn on_idle_machines_every_policy_takes_machine_zero() {
    for policy in Policy::ALL {
        let mut k = kernel(3, policy);
        assert_eq!(submit(&mut k, 0, 1, 10), on(0), "{policy:?}");
    }
}

#[test]
fn best_and_worst_fit_by_slack_left_after_admission() {
    let setup = |policy| {
        let mut k = kernel(2, policy);
        assert_eq!(submit(&mut k, 0, 1, 4), on(0)); // d 12, slack 8
        k
    };
    // Job 2 (p 2, d 6) on machine 0 goes first: its own slack 6 - 2 = 4, job 1 then
    // finishes at 6, 12 - 6 = 6: slack left 4. On idle machine 1: 6 - 2 = 4. A tie:
    // machine 0 for both.
    for policy in [Policy::BestFit, Policy::WorstFit] {
        let mut k = setup(policy);
        assert_eq!(submit(&mut k, 0, 2, 2), on(0), "{policy:?}");
    }
    // Job 2 (p 3, d 9): machine 0 leaves min(9 - 3, 12 - 7) = 5, machine 1 leaves 6.
    let mut best = setup(Policy::BestFit);
    assert_eq!(submit(&mut best, 0, 2, 3), on(0));
    let mut worst = setup(Policy::WorstFit);
    assert_eq!(submit(&mut worst, 0, 2, 3), on(1));
    let mut first = setup(Policy::FirstFit);
    assert_eq!(submit(&mut first, 0, 2, 3), on(0));
}

#[test]
fn best_fit_packs_a_machine_to_zero_slack_then_moves_on() {
    let mut k = kernel(3, Policy::BestFit);
    assert_eq!(submit(&mut k, 0, 1, 9), on(0)); // d 27, slack 18
    // Job 2 (p 9, d 27) behind job 1 on machine 0: finishes at 18, slack left 9;
    // elsewhere 18.
    assert_eq!(submit(&mut k, 0, 2, 9), on(0));
    // Job 3 (p 10, d 30) on machine 0 finishes at 28: slack left 2; elsewhere 20.
    assert_eq!(submit(&mut k, 0, 3, 10), on(0));
    // Job 4 (p 2, d 6) first on machine 0 pushes job 3 to 30 = its deadline: slack
    // left 0; elsewhere 4.
    assert_eq!(submit(&mut k, 0, 4, 2), on(0));
    // Job 5 (p 1, d 3): machine 0 has no slack, machines 1 and 2 tie at 2: machine 1.
    assert_eq!(submit(&mut k, 0, 5, 1), on(1));
    let mut w = kernel(3, Policy::WorstFit);
    assert_eq!(submit(&mut w, 0, 1, 9), on(0));
    assert_eq!(submit(&mut w, 0, 2, 9), on(1));
    assert_eq!(submit(&mut w, 0, 3, 10), on(2));
}

#[test]
fn least_loaded_takes_the_machine_with_least_remaining_work() {
    let mut k = kernel(3, Policy::LeastLoaded);
    assert_eq!(submit(&mut k, 0, 1, 10), on(0));
    assert_eq!(submit(&mut k, 0, 2, 4), on(1));
    assert_eq!(submit(&mut k, 0, 3, 6), on(2));
    // At t = 3 the machines have 7, 1 and 3 ticks left: machine 1.
    assert_eq!(submit(&mut k, 3, 4, 5), on(1));
    // Now 7, 6 and 3: machine 2.
    assert_eq!(submit(&mut k, 3, 5, 1), on(2));
    // First fit keeps using machine 0 while it passes.
    let mut f = kernel(3, Policy::FirstFit);
    assert_eq!(submit(&mut f, 0, 1, 10), on(0));
    assert_eq!(submit(&mut f, 0, 2, 4), on(0));
}

#[test]
fn round_robin_resumes_after_the_last_admitting_machine_and_reset_forgets_it() {
    let mut k = kernel(3, Policy::RoundRobin);
    assert_eq!(k.last_admitting(), None);
    assert_eq!(submit(&mut k, 0, 1, 1), on(0));
    assert_eq!(submit(&mut k, 0, 2, 1), on(1));
    assert_eq!(submit(&mut k, 0, 3, 1), on(2));
    assert_eq!(submit(&mut k, 0, 4, 1), on(0)); // wraps
    assert_eq!(k.last_admitting(), Some(0));
    // A rejection does not move it.
    assert_eq!(submit(&mut k, 0, 5, 0), Outcome::Rejected(RejectReason::ZeroProcessingTime));
    assert_eq!(k.last_admitting(), Some(0));
    assert_eq!(submit(&mut k, 0, 6, 1), on(1));
    assert_eq!(k.step(Event::Advance { t: 100 }, &mut |_| {}), Outcome::Advanced);
    assert_eq!(k.step(Event::Reset, &mut |_| {}), Outcome::Reset);
    assert_eq!(k.last_admitting(), None);
    assert_eq!(submit(&mut k, 0, 7, 1), on(0));
}

#[test]
fn round_robin_skips_an_infeasible_machine() {
    let mut k = kernel(3, Policy::RoundRobin);
    assert_eq!(submit(&mut k, 0, 1, 10), on(0)); // d 30
    assert_eq!(submit(&mut k, 0, 2, 1), on(1));
    assert_eq!(submit(&mut k, 0, 3, 1), on(2));
    // At t = 1 machines 1 and 2 are idle. Job 4 (p 25, no slack, d 26) would take
    // machine 0's head and push job 1 to 35 > 30: machine 0 is skipped for 1.
    assert_eq!(submit_at(&mut k, 1, 4, 25, 1), on(1));
    // Next after machine 1 is machine 2; first fit would take machine 0.
    assert_eq!(submit(&mut k, 1, 5, 1), on(2));
    assert_eq!(submit(&mut k, 1, 6, 1), on(0));
}

#[test]
fn full_queues_and_no_feasible_machine_under_every_policy() {
    for policy in Policy::ALL {
        // Slack factor 100: sixteen 1-tick jobs fit on two 8-deep queues by deadline.
        let mut k = kernel(2, policy);
        for job in 0..16 {
            assert!(matches!(submit_at(&mut k, 0, job, 1, 2), Outcome::Accepted { .. }), "{policy:?} {job}");
        }
        let full = submit_at(&mut k, 0, 16, 1, 2);
        assert_eq!(full, Outcome::Rejected(RejectReason::QueueFull), "{policy:?}");
        // Two 10-tick jobs with no slack, one per machine; a third with no slack
        // would delay either.
        let mut k = kernel(2, policy);
        assert_eq!(submit_at(&mut k, 0, 1, 10, 1), on(0), "{policy:?}");
        assert_eq!(submit_at(&mut k, 0, 2, 10, 1), on(1), "{policy:?}");
        let none = submit_at(&mut k, 0, 3, 1, 1);
        assert_eq!(none, Outcome::Rejected(RejectReason::NoFeasibleMachine), "{policy:?}");
    }
}

#[test]
fn slack_after_and_remaining_work_on_a_queue() {
    let mut q = EddQueue::<4>::new();
    // Empty: the new job's own slack.
    assert_eq!(q.slack_after(10, 0, 5, 30), 15);
    assert_eq!(q.remaining_work(10), 0);
    q.insert(0, 10, 1, 5, 30).unwrap(); // finishes at 15, slack 15
    q.insert(1, 10, 2, 5, 40).unwrap(); // finishes at 20, slack 20
    assert_eq!(q.remaining_work(10), 10);
    assert_eq!(q.remaining_work(12), 8);
    // (p 6, d 34) between them: own 34 - 21 = 13, job 2 at 26 has 14, job 1 15.
    assert_eq!(q.test(10, 6, 34), Some(1));
    assert_eq!(q.slack_after(10, 1, 6, 34), 13);
    // (p 6, d 39) between them: own 18, job 2 at 26 has 14: the job behind decides.
    assert_eq!(q.test(10, 6, 39), Some(1));
    assert_eq!(q.slack_after(10, 1, 6, 39), 14);
    // (p 3, d 16) first: own 16 - 13 = 3, job 1 at 18 has 12, job 2 at 23 has 17.
    assert_eq!(q.slack_after(10, 0, 3, 16), 3);
    // (p 1, d 50) last: own 29, the others unchanged: 15.
    assert_eq!(q.slack_after(10, 2, 1, 50), 15);
}
