//! What the host tells the kernel about the low-confidence resources: when they leave
//! and return, and how much their owners slow jobs down.
//!
//! # Seeded availability (ChaCha8, stream 3)
//! Each desktop alternates available and unavailable periods, starting available.
//! Periods are exponential (inverse transform of a 53-bit uniform, rounded to whole
//! seconds, at least 1) with means `--up-mean` and `--down-mean`; `--down-mean 0` turns
//! leaving off. The draws for desktop `k` come from the stream `3 + k`, so that a
//! desktop's periods do not depend on the others.
//!
//! # Owner load (ChaCha8, stream 2)
//! A job that starts on a desktop is slowed by its owner with probability
//! `--load-pct`: its actual run time is multiplied by a factor uniform in
//! `1 .. 1 + --load-max` (in thousandths).
//!
//! A Failure Trace Archive file (`--availability FILE`) replaces the seeded periods:
//! [`super::fta`] reads it.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use kernel::Tick;
use kernel::tiers::{Group, Resource};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A leave (`false`) or return (`true`) of resource `resource` at `t`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Change {
    pub t: Tick,
    pub resource: u8,
    pub back: bool,
}

/// The fault parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Faults {
    pub up_mean_s: Tick,
    pub down_mean_s: Tick,
    pub load_pct: u32,
    pub load_max_milli: u64,
}

/// The calibrated defaults (see docs/models/tiers.md, "Calibration, stated honestly":
/// chosen on No-QoS, mix A, only).
pub const DEFAULT_FAULTS: Faults =
    Faults { up_mean_s: 10_800, down_mean_s: 900, load_pct: 30, load_max_milli: 1000 };

fn exponential(rng: &mut ChaCha8Rng, mean: Tick) -> Tick {
    let u: u64 = rng.random_range(0..1u64 << 53);
    let x = (u as f64 + 0.5) / (1u64 << 53) as f64;
    ((-x.ln()) * mean as f64).round().max(1.0) as Tick
}

/// Where the seeded changes of the paper's workload end (`requests` in time order): a
/// day past the last request's deadline or submit.
pub fn paper_until(requests: &[kernel::tiers::Request]) -> Tick {
    requests.last().map_or(0, |r| r.deadline.max(r.t)) + 86_400
}

/// Where the seeded changes of a trace's SLAs end: a day past the latest deadline or
/// submit of any of them. A streamed run finds the same instant as it goes
/// ([`ChangePlan::Seeded`] with no end given).
pub fn trace_until(requests: &[kernel::tiers::Request]) -> Tick {
    requests.iter().map(|r| r.deadline.max(r.t)).max().unwrap_or(0) + 86_400
}

/// Seeded availability changes a trace's run may draw: past them, a job released
/// so late (a submit time far past any real trace's) is refused rather than waited
/// for while hundreds of millions of changes are drawn.
pub const MAX_SEEDED_CHANGES: u128 = 100_000_000;

/// The changes `volunteers` desktops make by `release`, on average, under `faults`.
fn seeded_changes(faults: Faults, volunteers: u64, release: Tick) -> u128 {
    let period = u128::from(faults.up_mean_s.saturating_add(faults.down_mean_s).max(1));
    u128::from(release) * 2 * u128::from(volunteers) / period
}

/// Why a trace job released at `release` (job `id`) is too late for the seeded
/// availability of `volunteers` desktops, or `None` when it is not (or no desktop
/// leaves).
pub fn too_late(faults: Faults, volunteers: u64, id: u32, release: Tick) -> Option<String> {
    let changes = seeded_changes(faults, volunteers, release);
    (faults.down_mean_s > 0 && changes > MAX_SEEDED_CHANGES).then(|| {
        format!(
            "trace job {id} is released {release} s after the first: the seeded availability of \
             {volunteers} volunteer desktops would change about {changes} times by then (--up-mean \
             {} s, --down-mean {} s), and at most {MAX_SEEDED_CHANGES} changes are drawn; keep the \
             jobs before it with --limit, give a longer --up-mean, or --down-mean 0 (desktops never leave)",
            faults.up_mean_s, faults.down_mean_s
        )
    })
}

/// The availability changes a run sends, in time order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChangePlan {
    /// These changes (an availability file's, or a log's).
    Listed(Vec<Change>),
    /// Drawn from the seed as the run goes ([`Seeded`]), leaves up to `until`; without
    /// it, up to a day past the latest deadline or submit of the requests
    /// ([`trace_until`]), which the run knows once every request is submitted.
    Seeded { until: Option<Tick> },
}

/// One desktop's seeded periods: its random stream and the next change it makes.
#[derive(Clone, Debug)]
struct Desktop {
    rng: ChaCha8Rng,
    resource: u8,
    /// The time of the change drawn last.
    t: Tick,
}

/// The seeded changes drawn lazily: each desktop's sequence is in time order, and
/// their merge by `(t, resource, back)` (a heap holding each desktop's next change)
/// is the order of a sort of all of them. A leave at or after the end (`until`) ends
/// its desktop's sequence, as the whole list stops there; when the end is not known
/// yet, the check waits until the leave is next and the caller knows it (see
/// [`Seeded::peek`]).
#[derive(Clone, Debug)]
pub struct Seeded {
    desktops: Vec<Desktop>,
    /// Each desktop's next change, and its index in `desktops`.
    heads: BinaryHeap<Reverse<(Change, usize)>>,
    faults: Faults,
    /// The end, when known from the start.
    until: Option<Tick>,
}

impl Seeded {
    /// The changes of every low-confidence resource of `resources`; `until`, when
    /// known, ends each desktop's sequence as its leaves are drawn.
    pub fn new(resources: &[Resource], faults: Faults, seed: u64, until: Option<Tick>) -> Self {
        let mut out = Self { desktops: Vec::new(), heads: BinaryHeap::new(), faults, until };
        if faults.down_mean_s == 0 {
            return out;
        }
        for (k, r) in resources.iter().enumerate() {
            if r.group != Group::Low {
                continue;
            }
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            rng.set_stream(3 + k as u64);
            out.desktops.push(Desktop { rng, resource: k as u8, t: 0 });
            out.draw(out.desktops.len() - 1, false);
        }
        out
    }

    /// Draws desktop `i`'s next change: a return after a leave (`back`), else a
    /// leave, kept unless it is at or after the end known from the start.
    fn draw(&mut self, i: usize, back: bool) {
        let (faults, until) = (self.faults, self.until);
        let Some(d) = self.desktops.get_mut(i) else { return };
        let mean = if back { faults.down_mean_s } else { faults.up_mean_s };
        d.t += exponential(&mut d.rng, mean);
        if !back && until.is_some_and(|u| d.t >= u) {
            return;
        }
        self.heads.push(Reverse((Change { t: d.t, resource: d.resource, back }, i)));
    }

    /// The next change. `until` is the end when the caller knows it; `None` promises
    /// that it lies past the time of any change this returns and the caller sends
    /// (true while a request is still to come: its deadline or submit is at or after
    /// the next event, and the end is a day later).
    pub fn peek(&mut self, until: Option<Tick>) -> Option<Change> {
        let until = self.until.or(until);
        loop {
            let &Reverse((change, _)) = self.heads.peek()?;
            if change.back || until.is_none_or(|u| change.t < u) {
                return Some(change);
            }
            // A leave at or after the end: its desktop changes no more.
            self.heads.pop();
        }
    }

    /// Takes the next change (the one [`Seeded::peek`] gave) and draws its desktop's
    /// following one.
    pub fn pop(&mut self) {
        if let Some(Reverse((change, i))) = self.heads.pop() {
            self.draw(i, !change.back);
        }
    }
}

/// The owner's slowdown of one start, in thousandths (1000: none).
pub fn owner_factor_milli(rng: &mut ChaCha8Rng, faults: Faults) -> u64 {
    if faults.load_pct == 0 || rng.random_range(0..100) >= faults.load_pct {
        return 1000;
    }
    1000 + rng.random_range(0..=faults.load_max_milli)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiers::testbed;

    /// The whole list as it was drawn before the lazy merge: every desktop's
    /// changes up to `until`, then one sort.
    fn sorted(resources: &[Resource], faults: Faults, seed: u64, until: Tick) -> Vec<Change> {
        let mut out = Vec::new();
        for (k, _) in resources.iter().enumerate().filter(|(_, r)| r.group == Group::Low) {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            rng.set_stream(3 + k as u64);
            let mut t = 0;
            loop {
                t += exponential(&mut rng, faults.up_mean_s);
                if t >= until {
                    break;
                }
                out.push(Change { t, resource: k as u8, back: false });
                t += exponential(&mut rng, faults.down_mean_s);
                out.push(Change { t, resource: k as u8, back: true });
            }
        }
        out.sort_unstable();
        out
    }

    fn drain(changes: &mut Seeded, until: Option<Tick>) -> Vec<Change> {
        std::iter::from_fn(|| {
            let next = changes.peek(until);
            changes.pop();
            next
        })
        .collect()
    }

    /// The merge gives the sorted list, whether the end is known from the start or
    /// only when asked, on both testbeds, with short periods so that desktops tie.
    #[test]
    fn the_lazy_merge_is_the_sorted_list() {
        let short = short_faults();
        for resources in [testbed::paper_resources(), testbed::split_resources(3, 9)] {
            for (faults, seed, until) in [(DEFAULT_FAULTS, 1, 500_000), (short, 7, 20_000), (short, 3, 1)] {
                let want = sorted(&resources, faults, seed, until);
                assert_eq!(drain(&mut Seeded::new(&resources, faults, seed, Some(until)), None), want);
                assert_eq!(drain(&mut Seeded::new(&resources, faults, seed, None), Some(until)), want);
            }
            let never = Faults { down_mean_s: 0, ..DEFAULT_FAULTS };
            assert!(drain(&mut Seeded::new(&resources, never, 1, Some(1 << 40)), None).is_empty());
        }
        let want = sorted(&testbed::split_resources(3, 9), short, 5, 30_000);
        assert!(want.len() > 1_000 && want.windows(2).any(|w| w[0].t == w[1].t));
    }

    fn short_faults() -> Faults {
        Faults { up_mean_s: 40, down_mean_s: 7, ..DEFAULT_FAULTS }
    }
}
