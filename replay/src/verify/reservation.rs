//! Verification of a reservation log: the reservation kernel rebuilt from the header
//! re-makes every decision, and [`ReservationAudit`] holds them to their promises.

use std::io::Read;

use kernel::log::Body;
use kernel::reservation::{Decision, Event};

use super::{Report, ReservationCounts, VerifyError, diverged};
use crate::engine::reservation::ReservationEngine;
use crate::format::{LogReader, ReservationHeader};
use crate::model::ReservationAudit;

/// Verifies a reservation log whose header holds `header`.
pub(super) fn verify<R: Read>(
    mut reader: LogReader<R>,
    header: &ReservationHeader,
) -> Result<Report, VerifyError> {
    let mut engine = ReservationEngine::from_header(header)?;
    let mut audit = ReservationAudit::new(header.config.nodes);
    let mut report = Report::default();
    let mut counts = ReservationCounts::default();
    let mut current: Option<Event> = None;
    let mut fresh: Vec<Decision> = Vec::with_capacity(64);
    let mut matched = 0;
    let mut now = None;
    while let Some(record) = reader.next_record()? {
        report.records += 1;
        match record.body {
            Body::ReservationEvent(event) => {
                if let Some(&left) = fresh.get(matched) {
                    let kernel = Some(Body::ReservationDecision(left));
                    return Err(diverged(record.seq, now, Some(record.body), kernel));
                }
                check(&mut audit, current.as_ref(), &fresh, record.seq)?;
                report.events += 1;
                now = event.time().or(now);
                fresh.clear();
                matched = 0;
                engine.step(event, &mut fresh);
                current = Some(event);
            }
            Body::ReservationDecision(logged) => {
                report.decisions += 1;
                match fresh.get(matched) {
                    Some(&decided) if decided == logged => matched += 1,
                    decided => {
                        let decided = decided.map(|&d| Body::ReservationDecision(d));
                        return Err(diverged(record.seq, now, Some(record.body), decided));
                    }
                }
                count(&mut report, &mut counts, &logged);
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
    if let Some(&left) = fresh.get(matched) {
        return Err(diverged(report.records, now, None, Some(Body::ReservationDecision(left))));
    }
    check(&mut audit, current.as_ref(), &fresh, report.records)?;
    audit.finish().map_err(|error| VerifyError::Reservation { seq: report.records, error })?;
    report.reservations = Some(counts);
    Ok(report)
}

fn check(
    audit: &mut ReservationAudit,
    event: Option<&Event>,
    decisions: &[Decision],
    seq: u64,
) -> Result<(), VerifyError> {
    let Some(event) = event else { return Ok(()) };
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
