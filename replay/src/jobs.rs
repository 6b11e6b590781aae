//! Per-job results of a log of any model, in one schema: a row per request
//! ([`JobRow`]), a row per piece of work that ran ([`Segment`]), and Batsim's
//! `jobs.csv` ([`batsim`]). `replay export --format csv|segments|batsim` writes them
//! from a log, `host-sim run --jobs-out` from its run loop; both feed the same
//! records through the same [`JobTable`], so they write the same rows.
//!
//! A model supplies [`Tabled`] (in `jobs/NAME.rs`): what each of its records says of a
//! job, as [`Fact`]s. Everything else is written once here.
//!
//! Times are absolute: a window's records count from its own start, and the table adds
//! the window's offset, `window_start` (see [`JobTable`]). Rows are handed out when
//! final: a rejection at once, an accepted job when it finishes or is lost, so the
//! table holds only the accepted, unfinished jobs. Jobs still open when a window
//! ends (or the log does) are handed out then, in job order.
//!
//! The columns are documented in `docs/records.md`.

use std::io::{Read, Write};

use kernel::log::Body;
use kernel::{JobId, Tick};
use serde::Serialize;

use crate::contract::LogModel;
use crate::export::ExportError;
use crate::format::{Header, LogReader};

pub mod batsim;
mod table;

crate::for_each_model!(crate::model_modules!());

pub use table::{JobSink, JobTable};

/// A request as the table sees it: its time, size, work and window, in its window's
/// own ticks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    pub t: Tick,
    pub job: JobId,
    /// The model's class of request: a level's index, a tier, a reservation kind.
    pub class: Class,
    /// Processors (nodes) it holds while it runs.
    pub size: u32,
    /// Its processing time (a reservation's estimate, an SLA's `tD`).
    pub work: Tick,
    /// The earliest start it may have, where the model has one.
    pub ready: Option<Tick>,
    /// The time it must be done by, where the model has one.
    pub deadline: Option<Tick>,
}

/// The class column: a service level's index, or a name (a tier, a reservation
/// kind), or nothing (SLA requests have no class).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    None,
    Level(u8),
    Name(&'static str),
}

/// What one record says of one job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fact {
    /// A request arrives; its answer follows (at once, or at an SLA plan).
    Submit(Request),
    /// The request is accepted, to run at `place` where the model says where.
    Accept { job: JobId, place: Option<u32> },
    /// The request is refused for `reason` (the reject reason's snake_case name).
    Reject { job: JobId, reason: &'static str },
    /// An accepted job is to run at `place` (a move or a re-placement).
    Place { job: JobId, place: u32 },
    /// A piece of the job's work begins at `t`, at `place` where given.
    Run { job: JobId, t: Tick, place: Option<u32> },
    /// The job runs all its work in one piece from `t` and is done then (a plan that
    /// is the run).
    RunWhole { job: JobId, t: Tick },
    /// The running piece stops at `t` without the job being done: `why` is
    /// `preempted` or `lost`.
    Stop { job: JobId, t: Tick, why: &'static str },
    /// The job is done at `t`; `late` when past its deadline.
    Finish { job: JobId, t: Tick, late: bool },
    /// The accepted job is dropped at `t`: it will not finish.
    Lost { job: JobId, t: Tick },
    /// The next window begins.
    Window,
}

/// What a model supplies to be tabled.
pub trait Tabled: LogModel {
    /// The processors of each place a job can run at (a machine, a resource), by
    /// place: processor ids are numbered place after place. A model that only counts
    /// a pool (reservations, SLA) has one place, the pool, and no `place` in its facts.
    fn places(header: &Header) -> Vec<u32>;
    /// What one event says, in the order it says it.
    fn event_facts(header: &Header, event: &Self::Event, facts: &mut dyn FnMut(Fact));
    /// What one decision says; `now` is the time of the event that made it.
    fn decision_facts(now: Tick, decision: &Self::Decision, facts: &mut dyn FnMut(Fact));
}

/// One job's row: the same columns for every model (`docs/records.md`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct JobRow {
    pub window: u64,
    /// The window's offset: every time of the row is `window_start` plus the record's.
    pub window_start: Tick,
    pub job: JobId,
    pub class: String,
    pub submit: Tick,
    pub size: u32,
    pub work: Tick,
    pub ready: Option<Tick>,
    pub deadline: Option<Tick>,
    /// `accepted`, `rejected`, `late` (finished past its deadline) or `lost`.
    pub outcome: &'static str,
    /// The reject reason; empty for a job that was accepted.
    pub reason: &'static str,
    pub start: Option<Tick>,
    pub finish: Option<Tick>,
    /// Where it last ran or was placed (a machine, a resource); empty for a pool.
    pub place: Option<u32>,
    /// The pieces it ran in.
    pub pieces: u32,
    /// How often a piece stopped before the job was done (pieces less one, for a
    /// finished job; a service level's MNI counts these).
    pub interruptions: u32,
}

/// One piece of work: `[start, end)` on `place` (or `size` processors of a pool).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Segment {
    pub window: u64,
    pub job: JobId,
    pub piece: u32,
    pub start: Tick,
    pub end: Tick,
    pub size: u32,
    pub place: Option<u32>,
    /// `finished`, `preempted`, `lost`, or `open` when the log ends first.
    pub how: &'static str,
}

/// Feeds every record of `reader` through a [`JobTable`] into `sink`.
pub fn tabulate<R: Read>(mut reader: LogReader<R>, sink: &mut dyn JobSink) -> Result<u64, ExportError> {
    let header = reader.header().clone();
    let mut table = JobTable::new(&header);
    while let Some(record) = reader.next_record()? {
        table.record(&record.body, sink)?;
    }
    table.finish(sink)?;
    Ok(reader.records_read())
}

/// `replay export --format csv`: a row per request, in the order they are final.
pub fn export_csv<R: Read, W: Write>(reader: LogReader<R>, out: &mut W) -> Result<u64, ExportError> {
    let mut sink = RowsCsv::new(out)?;
    let read = tabulate(reader, &mut sink)?;
    sink.flush()?;
    Ok(read)
}

/// `replay export --format segments`: a row per piece of work.
pub fn segments_csv<R: Read, W: Write>(reader: LogReader<R>, out: &mut W) -> Result<u64, ExportError> {
    let mut sink = SegmentsCsv(headed(out, &SEGMENT_COLUMNS)?);
    let read = tabulate(reader, &mut sink)?;
    sink.0.flush()?;
    Ok(read)
}

/// Writes [`JobRow`]s as CSV under [`JOB_COLUMNS`].
pub struct RowsCsv<W: Write>(csv::Writer<W>);

impl<W: Write> std::fmt::Debug for RowsCsv<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RowsCsv")
    }
}

impl<W: Write> RowsCsv<W> {
    /// Writes the header line at once, so that a table without rows still has it.
    pub fn new(out: W) -> std::io::Result<Self> {
        Ok(Self(headed(out, &JOB_COLUMNS)?))
    }

    pub fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }

    pub fn into_inner(self) -> std::io::Result<W> {
        self.0.into_inner().map_err(|e| e.into_error())
    }
}

/// The names of [`JobRow`]'s columns, in order.
pub const JOB_COLUMNS: [&str; 16] = [
    "window",
    "window_start",
    "job",
    "class",
    "submit",
    "size",
    "work",
    "ready",
    "deadline",
    "outcome",
    "reason",
    "start",
    "finish",
    "place",
    "pieces",
    "interruptions",
];

impl<W: Write> JobSink for RowsCsv<W> {
    fn job(&mut self, row: &JobRow) -> Result<(), ExportError> {
        Ok(self.0.serialize(row).map_err(csv_error)?)
    }
}

/// The names of [`Segment`]'s columns, in order.
pub const SEGMENT_COLUMNS: [&str; 8] = ["window", "job", "piece", "start", "end", "size", "place", "how"];

struct SegmentsCsv<W: Write>(csv::Writer<W>);

/// A CSV writer whose header line, `columns`, is written at once, so that a table
/// without rows still has it (the crate writes a header with the first row only).
pub(crate) fn headed<W: Write>(out: W, columns: &[&str]) -> std::io::Result<csv::Writer<W>> {
    let mut csv = csv::WriterBuilder::new().has_headers(false).from_writer(out);
    csv.write_record(columns).map_err(csv_error)?;
    Ok(csv)
}

impl<W: Write> JobSink for SegmentsCsv<W> {
    fn segment(&mut self, segment: &Segment) -> Result<(), ExportError> {
        Ok(self.0.serialize(segment).map_err(csv_error)?)
    }
}

/// A CSV error as the output's error: the crate's errors here are all writes.
pub(crate) fn csv_error(error: csv::Error) -> std::io::Error {
    match error.into_kind() {
        csv::ErrorKind::Io(error) => error,
        other => std::io::Error::other(format!("{other:?}")),
    }
}

/// The facts of one record of the model `M`; an event sets `now` to its time.
pub(crate) fn facts_of<M: Tabled>(header: &Header, body: &Body, now: &mut Tick, facts: &mut dyn FnMut(Fact)) {
    if let Some(event) = M::event(body) {
        if let Some(t) = M::time(&event) {
            *now = t;
        }
        M::event_facts(header, &event, facts);
    } else if let Some(decision) = M::decision(body) {
        M::decision_facts(*now, &decision, facts);
    }
}

/// The processors of each place of the log's model.
pub(crate) fn places(header: &Header) -> Vec<u32> {
    crate::with_model!(&header.model, places_of(header))
}

fn places_of<M: Tabled>(header: &Header) -> Vec<u32> {
    M::places(header)
}
