//! Verification of a reservation log: the reservation kernel rebuilt from the header
//! re-makes every decision, and [`ReservationAudit`] holds them to their promises.

use std::io::Read;

use kernel::log::Body;
use kernel::reservation::{Decision, Event};

use super::{Matcher, Report, ReservationCounts, VerifyError};
use crate::engine::reservation::ReservationEngine;
use crate::format::{LogReader, ReservationHeader};
use crate::model::reservation::ReservationAudit;

/// Verifies a reservation log whose header holds `header`.
pub(super) fn verify<R: Read>(
    mut reader: LogReader<R>,
    header: &ReservationHeader,
) -> Result<Report, VerifyError> {
    let mut engine = ReservationEngine::from_header(header)?;
    let mut audit = ReservationAudit::new(header.config.nodes);
    let mut report = Report::default();
    let mut counts = ReservationCounts::default();
    let mut matcher = Matcher::new(Body::ReservationDecision);
    while let Some(record) = reader.next_record()? {
        report.records += 1;
        match record.body {
            Body::ReservationEvent(event) => {
                matcher.close(record.seq, Some(record.body))?;
                check(&mut audit, matcher.last(), record.seq)?;
                report.events += 1;
                matcher.open(event, event.time(), |e, out| {
                    engine.step(e, out);
                });
            }
            Body::ReservationDecision(logged) => {
                report.decisions += 1;
                matcher.decision(record.seq, logged, record.body)?;
                count(&mut report, &mut counts, &logged);
            }
            Body::TiersEvent(_) | Body::TiersDecision(_) => {
                return Err(VerifyError::WrongModel {
                    seq: record.seq,
                    found: "tiers",
                    header: "the reservation kernel",
                });
            }
            Body::SlaEvent(_) | Body::SlaDecision(_) => {
                return Err(VerifyError::WrongModel {
                    seq: record.seq,
                    found: "sla",
                    header: "the reservation kernel",
                });
            }
            Body::Event(_) | Body::Decision(_) => {
                return Err(VerifyError::WrongModel {
                    seq: record.seq,
                    found: "service-level",
                    header: "the reservation kernel",
                });
            }
        }
    }
    matcher.close(report.records, None)?;
    check(&mut audit, matcher.last(), report.records)?;
    audit.finish().map_err(|error| VerifyError::Reservation { seq: report.records, error })?;
    report.reservations = Some(counts);
    Ok(report)
}

fn check(
    audit: &mut ReservationAudit,
    last: Option<(&Event, &[Decision])>,
    seq: u64,
) -> Result<(), VerifyError> {
    let Some((event, decisions)) = last else { return Ok(()) };
    audit.step(event, decisions).map_err(|error| VerifyError::Reservation { seq, error })
}

fn count(report: &mut Report, counts: &mut ReservationCounts, decision: &Decision) {
    match *decision {
        Decision::Accept { .. } => report.accepted += 1,
        Decision::Reject { .. } => report.rejected += 1,
        Decision::Offer { .. } => counts.offers += 1,
        Decision::Replan { .. } => counts.replans += 1,
        Decision::Fix { .. } => counts.fixes += 1,
        Decision::Start { .. } => counts.starts += 1,
        Decision::End { early, cut, .. } => {
            report.completed += 1;
            counts.early += u64::from(early);
            counts.cut += u64::from(cut);
        }
    }
}
