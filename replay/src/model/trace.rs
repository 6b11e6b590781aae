//! [`TraceChecker`]: checks a stream of events and the decisions they caused, with no
//! model of admission at all, only of what the decisions promise.
//!
//! What it holds the stream to:
//! - every submit gets exactly one `Accept` or `Reject`, for its own job; other events
//!   get none;
//! - a `Start` only on an idle machine, for an accepted, unfinished job of that machine;
//!   every `Start` closed by a `Preempt` or `Complete` of the same job;
//! - per job, the ticks between its `Start`s and the `Preempt`/`Complete` that close
//!   them add up to exactly `p` at its `Complete`, and to less than `p` before;
//! - every `Complete` at or before the deadline its `Accept` promised, and, when the
//!   level table is known ([`TraceChecker::with_levels`]), that deadline is
//!   `r + ceil(sf * p)` by this module's own arithmetic;
//! - decision times inside the event's span, and never going back on a machine;
//! - after every event, a machine runs a job exactly when it has unfinished jobs;
//! - at a `Reset` and at the end, every accepted job has completed (callers drain the
//!   queues before either, with `Advance { t: Tick::MAX }`).
//!
//! Job identifiers must be unique within the stream; the case generator makes them so.

use std::collections::BTreeMap;
use std::fmt;

use kernel::{Decision, Event, JobId, Level, MachineId, Tick};

/// What was wrong with a trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Violation {
    /// A submit got no `Accept`/`Reject`, or more than one, or one for another job.
    Verdicts { expected: Option<JobId>, found: Vec<JobId> },
    /// An `Accept` for a job identifier that was already accepted.
    DuplicateJob(JobId),
    /// A decision names a machine that is not in use.
    UnknownMachine(MachineId),
    /// A decision's time is outside the span of the event that caused it, or before an
    /// earlier decision on the same machine.
    TimeOutOfOrder { t: Tick, earliest: Tick, latest: Tick },
    /// A `Start` for a job that is not accepted on that machine, or already complete.
    StartOfUnknownJob(JobId),
    /// A `Start` on a machine that is already running `running`.
    TwoJobsRunning { running: JobId },
    /// A `Preempt` or `Complete` for a job that is not the one running.
    NotRunning(JobId),
    /// Processing at a `Complete` differs from `p`, or reaches `p` at a `Preempt`.
    WorkMismatch { job: JobId, processed: u128, p: Tick },
    /// A job completed after its deadline.
    DeadlineMissed { job: JobId, completed: Tick, deadline: Tick },
    /// An `Accept` promised another deadline than the job's level gives.
    WrongDeadline { job: JobId, promised: Tick, expected: Option<Tick> },
    /// After an event, a machine is idle with unfinished jobs, or busy with none.
    NotWorkConserving { machine: MachineId, running: Option<JobId>, unfinished: usize },
    /// Accepted jobs were still unfinished at a `Reset` or at the end of the trace.
    Unfinished(Vec<JobId>),
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Verdicts { expected, found } => {
                write!(f, "verdicts for jobs {found:?}, expected exactly one for {expected:?}")
            }
            Self::DuplicateJob(job) => write!(f, "job {job} accepted twice"),
            Self::UnknownMachine(m) => write!(f, "machine {m} is not in use"),
            Self::TimeOutOfOrder { t, earliest, latest } => {
                write!(f, "decision at {t} outside [{earliest}, {latest}]")
            }
            Self::StartOfUnknownJob(job) => {
                write!(f, "start of job {job}, not an unfinished job of that machine")
            }
            Self::TwoJobsRunning { running } => write!(f, "start while job {running} is running"),
            Self::NotRunning(job) => write!(f, "job {job} stops but is not running"),
            Self::WorkMismatch { job, processed, p } => write!(f, "job {job} got {processed} ticks of {p}"),
            Self::DeadlineMissed { job, completed, deadline } => {
                write!(f, "job {job} completed at {completed} after its deadline {deadline}")
            }
            Self::NotWorkConserving { machine, running, unfinished } => {
                write!(f, "machine {machine} runs {running:?} with {unfinished} unfinished jobs")
            }
            Self::WrongDeadline { job, promised, expected } => {
                write!(f, "job {job} accepted with deadline {promised}, its level gives {expected:?}")
            }
            Self::Unfinished(jobs) => write!(f, "accepted jobs {jobs:?} never completed"),
        }
    }
}

/// A [`Violation`] and where it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceError {
    /// The index of the event (`None`: at the end of the trace).
    pub step: Option<usize>,
    pub decision: Option<Decision>,
    pub violation: Violation,
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.step {
            Some(step) => write!(f, "event {step}")?,
            None => write!(f, "end of trace")?,
        }
        if let Some(decision) = &self.decision {
            write!(f, ", {decision:?}")?;
        }
        write!(f, ": {}", self.violation)
    }
}

impl std::error::Error for TraceError {}

/// The submit an event carried.
#[derive(Clone, Copy, Debug)]
struct Submit {
    t: Tick,
    job: JobId,
    p: Tick,
    level: u8,
}

/// An accepted job as the trace has shown it so far.
#[derive(Clone, Copy, Debug)]
struct JobState {
    machine: MachineId,
    p: Tick,
    deadline: Tick,
    processed: u128,
    complete: bool,
}

/// What one machine is doing.
#[derive(Clone, Copy, Debug, Default)]
struct MachineState {
    /// The running job and since when.
    running: Option<(JobId, Tick)>,
    /// The time of this machine's last decision.
    last: Tick,
    /// Accepted jobs of this machine that have not completed.
    unfinished: usize,
}

/// Reads a trace one event at a time; see the module documentation for the checks.
#[derive(Clone, Debug)]
pub struct TraceChecker {
    machines: Vec<MachineState>,
    jobs: BTreeMap<JobId, JobState>,
    /// The level table, when deadlines are to be recomputed.
    levels: Option<Vec<Level>>,
    /// The time of the last event that was not refused: the kernel's clock.
    now: Tick,
    steps: usize,
}

/// Checks a whole trace: `steps` pairs each event with the decisions it caused.
pub fn check_trace(machines: u16, steps: &[(Event, Vec<Decision>)]) -> Result<(), TraceError> {
    let mut checker = TraceChecker::new(machines);
    for (event, decisions) in steps {
        checker.step(event, decisions)?;
    }
    checker.finish()
}

impl TraceChecker {
    pub fn new(machines: u16) -> Self {
        Self {
            machines: vec![MachineState::default(); usize::from(machines)],
            jobs: BTreeMap::new(),
            levels: None,
            now: 0,
            steps: 0,
        }
    }

    /// A checker that also recomputes every promised deadline from `levels`.
    pub fn with_levels(machines: u16, levels: Vec<Level>) -> Self {
        Self { levels: Some(levels), ..Self::new(machines) }
    }

    /// Checks the decisions one event caused.
    pub fn step(&mut self, event: &Event, decisions: &[Decision]) -> Result<(), TraceError> {
        let step = self.steps;
        self.steps += 1;
        let fail =
            |decision: Option<Decision>, violation| TraceError { step: Some(step), decision, violation };
        // Refused events (from the past) may not move time or run anything.
        let latest = match event.time() {
            Some(t) if t >= self.now => t,
            _ => self.now,
        };
        let submit = match *event {
            Event::Submit { t, job, p, level } => Some(Submit { t, job, p, level }),
            Event::Advance { .. } | Event::Reset => None,
        };
        let mut verdicts = Vec::new();
        for decision in decisions {
            self.decision(decision, submit, latest, &mut verdicts).map_err(|v| fail(Some(*decision), v))?;
        }
        let expected = submit.map(|s| s.job);
        if verdicts != expected.into_iter().collect::<Vec<_>>() {
            return Err(fail(None, Violation::Verdicts { expected, found: verdicts }));
        }
        self.now = latest;
        if *event == Event::Reset {
            self.reset().map_err(|v| fail(None, v))?;
        }
        self.work_conserving().map_err(|v| fail(None, v))
    }

    /// Checks that every accepted job has completed.
    pub fn finish(self) -> Result<(), TraceError> {
        let unfinished = self.unfinished();
        if unfinished.is_empty() {
            return Ok(());
        }
        Err(TraceError { step: None, decision: None, violation: Violation::Unfinished(unfinished) })
    }

    fn decision(
        &mut self,
        decision: &Decision,
        submit: Option<Submit>,
        latest: Tick,
        verdicts: &mut Vec<JobId>,
    ) -> Result<(), Violation> {
        match *decision {
            Decision::Accept { job, machine, deadline, .. } => {
                verdicts.push(job);
                self.machine(machine)?;
                // Only the submitted job can be accepted, and only once per trace.
                let Some(submit) = submit.filter(|s| s.job == job) else {
                    return Ok(());
                };
                self.check_deadline(&submit, deadline)?;
                let state = JobState { machine, p: submit.p, deadline, processed: 0, complete: false };
                if self.jobs.insert(job, state).is_some() {
                    return Err(Violation::DuplicateJob(job));
                }
                self.machine(machine)?.unfinished += 1;
                Ok(())
            }
            Decision::Reject { job, .. } => {
                verdicts.push(job);
                Ok(())
            }
            Decision::Start { t, job, machine } => self.start(t, job, machine, latest),
            Decision::Preempt { t, job, machine } => self.stop(t, job, machine, latest, false),
            Decision::Complete { t, job, machine } => self.stop(t, job, machine, latest, true),
        }
    }

    /// `r + ceil(sf * p)`, computed here in `u128` rather than by the kernel.
    fn check_deadline(&self, submit: &Submit, promised: Tick) -> Result<(), Violation> {
        let Some(levels) = &self.levels else { return Ok(()) };
        let expected = levels.get(usize::from(submit.level)).and_then(|level| {
            let slack = (u128::from(level.slack_milli) * u128::from(submit.p)).div_ceil(1000);
            Tick::try_from(u128::from(submit.t) + slack).ok()
        });
        if expected == Some(promised) {
            Ok(())
        } else {
            Err(Violation::WrongDeadline { job: submit.job, promised, expected })
        }
    }

    fn machine(&mut self, machine: MachineId) -> Result<&mut MachineState, Violation> {
        self.machines.get_mut(usize::from(machine)).ok_or(Violation::UnknownMachine(machine))
    }

    /// Checks `t` against the event's span and the machine's last decision, and moves
    /// the machine's last decision time to `t`.
    fn timed(&mut self, t: Tick, machine: MachineId, latest: Tick) -> Result<&mut MachineState, Violation> {
        let now = self.now;
        let state = self.machine(machine)?;
        let earliest = now.max(state.last);
        if t < earliest || t > latest {
            return Err(Violation::TimeOutOfOrder { t, earliest, latest });
        }
        state.last = t;
        Ok(state)
    }

    fn start(&mut self, t: Tick, job: JobId, machine: MachineId, latest: Tick) -> Result<(), Violation> {
        let state = self.timed(t, machine, latest)?;
        if let Some((running, _)) = state.running {
            return Err(Violation::TwoJobsRunning { running });
        }
        state.running = Some((job, t));
        match self.jobs.get(&job) {
            Some(j) if j.machine == machine && !j.complete => Ok(()),
            _ => Err(Violation::StartOfUnknownJob(job)),
        }
    }

    fn stop(
        &mut self,
        t: Tick,
        job: JobId,
        machine: MachineId,
        latest: Tick,
        complete: bool,
    ) -> Result<(), Violation> {
        let state = self.timed(t, machine, latest)?;
        let Some((running, since)) = state.running.filter(|&(running, _)| running == job) else {
            return Err(Violation::NotRunning(job));
        };
        state.running = None;
        let state = self.jobs.get_mut(&running).ok_or(Violation::NotRunning(job))?;
        state.processed += u128::from(t - since);
        let p = u128::from(state.p);
        if (complete && state.processed != p) || (!complete && state.processed >= p) {
            return Err(Violation::WorkMismatch { job, processed: state.processed, p: state.p });
        }
        if complete && t > state.deadline {
            return Err(Violation::DeadlineMissed { job, completed: t, deadline: state.deadline });
        }
        state.complete = complete;
        if complete {
            let machine = self.machine(machine)?;
            machine.unfinished = machine.unfinished.saturating_sub(1);
        }
        Ok(())
    }

    fn work_conserving(&self) -> Result<(), Violation> {
        for (machine, state) in (0..).zip(&self.machines) {
            let unfinished = state.unfinished;
            if state.running.is_some() != (unfinished > 0) {
                let running = state.running.map(|(job, _)| job);
                return Err(Violation::NotWorkConserving { machine, running, unfinished });
            }
        }
        Ok(())
    }

    fn unfinished(&self) -> Vec<JobId> {
        self.jobs.iter().filter(|(_, j)| !j.complete).map(|(&job, _)| job).collect()
    }

    /// A reset starts a new experiment at time zero; the old one must be drained.
    fn reset(&mut self) -> Result<(), Violation> {
        let unfinished = self.unfinished();
        if !unfinished.is_empty() {
            return Err(Violation::Unfinished(unfinished));
        }
        self.machines.iter_mut().for_each(|m| *m = MachineState::default());
        self.now = 0;
        Ok(())
    }
}
