//! Worst-case latency of one admission: 64 machines, every queue full, and a job
//! that lands at the head of every queue, so that every machine's test walks its
//! whole queue before the queue is found full (see `support::WorstCase`).
//!
//! Run with `cargo bench -p host-sim --bench worst_case`. One row per queue
//! capacity; the rows show how the cost grows with the capacity.

mod support;

use divan::Bencher;

use support::WorstCase;

fn main() {
    divan::main();
}

/// One rejected submit, repeated on the same full state.
#[divan::bench(consts = [16, 64, 256, 1024])]
fn admission_m64<const Q: usize>(bencher: Bencher) {
    let mut worst = WorstCase::<Q>::new();
    bencher.bench_local(|| worst.step());
}
