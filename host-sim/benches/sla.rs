//! The SLA model's speed: requests decided per second (each one's sort key at its
//! submit, the sort and the fit at the plan) on one of the paper's 384-job sets, fitted
//! whole, and on the largest shared trace (HPC2N, 202,871 requests in one-hour
//! batches on the host's engine); and the wall time of the whole `sla-sweep` (2,715
//! heuristics and weights over 100 sets, the paper's Tables 1 and 2).
//!
//! Run with `cargo bench -p host-sim --bench sla`.

mod support;

use divan::Bencher;
use divan::counter::ItemsCount;
use host_sim::sla::generator::{self, SLOT_TICKS};
use host_sim::sla::heuristic;
use host_sim::sla::mapping;
use host_sim::sla::run::{self, Batch, Input};
use host_sim::sla::sweep::{self, SweepConfig, SweepKernel};
use kernel::sla::{Event, Request};

const HPC2N: &str = "HPC2N-2002-2.2-cln";

fn main() {
    divan::main();
}

fn order() -> kernel::sla::Order {
    heuristic::parse("min(TF - 0.8*tD)").unwrap().order(1)
}

#[divan::bench(sample_count = 200)]
fn generated_set(bencher: Bencher) {
    let set = generator::generate(1, 0);
    let requests: Vec<Request> =
        set.jobs.iter().map(|j| Request { job: j.id, ts: j.ts, tf: j.tf, td: j.td, ncpu: j.ncpu }).collect();
    let mut kernel = Box::new(SweepKernel::new(sweep::kernel_config(order(), SLOT_TICKS)).unwrap());
    let mut accepted = 0u32;
    bencher.counter(ItemsCount::new(requests.len())).bench_local(|| {
        let mut sink = |d: kernel::sla::Decision| {
            if matches!(d, kernel::sla::Decision::Accept { .. }) {
                accepted += 1;
            }
        };
        kernel.step(Event::Reset { t: 0 }, &mut sink);
        for &request in &requests {
            kernel.step(Event::Submit { t: 0, request }, &mut sink);
        }
        kernel.step(Event::Plan { t: 0 }, &mut sink);
    });
    divan::black_box(accepted);
}

#[divan::bench(sample_count = 5, sample_size = 1)]
fn largest_trace(bencher: Bencher) {
    let trace = support::trace(HPC2N);
    let nodes = host_sim::input::pool_size(trace.max_procs, trace.max_nodes, &trace.workload.jobs);
    let mapped = mapping::map(&trace.workload.jobs, nodes, 1);
    let input = Input { capacity: 1, requests: mapped.requests };
    let config = run::config(nodes, SLOT_TICKS, SLOT_TICKS, order());
    bencher.counter(ItemsCount::new(input.requests.len())).bench_local(|| {
        let mut engine = replay::engine::sla::SlaEngine::new(config).unwrap();
        run::run_set(&mut engine, &input, Batch::Every(3600), &mut |_, _| {}, &mut |_, _| {})
    });
}

#[divan::bench(sample_count = 1, sample_size = 1)]
fn whole_sweep(bencher: Bencher) {
    let config = SweepConfig { sets: 100, seed: 1, step_ticks: SLOT_TICKS };
    bencher.bench(|| sweep::run(&config, &indicatif::ProgressBar::hidden()).unwrap());
}
