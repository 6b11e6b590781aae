//! Proof that host-sim's run loop allocates nothing per event: `sim::run` over the
//! first N jobs of the NASA trace (64 machines, sf 2), the decision log written into
//! a `Vec` sized up front, with divan's allocation profiler as the global allocator.
//!
//! Run with `cargo bench -p host-sim --bench alloc`. Read the `alloc` rows: the count
//! is the same for every N, so everything allocated is set-up (the engine, the job
//! index, the level draw, the window split, the reports); the events add nothing.

mod support;

use divan::{AllocProfiler, Bencher};
use host_sim::service_level::levels::single;
use host_sim::service_level::sim::{self, RunConfig};
use host_sim::workload::Job;
use replay::format::LogWriter;

#[global_allocator]
static ALLOC: AllocProfiler = AllocProfiler::system();

/// Room for the whole log of the largest N, so that writing it never grows the `Vec`.
const LOG_BYTES: usize = 8 << 20;

fn main() {
    divan::main();
}

fn config() -> RunConfig {
    RunConfig::new(64, single(2000))
}

fn writer(config: &RunConfig, jobs: &[Job]) -> LogWriter<Vec<u8>> {
    let workload = host_sim::Workload::new("bench", 0, jobs.to_vec());
    LogWriter::new(Vec::with_capacity(LOG_BYTES), &config.log_header(&workload))
        .expect("a header fits in memory")
}

/// One run with its log; checks that the log buffer never had to grow.
fn run_logged(config: &RunConfig, jobs: &[Job], mut log: LogWriter<Vec<u8>>) -> LogWriter<Vec<u8>> {
    let report = sim::run(config, jobs, Some(&mut log)).expect("the NASA trace runs");
    assert_eq!(report.events, jobs.len() as u64 + 1);
    log
}

/// `sim::run` over the first `jobs` jobs of NASA, logged.
#[divan::bench(args = [2_000, 4_000, 8_000, 16_000], sample_count = 20, sample_size = 1)]
fn run_loop(bencher: Bencher, jobs: usize) {
    let trace = support::trace("NASA-iPSC-1993-3.1-cln");
    let jobs = &trace.workload.jobs[..jobs];
    let config = config();
    let done = run_logged(&config, jobs, writer(&config, jobs)).finish().expect("finish");
    assert_eq!(done.capacity(), LOG_BYTES, "the log buffer grew: size LOG_BYTES up");
    bencher.with_inputs(|| writer(&config, jobs)).bench_local_values(|log| run_logged(&config, jobs, log));
}
