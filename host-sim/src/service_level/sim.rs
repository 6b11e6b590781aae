//! The run loop: jobs and levels in, events to the engine, decisions to the log and
//! to the metrics.
//!
//! For each window, in order: `Reset` (except before the first), one `Submit` per
//! job in release order with times measured from the window start, then
//! `Advance { t: u64::MAX }` so that every accepted job completes. Each event is
//! written to the log, followed by the decisions it caused, in the kernel's order.

use std::io::Write;

use indicatif::ProgressBar;
use replay::engine::service_level::{DEFAULT_QUEUE_CAPACITY, ServiceLevelEngine};
use replay::format::{FormatError, Header, LogWriter, Model, ServiceLevelHeader};
use serde::Serialize;
use thiserror::Error;

use kernel::Tick;
use kernel::service_level::{Decision, Event, Level, Policy};

use crate::service_level::levels::{LevelDraw, greedy_bound};
use crate::service_level::metrics::{LevelMetrics, MetricContext, Metrics};
use crate::units::format_milli;
use crate::window;
use crate::workload::{Job, JobIdMap, Workload};

mod runner;

use runner::Runner;

/// The run loop: building the engine, feeding it, writing the log.
#[derive(Debug, Error)]
pub enum SimError {
    #[error("cannot build the kernel: {0}")]
    Engine(#[from] replay::engine::EngineError),
    #[error("writing the decision log: {0}")]
    Log(#[from] replay::format::FormatError),
    #[error(
        "jobs are not in release order: job {job} (position {position}) is released before the job ahead of it"
    )]
    Unsorted { job: u32, position: usize },
    #[error("job number {0} appears twice in the workload")]
    DuplicateJob(u32),
    #[error("window {window}: the kernel refused to advance time ({reason})")]
    Refused { window: u64, reason: kernel::service_level::RejectReason },
    #[error("window {window}: {accepted} jobs accepted but {completed} completed after the drain")]
    Unfinished { window: u64, accepted: u64, completed: u64 },
    #[error("window {window}: job {job} completed but was never accepted")]
    UnknownCompletion { window: u64, job: u32 },
}

/// Jobs between two progress updates.
const PROGRESS_STEP: usize = 4096;

/// Everything that shapes one run besides the jobs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunConfig {
    pub machines: u16,
    /// One of [`replay::engine::service_level::QUEUE_CAPACITIES`].
    pub queue_capacity: u32,
    pub policy: Policy,
    pub levels: Vec<Level>,
    /// Seeds the per-job level draw (and, elsewhere, the synthetic workload).
    pub seed: u64,
    /// Window length; `None` runs the whole workload as one window.
    pub window_ticks: Option<u64>,
    /// The cost per tick `alpha` of the benefit metric `G`, in thousandths.
    pub alpha_milli: u64,
}

impl RunConfig {
    /// `machines` and `levels`, with the default queue capacity, policy, seed 1, no
    /// windows and `alpha = 1`.
    pub fn new(machines: u16, levels: Vec<Level>) -> Self {
        Self {
            machines,
            queue_capacity: DEFAULT_QUEUE_CAPACITY,
            policy: Policy::FirstFit,
            levels,
            seed: 1,
            window_ticks: None,
            alpha_milli: 1000,
        }
    }

    /// The log header for this configuration and workload: what rebuilds the kernel,
    /// what identifies the input, and every other option that changes a decision or a
    /// metric. Nothing else: no path, no command line.
    pub fn log_header(&self, workload: &Workload) -> Header {
        let part =
            ServiceLevelHeader::new(self.machines, self.queue_capacity, self.policy, self.levels.clone());
        let mut header = Header::new(Model::ServiceLevel(part));
        header.seed = self.seed;
        header.window_ticks = self.window_ticks;
        workload.stamp(&mut header);
        header.set("alpha", format_milli(self.alpha_milli));
        header
    }
}

/// One simulated window's metrics.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WindowReport {
    /// The window's position counted from the first, empty windows included.
    pub index: u64,
    /// Its start in the workload's ticks.
    pub start_ticks: Tick,
    #[serde(flatten)]
    pub metrics: Metrics,
}

/// Rejections by reason, over the whole run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Rejections {
    pub no_feasible_machine: u64,
    pub queue_full: u64,
    /// Zero processing time, unknown level, time going backwards or overflow: none
    /// of these can come from host-sim's own input, so any count here is a bug.
    pub invalid: u64,
}

/// What a run measured.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunReport {
    pub windows: Vec<WindowReport>,
    pub mean: Metrics,
    /// Population standard deviation across the simulated windows.
    pub sd: Metrics,
    pub windows_simulated: u64,
    /// Windows without jobs, between the first and the last: counted, not simulated.
    pub windows_empty: u64,
    /// The deepest queue seen right after an accept, over all machines and windows.
    pub deepest_queue: u64,
    pub rejections: Rejections,
    pub events: u64,
    pub decisions: u64,
    /// Each service level's figures over the whole run, in level order (see
    /// [`LevelMetrics`]).
    pub per_level: Vec<LevelMetrics>,
    /// The jobs submitted (not in the summary, which counts the input's).
    #[serde(skip)]
    pub jobs: u64,
}

/// Where events and decisions are recorded; the decision log writer is one.
pub trait Recorder {
    fn event(&mut self, event: &Event) -> Result<(), FormatError>;
    fn decision(&mut self, decision: &Decision) -> Result<(), FormatError>;
}

impl<W: Write> Recorder for LogWriter<W> {
    fn event(&mut self, event: &Event) -> Result<(), FormatError> {
        LogWriter::event(self, event)
    }

    fn decision(&mut self, decision: &Decision) -> Result<(), FormatError> {
        LogWriter::decision(self, decision)
    }
}

/// Runs `jobs` (in release order, unique ids) under `config`, recording to `log`.
pub fn run(config: &RunConfig, jobs: &[Job], log: Option<&mut dyn Recorder>) -> Result<RunReport, SimError> {
    run_with_progress(config, jobs, log, &ProgressBar::hidden())
}

/// [`run`], advancing `progress` by one per job submitted.
pub fn run_with_progress(
    config: &RunConfig,
    jobs: &[Job],
    log: Option<&mut dyn Recorder>,
    progress: &ProgressBar,
) -> Result<RunReport, SimError> {
    check_jobs(jobs)?;
    run_stream(config, &mut jobs.iter().copied(), log, progress)
}

/// Refuses `jobs` out of release order or with a number used twice.
pub fn check_jobs(jobs: &[Job]) -> Result<(), SimError> {
    if let Some(position) = jobs.windows(2).position(|p| p[1].release < p[0].release) {
        return Err(SimError::Unsorted { job: jobs[position + 1].id, position: position + 1 });
    }
    let mut seen = JobIdMap::with_capacity_and_hasher(jobs.len(), Default::default());
    for job in jobs {
        if seen.insert(job.id, ()).is_some() {
            return Err(SimError::DuplicateJob(job.id));
        }
    }
    Ok(())
}

/// [`run_with_progress`] over jobs as they come: each window is simulated as its
/// jobs arrive, and only the jobs in the machines' queues are held, so memory does
/// not grow with the number of jobs. The jobs must be in release order (a job
/// released before the one ahead of it is [`SimError::Unsorted`]), their numbers
/// unique (a number used twice while the first is queued is
/// [`SimError::DuplicateJob`]; a slice is checked whole by [`run_with_progress`]).
pub fn run_stream(
    config: &RunConfig,
    jobs: &mut dyn Iterator<Item = Job>,
    log: Option<&mut dyn Recorder>,
    progress: &ProgressBar,
) -> Result<RunReport, SimError> {
    let mut draw = LevelDraw::new(config.seed, config.levels.len());
    let context = MetricContext {
        machines: config.machines,
        u_max: config.levels.iter().map(|l| l.price_per_tick).max().unwrap_or(0),
        alpha_milli: config.alpha_milli,
        greedy_bound: greedy_bound(&config.levels),
    };
    let mut runner = Runner::new(build_engine(config)?, log, &config.levels);
    let mut reports: Vec<WindowReport> = Vec::new();
    // The open window (index and start), and the first job's release.
    let (mut open, mut origin): (Option<(u64, Tick)>, Option<Tick>) = (None, None);
    let (mut previous, mut position) = (0, 0usize);
    for job in jobs {
        if job.release < previous {
            return Err(SimError::Unsorted { job: job.id, position });
        }
        previous = job.release;
        let origin = *origin.get_or_insert(job.release);
        let (index, start) = window::of(origin, config.window_ticks, job.release);
        if let Some((open_index, open_start)) = open.filter(|&(i, _)| i != index) {
            let metrics = runner.finish_window(&context)?;
            reports.push(WindowReport { index: open_index, start_ticks: open_start, metrics });
            runner.feed(Event::Reset)?;
            open = None;
        }
        if open.is_none() {
            runner.start_window(index, start);
            open = Some((index, start));
        }
        runner.submit(job, draw.next_level())?;
        position += 1;
        if position % PROGRESS_STEP == 0 {
            progress.inc(PROGRESS_STEP as u64);
        }
    }
    if let Some((index, start)) = open {
        let metrics = runner.finish_window(&context)?;
        reports.push(WindowReport { index, start_ticks: start, metrics });
    }
    Ok(runner.report(config, reports, position as u64))
}

fn build_engine(config: &RunConfig) -> Result<ServiceLevelEngine, SimError> {
    Ok(ServiceLevelEngine::new(config.machines, config.queue_capacity, config.policy, &config.levels)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service_level::levels::single;

    /// The largest engine, built from an ordinary (small-stack) test thread in an
    /// unoptimised build: the construction thread must have room for it.
    #[test]
    fn the_largest_engine_builds_from_any_thread() {
        let config = RunConfig::new(replay::engine::service_level::MAX_MACHINES, single(2000));
        assert_eq!(config.queue_capacity, DEFAULT_QUEUE_CAPACITY);
        let jobs: Vec<Job> =
            (1..=100).map(|id| Job { id, release: u64::from(id), p: 50, procs: 1 }).collect();
        let report = run(&config, &jobs, None).unwrap();
        assert_eq!(report.mean.jobs_accepted, 100.0);
    }

    #[test]
    fn unsorted_and_duplicate_jobs_are_refused() {
        let config = RunConfig::new(1, single(2000));
        let unsorted = [Job { id: 1, release: 5, p: 1, procs: 1 }, Job { id: 2, release: 4, p: 1, procs: 1 }];
        let err = run(&config, &unsorted, None).unwrap_err();
        assert_eq!(
            err.to_string(),
            "jobs are not in release order: job 2 (position 1) is released before the job ahead of it"
        );
        let duplicate =
            [Job { id: 1, release: 5, p: 1, procs: 1 }, Job { id: 1, release: 6, p: 1, procs: 1 }];
        assert_eq!(
            run(&config, &duplicate, None).unwrap_err().to_string(),
            "job number 1 appears twice in the workload"
        );
    }
}
