//! A log turned into JSON lines or a readable listing, written once for every model:
//! what a model supplies is [`Listed`] (in `export/NAME.rs`), its records as JSON
//! objects and as readable lines, and its part of the header.
//!
//! Both stream: a record is written as soon as it is read, so a damaged log is
//! shown up to its last intact block before the error is returned.

use std::io::{Read, Write};

use kernel::Tick;
use kernel::log::Body;

use crate::contract::LogModel;
use crate::format::{FormatError, Header, LogReader, Model};

crate::for_each_model!(crate::model_modules!());

pub use reservation::kind_name;

#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error(transparent)]
    Format(#[from] FormatError),
    #[error("writing the output: {0}")]
    Output(#[from] std::io::Error),
    #[error("writing the header as JSON: {0}")]
    Json(#[from] serde_json::Error),
}

/// What a model supplies to be exported and listed.
pub trait Listed: LogModel {
    /// One event as a JSON object on one line; `header` gives what the record leaves
    /// out (a service level's deadline is recomputed from the level table).
    fn json_event(
        out: &mut dyn Write,
        seq: u64,
        event: &Self::Event,
        header: &Header,
    ) -> Result<(), ExportError>;
    /// One decision as a JSON object on one line; `now` is the time of the event
    /// that made it.
    fn json_decision(
        out: &mut dyn Write,
        seq: u64,
        now: Tick,
        decision: &Self::Decision,
    ) -> Result<(), ExportError>;
    /// One event, readably, e.g. `t=40 submit job 7 p=10 level 0`.
    fn describe_event(event: &Self::Event) -> String;
    /// One decision, readably and indented under its event, e.g. `  t=40 start job 7 on m1`.
    fn describe_decision(decision: &Self::Decision) -> String;
    /// The header listing from the model's configuration to its kernel's sizes,
    /// with [`write_common_header`] where this model's listing puts it.
    fn write_header(header: &Header, out: &mut dyn Write) -> std::io::Result<()>;
}

/// One line per record, the header first: `{"kind":"header",...}`, then one object
/// per record, named by its `kind`. Service-level records are `submit`, `advance`,
/// `reset`, `accept`, `reject`, `start`, `preempt` and `complete`; accepts and
/// rejects carry the time of the submit they answer. Reservation records (version 3)
/// are `request`, `resv_advance`, `finish`, `resv_reset`, `resv_accept`,
/// `resv_reject`, `offer`, `replan`, `fix`, `resv_start` and `end`; the answers to a
/// request carry its time. Tiers records are `tiers_submit`, `tiers_advance`,
/// `tiers_finish`, `tiers_leave`, `tiers_return`, `tiers_reset`, `tiers_accept`,
/// `tiers_reject`, `tiers_move`, `tiers_start`, `tiers_end`, `tiers_lost`,
/// `tiers_replace` and `tiers_violate`. SLA records (version 5) are `sla_submit`,
/// `sla_plan`, `sla_reset`, `sla_accept` and `sla_reject`; a decision carries the time
/// of the event that made it.
pub fn jsonl<R: Read, W: Write>(mut reader: LogReader<R>, out: &mut W) -> Result<u64, ExportError> {
    writeln!(out, "{}", header_json(reader.header())?)?;
    let header = reader.header().clone();
    let mut now: Tick = 0;
    while let Some(record) = reader.next_record()? {
        crate::with_body_model!(record.body, json_record(out, record.seq, &record.body, &header, &mut now))?;
    }
    Ok(reader.records_read())
}

/// The records of the log `reader` reads as JSON lines, as [`jsonl`] writes them, but
/// the events to `events` and the decisions to `decisions`, and without the header
/// (which [`header_json`] gives); the number of records read.
pub fn jsonl_split<R: Read>(
    mut reader: LogReader<R>,
    events: &mut dyn Write,
    decisions: &mut dyn Write,
) -> Result<u64, ExportError> {
    let header = reader.header().clone();
    let mut now: Tick = 0;
    while let Some(record) = reader.next_record()? {
        let (seq, body) = (record.seq, &record.body);
        crate::with_body_model!(record.body, json_split(events, decisions, seq, body, &header, &mut now))?;
    }
    Ok(reader.records_read())
}

/// One record of the model `M`, as [`json_record`] writes it, to `events` or to
/// `decisions` by what it is.
fn json_split<'a, M: Listed>(
    events: &'a mut dyn Write,
    decisions: &'a mut dyn Write,
    seq: u64,
    body: &Body,
    header: &Header,
    now: &mut Tick,
) -> Result<(), ExportError> {
    let out = if M::event(body).is_some() { events } else { decisions };
    json_record::<M>(out, seq, body, header, now)
}

/// The header as one JSON object of kind `header`: its fields and its model's part.
/// The service level's part is listed at the top, as the fields it was before format
/// version 6, beside `"model":"ServiceLevel"`, so that a service-level log exports as
/// it did; every other model's part is the value of `model`, named by the model.
pub fn header_json(header: &Header) -> Result<serde_json::Value, ExportError> {
    let mut json = serde_json::to_value(header)?;
    if let Some(map) = json.as_object_mut() {
        if let Model::ServiceLevel(part) = &header.model
            && let serde_json::Value::Object(fields) = serde_json::to_value(part)?
        {
            map.extend(fields);
            map.insert("model".into(), "ServiceLevel".into());
        }
        map.insert("kind".into(), "header".into());
    }
    Ok(json)
}

/// One record of the model `M` as JSON; an event sets `now` to its time (0 for one
/// without, a reset).
fn json_record<M: Listed>(
    out: &mut dyn Write,
    seq: u64,
    body: &Body,
    header: &Header,
    now: &mut Tick,
) -> Result<(), ExportError> {
    if let Some(event) = M::event(body) {
        *now = M::time(&event).unwrap_or(0);
        return M::json_event(out, seq, &event, header);
    }
    match M::decision(body) {
        Some(decision) => M::json_decision(out, seq, *now, &decision),
        None => Ok(()),
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

/// The header of a log, readably: what every log has, the model's own part in the
/// middle, and the host's settings last.
pub fn write_header<W: Write>(header: &Header, out: &mut W) -> std::io::Result<()> {
    writeln!(out, "format version: {}", header.format_version)?;
    writeln!(out, "kernel version: {}", header.kernel_version)?;
    crate::with_model!(&header.model, model_header(header, out))?;
    if !header.host_version.is_empty() {
        writeln!(out, "written by: {}", header.host_version)?;
    }
    for setting in &header.settings {
        writeln!(out, "setting: {} = {}", setting.key, setting.value)?;
    }
    Ok(())
}

fn model_header<M: Listed>(header: &Header, out: &mut dyn Write) -> std::io::Result<()> {
    M::write_header(header, out)
}

/// The lines every header has between the model's configuration and its kernel's
/// sizes: the inputs, the seed and the window.
pub fn write_common_header(header: &Header, out: &mut dyn Write) -> std::io::Result<()> {
    for input in &header.inputs {
        writeln!(out, "input: {} (crc64 {})", input.name, input.hash)?;
    }
    writeln!(out, "seed: {}", header.seed)?;
    if let Some(window) = header.window_ticks {
        writeln!(out, "window: {window} ticks")?;
    }
    Ok(())
}

/// One record, readably, e.g. `t=40 start job 7 on m1`.
pub fn describe(body: &Body) -> String {
    crate::with_body_model!(body, describe_record(body))
}

fn describe_record<M: Listed>(body: &Body) -> String {
    if let Some(event) = M::event(body) {
        return M::describe_event(&event);
    }
    M::decision(body).map_or_else(String::new, |decision| M::describe_decision(&decision))
}

/// An acceptance as a JSON line: `{"kind":KIND,"seq":..,"t":..,"job":..,"start":..}`,
/// `t` the time of the event that made it.
fn json_accept(
    out: &mut dyn Write,
    kind: &str,
    seq: u64,
    t: Tick,
    job: u32,
    start: Tick,
) -> std::io::Result<()> {
    writeln!(out, r#"{{"kind":"{kind}","seq":{seq},"t":{t},"job":{job},"start":{start}}}"#)
}

/// A rejection as a JSON line: `{"kind":KIND,"seq":..,"t":..,"job":..,"reason":".."}`.
fn json_reject(
    out: &mut dyn Write,
    kind: &str,
    seq: u64,
    t: Tick,
    job: u32,
    reason: impl std::fmt::Display,
) -> std::io::Result<()> {
    writeln!(out, r#"{{"kind":"{kind}","seq":{seq},"t":{t},"job":{job},"reason":"{reason}"}}"#)
}
