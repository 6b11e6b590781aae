//! Seeded random events into a small tiers kernel and the plain reference: under
//! `no-qos` and `qos` every decision is the same; under every policy the audit's
//! invariants hold after every event and a rejection changes nothing but the time (the fuzz target `tiers` runs the same checks on
//! arbitrary inputs).

use kernel::tiers::{Config, Decision, Event, Group, Policy, Request, Resource, Tier, TiersKernel};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use replay::model::tiers::{TiersAudit, TiersReference};

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
