//! Arbitrary submits, advances, finishes, leaves, returns and resets into a small tiers
//! kernel (`TiersKernel<4, 32, 8>`, resources and policy from the input), checked after
//! every step:
//!
//! - the audit's invariants (`replay::model::tiers::TiersAudit`): no resource over its
//!   nodes, every placement, move and re-placement inside its window and on a resource
//!   its tier allows, Gold never moved, every loss on a leaving resource, every
//!   violation recomputed (Gold violations are allowed here: arbitrary finishes may
//!   overrun on reliable resources);
//! - under `no-qos` and `qos`, every decision equals the plain reference's
//!   (`replay::model::tiers::TiersReference`);
//! - a rejected submit, even after a failed rescheduling, leaves the state exactly as
//!   an `Advance` to its time does.
//!
//! The same checks run as ordinary tests over seeded cases in
//! `replay/tests/tiers_reference.rs`.

#![no_main]

use arbitrary::Arbitrary;
use kernel::tiers::{Config, Decision, Event, Group, Outcome, Policy, Request, Resource, Tier, TiersKernel};
use libfuzzer_sys::fuzz_target;
use replay::model::tiers::{TiersAudit, TiersReference};

const R: usize = 4;
const H: usize = 32;
const J: usize = 8;

#[derive(Arbitrary, Debug)]
struct Input {
    policy: u8,
    /// Per resource: bit 0 the group, bits 1-2 nodes - 1, bits 3-5 the speed step.
    resources: [u8; R],
    /// `1 + slot % 8` ticks a slot.
    slot: u8,
    laxity: u8,
    steps: Vec<Step>,
}

#[derive(Arbitrary, Debug)]
enum Step {
    Submit { dt: u8, tier: u8, work: u8, ready: u8, window: u8 },
    Advance { dt: u8 },
    Finish { dt: u8, job: u8 },
    Leave { dt: u8, resource: u8 },
    Return { dt: u8, resource: u8 },
    Reset,
}

fuzz_target!(|input: Input| {
    let policy = Policy::ALL[usize::from(input.policy % 3)];
    let resources: Vec<Resource> = input
        .resources
        .iter()
        .map(|&b| Resource {
            group: if b & 1 == 0 { Group::High } else { Group::Low },
            nodes: u32::from((b >> 1) & 3) + 1,
            speed_milli: 500 + 250 * u32::from((b >> 3) & 7),
        })
        .collect();
    let config = Config {
        slot_ticks: u64::from(input.slot % 8) + 1,
        policy,
        laxity_threshold_milli: u64::from(input.laxity) * 20,
        bronze_deadline: 200,
    };
    let mut kernel = TiersKernel::<R, H, J>::new(config, &resources).expect("a valid configuration");
    let mut reference = TiersReference::new(config, &resources, H as u64, J);
    let mut audit = TiersAudit::new(config, &resources).without_gold_promise();
    let mut t = 0u64;
    let mut job = 0u32;
    for step in input.steps.iter().take(200) {
        let event = match *step {
            Step::Submit { dt, tier, work, ready, window } => {
                t += u64::from(dt % 16);
                job += 1;
                let ready = t + u64::from(ready % 64);
                let work = u64::from(work % 40) + 1;
                let deadline = ready + work + u64::from(window % 64);
                Event::Submit(Request {
                    t,
                    job,
                    tier: Tier::ALL[usize::from(tier % 3)],
                    work,
                    ready,
                    deadline,
                })
            }
            Step::Advance { dt } => {
                t += u64::from(dt % 32);
                Event::Advance { t }
            }
            Step::Finish { dt, job: j } => {
                t += u64::from(dt % 32);
                Event::Finish { t, job: u32::from(j) % (job + 1) }
            }
            Step::Leave { dt, resource } => {
                t += u64::from(dt % 32);
                Event::Leave { t, resource: resource % 5 }
            }
            Step::Return { dt, resource } => {
                t += u64::from(dt % 32);
                Event::Return { t, resource: resource % 5 }
            }
            Step::Reset => {
                t = 0;
                Event::Reset
            }
        };
        let mut ours: Vec<Decision> = Vec::new();
        let mut advanced = kernel.clone();
        if let Some(t) = event.time() {
            advanced.step(Event::Advance { t }, &mut |_| {});
        }
        if let Outcome::Rejected(_) = kernel.step(event, &mut |d| ours.push(d)) {
            assert!(kernel == advanced, "{event:?}: a rejection changed the state");
        }
        if let Some(reference) = reference.as_mut() {
            assert_eq!(ours, reference.step(event), "{event:?}");
        }
        if let Err(e) = audit.step(&event, &ours) {
            panic!("{event:?}: {e}");
        }
    }
    if let Err(e) = audit.finish() {
        panic!("at the end: {e}");
    }
});
