//! [`check_case`]: runs one scenario through a small kernel and, event by event,
//! through the [`ServiceLevelReference`] and the [`ServiceLevelAudit`], and applies the two checks
//! that need the whole picture: the admission test against brute-force feasibility,
//! and greedy acceptance against the offline optimum (the thesis' Theorems 2 and 5 and
//! Corollaries 7 and 11, and our generalisation of them: [`super::theorems`]).

use std::fmt;

use kernel::Tick;
use kernel::service_level::{
    Config, ConfigError, Decision, Event, Outcome, RejectReason, ServiceLevelKernel,
};

use super::audit::{ServiceLevelAudit, ServiceLevelViolation};
use super::cases::{Case, Shape};
use super::feasibility::edf_feasible;
use super::reference::{ModelStep, ServiceLevelReference};
use super::theorems::{BoundRule, BoundViolation, Checked, RatioCheck, Theorem};

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
    Trace(ServiceLevelViolation),
    /// On one machine, the verdict differs from brute-force feasibility of the queue
    /// plus the new job.
    Feasibility { step: usize, event: Event, feasible: bool, outcome: Outcome },
    /// Greedy acceptance earned less than a competitive bound promises, in one
    /// experiment: the statement, the experiment's jobs, `V`, `V*` and the bound.
    Bound(Box<BoundViolation>),
    /// Greedy acceptance earned more than the brute-force optimum: the kernel finished
    /// jobs the optimum calls infeasible together, so the kernel or the optimum is wrong.
    AboveOptimum(Box<BoundViolation>),
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
            Self::Bound(violation) => write!(f, "{violation}"),
            Self::AboveOptimum(v) => write!(
                f,
                "greedy income {} above the brute-force optimum {} ({} machines, {:?}); jobs: {:?}",
                v.income, v.optimal, v.machines, v.policy, v.jobs
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
    /// Experiments held to a competitive bound, all statements together.
    pub ratio_checks: usize,
    /// The same by statement, indexed by [`Theorem`]'s discriminant (see
    /// [`CaseReport::checks_of`]).
    pub theorem_checks: [usize; 5],
    /// Of those, the ones where the optimum had to be searched for, by statement.
    pub theorem_searches: [usize; 5],
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
        for (mine, theirs) in self.theorem_checks.iter_mut().zip(other.theorem_checks) {
            *mine += theirs;
        }
        for (mine, theirs) in self.theorem_searches.iter_mut().zip(other.theorem_searches) {
            *mine += theirs;
        }
        self.optimum_searches += other.optimum_searches;
        self.below_optimum += other.below_optimum;
    }
}

impl CaseReport {
    /// Experiments held to `theorem`'s bound.
    pub fn checks_of(&self, theorem: Theorem) -> usize {
        self.theorem_checks[theorem as usize]
    }

    /// Experiments held to `theorem`'s bound against a searched optimum (the bound
    /// did not already hold against all the income offered).
    pub fn searches_of(&self, theorem: Theorem) -> usize {
        self.theorem_searches[theorem as usize]
    }

    fn count(&mut self, checked: Checked) -> Result<(), Failure> {
        match checked {
            Checked::Skipped => {}
            Checked::Held { theorem, searched, below } => {
                self.ratio_checks += 1;
                self.theorem_checks[theorem as usize] += 1;
                self.theorem_searches[theorem as usize] += usize::from(searched);
                self.optimum_searches += usize::from(searched);
                self.below_optimum += usize::from(searched && below);
            }
            Checked::AboveOptimum(violation) => return Err(Failure::AboveOptimum(violation)),
            Checked::Broken(violation) => return Err(Failure::Bound(violation)),
        }
        Ok(())
    }
}

/// Runs `case` on the kernel of its shape and checks every decision, holding greedy
/// acceptance to [`BoundRule::ACTIVE`].
pub fn check_case(case: &Case) -> Result<CaseReport, Failure> {
    check_case_with(case, BoundRule::ACTIVE)
}

/// [`check_case`] with the competitive bound chosen by `rule` (the planted one must fail).
pub fn check_case_with(case: &Case, rule: BoundRule) -> Result<CaseReport, Failure> {
    match case.shape {
        Shape::Wide => run::<3, 4, 3>(case, rule),
        Shape::Single => run::<1, 8, 1>(case, rule),
    }
}

fn run<const M: usize, const Q: usize, const L: usize>(
    case: &Case,
    rule: BoundRule,
) -> Result<CaseReport, Failure> {
    let levels = heapless::Vec::from_slice(&case.levels)
        .map_err(|_| Failure::TooManyLevels { levels: case.levels.len(), capacity: L })?;
    let config = Config { machines: case.machines, policy: case.policy, levels };
    let mut kernel = ServiceLevelKernel::<M, Q, L>::new(config).map_err(Failure::Config)?;
    let mut sim = ServiceLevelReference::with_policy(case.machines, Q, &case.levels, case.policy);
    let mut trace = ServiceLevelAudit::new(case.machines);
    let mut ratio = RatioCheck::new(case, rule);
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
        if let Some(checked) = ratio.step(&sim, &event, outcome) {
            report.count(checked)?;
        }
    }
    trace.finish().map_err(Failure::Trace)?;
    report.count(ratio.close())?;
    Ok(report)
}

/// For a submit that reaches the admission test on a one-machine kernel: whether the
/// queue at its time plus the new job is feasible. `None` for every other event.
fn feasible_with(sim: &ServiceLevelReference, event: &Event) -> Option<bool> {
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
