//! Verification of a service-level log: the engine rebuilt from the header re-makes
//! every decision, and [`ServiceLevelAudit`] holds them to their promises.

use kernel::Tick;
use kernel::log::Body;
use kernel::service_level::{Decision, Event};

use super::{Counts, Tally, Verified, VerifyError};
use crate::contract::{LogModel, ServiceLevel};
use crate::engine::service_level::ServiceLevelEngine;
use crate::format::{Header, ServiceLevelHeader};
use crate::model::service_level::{ServiceLevelAudit, ServiceLevelViolation};

/// What a service-level log counts beyond every model's tallies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ServiceLevelCounts {
    /// Accepts that displaced a job which had already run (the thesis' interruptions).
    pub preemptions: u64,
}

impl LogModel for ServiceLevel {
    const NAME: &'static str = "service_level";
    const LABEL: &'static str = "service-level";
    type Event = Event;
    type Decision = Decision;

    fn event(body: &Body) -> Option<Event> {
        if let Body::Event(event) = body { Some(*event) } else { None }
    }

    fn decision(body: &Body) -> Option<Decision> {
        if let Body::Decision(decision) = body { Some(*decision) } else { None }
    }

    fn wrap_decision(decision: Decision) -> Body {
        Body::Decision(decision)
    }

    fn time(event: &Event) -> Option<Tick> {
        event.time()
    }
}

impl Verified for ServiceLevel {
    type Header = ServiceLevelHeader;
    type Engine = ServiceLevelEngine;
    type Audit = ServiceLevelAudit;
    type Counts = ServiceLevelCounts;
    type Violation = ServiceLevelViolation;
    const PROMISE: &'static str = "promise";
    /// A service-level kernel decides faster than its records are handed over: the
    /// re-making stays on the reading thread (a second thread made it slower).
    const SPLIT: bool = false;

    fn header(header: &Header) -> Option<&ServiceLevelHeader> {
        header.service_level()
    }

    fn engine(header: &ServiceLevelHeader) -> Result<ServiceLevelEngine, VerifyError> {
        Ok(ServiceLevelEngine::from_header(header)?)
    }

    fn step(engine: &mut ServiceLevelEngine, event: Event, out: &mut Vec<Decision>) {
        engine.step(event, out);
    }

    fn audit(header: &ServiceLevelHeader) -> ServiceLevelAudit {
        ServiceLevelAudit::with_levels(header.machines, header.levels.clone())
    }

    fn check(
        audit: &mut ServiceLevelAudit,
        event: &Event,
        decisions: &[Decision],
    ) -> Result<(), ServiceLevelViolation> {
        audit.step(event, decisions)
    }

    fn count(tally: &mut Tally, counts: &mut ServiceLevelCounts, decision: &Decision) {
        match decision {
            Decision::Accept { preempted, .. } => {
                tally.accepted += 1;
                counts.preemptions += u64::from(preempted.is_some());
            }
            Decision::Reject { .. } => tally.rejected += 1,
            Decision::Complete { .. } => tally.completed += 1,
            Decision::Start { .. } | Decision::Preempt { .. } => {}
        }
    }

    fn finish(
        audit: ServiceLevelAudit,
        counts: ServiceLevelCounts,
    ) -> Result<ServiceLevelCounts, ServiceLevelViolation> {
        audit.finish()?;
        Ok(counts)
    }
}

impl Counts for ServiceLevelCounts {
    fn summary(&self, r: &Tally, log: &str) -> String {
        format!(
            "{log}: verified {} records ({} events, {} decisions): {} accepted, {} rejected, {} completed, \
             {} interruptions\nevery decision re-made by the kernel; every accepted job ran for exactly \
             its processing time and met its deadline\n",
            r.records, r.events, r.decisions, r.accepted, r.rejected, r.completed, self.preemptions
        )
    }

    fn measures(&self, out: &mut Vec<(String, u128)>) {
        out.push(("interruptions".to_owned(), u128::from(self.preemptions)));
    }
}
