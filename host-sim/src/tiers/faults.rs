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

/// The calibrated defaults (see the README: chosen on No-QoS, mix A, only).
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
/// submit of any of them.
pub fn trace_until(requests: &[kernel::tiers::Request]) -> Tick {
    requests.iter().map(|r| r.deadline.max(r.t)).max().unwrap_or(0) + 86_400
}

/// Seeded leave/return changes for every desktop up to `until`, in time order.
pub fn seeded(resources: &[Resource], faults: Faults, seed: u64, until: Tick) -> Vec<Change> {
    let mut out = Vec::new();
    if faults.down_mean_s == 0 {
        return out;
    }
    for (k, r) in resources.iter().enumerate() {
        if r.group != Group::Low {
            continue;
        }
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

/// The owner's slowdown of one start, in thousandths (1000: none).
pub fn owner_factor_milli(rng: &mut ChaCha8Rng, faults: Faults) -> u64 {
    if faults.load_pct == 0 || rng.random_range(0..100) >= faults.load_pct {
        return 1000;
    }
    1000 + rng.random_range(0..=faults.load_max_milli)
}
