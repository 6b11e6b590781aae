//! One decoder from arbitrary bytes to a small SLA case, and one check of a case, so
//! that libFuzzer's inputs (`fuzz/fuzz_targets/sla.rs`) and the seeded random bytes of
//! `replay/tests/sla_props.rs` explore the same space with the same checks.
//!
//! Every byte string decodes (missing bytes read as zero). The decoding is skewed
//! towards what finds bugs: a machine of one to six nodes, short slots and steps, so
//! that a small calendar's horizon is reached; requests near the current time, some
//! invalid, some with no slack, some wider than the machine; batches that fill; plans,
//! an occasional reset, and time going backwards now and then. Job numbers are the
//! submit count, so they are distinct within a batch, as the audit requires.

use kernel::Tick;
use kernel::sla::{
    Config, Decision, Direction, Event, Heuristic, Order, RejectReason, Request, SlaKernel, Term, Weight,
};

use super::audit::SlaAudit;
use super::reference::SlaReference;
use crate::format::SlaHeader;
use crate::model::bytes::Bytes;

/// The calendar slots of a case's kernel.
pub const CASE_SLOTS: usize = 24;
/// The pending batch of a case's kernel.
pub const CASE_BATCH: usize = 6;
/// The kernel a case runs on.
pub type CaseKernel = SlaKernel<CASE_SLOTS, CASE_BATCH>;
/// Events decoded at most.
pub const MAX_EVENTS: usize = 60;

/// A scenario: a configuration and the events to feed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlaCase {
    pub config: Config,
    pub events: Vec<Event>,
}

const TERMS: [Term; 7] = Term::ALL;
const WEIGHTS: [Weight; 12] = [
    Weight::Milli(0),
    Weight::Milli(1000),
    Weight::Milli(-1000),
    Weight::Milli(500),
    Weight::Milli(-800),
    Weight::Milli(2500),
    Weight::Milli(-5000),
    Weight::Milli(135),
    Weight::PlusInf,
    Weight::MinusInf,
    Weight::Milli(i32::MAX),
    Weight::Milli(i32::MIN),
];

fn order(b: &mut Bytes<'_>) -> Order {
    let kind = b.next();
    if kind.is_multiple_of(8) {
        return Order::Random { seed: u64::from(b.next()) };
    }
    let direction = if kind & 0x10 == 0 { Direction::Min } else { Direction::Max };
    let term = |b: &mut Bytes<'_>| TERMS[usize::from(b.below(7))];
    let weighted = |b: &mut Bytes<'_>| (WEIGHTS[usize::from(b.below(12))], TERMS[usize::from(b.below(7))]);
    let h1 = term(b);
    let second = (kind & 0x20 != 0).then(|| weighted(b));
    let third = (second.is_some() && kind & 0x40 != 0).then(|| weighted(b));
    Order::Heuristic(Heuristic { direction, h1, second, third })
}

/// Decodes a case from any bytes.
pub fn case_from_bytes(bytes: &[u8]) -> SlaCase {
    let mut b = Bytes(bytes);
    let nodes = 1 + u32::from(b.below(6));
    let slot_ticks = 1 + Tick::from(b.below(5));
    let step_ticks = slot_ticks * (1 + Tick::from(b.below(3)));
    let ticks_per_hour = [1, 7, 100, 3600][usize::from(b.below(4))];
    let config = Config { nodes, slot_ticks, step_ticks, ticks_per_hour, order: order(&mut b) };
    let mut events = Vec::new();
    let mut t: Tick = 0;
    let mut job: u32 = 0;
    while events.len() < MAX_EVENTS && !b.is_empty() {
        let kind = b.next();
        match kind % 16 {
            0..=9 => {
                // Mostly now or a little later; now and then a step back in time.
                let at = match kind / 16 {
                    0 => t.saturating_sub(Tick::from(b.below(4))),
                    1..=8 => t,
                    _ => t + Tick::from(b.below(6)),
                };
                let ahead = if b.below(4) == 0 { 60 } else { 24 };
                let ts = (at + Tick::from(b.below(ahead))).saturating_sub(Tick::from(b.below(4)));
                let td = Tick::from(b.below(14));
                let slack = Tick::from(b.below(40));
                // A few windows too short for the duration.
                let tf = if b.below(12) == 0 { (ts + td).saturating_sub(1) } else { ts + td + slack };
                // Now and then no nodes, or more than the machine.
                let ncpu = match b.below(16) {
                    0 => 0,
                    1 => nodes + 1,
                    _ => 1 + u32::from(b.below(u8::try_from(nodes).unwrap_or(6))),
                };
                job += 1;
                events.push(Event::Submit { t: at, request: Request { job, ts, tf, td, ncpu } });
                t = t.max(at);
            }
            10..=13 => {
                let at = if kind / 16 == 0 { t.saturating_sub(1) } else { t + Tick::from(b.below(20)) };
                events.push(Event::Plan { t: at });
                t = t.max(at);
            }
            14 => {
                // A far jump now and then, past a small calendar's horizon.
                t += Tick::from(b.below(4)) * 60;
            }
            _ => {
                let at = if kind / 16 < 8 { 0 } else { t };
                events.push(Event::Reset { t: at });
                t = at;
            }
        }
    }
    events.push(Event::Plan { t });
    SlaCase { config, events }
}

/// What a case reached, so that the seeded tests can show every branch is reached.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CaseStats {
    pub accepted: u64,
    /// Rejections by reason, in [`RejectReason::ALL`]'s order.
    pub rejected: [u64; 7],
    /// Accepts at a start later than the first tried one.
    pub moved_on: u64,
}

/// Runs a case through [`CaseKernel`] and [`SlaReference`]: every event must get the
/// same decisions from both, and the kernel's decisions must pass [`SlaAudit`].
pub fn check_case(case: &SlaCase) -> Result<CaseStats, String> {
    let mut kernel = CaseKernel::new(case.config).map_err(|e| format!("config {:?}: {e}", case.config))?;
    let mut reference = SlaReference::new(case.config, CASE_SLOTS as u64, CASE_BATCH);
    let header = SlaHeader { config: case.config, slots: CASE_SLOTS as u32, batch: CASE_BATCH as u32 };
    let mut audit = SlaAudit::new(&header);
    let mut stats = CaseStats::default();
    let mut requests = std::collections::HashMap::new();
    for (i, event) in case.events.iter().enumerate() {
        let mut got = Vec::new();
        kernel.step(*event, &mut |d| got.push(d));
        let want = reference.step(event);
        if got != want {
            return Err(format!("event {i} {event:?}: the kernel decides {got:?}, the reference {want:?}"));
        }
        audit
            .step(event, &got)
            .map_err(|e| format!("event {i} {event:?}: the audit refuses {got:?}: {e}"))?;
        if let Event::Submit { request, .. } = event {
            requests.insert(request.job, *request);
        }
        for d in &got {
            match *d {
                Decision::Accept { job, start } => {
                    stats.accepted += 1;
                    if requests.get(&job).is_some_and(|r: &Request| start > r.ts.max(event.time())) {
                        stats.moved_on += 1;
                    }
                }
                Decision::Reject { reason, .. } => {
                    if let Some(i) = RejectReason::ALL.iter().position(|r| *r == reason) {
                        stats.rejected[i] += 1;
                    }
                }
            }
        }
    }
    audit.finish();
    Ok(stats)
}
