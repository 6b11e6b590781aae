//! Verification of a tiers log: the tiers kernel rebuilt from the header re-makes
//! every decision, and [`TiersAudit`] holds them to their promises.

use std::io::Read;

use kernel::log::Body;
use kernel::tiers::{Decision, Event};

use super::{Matcher, Report, VerifyError};
use crate::engine::tiers::TiersEngine;
use crate::format::{LogReader, TiersHeader};
use crate::model::tiers::TiersAudit;

/// Verifies a tiers log whose header holds `header`.
pub(super) fn verify<R: Read>(mut reader: LogReader<R>, header: &TiersHeader) -> Result<Report, VerifyError> {
    let mut engine = TiersEngine::from_header(header)?;
    let mut audit = TiersAudit::new(header.config, &header.resources);
    let mut report = Report::default();
    let mut matcher = Matcher::new(Body::TiersDecision);
    while let Some(record) = reader.next_record()? {
        report.records += 1;
        match record.body {
            Body::TiersEvent(event) => {
                matcher.close(record.seq, Some(record.body))?;
                check(&mut audit, matcher.last(), record.seq)?;
                report.events += 1;
                matcher.open(event, event.time(), |e, out| {
                    engine.step(e, out);
                });
            }
            Body::TiersDecision(logged) => {
                report.decisions += 1;
                matcher.decision(record.seq, logged, record.body)?;
                match logged {
                    Decision::Accept { .. } => report.accepted += 1,
                    Decision::Reject { .. } => report.rejected += 1,
                    Decision::End { .. } => report.completed += 1,
                    _ => {}
                }
            }
            _ => {
                return Err(VerifyError::WrongModel {
                    seq: record.seq,
                    found: "non-tiers",
                    header: "the tiers kernel",
                });
            }
        }
    }
    matcher.close(report.records, None)?;
    check(&mut audit, matcher.last(), report.records)?;
    let counts = audit.finish().map_err(|error| VerifyError::Tiers { seq: report.records, error })?;
    report.tiers = Some(counts);
    Ok(report)
}

fn check(audit: &mut TiersAudit, last: Option<(&Event, &[Decision])>, seq: u64) -> Result<(), VerifyError> {
    let Some((event, decisions)) = last else { return Ok(()) };
    audit.step(event, decisions).map_err(|error| VerifyError::Tiers { seq, error })
}
