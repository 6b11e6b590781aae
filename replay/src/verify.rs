//! Re-verification of a log, twice over: the kernel is rebuilt from the header and
//! must make every logged decision again, in order; and, without the kernel, the
//! logged schedule must keep every promise (each accepted job runs for exactly its
//! processing time, one job at a time per machine, and completes by its deadline).

use std::collections::{HashMap, VecDeque};
use std::io::Read;

use kernel::log::Body;
use kernel::{Decision, Event, JobId, Level, MachineId, Tick};

use crate::engine::{Engine, EngineError};
use crate::export::describe;
use crate::format::{FormatError, Header, LogReader};

/// Counts from a log that verified.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Report {
    pub records: u64,
    pub events: u64,
    pub decisions: u64,
    pub accepted: u64,
    pub rejected: u64,
    pub completed: u64,
    /// Accepts that displaced a job which had already run (the thesis' interruptions).
    pub preemptions: u64,
}

/// Where the kernel and the log first disagree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Divergence {
    pub seq: u64,
    /// The time of the event being handled.
    pub t: Option<Tick>,
    /// What the log holds at `seq` (`None`: the log has no record there).
    pub logged: Option<Body>,
    /// What the kernel decides now (`None`: the kernel decides nothing more).
    pub kernel: Option<Decision>,
}

impl std::fmt::Display for Divergence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let t = self.t.map_or_else(|| "-".to_owned(), |t| t.to_string());
        let logged = self.logged.map_or_else(|| "nothing (end of log)".to_owned(), |b| describe(&b));
        let kernel = self.kernel.map_or_else(|| "nothing more".to_owned(), |d| describe(&Body::Decision(d)));
        write!(
            f,
            "divergence at record {} (t = {t}):\n  expected (log):    {logged}\n  actual (kernel):   {kernel}",
            self.seq
        )
    }
}

#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    #[error(transparent)]
    Format(#[from] FormatError),
    #[error("cannot rebuild the kernel from the header: {0}")]
    Engine(#[from] EngineError),
    #[error("{0}")]
    Diverged(Box<Divergence>),
    #[error("record {seq}: broken promise: {message}")]
    Promise { seq: u64, message: String },
}

/// Verifies a whole log; see the module documentation.
pub fn verify<R: Read>(mut reader: LogReader<R>) -> Result<Report, VerifyError> {
    let mut engine = Engine::from_header(reader.header())?;
    let mut audit = Audit::new(reader.header());
    let mut report = Report::default();
    let mut fresh = Vec::new();
    let mut pending: VecDeque<Decision> = VecDeque::new();
    let mut now = None;
    while let Some(record) = reader.next_record()? {
        report.records += 1;
        match record.body {
            Body::Event(event) => {
                if let Some(&left) = pending.front() {
                    return Err(diverged(record.seq, now, Some(record.body), Some(left)));
                }
                report.events += 1;
                now = event.time().or(now);
                fresh.clear();
                engine.step(event, &mut fresh);
                pending.extend(fresh.iter().copied());
                audit.event(record.seq, &event)?;
            }
            Body::Decision(logged) => {
                report.decisions += 1;
                match pending.pop_front() {
                    Some(decided) if decided == logged => {}
                    decided => return Err(diverged(record.seq, now, Some(record.body), decided)),
                }
                count(&mut report, &logged);
                audit.decision(record.seq, &logged)?;
            }
        }
    }
    if let Some(&left) = pending.front() {
        return Err(diverged(report.records, now, None, Some(left)));
    }
    audit.finish(report.records)?;
    Ok(report)
}

fn diverged(seq: u64, t: Option<Tick>, logged: Option<Body>, kernel: Option<Decision>) -> VerifyError {
    VerifyError::Diverged(Box::new(Divergence { seq, t, logged, kernel }))
}

fn count(report: &mut Report, decision: &Decision) {
    match decision {
        Decision::Accept { preempted, .. } => {
            report.accepted += 1;
            report.preemptions += u64::from(preempted.is_some());
        }
        Decision::Reject { .. } => report.rejected += 1,
        Decision::Complete { .. } => report.completed += 1,
        Decision::Start { .. } | Decision::Preempt { .. } => {}
    }
}

/// A submitted job as the audit sees it.
#[derive(Debug, Clone, Copy)]
struct Job {
    release: Tick,
    p: Tick,
    level: u8,
    /// Set by the `Accept`: machine and deadline.
    placed: Option<(MachineId, Tick)>,
    worked: Tick,
    done: bool,
}

/// Checks the logged schedule against the promises, without the kernel. Its
/// deadline arithmetic is its own, not the kernel's.
#[derive(Debug)]
struct Audit {
    levels: Vec<Level>,
    jobs: HashMap<JobId, Job>,
    /// Per machine: the running job and when it (re)started.
    running: HashMap<MachineId, (JobId, Tick)>,
}

impl Audit {
    fn new(header: &Header) -> Self {
        Self { levels: header.levels.clone(), jobs: HashMap::new(), running: HashMap::new() }
    }

    fn event(&mut self, seq: u64, event: &Event) -> Result<(), VerifyError> {
        match *event {
            Event::Submit { t, job, p, level } => {
                let fresh = Job { release: t, p, level, placed: None, worked: 0, done: false };
                if self.jobs.insert(job, fresh).is_some_and(|old| !old.done && old.placed.is_some()) {
                    return broken(seq, format!("job {job} submitted again while it is still admitted"));
                }
            }
            Event::Advance { .. } => {}
            Event::Reset => {
                self.open_job(seq)?;
                self.jobs.clear();
                self.running.clear();
            }
        }
        Ok(())
    }

    fn decision(&mut self, seq: u64, decision: &Decision) -> Result<(), VerifyError> {
        match *decision {
            Decision::Accept { job, machine, deadline, .. } => self.accept(seq, job, machine, deadline),
            Decision::Reject { .. } => Ok(()),
            Decision::Start { t, job, machine } => {
                self.placed_on(seq, job, machine)?;
                if let Some((other, _)) = self.running.insert(machine, (job, t)) {
                    return broken(seq, format!("machine {machine} starts job {job} while job {other} runs"));
                }
                Ok(())
            }
            Decision::Preempt { t, job, machine } => self.stop(seq, t, job, machine).map(|_| ()),
            Decision::Complete { t, job, machine } => {
                let state = self.stop(seq, t, job, machine)?;
                let (_, deadline) = state.placed.unwrap_or((machine, Tick::MAX));
                if state.worked != state.p {
                    let (worked, p) = (state.worked, state.p);
                    return broken(seq, format!("job {job} completes after {worked} ticks of work, not {p}"));
                }
                if t > deadline {
                    return broken(seq, format!("job {job} completes at {t}, after its deadline {deadline}"));
                }
                state.done = true;
                Ok(())
            }
        }
    }

    fn accept(
        &mut self,
        seq: u64,
        job: JobId,
        machine: MachineId,
        deadline: Tick,
    ) -> Result<(), VerifyError> {
        let levels = &self.levels;
        let Some(state) = self.jobs.get_mut(&job) else {
            return broken(seq, format!("job {job} accepted but never submitted"));
        };
        let expected = levels.get(usize::from(state.level)).and_then(|l| {
            let slack = (u128::from(l.slack_milli) * u128::from(state.p)).div_ceil(1000);
            u64::try_from(u128::from(state.release) + slack).ok()
        });
        if expected != Some(deadline) {
            return broken(
                seq,
                format!("job {job} accepted with deadline {deadline}, the level gives {expected:?}"),
            );
        }
        state.placed = Some((machine, deadline));
        Ok(())
    }

    fn placed_on(&mut self, seq: u64, job: JobId, machine: MachineId) -> Result<&mut Job, VerifyError> {
        match self.jobs.get_mut(&job) {
            Some(state) if state.placed.map(|(m, _)| m) == Some(machine) && !state.done => Ok(state),
            _ => broken(seq, format!("job {job} runs on machine {machine} but is not admitted there")),
        }
    }

    /// Closes the running interval of `job` on `machine` at `t` and adds its work.
    fn stop(&mut self, seq: u64, t: Tick, job: JobId, machine: MachineId) -> Result<&mut Job, VerifyError> {
        let since = match self.running.remove(&machine) {
            Some((running, since)) if running == job && since <= t => since,
            _ => {
                return broken(
                    seq,
                    format!("job {job} stops on machine {machine} at {t} but was not running"),
                );
            }
        };
        let state = self.placed_on(seq, job, machine)?;
        state.worked += t - since;
        Ok(state)
    }

    /// Fails on the lowest-numbered admitted job that never completed.
    fn open_job(&self, seq: u64) -> Result<(), VerifyError> {
        let open = self.jobs.iter().filter(|(_, j)| j.placed.is_some() && !j.done).map(|(id, _)| *id).min();
        match open {
            Some(job) => broken(seq, format!("job {job} was admitted but never completed")),
            None => Ok(()),
        }
    }

    fn finish(&self, records: u64) -> Result<(), VerifyError> {
        self.open_job(records)
    }
}

fn broken<T>(seq: u64, message: String) -> Result<T, VerifyError> {
    Err(VerifyError::Promise { seq, message })
}
