//! What the audit finds wrong: [`Violation`], and [`ServiceLevelViolation`], which says
//! at which event and decision it was found.

use std::fmt;

use kernel::service_level::{Decision, MachineId};
use kernel::{JobId, Tick};

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
                let expected = expected.map_or_else(|| "no job".to_owned(), |job| format!("job {job}"));
                write!(f, "verdicts for {}, expected exactly one for {expected}", jobs(found))
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
                let running = running.map_or_else(|| "nothing".to_owned(), |job| format!("job {job}"));
                write!(f, "machine {machine} runs {running} with {unfinished} unfinished jobs")
            }
            Self::WrongDeadline { job, promised, expected } => {
                let expected = expected.map_or_else(|| "none".to_owned(), |t| t.to_string());
                write!(f, "job {job} accepted with deadline {promised}, its level gives {expected}")
            }
            Self::Unfinished(list) => write!(f, "accepted {} never completed", jobs(list)),
        }
    }
}

/// A [`Violation`] and where it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServiceLevelViolation {
    /// The index of the event (`None`: at the end of the trace).
    pub step: Option<usize>,
    pub decision: Option<Decision>,
    pub violation: Violation,
}

impl fmt::Display for ServiceLevelViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.step {
            Some(step) => write!(f, "event {step}")?,
            None => write!(f, "end of trace")?,
        }
        if let Some(decision) = &self.decision {
            write!(f, ", {}", decision_words(decision))?;
        }
        write!(f, ": {}", self.violation)
    }
}

impl std::error::Error for ServiceLevelViolation {}

/// `jobs 1, 2, 3` (`job 1`, `no job`).
fn jobs(list: &[JobId]) -> String {
    match list {
        [] => "no job".to_owned(),
        [one] => format!("job {one}"),
        many => format!("jobs {}", many.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")),
    }
}

/// A decision in words.
fn decision_words(decision: &Decision) -> String {
    match *decision {
        Decision::Accept { job, machine, deadline, preempted } => {
            let interrupts = preempted.map_or_else(String::new, |p| format!(", interrupting job {p}"));
            format!("accept job {job} on machine {machine} by {deadline}{interrupts}")
        }
        Decision::Reject { job, reason } => format!("reject job {job} ({reason})"),
        Decision::Start { t, job, machine } => format!("start job {job} on machine {machine} at {t}"),
        Decision::Preempt { t, job, machine } => format!("preempt job {job} on machine {machine} at {t}"),
        Decision::Complete { t, job, machine } => format!("complete job {job} on machine {machine} at {t}"),
    }
}
