//! SWF jobs into reservation requests, as in the paper's section 4.1.
//!
//! Per job, in the workload's (submit time, line) order, after jobs under a minute are
//! removed:
//!
//! - `R` = allocated processors (field 5), or requested processors (field 8) when the
//!   allocation is unknown (`-1`); a job with neither is left out and counted.
//! - `Te` = run time (field 4), the estimate the reservation is made for.
//! - Load: submit times (from the first job) are divided by the load factor, in
//!   thousandths and rounded down: `t * 1000 / load_milli`. Dividing every submit time
//!   divides every inter-arrival time, which is the paper's "increased frequency".
//! - Deadline `D = t + Te p`, `p ~ Poisson(5)`; `p = 0` would put the deadline at the
//!   submit time and the start before it, so `p` is raised to 1 (counted as
//!   `p_raised`). A strict reservation is `[D - Te, D]`.
//! - Flexible windows (`--flex short|medium|long`): each job flips a fair coin; on
//!   heads its deadline is pushed later by `floor(Te q / 100)` with
//!   `q ~ Poisson(25 | 50 | 100)`: the window is wider than the job by a
//!   Poisson-drawn percentage of `Te` with mean 25, 50 or 100% (the paper's
//!   "λ ← ϕ"). The start `D - Te` stays, so the window never opens before the request
//!   arrives. A widening of 0 leaves the job strict.
//! - Actual run time: `Te` (`--estimates accurate`) or `max(1, floor(Te f / 100))`,
//!   `f ~ Poisson(80)` (`poisson80`): users overestimate by about 20% on average, and
//!   the few jobs with `f > 100` overrun their reservation and are cut.
//! - The shuffle criterion's key is a `u32` drawn per job.
//!
//! Draws come from ChaCha8 seeded with `--seed` on stream [`RESERVE_STREAM`], five
//! `u64` per job in this order whatever the options: `p`, the coin, `q`, `f`, the
//! shuffle key. So a job's draws depend only on the seed and its position, and two
//! configurations differ only by what they change.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use kernel::reservation::RequestKind;
use kernel::{JobId, Tick};

use super::poisson::Poisson;
use crate::workload::Job;

/// The reservation generator's ChaCha8 stream (0 is the synthetic workload's, 1 the
/// level draw's).
pub const RESERVE_STREAM: u64 = 2;
/// Jobs shorter than this many ticks (one minute) are removed.
pub const MIN_RUN_TICKS: Tick = 60;
/// The mean of the deadline factor `p`.
pub const DEADLINE_LAMBDA: u32 = 5;
/// The mean of the actual-over-estimate percentage under `poisson80`.
pub const ESTIMATE_LAMBDA: u32 = 80;

/// The size of the flexible windows given to half of the jobs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Flex {
    None,
    Short,
    Medium,
    Long,
}

impl Flex {
    pub const ALL: [Self; 4] = [Self::None, Self::Short, Self::Medium, Self::Long];

    /// The mean widening in percent of `Te`.
    pub const fn lambda_percent(self) -> u32 {
        match self {
            Self::None => 0,
            Self::Short => 25,
            Self::Medium => 50,
            Self::Long => 100,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Short => "short",
            Self::Medium => "medium",
            Self::Long => "long",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|f| f.name() == text)
    }
}

/// How the actual run time relates to the estimate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Estimates {
    Accurate,
    Poisson80,
}

impl Estimates {
    pub const fn name(self) -> &'static str {
        match self {
            Self::Accurate => "accurate",
            Self::Poisson80 => "poisson80",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        [Self::Accurate, Self::Poisson80].into_iter().find(|e| e.name() == text)
    }
}

/// What shapes the requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MapOptions {
    pub seed: u64,
    /// The load factor in thousandths (1000 = the trace as it is).
    pub load_milli: u64,
    pub flex: Flex,
    pub estimates: Estimates,
}

/// One job as a reservation request; times in ticks from the first job (after load
/// scaling).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReserveJob {
    pub id: JobId,
    /// When the request is made (the scaled submit time).
    pub submit: Tick,
    pub nodes: u32,
    /// `Te`.
    pub estimate: Tick,
    /// How long the job really runs once started.
    pub actual: Tick,
    /// `Tr = D - Te`.
    pub ready: Tick,
    pub deadline: Tick,
    pub kind: RequestKind,
    pub shuffle_key: u32,
}

/// The requests of a workload and what was left out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Mapped {
    pub jobs: Vec<ReserveJob>,
    /// Jobs with a run time under [`MIN_RUN_TICKS`].
    pub excluded_short: u64,
    /// Jobs with neither an allocated nor a requested processor count.
    pub excluded_no_procs: u64,
    /// Jobs whose deadline factor `p` was drawn as 0 and raised to 1.
    pub p_raised: u64,
}

/// Maps release-ordered `jobs` to requests; each job's processor count is its `R`.
pub fn map_jobs(jobs: &[Job], options: &MapOptions) -> Mapped {
    let mut mapper = Mapper::new(options);
    let jobs = jobs.iter().filter_map(|job| mapper.map(job)).collect();
    Mapped { jobs, ..mapper.counts }
}

/// The mapping one job at a time, in release order: a streamed run's (see
/// [`super::stream`]) and [`map_jobs`]'s, so that both draw alike.
#[derive(Clone, Debug)]
pub struct Mapper {
    rng: ChaCha8Rng,
    deadline_factor: Poisson,
    widening: Poisson,
    overestimate: Poisson,
    options: MapOptions,
    /// What was left out and raised so far; its `jobs` stay empty.
    pub counts: Mapped,
}

impl Mapper {
    pub fn new(options: &MapOptions) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
        rng.set_stream(RESERVE_STREAM);
        Self {
            rng,
            deadline_factor: Poisson::new(DEADLINE_LAMBDA),
            widening: Poisson::new(options.flex.lambda_percent()),
            overestimate: Poisson::new(ESTIMATE_LAMBDA),
            options: *options,
            counts: Mapped::default(),
        }
    }

    /// The next job's request, or `None` (counted) when it is left out.
    pub fn map(&mut self, job: &Job) -> Option<ReserveJob> {
        let options = self.options;
        if job.p < MIN_RUN_TICKS {
            self.counts.excluded_short += 1;
            return None;
        }
        let nodes = job.procs;
        if nodes == 0 {
            self.counts.excluded_no_procs += 1;
            return None;
        }
        let rng = &mut self.rng;
        let p = self.deadline_factor.sample(rng);
        let flexible = rng.next_u64() >> 63 == 1;
        let q = self.widening.sample(rng);
        let f = self.overestimate.sample(rng);
        let shuffle_key = (rng.next_u64() >> 32) as u32;
        if p == 0 {
            self.counts.p_raised += 1;
        }
        let estimate = job.p;
        let submit = scale(job.release, options.load_milli);
        let deadline = submit.saturating_add(estimate.saturating_mul(Tick::from(p.max(1))));
        let ready = deadline - estimate;
        let widen = if flexible && options.flex != Flex::None { percent_of(estimate, q) } else { 0 };
        let (kind, deadline) = if widen > 0 {
            (RequestKind::Flexible, deadline + widen)
        } else {
            (RequestKind::Strict, deadline)
        };
        let actual = match options.estimates {
            Estimates::Accurate => estimate,
            Estimates::Poisson80 => percent_of(estimate, f).max(1),
        };
        Some(ReserveJob { id: job.id, submit, nodes, estimate, actual, ready, deadline, kind, shuffle_key })
    }
}

/// `t * 1000 / load_milli`, rounded down: a submit time under a load factor.
pub fn scale(t: Tick, load_milli: u64) -> Tick {
    let scaled = u128::from(t) * 1000 / u128::from(load_milli.max(1));
    Tick::try_from(scaled).unwrap_or(Tick::MAX)
}

/// `floor(t * percent / 100)`.
fn percent_of(t: Tick, percent: u32) -> Tick {
    Tick::try_from(u128::from(t) * u128::from(percent) / 100).unwrap_or(Tick::MAX)
}
