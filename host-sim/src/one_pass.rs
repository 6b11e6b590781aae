//! A run over traces read in one pass ([`crate::swf::Scan::once`]) rather than two,
//! written once for every subcommand that streams a trace into its log (`run`,
//! `reserve`, `tiers`); each model says only what is its own ([`OnePass`]). The
//! trace is inflated and parsed once, while the run goes on. What the two passes
//! settle before the run is settled after it, with the same outcome:
//!
//! - The log is written to its staged file (`PATH.tmp`) under a stand-in header: the
//!   model's header for the traces with every count 0 and every input hash 0. Once
//!   the traces are read, the real header, as long (a hash is 16 hex digits either
//!   way), is written over it ([`replay::format::writer::head`]), and the file is
//!   renamed. The bytes are the two passes' bytes; a header whose length changed is
//!   an error rather than a log.
//! - An error of the traces (anywhere in them, also past `--limit`), then an input
//!   with no usable job, then what the model checks of the whole input
//!   ([`OnePass::settle`]), then the run's own error, in that order as the two
//!   passes give them, stops the run: the staged file is removed and nothing is
//!   printed but the error. (A job out of order is the two passes' to refuse: see
//!   below.)
//! - A run that took for granted what the traces then did not bear out is thrown
//!   away, staged file and all, and made again in two passes: the order of the jobs,
//!   which one pass hands out with a short look-ahead so that the run starts at once
//!   (a job earlier than one handed out: [`swf::Finished::in_order`]); `reserve`'s
//!   pool size, from the traces' first lines ([`Held::No`]); and the time every
//!   release is measured from, the first job's, which a job out of order that is
//!   earlier still would change (two passes measure them from it:
//!   [`swf::Finished::same_origin`]; such a job also breaks the order).
//!
//! It is taken only where that holds ([`run`] says when): a log that is a regular
//! file (a FIFO or a device cannot be written over) and a staged file that could be
//! created; anything else ([`run`] gives `None`) reads the traces twice as before.
//! On HPC2N with 64 machines and a log, `host-sim run` went from 0.27 s to 0.18 s of
//! CPU with one pass and the service-level kernel's lazy advance of idle machines.
//!
//! Two threads share the work, one for each of two cores: the run's (the model),
//! and the first trace's reading, which inflates the trace, parses it and, while
//! the run has jobs enough, encodes and writes the log ([`crate::swf::Helper`]);
//! once the traces are read it encodes the rest of the log. Four threads (inflating,
//! parsing, the run, the log) took about 7 % longer on two cores.

use std::fs::File;
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::Path;

use kernel::log::Body;
use kernel::service_level::{Decision, Event};
use replay::format::writer::head;
use replay::format::{FormatError, Header, LogWriter};
use replay::staged::{self, StageError};

use crate::input::{Scanned, TraceArgs, jobs_once};
use crate::record_log::Threaded;
use crate::service_level::sim::Recorder;
use crate::swf::{self, SwfError};
use crate::workload::{EmptyInput, Job};

/// The log a one-pass run writes its records to: the staged file, buffered, its
/// records encoded and written by the reading's thread ([`Threaded::apart`]), so
/// that the run's thread only runs the model.
pub type Log = Threaded<BufWriter<File>>;

/// The staged file's buffer: the log's blocks of 4 KiB go out a few dozen at a time.
const LOG_BUFFER_BYTES: usize = 1 << 18;

impl<W: Write + Send + 'static> Recorder for Threaded<W> {
    fn event(&mut self, event: &Event) -> Result<(), FormatError> {
        self.record(Body::Event(*event));
        Ok(())
    }

    fn decision(&mut self, decision: &Decision) -> Result<(), FormatError> {
        self.record(Body::Decision(*decision));
        Ok(())
    }
}

/// A failure to write the log, for [`OnePass::log_error`] to name as the model's two
/// passes would.
#[derive(Debug)]
pub enum LogError {
    /// The log writer's (its header, a record, the footer).
    Format(FormatError),
    /// The staged file's, once the records are written (flushing it, writing the
    /// header over the stand-in's).
    Io(io::Error),
}

impl LogError {
    /// This error as one of the staged file at `path`, as [`crate::record_log`]
    /// names a log writer's.
    pub fn staged(self, path: &Path) -> StageError {
        match self {
            Self::Format(error) => crate::record_log::format_error(error, path),
            Self::Io(source) => StageError { path: path.to_owned(), source },
        }
    }
}

/// Whether what a run took for granted before the traces were read held once they
/// were.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Held {
    Yes,
    /// It did not: the run is thrown away and made again in two passes.
    No,
}

/// A model's part of a one-pass run.
pub trait OnePass {
    /// What the run gives besides the traces' tallies.
    type Value;
    type Error: From<SwfError> + From<EmptyInput> + From<StageError>;

    /// The log's header for traces as `scanned` says they are: called first with a
    /// stand-in (every count and hash 0), then with what the reading found.
    fn header(&self, scanned: &Scanned) -> Header;

    /// Runs `jobs` (as [`Scanned::jobs`] gives them; they end early at an error of
    /// the traces, which is then reported here), recording into `log` (with the
    /// staged file's path, for errors) when there is one.
    fn run(
        &mut self,
        jobs: &mut dyn Iterator<Item = Job>,
        log: Option<(&mut Log, &Path)>,
    ) -> Result<Self::Value, Self::Error>;

    /// What two passes check of the whole input after its usable jobs were counted
    /// and before it runs; `stopped` when the jobs ended at one out of order. An
    /// error, or whether what the run took for granted held.
    fn settle(&mut self, scanned: &Scanned, stopped: bool) -> Result<Held, Self::Error>;

    /// `error` writing the log at `path` (the staged file), as the model names it.
    fn log_error(&self, error: LogError, path: &Path) -> Self::Error;
}

/// What a one-pass run of `M` gives: the traces as two passes find them, and the
/// run's value; or the error two passes give.
pub type Done<M> = Result<(Scanned, <M as OnePass>::Value), <M as OnePass>::Error>;

/// Why a one-pass run did not give its value.
enum Stop<E> {
    Error(E),
    /// Two passes are to run instead.
    Redo,
}

impl<E: From<StageError>> From<StageError> for Stop<E> {
    fn from(error: StageError) -> Self {
        Self::Error(error.into())
    }
}

/// Runs `model` over `source`'s traces read once, logging to `log` when given; `None` (nothing done, or
/// nothing left behind) where one pass does not apply (no trace, a log that cannot
/// be staged, a run whose premise failed), for the caller to read them twice.
pub fn run<M: OnePass>(mut model: M, source: &TraceArgs, log: Option<&Path>) -> Option<Done<M>> {
    if source.trace.is_empty() {
        return None;
    }
    let done = match log {
        None => read_and_run(&mut model, source, None),
        Some(path) if staged::stages(path) => {
            let mut started = false;
            let done = staged::write(path, |file, at| {
                started = true;
                read_and_run(&mut model, source, Some((file, at)))
            });
            // The staged file could not be made: two passes say so after the
            // traces' own errors, as ever.
            if !started {
                return None;
            }
            done
        }
        Some(_) => return None,
    };
    match done {
        Ok(done) => Some(Ok(done)),
        Err(Stop::Error(error)) => Some(Err(error)),
        Err(Stop::Redo) => None,
    }
}

/// Reads the traces once while running their jobs, logging to `log` (the staged
/// file and its path) when given.
fn read_and_run<M: OnePass>(
    model: &mut M,
    source: &TraceArgs,
    log: Option<(File, &Path)>,
) -> Result<(Scanned, M::Value), Stop<M::Error>> {
    let fail = |error| Stop::Error(M::Error::from(error));
    let Some(stand_in) = source.stand_in() else { return Err(Stop::Redo) };
    let stand_in = model.header(&stand_in);
    // The log is encoded by the thread that reads the first trace, between its
    // batches of jobs.
    let (mut log, helper) = match log {
        Some((file, at)) => match LogWriter::new(BufWriter::with_capacity(LOG_BUFFER_BYTES, file), &stand_in)
        {
            Ok(writer) => {
                let (log, work) = Threaded::apart(writer);
                (Some((log, at)), Some(Box::new(work) as Box<dyn swf::Helper>))
            }
            Err(error) => return Err(Stop::Error(model.log_error(LogError::Format(error), at))),
        },
        None => (None, None),
    };
    let mut reading = source.once(helper).map_err(fail)?;
    let limit = usize::try_from(source.limit.unwrap_or(u64::MAX)).unwrap_or(usize::MAX);
    let log_at = log.as_mut().map(|(writer, at)| (writer, *at));
    let (value, out_of_order) = if let [one] = reading.as_mut_slice() {
        let mut jobs = OneTrace { once: one, batch: Vec::new().into_iter(), left: limit, failed: None };
        (model.run(&mut jobs, log_at), jobs.failed)
    } else {
        let mut jobs = Caught { jobs: jobs_once(&mut reading, source.limit), failed: None };
        (model.run(&mut jobs, log_at), jobs.failed)
    };
    // Closed before the reading is waited for: its thread finishes the log first.
    if let Some((writer, _)) = &mut log {
        writer.close();
    }
    let finished = reading.into_iter().map(swf::Once::finish).collect::<Result<Vec<_>, _>>().map_err(fail)?;
    // A job out of the order one pass guessed: two passes sort the trace or refuse it.
    if !finished.iter().all(|f| f.in_order) {
        return Err(Stop::Redo);
    }
    let same_origin = finished.iter().all(|f| f.same_origin);
    let Some(scanned) = source.scanned(finished.into_iter().map(|f| f.scan).collect()) else {
        return Err(Stop::Redo);
    };
    scanned.workload.check_count(scanned.jobs, source.allow_empty).map_err(|e| Stop::Error(e.into()))?;
    if model.settle(&scanned, out_of_order.is_some()).map_err(Stop::Error)? == Held::No {
        return Err(Stop::Redo);
    }
    if let Some(error) = out_of_order {
        return Err(fail(error));
    }
    // The jobs stopped short of one out of order, earlier than those they gave, and
    // were measured from their first rather than from it.
    if !same_origin {
        return Err(Stop::Redo);
    }
    let value = value.map_err(Stop::Error)?;
    if let Some((writer, at)) = log {
        let error = |error| Stop::Error(model.log_error(error, at));
        let out = writer.finish().and_then(LogWriter::finish).map_err(|e| error(LogError::Format(e)))?;
        let file = out.into_inner().map_err(|e| error(LogError::Io(e.into_error())))?;
        write_head(file, &model.header(&scanned), &stand_in).map_err(|e| error(LogError::Io(e)))?;
    }
    Ok((scanned, value))
}

/// Jobs until the first error, which is kept for after the run.
#[derive(Debug)]
pub struct Caught<I> {
    pub jobs: I,
    pub failed: Option<SwfError>,
}

impl<I: Iterator<Item = Result<Job, SwfError>>> Iterator for Caught<I> {
    type Item = Job;

    fn next(&mut self) -> Option<Job> {
        if self.failed.is_some() {
            return None;
        }
        match self.jobs.next()? {
            Ok(job) => Some(job),
            Err(error) => {
                self.failed = Some(error);
                None
            }
        }
    }
}

/// The jobs of one trace as [`jobs_once`] gives them, until the first error (kept),
/// taken a batch at a time: the run's thread does little more per job than the run.
struct OneTrace<'a> {
    once: &'a mut swf::Once,
    batch: std::vec::IntoIter<Job>,
    /// Jobs still to take (`--limit`).
    left: usize,
    failed: Option<SwfError>,
}

impl Iterator for OneTrace<'_> {
    type Item = Job;

    fn next(&mut self) -> Option<Job> {
        if self.left == 0 {
            return None;
        }
        while self.batch.len() == 0 {
            if self.failed.is_some() {
                return None;
            }
            match self.once.next_batch()? {
                Ok(batch) => self.batch = batch,
                Err(error) => self.failed = Some(error),
            }
        }
        self.left -= 1;
        self.batch.next()
    }
}

/// Writes the head of `header` over that of `stand_in`, as long, at the start of
/// `file`.
fn write_head(mut file: File, header: &Header, stand_in: &Header) -> io::Result<()> {
    let (bytes, written) =
        (head(header).map_err(io::Error::other)?, head(stand_in).map_err(io::Error::other)?);
    if bytes.len() != written.len() {
        return Err(io::Error::other("the log header's length changed once the input hash was known"));
    }
    file.seek(SeekFrom::Start(0))?;
    file.write_all(&bytes)?;
    file.flush()
}
