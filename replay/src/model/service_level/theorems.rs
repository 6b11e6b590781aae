//! The competitive bounds of greedy acceptance (Lezama 2012, Section 2.2, after
//! Schwiegelshohn and Tchernykh 2012), each checked per experiment (the events between
//! two resets) against the exact offline optimum [`optimal_income`].
//!
//! `c_V = V / V*`, where `V` is the income `sum u_j p_j` of the jobs greedy acceptance
//! accepted (the kernel accepts only jobs it finishes by their deadline) and `V*` the
//! largest income a scheduler knowing every job in advance could earn on the same
//! machines, preemptive and without migration. Which statement applies is the case's
//! shape:
//!
//! | levels | one machine | several machines |
//! |---|---|---|
//! | one, slack `f_I` | Theorem 2: `c_V >= 1 - 1/f_I` | Theorem 5: the same |
//! | two, `1 < f_I < f_II`, `u_I > u_II` | Corollary 7: `c_V >= (u_II/u_I)(1 - 1/f_I)` | Corollary 11: the same |
//! | any other table | our generalisation: `c_V >= (u_min/u_max)(1 - 1/f_min)` | the same |
//!
//! The generalisation is not a theorem of the thesis; it is the bound host-sim reports
//! (`host_sim::service_level::levels::greedy_bound`) and is checked under its own name.
//! With one level the price cancels, so Theorems 2 and 5 are checked on work (as if
//! `u = 1`), which keeps them meaningful at price 0. Every comparison is exact:
//! `V * u_max * f >= V* * u_min * (f - 1)`, slack factors in thousandths, in `u128`.
//!
//! An experiment is left out when a queue filled (a rejection for a full queue is not
//! greedy acceptance), when it has more than [`MAX_BRUTE_FORCE_JOBS`] admission-tested
//! jobs, when an income does not fit a `u64`, or when the bound is zero (`f = 1` or
//! `u_min = 0`), where there is nothing to check.

use std::fmt;

use kernel::Tick;
use kernel::service_level::{Event, Level, Outcome, Policy, RejectReason};

use super::cases::Case;
use super::optimum::{MAX_BRUTE_FORCE_JOBS, OfflineJob, optimal_income};
use super::reference::ServiceLevelReference;

/// The statement an experiment is held to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theorem {
    /// One level, one machine (SSL-SM): `c_V >= 1 - 1/f_I`.
    Theorem2,
    /// One level, parallel machines (SSL-PM): `c_V >= 1 - 1/f_I`.
    Theorem5,
    /// Two levels, one machine (MSL-SM): `c_V >= (u_II/u_I)(1 - 1/f_I)`.
    Corollary7,
    /// Two levels, parallel machines (MSL-PM): the same.
    Corollary11,
    /// Any other level table: `c_V >= (u_min/u_max)(1 - 1/f_min)`, ours, not the thesis'.
    Generalised,
}

impl Theorem {
    /// Every statement, in discriminant order (the index of [`CaseReport`]'s counts).
    ///
    /// [`CaseReport`]: super::harness::CaseReport
    pub const ALL: [Self; 5] =
        [Self::Theorem2, Self::Theorem5, Self::Corollary7, Self::Corollary11, Self::Generalised];

    /// The statement's name and what it says, for failure messages.
    pub const fn describe(self) -> &'static str {
        match self {
            Self::Theorem2 => "Theorem 2 (SSL-SM: one level, one machine; c_V >= 1 - 1/f_I)",
            Self::Theorem5 => "Theorem 5 (SSL-PM: one level, parallel machines; c_V >= 1 - 1/f_I)",
            Self::Corollary7 => "Corollary 7 (MSL-SM: two levels, one machine; c_V >= (u_II/u_I)(1 - 1/f_I))",
            Self::Corollary11 => {
                "Corollary 11 (MSL-PM: two levels, parallel machines; c_V >= (u_II/u_I)(1 - 1/f_I))"
            }
            Self::Generalised => {
                "our generalisation, not a theorem of the thesis (c_V >= (u_min/u_max)(1 - 1/f_min))"
            }
        }
    }
}

/// Which bound greedy acceptance is held to: the thesis', or a planted wrong one that
/// the checks must catch (the negative control `cargo xtask fuzz` runs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoundRule {
    /// `(u_min/u_max)(1 - 1/f)`, as the table above.
    Thesis,
    /// `(u_min/u_max)(1 - 1/(2f))`: stronger than any statement proves, and false.
    Planted,
}

impl BoundRule {
    /// What [`check_case`](super::harness::check_case) uses: [`Self::Thesis`], or
    /// [`Self::Planted`] when replay is built with the `planted-bound` feature.
    pub const ACTIVE: Self = if cfg!(feature = "planted-bound") { Self::Planted } else { Self::Thesis };
}

/// A bound as the exact fraction `numerator / denominator` of `V*` that `V` must reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bound {
    pub theorem: Theorem,
    pub rule: BoundRule,
    /// `u_min` and `u_max` (both 1 for one level, where the price cancels).
    pub u_low: u32,
    pub u_high: u32,
    /// `f_min`, in thousandths.
    pub slack_milli: u32,
    pub numerator: u128,
    pub denominator: u128,
}

impl Bound {
    /// The statement for `levels` on `machines` machines, or `None` when its bound is
    /// zero and there is nothing to check.
    pub fn for_case(levels: &[Level], machines: u16, rule: BoundRule) -> Option<Self> {
        let several = machines > 1;
        let (theorem, u_low, u_high, slack_milli) = match levels {
            [one] => (if several { Theorem::Theorem5 } else { Theorem::Theorem2 }, 1, 1, one.slack_milli),
            [a, b] if corollary_applies(a, b) => {
                let (first, second) = if a.slack_milli < b.slack_milli { (a, b) } else { (b, a) };
                let theorem = if several { Theorem::Corollary11 } else { Theorem::Corollary7 };
                (theorem, second.price_per_tick, first.price_per_tick, first.slack_milli)
            }
            _ => {
                let u_low = levels.iter().map(|l| l.price_per_tick).min()?;
                let u_high = levels.iter().map(|l| l.price_per_tick).max()?;
                let slack = levels.iter().map(|l| l.slack_milli).min()?;
                (Theorem::Generalised, u_low, u_high, slack)
            }
        };
        let f = u128::from(slack_milli);
        // `f` in thousandths: `1 - 1/f` is `(f - 1000) / f`, the planted `1 - 1/(2f)` is
        // `(2f - 1000) / 2f`.
        let (gap, scale) = match rule {
            BoundRule::Thesis => (f.checked_sub(1000)?, f),
            BoundRule::Planted => ((2 * f).checked_sub(1000)?, 2 * f),
        };
        let numerator = u128::from(u_low) * gap;
        let denominator = u128::from(u_high) * scale;
        (numerator > 0).then_some(Self { theorem, rule, u_low, u_high, slack_milli, numerator, denominator })
    }

    /// Whether income `v` reaches the bound against the optimum `optimal`.
    pub fn holds(&self, v: u128, optimal: u128) -> bool {
        v * self.denominator >= optimal * self.numerator
    }
}

/// The thesis' conditions for Corollaries 7 and 11: `1 < f_I < f_II` and `u_I > u_II`,
/// level I being the one with the smaller slack factor.
fn corollary_applies(a: &Level, b: &Level) -> bool {
    let (first, second) = if a.slack_milli < b.slack_milli { (a, b) } else { (b, a) };
    1000 < first.slack_milli
        && first.slack_milli < second.slack_milli
        && first.price_per_tick > second.price_per_tick
}

impl fmt::Display for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (u, s) = (format!("({}/{})", self.u_low, self.u_high), self.slack_milli);
        match self.rule {
            BoundRule::Thesis => write!(f, "{u} (1 - 1000/{s})")?,
            BoundRule::Planted => write!(f, "{u} (1 - 1000/(2 * {s})), PLANTED (wrong on purpose)")?,
        }
        write!(f, " = {}/{}", self.numerator, self.denominator)
    }
}

/// One admission-tested job of an experiment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExperimentJob {
    pub release: Tick,
    pub p: Tick,
    pub deadline: Tick,
    pub level: usize,
    pub accepted: bool,
}

/// An experiment whose greedy income fell below its bound, with all it takes to
/// replay it by hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoundViolation {
    pub bound: Bound,
    /// Resets before the experiment.
    pub reset: usize,
    pub machines: u16,
    pub policy: Policy,
    pub jobs: Vec<ExperimentJob>,
    /// `V` and `V*` (work, for one level).
    pub income: u128,
    pub optimal: u128,
}

impl fmt::Display for BoundViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} broken", self.bound.theorem.describe())?;
        let machines =
            if self.machines == 1 { "1 machine".into() } else { format!("{} machines", self.machines) };
        writeln!(
            f,
            "  experiment after {} resets, {machines} under {}: V = {}, V* = {}, V/V* below {}",
            self.reset,
            self.policy.name(),
            self.income,
            self.optimal,
            self.bound
        )?;
        write!(f, "  jobs (release, p, deadline, level, accepted):")?;
        for j in &self.jobs {
            write!(f, " ({}, {}, {}, {}, {})", j.release, j.p, j.deadline, j.level, j.accepted)?;
        }
        Ok(())
    }
}

/// How a closed experiment went.
#[derive(Debug)]
pub enum Checked {
    /// Not an experiment the bound speaks about (see the module documentation).
    Skipped,
    /// Within the bound; `searched` when the optimum had to be computed, `below` when
    /// greedy acceptance earned less than it.
    Held {
        theorem: Theorem,
        searched: bool,
        below: bool,
    },
    /// Greedy acceptance earned more than the optimum: the kernel finished a set of
    /// jobs the brute force calls infeasible, so one of the two is wrong.
    AboveOptimum(Box<BoundViolation>),
    Broken(Box<BoundViolation>),
}

/// Collects each experiment's admission-tested jobs and holds them to their bound.
#[derive(Debug)]
pub struct RatioCheck {
    bound: Option<Bound>,
    machines: u16,
    policy: Policy,
    prices: Vec<u32>,
    jobs: Vec<ExperimentJob>,
    queue_filled: bool,
    /// Experiments closed so far.
    resets: usize,
}

impl RatioCheck {
    pub fn new(case: &Case, rule: BoundRule) -> Self {
        Self {
            bound: Bound::for_case(&case.levels, case.machines, rule),
            machines: case.machines,
            policy: case.policy,
            // One level: its price cancels, and work is the income (see above).
            prices: match case.levels.as_slice() {
                [_] => vec![1],
                levels => levels.iter().map(|l| l.price_per_tick).collect(),
            },
            jobs: Vec::new(),
            queue_filled: false,
            resets: 0,
        }
    }

    /// Records a submit's outcome; a `Reset` closes the experiment (`Some`).
    pub fn step(&mut self, sim: &ServiceLevelReference, event: &Event, outcome: Outcome) -> Option<Checked> {
        let (t, p, level) = match *event {
            Event::Reset => return Some(self.close()),
            Event::Submit { t, p, level, .. } => (t, p, usize::from(level)),
            Event::Advance { .. } => return None,
        };
        let accepted = match outcome {
            Outcome::Accepted { .. } => true,
            Outcome::Rejected(RejectReason::NoFeasibleMachine) => false,
            Outcome::Rejected(RejectReason::QueueFull) => {
                self.queue_filled = true;
                false
            }
            // Requests refused before the test are not jobs any scheduler could run.
            _ => return None,
        };
        if let Ok(deadline) = sim.deadline(t, p, level) {
            self.jobs.push(ExperimentJob { release: t, p, deadline, level, accepted });
        }
        None
    }

    /// Holds the experiment so far to its bound, and starts the next one.
    pub fn close(&mut self) -> Checked {
        let jobs = std::mem::take(&mut self.jobs);
        let queue_filled = std::mem::replace(&mut self.queue_filled, false);
        self.resets += 1;
        let Some(bound) = self.bound else { return Checked::Skipped };
        if queue_filled || jobs.is_empty() || jobs.len() > MAX_BRUTE_FORCE_JOBS {
            return Checked::Skipped;
        }
        let Some(offline) = self.offline(&jobs) else { return Checked::Skipped };
        let income: u128 =
            offline.iter().zip(&jobs).filter(|(_, j)| j.accepted).map(|(o, _)| u128::from(o.income)).sum();
        // All the income offered bounds the optimum; search only when that is not enough.
        let offered: u128 = offline.iter().map(|o| u128::from(o.income)).sum();
        if bound.holds(income, offered) {
            return Checked::Held { theorem: bound.theorem, searched: false, below: income < offered };
        }
        let optimal = optimal_income(&offline, usize::from(self.machines));
        let violation = || {
            let (reset, machines, policy) = (self.resets - 1, self.machines, self.policy);
            Box::new(BoundViolation { bound, reset, machines, policy, jobs: jobs.clone(), income, optimal })
        };
        if income > optimal {
            Checked::AboveOptimum(violation())
        } else if !bound.holds(income, optimal) {
            Checked::Broken(violation())
        } else {
            Checked::Held { theorem: bound.theorem, searched: true, below: income < optimal }
        }
    }

    /// The jobs as an offline instance, each at its income; `None` when one does not
    /// fit a `u64`.
    fn offline(&self, jobs: &[ExperimentJob]) -> Option<Vec<OfflineJob>> {
        jobs.iter()
            .map(|j| {
                let price = u64::from(*self.prices.get(j.level)?);
                let income = j.p.checked_mul(price)?;
                Some(OfflineJob { release: j.release, p: j.p, deadline: j.deadline, income })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;
