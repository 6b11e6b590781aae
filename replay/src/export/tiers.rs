//! Tiers records as JSON lines (each record as serde gives it) and readable lines,
//! and the header's policy, resources and kernel sizes.

use std::io::Write;

use kernel::Tick;
use kernel::tiers::{Decision as D, Event as E, Tier, Violation};

use super::{ExportError, Listed, write_common_header};
use crate::contract::Tiers;
use crate::format::Header;

impl Listed for Tiers {
    /// `{"kind":"tiers_event","seq":..,"record":{..}}`.
    fn json_event(out: &mut dyn Write, seq: u64, event: &E, _: &Header) -> Result<(), ExportError> {
        let record = serde_json::to_string(event)?;
        writeln!(out, r#"{{"kind":"tiers_event","seq":{seq},"record":{record}}}"#)?;
        Ok(())
    }

    /// `{"kind":"tiers_decision","seq":..,"record":{..}}`.
    fn json_decision(out: &mut dyn Write, seq: u64, _: Tick, decision: &D) -> Result<(), ExportError> {
        let record = serde_json::to_string(decision)?;
        writeln!(out, r#"{{"kind":"tiers_decision","seq":{seq},"record":{record}}}"#)?;
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
