//! One decoder from arbitrary bytes to a small tiers case, and one check of a case, so
//! that libFuzzer's inputs (`fuzz/fuzz_targets/tiers.rs`) and the seeded random bytes
//! of `replay/tests/tiers_props.rs` explore the same space with the same checks.
//!
//! Every byte string decodes (missing bytes read as zero). A case is four resources of
//! either group, one to four nodes and speeds from 0.5 to 2.25, any policy, short
//! slots, any laxity threshold, and up to [`MAX_EVENTS`] submits, advances, finishes,
//! leaves, returns and resets. Finishes name any job submitted so far (or none), and
//! leaves and returns now and then a resource that does not exist.

use std::fmt;

use kernel::tiers::{
    Config, ConfigError, Decision, Event, Group, Outcome, Policy, Request, Resource, Tier, TiersKernel,
};

use super::audit::{TiersAudit, TiersViolation};
use super::reference::TiersReference;
use crate::model::bytes::Bytes;

/// The resources of a case's kernel.
pub const CASE_RESOURCES: usize = 4;
/// The calendar slots of a case's kernel.
pub const CASE_SLOTS: usize = 32;
/// The job table of a case's kernel.
pub const CASE_JOBS: usize = 8;
/// The kernel a case runs on.
pub type CaseKernel = TiersKernel<CASE_RESOURCES, CASE_SLOTS, CASE_JOBS>;
/// Events decoded at most.
pub const MAX_EVENTS: usize = 200;

/// A scenario: a configuration, the resources and the events to feed them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TiersCase {
    pub config: Config,
    pub resources: Vec<Resource>,
    pub events: Vec<Event>,
}

/// Bit 0 the group, bits 1-2 nodes - 1, bits 3-5 the speed step.
fn resource(b: u8) -> Resource {
    Resource {
        group: if b & 1 == 0 { Group::High } else { Group::Low },
        nodes: u32::from((b >> 1) & 3) + 1,
        speed_milli: 500 + 250 * u32::from((b >> 3) & 7),
    }
}

/// Decodes a case from any bytes.
pub fn case_from_bytes(bytes: &[u8]) -> TiersCase {
    let mut b = Bytes(bytes);
    let policy = Policy::ALL[usize::from(b.below(3))];
    let resources = (0..CASE_RESOURCES).map(|_| resource(b.next())).collect();
    let slot_ticks = 1 + u64::from(b.below(8));
    let laxity_threshold_milli = u64::from(b.next()) * 20;
    let config = Config { slot_ticks, policy, laxity_threshold_milli, bronze_deadline: 200 };
    let mut events = Vec::new();
    let mut t = 0u64;
    let mut job = 0u32;
    while events.len() < MAX_EVENTS && !b.is_empty() {
        let kind = b.next() % 16;
        if kind == 15 {
            t = 0;
            events.push(Event::Reset);
            continue;
        }
        t += u64::from(b.below(if kind <= 5 { 16 } else { 32 }));
        let event = match kind {
            0..=5 => {
                job += 1;
                let tier = Tier::ALL[usize::from(b.below(3))];
                let ready = t + u64::from(b.below(64));
                let work = 1 + u64::from(b.below(40));
                let deadline = ready + work + u64::from(b.below(64));
                Event::Submit(Request { t, job, tier, work, ready, deadline })
            }
            6..=8 => Event::Advance { t },
            9 | 10 => Event::Finish { t, job: u32::from(b.next()) % (job + 1) },
            11 | 12 => Event::Leave { t, resource: b.below(5) },
            _ => Event::Return { t, resource: b.below(5) },
        };
        events.push(event);
    }
    TiersCase { config, resources, events }
}

/// What broke.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The case does not describe a kernel of its shape.
    Config(ConfigError),
    /// A check failed at event `step` of the case.
    Event { step: usize, event: Event, what: String },
    /// The audit refuses the run's end.
    End(TiersViolation),
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Config(e) => write!(f, "bad case configuration: {e}"),
            Self::Event { step, event, what } => write!(f, "event {step} {event:?}: {what}"),
            Self::End(e) => write!(f, "at the end: {e}"),
        }
    }
}

impl std::error::Error for Failure {}

/// What a case reached, so that the seeded tests can show every branch is reached.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CaseStats {
    /// Decisions compared with the reference (under `no-qos` and `qos`).
    pub compared: u64,
    pub accepted: u64,
    pub rejected: u64,
    pub moved: u64,
    pub lost: u64,
    pub replaced: u64,
    pub violated: u64,
}

impl CaseStats {
    fn count(&mut self, decisions: &[Decision]) {
        for d in decisions {
            match d {
                Decision::Accept { .. } => self.accepted += 1,
                Decision::Reject { .. } => self.rejected += 1,
                Decision::Move { .. } => self.moved += 1,
                Decision::Lost { .. } => self.lost += 1,
                Decision::Replace { .. } => self.replaced += 1,
                Decision::Violate { .. } => self.violated += 1,
                Decision::Start { .. } | Decision::End { .. } => {}
            }
        }
    }
}

/// Runs a case through [`CaseKernel`], checking after every event that:
///
/// - the audit's invariants hold ([`TiersAudit`], without its Gold promise: arbitrary
///   finishes may overrun on reliable resources);
/// - under `no-qos` and `qos`, every decision equals the plain [`TiersReference`]'s;
/// - a rejected submit, even after a failed rescheduling, leaves the state exactly as
///   an `Advance` to its time does.
pub fn check_case(case: &TiersCase) -> Result<CaseStats, Failure> {
    let mut kernel = CaseKernel::new(case.config, &case.resources).map_err(Failure::Config)?;
    let mut reference = TiersReference::new(case.config, &case.resources, CASE_SLOTS as u64, CASE_JOBS);
    let mut audit = TiersAudit::new(case.config, &case.resources).without_gold_promise();
    let mut stats = CaseStats::default();
    for (step, &event) in case.events.iter().enumerate() {
        let fail = |what| Failure::Event { step, event, what };
        let mut got = Vec::new();
        let mut advanced = kernel.clone();
        if let Some(t) = event.time() {
            advanced.step(Event::Advance { t }, &mut |_| {});
        }
        if let Outcome::Rejected(reason) = kernel.step(event, &mut |d| got.push(d))
            && kernel != advanced
        {
            return Err(fail(format!("a rejection ({reason:?}) changed the state")));
        }
        if let Some(reference) = reference.as_mut() {
            let want = reference.step(event);
            if got != want {
                return Err(fail(format!("the kernel decides {got:?}, the reference {want:?}")));
            }
            stats.compared += got.len() as u64;
        }
        audit.step(&event, &got).map_err(|e| fail(format!("the audit refuses {got:?}: {e}")))?;
        stats.count(&got);
    }
    audit.finish().map_err(Failure::End)?;
    Ok(stats)
}
