//! The real NASA iPSC trace from `../shared/traces/` (relative to the workspace root):
//! read, run on four machines, logged twice to the same bytes, and re-verified.
//! Skipped, with a notice, only when the traces folder is absent.

use std::path::PathBuf;

use host_sim::service_level::sim::{self, RunConfig};
use host_sim::swf::{self, SwfOptions};
use host_sim::workload::{Excluded, Workload};
use host_sim::{service_level::levels, window};
use replay::format::{LogReader, LogWriter};

fn nasa() -> Option<Workload> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let dir = root.join("../shared/traces");
    if !dir.is_dir() {
        println!("NOTICE: {} is absent; the real-trace test is skipped", dir.display());
        return None;
    }
    let path = dir.join("NASA-iPSC-1993-3.1-cln.swf.gz");
    Some(swf::read(&path, SwfOptions::default()).unwrap_or_else(|e| panic!("{e}")).workload)
}

fn logged(config: &RunConfig, workload: &Workload) -> (host_sim::RunReport, Vec<u8>) {
    let header = config.log_header(workload);
    let mut writer = LogWriter::new(Vec::new(), &header).unwrap();
    let report = sim::run(config, &workload.jobs, Some(&mut writer)).unwrap();
    (report, writer.finish().unwrap())
}

#[test]
fn nasa_trace_reads_runs_and_logs_deterministically() {
    let Some(workload) = nasa() else { return };
    // 18,239 job lines; 173 have run time 0 (under half a second).
    assert_eq!(workload.jobs.len(), 18_066);
    assert_eq!(workload.excluded, Excluded { run_time_nonpositive: 173, negative_submit: 0, bad_lines: 0 });
    assert_eq!(workload.hash_hex(), "1171ac5aaf0fcb5d");
    assert_eq!(workload.jobs[0].release, 0);
    assert!(workload.jobs.windows(2).all(|p| p[0].release <= p[1].release));
    assert_eq!(window::split(&workload.jobs, Some(7 * 86_400)).windows.len(), 14);

    let config = RunConfig::new(4, levels::single(2000));
    let (report, bytes) = logged(&config, &workload);
    let (again, bytes_again) = logged(&config, &workload);
    assert_eq!(report, again);
    assert!(bytes == bytes_again, "the same run gave different log bytes");

    let m = &report.mean;
    assert_eq!((m.jobs_submitted, m.jobs_accepted), (18_066.0, 16_577.0));
    assert_eq!(report.rejections.queue_full, 0);
    assert!(m.cv_l >= m.greedy_bound, "c_V^l {} below the greedy guarantee {}", m.cv_l, m.greedy_bound);
    assert!(m.mbsd <= 2.0, "an accepted job finished after its deadline");

    let reader = LogReader::new(bytes.as_slice()).unwrap();
    assert_eq!(reader.header().inputs[0].hash, "1171ac5aaf0fcb5d");
    let verified = replay::verify::verify(reader).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(verified.accepted, 16_577);
    assert_eq!(verified.events, report.events);
    assert_eq!(verified.decisions, report.decisions);
}

#[test]
fn nasa_trace_multi_level_windows() {
    let Some(workload) = nasa() else { return };
    let config = RunConfig {
        seed: 7,
        window_ticks: Some(7 * 86_400),
        ..RunConfig::new(4, levels::build(&[1000, 2000, 3000, 4000, 5000], None).unwrap())
    };
    let report = sim::run(&config, &workload.jobs, None).unwrap();
    assert_eq!(report.windows_simulated, 14);
    assert_eq!(report.windows_empty, 0);
    let submitted: f64 = report.windows.iter().map(|w| w.metrics.jobs_submitted).sum();
    assert_eq!(submitted, 18_066.0);
    assert!(report.windows.iter().all(|w| w.metrics.mbsd <= 5.0));
}
