//! A reservation run with a decision log: the log is complete, carries the reservation
//! header, re-verifies with `replay`, and does not change the run's figures.

mod common;

use common::HAND_TRACE;

use host_sim::record_log;
use host_sim::reservation::{Experiment, Input, log, simulate, simulate_recorded};
use host_sim::swf::{self, SwfOptions};
use kernel::reservation::Criterion;
use replay::format::LogReader;

#[test]
fn logged_runs_verify_and_match_unlogged_ones() {
    let trace = swf::parse("hand.swf", HAND_TRACE.as_bytes(), SwfOptions::default()).unwrap();
    let input = Input { jobs: &trace.workload.jobs };
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
    let header = log::header(&experiment, &trace.workload);
    let logged =
        record_log::write(&path, &header, |record| simulate_recorded(&input, &experiment, Some(record)))
            .unwrap();
    let plain = simulate(&input, &experiment).unwrap();
    assert_eq!(logged, plain);
    assert!(plain.totals.requests == 8 && plain.totals.accepted >= 1);

    let reader = LogReader::open(&path).unwrap();
    assert_eq!(reader.header().model, header.model);
    // Every decision re-made by the reservation kernel, and the audit passes.
    replay::verify::verify(reader).unwrap();
    assert!(!dir.join("run.log.tmp").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
