//! `replay diff` end to end on the KTH SP2 trace from `../shared/traces/`: `host-sim
//! run` on 4 machines at sf 2 under first fit and under best fit, each with its log and
//! its per-job CSV; the diff of the two logs lists exactly the jobs whose CSV rows
//! differ, and its counts agree with the two runs' summaries. (The `replay` binary
//! belongs to another package, so the diff is called as the library it runs.) Skipped,
//! with a notice, only when the traces folder is absent.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::{host_sim, stdout};
use replay::diff::{Change, Diff, Log, diff};
use replay::format::LogReader;

/// Runs `policy` on KTH, 4 machines, sf 2: its JSON summary and its per-job rows by job.
fn kth_run(trace: &Path, dir: &Path, policy: &str) -> (serde_json::Value, BTreeMap<u32, String>) {
    let log = dir.join(format!("{policy}.log"));
    let jobs = dir.join(format!("{policy}.csv"));
    let (log_arg, jobs_arg) = (log.to_str().unwrap(), jobs.to_str().unwrap());
    let trace = trace.to_str().unwrap();
    let args = ["run", "--trace", trace, "--machines", "4", "--slack", "2", "--policy", policy];
    let output = host_sim(&[&args[..], &["--log", log_arg, "--jobs-out", jobs_arg, "--json"]].concat());
    let summary = serde_json::from_str(&stdout(&output)).unwrap();
    let csv = std::fs::read_to_string(&jobs).unwrap();
    // window,window_start,job,class,submit,size,work,ready,deadline |
    // outcome,reason,start,finish,place,pieces,interruptions (one window: no offset)
    let rows = csv
        .lines()
        .skip(1)
        .map(|row| {
            let fields: Vec<&str> = row.split(',').collect();
            (fields[2].parse().unwrap(), fields[9..].join(","))
        })
        .collect();
    (summary, rows)
}

fn count(d: &Diff, change: Change) -> i128 {
    d.counts.iter().find(|(c, _)| *c == change).map_or(0, |(_, n)| i128::from(*n))
}

fn measure(d: &Diff, name: &str) -> (i128, i128) {
    let m = d.measures.iter().find(|m| m.name == name).unwrap();
    (m.a.try_into().unwrap(), m.b.try_into().unwrap())
}

#[test]
fn first_fit_against_best_fit_on_kth() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let trace = root.join("../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz");
    if !trace.is_file() {
        println!("NOTICE: {} is absent; the KTH diff test is skipped", trace.display());
        return;
    }
    let dir = std::env::temp_dir().join(format!("diff-kth-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (first, first_rows) = kth_run(&trace, &dir, "first-fit");
    let (best, best_rows) = kth_run(&trace, &dir, "best-fit");
    let (a, b) = (dir.join("first-fit.log"), dir.join("best-fit.log"));
    let (open_a, open_b) = (|| LogReader::open(&a), || LogReader::open(&b));
    let d = diff(&Log { name: "first-fit.log", open: &open_a }, &Log { name: "best-fit.log", open: &open_b })
        .unwrap_or_else(|e| panic!("{e}"));
    std::fs::remove_dir_all(&dir).unwrap();

    // Every job whose row differs, and no other, is listed.
    let changed: Vec<u32> =
        first_rows.iter().filter(|(job, row)| best_rows.get(job) != Some(row)).map(|(j, _)| *j).collect();
    assert_eq!(d.jobs.iter().map(|j| j.job).collect::<Vec<_>>(), changed);
    assert_eq!(d.jobs_compared, 28_468);
    assert!(!d.same_records());
    assert!(
        d.header.iter().any(|h| h.key == "machines" && h.b.as_deref().is_some_and(|b| b.contains("BestFit")))
    );

    // The counts are the runs' own, and the flips account for their differences.
    let summary = |run: &serde_json::Value, key: &str| run["mean"][key].as_f64().unwrap() as i128;
    let (accepted_a, accepted_b) = measure(&d, "accepted");
    assert_eq!((accepted_a, accepted_b), (summary(&first, "jobs_accepted"), summary(&best, "jobs_accepted")));
    let flips = count(&d, Change::RejectedToAccepted) - count(&d, Change::AcceptedToRejected);
    assert_eq!(accepted_b - accepted_a, flips);
    let (rejected_a, rejected_b) = measure(&d, "rejected");
    assert_eq!(rejected_b - rejected_a, -flips);
    assert_eq!(
        measure(&d, "events"),
        (i128::from(first["events"].as_u64().unwrap()), i128::from(best["events"].as_u64().unwrap()))
    );
    assert_eq!(measure(&d, "decisions").1, i128::from(best["decisions"].as_u64().unwrap()));
    // The figures of this run, as the two summaries print them.
    assert_eq!((accepted_a, accepted_b), (15_134, 15_312));
    assert_eq!(
        (count(&d, Change::AcceptedToRejected), count(&d, Change::RejectedToAccepted)),
        (1_584, 1_762)
    );
}
