//! Merged traces, as the thesis used them: `--trace` given several times merges the
//! traces on their relative submit times, ties by trace order and then line, and the
//! log header names every input with its hash.

mod common;

use common::{host_sim, scratch, stdout};
use host_sim::swf::{self, SwfOptions};

/// A job line: number, submit time, run time; every other field `-1`.
fn job(id: u32, submit: u64, run: u64) -> String {
    format!("{id} {submit} -1 {run} -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1")
}

#[test]
fn traces_merge_on_relative_submit_times() {
    let dir = scratch("merge");
    // Both start late; each is made relative to its own first job. Job numbers repeat.
    let a = [job(1, 1000, 5), job(2, 1010, 6), job(3, 1020, 7)].join("\n");
    let b = [job(1, 50, 8), job(2, 60, 9), job(3, 80, 4)].join("\n");
    let (path_a, path_b) = (dir.join("a.swf"), dir.join("b.swf"));
    std::fs::write(&path_a, a).unwrap();
    std::fs::write(&path_b, b).unwrap();
    let merged = swf::read_merged(&[&path_a, &path_b], SwfOptions::default()).unwrap();
    let got: Vec<(u32, u64, u64)> = merged.jobs.iter().map(|j| (j.id, j.release, j.p)).collect();
    // a: 0, 10, 20; b: 0, 10, 30. Ties go to a (the first trace), then line order.
    assert_eq!(got, [(1, 0, 5), (2, 0, 8), (3, 10, 6), (4, 10, 9), (5, 20, 7), (6, 30, 4)]);
    let names: Vec<&str> = merged.parts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["a.swf", "b.swf"]);

    // End to end: the header names both inputs with their hashes, and the log verifies.
    let log = dir.join("merged.log");
    let args = ["run", "--trace", path_a.to_str().unwrap(), "--trace", path_b.to_str().unwrap()];
    let out = stdout(&host_sim(&[&args[..], &["--machines", "2", "--log", log.to_str().unwrap()]].concat()));
    assert!(out.contains("a.swf + ") && out.contains("b.swf"), "{out}");
    let reader = replay::format::LogReader::open(&log).unwrap();
    let inputs: Vec<(String, String)> =
        reader.header().inputs.iter().map(|i| (i.name.clone(), i.hash.clone())).collect();
    let single = |path: &std::path::Path| swf::read(path, SwfOptions::default()).unwrap().workload.hash_hex();
    assert_eq!(inputs, [("a.swf".to_owned(), single(&path_a)), ("b.swf".to_owned(), single(&path_b))]);
    let report = replay::verify::verify(reader).unwrap();
    assert_eq!(report.events, 6 + 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn windows_keeps_the_first_windows_only() {
    let dir = scratch("windows");
    let trace = dir.join("t.swf");
    let lines: Vec<String> = (0..10).map(|k| job(k + 1, u64::from(k) * 100, 10)).collect();
    std::fs::write(&trace, lines.join("\n")).unwrap();
    let path = trace.to_str().unwrap();
    let out = stdout(&host_sim(&["run", "--trace", path, "--window", "300", "--windows", "2", "--json"]));
    let value: serde_json::Value = serde_json::from_str(&out).unwrap();
    // Releases 0..=500 fall in the first two 300 s windows.
    assert_eq!(value["jobs"], 6);
    assert_eq!(value["windows"].as_array().map(Vec::len), Some(2));
    let err = common::stderr_of_failure(&host_sim(&["run", "--trace", path, "--windows", "2"]));
    assert!(err.contains("--windows needs --window"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `run` streams a trace: a job out of order by more than the look-ahead stops the
/// run with an error naming its line, and neither the log nor the per-job table is
/// left behind; a trace out of order within it runs as if sorted whole.
#[test]
fn a_trace_out_of_order_past_the_look_ahead_stops_the_run_cleanly() {
    let dir = scratch("out-of-order");
    let count = u32::try_from(host_sim::swf::LOOKAHEAD).unwrap() + 1;
    let mut lines: Vec<String> = (1..=count).map(|k| job(k, 10 + u64::from(k), 5)).collect();
    lines.push(job(count + 1, 10, 5));
    let trace = dir.join("late.swf");
    std::fs::write(&trace, lines.join("\n")).unwrap();
    let (log, table) = (dir.join("late.log"), dir.join("late.csv"));
    let args = ["run", "--trace", trace.to_str().unwrap(), "--log", log.to_str().unwrap()];
    let err =
        common::stderr_of_failure(&host_sim(&[&args[..], &["--jobs-out", table.to_str().unwrap()]].concat()));
    let line = format!("late.swf:{}: field 2 (submit time): 10 is before the submit time 11", count + 1);
    assert!(err.contains(&line) && err.contains("sort -s -n -k2,2"), "{err}");
    assert!(!log.exists() && !table.exists() && !dir.join("late.log.tmp").exists(), "files left behind");
    std::fs::remove_dir_all(&dir).unwrap();
}
