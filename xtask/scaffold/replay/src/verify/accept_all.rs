//! Verification of an accept-all log: the kernel rebuilt from the header re-makes
//! every decision, and [`AcceptAllAudit`] holds them to the rule without it.

use kernel::Tick;
use kernel::accept_all::{AcceptAllKernel, Decision, Event};
use kernel::contract::Kernel;
use kernel::log::Body;

use super::{Counts, Tally, Verified, VerifyError};
use crate::contract::{AcceptAll, LogModel};
use crate::format::model::accept_all::AcceptAllHeader;
use crate::format::{Header, Model};
use crate::model::accept_all::{AcceptAllAudit, AcceptAllCounts, AcceptAllViolation};

impl LogModel for AcceptAll {
    const NAME: &'static str = "accept_all";
    const LABEL: &'static str = "accept-all";
    type Event = Event;
    type Decision = Decision;

    fn event(body: &Body) -> Option<Event> {
        if let Body::AcceptAllEvent(event) = body { Some(*event) } else { None }
    }

    fn decision(body: &Body) -> Option<Decision> {
        if let Body::AcceptAllDecision(decision) = body { Some(*decision) } else { None }
    }

    fn wrap_decision(decision: Decision) -> Body {
        Body::AcceptAllDecision(decision)
    }

    fn time(event: &Event) -> Option<Tick> {
        Some(event.time())
    }
}

impl Verified for AcceptAll {
    type Header = AcceptAllHeader;
    type Engine = AcceptAllKernel;
    type Audit = AcceptAllAudit;
    type Counts = AcceptAllCounts;
    type Violation = AcceptAllViolation;
    const PROMISE: &'static str = "accept-all promise";
    const SPLIT: bool = false;

    fn header(header: &Header) -> Option<&AcceptAllHeader> {
        match &header.model {
            Model::AcceptAll(part) => Some(part),
            _ => None,
        }
    }

    fn engine(header: &AcceptAllHeader) -> Result<AcceptAllKernel, VerifyError> {
        Ok(crate::engine::accept_all::from_header(header))
    }

    fn step(engine: &mut AcceptAllKernel, event: Event, out: &mut Vec<Decision>) {
        engine.step(event, &mut |d| out.push(d));
    }

    fn audit(_: &AcceptAllHeader) -> AcceptAllAudit {
        AcceptAllAudit::default()
    }

    fn check(
        audit: &mut AcceptAllAudit,
        event: &Event,
        decisions: &[Decision],
    ) -> Result<(), AcceptAllViolation> {
        audit.step(event, decisions)
    }

    fn count(tally: &mut Tally, _: &mut AcceptAllCounts, decision: &Decision) {
        match decision {
            Decision::Accept { .. } => tally.accepted += 1,
            Decision::Reject { .. } => tally.rejected += 1,
        }
    }

    fn finish(audit: AcceptAllAudit, _: AcceptAllCounts) -> Result<AcceptAllCounts, AcceptAllViolation> {
        Ok(audit.counts())
    }
}

impl Counts for AcceptAllCounts {
    fn summary(&self, r: &Tally, log: &str) -> String {
        format!(
            "{log}: verified {} records ({} events, {} decisions): {} requests, {} accepted, {} rejected late\n\
             every decision re-made by the accept-all kernel; every request answered once, at its time\n",
            r.records, r.events, r.decisions, self.requests, self.accepted, self.late
        )
    }

    fn measures(&self, out: &mut Vec<(String, u128)>) {
        out.push(("requests".to_owned(), u128::from(self.requests)));
        out.push(("rejected late".to_owned(), u128::from(self.late)));
    }
}
