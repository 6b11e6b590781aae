//! The tiers model's speed: decisions per second of the kernel driven by the host's
//! run loop on the paper's workload (one run, `qos-res`, mix C, seed 1) and on the
//! largest shared trace (HPC2N, its first 20,000 jobs: the whole trace takes tens of
//! seconds a run), and the wall time of `tiers-sweep` with one seed (12 runs, in
//! parallel).
//!
//! Run with `cargo bench -p host-sim --bench tiers`.

mod support;

use divan::Bencher;
use divan::counter::ItemsCount;
use host_sim::tiers::faults::{self, DEFAULT_FAULTS};
use host_sim::tiers::testbed::{self, MIXES};
use host_sim::tiers::{Scenario, sweep};
use kernel::tiers::{Config, Policy};

const HPC2N: &str = "HPC2N-2002-2.2-cln";

fn main() {
    divan::main();
}

fn decisions(scenario: &Scenario) -> usize {
    scenario.run().unwrap().1.out.decisions as usize
}

#[divan::bench(sample_count = 10)]
fn paper_workload(bencher: Bencher) {
    let scenario = Scenario::paper(Policy::QosRes, MIXES[2], 1, DEFAULT_FAULTS);
    bencher.counter(ItemsCount::new(decisions(&scenario))).bench(|| scenario.run().unwrap());
}

#[divan::bench(sample_count = 3, sample_size = 1)]
fn largest_trace(bencher: Bencher) {
    let workload = support::trace(HPC2N).workload;
    let resources = testbed::split_resources(3, 9);
    let mut requests = testbed::trace_workload(&workload, MIXES[2], 1);
    requests.truncate(20_000);
    let changes = faults::ChangePlan::Seeded { until: Some(faults::trace_until(&requests)) };
    let config = Config::new(Policy::QosRes);
    let requests = host_sim::tiers::Requests::Listed(requests);
    let scenario = Scenario { config, resources, requests, changes, faults: DEFAULT_FAULTS, seed: 1 };
    bencher.counter(ItemsCount::new(decisions(&scenario))).bench(|| scenario.run().unwrap());
}

#[divan::bench(sample_count = 3, sample_size = 1)]
fn sweep_one_seed(bencher: Bencher) {
    bencher.bench(|| sweep::sweep(&[1], DEFAULT_FAULTS, &indicatif::ProgressBar::hidden()).unwrap());
}
