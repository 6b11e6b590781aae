//! Kernel decisions per second on real traces: the submits of a shared trace are
//! decoded into memory first, then only `Kernel::step` is timed.
//!
//! Run with `cargo bench -p host-sim --bench kernel`. One admission decision (accept
//! or reject) is made per submit; divan's `item/s` column is that rate. The counts of
//! every decision (starts, preempts, completes too) are printed before the table.

use std::path::{Path, PathBuf};

use divan::Bencher;
use divan::counter::ItemsCount;
use host_sim::levels::{LevelDraw, single, thesis_set};
use host_sim::swf::{SwfOptions, read};
use kernel::{Config, Event, Kernel, Level, Policy, Tick};

fn main() {
    divan::main();
}

const TRACES: &[&str] = &["NASA-iPSC-1993-3.1-cln", "KTH-SP2-1996-2.1-cln", "HPC2N-2002-2.2-cln"];

fn trace_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/traces").join(format!("{name}.swf.gz"))
}

/// The trace's submits with each job's level drawn as host-sim draws it, then a drain.
fn events(name: &str, levels: usize) -> Vec<Event> {
    let path = trace_path(name);
    let trace =
        read(&path, SwfOptions::default()).unwrap_or_else(|e| panic!("the benchmark needs the trace: {e}"));
    let mut draw = LevelDraw::new(1, levels);
    let mut events: Vec<Event> = trace
        .workload
        .jobs
        .iter()
        .map(|j| Event::Submit { t: j.release, job: j.id, p: j.p, level: draw.next_level() })
        .collect();
    events.push(Event::Advance { t: Tick::MAX });
    events
}

fn kernel<const M: usize>(machines: u16, levels: &[Level]) -> Box<Kernel<M, 256, 32>> {
    let config =
        Config { machines, policy: Policy::FirstFit, levels: heapless::Vec::from_slice(levels).unwrap() };
    Box::new(Kernel::new(config).unwrap())
}

/// Feeds every event and returns how many decisions came out.
fn replay<const M: usize>(kernel: &mut Kernel<M, 256, 32>, events: &[Event]) -> u64 {
    let mut decisions = 0u64;
    let mut sink = |_| decisions += 1;
    for event in events {
        kernel.step(*event, &mut sink);
    }
    decisions
}

fn submits(events: &[Event]) -> usize {
    events.iter().filter(|e| matches!(e, Event::Submit { .. })).count()
}

fn bench_with<const M: usize>(bencher: Bencher, name: &str, machines: u16, levels: Vec<Level>) {
    let events = events(name, levels.len());
    bencher
        .counter(ItemsCount::new(submits(&events)))
        .with_inputs(|| kernel::<M>(machines, &levels))
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

/// Levels sf 1..20, 64 machines.
#[divan::bench(args = TRACES)]
fn levels20_m64(bencher: Bencher, name: &str) {
    bench_with::<64>(bencher, name, 64, thesis_set(20));
}
