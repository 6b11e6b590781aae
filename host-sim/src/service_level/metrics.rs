//! The thesis' metrics (Lezama 2012, Table 1 and eqs. 3-7), per window, and their
//! mean and population standard deviation across windows.
//!
//! For one window, with `n_r` the jobs submitted to the kernel and `n` the jobs it
//! accepted, every time measured from the window's start:
//!
//! | key | formula |
//! |---|---|
//! | `prj` | `(n_r - n) / n_r * 100` |
//! | `mbsd` | mean over accepted of `(c_j - r_j) / max(10, p_j)` |
//! | `mwt` | mean over accepted of `c_j - p_j - r_j` |
//! | `tpt` | `sum p_j` over accepted |
//! | `tpt_fraction` | `tpt / sum p_j` over submitted |
//! | `mni` | interruptions (`Accept` decisions whose `preempted` is set) per accepted job |
//! | `me` | `tpt / (m * (c_last - r_first))` |
//! | `g` | `sum u_j p_j` over accepted `- alpha * sum p_j` over submitted |
//! | `cv_u` | `sum u_j p_j / (u_max * sum p_j over submitted)` (eq. 6) |
//! | `cv_l` | `sum u_j p_j / (u_max * min(sum p_j over submitted, d_max * m))` (eq. 7) |
//! | `greedy_bound` | the theorems' guarantee, see [`crate::service_level::levels::greedy_bound`] |
//!
//! `d_max` is the largest deadline of the submitted jobs. Sums are kept in integers
//! (`u64`/`u128`) and turned into floats only at the end, except the bounded
//! slowdowns, a sum of ratios, which is added up in `f64` in completion order (the
//! same order on every machine). A ratio whose denominator is zero (no job accepted)
//! is reported as 0. Standard deviations are population ones (divided by the number
//! of windows, not one less).

use serde::Serialize;

use kernel::Tick;

/// Running sums for one window.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    pub submitted: u64,
    pub accepted: u64,
    pub completed: u64,
    pub interruptions: u64,
    pub work_submitted: u128,
    pub work_accepted: u128,
    /// `sum u_j p_j` over completed jobs.
    pub income: u128,
    /// `sum (c_j - p_j - r_j)` over completed jobs.
    pub wait_sum: u128,
    /// `sum (c_j - r_j) / max(10, p_j)` over completed jobs, in completion order.
    pub bounded_slowdown_sum: f64,
    pub first_release: Option<Tick>,
    pub last_completion: Tick,
    pub deadline_max: Tick,
}

impl Tally {
    /// A job submitted to the kernel; `deadline` is `None` when it overflows a tick.
    pub fn submit(&mut self, release: Tick, p: Tick, deadline: Option<Tick>) {
        self.submitted += 1;
        self.work_submitted += u128::from(p);
        self.first_release = Some(self.first_release.map_or(release, |r| r.min(release)));
        self.deadline_max = self.deadline_max.max(deadline.unwrap_or(Tick::MAX));
    }

    /// An `Accept` decision; `preempted` when it displaced a job that had run.
    pub fn accept(&mut self, preempted: bool) {
        self.accepted += 1;
        self.interruptions += u64::from(preempted);
    }

    /// A `Complete` decision at `completion` for a job released at `release`.
    pub fn complete(&mut self, release: Tick, p: Tick, price_per_tick: u32, completion: Tick) {
        self.completed += 1;
        self.work_accepted += u128::from(p);
        self.income += u128::from(price_per_tick) * u128::from(p);
        let response = completion.saturating_sub(release);
        self.wait_sum += u128::from(response.saturating_sub(p));
        self.bounded_slowdown_sum += response as f64 / p.max(10) as f64;
        self.last_completion = self.last_completion.max(completion);
    }

    /// The window's metrics.
    pub fn finish(&self, context: &MetricContext) -> Metrics {
        let accepted = self.accepted as f64;
        let per_accepted = |x: f64| if self.accepted == 0 { 0.0 } else { x / accepted };
        let ratio = |num: u128, den: u128| if den == 0 { 0.0 } else { num as f64 / den as f64 };
        let machines = u128::from(context.machines);
        let span = u128::from(self.last_completion.saturating_sub(self.first_release.unwrap_or(0)));
        let u_max = u128::from(context.u_max);
        let limited = self.work_submitted.min(u128::from(self.deadline_max).saturating_mul(machines));
        let benefit_milli = (self.income as i128)
            .saturating_mul(1000)
            .saturating_sub(i128::from(context.alpha_milli).saturating_mul(self.work_submitted as i128));
        Metrics {
            prj: if self.submitted == 0 {
                0.0
            } else {
                (self.submitted - self.accepted) as f64 / self.submitted as f64 * 100.0
            },
            mbsd: per_accepted(self.bounded_slowdown_sum),
            mwt: per_accepted(self.wait_sum as f64),
            tpt: self.work_accepted as f64,
            tpt_fraction: ratio(self.work_accepted, self.work_submitted),
            mni: per_accepted(self.interruptions as f64),
            me: ratio(self.work_accepted, machines.saturating_mul(span)),
            g: benefit_milli as f64 / 1000.0,
            cv_u: ratio(self.income, u_max.saturating_mul(self.work_submitted)),
            cv_l: ratio(self.income, u_max.saturating_mul(limited)),
            greedy_bound: context.greedy_bound,
            jobs_submitted: self.submitted as f64,
            jobs_accepted: accepted,
        }
    }
}

/// What the metrics need to know about the configuration.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MetricContext {
    pub machines: u16,
    /// The largest price per tick of the level table.
    pub u_max: u32,
    /// The cost per tick `alpha`, in thousandths.
    pub alpha_milli: u64,
    pub greedy_bound: f64,
}

/// One window's metrics, or their mean or standard deviation across windows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, serde::Deserialize)]
pub struct Metrics {
    pub prj: f64,
    pub mbsd: f64,
    pub mwt: f64,
    pub tpt: f64,
    pub tpt_fraction: f64,
    pub mni: f64,
    pub me: f64,
    pub g: f64,
    pub cv_u: f64,
    pub cv_l: f64,
    pub greedy_bound: f64,
    pub jobs_submitted: f64,
    pub jobs_accepted: f64,
}

/// The metric fields in their one order, from which [`METRIC_KEYS`],
/// [`Metrics::to_array`] and [`Metrics::from_array`] are made (a struct cannot be
/// destructured into an array, so the list would otherwise be spelled three times).
macro_rules! metric_fields {
    ($($field:ident),+ $(,)?) => {
        /// The metric keys, in the order of [`Metrics::to_array`].
        pub const METRIC_KEYS: [&str; 13] = [$(stringify!($field)),+];

        impl Metrics {
            pub fn to_array(&self) -> [f64; 13] {
                [$(self.$field),+]
            }

            /// The inverse of `to_array`.
            pub fn from_array(a: [f64; 13]) -> Self {
                let [$($field),+] = a;
                Self { $($field),+ }
            }
        }
    };
}

metric_fields!(
    prj,
    mbsd,
    mwt,
    tpt,
    tpt_fraction,
    mni,
    me,
    g,
    cv_u,
    cv_l,
    greedy_bound,
    jobs_submitted,
    jobs_accepted,
);

/// Running sums for the jobs of one service level, over the whole run (every window
/// pooled): the per-level figures of a multi-level run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LevelTally {
    pub submitted: u64,
    pub accepted: u64,
    pub work_accepted: u128,
    /// `sum u_j p_j` over completed jobs of the level.
    pub income: u128,
    pub wait_sum: u128,
    pub bounded_slowdown_sum: f64,
}

impl LevelTally {
    /// A completed job of this level (as [`Tally::complete`] counts it).
    pub fn complete(&mut self, release: Tick, p: Tick, price_per_tick: u32, completion: Tick) {
        self.work_accepted += u128::from(p);
        self.income += u128::from(price_per_tick) * u128::from(p);
        let response = completion.saturating_sub(release);
        self.wait_sum += u128::from(response.saturating_sub(p));
        self.bounded_slowdown_sum += response as f64 / p.max(10) as f64;
    }

    /// The level's figures; `level` is its index, `sf` its slack factor as a decimal.
    pub fn finish(&self, level: usize, sf: String, price_per_tick: u32) -> LevelMetrics {
        let per_accepted = |x: f64| if self.accepted == 0 { 0.0 } else { x / self.accepted as f64 };
        LevelMetrics {
            level,
            sf,
            price_per_tick,
            jobs_submitted: self.submitted,
            jobs_accepted: self.accepted,
            prj: if self.submitted == 0 {
                0.0
            } else {
                (self.submitted - self.accepted) as f64 / self.submitted as f64 * 100.0
            },
            mwt: per_accepted(self.wait_sum as f64),
            mbsd: per_accepted(self.bounded_slowdown_sum),
            tpt: self.work_accepted as f64,
            income: self.income as f64,
        }
    }
}

/// One service level's figures over the whole run: the jobs drawn onto it in every
/// window pooled (not a mean of per-window values). PRJ, MWT and MBSD as Table 1
/// defines them, restricted to the level's jobs; TPT its accepted work; income its
/// `sum u_j p_j`. Across levels, the TPTs and incomes add up to the run's.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LevelMetrics {
    pub level: usize,
    #[serde(serialize_with = "crate::units::decimal_number")]
    pub sf: String,
    pub price_per_tick: u32,
    pub jobs_submitted: u64,
    pub jobs_accepted: u64,
    pub prj: f64,
    pub mwt: f64,
    pub mbsd: f64,
    pub tpt: f64,
    pub income: f64,
}

/// Mean and population standard deviation, metric by metric.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Spread {
    pub mean: Metrics,
    /// Population standard deviation: `sqrt(sum (x - mean)^2 / windows)`.
    pub sd: Metrics,
}

/// The mean and population standard deviation of `windows`; zeros when empty.
pub fn spread<'a>(windows: impl IntoIterator<Item = &'a Metrics> + Clone) -> Spread {
    let count = windows.clone().into_iter().count();
    if count == 0 {
        return Spread::default();
    }
    let n = count as f64;
    let mut mean = [0.0; 13];
    for w in windows.clone() {
        mean.iter_mut().zip(w.to_array()).for_each(|(m, x)| *m += x);
    }
    mean.iter_mut().for_each(|m| *m /= n);
    let mut var = [0.0; 13];
    for w in windows {
        var.iter_mut().zip(w.to_array()).zip(mean).for_each(|((v, x), m)| *v += (x - m) * (x - m));
    }
    let sd = var.map(|v| (v / n).sqrt());
    Spread { mean: Metrics::from_array(mean), sd: Metrics::from_array(sd) }
}

#[cfg(test)]
mod tests;
