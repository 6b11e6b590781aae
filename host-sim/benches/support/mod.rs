//! What the benchmarks share: the shared traces decoded into kernel events, kernels
//! built on the heap, and the worst-case admission setup.
//!
//! Each bench binary includes this module and uses a part of it, hence the
//! `dead_code` allowance: the alternative is one copy of these helpers per bench.

#![allow(dead_code)]

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use host_sim::service_level::levels::LevelDraw;
use host_sim::swf::{SwfOptions, Trace, read};
use kernel::Tick;
use kernel::service_level::{Config, Event, Level, Outcome, Policy, RejectReason, ServiceLevelKernel};

/// Every shared trace, smallest first (by jobs).
pub const TRACES: &[&str] = &[
    "lublin_256",
    "NASA-iPSC-1993-3.1-cln",
    "KTH-SP2-1996-2.1-cln",
    "SDSC-SP2-1998-4.2-cln",
    "CTC-SP2-1996-3.1-cln",
    "LANL-CM5-1994-4.1-cln",
    "HPC2N-2002-2.2-cln",
];

/// Level capacity of every benchmarked kernel: the engine's.
pub const LEVELS: usize = 32;

/// Machines of the worst-case admission table.
pub const WORST_MACHINES: usize = 64;

/// Stack of the thread that builds a kernel: the largest is built by value first.
const BUILD_STACK_BYTES: usize = 64 << 20;

/// `../shared/traces/NAME.swf.gz`, next to the workspace.
pub fn trace_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/traces").join(format!("{name}.swf.gz"))
}

/// The trace, read as host-sim reads it; a missing trace stops the benchmark.
pub fn trace(name: &str) -> Trace {
    read(&trace_path(name), SwfOptions::default())
        .unwrap_or_else(|e| panic!("the benchmark needs the shared trace {name}: {e}"))
}

/// The trace's submits with each job's level drawn as host-sim draws it (seed 1),
/// then an `Advance` to the end of time that drains every queue.
pub fn events(name: &str, levels: usize) -> Vec<Event> {
    let mut draw = LevelDraw::new(1, levels);
    let mut events: Vec<Event> = trace(name)
        .workload
        .jobs
        .iter()
        .map(|j| Event::Submit { t: j.release, job: j.id, p: j.p, level: draw.next_level() })
        .collect();
    events.push(Event::Advance { t: Tick::MAX });
    events
}

/// How many of `events` are submits: one admission decision each.
pub fn submits(events: &[Event]) -> usize {
    events.iter().filter(|e| matches!(e, Event::Submit { .. })).count()
}

/// A kernel at time zero on the heap, built on a big-stack thread so that any size
/// can be built from any caller.
pub fn kernel<const M: usize, const Q: usize>(
    machines: u16,
    levels: &[Level],
) -> Box<ServiceLevelKernel<M, Q, LEVELS>> {
    kernel_with::<M, Q>(machines, levels, Policy::FirstFit)
}

/// [`kernel`] under `policy`.
pub fn kernel_with<const M: usize, const Q: usize>(
    machines: u16,
    levels: &[Level],
    policy: Policy,
) -> Box<ServiceLevelKernel<M, Q, LEVELS>> {
    let levels = heapless::Vec::from_slice(levels).expect("at most 32 levels");
    let config = Config { machines, policy, levels };
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(BUILD_STACK_BYTES)
            .spawn_scoped(scope, move || {
                Box::new(ServiceLevelKernel::new(config).expect("a valid configuration"))
            })
            .expect("a thread to build the kernel on")
            .join()
            .expect("building the kernel does not panic")
    })
}

/// Feeds every event and returns how many decisions came out.
pub fn replay<const M: usize, const Q: usize>(
    kernel: &mut ServiceLevelKernel<M, Q, LEVELS>,
    events: &[Event],
) -> u64 {
    let mut decisions = 0u64;
    let mut sink = |_| decisions += 1;
    for event in events {
        kernel.step(*event, &mut sink);
    }
    decisions
}

/// A kernel whose every queue is full, and the submit that costs it the most.
///
/// Every one of the `64 * Q` queued jobs arrives at `t = 0` with `p = 1` on level 1,
/// whose slack `4 Q` leaves each of them feasible wherever it lands. The probe also
/// arrives at `t = 0` with `p = 1`, on level 0 (`sf = 1`, deadline 1): it goes to the
/// head of every queue, so each machine's test walks the whole queue behind it, passes,
/// and finds the queue full. The probe is rejected with `QueueFull` and, a rejection
/// changing nothing, it can be repeated on the same state.
pub struct WorstCase<const Q: usize> {
    pub kernel: Box<ServiceLevelKernel<WORST_MACHINES, Q, LEVELS>>,
    pub probe: Event,
}

impl<const Q: usize> WorstCase<Q> {
    pub fn new() -> Self {
        let slack = u32::try_from(4 * Q).expect("a small capacity");
        let levels = [Level::whole(1, 1), Level::whole(slack, 1)];
        let mut kernel = kernel::<WORST_MACHINES, Q>(WORST_MACHINES as u16, &levels);
        let fill = (WORST_MACHINES * Q) as u32;
        for job in 1..=fill {
            let outcome = kernel.step(Event::Submit { t: 0, job, p: 1, level: 1 }, &mut |_| {});
            assert!(matches!(outcome, Outcome::Accepted { .. }), "filling job {job}: {outcome:?}");
        }
        // One more filler is feasible everywhere: only full queues can turn it away.
        let more = kernel.step(Event::Submit { t: 0, job: fill + 1, p: 1, level: 1 }, &mut |_| {});
        assert_eq!(more, Outcome::Rejected(RejectReason::QueueFull), "every queue is full");
        let probe = Event::Submit { t: 0, job: fill + 2, p: 1, level: 0 };
        let mut worst = Self { kernel, probe };
        assert_eq!(worst.step(), Outcome::Rejected(RejectReason::QueueFull), "the probe is the worst case");
        worst
    }

    /// One probe; the outcome is returned so that the work cannot be skipped.
    #[inline]
    pub fn step(&mut self) -> Outcome {
        self.kernel.step(black_box(self.probe), &mut |d| {
            black_box(d);
        })
    }
}

/// The median of `samples` timings of `f`, after `warmup` untimed calls.
pub fn median_time(samples: usize, warmup: usize, mut f: impl FnMut() -> Duration) -> Duration {
    for _ in 0..warmup {
        black_box(f());
    }
    let mut times: Vec<Duration> = (0..samples).map(|_| f()).collect();
    times.sort_unstable();
    times[times.len() / 2]
}

/// Times one call of `f`.
pub fn time_once<T>(f: impl FnOnce() -> T) -> Duration {
    let start = Instant::now();
    black_box(f());
    start.elapsed()
}
