//! `host-sim run` over traces read in one pass ([`crate::swf::Scan::once`]) rather
//! than two: the trace is inflated and parsed once, while the run goes on. What the
//! two passes settle before the run is settled after it, with the same outcome:
//!
//! - The log is written to its staged file (`PATH.tmp`) with a stand-in header
//!   whose input hashes are 0; once the traces are read, the real header, as long
//!   (hashes are 16 hex digits either way), is written over it
//!   ([`replay::format::writer::head`]), and the file is renamed. The bytes are the
//!   two passes' bytes.
//! - An error of the traces (anywhere in them, also past `--limit`), then an input
//!   with no usable job, then a job out of order, then the run's own error, in that
//!   order as the two passes give them, stops the run: the staged file is removed
//!   and nothing is printed but the error.
//!
//! It is taken only where that holds ([`run`] says when): a log that is a regular
//! file (a FIFO or a device cannot be written over), no `--jobs-out`, and a staged
//! file that could be created; anything else reads the traces twice as before.

use std::fs::File;
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::Path;

use replay::format::writer::head;
use replay::format::{Header, LogWriter};
use replay::staged;

use crate::error::CliError;
use crate::input::{Scanned, TraceArgs, jobs_once};
use crate::path_error::PathError;
use crate::progress;
use crate::service_level::record::run_until_error;
use crate::service_level::sim::{Recorder, RunConfig, RunReport, SimError};
use crate::workload::{Job, Workload};

/// What a run reads and writes.
#[derive(Clone, Copy, Debug)]
pub struct Run<'a> {
    pub source: &'a TraceArgs,
    /// `--windows`.
    pub windows: Option<u64>,
    /// `--log`.
    pub log: Option<&'a Path>,
}

/// `host-sim run` over `run`'s traces read once (without `--jobs-out`), when that
/// gives what two passes give: the workload as two passes find it and the report;
/// `None` (nothing done) when it does not apply, for the caller to read them twice.
/// `end` is where `--windows` ends the jobs, if given.
pub fn run(
    run: Run<'_>,
    config: &RunConfig,
    end: Option<u64>,
) -> Option<Result<(Workload, RunReport), CliError>> {
    if run.source.trace.is_empty() {
        return None;
    }
    match run.log {
        None => Some(read_and_run(run, config, end, None)),
        Some(path) if staged::stages(path) => {
            let mut started = false;
            let done = staged::write(path, |file, at| {
                started = true;
                read_and_run(run, config, end, Some((file, at)))
            });
            // The staged file could not be made: two passes say so after the
            // traces' own errors, as ever.
            started.then_some(done)
        }
        Some(_) => None,
    }
}

/// Reads the traces once while running their jobs, logging to `log` (its file, and
/// the path named in errors) when given; the workload as two passes find it, and
/// the run's report.
fn read_and_run(
    run: Run<'_>,
    config: &RunConfig,
    end: Option<u64>,
    log: Option<(File, &Path)>,
) -> Result<(Workload, RunReport), CliError> {
    let source = run.source;
    let Some((stand_in, mut reading)) = source.once()? else {
        return Err(CliError::Usage("no trace to read".to_owned()));
    };
    let in_windows = move |job: &Result<Job, _>| match (job, end) {
        (Ok(Job { release, .. }), Some(end)) => *release < end,
        _ => true,
    };
    let stand_in = windowed(run, config, stand_in.workload);
    let (file, at) = log.unzip();
    let io_error = |source| {
        CliError::Io(PathError {
            path: at.map(Path::display).map(|p| p.to_string()).unwrap_or_default(),
            source,
        })
    };
    let mut writer = match file {
        Some(file) => {
            let header = config.log_header(&stand_in);
            Some(LogWriter::new(BufWriter::new(file), &header).map_err(SimError::from)?)
        }
        None => None,
    };
    let progress = progress::bar(0, "jobs");
    let mut jobs = jobs_once(&mut reading, source.limit).take_while(in_windows);
    let recorder = writer.as_mut().map(|w| w as &mut dyn Recorder);
    let (report, out_of_order) = run_until_error(config, &mut jobs, recorder, &progress);
    progress.finish_and_clear();
    drop(jobs);
    let parts = reading.into_iter().map(crate::swf::Once::finish).collect::<Result<Vec<_>, _>>()?;
    let Some(Scanned { workload, jobs, .. }) = source.scanned(parts) else {
        return Err(CliError::Usage("no trace to read".to_owned()));
    };
    workload.check_count(jobs, source.allow_empty)?;
    if let Some(error) = out_of_order {
        return Err(error.into());
    }
    let report = report?;
    let workload = windowed(run, config, workload);
    if let Some(writer) = writer {
        let out = writer.finish().map_err(SimError::from)?;
        let file = out.into_inner().map_err(|e| io_error(e.into_error()))?;
        write_head(file, &config.log_header(&workload), &config.log_header(&stand_in)).map_err(io_error)?;
    }
    Ok((workload, report))
}

/// `workload` with `--windows` recorded, as the run records it.
fn windowed(run: Run<'_>, config: &RunConfig, mut workload: Workload) -> Workload {
    if let (Some(count), Some(length)) = (run.windows, config.window_ticks) {
        workload.keep_windows(length, count);
    }
    workload
}

/// Writes the head of `header` over that of `stand_in`, as long, at the start of
/// `file`.
fn write_head(mut file: File, header: &Header, stand_in: &Header) -> std::io::Result<()> {
    let (bytes, written) =
        (head(header).map_err(io::Error::other)?, head(stand_in).map_err(io::Error::other)?);
    if bytes.len() != written.len() {
        return Err(io::Error::other("the log header's length changed once the input hash was known"));
    }
    file.seek(SeekFrom::Start(0))?;
    file.write_all(&bytes)?;
    file.flush()
}
