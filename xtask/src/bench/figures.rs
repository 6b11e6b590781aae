//! The figures of the issue, with their goals, from what the steps measured.

use serde_json::{Map, Value};

use super::report::{Figure, Goal};
use super::side_by_side::SideBySide;
use super::traces::ReplayFigures;

/// Every headline figure as `(key, label, unit, goal)`, in the order of
/// `docs/performance.md`. A table rather than code, so that a figure is one line to
/// add; its value is looked up by key in [`all`].
const FIGURES: [(&str, &str, &str, Goal); 17] = [
    (
        "kernel_decisions_per_s_nasa_sf2_m1",
        "kernel decisions/s, NASA, sf 2, 1 machine",
        "/s",
        Goal::AtLeast(20e6),
    ),
    ("worst_admission_ns_m64_q16", "worst admission, 64 machines, q 16", "ns", Goal::None),
    ("worst_admission_ns_m64_q64", "worst admission, 64 machines, q 64", "ns", Goal::None),
    ("worst_admission_ns_m64_q256", "worst admission, 64 machines, q 256", "ns", Goal::AtMost(2000.0)),
    ("worst_admission_ns_m64_q1024", "worst admission, 64 machines, q 1024", "ns", Goal::None),
    ("hostsim_jobs_per_s_nasa", "host-sim end to end, NASA", "jobs/s", Goal::None),
    ("accasim_jobs_per_s_nasa", "AccaSim FIFO + first fit, NASA", "jobs/s", Goal::None),
    ("ratio_vs_accasim_nasa", "host-sim / AccaSim jobs/s, NASA", "x", Goal::AtLeast(1000.0)),
    ("hostsim_peak_rss_mib_nasa", "host-sim peak RSS, NASA", "MiB", Goal::None),
    ("accasim_peak_rss_mib_nasa", "AccaSim peak RSS, NASA", "MiB", Goal::None),
    ("replay_records_per_s", "replay verify records/s", "/s", Goal::AtLeast(10e6)),
    ("log_bytes_per_record", "log bytes per record", "B", Goal::AtMost(8.0)),
    ("peak_rss_mib_largest_trace", "host-sim peak RSS, largest trace", "MiB", Goal::AtMost(64.0)),
    ("grid_wall_s", "full grid over every shared trace", "s", Goal::AtMost(60.0)),
    ("kernel_state_bytes_m4_q32", "kernel state, 4 machines x 32 entries", "B", Goal::AtMost(4096.0)),
    ("kernel_state_bytes_m64_q256", "kernel state, 64 machines x 256 entries", "B", Goal::None),
    ("kernel_code_bytes_thumbv7em", "kernel code (.text), thumbv7em, opt-level s", "B", Goal::None),
];

/// Every headline figure, in the order of `docs/performance.md`.
pub fn all(
    kernel: &Map<String, Value>,
    side: &SideBySide,
    replay: &ReplayFigures,
    peak_rss_mib_largest: Option<f64>,
    grid_s: f64,
    code_bytes: Option<u64>,
) -> Vec<Figure> {
    let measured = |key: &str| match key {
        "hostsim_jobs_per_s_nasa" => Some(side.hostsim_jobs_per_s),
        "accasim_jobs_per_s_nasa" => side.accasim_jobs_per_s,
        "ratio_vs_accasim_nasa" => side.ratio,
        "hostsim_peak_rss_mib_nasa" => side.hostsim_peak_rss_mib,
        "accasim_peak_rss_mib_nasa" => side.accasim_peak_rss_mib,
        "replay_records_per_s" => Some(replay.records_per_s),
        "log_bytes_per_record" => Some(replay.bytes_per_record),
        "peak_rss_mib_largest_trace" => peak_rss_mib_largest,
        "grid_wall_s" => Some(grid_s),
        "kernel_code_bytes_thumbv7em" => code_bytes.map(|b| b as f64),
        // The others are the kernel figures bench's own JSON keys.
        _ => kernel.get(key).and_then(Value::as_f64),
    };
    FIGURES
        .iter()
        .map(|&(key, label, unit, goal)| Figure { key, label, unit, value: measured(key), goal })
        .collect()
}
