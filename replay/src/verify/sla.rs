//! Verification of an SLA log: the SLA kernel rebuilt from the header re-makes every
//! decision, and [`SlaAudit`] holds them to their promises without it.

use std::io::Read;

use kernel::log::Body;
use kernel::sla::{Decision, Event};

use super::{Matcher, Report, VerifyError};
use crate::engine::sla::SlaEngine;
use crate::format::{LogReader, SlaHeader};
use crate::model::sla::SlaAudit;

/// Verifies an SLA log whose header holds `header`.
pub(super) fn verify<R: Read>(mut reader: LogReader<R>, header: &SlaHeader) -> Result<Report, VerifyError> {
    let mut engine = SlaEngine::from_header(header)?;
    let mut audit = SlaAudit::new(header);
    let mut report = Report::default();
    let mut matcher = Matcher::new(Body::SlaDecision);
    while let Some(record) = reader.next_record()? {
        report.records += 1;
        match record.body {
            Body::SlaEvent(event) => {
                matcher.close(record.seq, Some(record.body))?;
                check(&mut audit, matcher.last(), record.seq)?;
                report.events += 1;
                matcher.open(event, Some(event.time()), |e, out| {
                    engine.step(e, out);
                });
            }
            Body::SlaDecision(logged) => {
                report.decisions += 1;
                matcher.decision(record.seq, logged, record.body)?;
                match logged {
                    Decision::Accept { .. } => report.accepted += 1,
                    Decision::Reject { .. } => report.rejected += 1,
                }
            }
            _ => {
                return Err(VerifyError::WrongModel {
                    seq: record.seq,
                    found: "non-sla",
                    header: "the sla kernel",
                });
            }
        }
    }
    matcher.close(report.records, None)?;
    check(&mut audit, matcher.last(), report.records)?;
    report.sla = Some(audit.finish().counts);
    Ok(report)
}

fn check(audit: &mut SlaAudit, last: Option<(&Event, &[Decision])>, seq: u64) -> Result<(), VerifyError> {
    let Some((event, decisions)) = last else { return Ok(()) };
    audit.step(event, decisions).map_err(|error| VerifyError::Sla { seq, error })
}
