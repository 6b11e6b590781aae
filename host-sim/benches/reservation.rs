//! The reservation model's speed: requests decided per second by the kernel driven by
//! the host's run loop (`reservation::simulate`: the mapping into requests, 15-day
//! windows, finishes), on the first 5,000 jobs of KTH SP2 with `host-sim reserve`'s
//! defaults, and on the paper's setting (the whole of SDSC SP2, its 128 nodes, EDF,
//! accurate estimates, no fixing, no offers), which is what `host-sim reserve` runs on
//! that trace by default.
//!
//! Run with `cargo bench -p host-sim --bench reservation`.

mod support;

use divan::Bencher;
use divan::counter::ItemsCount;
use host_sim::reservation::{Experiment, Input, simulate};
use host_sim::workload::Job;

const KTH: &str = "KTH-SP2-1996-2.1-cln";
const SDSC: &str = "SDSC-SP2-1998-4.2-cln";
/// Enough of KTH for a few seconds of samples; the whole trace is its own bench below.
const FIRST_JOBS: usize = 5_000;

fn main() {
    divan::main();
}

/// The trace's jobs (the first `jobs` of them, if given) and its pool, as
/// `host-sim reserve` reads them: MaxNodes, else MaxProcs, else 128 nodes.
fn workload(name: &str, jobs: Option<usize>) -> (Vec<Job>, u32) {
    let trace = support::trace(name);
    let nodes = trace.max_nodes.or(trace.max_procs).and_then(|n| u32::try_from(n).ok()).unwrap_or(128);
    let mut jobs_read = trace.workload.jobs;
    jobs_read.truncate(jobs.unwrap_or(usize::MAX));
    (jobs_read, nodes)
}

/// How many requests one run decides: every request the kernel answered.
fn requests(input: &Input<'_>, experiment: &Experiment) -> usize {
    simulate(input, experiment).unwrap().totals.requests as usize
}

#[divan::bench(sample_count = 20, sample_size = 1)]
fn shared_trace(bencher: Bencher) {
    let (jobs, nodes) = workload(KTH, Some(FIRST_JOBS));
    let input = Input { jobs: &jobs };
    let experiment = Experiment::paper(nodes);
    bencher.counter(ItemsCount::new(requests(&input, &experiment))).bench(|| simulate(&input, &experiment));
}

#[divan::bench(sample_count = 3, sample_size = 1)]
fn paper_setting(bencher: Bencher) {
    let (jobs, nodes) = workload(SDSC, None);
    let input = Input { jobs: &jobs };
    let experiment = Experiment::paper(nodes);
    bencher.counter(ItemsCount::new(requests(&input, &experiment))).bench(|| simulate(&input, &experiment));
}
