//! The paper's testbed (Table 1) and workload (§6.2), and SWF traces mapped to SLAs.
//!
//! # Testbed
//! Resource 0 is the cluster: three nodes, high-confidence, speed 1667 (3.0 GHz against
//! the 1.8 GHz Opteron desktops, which are speed 1000). Resources 1 to 9 are the nine
//! single-node desktops, low-confidence: six at 1000, then 3.2, 3.0 and 3.4 GHz, that
//! is 1778, 1667 and 1889.
//!
//! # Workload (seeded, ChaCha8, stream 1)
//! - Arrivals: two hours cut into 60 periods of 120 s; each period draws a count
//!   uniform in 0..=6 ("at most 6 per 120 s") and that many instants uniform in the
//!   period, sorted.
//! - Tier: a draw in 0..100 against the mix (Table 2: Gold 20%, Silver 40/50/60/70%,
//!   Bronze the rest).
//! - Window: start `tS` uniform in 0..=7200 s after submission, length uniform in
//!   600..=1200 s (10 to 20 minutes).
//! - Work: uniform in 180..=600 s on a speed-1000 desktop ("a few minutes": the 3node
//!   benchmark with a random processing scale; the paper gives no figure, this is ours,
//!   chosen before any run so that the mean offered load, 1.5 SLAs a minute of 6.5
//!   minutes each, is about 60% of the testbed's 16.3 reference nodes: "barely less
//!   than the maximum rate of productivity" at the peak of 6 per 120 s).
//! - Actual run time: the estimate times a factor uniform in 0.80..=1.00 (estimates are
//!   the SA-Layer's pessimistic predictions, so reserved Gold jobs never overrun), then,
//!   on a low-confidence resource, the owner's load (see [`super::faults`]).
//!
//! # SWF traces
//! Each job is one SLA: submitted at its submit time, `work` its run time; the tier is
//! drawn from the mix (seeded, stream 1); Gold and Silver get the window
//! `[submit, submit + 3 * run]` (a slack of 3), Bronze none. Resources: one cluster of
//! `--reliable N` nodes (high-confidence) and `--volunteer M` single-node desktops, all
//! at speed 1000.
//!
//! A job's size (its processor count by the shared rule, `crate::input`) is not used,
//! and a job without one (`-1` in fields 5 and 8) is kept like any other: the tiers
//! kernel's SLA has no node count and places every job on one node (the paper's jobs
//! are single-node), so a job of any width is one single-node job of its run time.
//! Giving the kernel multi-node jobs would change its placement (a node count per
//! calendar slot), its records and the log format; `host-sim tiers` counts the jobs
//! wider than one node on standard error instead.

use kernel::Tick;
use kernel::tiers::{Group, Request, Resource, Tier};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::TiersError;
use crate::swf::SwfError;
use crate::workload::{Job, Workload};

/// A tier mix of Table 2, as percentages of Gold and Silver (Bronze is the rest).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mix {
    pub name: char,
    pub gold_pct: u32,
    pub silver_pct: u32,
}

pub const MIXES: [Mix; 4] = [
    Mix { name: 'A', gold_pct: 20, silver_pct: 40 },
    Mix { name: 'B', gold_pct: 20, silver_pct: 50 },
    Mix { name: 'C', gold_pct: 20, silver_pct: 60 },
    Mix { name: 'D', gold_pct: 20, silver_pct: 70 },
];

impl Mix {
    pub fn from_name(name: &str) -> Option<Self> {
        MIXES.into_iter().find(|m| name.eq_ignore_ascii_case(&m.name.to_string()))
    }

    fn draw(&self, rng: &mut ChaCha8Rng) -> Tier {
        let u: u32 = rng.random_range(0..100);
        if u < self.gold_pct {
            Tier::Gold
        } else if u < self.gold_pct + self.silver_pct {
            Tier::Silver
        } else {
            Tier::Bronze
        }
    }
}

/// Table 1: the cluster, then the nine desktops.
pub fn paper_resources() -> Vec<Resource> {
    let desktop = |speed_milli| Resource { group: Group::Low, nodes: 1, speed_milli };
    let mut r = vec![Resource { group: Group::High, nodes: 3, speed_milli: 1667 }];
    r.extend([1000, 1000, 1000, 1000, 1000, 1000, 1778, 1667, 1889].map(desktop));
    r
}

/// One cluster of `reliable` nodes and `volunteer` desktops, all at speed 1000.
pub fn split_resources(reliable: u32, volunteer: u32) -> Vec<Resource> {
    let mut r = Vec::new();
    if reliable > 0 {
        r.push(Resource { group: Group::High, nodes: reliable, speed_milli: 1000 });
    }
    r.extend((0..volunteer).map(|_| Resource { group: Group::Low, nodes: 1, speed_milli: 1000 }));
    r
}

/// The cluster's nodes and the desktops of a trace run without `--reliable` and
/// `--volunteer`.
pub const TRACE_RESOURCES: (u32, u32) = (3, 9);

/// [`split_resources`] of the options `--reliable` and `--volunteer` (their defaults
/// where not given), refused where they make no resource, or more than the kernel
/// holds, with the options named.
pub fn trace_resources(reliable: Option<u32>, volunteer: Option<u32>) -> Result<Vec<Resource>, TiersError> {
    let (reliable, volunteer) =
        (reliable.unwrap_or(TRACE_RESOURCES.0), volunteer.unwrap_or(TRACE_RESOURCES.1));
    let options = format!("--reliable {reliable} --volunteer {volunteer}");
    let most = replay::engine::tiers::RESOURCES;
    let count = u64::from(reliable > 0) + u64::from(volunteer);
    if count == 0 {
        return Err(TiersError::Usage(format!(
            "{options}: no resource to run on (a cluster of --reliable N nodes, --volunteer M desktops, or both)"
        )));
    }
    if count > most as u64 {
        let cluster = if reliable > 0 { "one for the cluster of --reliable nodes and " } else { "" };
        return Err(TiersError::Usage(format!(
            "{options}: {count} resources ({cluster}one for each of the {volunteer} --volunteer desktops), \
             and the tiers kernel holds at most {most}: --volunteer is at most {} {}",
            most - usize::from(reliable > 0),
            if reliable > 0 { "beside a cluster" } else { "without a cluster" }
        )));
    }
    Ok(split_resources(reliable, volunteer))
}

/// `--reliable` and `--volunteer` size a trace run's resources: without `--trace`
/// the paper's testbed runs, and either is refused rather than ignored.
pub fn refuse_sizes_without_trace(reliable: Option<u32>, volunteer: Option<u32>) -> Result<(), TiersError> {
    let given = [("--reliable", reliable), ("--volunteer", volunteer)];
    match given.iter().find(|(_, value)| value.is_some()) {
        Some((option, Some(value))) => Err(TiersError::Usage(format!(
            "{option} {value}: sizes the resources of a --trace run; without --trace the paper's testbed \
             (Table 1: a 3-node cluster and 9 desktops) runs"
        ))),
        _ => Ok(()),
    }
}

pub const PAPER_DURATION_S: Tick = 7200;

fn rng(seed: u64, stream: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(stream);
    rng
}

/// §6.2's workload for `mix`, seeded.
pub fn paper_workload(mix: Mix, seed: u64) -> Vec<Request> {
    let mut rng = rng(seed, 1);
    let mut out = Vec::new();
    let mut job = 0u32;
    for period in 0..PAPER_DURATION_S / 120 {
        let count: u32 = rng.random_range(0..=6);
        let mut times: Vec<Tick> = (0..count).map(|_| period * 120 + rng.random_range(0..120)).collect();
        times.sort_unstable();
        for t in times {
            let tier = mix.draw(&mut rng);
            let ready = t + rng.random_range(0..=7200);
            let deadline = ready + rng.random_range(600..=1200);
            let work = rng.random_range(180..=600);
            out.push(Request { t, job, tier, work, ready, deadline });
            job += 1;
        }
    }
    out
}

/// One trace job as an SLA, its tier drawn by `mix` from `rng` (see the module
/// documentation).
fn trace_request(j: &Job, mix: Mix, rng: &mut ChaCha8Rng) -> Request {
    let tier = mix.draw(rng);
    let deadline = j.release.saturating_add(j.p.saturating_mul(3));
    Request { t: j.release, job: j.id, tier, work: j.p, ready: j.release, deadline }
}

/// A trace's jobs as SLAs (see the module documentation).
pub fn trace_workload(workload: &Workload, mix: Mix, seed: u64) -> Vec<Request> {
    let mut rng = rng(seed, 1);
    workload.jobs.iter().map(|j| trace_request(j, mix, &mut rng)).collect()
}

/// [`trace_workload`] over a stream of jobs, one at a time: the same draws in the
/// same order; counts the jobs wider than one processor as they pass.
#[derive(Debug)]
pub struct TraceRequests<I> {
    jobs: I,
    mix: Mix,
    rng: ChaCha8Rng,
    /// Jobs so far with more than one processor.
    pub wide: u64,
}

impl<I> TraceRequests<I> {
    pub fn new(jobs: I, mix: Mix, seed: u64) -> Self {
        Self { jobs, mix, rng: rng(seed, 1), wide: 0 }
    }
}

impl<I: Iterator<Item = Result<Job, SwfError>>> Iterator for TraceRequests<I> {
    type Item = Result<Request, TiersError>;

    fn next(&mut self) -> Option<Self::Item> {
        Some(self.jobs.next()?.map_err(TiersError::from).map(|j| {
            self.wide += u64::from(j.procs > 1);
            trace_request(&j, self.mix, &mut self.rng)
        }))
    }
}
