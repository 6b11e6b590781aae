//! The figures of the issue, with their goals, from what the steps measured.

use serde_json::{Map, Value};

use super::report::{Figure, Goal};
use super::side_by_side::SideBySide;
use super::traces::ReplayFigures;

/// Every headline figure, in the order of `docs/performance.md`.
pub fn all(
    kernel: &Map<String, Value>,
    side: &SideBySide,
    replay: &ReplayFigures,
    peak_rss_mib_largest: Option<f64>,
    grid_s: f64,
    code_bytes: Option<u64>,
) -> Vec<Figure> {
    let k = |key: &str| kernel.get(key).and_then(Value::as_f64);
    let figure = |key, label, unit, value, goal| Figure { key, label, unit, value, goal };
    vec![
        figure(
            "kernel_decisions_per_s_nasa_sf2_m1",
            "kernel decisions/s, NASA, sf 2, 1 machine",
            "/s",
            k("kernel_decisions_per_s_nasa_sf2_m1"),
            Goal::AtLeast(20e6),
        ),
        figure(
            "worst_admission_ns_m64_q16",
            "worst admission, 64 machines, q 16",
            "ns",
            k("worst_admission_ns_m64_q16"),
            Goal::None,
        ),
        figure(
            "worst_admission_ns_m64_q64",
            "worst admission, 64 machines, q 64",
            "ns",
            k("worst_admission_ns_m64_q64"),
            Goal::None,
        ),
        figure(
            "worst_admission_ns_m64_q256",
            "worst admission, 64 machines, q 256",
            "ns",
            k("worst_admission_ns_m64_q256"),
            Goal::AtMost(2000.0),
        ),
        figure(
            "worst_admission_ns_m64_q1024",
            "worst admission, 64 machines, q 1024",
            "ns",
            k("worst_admission_ns_m64_q1024"),
            Goal::None,
        ),
        figure(
            "hostsim_jobs_per_s_nasa",
            "host-sim end to end, NASA",
            "jobs/s",
            Some(side.hostsim_jobs_per_s),
            Goal::None,
        ),
        figure(
            "accasim_jobs_per_s_nasa",
            "AccaSim FIFO + first fit, NASA",
            "jobs/s",
            side.accasim_jobs_per_s,
            Goal::None,
        ),
        figure(
            "ratio_vs_accasim_nasa",
            "host-sim / AccaSim jobs/s, NASA",
            "x",
            side.ratio,
            Goal::AtLeast(1000.0),
        ),
        figure(
            "hostsim_peak_rss_mib_nasa",
            "host-sim peak RSS, NASA",
            "MiB",
            side.hostsim_peak_rss_mib,
            Goal::None,
        ),
        figure(
            "accasim_peak_rss_mib_nasa",
            "AccaSim peak RSS, NASA",
            "MiB",
            side.accasim_peak_rss_mib,
            Goal::None,
        ),
        figure(
            "replay_records_per_s",
            "replay verify records/s",
            "/s",
            Some(replay.records_per_s),
            Goal::AtLeast(10e6),
        ),
        figure(
            "log_bytes_per_record",
            "log bytes per record",
            "B",
            Some(replay.bytes_per_record),
            Goal::AtMost(8.0),
        ),
        figure(
            "peak_rss_mib_largest_trace",
            "host-sim peak RSS, largest trace",
            "MiB",
            peak_rss_mib_largest,
            Goal::AtMost(64.0),
        ),
        figure("grid_wall_s", "full grid over every shared trace", "s", Some(grid_s), Goal::AtMost(60.0)),
        figure(
            "kernel_state_bytes_m4_q32",
            "kernel state, 4 machines x 32 entries",
            "B",
            k("kernel_state_bytes_m4_q32"),
            Goal::AtMost(4096.0),
        ),
        figure(
            "kernel_state_bytes_m64_q256",
            "kernel state, 64 machines x 256 entries",
            "B",
            k("kernel_state_bytes_m64_q256"),
            Goal::None,
        ),
        figure(
            "kernel_code_bytes_thumbv7em",
            "kernel code (.text), thumbv7em, opt-level s",
            "B",
            code_bytes.map(|b| b as f64),
            Goal::None,
        ),
    ]
}
