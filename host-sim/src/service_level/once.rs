//! `host-sim run` over traces read in one pass rather than two: the service-level
//! model's part of [`crate::one_pass`] (its header, with `--windows` recorded; its
//! run loop; the errors of its log as its two passes name them). Taken, as the
//! shared part says, for a log that is a regular file or no log, and here only
//! without `--jobs-out` (which [`super::cli::run`] writes in two passes).

use std::path::Path;

use replay::format::Header;

use crate::error::CliError;
use crate::input::{Scanned, TraceArgs};
use crate::one_pass::{self, Held, Log, LogError, OnePass};
use crate::path_error::PathError;
use crate::progress;
use crate::service_level::sim::{self, Recorder, RunConfig, RunReport};
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
    let done = one_pass::run(ServiceLevel { run, config, end }, run.source, run.log)?;
    Some(done.map(|(scanned, report)| (windowed(run, config, scanned.workload), report)))
}

/// The service-level model's part of a one-pass run.
struct ServiceLevel<'a> {
    run: Run<'a>,
    config: &'a RunConfig,
    end: Option<u64>,
}

impl OnePass for ServiceLevel<'_> {
    type Value = RunReport;
    type Error = CliError;

    fn header(&self, scanned: &Scanned) -> Header {
        self.config.log_header(&windowed(self.run, self.config, scanned.workload.clone()))
    }

    fn run(
        &mut self,
        jobs: &mut dyn Iterator<Item = Job>,
        log: Option<(&mut Log, &Path)>,
    ) -> Result<RunReport, CliError> {
        let end = self.end;
        let mut jobs = jobs.take_while(|job| end.is_none_or(|end| job.release < end));
        let progress = progress::bar(0, "jobs");
        let at = log.as_ref().map(|(_, at)| at.to_path_buf());
        let recorder = log.map(|(writer, _)| writer as &mut dyn Recorder);
        let report = sim::run_stream(self.config, &mut jobs, recorder, &progress);
        progress.finish_and_clear();
        report.map_err(|error| match &at {
            Some(at) => super::record::naming_log(error.into(), at),
            None => error.into(),
        })
    }

    fn settle(&mut self, _: &Scanned, _: bool) -> Result<Held, CliError> {
        Ok(Held::Yes)
    }

    fn log_error(&self, error: LogError, path: &Path) -> CliError {
        match error {
            LogError::Format(error) => crate::record_log::format_error(error, path).into(),
            LogError::Io(source) => CliError::Io(PathError { path: path.display().to_string(), source }),
        }
    }
}

/// `workload` with `--windows` recorded, as the run records it.
fn windowed(run: Run<'_>, config: &RunConfig, mut workload: Workload) -> Workload {
    if let (Some(count), Some(length)) = (run.windows, config.window_ticks) {
        workload.keep_windows(length, count);
    }
    workload
}
