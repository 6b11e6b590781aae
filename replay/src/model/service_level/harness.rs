//! [`check_case`]: runs one scenario through a small kernel and, event by event,
//! through the [`ReferenceSim`] and the [`TraceChecker`], and applies the two checks
//! that need the whole picture: the admission test against brute-force feasibility,
//! and greedy acceptance against the offline optimum (Theorem 2 of Lezama 2012).

use std::fmt;

use kernel::Tick;
use kernel::service_level::{Config, ConfigError, Decision, Event, Kernel, Outcome, RejectReason};

use super::cases::{Case, Shape};
use super::feasibility::{MAX_OPTIMAL_JOBS, edf_feasible, optimal_accepted_work};
use super::sim::{ModelStep, ReferenceSim};
use super::trace::{TraceChecker, TraceError};

/// What disagreed, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The case does not describe a kernel of its shape.
    Config(ConfigError),
    /// The case has more levels than its shape's kernel holds.
    TooManyLevels { levels: usize, capacity: usize },
    /// The kernel and the model did different things for event `step`.
    Disagreement { step: usize, event: Event, model: ModelStep, kernel: ModelStep },
    /// The kernel's decisions break a promise of the trace.
    Trace(TraceError),
    /// On one machine, the verdict differs from brute-force feasibility of the queue
    /// plus the new job.
    Feasibility { step: usize, event: Event, feasible: bool, outcome: Outcome },
    /// Greedy acceptance fell below `(1 - 1/sf)` of the optimum on one machine.
    CompetitiveRatio { reset: usize, accepted: u64, optimal: u64, slack_milli: u32 },
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Config(e) => write!(f, "bad case configuration: {e}"),
            Self::TooManyLevels { levels, capacity } => {
                write!(f, "{levels} levels given, the case's kernel holds {capacity}")
            }
            Self::Disagreement { step, event, model, kernel } => write!(
                f,
                "event {step} {event:?}: model {:?} {:?}, kernel {:?} {:?}",
                model.outcome, model.decisions, kernel.outcome, kernel.decisions
            ),
            Self::Trace(e) => write!(f, "trace: {e}"),
            Self::Feasibility { step, event, feasible, outcome } => {
                write!(f, "event {step} {event:?}: EDF says feasible = {feasible}, kernel says {outcome:?}")
            }
            Self::CompetitiveRatio { reset, accepted, optimal, slack_milli } => write!(
                f,
                "after {reset} resets: accepted {accepted} of an optimal {optimal}, below 1 - 1000/{slack_milli}"
            ),
        }
    }
}

impl std::error::Error for Failure {}

/// What a case exercised, so that tests can tell that the checks were not vacuous.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CaseReport {
    pub events: usize,
    pub accepted: usize,
    /// Rejections by reason, indexed by the reason's discriminant.
    pub rejected: [usize; 6],
    pub preemptions: usize,
    /// Verdicts compared with brute-force EDF feasibility.
    pub feasibility_checks: usize,
    /// Experiments compared with the offline optimum.
    pub ratio_checks: usize,
    /// Of those, the ones where the optimum had to be searched for, and the ones where
    /// greedy acceptance fell short of it.
    pub optimum_searches: usize,
    pub below_optimum: usize,
}

impl std::ops::AddAssign for CaseReport {
    fn add_assign(&mut self, other: Self) {
        self.events += other.events;
        self.accepted += other.accepted;
        for (mine, theirs) in self.rejected.iter_mut().zip(other.rejected) {
            *mine += theirs;
        }
        self.preemptions += other.preemptions;
        self.feasibility_checks += other.feasibility_checks;
        self.ratio_checks += other.ratio_checks;
        self.optimum_searches += other.optimum_searches;
        self.below_optimum += other.below_optimum;
    }
}

/// Runs `case` on the kernel of its shape and checks every decision.
pub fn check_case(case: &Case) -> Result<CaseReport, Failure> {
    match case.shape {
        Shape::Wide => run::<3, 4, 3>(case),
        Shape::Single => run::<1, 8, 1>(case),
    }
}

fn run<const M: usize, const Q: usize, const L: usize>(case: &Case) -> Result<CaseReport, Failure> {
    let levels = heapless::Vec::from_slice(&case.levels)
        .map_err(|_| Failure::TooManyLevels { levels: case.levels.len(), capacity: L })?;
    let config = Config { machines: case.machines, policy: case.policy, levels };
    let mut kernel = Kernel::<M, Q, L>::new(config).map_err(Failure::Config)?;
    let mut sim = ReferenceSim::with_policy(case.machines, Q, &case.levels, case.policy);
    let mut trace = TraceChecker::new(case.machines);
    let mut ratio = RatioCheck::new(case);
    let mut report = CaseReport { events: case.events.len(), ..CaseReport::default() };
    for (step, &event) in case.events.iter().enumerate() {
        let feasible = (case.machines == 1).then(|| feasible_with(&sim, &event)).flatten();
        let mut decisions = Vec::new();
        let outcome = kernel.step(event, &mut |d| decisions.push(d));
        let got = ModelStep { outcome, decisions };
        let model = sim.step(&event);
        if got != model {
            return Err(Failure::Disagreement { step, event, model, kernel: got });
        }
        trace.step(&event, &got.decisions).map_err(Failure::Trace)?;
        if let Some(feasible) = feasible {
            let passed =
                matches!(outcome, Outcome::Accepted { .. } | Outcome::Rejected(RejectReason::QueueFull));
            if passed != feasible {
                return Err(Failure::Feasibility { step, event, feasible, outcome });
            }
            report.feasibility_checks += 1;
        }
        tally(&mut report, &got);
        ratio.step(&sim, &event, outcome, &mut report)?;
    }
    trace.finish().map_err(Failure::Trace)?;
    ratio.close(&mut report)?;
    Ok(report)
}

/// For a submit that reaches the admission test on a one-machine kernel: whether the
/// queue at its time plus the new job is feasible. `None` for every other event.
fn feasible_with(sim: &ReferenceSim, event: &Event) -> Option<bool> {
    let Event::Submit { t, p, level, .. } = *event else { return None };
    if t < sim.now() || p == 0 {
        return None;
    }
    let deadline = sim.deadline(t, p, usize::from(level)).ok()?;
    let mut jobs: Vec<(Tick, Tick)> = sim.queue_at(0, t).iter().map(|j| (j.remaining, j.deadline)).collect();
    jobs.push((p, deadline));
    Some(edf_feasible(t, &jobs))
}

fn tally(report: &mut CaseReport, step: &ModelStep) {
    for decision in &step.decisions {
        match *decision {
            Decision::Accept { preempted, .. } => {
                report.accepted += 1;
                report.preemptions += usize::from(preempted.is_some());
            }
            Decision::Reject { reason, .. } => report.rejected[reason as usize] += 1,
            Decision::Start { .. } | Decision::Preempt { .. } | Decision::Complete { .. } => {}
        }
    }
}

/// Theorem 2 of Lezama (2012, after Schwiegelshohn et al.): on one machine with one
/// service level of slack `sf`, greedy acceptance accepts at least `(1 - 1/sf)` of the
/// processing time an offline optimum accepts. Checked per experiment (between resets)
/// on the jobs that reached the admission test, when there are few enough of them to
/// brute-force the optimum and no queue filled (a full queue is not greedy).
struct RatioCheck {
    /// The single level's slack; `None` when the theorem does not apply to the case.
    slack_milli: Option<u32>,
    /// `(release, p, deadline, accepted)` of the experiment's admission-tested jobs.
    jobs: Vec<(Tick, Tick, Tick, bool)>,
    queue_filled: bool,
    /// Experiments closed so far.
    resets: usize,
}

impl RatioCheck {
    fn new(case: &Case) -> Self {
        let slack_milli = match case.levels.as_slice() {
            [level] if case.machines == 1 => Some(level.slack_milli),
            _ => None,
        };
        Self { slack_milli, jobs: Vec::new(), queue_filled: false, resets: 0 }
    }

    fn step(
        &mut self,
        sim: &ReferenceSim,
        event: &Event,
        outcome: Outcome,
        report: &mut CaseReport,
    ) -> Result<(), Failure> {
        let (t, p, level) = match *event {
            Event::Reset => return self.close(report),
            Event::Submit { t, p, level, .. } => (t, p, usize::from(level)),
            Event::Advance { .. } => return Ok(()),
        };
        let accepted = match outcome {
            Outcome::Accepted { .. } => true,
            Outcome::Rejected(RejectReason::NoFeasibleMachine) => false,
            Outcome::Rejected(RejectReason::QueueFull) => {
                self.queue_filled = true;
                false
            }
            // Requests refused before the test are not jobs any scheduler could run.
            _ => return Ok(()),
        };
        if let Ok(deadline) = sim.deadline(t, p, level) {
            self.jobs.push((t, p, deadline, accepted));
        }
        Ok(())
    }

    /// Compares the experiment so far with the optimum, when the theorem applies, and
    /// starts the next experiment.
    fn close(&mut self, report: &mut CaseReport) -> Result<(), Failure> {
        let jobs = std::mem::take(&mut self.jobs);
        let queue_filled = std::mem::replace(&mut self.queue_filled, false);
        self.resets += 1;
        let Some(slack_milli) = self.slack_milli else { return Ok(()) };
        if queue_filled || jobs.is_empty() || jobs.len() > MAX_OPTIMAL_JOBS {
            return Ok(());
        }
        let slack = u128::from(slack_milli);
        let accepted: u128 = jobs.iter().filter(|j| j.3).map(|j| u128::from(j.1)).sum();
        let bound = |optimal: u128| accepted * slack >= (slack - 1000) * optimal;
        let all: Vec<(Tick, Tick, Tick)> = jobs.iter().map(|&(r, p, d, _)| (r, p, d)).collect();
        // All the work offered bounds the optimum; brute force only when that is not enough.
        let offered: u128 = all.iter().map(|j| u128::from(j.1)).sum();
        if !bound(offered) {
            let optimal = optimal_accepted_work(&all);
            if !bound(u128::from(optimal)) {
                let accepted = u64::try_from(accepted).unwrap_or(u64::MAX);
                let reset = self.resets - 1;
                return Err(Failure::CompetitiveRatio { reset, accepted, optimal, slack_milli });
            }
            report.optimum_searches += 1;
            report.below_optimum += usize::from(accepted < u128::from(optimal));
        }
        report.ratio_checks += 1;
        Ok(())
    }
}
