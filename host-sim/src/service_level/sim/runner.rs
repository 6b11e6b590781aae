//! The run loop's state between events: the engine, the recorder, the open
//! window's tally, each level's tally over the run, and the jobs in play (submitted
//! and neither rejected nor completed), which are all a run holds of its jobs.

use kernel::Tick;
use kernel::service_level::{Decision, Event, Level, LevelId, Outcome, RejectReason};
use replay::engine::service_level::ServiceLevelEngine;

use super::{Recorder, Rejections, RunConfig, RunReport, SimError, WindowReport};
use crate::service_level::metrics::{LevelTally, MetricContext, Metrics, Tally, spread};
use crate::units::format_milli;
use crate::workload::{Job, JobIdMap};

#[derive(Debug, Default)]
struct Counts {
    deepest_queue: u64,
    rejections: Rejections,
    events: u64,
    decisions: u64,
}

pub(super) struct Runner<'a, 'l> {
    engine: ServiceLevelEngine,
    /// Reused for every event: the hot loop allocates nothing.
    decisions: Vec<Decision>,
    log: Option<&'l mut dyn Recorder>,
    /// Each job in play, with its level: submitted, not yet rejected or completed.
    live: JobIdMap<(Job, LevelId)>,
    levels: &'a [Level],
    window_start: Tick,
    window_index: u64,
    tally: Tally,
    level_tallies: Vec<LevelTally>,
    counts: Counts,
}

impl<'a, 'l> Runner<'a, 'l> {
    pub fn new(engine: ServiceLevelEngine, log: Option<&'l mut dyn Recorder>, levels: &'a [Level]) -> Self {
        Self {
            engine,
            decisions: Vec::with_capacity(64),
            log,
            live: JobIdMap::default(),
            levels,
            window_start: 0,
            window_index: 0,
            tally: Tally::default(),
            level_tallies: vec![LevelTally::default(); levels.len()],
            counts: Counts::default(),
        }
    }

    /// Opens window `index`, starting at `start`, from an empty tally.
    pub fn start_window(&mut self, index: u64, start: Tick) {
        self.window_start = start;
        self.window_index = index;
        self.tally = Tally::default();
    }

    /// Submits `job` at its time in the open window, under `level`.
    pub fn submit(&mut self, job: Job, level: LevelId) -> Result<(), SimError> {
        let t = job.release - self.window_start;
        let deadline = self.levels.get(usize::from(level)).and_then(|l| l.deadline(t, job.p));
        self.tally.submit(t, job.p, deadline);
        if let Some(tally) = self.level_tallies.get_mut(usize::from(level)) {
            tally.submitted += 1;
        }
        if self.live.insert(job.id, (job, level)).is_some() {
            return Err(SimError::DuplicateJob(job.id));
        }
        self.feed(Event::Submit { t, job: job.id, p: job.p, level })?;
        Ok(())
    }

    /// Drains the open window (every accepted job completes) and returns its metrics.
    pub fn finish_window(&mut self, context: &MetricContext) -> Result<Metrics, SimError> {
        if let Outcome::Refused(reason) = self.feed(Event::Advance { t: Tick::MAX })? {
            return Err(SimError::Refused { window: self.window_index, reason });
        }
        let tally = &self.tally;
        if tally.completed != tally.accepted {
            let (accepted, completed) = (tally.accepted, tally.completed);
            return Err(SimError::Unfinished { window: self.window_index, accepted, completed });
        }
        self.live.clear();
        Ok(self.tally.finish(context))
    }

    /// The run's report from its simulated windows (in order) and its job count.
    pub fn report(&self, config: &RunConfig, reports: Vec<WindowReport>, jobs: u64) -> RunReport {
        let spread = spread(reports.iter().map(|w| &w.metrics));
        let per_level = self
            .level_tallies
            .iter()
            .zip(&config.levels)
            .enumerate()
            .map(|(i, (t, l))| t.finish(i, format_milli(u64::from(l.slack_milli)), l.price_per_tick))
            .collect();
        let spanned = reports.last().map_or(0, |w| w.index + 1);
        RunReport {
            per_level,
            windows_simulated: reports.len() as u64,
            windows_empty: spanned - reports.len() as u64,
            windows: reports,
            mean: spread.mean,
            sd: spread.sd,
            deepest_queue: self.counts.deepest_queue,
            rejections: self.counts.rejections,
            events: self.counts.events,
            decisions: self.counts.decisions,
            jobs,
        }
    }

    /// Hands one event to the engine, then it and its decisions to the log and the
    /// metrics.
    pub fn feed(&mut self, event: Event) -> Result<Outcome, SimError> {
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
                let level = self.live.get(&job).map(|&(_, level)| level);
                if let Some(tally) = level.and_then(|l| self.level_tallies.get_mut(usize::from(l))) {
                    tally.accepted += 1;
                }
            }
            Decision::Reject { job, reason } => {
                self.live.remove(&job);
                let rejections = &mut self.counts.rejections;
                match reason {
                    RejectReason::NoFeasibleMachine => rejections.no_feasible_machine += 1,
                    RejectReason::QueueFull => rejections.queue_full += 1,
                    _ => rejections.invalid += 1,
                }
            }
            Decision::Complete { t, job, .. } => {
                let unknown = SimError::UnknownCompletion { window: self.window_index, job };
                let (entry, level) = self.live.remove(&job).ok_or(unknown)?;
                let level = usize::from(level);
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
