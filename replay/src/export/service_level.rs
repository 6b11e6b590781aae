//! Service-level records as JSON lines and readable lines, and the service level's
//! part of the header: machines, queue capacity, policy and levels.

use std::io::Write;

use kernel::Tick;
use kernel::service_level::{Decision, Event};

use super::{ExportError, Listed, write_common_header};
use crate::contract::ServiceLevel;
use crate::format::Header;

impl Listed for ServiceLevel {
    fn json_event(out: &mut dyn Write, seq: u64, event: &Event, header: &Header) -> Result<(), ExportError> {
        match *event {
            Event::Submit { t, job, p, level } => {
                let levels = header.service_level().map_or(&[][..], |part| part.levels.as_slice());
                let deadline = levels.get(usize::from(level)).and_then(|l| l.deadline(t, p));
                let deadline = deadline.map_or_else(|| "null".to_owned(), |d| d.to_string());
                writeln!(
                    out,
                    r#"{{"kind":"submit","seq":{seq},"t":{t},"job":{job},"p":{p},"level":{level},"deadline":{deadline}}}"#
                )?;
            }
            Event::Advance { t } => writeln!(out, r#"{{"kind":"advance","seq":{seq},"t":{t}}}"#)?,
            Event::Reset => writeln!(out, r#"{{"kind":"reset","seq":{seq}}}"#)?,
        }
        Ok(())
    }

    fn json_decision(
        out: &mut dyn Write,
        seq: u64,
        now: Tick,
        decision: &Decision,
    ) -> Result<(), ExportError> {
        match *decision {
            Decision::Accept { job, machine, deadline, preempted } => {
                let preempted = preempted.map_or_else(|| "null".to_owned(), |j| j.to_string());
                writeln!(
                    out,
                    r#"{{"kind":"accept","seq":{seq},"t":{now},"job":{job},"machine":{machine},"deadline":{deadline},"preempted":{preempted}}}"#
                )
            }
            Decision::Reject { job, reason } => {
                writeln!(out, r#"{{"kind":"reject","seq":{seq},"t":{now},"job":{job},"reason":"{reason}"}}"#)
            }
            Decision::Start { t, job, machine } => {
                writeln!(out, r#"{{"kind":"start","seq":{seq},"t":{t},"job":{job},"machine":{machine}}}"#)
            }
            Decision::Preempt { t, job, machine } => {
                writeln!(out, r#"{{"kind":"preempt","seq":{seq},"t":{t},"job":{job},"machine":{machine}}}"#)
            }
            Decision::Complete { t, job, machine } => {
                writeln!(out, r#"{{"kind":"complete","seq":{seq},"t":{t},"job":{job},"machine":{machine}}}"#)
            }
        }?;
        Ok(())
    }

    fn describe_event(event: &Event) -> String {
        match *event {
            Event::Submit { t, job, p, level } => {
                format!("t={t} submit job {job} p={p} level {level}")
            }
            Event::Advance { t } if t == Tick::MAX => "t=end advance (drain every queue)".to_owned(),
            Event::Advance { t } => format!("t={t} advance"),
            Event::Reset => "reset".to_owned(),
        }
    }

    fn describe_decision(decision: &Decision) -> String {
        match *decision {
            Decision::Accept { job, machine, deadline, preempted: Some(p) } => {
                format!("  accept job {job} on m{machine}, deadline {deadline}, interrupts job {p}")
            }
            Decision::Accept { job, machine, deadline, preempted: None } => {
                format!("  accept job {job} on m{machine}, deadline {deadline}")
            }
            Decision::Reject { job, reason } => format!("  reject job {job}: {reason}"),
            Decision::Start { t, job, machine } => {
                format!("  t={t} start job {job} on m{machine}")
            }
            Decision::Preempt { t, job, machine } => {
                format!("  t={t} preempt job {job} on m{machine}")
            }
            Decision::Complete { t, job, machine } => {
                format!("  t={t} complete job {job} on m{machine}")
            }
        }
    }

    fn write_header(header: &Header, out: &mut dyn Write) -> std::io::Result<()> {
        let Some(part) = header.service_level() else { return Ok(()) };
        writeln!(
            out,
            "machines: {}, queue capacity: {}, policy: {:?}",
            part.machines, part.queue_capacity, part.policy
        )?;
        for (index, level) in part.levels.iter().enumerate() {
            let sf = level.slack_milli;
            writeln!(
                out,
                "level {index}: sf {}.{:03}, price {} per tick",
                sf / 1000,
                sf % 1000,
                level.price_per_tick
            )?;
        }
        write_common_header(header, out)
    }
}
