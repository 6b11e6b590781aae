//! A run's outputs besides the metrics: the decision log (`--log`) and the per-job
//! table (`--jobs-out`), both streamed from the run loop as it goes and both written
//! through [`replay::staged`] (to `PATH.tmp`, renamed once whole), so a failed run
//! leaves neither behind.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use indicatif::ProgressBar;
use kernel::service_level::{Decision, Event};
use replay::format::{FormatError, LogWriter};
use replay::jobs::{CSV_HEADER, JobTable};
use replay::staged;

use crate::error::CliError;
use crate::path_error::PathError;
use crate::service_level::sim::SimError;
use crate::service_level::sim::{self, Recorder, RunConfig, RunReport};
use crate::workload::Workload;

/// Writes each job's row (see [`replay::jobs`]) as soon as it is final.
#[derive(Debug)]
pub struct JobsCsv<W: Write> {
    table: JobTable,
    out: W,
    /// The write that failed, kept so that the error names this file, not the log.
    failed: Option<std::io::Error>,
}

impl<W: Write> JobsCsv<W> {
    /// Writes the header line and starts the table.
    pub fn new(config: &RunConfig, mut out: W) -> std::io::Result<Self> {
        writeln!(out, "{CSV_HEADER}")?;
        Ok(Self { table: JobTable::new(&config.levels), out, failed: None })
    }

    pub fn into_inner(self) -> W {
        self.out
    }

    /// The write error that stopped the run, if one did.
    pub fn take_error(&mut self) -> Option<std::io::Error> {
        self.failed.take()
    }
}

impl<W: Write> Recorder for JobsCsv<W> {
    fn event(&mut self, event: &Event) -> Result<(), FormatError> {
        self.table.event(event);
        Ok(())
    }

    fn decision(&mut self, decision: &Decision) -> Result<(), FormatError> {
        let Some(row) = self.table.decision(decision) else { return Ok(()) };
        row.write_csv(&mut self.out).map_err(|e| {
            let stop = std::io::Error::new(e.kind(), "the per-job CSV could not be written");
            self.failed = Some(e);
            FormatError::Io(stop)
        })
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

/// Runs `workload` under `config`, writing the decision log to `log` and the
/// per-job table to `jobs` when given.
pub fn run(
    config: &RunConfig,
    workload: &Workload,
    log: Option<&Path>,
    jobs: Option<&Path>,
    progress: &ProgressBar,
) -> Result<RunReport, CliError> {
    match jobs {
        None => run_logged(config, workload, log, None, progress),
        Some(path) => staged::write(path, |file: File, _| {
            let out = BufWriter::new(file);
            let csv_error = |source| CliError::Io(PathError { path: path.display().to_string(), source });
            let mut table = JobsCsv::new(config, out).map_err(csv_error)?;
            let result = run_logged(config, workload, log, Some(&mut table), progress);
            if let Some(error) = table.take_error() {
                return Err(csv_error(error));
            }
            let report = result?;
            table.into_inner().flush().map_err(csv_error)?;
            Ok(report)
        }),
    }
}

fn run_logged(
    config: &RunConfig,
    workload: &Workload,
    log: Option<&Path>,
    jobs: Option<&mut dyn Recorder>,
    progress: &ProgressBar,
) -> Result<RunReport, CliError> {
    let Some(path) = log else {
        return Ok(sim::run_with_progress(config, &workload.jobs, jobs, progress)?);
    };
    staged::write(path, |file, _| {
        let header = config.log_header(workload);
        let mut writer = LogWriter::new(BufWriter::new(file), &header).map_err(SimError::from)?;
        let report = match jobs {
            Some(jobs) => {
                sim::run_with_progress(config, &workload.jobs, Some(&mut Both(&mut writer, jobs)), progress)
            }
            None => sim::run_with_progress(config, &workload.jobs, Some(&mut writer), progress),
        }?;
        writer.finish().map_err(SimError::from)?;
        Ok(report)
    })
}
