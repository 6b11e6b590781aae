//! A trace's one set read as a stream ([`crate::input::Scanned::jobs`]) rather than
//! held whole, so that `host-sim sla --trace` holds memory that does not grow with
//! the trace: the trace is read three times.
//!
//! 1. The first pass ([`crate::input::TraceArgs::scan`]): the header's inputs, the
//!    trace's errors, and its usable jobs counted.
//! 2. The survey ([`Survey::of`]): the jobs in submit order, mapped as the run maps
//!    them ([`Mapper`]), folded into what the run needs before its first request:
//!    the widest job (the machine's size, also under `--limit`), the jobs left out,
//!    the price `k` of all requests (its sum of areas in request order, as
//!    [`super::metrics::price_k`] takes it) and the largest batch (the engine's `B`
//!    in the log's header), counted one planning interval at a time since the stream
//!    is in submit order.
//! 3. The run ([`TraceSet::run`]): the same jobs mapped again, fed to the run loop
//!    ([`super::run::run_requests`]) one at a time, each with its place in the
//!    stream, which is its place among the whole trace's requests.
//!
//! The stream's order is the whole read's (submit time, then line; merged traces by
//! release, then trace order), so the run submits, decides and sums what the whole
//! trace's run does; a trace out of order beyond the stream's look-ahead is an error
//! naming its line ([`crate::swf::LOOKAHEAD`]).

use kernel::Tick;
use kernel::sla::{Decision, Event};
use replay::engine::sla::SlaStepper;

use super::SlaError;
use super::mapping::{Mapper, Sla};
use super::metrics::Price;
use super::run::{Batch, Capacity, Largest, SetOutcome, SetTerms, run_requests};
use crate::input::Scanned;
use crate::swf::SwfError;
use crate::workload::Job;

/// What a trace's mapped jobs hold that a run needs before its first request.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Survey {
    /// The requests: jobs with a processor count.
    pub requests: u64,
    /// Jobs without a processor count, left out.
    pub left_out: u64,
    /// The largest processor count of a job (0 when none has one).
    pub widest: u32,
    /// `k` of every request.
    pub price: Price,
    /// The most requests one batch gathers under the survey's batch mode.
    pub largest: usize,
}

impl Survey {
    /// Folds `jobs` (in workload order) mapped with `seed`, batched as `batch`.
    pub fn of(
        jobs: impl Iterator<Item = Result<Job, SwfError>>,
        seed: u64,
        batch: Batch,
    ) -> Result<Self, SwfError> {
        let mut mapper = Mapper::new(seed);
        let (mut requests, mut widest, mut price, mut largest) =
            (0, 0, Price::default(), Largest::new(batch));
        for job in jobs {
            let job = job?;
            widest = widest.max(job.procs);
            let Some(r) = mapper.map(&job) else { continue };
            requests += 1;
            price.add(&r.terms);
            largest.add(r.submit);
        }
        Ok(Self { requests, left_out: mapper.unknown_procs, widest, price, largest: largest.most() })
    }
}

/// A trace's one set: its first pass, what the survey found, and how it maps.
#[derive(Debug)]
pub struct TraceSet {
    scanned: Scanned,
    seed: u64,
    nodes: u32,
    survey: Survey,
}

impl TraceSet {
    /// The set of `scanned`'s jobs mapped with `seed` on `nodes`, as `survey` (of the
    /// same jobs and seed) found them.
    pub const fn new(scanned: Scanned, seed: u64, nodes: u32, survey: Survey) -> Self {
        Self { scanned, seed, nodes, survey }
    }

    /// Runs the set on `kernel`, its jobs read again from the trace and mapped one at
    /// a time, as [`super::run::run_set`] runs the same requests held whole.
    pub fn run(
        &self,
        kernel: &mut SlaStepper,
        batch: Batch,
        observe: &mut dyn FnMut(&Event, &[Decision]),
        settle: &mut dyn FnMut(&Sla, Option<Tick>),
    ) -> Result<SetOutcome, SlaError> {
        let set = SetTerms {
            batch,
            price_k: self.survey.price.k(),
            capacity: Capacity::Span { nodes: self.nodes },
        };
        let requests = requests(self.scanned.jobs()?, self.seed);
        Ok(run_requests(kernel, requests, set, observe, settle)?)
    }
}

/// `jobs` mapped with `seed`, each request with its place among the requests.
pub fn requests(
    jobs: impl Iterator<Item = Result<Job, SwfError>>,
    seed: u64,
) -> impl Iterator<Item = Result<(u64, Sla), SwfError>> {
    let mut mapper = Mapper::new(seed);
    let mapped = jobs.filter_map(move |job| match job {
        Ok(job) => mapper.map(&job).map(Ok),
        Err(e) => Some(Err(e)),
    });
    mapped.enumerate().map(|(seq, r)| r.map(|r| (seq as u64, r)))
}

#[cfg(test)]
mod tests;
