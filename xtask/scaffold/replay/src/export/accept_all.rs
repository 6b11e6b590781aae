//! Accept-all records as JSON lines (`accept_all_submit`, `accept_all_accept`,
//! `accept_all_reject`) and readable lines.

use std::io::Write;

use kernel::Tick;
use kernel::accept_all::{Decision as D, Event as E};

use super::{ExportError, Listed, json_accept, json_reject, write_common_header};
use crate::contract::AcceptAll;
use crate::format::Header;

impl Listed for AcceptAll {
    fn json_event(out: &mut dyn Write, seq: u64, event: &E, _: &Header) -> Result<(), ExportError> {
        let E::Submit { t, job } = *event;
        writeln!(out, r#"{{"kind":"accept_all_submit","seq":{seq},"t":{t},"job":{job}}}"#)?;
        Ok(())
    }

    fn json_decision(out: &mut dyn Write, seq: u64, now: Tick, decision: &D) -> Result<(), ExportError> {
        match *decision {
            D::Accept { t, job } => json_accept(out, "accept_all_accept", seq, now, job, t),
            D::Reject { job, reason, .. } => json_reject(out, "accept_all_reject", seq, now, job, reason),
        }?;
        Ok(())
    }

    fn describe_event(event: &E) -> String {
        let E::Submit { t, job } = *event;
        format!("t={t} submit job {job}")
    }

    fn describe_decision(decision: &D) -> String {
        match *decision {
            D::Accept { job, .. } => format!("  accept job {job}"),
            D::Reject { job, reason, .. } => format!("  reject job {job}: {reason}"),
        }
    }

    fn write_header(header: &Header, out: &mut dyn Write) -> std::io::Result<()> {
        write_common_header(header, out)?;
        writeln!(out, "accept-all: every request accepted at once")
    }
}
