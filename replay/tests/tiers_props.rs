//! The tiers model's checks on seeded random events: each of 3,000 byte strings decoded
//! into a small case and run through `check_case` (the fuzz target `tiers` runs the same
//! on arbitrary inputs), and longer streams of submits, finishes of running jobs, leaves
//! and returns into a larger kernel. Under `no-qos` and `qos` every decision is the
//! plain reference's; under every policy the audit's invariants hold after every event
//! and a rejection changes nothing but the time.

mod common;

use kernel::tiers::{Config, Decision, Event, Group, Policy, Request, Resource, Tier, TiersKernel};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use replay::model::tiers::harness::{CaseStats, case_from_bytes, check_case};
use replay::model::tiers::{TiersAudit, TiersReference};

#[test]
fn seeded_cases_agree_with_the_reference_and_the_audit() {
    let mut total = CaseStats::default();
    for (seed, bytes) in common::seeded_bytes(3000) {
        let case = case_from_bytes(&bytes);
        let stats = check_case(&case).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{case:?}"));
        total.compared += stats.compared;
        total.accepted += stats.accepted;
        total.rejected += stats.rejected;
        total.moved += stats.moved;
        total.lost += stats.lost;
        total.replaced += stats.replaced;
        total.violated += stats.violated;
    }
    // Every branch but rescheduling's moves is reached (the counts are this seed set's,
    // rounded down); `kernel/src/tiers/lazy_tests.rs` reaches the moves.
    assert!(total.compared > 50_000 && total.accepted > 30_000 && total.rejected > 5_000, "{total:?}");
    assert!(total.lost > 2_000 && total.replaced > 1_000 && total.violated > 10_000, "{total:?}");
}

const R: usize = 4;
const H: usize = 64;
const J: usize = 12;

fn resources() -> Vec<Resource> {
    vec![
        Resource { group: Group::High, nodes: 2, speed_milli: 1500 },
        Resource { group: Group::Low, nodes: 1, speed_milli: 1000 },
        Resource { group: Group::Low, nodes: 1, speed_milli: 1800 },
        Resource { group: Group::Low, nodes: 2, speed_milli: 700 },
    ]
}

/// A random stream: submits, finishes of running jobs, leaves and returns.
fn run(policy: Policy, seed: u64) -> usize {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let config = Config { slot_ticks: 10, policy, laxity_threshold_milli: 1000, bronze_deadline: 400 };
    let mut kernel = TiersKernel::<R, H, J>::new(config, &resources()).unwrap();
    let mut reference = TiersReference::new(config, &resources(), H as u64, J);
    let mut audit = TiersAudit::new(config, &resources()).without_gold_promise();
    let mut t = 0;
    let mut running: Vec<u32> = Vec::new();
    let mut compared = 0;
    for n in 0..300u32 {
        t += rng.random_range(0..15);
        let event = match rng.random_range(0..10) {
            0..=4 => {
                let tier = Tier::ALL[rng.random_range(0..3)];
                let ready = t + rng.random_range(0..120);
                let work = rng.random_range(1..60);
                let deadline = ready + work + rng.random_range(0..80);
                Event::Submit(Request { t, job: n, tier, work, ready, deadline })
            }
            5..=7 if !running.is_empty() => {
                let job = running.swap_remove(rng.random_range(0..running.len()));
                Event::Finish { t, job }
            }
            8 => Event::Leave { t, resource: rng.random_range(0..4) },
            _ => Event::Return { t, resource: rng.random_range(0..4) },
        };
        let mut ours = Vec::new();
        let mut advanced = kernel.clone();
        if let Some(t) = event.time() {
            advanced.step(Event::Advance { t }, &mut |_| {});
        }
        let outcome = kernel.step(event, &mut |d| ours.push(d));
        if let kernel::tiers::Outcome::Rejected(_) = outcome {
            // A rejection, even after a failed rescheduling, changes nothing but the time.
            assert!(kernel == advanced, "seed {seed}, event {n}: {event:?} changed the state");
        }
        if let Some(reference) = reference.as_mut() {
            let theirs = reference.step(event);
            assert_eq!(ours, theirs, "seed {seed}, event {n}: {event:?}");
        }
        audit.step(&event, &ours).unwrap_or_else(|e| panic!("seed {seed}, event {n}: {event:?}: {e}"));
        for d in &ours {
            match *d {
                Decision::Start { job, .. } => running.push(job),
                Decision::Lost { job, .. } => running.retain(|&j| j != job),
                _ => {}
            }
        }
        compared += ours.len();
    }
    audit.finish().unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    compared
}

#[test]
fn no_qos_matches_the_reference() {
    let decisions: usize = (0..40).map(|seed| run(Policy::NoQos, seed)).sum();
    assert!(decisions > 4000, "{decisions}");
}

#[test]
fn qos_matches_the_reference() {
    let decisions: usize = (0..40).map(|seed| run(Policy::Qos, seed)).sum();
    assert!(decisions > 4000, "{decisions}");
}

#[test]
fn qos_res_keeps_the_audit_promises() {
    let decisions: usize = (0..40).map(|seed| run(Policy::QosRes, seed)).sum();
    assert!(decisions > 4000, "{decisions}");
}
