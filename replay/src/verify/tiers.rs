//! Verification of a tiers log: the tiers kernel rebuilt from the header re-makes
//! every decision, and [`TiersAudit`] holds them to their promises.

use kernel::Tick;
use kernel::log::Body;
use kernel::tiers::{Decision, Event};

use super::{Counts, Tally, Verified, VerifyError};
use crate::contract::{LogModel, Tiers};
use crate::engine::tiers::TiersEngine;
use crate::format::{Header, TiersHeader};
use crate::model::tiers::{TiersAudit, TiersCounts, TiersViolation};

impl LogModel for Tiers {
    const NAME: &'static str = "tiers";
    const LABEL: &'static str = "tiers";
    type Event = Event;
    type Decision = Decision;

    fn event(body: &Body) -> Option<Event> {
        if let Body::TiersEvent(event) = body { Some(*event) } else { None }
    }

    fn decision(body: &Body) -> Option<Decision> {
        if let Body::TiersDecision(decision) = body { Some(*decision) } else { None }
    }

    fn wrap_decision(decision: Decision) -> Body {
        Body::TiersDecision(decision)
    }

    fn time(event: &Event) -> Option<Tick> {
        event.time()
    }
}

impl Verified for Tiers {
    type Header = TiersHeader;
    type Engine = TiersEngine;
    type Audit = TiersAudit;
    /// The tiers audit recomputes every count itself: none are kept while reading.
    type Counts = TiersCounts;
    type Violation = TiersViolation;
    const PROMISE: &'static str = "tiers promise";
    /// The kernel's work outweighs the reading and the audit.
    const SPLIT: bool = true;

    fn header(header: &Header) -> Option<&TiersHeader> {
        header.tiers()
    }

    fn engine(header: &TiersHeader) -> Result<TiersEngine, VerifyError> {
        Ok(TiersEngine::from_header(header)?)
    }

    fn step(engine: &mut TiersEngine, event: Event, out: &mut Vec<Decision>) {
        engine.step(event, out);
    }

    fn audit(header: &TiersHeader) -> TiersAudit {
        TiersAudit::new(header.config, &header.resources)
    }

    fn check(audit: &mut TiersAudit, event: &Event, decisions: &[Decision]) -> Result<(), TiersViolation> {
        audit.step(event, decisions)
    }

    fn count(tally: &mut Tally, _: &mut TiersCounts, decision: &Decision) {
        match decision {
            Decision::Accept { .. } => tally.accepted += 1,
            Decision::Reject { .. } => tally.rejected += 1,
            Decision::End { .. } => tally.completed += 1,
            _ => {}
        }
    }

    fn finish(audit: TiersAudit, _: TiersCounts) -> Result<TiersCounts, TiersViolation> {
        audit.finish()
    }
}

impl Counts for TiersCounts {
    fn summary(&self, r: &Tally, log: &str) -> String {
        let [min, q1, median, q3, max] = self.bronze_wait;
        format!(
            "{log}: verified {} records ({} events, {} decisions): {} accepted, {} rejected, {} ended, {} moved, \
             {} re-placed, {} lost; violated: {} Gold, {} Silver; {} Bronze dropped; Bronze wait s: min {min} \
             q1 {q1} median {median} q3 {q3} max {max}\nevery decision re-made by the tiers kernel; every \
             placement and move inside its window and on a resource its tier allows, no resource over its \
             nodes, every violation recomputed from the records\n",
            r.records,
            r.events,
            r.decisions,
            r.accepted,
            r.rejected,
            r.completed,
            self.moves,
            self.replaced,
            self.lost,
            self.violated_gold,
            self.violated_silver,
            self.bronze_dropped,
        )
    }

    fn measures(&self, out: &mut Vec<(String, u128)>) {
        let [min, q1, median, q3, max] = self.bronze_wait;
        let own = [
            ("moved", self.moves),
            ("re-placed", self.replaced),
            ("lost", self.lost),
            ("violated Gold", self.violated_gold),
            ("violated Silver", self.violated_silver),
            ("Bronze dropped", self.bronze_dropped),
            ("Bronze wait min", min),
            ("Bronze wait q1", q1),
            ("Bronze wait median", median),
            ("Bronze wait q3", q3),
            ("Bronze wait max", max),
        ];
        out.extend(own.into_iter().map(|(name, value)| (name.to_owned(), u128::from(value))));
    }
}
