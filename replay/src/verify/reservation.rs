//! Verification of a reservation log: the reservation kernel rebuilt from the header
//! re-makes every decision, and [`ReservationAudit`] holds them to their promises.

use kernel::Tick;
use kernel::log::Body;
use kernel::reservation::{Decision, Event};

use super::{Counts, Tally, Verified, VerifyError};
use crate::contract::{LogModel, Reservation};
use crate::engine::reservation::ReservationEngine;
use crate::format::{Header, ReservationHeader};
use crate::model::reservation::{ReservationAudit, ReservationViolation};

/// What a reservation log's decisions counted (its accepts, rejects and ends are
/// [`Report::accepted`], [`Report::rejected`] and [`Report::completed`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReservationCounts {
    pub offers: u64,
    pub replans: u64,
    pub fixes: u64,
    pub starts: u64,
    /// Ends before the end of the reservation (a reported early finish).
    pub early: u64,
    /// Jobs that overran their estimate and were cut at the end of their reservation.
    pub cut: u64,
}

impl LogModel for Reservation {
    const NAME: &'static str = "reservation";
    const LABEL: &'static str = "reservation";
    type Event = Event;
    type Decision = Decision;

    fn event(body: &Body) -> Option<Event> {
        if let Body::ReservationEvent(event) = body { Some(*event) } else { None }
    }

    fn decision(body: &Body) -> Option<Decision> {
        if let Body::ReservationDecision(decision) = body { Some(*decision) } else { None }
    }

    fn wrap_decision(decision: Decision) -> Body {
        Body::ReservationDecision(decision)
    }

    fn time(event: &Event) -> Option<Tick> {
        event.time()
    }
}

impl Verified for Reservation {
    type Header = ReservationHeader;
    type Engine = ReservationEngine;
    type Audit = ReservationAudit;
    type Counts = ReservationCounts;
    type Violation = ReservationViolation;
    const PROMISE: &'static str = "reservation promise";
    /// The kernel's work outweighs the reading and the audit.
    const SPLIT: bool = true;

    fn header(header: &Header) -> Option<&ReservationHeader> {
        header.reservation()
    }

    fn engine(header: &ReservationHeader) -> Result<ReservationEngine, VerifyError> {
        Ok(ReservationEngine::from_header(header)?)
    }

    fn step(engine: &mut ReservationEngine, event: Event, out: &mut Vec<Decision>) {
        engine.step(event, out);
    }

    fn audit(header: &ReservationHeader) -> ReservationAudit {
        ReservationAudit::new(header.config.nodes)
    }

    fn check(
        audit: &mut ReservationAudit,
        event: &Event,
        decisions: &[Decision],
    ) -> Result<(), ReservationViolation> {
        audit.step(event, decisions)
    }

    fn count(tally: &mut Tally, counts: &mut ReservationCounts, decision: &Decision) {
        match *decision {
            Decision::Accept { .. } => tally.accepted += 1,
            Decision::Reject { .. } => tally.rejected += 1,
            Decision::Offer { .. } => counts.offers += 1,
            Decision::Replan { .. } => counts.replans += 1,
            Decision::Fix { .. } => counts.fixes += 1,
            Decision::Start { .. } => counts.starts += 1,
            Decision::End { early, cut, .. } => {
                tally.completed += 1;
                counts.early += u64::from(early);
                counts.cut += u64::from(cut);
            }
        }
    }

    fn finish(
        audit: ReservationAudit,
        counts: ReservationCounts,
    ) -> Result<ReservationCounts, ReservationViolation> {
        audit.finish()?;
        Ok(counts)
    }
}

impl Counts for ReservationCounts {
    fn summary(&self, r: &Tally, log: &str) -> String {
        format!(
            "{log}: verified {} records ({} events, {} decisions): {} accepted, {} rejected, {} offers, \
             {} replans, {} fixes, {} started, {} ended ({} early, {} cut)\nevery decision re-made by the \
             reservation kernel; every executed reservation lay inside its window, and no instant had more \
             nodes in use than the pool\n",
            r.records,
            r.events,
            r.decisions,
            r.accepted,
            r.rejected,
            self.offers,
            self.replans,
            self.fixes,
            self.starts,
            r.completed,
            self.early,
            self.cut
        )
    }

    fn measures(&self, out: &mut Vec<(String, u128)>) {
        let own = [
            ("offers", self.offers),
            ("replans", self.replans),
            ("fixes", self.fixes),
            ("started", self.starts),
            ("ended early", self.early),
            ("cut", self.cut),
        ];
        out.extend(own.into_iter().map(|(name, value)| (name.to_owned(), u128::from(value))));
    }
}
