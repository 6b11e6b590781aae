//! `sla` runs with a decision log: the log verifies with `replay`, a logged run
//! decides as an unlogged one, and the incomes recomputed from the log's records alone
//! (through `replay`'s SLA audit, which keeps every job set's requests and starts)
//! equal the host's, set by set.

mod common;

use std::path::Path;

use common::HAND_TRACE;

use host_sim::sla::cli::{self, RunArgs};
use host_sim::sla::log;
use host_sim::sla::metrics::{self, Terms};
use replay::format::LogReader;

fn args(extra: &[&str]) -> RunArgs {
    use clap::Parser;
    #[derive(Parser)]
    struct Wrap {
        #[command(flatten)]
        args: RunArgs,
    }
    let mut all = vec!["sla"];
    all.extend_from_slice(extra);
    Wrap::parse_from(all).args
}

/// The summaries recomputed from the log's records, one per job set, from what
/// `replay::model::sla::summary` (the SLA audit, without the kernel) keeps of them.
fn from_records(path: &Path, capacity: impl Fn(&[Terms]) -> u128) -> Vec<metrics::Summary> {
    replay::model::sla::summary(LogReader::open(path).unwrap())
        .unwrap()
        .sets
        .iter()
        .map(|set| {
            let terms: Vec<Terms> =
                set.requested.iter().map(|r| Terms { ts: r.ts, tf: r.tf, td: r.td, ncpu: r.ncpu }).collect();
            let starts: Vec<Option<u64>> = set
                .requested
                .iter()
                .map(|r| set.accepted.iter().find(|p| p.request.job == r.job).map(|p| p.start))
                .collect();
            metrics::summarise(&terms, &starts, capacity(&terms))
        })
        .collect()
}

fn assert_close(host: &metrics::Summary, log: &metrics::Summary, what: &str) {
    assert_eq!((host.requests, host.accepted), (log.requests, log.accepted), "{what}");
    for ((key, a), (_, b)) in host.income.entries().iter().zip(log.income.entries()) {
        assert!((a - b).abs() < 1e-9, "{what}: {key}: host {a}, log {b}");
    }
    assert!((host.cpu_utilisation - log.cpu_utilisation).abs() < 1e-9, "{what}");
    assert!((host.sla_factor - log.sla_factor).abs() < 1e-9, "{what}");
}

fn check(name: &str, extra: &[&str], capacity: impl Fn(&[Terms]) -> u128) {
    let dir = std::env::temp_dir().join(format!("sla-log-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("run.log");
    let plan = cli::plan(&args(extra)).unwrap();
    let bar = indicatif::ProgressBar::hidden();
    let (mut logged_starts, mut plain_starts) = (Vec::new(), Vec::new());
    let logged =
        log::run_logged(&plan, &path, &bar, &mut |set, r, start| logged_starts.push((set, r.job, start)))
            .unwrap();
    let plain =
        log::run_plain(&plan, &bar, &mut |set, r, start| plain_starts.push((set, r.job, start))).unwrap();
    assert_eq!(logged_starts, plain_starts, "{name}: a log changed a decision");
    let requests: u64 = logged.sets.iter().map(|s| s.summary.requests).sum();
    assert_eq!(logged_starts.len() as u64, requests, "{name}: every request settled once");
    assert_eq!(logged.sets, plain.sets, "{name}");
    replay::verify::verify(LogReader::open(&path).unwrap()).unwrap();
    let recomputed = from_records(&path, capacity);
    assert_eq!(recomputed.len(), logged.sets.len(), "{name}");
    for (i, (host, log)) in logged.sets.iter().zip(&recomputed).enumerate() {
        assert_close(&host.summary, log, &format!("{name}, set {i}"));
        assert!(host.summary.accepted > 0, "{name}: nothing accepted");
    }
    assert!(!dir.join("run.log.tmp").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

const SET_CAPACITY: u128 = 64 * 1_080_000;

#[test]
fn generated_sets_whole_batches() {
    check("whole", &["--sets", "3", "--seed", "4", "--heuristic", "min(TF - 0.8*tD)"], |_| SET_CAPACITY);
}

#[test]
fn generated_sets_online_random_order_and_a_larger_step() {
    check("online", &["--sets", "2", "--heuristic", "random", "--batch", "2h", "--step", "18m"], |_| {
        SET_CAPACITY
    });
    check("one-by-one", &["--sets", "1", "--heuristic", "max(TS + 0.72*NCPU)", "--batch", "0"], |_| {
        SET_CAPACITY
    });
}

#[test]
fn a_trace_one_request_at_a_time_and_by_the_hour() {
    let dir = std::env::temp_dir().join(format!("sla-trace-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let trace = dir.join("hand.swf");
    std::fs::write(&trace, HAND_TRACE).unwrap();
    let span = |terms: &[Terms]| {
        let first = terms.iter().map(|t| t.ts).min().unwrap();
        let last = terms.iter().map(|t| t.tf).max().unwrap();
        16 * u128::from(last - first)
    };
    let path = trace.to_str().unwrap();
    for batch in ["0", "1h", "all"] {
        check(
            &format!("trace-{batch}"),
            &[
                "--trace",
                path,
                "--heuristic",
                "min(TF + 0.5*A + 2*tL)",
                "--batch",
                batch,
                "--slot",
                "1m",
                "--step",
                "2m",
            ],
            span,
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
