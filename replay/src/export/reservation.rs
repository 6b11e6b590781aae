//! Reservation records as JSON lines and readable lines, and the header's pool,
//! slots, criterion, fixing and kernel sizes.

use std::io::Write;

use kernel::Tick;
use kernel::reservation::{Decision as D, Event, RequestKind};

use super::{ExportError, Listed, json_accept, json_reject, write_common_header};
use crate::contract::Reservation;
use crate::format::Header;

impl Listed for Reservation {
    fn json_event(out: &mut dyn Write, seq: u64, event: &Event, _: &Header) -> Result<(), ExportError> {
        match *event {
            Event::Request(r) => {
                let kind = kind_name(r.kind);
                writeln!(
                    out,
                    r#"{{"kind":"request","seq":{seq},"t":{},"job":{},"nodes":{},"estimate":{},"ready":{},"deadline":{},"request":"{kind}","shuffle_key":{}}}"#,
                    r.t, r.job, r.nodes, r.estimate, r.ready, r.deadline, r.shuffle_key
                )
            }
            Event::Advance { t } => {
                writeln!(out, r#"{{"kind":"resv_advance","seq":{seq},"t":{t}}}"#)
            }
            Event::Finish { t, job } => {
                writeln!(out, r#"{{"kind":"finish","seq":{seq},"t":{t},"job":{job}}}"#)
            }
            Event::Reset => writeln!(out, r#"{{"kind":"resv_reset","seq":{seq}}}"#),
        }?;
        Ok(())
    }

    fn json_decision(out: &mut dyn Write, seq: u64, now: Tick, decision: &D) -> Result<(), ExportError> {
        match *decision {
            D::Accept { job, start } => json_accept(out, "resv_accept", seq, now, job, start),
            D::Reject { job, reason } => json_reject(out, "resv_reject", seq, now, job, reason),
            D::Offer { job, ready, deadline, start } => writeln!(
                out,
                r#"{{"kind":"offer","seq":{seq},"t":{now},"job":{job},"ready":{ready},"deadline":{deadline},"start":{start}}}"#
            ),
            D::Replan { job, start } => {
                writeln!(out, r#"{{"kind":"replan","seq":{seq},"t":{now},"job":{job},"start":{start}}}"#)
            }
            D::Fix { t, job } => writeln!(out, r#"{{"kind":"fix","seq":{seq},"t":{t},"job":{job}}}"#),
            D::Start { t, job } => {
                writeln!(out, r#"{{"kind":"resv_start","seq":{seq},"t":{t},"job":{job}}}"#)
            }
            D::End { t, job, early, cut } => {
                writeln!(
                    out,
                    r#"{{"kind":"end","seq":{seq},"t":{t},"job":{job},"early":{early},"cut":{cut}}}"#
                )
            }
        }?;
        Ok(())
    }

    fn describe_event(event: &Event) -> String {
        match *event {
            Event::Request(r) => format!(
                "t={} request job {}: {} nodes x {} ticks, {} window [{}, {}], key {}",
                r.t,
                r.job,
                r.nodes,
                r.estimate,
                kind_name(r.kind),
                r.ready,
                r.deadline,
                r.shuffle_key
            ),
            Event::Advance { t } if t == Tick::MAX => "t=end advance".to_owned(),
            Event::Advance { t } => format!("t={t} advance"),
            Event::Finish { t, job } => format!("t={t} finish job {job}"),
            Event::Reset => "reset".to_owned(),
        }
    }

    fn describe_decision(decision: &D) -> String {
        match *decision {
            D::Accept { job, start } => format!("  accept job {job}, start {start}"),
            D::Reject { job, reason } => format!("  reject job {job}: {reason}"),
            D::Offer { job, ready, deadline, start } => {
                format!("  offer job {job} the window [{ready}, {deadline}], start {start}")
            }
            D::Replan { job, start } => format!("  replan job {job} to start {start}"),
            D::Fix { t, job } => format!("  t={t} fix job {job}"),
            D::Start { t, job } => format!("  t={t} start job {job}"),
            D::End { t, job, early, cut } => {
                let how = match (early, cut) {
                    (false, false) => "",
                    (true, false) => " (early)",
                    (false, true) => " (cut)",
                    (true, true) => " (early, cut)",
                };
                format!("  t={t} end job {job}{how}")
            }
        }
    }

    fn write_header(header: &Header, out: &mut dyn Write) -> std::io::Result<()> {
        write_common_header(header, out)?;
        let Some(r) = header.reservation() else { return Ok(()) };
        let c = &r.config;
        writeln!(
            out,
            "reservations: {} nodes, {}-tick slots, criterion {}, fixing {}, {} offer trials",
            c.nodes,
            c.slot_ticks,
            c.criterion.name(),
            c.fixing.name(),
            c.offer_trials
        )?;
        writeln!(
            out,
            "reservation kernel: {} slots, {} waiting, {} running, {} offers",
            r.slots, r.waiting, r.running, r.offers
        )
    }
}

/// A request kind's name in exports and listings.
pub const fn kind_name(kind: RequestKind) -> &'static str {
    match kind {
        RequestKind::Strict => "strict",
        RequestKind::RelaxedStart => "relaxed",
        RequestKind::Flexible => "flexible",
    }
}
