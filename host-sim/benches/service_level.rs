//! Kernel decisions per second on real traces: the submits of a shared trace are
//! decoded into memory first, then only `Kernel::step` is timed.
//!
//! Run with `cargo bench -p host-sim --bench service_level`. One admission decision
//! (accept or reject) is made per submit; divan's `item/s` column is that rate, over
//! every shared trace in `../shared/traces/`.

mod support;

use divan::Bencher;
use divan::counter::ItemsCount;
use host_sim::service_level::levels::{single, thesis_set};
use kernel::service_level::Level;

use support::{TRACES, events, kernel, kernel_with, replay, submits};

fn main() {
    divan::main();
}

fn bench_with<const M: usize>(bencher: Bencher, name: &str, machines: u16, levels: Vec<Level>) {
    let events = events(name, levels.len());
    bencher
        .counter(ItemsCount::new(submits(&events)))
        .with_inputs(|| kernel::<M, 256>(machines, &levels))
        .bench_local_values(|mut k| replay(&mut k, &events));
}

/// One level, sf 2, one machine.
#[divan::bench(args = TRACES)]
fn sf2_m1(bencher: Bencher, name: &str) {
    bench_with::<1>(bencher, name, 1, single(2000));
}

/// One level, sf 2, 16 machines.
#[divan::bench(args = TRACES)]
fn sf2_m16(bencher: Bencher, name: &str) {
    bench_with::<16>(bencher, name, 16, single(2000));
}

/// Each machine-choice policy on KTH, levels sf 1..5, 16 machines: first fit and round
/// robin stop at the first feasible machine, the others test every machine (the
/// costs the kernel's crate documentation states).
#[divan::bench(args = ["first-fit", "best-fit", "worst-fit", "least-loaded", "round-robin"])]
fn policy_kth_levels5_m16(bencher: Bencher, policy: &str) {
    let policy = kernel::service_level::Policy::from_name(policy).expect("a policy name");
    let levels = thesis_set(5);
    let events = events("KTH-SP2-1996-2.1-cln", levels.len());
    bencher
        .counter(ItemsCount::new(submits(&events)))
        .with_inputs(|| kernel_with::<16, 256>(16, &levels, policy))
        .bench_local_values(|mut k| replay(&mut k, &events));
}

/// Levels sf 1..20, 64 machines.
#[divan::bench(args = TRACES)]
fn levels20_m64(bencher: Bencher, name: &str) {
    bench_with::<64>(bencher, name, 64, thesis_set(20));
}
