//! The paper's figures from one run: rejection and violation per tier (Figures 8-11),
//! rescheduled jobs and moves per job (Figure 12), Bronze waiting times (Figure 13).
//!
//! - `rejected_pct[tier]`: rejected over submitted SLAs of the tier; `all` over all.
//! - `violated_pct[tier]`: violated over accepted SLAs of the tier (a Gold or Silver
//!   job late or lost for good); Bronze is never violated (its dropped jobs are
//!   `bronze_lost`); `all` is every violation over every accepted SLA.
//! - `rescheduled_pct`: accepted jobs moved at least once by Algorithm 1 over accepted
//!   jobs; `moved_once_pct`, `moved_twice_pct`, `moved_more_pct`: their shares of the
//!   moved jobs.
//! - `bronze_wait_s`: first start minus submission of the Bronze jobs that started;
//!   quartiles by nearest rank (`q1` is the value at rank `ceil(n / 4)`).

use serde::Serialize;

use kernel::Tick;
use kernel::tiers::Tier;

use super::run::JobFate;

/// Percentages per tier, two decimals.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct PerTier {
    pub gold: f64,
    pub silver: f64,
    pub bronze: f64,
    pub all: f64,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Spread {
    pub min: Tick,
    pub q1: Tick,
    pub median: Tick,
    pub q3: Tick,
    pub max: Tick,
}

/// One run's figures.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Summary {
    pub submitted: u64,
    pub accepted: u64,
    pub rejected_pct: PerTier,
    pub violated_pct: PerTier,
    pub rescheduled_pct: f64,
    pub moved_once_pct: f64,
    pub moved_twice_pct: f64,
    pub moved_more_pct: f64,
    pub replaced: u64,
    pub bronze_lost: u64,
    pub bronze_wait_s: Spread,
}

fn pct(part: u64, whole: u64) -> f64 {
    if whole == 0 { 0.0 } else { (part as f64 * 10_000.0 / whole as f64).round() / 100.0 }
}

/// Nearest-rank quartiles of `values`.
pub fn spread(mut values: Vec<Tick>) -> Spread {
    if values.is_empty() {
        return Spread::default();
    }
    values.sort_unstable();
    let n = values.len();
    let rank = |num: usize| values[(n * num).div_ceil(4).max(1) - 1];
    Spread { min: values[0], q1: rank(1), median: rank(2), q3: rank(3), max: values[n - 1] }
}

pub fn summarise(fates: &[JobFate]) -> Summary {
    let count = |tier: Option<Tier>, f: &dyn Fn(&JobFate) -> bool| {
        fates.iter().filter(|j| tier.is_none_or(|t| j.tier == Some(t)) && f(j)).count() as u64
    };
    let per = |part: &dyn Fn(&JobFate) -> bool, whole: &dyn Fn(&JobFate) -> bool| PerTier {
        gold: pct(count(Some(Tier::Gold), part), count(Some(Tier::Gold), whole)),
        silver: pct(count(Some(Tier::Silver), part), count(Some(Tier::Silver), whole)),
        bronze: pct(count(Some(Tier::Bronze), part), count(Some(Tier::Bronze), whole)),
        all: pct(count(None, part), count(None, whole)),
    };
    let accepted = count(None, &|j| j.accepted);
    let moved = count(None, &|j| j.moves > 0);
    let waits = fates
        .iter()
        .filter(|j| j.tier == Some(Tier::Bronze))
        .filter_map(|j| j.first_start.map(|s| s - j.submitted))
        .collect();
    Summary {
        submitted: fates.len() as u64,
        accepted,
        rejected_pct: per(&|j| !j.accepted, &|_| true),
        violated_pct: per(&|j| j.accepted && j.violated, &|j| j.accepted),
        rescheduled_pct: pct(moved, accepted),
        moved_once_pct: pct(count(None, &|j| j.moves == 1), moved),
        moved_twice_pct: pct(count(None, &|j| j.moves == 2), moved),
        moved_more_pct: pct(count(None, &|j| j.moves >= 3), moved),
        replaced: fates.iter().map(|j| u64::from(j.replaced)).sum(),
        bronze_lost: count(Some(Tier::Bronze), &|j| j.lost),
        bronze_wait_s: spread(waits),
    }
}

/// The mean of several runs' summaries (the sweep's repetitions), field by field;
/// waiting-time figures are the means of the runs' figures, rounded.
pub fn mean(runs: &[Summary]) -> Summary {
    let n = runs.len().max(1) as f64;
    let avg = |f: &dyn Fn(&Summary) -> f64| (runs.iter().map(f).sum::<f64>() / n * 100.0).round() / 100.0;
    let tier = |f: &dyn Fn(&Summary) -> PerTier| PerTier {
        gold: avg(&|s| f(s).gold),
        silver: avg(&|s| f(s).silver),
        bronze: avg(&|s| f(s).bronze),
        all: avg(&|s| f(s).all),
    };
    let tick = |f: &dyn Fn(&Summary) -> Tick| avg(&|s| f(s) as f64).round() as Tick;
    Summary {
        submitted: runs.iter().map(|s| s.submitted).sum(),
        accepted: runs.iter().map(|s| s.accepted).sum(),
        rejected_pct: tier(&|s| s.rejected_pct),
        violated_pct: tier(&|s| s.violated_pct),
        rescheduled_pct: avg(&|s| s.rescheduled_pct),
        moved_once_pct: avg(&|s| s.moved_once_pct),
        moved_twice_pct: avg(&|s| s.moved_twice_pct),
        moved_more_pct: avg(&|s| s.moved_more_pct),
        replaced: runs.iter().map(|s| s.replaced).sum(),
        bronze_lost: runs.iter().map(|s| s.bronze_lost).sum(),
        bronze_wait_s: Spread {
            min: tick(&|s| s.bronze_wait_s.min),
            q1: tick(&|s| s.bronze_wait_s.q1),
            median: tick(&|s| s.bronze_wait_s.median),
            q3: tick(&|s| s.bronze_wait_s.q3),
            max: tick(&|s| s.bronze_wait_s.max),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_quartiles() {
        let s = spread(vec![5, 1, 4, 2, 3, 8, 7, 6]);
        assert_eq!(s, Spread { min: 1, q1: 2, median: 4, q3: 6, max: 8 });
        assert_eq!(spread(vec![9]), Spread { min: 9, q1: 9, median: 9, q3: 9, max: 9 });
    }
}
