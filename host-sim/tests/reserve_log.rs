//! A reservation run with a decision log: the log is complete, carries the reservation
//! header, re-verifies with `replay`, and does not change the run's figures.

use std::collections::HashMap;

use host_sim::reserve::cli::log_header;
use host_sim::reserve::{Experiment, Input, log, simulate, simulate_recorded};
use host_sim::swf::{self, SwfOptions};
use kernel::reservation::Criterion;
use replay::format::LogReader;

const TRACE: &str = "\
1 0 0 600 8 -1 -1 8 900 -1 1 1 1 1 1 1 -1 -1
2 100 0 1200 16 -1 -1 16 1800 -1 1 1 1 1 1 1 -1 -1
3 200 0 900 12 -1 -1 12 900 -1 1 1 1 1 1 1 -1 -1
4 300 0 3000 10 -1 -1 10 3600 -1 1 1 1 1 1 1 -1 -1
5 400 0 1800 6 -1 -1 6 1800 -1 1 1 1 1 1 1 -1 -1
6 500 0 600 16 -1 -1 16 600 -1 1 1 1 1 1 1 -1 -1
7 600 0 2400 4 -1 -1 4 3600 -1 1 1 1 1 1 1 -1 -1
8 700 0 1200 14 -1 -1 14 1800 -1 1 1 1 1 1 1 -1 -1
";

#[test]
fn logged_runs_verify_and_match_unlogged_ones() {
    let trace = swf::parse("hand.swf", TRACE.as_bytes(), SwfOptions::default()).unwrap();
    let procs: HashMap<u32, u32> = host_sim::reserve::mapping::procs_from_text(TRACE);
    let input = Input { jobs: &trace.workload.jobs, procs: &procs };
    let experiment = Experiment {
        nodes: 16,
        window_ticks: 86_400,
        criterion: Criterion::Edf,
        offers_phi_milli: Some(1000),
        ..Experiment::paper(16)
    };
    let dir = std::env::temp_dir().join(format!("reserve-log-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("run.log");
    let header = log_header(&experiment, "hand.swf", &trace.workload, "reserve --test");
    let logged =
        log::write(&path, &header, |record| simulate_recorded(&input, &experiment, Some(record))).unwrap();
    let plain = simulate(&input, &experiment).unwrap();
    assert_eq!(logged, plain);
    assert!(plain.totals.requests == 8 && plain.totals.accepted >= 1);

    let reader = LogReader::open(&path).unwrap();
    assert_eq!(reader.header().reservation, header.reservation);
    // Every decision re-made by the reservation kernel, and the audit passes.
    replay::verify::verify(reader).unwrap();
    assert!(!dir.join("run.log.tmp").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
