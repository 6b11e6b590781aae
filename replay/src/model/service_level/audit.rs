//! [`ServiceLevelAudit`]: checks a stream of events and the decisions they caused, with no
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
//!   level table is known ([`ServiceLevelAudit::with_levels`]), that deadline is
//!   `r + ceil(sf * p)` by this module's own arithmetic;
//! - decision times inside the event's span, and never going back on a machine;
//! - after every event, a machine runs a job exactly when it has unfinished jobs;
//! - at a `Reset` and at the end, every accepted job has completed (callers drain the
//!   queues before either, with `Advance { t: Tick::MAX }`).
//!
//! Job identifiers must be unique within the stream; the case generator makes them so.
//!
//! It is also `replay verify`'s auditor, so it is built to run at millions of
//! decisions a second over whole traces: it keeps only the jobs that are accepted and
//! not yet complete (plus one bit per job identifier ever accepted, for the
//! uniqueness check), counts the machines that are not work-conserving instead of
//! looking at every machine after every event, and allocates nothing per event.

use kernel::service_level::{Decision, Event, Level, MachineId};
use kernel::{JobId, Tick};

use self::ids::IdSet;
use crate::job_map::JobIdMap as JobMap;

mod ids;
mod violation;

pub use self::violation::{ServiceLevelViolation, Violation};

/// The submit an event carried.
#[derive(Clone, Copy, Debug)]
struct Submit {
    t: Tick,
    job: JobId,
    p: Tick,
    level: u8,
}

/// An accepted job that has not completed, as the trace has shown it so far.
#[derive(Clone, Copy, Debug)]
struct JobState {
    machine: MachineId,
    p: Tick,
    deadline: Tick,
    processed: u128,
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

impl MachineState {
    /// Runs a job exactly when it has unfinished jobs.
    const fn conserving(&self) -> bool {
        self.running.is_some() == (self.unfinished > 0)
    }
}

/// Reads a trace one event at a time; see the module documentation for the checks.
#[derive(Clone, Debug)]
pub struct ServiceLevelAudit {
    machines: Vec<MachineState>,
    /// How many of `machines` are not [`MachineState::conserving`] right now.
    not_conserving: usize,
    /// Accepted jobs that have not completed.
    jobs: JobMap<JobState>,
    /// Every job ever accepted, for [`Violation::DuplicateJob`].
    accepted: IdSet,
    /// The level table, when deadlines are to be recomputed.
    levels: Option<Vec<Level>>,
    /// The time of the last event that was not refused: the kernel's clock.
    now: Tick,
    steps: usize,
}

/// Checks a whole trace: `steps` pairs each event with the decisions it caused.
pub fn check_trace(machines: u16, steps: &[(Event, Vec<Decision>)]) -> Result<(), ServiceLevelViolation> {
    let mut checker = ServiceLevelAudit::new(machines);
    for (event, decisions) in steps {
        checker.step(event, decisions)?;
    }
    checker.finish()
}

impl ServiceLevelAudit {
    pub fn new(machines: u16) -> Self {
        Self {
            machines: vec![MachineState::default(); usize::from(machines)],
            not_conserving: 0,
            jobs: JobMap::default(),
            accepted: IdSet::default(),
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
    pub fn step(&mut self, event: &Event, decisions: &[Decision]) -> Result<(), ServiceLevelViolation> {
        let step = self.steps;
        self.steps += 1;
        let fail = |decision: Option<Decision>, violation| ServiceLevelViolation {
            step: Some(step),
            decision,
            violation,
        };
        // Refused events (from the past) may not move time or run anything.
        let latest = match event.time() {
            Some(t) if t >= self.now => t,
            _ => self.now,
        };
        let submit = match *event {
            Event::Submit { t, job, p, level } => Some(Submit { t, job, p, level }),
            Event::Advance { .. } | Event::Reset => None,
        };
        // The verdicts are counted, and only listed when they are wrong.
        let mut verdicts = 0usize;
        let mut verdicts_right = true;
        for decision in decisions {
            if let Decision::Accept { job, .. } | Decision::Reject { job, .. } = *decision {
                verdicts_right &= verdicts == 0 && submit.is_some_and(|s| s.job == job);
                verdicts += 1;
            }
            self.decision(decision, submit, latest).map_err(|v| fail(Some(*decision), v))?;
        }
        if !verdicts_right || (verdicts == 1) != submit.is_some() {
            let expected = submit.map(|s| s.job);
            return Err(fail(None, Violation::Verdicts { expected, found: verdicts_of(decisions) }));
        }
        self.now = latest;
        if *event == Event::Reset {
            self.reset().map_err(|v| fail(None, v))?;
        }
        self.work_conserving().map_err(|v| fail(None, v))
    }

    /// Checks that every accepted job has completed.
    pub fn finish(self) -> Result<(), ServiceLevelViolation> {
        let unfinished = self.unfinished();
        if unfinished.is_empty() {
            return Ok(());
        }
        Err(ServiceLevelViolation {
            step: None,
            decision: None,
            violation: Violation::Unfinished(unfinished),
        })
    }

    fn decision(
        &mut self,
        decision: &Decision,
        submit: Option<Submit>,
        latest: Tick,
    ) -> Result<(), Violation> {
        match *decision {
            Decision::Accept { job, machine, deadline, .. } => {
                self.machine(machine)?;
                // Only the submitted job can be accepted, and only once per trace.
                let Some(submit) = submit.filter(|s| s.job == job) else {
                    return Ok(());
                };
                self.check_deadline(&submit, deadline)?;
                if !self.accepted.insert(job) {
                    return Err(Violation::DuplicateJob(job));
                }
                self.jobs.insert(job, JobState { machine, p: submit.p, deadline, processed: 0 });
                self.update_machine(machine, |m| m.unfinished += 1)
            }
            Decision::Reject { .. } => Ok(()),
            Decision::Start { t, job, machine } => self.start(t, job, machine, latest),
            Decision::Preempt { t, job, machine } => self.stop(t, job, machine, latest, false),
            Decision::Complete { t, job, machine } => self.stop(t, job, machine, latest, true),
        }
    }

    /// `r + ceil(sf * p)`, computed here in `u128` rather than by the kernel.
    fn check_deadline(&self, submit: &Submit, promised: Tick) -> Result<(), Violation> {
        let Some(levels) = &self.levels else { return Ok(()) };
        let expected = levels.get(usize::from(submit.level)).and_then(|level| {
            // In u64 when the product fits (almost always); the u128 division is slow.
            let slack = match u64::from(level.slack_milli).checked_mul(submit.p) {
                Some(scaled) => u128::from(scaled.div_ceil(1000)),
                None => (u128::from(level.slack_milli) * u128::from(submit.p)).div_ceil(1000),
            };
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

    /// Changes a machine's state with `change`, keeping [`Self::not_conserving`] right.
    fn update_machine(
        &mut self,
        machine: MachineId,
        change: impl FnOnce(&mut MachineState),
    ) -> Result<(), Violation> {
        let state = self.machine(machine)?;
        let before = state.conserving();
        change(state);
        let after = state.conserving();
        // The count only ever holds machines that went from conserving to not.
        match (before, after) {
            (true, false) => self.not_conserving += 1,
            (false, true) => self.not_conserving -= 1,
            _ => {}
        }
        Ok(())
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
        if let Some((running, _)) = self.timed(t, machine, latest)?.running {
            return Err(Violation::TwoJobsRunning { running });
        }
        self.update_machine(machine, |m| m.running = Some((job, t)))?;
        match self.jobs.get(&job) {
            Some(j) if j.machine == machine => Ok(()),
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
        self.update_machine(machine, |m| m.running = None)?;
        let state = self.jobs.get_mut(&running).ok_or(Violation::NotRunning(job))?;
        state.processed += u128::from(t - since);
        let p = u128::from(state.p);
        if (complete && state.processed != p) || (!complete && state.processed >= p) {
            return Err(Violation::WorkMismatch { job, processed: state.processed, p: state.p });
        }
        if complete && t > state.deadline {
            return Err(Violation::DeadlineMissed { job, completed: t, deadline: state.deadline });
        }
        if complete {
            // A completed job can neither start again nor be accepted again (the
            // `accepted` set remembers it), so it need not be kept.
            self.jobs.remove(&running);
            self.update_machine(machine, |m| m.unfinished = m.unfinished.saturating_sub(1))?;
        }
        Ok(())
    }

    fn work_conserving(&self) -> Result<(), Violation> {
        if self.not_conserving == 0 {
            return Ok(());
        }
        for (machine, state) in (0..).zip(&self.machines) {
            if !state.conserving() {
                let (running, unfinished) = (state.running.map(|(job, _)| job), state.unfinished);
                return Err(Violation::NotWorkConserving { machine, running, unfinished });
            }
        }
        Ok(())
    }

    /// Accepted jobs that have not completed, in identifier order.
    fn unfinished(&self) -> Vec<JobId> {
        let mut jobs: Vec<JobId> = self.jobs.keys().copied().collect();
        jobs.sort_unstable();
        jobs
    }

    /// A reset starts a new experiment at time zero; the old one must be drained.
    fn reset(&mut self) -> Result<(), Violation> {
        if !self.jobs.is_empty() {
            return Err(Violation::Unfinished(self.unfinished()));
        }
        self.machines.iter_mut().for_each(|m| *m = MachineState::default());
        self.not_conserving = 0;
        self.now = 0;
        Ok(())
    }
}

/// The jobs of the `Accept`s and `Reject`s among `decisions`, in order.
fn verdicts_of(decisions: &[Decision]) -> Vec<JobId> {
    decisions
        .iter()
        .filter_map(|d| match *d {
            Decision::Accept { job, .. } | Decision::Reject { job, .. } => Some(job),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_job(
        checker: &mut ServiceLevelAudit,
        t: Tick,
        job: JobId,
        machine: MachineId,
    ) -> Result<(), ServiceLevelViolation> {
        let submit = Event::Submit { t, job, p: 2, level: 0 };
        let accept = Decision::Accept { job, machine, deadline: t + 4, preempted: None };
        checker.step(&submit, &[accept, Decision::Start { t, job, machine }])?;
        checker.step(&Event::Advance { t: t + 2 }, &[Decision::Complete { t: t + 2, job, machine }])
    }

    #[test]
    fn a_job_accepted_again_after_it_completed_is_a_duplicate() {
        let mut checker = ServiceLevelAudit::new(2);
        run_job(&mut checker, 0, 7, 0).unwrap();
        run_job(&mut checker, 10, 8, 1).unwrap();
        let error = run_job(&mut checker, 20, 7, 1).unwrap_err();
        assert_eq!(error.violation, Violation::DuplicateJob(7));
        // Identifiers far apart land on pages of their own.
        let mut checker = ServiceLevelAudit::new(1);
        for (t, job) in (0..).step_by(10).zip([0, u32::MAX, 4096, 4095]) {
            run_job(&mut checker, t, job, 0).unwrap();
        }
        assert!(checker.finish().is_ok());
    }

    #[test]
    fn the_lowest_idle_machine_with_work_is_reported() {
        let mut checker = ServiceLevelAudit::new(3);
        let submit = |job| Event::Submit { t: 0, job, p: 2, level: 0 };
        let accept = |job, machine| Decision::Accept { job, machine, deadline: 4, preempted: None };
        let start = |job, machine| Decision::Start { t: 0, job, machine };
        checker.step(&submit(1), &[accept(1, 2), start(1, 2)]).unwrap();
        // Machine 1 gets work but does not start it.
        let error = checker.step(&submit(2), &[accept(2, 1)]).unwrap_err();
        let expected = Violation::NotWorkConserving { machine: 1, running: None, unfinished: 1 };
        assert_eq!(error.violation, expected);
    }

    #[test]
    fn wrong_verdicts_are_listed() {
        let mut checker = ServiceLevelAudit::new(1);
        let submit = Event::Submit { t: 0, job: 1, p: 2, level: 0 };
        let reject = |job| Decision::Reject { job, reason: kernel::service_level::RejectReason::QueueFull };
        let error = checker.clone().step(&submit, &[reject(1), reject(2)]).unwrap_err();
        assert_eq!(error.violation, Violation::Verdicts { expected: Some(1), found: vec![1, 2] });
        let error = checker.clone().step(&submit, &[]).unwrap_err();
        assert_eq!(error.violation, Violation::Verdicts { expected: Some(1), found: vec![] });
        let error = checker.step(&Event::Advance { t: 1 }, &[reject(3)]).unwrap_err();
        assert_eq!(error.violation, Violation::Verdicts { expected: None, found: vec![3] });
    }
}
