//! The run loop: jobs and levels in, events to the engine, decisions to the log and
//! to the metrics.
//!
//! For each window, in order: `Reset` (except before the first), one `Submit` per
//! job in release order with times measured from the window start, then
//! `Advance { t: u64::MAX }` so that every accepted job completes. Each event is
//! written to the log, followed by the decisions it caused, in the kernel's order.

use std::io::Write;

use indicatif::ProgressBar;
use replay::engine::service_level::{DEFAULT_QUEUE_CAPACITY, Engine};
use replay::format::{FormatError, Header, LogWriter};
use serde::Serialize;
use thiserror::Error;

use kernel::Tick;
use kernel::service_level::{Decision, Event, Level, LevelId, Outcome, Policy, RejectReason};

use crate::service_level::levels::{LevelDraw, greedy_bound};
use crate::service_level::metrics::{LevelMetrics, LevelTally, MetricContext, Metrics, Tally, spread};
use crate::units::format_milli;
use crate::window::{self, Window};
use crate::workload::{Job, JobIdMap, Workload};

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
        let mut header = Header::new(self.machines, self.queue_capacity, self.policy, self.levels.clone());
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
    if let Some(position) = jobs.windows(2).position(|p| p[1].release < p[0].release) {
        return Err(SimError::Unsorted { job: jobs[position + 1].id, position: position + 1 });
    }
    let mut position_of = JobIdMap::with_capacity_and_hasher(jobs.len(), Default::default());
    for (position, job) in jobs.iter().enumerate() {
        if position_of.insert(job.id, position).is_some() {
            return Err(SimError::DuplicateJob(job.id));
        }
    }
    let mut draw = LevelDraw::new(config.seed, config.levels.len());
    let job_levels: Vec<LevelId> = jobs.iter().map(|_| draw.next_level()).collect();
    let engine = build_engine(config)?;
    let context = MetricContext {
        machines: config.machines,
        u_max: config.levels.iter().map(|l| l.price_per_tick).max().unwrap_or(0),
        alpha_milli: config.alpha_milli,
        greedy_bound: greedy_bound(&config.levels),
    };
    let split = window::split(jobs, config.window_ticks);
    let mut runner = Runner {
        engine,
        decisions: Vec::with_capacity(64),
        log,
        jobs,
        job_levels,
        position_of,
        levels: &config.levels,
        window_start: 0,
        window_index: 0,
        tally: Tally::default(),
        level_tallies: vec![LevelTally::default(); config.levels.len()],
        counts: Counts::default(),
    };
    let mut reports = Vec::with_capacity(split.windows.len());
    for (k, window) in split.windows.iter().enumerate() {
        if k > 0 {
            runner.feed(Event::Reset)?;
        }
        let metrics = runner.window(window, &context, progress)?;
        reports.push(WindowReport { index: window.index, start_ticks: window.start, metrics });
    }
    let spread = spread(reports.iter().map(|w| &w.metrics));
    let per_level = runner
        .level_tallies
        .iter()
        .zip(&config.levels)
        .enumerate()
        .map(|(i, (t, l))| t.finish(i, format_milli(u64::from(l.slack_milli)), l.price_per_tick))
        .collect();
    Ok(RunReport {
        per_level,
        windows_simulated: reports.len() as u64,
        windows: reports,
        mean: spread.mean,
        sd: spread.sd,
        windows_empty: split.empty,
        deepest_queue: runner.counts.deepest_queue,
        rejections: runner.counts.rejections,
        events: runner.counts.events,
        decisions: runner.counts.decisions,
    })
}

fn build_engine(config: &RunConfig) -> Result<Engine, SimError> {
    Ok(Engine::new(config.machines, config.queue_capacity, config.policy, &config.levels)?)
}

#[derive(Debug, Default)]
struct Counts {
    deepest_queue: u64,
    rejections: Rejections,
    events: u64,
    decisions: u64,
}

struct Runner<'a, 'l> {
    engine: Engine,
    /// Reused for every event: the hot loop allocates nothing.
    decisions: Vec<Decision>,
    log: Option<&'l mut dyn Recorder>,
    jobs: &'a [Job],
    job_levels: Vec<LevelId>,
    position_of: JobIdMap<usize>,
    levels: &'a [Level],
    window_start: Tick,
    window_index: u64,
    tally: Tally,
    level_tallies: Vec<LevelTally>,
    counts: Counts,
}

impl Runner<'_, '_> {
    /// Simulates one window from an empty system and returns its metrics.
    fn window(
        &mut self,
        window: &Window,
        context: &MetricContext,
        progress: &ProgressBar,
    ) -> Result<Metrics, SimError> {
        self.window_start = window.start;
        self.window_index = window.index;
        self.tally = Tally::default();
        for position in window.jobs.clone() {
            let job = self.jobs[position];
            let level = self.job_levels[position];
            let t = job.release - window.start;
            let deadline = self.levels.get(usize::from(level)).and_then(|l| l.deadline(t, job.p));
            self.tally.submit(t, job.p, deadline);
            if let Some(tally) = self.level_tallies.get_mut(usize::from(level)) {
                tally.submitted += 1;
            }
            self.feed(Event::Submit { t, job: job.id, p: job.p, level })?;
            if (position + 1) % PROGRESS_STEP == 0 {
                progress.inc(PROGRESS_STEP as u64);
            }
        }
        if let Outcome::Refused(reason) = self.feed(Event::Advance { t: Tick::MAX })? {
            return Err(SimError::Refused { window: window.index, reason });
        }
        let tally = &self.tally;
        if tally.completed != tally.accepted {
            let (accepted, completed) = (tally.accepted, tally.completed);
            return Err(SimError::Unfinished { window: window.index, accepted, completed });
        }
        Ok(self.tally.finish(context))
    }

    /// Hands one event to the engine, then it and its decisions to the log and the
    /// metrics.
    fn feed(&mut self, event: Event) -> Result<Outcome, SimError> {
        let mut decisions = std::mem::take(&mut self.decisions);
        decisions.clear();
        let outcome = self.engine.step(event, &mut decisions);
        self.counts.events += 1;
        self.counts.decisions += decisions.len() as u64;
        if let Some(log) = self.log.as_mut() {
            log.event(&event)?;
            for decision in &decisions {
                log.decision(decision)?;
            }
        }
        let observed = decisions.iter().try_for_each(|d| self.observe(d));
        self.decisions = decisions;
        observed?;
        if let Outcome::Accepted { machine } = outcome {
            let depth = self.engine.queue_len(machine) as u64;
            self.counts.deepest_queue = self.counts.deepest_queue.max(depth);
        }
        Ok(outcome)
    }

    fn observe(&mut self, decision: &Decision) -> Result<(), SimError> {
        match *decision {
            Decision::Accept { job, preempted, .. } => {
                self.tally.accept(preempted.is_some());
                let level = self.position_of.get(&job).map(|&p| self.job_levels[p]);
                if let Some(tally) = level.and_then(|l| self.level_tallies.get_mut(usize::from(l))) {
                    tally.accepted += 1;
                }
            }
            Decision::Reject { reason, .. } => {
                let rejections = &mut self.counts.rejections;
                match reason {
                    RejectReason::NoFeasibleMachine => rejections.no_feasible_machine += 1,
                    RejectReason::QueueFull => rejections.queue_full += 1,
                    _ => rejections.invalid += 1,
                }
            }
            Decision::Complete { t, job, .. } => {
                let unknown = SimError::UnknownCompletion { window: self.window_index, job };
                let &position = self.position_of.get(&job).ok_or(unknown)?;
                let entry = self.jobs[position];
                let level = usize::from(self.job_levels[position]);
                let price = self.levels.get(level).map_or(0, |l| l.price_per_tick);
                self.tally.complete(entry.release - self.window_start, entry.p, price, t);
                if let Some(tally) = self.level_tallies.get_mut(level) {
                    tally.complete(entry.release - self.window_start, entry.p, price, t);
                }
            }
            Decision::Start { .. } | Decision::Preempt { .. } => {}
        }
        Ok(())
    }
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
