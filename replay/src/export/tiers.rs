//! Tiers records as JSON lines (one flat object each, as every model's) and readable lines,
//! and the header's policy, resources and kernel sizes.

use std::io::Write;

use kernel::Tick;
use kernel::tiers::{Decision as D, Event as E, Tier, Violation};

use super::{ExportError, Listed, json_reject, write_common_header};
use crate::contract::Tiers;
use crate::format::Header;

impl Listed for Tiers {
    /// `tiers_submit` (the request's fields, `tier` by name), `tiers_advance`,
    /// `tiers_finish`, `tiers_leave`, `tiers_return` and `tiers_reset`.
    fn json_event(out: &mut dyn Write, seq: u64, event: &E, _: &Header) -> Result<(), ExportError> {
        match *event {
            E::Submit(r) => writeln!(
                out,
                r#"{{"kind":"tiers_submit","seq":{seq},"t":{},"job":{},"tier":"{}","work":{},"ready":{},"deadline":{}}}"#,
                r.t,
                r.job,
                r.tier.name(),
                r.work,
                r.ready,
                r.deadline
            ),
            E::Advance { t } => writeln!(out, r#"{{"kind":"tiers_advance","seq":{seq},"t":{t}}}"#),
            E::Finish { t, job } => writeln!(out, r#"{{"kind":"tiers_finish","seq":{seq},"t":{t},"job":{job}}}"#),
            E::Leave { t, resource } => {
                writeln!(out, r#"{{"kind":"tiers_leave","seq":{seq},"t":{t},"resource":{resource}}}"#)
            }
            E::Return { t, resource } => {
                writeln!(out, r#"{{"kind":"tiers_return","seq":{seq},"t":{t},"resource":{resource}}}"#)
            }
            E::Reset => writeln!(out, r#"{{"kind":"tiers_reset","seq":{seq}}}"#),
        }?;
        Ok(())
    }

    /// `tiers_accept`, `tiers_reject` (the reason by its snake_case name), `tiers_move`,
    /// `tiers_start`, `tiers_end`, `tiers_lost`, `tiers_replace` and `tiers_violate`
    /// (`why` is `late` or `lost`); `t` is the decision's own time where it has one,
    /// else the time of the event that made it.
    fn json_decision(out: &mut dyn Write, seq: u64, now: Tick, decision: &D) -> Result<(), ExportError> {
        let placed = |kind: &str, job: u32, resource: u8, start: Tick| {
            format!(r#"{{"kind":"{kind}","seq":{seq},"t":{now},"job":{job},"resource":{resource},"start":{start}"#)
        };
        match *decision {
            D::Accept { job, resource, start } => writeln!(out, "{}}}", placed("tiers_accept", job, resource, start)),
            D::Reject { job, reason } => json_reject(out, "tiers_reject", seq, now, job, reason),
            D::Move { job, resource, start, for_job } => {
                writeln!(out, r#"{},"for_job":{for_job}}}"#, placed("tiers_move", job, resource, start))
            }
            D::Replace { job, resource, start } => {
                writeln!(out, "{}}}", placed("tiers_replace", job, resource, start))
            }
            D::Start { t, job } => writeln!(out, r#"{{"kind":"tiers_start","seq":{seq},"t":{t},"job":{job}}}"#),
            D::End { t, job, late } => {
                writeln!(out, r#"{{"kind":"tiers_end","seq":{seq},"t":{t},"job":{job},"late":{late}}}"#)
            }
            D::Lost { t, job, running } => {
                writeln!(out, r#"{{"kind":"tiers_lost","seq":{seq},"t":{t},"job":{job},"running":{running}}}"#)
            }
            D::Violate { t, job, why } => {
                let why = match why {
                    Violation::Late => "late",
                    Violation::Lost => "lost",
                };
                writeln!(out, r#"{{"kind":"tiers_violate","seq":{seq},"t":{t},"job":{job},"why":"{why}"}}"#)
            }
        }?;
        Ok(())
    }

    fn describe_event(event: &E) -> String {
        match *event {
            E::Submit(r) if r.tier == Tier::Bronze => {
                format!("t={} submit job {} bronze work {}", r.t, r.job, r.work)
            }
            E::Submit(r) => {
                format!(
                    "t={} submit job {} {} work {} window [{}, {}]",
                    r.t,
                    r.job,
                    r.tier.name(),
                    r.work,
                    r.ready,
                    r.deadline
                )
            }
            E::Advance { t } => format!("t={t} advance"),
            E::Finish { t, job } => format!("t={t} finish job {job}"),
            E::Leave { t, resource } => format!("t={t} r{resource} leaves"),
            E::Return { t, resource } => format!("t={t} r{resource} returns"),
            E::Reset => "reset".to_owned(),
        }
    }

    fn describe_decision(decision: &D) -> String {
        match *decision {
            D::Accept { job, resource, start } => format!("  accept job {job} on r{resource} at {start}"),
            D::Reject { job, reason } => format!("  reject job {job}: {reason}"),
            D::Move { job, resource, start, for_job } => {
                format!("  move job {job} to r{resource} at {start} (for job {for_job})")
            }
            D::Start { t, job } => format!("  t={t} start job {job}"),
            D::End { t, job, late } => format!("  t={t} end job {job}{}", if late { " (late)" } else { "" }),
            D::Lost { t, job, running } => {
                format!("  t={t} lose job {job} ({})", if running { "running" } else { "waiting" })
            }
            D::Replace { job, resource, start } => format!("  re-place job {job} on r{resource} at {start}"),
            D::Violate { t, job, why } => format!(
                "  t={t} violate job {job} ({})",
                match why {
                    Violation::Late => "late",
                    Violation::Lost => "lost",
                }
            ),
        }
    }

    fn write_header(header: &Header, out: &mut dyn Write) -> std::io::Result<()> {
        write_common_header(header, out)?;
        let Some(t) = header.tiers() else { return Ok(()) };
        let c = &t.config;
        writeln!(
            out,
            "tiers: policy {}, {}-tick slots, laxity threshold {}/1000, Bronze deadline {} ticks",
            c.policy.name(),
            c.slot_ticks,
            c.laxity_threshold_milli,
            c.bronze_deadline
        )?;
        for (index, r) in t.resources.iter().enumerate() {
            writeln!(
                out,
                "resource r{index}: {} confidence, {} nodes, speed {}/1000",
                r.group.name(),
                r.nodes,
                r.speed_milli
            )?;
        }
        writeln!(out, "tiers kernel: {} resources, {} slots, {} jobs", t.resource_capacity, t.slots, t.jobs)
    }
}
