//! The SLA model's independent checks.
//!
//! - [`audit`]: [`SlaAudit`], which reads SLA events and decisions and checks, without
//!   the kernel, capacity, windows, first fit, the order and every reason; it keeps
//!   each job set's requests and accepted starts ([`SlaSummary`]), from which the host
//!   recomputes incomes ([`summary`] reads a whole log).
//! - [`reference`](mod@reference): [`SlaReference`], the plain sort-then-first-fit reference that
//!   the seeded tests and the `sla` fuzz target compare the kernel with.
//! - [`harness`]: [`harness::case_from_bytes`] and [`harness::check_case`], the one
//!   decoder and check of small cases that the fuzz target and the seeded tests share.
//! - [`plain`]: the rules they share, restated plainly (terms, keys, tried starts).

pub mod audit;
pub mod harness;
pub mod plain;
pub mod reference;

use std::io::Read;

pub use audit::{Placement, SetOutcome, SlaAudit, SlaCounts, SlaSummary, SlaViolation};
pub use reference::SlaReference;

use kernel::log::Body;

use crate::format::{FormatError, LogReader};

/// Why [`summary`] could not read a log.
#[derive(Debug, thiserror::Error)]
pub enum SummaryError {
    #[error(transparent)]
    Format(#[from] FormatError),
    #[error("the log's model is not sla")]
    NotSla,
    #[error("record {seq} is not an SLA record")]
    WrongRecord { seq: u64 },
    #[error("broken SLA promise before record {seq}: {error}")]
    Broken { seq: u64, error: SlaViolation },
}

/// Reads a whole SLA log and audits it without the kernel: the counts and every job
/// set's requests and accepted starts, for the host to recompute its incomes from the
/// records. (`replay verify` also re-makes every decision with the kernel.)
pub fn summary<R: Read>(mut reader: LogReader<R>) -> Result<SlaSummary, SummaryError> {
    let header = *reader.header().sla().ok_or(SummaryError::NotSla)?;
    let mut audit = SlaAudit::new(&header);
    let mut event: Option<(u64, kernel::sla::Event)> = None;
    let mut decisions = Vec::new();
    let mut flush = |event: &Option<(u64, kernel::sla::Event)>, decisions: &mut Vec<_>, seq| {
        if let Some((_, e)) = event {
            audit.step(e, decisions).map_err(|error| SummaryError::Broken { seq, error })?;
        }
        decisions.clear();
        Ok::<(), SummaryError>(())
    };
    while let Some(record) = reader.next_record()? {
        match record.body {
            Body::SlaEvent(e) => {
                flush(&event, &mut decisions, record.seq)?;
                event = Some((record.seq, e));
            }
            Body::SlaDecision(d) => decisions.push(d),
            _ => return Err(SummaryError::WrongRecord { seq: record.seq }),
        }
    }
    flush(&event, &mut decisions, reader.records_read())?;
    Ok(audit.finish())
}
