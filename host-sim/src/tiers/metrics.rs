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

use rustc_hash::FxHashMap;

use serde::{Deserialize, Serialize};

use kernel::Tick;
use kernel::tiers::Tier;

use super::run::JobFate;

/// Percentages per tier, two decimals.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PerTier {
    pub gold: f64,
    pub silver: f64,
    pub bronze: f64,
    pub all: f64,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Spread {
    pub min: Tick,
    pub q1: Tick,
    pub median: Tick,
    pub q3: Tick,
    pub max: Tick,
}

/// One run's figures.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
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
pub fn spread(values: Vec<Tick>) -> Spread {
    let mut counts = FxHashMap::default();
    values.into_iter().for_each(|v| *counts.entry(v).or_insert(0) += 1);
    spread_counted(&counts)
}

/// Nearest-rank quartiles of the values counted in `counts` (value to how many).
fn spread_counted(counts: &FxHashMap<Tick, u64>) -> Spread {
    // Sorted once at the end: the counting is on the run's main thread, per SLA.
    let mut counts: Vec<(Tick, u64)> = counts.iter().map(|(&v, &n)| (v, n)).collect();
    counts.sort_unstable();
    let n: u64 = counts.iter().map(|&(_, n)| n).sum();
    let (Some(&(min, _)), Some(&(max, _))) = (counts.first(), counts.last()) else {
        return Spread::default();
    };
    // The values at ranks ceil(n / 4), ceil(n / 2) and ceil(3n / 4), in one walk.
    let ranks = [1, 2, 3].map(|num: u64| (n * num).div_ceil(4).max(1));
    let mut found = [max; 3];
    let (mut seen, mut next) = (0u64, 0usize);
    for (value, count) in counts {
        seen += count;
        while ranks.get(next).is_some_and(|&rank| rank <= seen) {
            found[next] = value;
            next += 1;
        }
    }
    Spread { min, q1: found[0], median: found[1], q3: found[2], max }
}

/// Counts per tier: Gold, Silver, Bronze.
type Tiers = [u64; 3];

fn tier_index(tier: Tier) -> usize {
    match tier {
        Tier::Gold => 0,
        Tier::Silver => 1,
        Tier::Bronze => 2,
    }
}

/// A run's figures gathered one SLA at a time, in any order, as each fate is final:
/// counts, and the Bronze waits as a count of each distinct wait (so that the
/// quartiles stay exact in memory that grows with the distinct waits only).
#[derive(Clone, Debug, Default)]
pub struct Tally {
    submitted: Tiers,
    accepted: Tiers,
    violated: Tiers,
    /// Accepted SLAs without a tier (none come from the run loop; kept for `all`).
    untiered: [u64; 3],
    /// SLAs moved once, twice, more.
    moved: [u64; 3],
    replaced: u64,
    bronze_lost: u64,
    waits: FxHashMap<Tick, u64>,
}

impl Tally {
    /// Counts one SLA's final fate.
    pub fn add(&mut self, j: &JobFate) {
        let counts = match j.tier {
            Some(tier) => {
                let i = tier_index(tier);
                self.submitted[i] += 1;
                if j.accepted {
                    self.accepted[i] += 1;
                }
                if j.accepted && j.violated {
                    self.violated[i] += 1;
                }
                if tier == Tier::Bronze {
                    self.bronze_lost += u64::from(j.lost);
                    if let Some(start) = j.first_start {
                        *self.waits.entry(start - j.submitted).or_insert(0) += 1;
                    }
                }
                None
            }
            None => Some(&mut self.untiered),
        };
        if let Some(u) = counts {
            u[0] += 1;
            u[1] += u64::from(j.accepted);
            u[2] += u64::from(j.accepted && j.violated);
        }
        if let Some(n) = j.moves.checked_sub(1) {
            self.moved[n.min(2) as usize] += 1;
        }
        self.replaced += u64::from(j.replaced);
    }

    pub fn summary(&self) -> Summary {
        let all = |t: &Tiers, u: u64| t.iter().sum::<u64>() + u;
        let (submitted, accepted) =
            (all(&self.submitted, self.untiered[0]), all(&self.accepted, self.untiered[1]));
        let violated = all(&self.violated, self.untiered[2]);
        let rejected = |i: usize| self.submitted[i] - self.accepted[i];
        let moved = self.moved.iter().sum();
        Summary {
            submitted,
            accepted,
            rejected_pct: PerTier {
                gold: pct(rejected(0), self.submitted[0]),
                silver: pct(rejected(1), self.submitted[1]),
                bronze: pct(rejected(2), self.submitted[2]),
                all: pct(submitted - accepted, submitted),
            },
            violated_pct: PerTier {
                gold: pct(self.violated[0], self.accepted[0]),
                silver: pct(self.violated[1], self.accepted[1]),
                bronze: pct(self.violated[2], self.accepted[2]),
                all: pct(violated, accepted),
            },
            rescheduled_pct: pct(moved, accepted),
            moved_once_pct: pct(self.moved[0], moved),
            moved_twice_pct: pct(self.moved[1], moved),
            moved_more_pct: pct(self.moved[2], moved),
            replaced: self.replaced,
            bronze_lost: self.bronze_lost,
            bronze_wait_s: spread_counted(&self.waits),
        }
    }
}

/// The figures of every SLA's fate in `fates`.
pub fn summarise(fates: &[JobFate]) -> Summary {
    let mut tally = Tally::default();
    fates.iter().for_each(|j| tally.add(j));
    tally.summary()
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
    use crate::tiers::Scenario;
    use crate::tiers::faults::DEFAULT_FAULTS;
    use crate::tiers::testbed::MIXES;
    use kernel::tiers::Policy;

    #[test]
    fn nearest_rank_quartiles() {
        let s = spread(vec![5, 1, 4, 2, 3, 8, 7, 6]);
        assert_eq!(s, Spread { min: 1, q1: 2, median: 4, q3: 6, max: 8 });
        assert_eq!(spread(vec![9]), Spread { min: 9, q1: 9, median: 9, q3: 9, max: 9 });
        assert_eq!(spread(vec![3, 3, 1, 3, 9]), Spread { min: 1, q1: 3, median: 3, q3: 3, max: 9 });
        assert_eq!(spread(Vec::new()), Spread::default());
    }

    /// The figures as they were computed from the whole list of fates, before the
    /// tally: each count a pass over the list, the waits sorted.
    fn whole(fates: &[JobFate]) -> Summary {
        let count = |tier: Option<Tier>, f: &dyn Fn(&JobFate) -> bool| {
            fates.iter().filter(|j| tier.is_none_or(|t| j.tier == Some(t)) && f(j)).count() as u64
        };
        let per = |part: &dyn Fn(&JobFate) -> bool, whole: &dyn Fn(&JobFate) -> bool| PerTier {
            gold: pct(count(Some(Tier::Gold), part), count(Some(Tier::Gold), whole)),
            silver: pct(count(Some(Tier::Silver), part), count(Some(Tier::Silver), whole)),
            bronze: pct(count(Some(Tier::Bronze), part), count(Some(Tier::Bronze), whole)),
            all: pct(count(None, part), count(None, whole)),
        };
        let (accepted, moved) = (count(None, &|j| j.accepted), count(None, &|j| j.moves > 0));
        let mut waits: Vec<Tick> = fates
            .iter()
            .filter(|j| j.tier == Some(Tier::Bronze))
            .filter_map(|j| j.first_start.map(|s| s - j.submitted))
            .collect();
        waits.sort_unstable();
        let n = waits.len();
        let rank = |num: usize| waits[(n * num).div_ceil(4).max(1) - 1];
        let bronze_wait_s = if n == 0 {
            Spread::default()
        } else {
            Spread { min: waits[0], q1: rank(1), median: rank(2), q3: rank(3), max: waits[n - 1] }
        };
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
            bronze_wait_s,
        }
    }

    /// On seeded runs of every policy and mix, the tally (fed as fates become final,
    /// out of input order) gives the whole-list figures, and the run's own summary.
    #[test]
    fn the_tally_is_the_whole_list_summary() {
        let mut moved_runs = 0;
        for (policy, mix, seed) in [
            (Policy::NoQos, MIXES[0], 1),
            (Policy::Qos, MIXES[1], 2),
            (Policy::QosRes, MIXES[2], 3),
            (Policy::QosRes, MIXES[3], 4),
        ] {
            let scenario = Scenario::paper(policy, mix, seed, DEFAULT_FAULTS);
            let mut fates = Vec::new();
            let (summary, _) = scenario.run_observed(&mut |_, _| {}, &mut |f| fates.push(*f)).unwrap();
            assert!(fates.windows(2).any(|w| w[0].seq > w[1].seq), "fates come out of input order");
            fates.sort_unstable_by_key(|f| f.seq);
            assert!(fates.iter().enumerate().all(|(i, f)| f.seq == i as u64));
            let want = whole(&fates);
            assert_eq!(summarise(&fates), want);
            assert_eq!(summary, want);
            assert!(want.accepted > 0 && want.bronze_wait_s.max > 0);
            moved_runs += usize::from(want.rescheduled_pct > 0.0);
        }
        assert!(moved_runs > 0);
    }
}
