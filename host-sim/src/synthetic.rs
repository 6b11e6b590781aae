//! The built-in, seeded synthetic workload, used when no trace is given.
//!
//! The model, exactly (integer draws only, so every machine produces the same jobs):
//! - A ChaCha8 generator seeded with `--seed` (`seed_from_u64`) on stream
//!   [`WORKLOAD_STREAM`]; the level draw uses another stream of the same seed.
//! - `N` jobs (`--jobs`, default 10,000), numbered `1..=N`.
//! - Job 1 is released at 0; every later job `X` ticks after the previous one, with
//!   `X` uniform in `0..=2 * MEAN_INTERARRIVAL_TICKS` (mean 600 s).
//! - Processing time: a bucket `b` uniform in `0..15`, then `p` uniform in
//!   `2^b ..= min(2^(b+1) - 1, 28,800)`: log-uniform-ish between 1 s and 8 h, with
//!   mean about 3,144 s.
//! - Per job the draws are made in that order: interarrival (not for job 1), bucket,
//!   processing time.
//!
//! The offered load on `m` machines is about `3144 / (600 m)`: 5.2 on one machine
//! (clearly overloaded at any slack), 0.33 on sixteen (not overloaded).
//!
//! The input hash in a log header is the CRC-64 of [`describe`]'s text, which names
//! every parameter.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use kernel::Tick;

use replay::format::Setting;

use crate::workload::{INPUT_CRC, Job, Workload};

/// The ChaCha8 stream the workload uses.
pub const WORKLOAD_STREAM: u64 = 0;
/// Jobs in the default workload.
pub const DEFAULT_JOBS: u32 = 10_000;
/// The mean time between releases.
pub const MEAN_INTERARRIVAL_TICKS: u64 = 600;
/// Power-of-two processing time buckets: `2^0 ..` up to `2^14 ..`.
pub const BUCKETS: u32 = 15;
/// The longest processing time: 8 hours.
pub const P_MAX_TICKS: Tick = 8 * 3600;
/// The name a synthetic workload goes by in logs and summaries.
pub const NAME: &str = "synthetic";

/// Everything that decides the generated jobs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SyntheticParams {
    pub jobs: u32,
    pub seed: u64,
    pub mean_interarrival_ticks: u64,
}

impl SyntheticParams {
    /// The default model with `jobs` jobs and `seed`.
    pub fn new(jobs: u32, seed: u64) -> Self {
        Self { jobs, seed, mean_interarrival_ticks: MEAN_INTERARRIVAL_TICKS }
    }
}

/// The generator's parameters as text; its CRC-64 is the workload's input hash.
pub fn describe(params: &SyntheticParams) -> String {
    format!(
        "host-sim synthetic v1: chacha8 stream {WORKLOAD_STREAM}, seed {}, jobs {}, \
         interarrival uniform 0..={}, p bucket uniform 0..{BUCKETS} then uniform 2^b..=min(2^(b+1)-1,{P_MAX_TICKS})",
        params.seed,
        params.jobs,
        params.mean_interarrival_ticks.saturating_mul(2),
    )
}

/// Generates the workload.
pub fn generate(params: &SyntheticParams) -> Workload {
    let mut rng = ChaCha8Rng::seed_from_u64(params.seed);
    rng.set_stream(WORKLOAD_STREAM);
    let capacity = usize::try_from(params.jobs).unwrap_or(0);
    let mut jobs = Vec::with_capacity(capacity);
    let mut release: Tick = 0;
    for id in 1..=params.jobs {
        if id > 1 {
            release = release
                .saturating_add(rng.random_range(0..=params.mean_interarrival_ticks.saturating_mul(2)));
        }
        jobs.push(Job { id, release, p: draw_processing_time(&mut rng), procs: 1 });
    }
    let hash = INPUT_CRC.checksum(describe(params).as_bytes());
    Workload { settings: vec![Setting::new("jobs", params.jobs)], ..Workload::new(NAME, hash, jobs) }
}

fn draw_processing_time(rng: &mut ChaCha8Rng) -> Tick {
    let bucket = rng.random_range(0..BUCKETS);
    let low: Tick = 1 << bucket;
    let high = ((low << 1) - 1).min(P_MAX_TICKS);
    rng.random_range(low..=high)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_jobs() {
        let a = generate(&SyntheticParams::new(500, 7));
        let b = generate(&SyntheticParams::new(500, 7));
        assert_eq!(a.jobs, b.jobs);
        assert_eq!(a.hash, b.hash);
        let c = generate(&SyntheticParams::new(500, 8));
        assert_ne!(a.jobs, c.jobs);
        assert_ne!(a.hash, c.hash);
    }

    /// Pins the generator: a change here changes every synthetic log and snapshot.
    #[test]
    fn first_jobs_are_pinned() {
        let w = generate(&SyntheticParams::new(DEFAULT_JOBS, 1));
        let first = [(1, 0, 508), (2, 253, 312), (3, 593, 12_255), (4, 1445, 7), (5, 2293, 1)];
        let expected: Vec<Job> =
            first.iter().map(|&(id, release, p)| Job { id, release, p, procs: 1 }).collect();
        assert_eq!(&w.jobs[..5], expected.as_slice());
        assert_eq!(w.hash_hex(), "27d407ef9772ce6d");
        let w = generate(&SyntheticParams::new(DEFAULT_JOBS, 7));
        assert_eq!(
            w.jobs[..3],
            [
                Job { id: 1, release: 0, p: 4, procs: 1 },
                Job { id: 2, release: 324, p: 1768, procs: 1 },
                Job { id: 3, release: 1046, p: 5087, procs: 1 }
            ]
        );
        assert_eq!(w.name, "synthetic");
    }

    #[test]
    fn jobs_stay_inside_the_model() {
        let w = generate(&SyntheticParams::new(DEFAULT_JOBS, 1));
        assert_eq!(w.jobs.len(), 10_000);
        assert_eq!(w.jobs[0].release, 0);
        assert!(w.jobs.windows(2).all(|p| p[1].release - p[0].release <= 1200));
        assert!(w.jobs.iter().all(|j| (1..=P_MAX_TICKS).contains(&j.p)));
        assert!(w.jobs.iter().zip(1..).all(|(j, id)| j.id == id));
        let mean_p = w.jobs.iter().map(|j| j.p).sum::<u64>() / 10_000;
        assert!((2_800..3_500).contains(&mean_p), "mean p {mean_p}");
    }
}
