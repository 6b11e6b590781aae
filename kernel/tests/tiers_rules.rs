//! The tiers kernel's rules on small hand-made cases, and the documented `size_of`.

use kernel::tiers::{
    Config, Decision, Event, Group, Outcome, Policy, RejectReason, Request, Resource, Tier, TiersKernel,
    Violation,
};

type Small = TiersKernel<3, 64, 16>;

/// One high-confidence resource of one node, two low-confidence ones of one node.
fn resources() -> [Resource; 3] {
    [
        Resource { group: Group::High, nodes: 1, speed_milli: 1000 },
        Resource { group: Group::Low, nodes: 1, speed_milli: 1000 },
        Resource { group: Group::Low, nodes: 1, speed_milli: 500 },
    ]
}

fn kernel(policy: Policy) -> Small {
    let config = Config { slot_ticks: 10, policy, laxity_threshold_milli: 1000, bronze_deadline: 600 };
    Small::new(config, &resources()).unwrap()
}

fn step<const R: usize, const H: usize, const J: usize>(
    k: &mut TiersKernel<R, H, J>,
    event: Event,
) -> (Outcome, Vec<Decision>) {
    let mut out = Vec::new();
    let outcome = k.step(event, &mut |d| out.push(d));
    (outcome, out)
}

fn submit(t: u64, job: u32, tier: Tier, work: u64, ready: u64, deadline: u64) -> Event {
    Event::Submit(Request { t, job, tier, work, ready, deadline })
}

#[test]
fn documented_size() {
    assert_eq!(size_of::<TiersKernel<10, 2048, 256>>(), 197_336);
    assert_eq!(size_of::<kernel::tiers::Job>(), 88);
}

#[test]
fn tiers_go_to_their_groups() {
    let mut k = kernel(Policy::Qos);
    let (o, _) = step(&mut k, submit(0, 1, Tier::Gold, 20, 0, 100));
    assert_eq!(o, Outcome::Accepted { resource: 0, start: 0, moved: false });
    // Silver: high first; the high resource is busy until 20, so Silver starts there at 20.
    let (o, _) = step(&mut k, submit(0, 2, Tier::Silver, 20, 0, 100));
    assert_eq!(o, Outcome::Accepted { resource: 0, start: 20, moved: false });
    // Silver whose window only fits now goes to a desktop.
    let (o, _) = step(&mut k, submit(0, 3, Tier::Silver, 20, 0, 30));
    assert_eq!(o, Outcome::Accepted { resource: 1, start: 0, moved: false });
    // Bronze never goes to the cluster: desktop 1 is busy until 20, desktop 2 (half
    // speed) is free now.
    let (o, _) = step(&mut k, submit(0, 4, Tier::Bronze, 10, 0, 0));
    assert_eq!(o, Outcome::Accepted { resource: 2, start: 0, moved: false });
    // Gold that only fits on a desktop is rejected under qos ...
    let (o, _) = step(&mut k, submit(0, 5, Tier::Gold, 20, 0, 40));
    assert_eq!(o, Outcome::Rejected(RejectReason::NoRoom));
    // ... and taken by a desktop under no-qos.
    let mut k = kernel(Policy::NoQos);
    step(&mut k, submit(0, 1, Tier::Gold, 20, 0, 100));
    let (o, _) = step(&mut k, submit(0, 5, Tier::Gold, 20, 0, 40));
    assert_eq!(o, Outcome::Accepted { resource: 1, start: 0, moved: false });
}

#[test]
fn rescheduling_moves_silver_off_the_cluster_for_gold() {
    let mut k = kernel(Policy::QosRes);
    // Silver with a wide window takes the cluster at 50.
    let (o, _) = step(&mut k, submit(0, 1, Tier::Silver, 20, 50, 200));
    assert_eq!(o, Outcome::Accepted { resource: 0, start: 50, moved: false });
    // Gold wants [50, 70]: only the Silver's slots fit; Silver moves (cluster at 70).
    let (o, d) = step(&mut k, submit(0, 2, Tier::Gold, 20, 50, 70));
    assert_eq!(o, Outcome::Accepted { resource: 0, start: 50, moved: true });
    assert_eq!(
        d,
        vec![
            Decision::Move { job: 1, resource: 0, start: 70, for_job: 2 },
            Decision::Accept { job: 2, resource: 0, start: 50 },
        ]
    );
    // Without rescheduling the same Gold is rejected.
    let mut k = kernel(Policy::Qos);
    step(&mut k, submit(0, 1, Tier::Silver, 20, 50, 200));
    let (o, _) = step(&mut k, submit(0, 2, Tier::Gold, 20, 50, 70));
    assert_eq!(o, Outcome::Rejected(RejectReason::NoRoom));
}

#[test]
fn a_failed_move_leaves_the_state_of_an_advance() {
    let mut k = kernel(Policy::QosRes);
    // Both desktops leave: a Silver can then move only on the cluster.
    step(&mut k, Event::Leave { t: 0, resource: 1 });
    step(&mut k, Event::Leave { t: 0, resource: 2 });
    // Silver (laxity 1.5) takes the cluster's slots 5..8.
    let (o, _) = step(&mut k, submit(0, 1, Tier::Silver, 30, 50, 95));
    assert_eq!(o, Outcome::Accepted { resource: 0, start: 50, moved: false });
    // Gold wants [50, 70]: the trial gives Gold slots 5..7 and Silver its slot 7 back,
    // but Silver fits nowhere else in [50, 95]; everything is undone. The calendars
    // were last moved at 0, the rejection moves them to 30, an advance does not: the
    // two states are still equal, and stay so at a later advance.
    let mut advanced = k.clone();
    step(&mut advanced, Event::Advance { t: 30 });
    let (o, d) = step(&mut k, submit(30, 2, Tier::Gold, 20, 50, 70));
    assert_eq!(o, Outcome::Rejected(RejectReason::NoRoom));
    assert_eq!(d, vec![Decision::Reject { job: 2, reason: RejectReason::NoRoom }]);
    assert!(k == advanced);
    step(&mut k, Event::Advance { t: 45 });
    step(&mut advanced, Event::Advance { t: 45 });
    assert!(k == advanced);
    // A different hold is seen: Silver's slots are the difference.
    let fresh = kernel(Policy::QosRes);
    assert!(k != fresh);
}

#[test]
fn gold_is_never_moved_and_the_threshold_binds() {
    let mut k = kernel(Policy::QosRes);
    step(&mut k, submit(0, 1, Tier::Gold, 20, 50, 200));
    let (o, _) = step(&mut k, submit(0, 2, Tier::Gold, 20, 50, 70));
    assert_eq!(o, Outcome::Rejected(RejectReason::NoRoom));
    // A Silver of laxity exactly 1 (window 40, run 20) is not above the threshold.
    let mut k = kernel(Policy::QosRes);
    step(&mut k, submit(0, 1, Tier::Silver, 20, 50, 90));
    let (o, _) = step(&mut k, submit(0, 2, Tier::Gold, 20, 50, 70));
    assert_eq!(o, Outcome::Rejected(RejectReason::NoRoom));
}

#[test]
fn a_leaving_desktop_loses_its_jobs() {
    let mut k = kernel(Policy::Qos);
    step(&mut k, submit(0, 1, Tier::Silver, 20, 0, 25));
    step(&mut k, submit(0, 2, Tier::Silver, 20, 0, 25));
    step(&mut k, submit(0, 3, Tier::Bronze, 10, 0, 0));
    // 1 on the cluster, 2 on desktop 1, the Bronze on desktop 2 (half speed: 20 ticks).
    let (_, d) = step(&mut k, Event::Leave { t: 5, resource: 1 });
    assert_eq!(
        d,
        vec![
            Decision::Lost { t: 5, job: 2, running: true },
            Decision::Violate { t: 5, job: 2, why: Violation::Lost }
        ]
    );
    // Bronze is re-placed: desktop 2 is busy with it, so after the leave of desktop 2
    // it has nowhere to go but waits for desktop 1 ... which is gone: dropped.
    let (_, d) = step(&mut k, Event::Leave { t: 6, resource: 2 });
    assert_eq!(
        d,
        vec![
            Decision::Lost { t: 6, job: 3, running: true },
            Decision::Violate { t: 6, job: 3, why: Violation::Lost }
        ]
    );
    assert_eq!(
        step(&mut k, Event::Leave { t: 7, resource: 0 }).0,
        Outcome::Refused(RejectReason::BadAvailability)
    );
    let (_, d) = step(&mut k, Event::Return { t: 8, resource: 1 });
    assert!(d.is_empty());
}

#[test]
fn a_late_job_delays_the_next_and_is_violated() {
    let mut k = kernel(Policy::Qos);
    step(&mut k, submit(0, 1, Tier::Gold, 20, 0, 30));
    step(&mut k, submit(0, 2, Tier::Gold, 20, 20, 50));
    // Job 1 overruns to 35: violated at 30, job 2 waits and starts at 35, late by 5.
    let (_, d) = step(&mut k, Event::Finish { t: 35, job: 1 });
    assert_eq!(
        d,
        vec![
            Decision::Violate { t: 30, job: 1, why: Violation::Late },
            Decision::End { t: 35, job: 1, late: true },
            Decision::Start { t: 35, job: 2 },
        ]
    );
    let (_, d) = step(&mut k, Event::Finish { t: 55, job: 2 });
    assert_eq!(
        d,
        vec![
            Decision::Violate { t: 50, job: 2, why: Violation::Late },
            Decision::End { t: 55, job: 2, late: true }
        ]
    );
}

#[test]
fn a_full_table_rejects_bronze_with_its_reason() {
    let config =
        Config { slot_ticks: 10, policy: Policy::Qos, laxity_threshold_milli: 1000, bronze_deadline: 600 };
    let mut k = TiersKernel::<3, 64, 2>::new(config, &resources()).unwrap();
    step(&mut k, submit(0, 1, Tier::Bronze, 10, 0, 0));
    step(&mut k, submit(0, 2, Tier::Bronze, 10, 0, 0));
    let (o, d) = step(&mut k, submit(0, 3, Tier::Bronze, 10, 0, 0));
    assert_eq!(o, Outcome::Rejected(RejectReason::TableFull));
    assert_eq!(d, vec![Decision::Reject { job: 3, reason: RejectReason::TableFull }]);
    // The host wakes the kernel at the next planned start.
    let mut k = kernel(Policy::Qos);
    step(&mut k, submit(0, 1, Tier::Gold, 20, 40, 100));
    assert_eq!(k.poll_at(), Some(40));
}
