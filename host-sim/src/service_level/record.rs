//! A run's outputs besides the metrics: the decision log (`--log`), the per-job
//! table (`--jobs-out`) and the device record stream (`--stream-out`), all streamed
//! from the run loop as it goes and all written through [`replay::staged`] (to
//! `PATH.tmp`, renamed once whole), so a failed run leaves none of them behind.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use indicatif::ProgressBar;
use kernel::log::Body;
use kernel::service_level::{Decision, Event};
use replay::format::{FormatError, LogWriter};
use replay::jobs::{JobTable, RowsCsv};
use replay::staged;

use crate::error::CliError;
use crate::one_pass::Caught;
use crate::path_error::PathError;
use crate::record_stream::{self, StreamOut};
use crate::service_level::sim::SimError;
use crate::service_level::sim::{self, Recorder, RunConfig, RunReport};
use crate::swf::SwfError;
use crate::workload::{HOST_VERSION, Job, Workload};

/// Writes each job's row (see [`replay::jobs`]) as soon as it is final.
#[derive(Debug)]
pub struct JobsCsv<W: Write> {
    table: JobTable,
    out: RowsCsv<W>,
    /// The write that failed, kept so that the error names this file, not the log.
    failed: Option<std::io::Error>,
}

impl<W: Write> JobsCsv<W> {
    /// Writes the header line and starts the table of a run with this log header.
    pub fn new(header: &replay::format::Header, out: W) -> std::io::Result<Self> {
        Ok(Self { table: JobTable::new(header), out: RowsCsv::new(out)?, failed: None })
    }

    /// The output, every row written; the rows still open (none, after a whole run)
    /// are written first.
    pub fn into_inner(mut self) -> std::io::Result<W> {
        self.table.finish(&mut self.out).map_err(export_io)?;
        self.out.into_inner()
    }

    /// The write error that stopped the run, if one did.
    pub fn take_error(&mut self) -> Option<std::io::Error> {
        self.failed.take()
    }
}

impl<W: Write> JobsCsv<W> {
    fn follow(&mut self, body: Body) -> Result<(), FormatError> {
        self.table.record(&body, &mut self.out).map_err(|e| {
            let e = export_io(e);
            let stop = std::io::Error::new(e.kind(), "the per-job CSV could not be written");
            self.failed = Some(e);
            FormatError::Io(stop)
        })
    }
}

/// A table's write error as the I/O error it is.
fn export_io(error: replay::export::ExportError) -> std::io::Error {
    match error {
        replay::export::ExportError::Output(e) => e,
        other => std::io::Error::other(other.to_string()),
    }
}

impl<W: Write> Recorder for JobsCsv<W> {
    fn event(&mut self, event: &Event) -> Result<(), FormatError> {
        self.follow(Body::Event(*event))
    }

    fn decision(&mut self, decision: &Decision) -> Result<(), FormatError> {
        self.follow(Body::Decision(*decision))
    }
}

/// The stream gets what the log gets, as the records the log writes.
impl<W: Write> Recorder for StreamOut<W> {
    fn event(&mut self, event: &Event) -> Result<(), FormatError> {
        self.record(Body::Event(*event))
    }

    fn decision(&mut self, decision: &Decision) -> Result<(), FormatError> {
        self.record(Body::Decision(*decision))
    }
}

/// Hands everything to two recorders, the first first.
struct Both<'a>(&'a mut dyn Recorder, &'a mut dyn Recorder);

impl Recorder for Both<'_> {
    fn event(&mut self, event: &Event) -> Result<(), FormatError> {
        self.0.event(event)?;
        self.1.event(event)
    }

    fn decision(&mut self, decision: &Decision) -> Result<(), FormatError> {
        self.0.decision(decision)?;
        self.1.decision(decision)
    }
}

/// The files a run writes besides its summary; each is optional.
#[derive(Clone, Copy, Debug, Default)]
pub struct Files<'a> {
    /// `--log`.
    pub log: Option<&'a Path>,
    /// `--jobs-out`.
    pub jobs_out: Option<&'a Path>,
    /// `--stream-out`.
    pub stream_out: Option<&'a Path>,
}

/// Runs `jobs` (release-ordered, unique numbers; `workload` is their provenance, its
/// own jobs unused) under `config`, writing the decision log, the per-job table and
/// the record stream where `files` names them. A job that fails to come (a trace's
/// line out of order) stops the run with that error, and no file is left behind.
pub fn run(
    config: &RunConfig,
    workload: &Workload,
    jobs: &mut dyn Iterator<Item = Result<Job, SwfError>>,
    files: Files<'_>,
    progress: &ProgressBar,
) -> Result<RunReport, CliError> {
    let mut caught = Caught { jobs, failed: None };
    let source = Source { workload, jobs: &mut caught, progress };
    let Some(path) = files.stream_out else {
        return run_tabled(config, source, files, None);
    };
    let setup = record_stream::setup(&config.log_header(workload), HOST_VERSION).ok_or_else(|| {
        CliError::Usage("--stream-out: more service levels than a stream's setup holds".into())
    })?;
    record_stream::write(path, &setup, |stream| run_tabled(config, source, files, Some(stream)))
}

/// [`run`] with the stream, if any, open: the per-job table opened around the log.
fn run_tabled(
    config: &RunConfig,
    source: Source<'_, '_>,
    files: Files<'_>,
    stream: Option<&mut dyn Recorder>,
) -> Result<RunReport, CliError> {
    let Some(path) = files.jobs_out else {
        return run_logged(config, source, files.log, stream);
    };
    staged::write(path, |file: File, _| {
        let out = BufWriter::new(file);
        let csv_error = |source| CliError::Io(PathError { path: path.display().to_string(), source });
        let mut table = JobsCsv::new(&config.log_header(source.workload), out).map_err(csv_error)?;
        let result = match stream {
            Some(stream) => run_logged(config, source, files.log, Some(&mut Both(&mut table, stream))),
            None => run_logged(config, source, files.log, Some(&mut table)),
        };
        if let Some(error) = table.take_error() {
            return Err(csv_error(error));
        }
        let report = result?;
        table.into_inner().and_then(|mut out| out.flush()).map_err(csv_error)?;
        Ok(report)
    })
}

/// What a run takes its jobs from.
struct Source<'a, 'j> {
    workload: &'a Workload,
    jobs: &'a mut Caught<&'j mut dyn Iterator<Item = Result<Job, SwfError>>>,
    progress: &'a ProgressBar,
}

impl Source<'_, '_> {
    /// Runs the jobs into `recorder`; the input's error first, if one stopped them.
    fn run(self, config: &RunConfig, recorder: Option<&mut dyn Recorder>) -> Result<RunReport, CliError> {
        let report = sim::run_stream(config, self.jobs, recorder, self.progress);
        if let Some(error) = self.jobs.failed.take() {
            return Err(error.into());
        }
        Ok(report?)
    }
}

fn run_logged(
    config: &RunConfig,
    source: Source<'_, '_>,
    log: Option<&Path>,
    jobs: Option<&mut dyn Recorder>,
) -> Result<RunReport, CliError> {
    let Some(path) = log else {
        return source.run(config, jobs);
    };
    staged::write(path, |file, at| {
        let header = config.log_header(source.workload);
        let mut writer = LogWriter::new(BufWriter::new(file), &header).map_err(SimError::from)?;
        let report = match jobs {
            Some(jobs) => source.run(config, Some(&mut Both(&mut writer, jobs))),
            None => source.run(config, Some(&mut writer)),
        };
        report
            .and_then(|report| Ok(writer.finish().map(|_| report).map_err(SimError::from)?))
            .map_err(|error| naming_log(error, at))
    })
}

/// A failure to write the log as an error of its file `at` (the staged file, or the
/// device written through), not of the run.
pub(crate) fn naming_log(error: CliError, at: &Path) -> CliError {
    match error {
        CliError::Sim(SimError::Log(error)) => crate::record_log::format_error(error, at).into(),
        error => error,
    }
}
