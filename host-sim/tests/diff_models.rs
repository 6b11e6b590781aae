//! `replay diff` over each model's own per-job fate (`replay/src/diff/NAME.rs`): two
//! runs of the same input under two configurations, whose diff must account for the
//! change in accepted jobs by its flips and compare every answered job. (The
//! service-level model's is `service_level_diff_kth.rs`.)

mod common;

use std::path::{Path, PathBuf};

use common::{host_sim, stdout};
use replay::diff::{Change, Diff, Log, diff};
use replay::format::LogReader;

/// Runs `host-sim` with `args` twice, the second time with `more` too, and diffs the logs.
fn diff_of(name: &str, args: &[&str], more: &[&str]) -> Diff {
    let dir = std::env::temp_dir().join(format!("diff-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (a, b) = (dir.join("a.log"), dir.join("b.log"));
    stdout(&host_sim(&[args, &["--log", a.to_str().unwrap()]].concat()));
    stdout(&host_sim(&[args, more, &["--log", b.to_str().unwrap()]].concat()));
    let (open_a, open_b) = (|| LogReader::open(&a), || LogReader::open(&b));
    let found = diff(&Log { name: "a.log", open: &open_a }, &Log { name: "b.log", open: &open_b });
    std::fs::remove_dir_all(&dir).unwrap();
    found.unwrap_or_else(|e| panic!("{e}"))
}

fn count(d: &Diff, change: Change) -> i128 {
    d.counts.iter().find(|(c, _)| *c == change).map_or(0, |(_, n)| i128::from(*n))
}

fn measure(d: &Diff, name: &str) -> (i128, i128) {
    let m = d.measures.iter().find(|m| m.name == name).unwrap();
    (m.a.try_into().unwrap(), m.b.try_into().unwrap())
}

/// Each job answered once in each log: every answer is a compared job, and the flips
/// account for the change in accepted and rejected jobs.
fn accounts_for_its_counts(d: &Diff) {
    assert!(!d.same_records() && !d.jobs.is_empty(), "{d:?}");
    let ((accepted_a, accepted_b), (rejected_a, rejected_b)) =
        (measure(d, "accepted"), measure(d, "rejected"));
    assert_eq!(i128::from(d.jobs_compared), accepted_a + rejected_a);
    assert_eq!(i128::from(d.jobs_compared), accepted_b + rejected_b);
    let flips = count(d, Change::RejectedToAccepted) - count(d, Change::AcceptedToRejected);
    assert_eq!(accepted_b - accepted_a, flips);
    assert_eq!(count(d, Change::OnlyInA) + count(d, Change::OnlyInB), 0);
}

fn kth() -> Option<PathBuf> {
    let trace =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz");
    if Path::new(&trace).is_file() {
        return Some(trace);
    }
    println!("NOTICE: {} is absent; the reservation diff test is skipped", trace.display());
    None
}

#[test]
fn reservation_edf_against_fifo() {
    let Some(trace) = kth() else { return };
    let args =
        ["reserve", "--trace", trace.to_str().unwrap(), "--limit", "1000", "--load", "1.5", "--flex", "long"];
    let d = diff_of("reservation", &args, &["--criterion", "fifo"]);
    assert_eq!(d.model, "reservation");
    accounts_for_its_counts(&d);
    assert!(count(&d, Change::Start) > 0 && count(&d, Change::Moves) > 0, "{:?}", d.counts);
}

#[test]
fn tiers_qos_res_against_qos() {
    let d = diff_of("tiers", &["tiers"], &["--policy", "qos"]);
    assert_eq!((d.model, d.place), ("tiers", "resource"));
    accounts_for_its_counts(&d);
    assert!(count(&d, Change::Moves) > 0, "{:?}", d.counts);
    assert_eq!(measure(&d, "moved").1, 0, "qos never moves a job");
}

#[test]
fn sla_two_heuristics() {
    let d = diff_of("sla", &["sla"], &["--heuristic", "min(TS)"]);
    assert_eq!(d.model, "sla");
    accounts_for_its_counts(&d);
    assert_eq!(i128::from(d.jobs_compared), measure(&d, "requests").0);
    // A completion is its start plus the request's duration: they change together.
    assert_eq!(count(&d, Change::Start), count(&d, Change::Completion));
}
