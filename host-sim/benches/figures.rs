//! The kernel's figures for `cargo xtask bench`, measured in-process with
//! `std::time::Instant`: decisions per second replaying each shared trace, the
//! worst-case admission latency over queue capacities, and `size_of` the kernel state.
//!
//! Run with `cargo bench -p host-sim --bench figures`. Progress and a readable
//! summary go to stderr; the last line on stdout is one JSON object with every
//! figure. Each figure is the median of many samples (31 for the headline figures),
//! taken after a few untimed warm-up runs.

mod support;

use std::hint::black_box;
use std::time::Duration;

use host_sim::service_level::levels::{single, thesis_set};
use kernel::service_level::{Event, Level, ServiceLevelKernel};
use serde_json::{Map, Value, json};

use support::{TRACES, WorstCase, events, kernel, median_time, replay, submits, time_once};

/// Samples of a headline figure.
const SAMPLES: usize = 31;
/// Samples of each per-trace figure: they are many, and for reading, not for goals.
const TRACE_SAMPLES: usize = 11;
const WARMUP: usize = 3;
/// A worst-case sample repeats the probe for about this long.
const WORST_SAMPLE: Duration = Duration::from_millis(2);
const NASA: &str = "NASA-iPSC-1993-3.1-cln";

fn main() {
    let mut figures = Map::new();
    let nasa = decisions_per_s::<1>(NASA, 1, &single(2000), SAMPLES);
    figures.insert("kernel_decisions_per_s_nasa_sf2_m1".into(), json!(nasa.round() as u64));
    let worst = [
        ("16", worst_admission_ns::<16>()),
        ("64", worst_admission_ns::<64>()),
        ("256", worst_admission_ns::<256>()),
        ("1024", worst_admission_ns::<1024>()),
    ];
    for (q, ns) in worst {
        figures.insert(format!("worst_admission_ns_m64_q{q}"), json!(round1(ns)));
    }
    figures.insert("kernel_state_bytes_m4_q32".into(), json!(size_of::<ServiceLevelKernel<4, 32, 8>>()));
    figures.insert("kernel_state_bytes_m64_q256".into(), json!(size_of::<ServiceLevelKernel<64, 256, 32>>()));
    figures.insert("kernel_decisions_per_s".into(), Value::Object(per_trace()));
    println!("{}", Value::Object(figures));
}

/// Admission decisions (submits) per second replaying `name` on `machines` machines:
/// the median over `samples` replays, each on a fresh kernel built outside the timing.
fn decisions_per_s<const M: usize>(name: &str, machines: u16, levels: &[Level], samples: usize) -> f64 {
    let events: Vec<Event> = events(name, levels.len());
    let median = median_time(samples, WARMUP, || {
        let mut k = kernel::<M, 256>(machines, levels);
        time_once(|| replay(&mut k, &events))
    });
    let rate = submits(&events) as f64 / median.as_secs_f64();
    eprintln!("{name:>24} m{machines:<2} levels {:>2}: {:>12.0} decisions/s", levels.len(), rate);
    rate
}

/// Nanoseconds of one worst-case admission at 64 machines and capacity `Q`: the
/// median over samples of about [`WORST_SAMPLE`] each.
fn worst_admission_ns<const Q: usize>() -> f64 {
    let mut worst = WorstCase::<Q>::new();
    let once = median_time(5, WARMUP, || time_once(|| worst.step()));
    let repeats = (WORST_SAMPLE.as_nanos() / once.as_nanos().max(1)).max(1) as u32;
    let median = median_time(SAMPLES, WARMUP, || {
        time_once(|| {
            for _ in 0..repeats {
                black_box(worst.step());
            }
        })
    });
    let ns = median.as_nanos() as f64 / f64::from(repeats);
    eprintln!("worst admission m64 q{Q:<4}: {ns:>10.1} ns ({repeats} probes a sample)");
    ns
}

/// The three kernel set-ups of `benches/service_level.rs` over every shared trace.
fn per_trace() -> Map<String, Value> {
    let mut traces = Map::new();
    for name in TRACES {
        let row = json!({
            "sf2_m1": decisions_per_s::<1>(name, 1, &single(2000), TRACE_SAMPLES).round() as u64,
            "sf2_m16": decisions_per_s::<16>(name, 16, &single(2000), TRACE_SAMPLES).round() as u64,
            "levels20_m64": decisions_per_s::<64>(name, 64, &thesis_set(20), TRACE_SAMPLES).round() as u64,
        });
        traces.insert((*name).to_owned(), row);
    }
    traces
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}
