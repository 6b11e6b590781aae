//! SWF jobs into SLA requests, so that this model runs on the traces the other models
//! run on.
//!
//! Per job, in the workload's (submit time, line) order:
//! - `TS` = its submit time (ticks from the trace's first job): the request arrives at
//!   its earliest start.
//! - `tD` = its run time (the estimate is exact, as in the paper).
//! - `NCPU` = its allocated processors (SWF field 5), else its requested ones (field 8);
//!   a job with neither is left out and counted ([`Mapped::unknown_procs`]).
//! - `TF = TS + floor(tD * f / 1000)`, `f` uniform in `1000..=7000` thousandths: a
//!   window between 1 and 7 durations, mean 4, as in the generated sets (tightness
//!   1/4). `f` is drawn from ChaCha8
//!   seeded with `--seed` on stream [`TRACE_STREAM`], one draw per trace job in order
//!   (left-out jobs draw too), so a job's window depends only on the seed and its place.
//! - `m` = the machine's size by the rule every model shares
//!   ([`crate::input::pool_size`]): the trace header's `MaxProcs`, else the larger of
//!   its `MaxNodes` and the widest job's `NCPU`, else the widest job's `NCPU`. A job
//!   wider than `m` (only possible under `MaxProcs`) stays in and is refused by the
//!   kernel as invalid.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use kernel::Tick;

use super::metrics::Terms;
use crate::workload::Job;

/// The ChaCha8 stream of the tightness draws of trace jobs.
pub const TRACE_STREAM: u64 = 0x51A;
/// The tightness factor's range, in thousandths.
pub const FACTOR_MILLI: std::ops::RangeInclusive<u64> = 1000..=7000;

/// One request and when it is submitted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sla {
    pub job: u32,
    pub submit: Tick,
    pub terms: Terms,
}

/// A trace's requests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mapped {
    pub requests: Vec<Sla>,
    /// The machine's nodes.
    pub nodes: u32,
    /// Jobs without a processor count, left out.
    pub unknown_procs: u64,
}

/// Maps `jobs` (in workload order) with `seed`, on a machine of `nodes`.
pub fn map(jobs: &[Job], nodes: u32, seed: u64) -> Mapped {
    let mut mapper = Mapper::new(seed);
    let requests = jobs.iter().filter_map(|job| mapper.map(job)).collect();
    Mapped { requests, nodes, unknown_procs: mapper.unknown_procs }
}

/// The mapping one job at a time, in workload order: what [`map`] does over a slice,
/// and a streamed trace's run over its jobs as they come.
#[derive(Clone, Debug)]
pub struct Mapper {
    rng: ChaCha8Rng,
    /// Jobs without a processor count so far, left out.
    pub unknown_procs: u64,
}

impl Mapper {
    /// The draws of `seed`, before the first job.
    pub fn new(seed: u64) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(TRACE_STREAM);
        Self { rng, unknown_procs: 0 }
    }

    /// The next job's request, or `None` (counted) for a job without processors; a
    /// job draws its tightness either way.
    pub fn map(&mut self, job: &Job) -> Option<Sla> {
        let f = self.rng.random_range(FACTOR_MILLI);
        if job.procs == 0 {
            self.unknown_procs += 1;
            return None;
        }
        let window = u128::from(job.p) * u128::from(f) / 1000;
        let tf = job.release.saturating_add(Tick::try_from(window).unwrap_or(Tick::MAX));
        let terms = Terms { ts: job.release, tf, td: job.p, ncpu: job.procs };
        Some(Sla { job: job.id, submit: job.release, terms })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(id: u32, release: Tick, p: Tick, procs: u32) -> Job {
        Job { id, release, p, procs }
    }

    #[test]
    fn windows_are_one_to_seven_durations_from_the_submit() {
        let jobs: Vec<Job> =
            (1..=2000).map(|i| job(i, u64::from(i) * 10, 1000 + u64::from(i), 1 + i % 8)).collect();
        let mapped = map(&jobs, 8, 1);
        assert_eq!(mapped.requests.len(), 2000);
        let mut sum = 0.0;
        for (r, j) in mapped.requests.iter().zip(&jobs) {
            assert_eq!(
                (r.job, r.submit, r.terms.ts, r.terms.td, r.terms.ncpu),
                (j.id, j.release, j.release, j.p, j.procs)
            );
            let window = r.terms.tf - r.terms.ts;
            assert!((j.p..=7 * j.p).contains(&window), "{r:?}");
            sum += window as f64 / j.p as f64;
        }
        let mean = sum / 2000.0;
        assert!((3.9..4.1).contains(&mean), "mean factor {mean}");
        assert_eq!(map(&jobs, 8, 1), mapped);
        assert_ne!(map(&jobs, 8, 2), mapped);
    }

    #[test]
    fn jobs_without_processors_are_left_out_and_counted_and_keep_the_others_draws() {
        let jobs = [job(1, 0, 100, 2), job(2, 5, 100, 0), job(3, 9, 100, 4)];
        let mapped = map(&jobs, 4, 3);
        assert_eq!(mapped.unknown_procs, 1);
        assert_eq!(mapped.requests.iter().map(|r| r.job).collect::<Vec<_>>(), [1, 3]);
        let all = map(&[job(1, 0, 100, 2), job(2, 5, 100, 1), job(3, 9, 100, 4)], 4, 3);
        assert_eq!(all.requests[2], mapped.requests[1]);
    }
}
