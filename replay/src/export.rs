//! A log turned into JSON lines or a readable listing.
//!
//! Both stream: a record is written as soon as it is read, so a damaged log is
//! shown up to its last intact block before the error is returned.

use std::io::{Read, Write};

use kernel::log::Body;
use kernel::{Decision, Event, Tick};

use crate::format::{FormatError, Header, LogReader};

#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error(transparent)]
    Format(#[from] FormatError),
    #[error("writing the output: {0}")]
    Output(#[from] std::io::Error),
    #[error("writing the header as JSON: {0}")]
    Json(#[from] serde_json::Error),
}

/// One line per record, the header first:
/// `{"kind":"header",...}`, then `submit`, `advance`, `reset`, `accept`, `reject`,
/// `start`, `preempt` and `complete` objects. Accepts and rejects carry the time of
/// the submit they answer.
pub fn jsonl<R: Read, W: Write>(mut reader: LogReader<R>, out: &mut W) -> Result<u64, ExportError> {
    let mut header = serde_json::to_value(reader.header())?;
    if let Some(map) = header.as_object_mut() {
        map.insert("kind".into(), "header".into());
    }
    writeln!(out, "{header}")?;
    let levels = reader.header().levels.clone();
    let mut now: Tick = 0;
    while let Some(record) = reader.next_record()? {
        let seq = record.seq;
        match record.body {
            Body::Event(Event::Submit { t, job, p, level }) => {
                now = t;
                let deadline = levels.get(usize::from(level)).and_then(|l| l.deadline(t, p));
                let deadline = deadline.map_or_else(|| "null".to_owned(), |d| d.to_string());
                writeln!(
                    out,
                    r#"{{"kind":"submit","seq":{seq},"t":{t},"job":{job},"p":{p},"level":{level},"deadline":{deadline}}}"#
                )?;
            }
            Body::Event(Event::Advance { t }) => {
                now = t;
                writeln!(out, r#"{{"kind":"advance","seq":{seq},"t":{t}}}"#)?;
            }
            Body::Event(Event::Reset) => {
                now = 0;
                writeln!(out, r#"{{"kind":"reset","seq":{seq}}}"#)?;
            }
            Body::Decision(decision) => write_decision(out, seq, now, &decision)?,
        }
    }
    Ok(reader.records_read())
}

fn write_decision<W: Write>(out: &mut W, seq: u64, now: Tick, decision: &Decision) -> std::io::Result<()> {
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
    }
}

/// The header as `key: value` lines, then one line per record.
pub fn show<R: Read, W: Write>(mut reader: LogReader<R>, out: &mut W) -> Result<u64, ExportError> {
    write_header(reader.header(), out)?;
    while let Some(record) = reader.next_record()? {
        writeln!(out, "{:>8}  {}", record.seq, describe(&record.body))?;
    }
    Ok(reader.records_read())
}

/// The header of a log, readably.
pub fn write_header<W: Write>(header: &Header, out: &mut W) -> std::io::Result<()> {
    writeln!(out, "format version: {}", header.format_version)?;
    writeln!(out, "kernel version: {}", header.kernel_version)?;
    writeln!(
        out,
        "machines: {}, queue capacity: {}, policy: {:?}",
        header.machines, header.queue_capacity, header.policy
    )?;
    for (index, level) in header.levels.iter().enumerate() {
        let sf = level.slack_milli;
        writeln!(
            out,
            "level {index}: sf {}.{:03}, price {} per tick",
            sf / 1000,
            sf % 1000,
            level.price_per_tick
        )?;
    }
    writeln!(out, "input: {} (crc64 {}), seed {}", header.input_name, header.input_hash, header.seed)?;
    if let Some(window) = header.window_ticks {
        writeln!(out, "window: {window} ticks")?;
    }
    writeln!(out, "command: {}", header.command)
}

/// One record, readably, e.g. `t=40 start job 7 on m1`.
pub fn describe(body: &Body) -> String {
    match *body {
        Body::Event(Event::Submit { t, job, p, level }) => {
            format!("t={t} submit job {job} p={p} level {level}")
        }
        Body::Event(Event::Advance { t }) if t == Tick::MAX => "t=end advance (drain every queue)".to_owned(),
        Body::Event(Event::Advance { t }) => format!("t={t} advance"),
        Body::Event(Event::Reset) => "reset".to_owned(),
        Body::Decision(Decision::Accept { job, machine, deadline, preempted: Some(p) }) => {
            format!("  accept job {job} on m{machine}, deadline {deadline}, interrupts job {p}")
        }
        Body::Decision(Decision::Accept { job, machine, deadline, preempted: None }) => {
            format!("  accept job {job} on m{machine}, deadline {deadline}")
        }
        Body::Decision(Decision::Reject { job, reason }) => format!("  reject job {job}: {reason}"),
        Body::Decision(Decision::Start { t, job, machine }) => {
            format!("  t={t} start job {job} on m{machine}")
        }
        Body::Decision(Decision::Preempt { t, job, machine }) => {
            format!("  t={t} preempt job {job} on m{machine}")
        }
        Body::Decision(Decision::Complete { t, job, machine }) => {
            format!("  t={t} complete job {job} on m{machine}")
        }
    }
}
