//! Verification of an SLA log: the SLA kernel rebuilt from the header re-makes every
//! decision, and [`SlaAudit`] holds them to their promises without it.

use kernel::Tick;
use kernel::log::Body;
use kernel::sla::{Decision, Event, RejectReason};

use super::{Counts, Tally, Verified, VerifyError};
use crate::contract::{LogModel, Sla};
use crate::engine::sla::SlaEngine;
use crate::format::{Header, SlaHeader};
use crate::model::sla::{SlaAudit, SlaCounts, SlaViolation};

impl LogModel for Sla {
    const NAME: &'static str = "sla";
    const LABEL: &'static str = "sla";
    type Event = Event;
    type Decision = Decision;

    fn event(body: &Body) -> Option<Event> {
        if let Body::SlaEvent(event) = body { Some(*event) } else { None }
    }

    fn decision(body: &Body) -> Option<Decision> {
        if let Body::SlaDecision(decision) = body { Some(*decision) } else { None }
    }

    fn wrap_decision(decision: Decision) -> Body {
        Body::SlaDecision(decision)
    }

    fn time(event: &Event) -> Option<Tick> {
        Some(event.time())
    }
}

impl Verified for Sla {
    type Header = SlaHeader;
    type Engine = SlaEngine;
    type Audit = SlaAudit;
    /// The SLA audit counts everything itself: none are kept while reading.
    type Counts = SlaCounts;
    type Violation = SlaViolation;
    const PROMISE: &'static str = "SLA promise";
    /// The kernel's work outweighs the reading and the audit.
    const SPLIT: bool = true;

    fn header(header: &Header) -> Option<&SlaHeader> {
        header.sla()
    }

    fn engine(header: &SlaHeader) -> Result<SlaEngine, VerifyError> {
        Ok(SlaEngine::from_header(header)?)
    }

    fn step(engine: &mut SlaEngine, event: Event, out: &mut Vec<Decision>) {
        engine.step(event, out);
    }

    fn audit(header: &SlaHeader) -> SlaAudit {
        SlaAudit::counting(header)
    }

    fn check(audit: &mut SlaAudit, event: &Event, decisions: &[Decision]) -> Result<(), SlaViolation> {
        audit.step(event, decisions)
    }

    fn count(tally: &mut Tally, _: &mut SlaCounts, decision: &Decision) {
        match decision {
            Decision::Accept { .. } => tally.accepted += 1,
            Decision::Reject { .. } => tally.rejected += 1,
        }
    }

    fn finish(audit: SlaAudit, _: SlaCounts) -> Result<SlaCounts, SlaViolation> {
        Ok(audit.finish().counts)
    }
}

impl Counts for SlaCounts {
    fn summary(&self, r: &Tally, log: &str) -> String {
        let reasons: Vec<String> = RejectReason::ALL
            .iter()
            .filter(|&&reason| self.rejected_for(reason) > 0)
            .map(|&reason| format!("{} {reason}", self.rejected_for(reason)))
            .collect();
        let reasons = if reasons.is_empty() { String::new() } else { format!(" ({})", reasons.join(", ")) };
        format!(
            "{log}: verified {} records ({} events, {} decisions): {} requests in {} job sets, {} plans; {} \
             accepted ({} node-ticks), {} rejected{reasons}; {} left pending\nevery decision re-made by the \
             sla kernel; every accepted job inside its window at its first free start TS + k*dt, no slot \
             over the machine's nodes, every rejection's reason and the fitting order recomputed from the \
             records\n",
            r.records,
            r.events,
            r.decisions,
            self.requests,
            self.sets,
            self.plans,
            self.accepted,
            self.node_ticks,
            self.rejected_total(),
            self.pending_at_end,
        )
    }

    fn measures(&self, out: &mut Vec<(String, u128)>) {
        let own = [("requests", self.requests), ("plans", self.plans), ("job sets", self.sets)];
        out.extend(own.into_iter().map(|(name, value)| (name.to_owned(), u128::from(value))));
        for reason in RejectReason::ALL {
            out.push((format!("rejected {reason}"), u128::from(self.rejected_for(reason))));
        }
        out.push(("accepted node-ticks".to_owned(), self.node_ticks));
        out.push(("pending at end".to_owned(), u128::from(self.pending_at_end)));
    }
}
