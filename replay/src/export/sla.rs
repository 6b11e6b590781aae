//! SLA records as JSON lines and readable lines, and the header's machine, slots,
//! steps, order and kernel sizes.

use std::io::Write;

use kernel::Tick;
use kernel::sla::{Decision as D, Event as E};

use super::{ExportError, Listed, json_accept, json_reject, write_common_header};
use crate::contract::Sla;
use crate::format::Header;

impl Listed for Sla {
    /// `sla_submit` (the request's fields), `sla_plan` and `sla_reset`.
    fn json_event(out: &mut dyn Write, seq: u64, event: &E, _: &Header) -> Result<(), ExportError> {
        match *event {
            E::Submit { t, request: r } => writeln!(
                out,
                r#"{{"kind":"sla_submit","seq":{seq},"t":{t},"job":{},"ts":{},"tf":{},"td":{},"ncpu":{}}}"#,
                r.job, r.ts, r.tf, r.td, r.ncpu
            ),
            E::Plan { t } => writeln!(out, r#"{{"kind":"sla_plan","seq":{seq},"t":{t}}}"#),
            E::Reset { t } => writeln!(out, r#"{{"kind":"sla_reset","seq":{seq},"t":{t}}}"#),
        }?;
        Ok(())
    }

    /// `sla_accept` and `sla_reject`, with the time of the event that decided them.
    fn json_decision(out: &mut dyn Write, seq: u64, t: Tick, decision: &D) -> Result<(), ExportError> {
        match *decision {
            D::Accept { job, start } => json_accept(out, "sla_accept", seq, t, job, start),
            D::Reject { job, reason } => json_reject(out, "sla_reject", seq, t, job, reason),
        }?;
        Ok(())
    }

    fn describe_event(event: &E) -> String {
        match *event {
            E::Submit { t, request: r } => {
                format!(
                    "t={t} submit job {}: {} nodes x {} ticks in [{}, {}]",
                    r.job, r.ncpu, r.td, r.ts, r.tf
                )
            }
            E::Plan { t } => format!("t={t} plan"),
            E::Reset { t } => format!("t={t} reset"),
        }
    }

    fn describe_decision(decision: &D) -> String {
        match *decision {
            D::Accept { job, start } => format!("  accept job {job} at {start}"),
            D::Reject { job, reason } => format!("  reject job {job}: {reason}"),
        }
    }

    fn write_header(header: &Header, out: &mut dyn Write) -> std::io::Result<()> {
        write_common_header(header, out)?;
        let Some(s) = header.sla() else { return Ok(()) };
        let c = &s.config;
        writeln!(
            out,
            "sla: {} nodes, {}-tick slots, starts every {} ticks, {} ticks an hour, order {}",
            c.nodes, c.slot_ticks, c.step_ticks, c.ticks_per_hour, c.order
        )?;
        writeln!(out, "sla kernel: {} slots, batches of {}", s.slots, s.batch)
    }
}
