//! `host-sim reserve` and `reserve-sweep` end to end on a small hand-made trace: the
//! JSON keys, the paper comparison, a sweep's files, and clean errors.

mod common;

use std::path::PathBuf;

use common::{HAND_TRACE, host_sim, stdout as ok};

/// A scratch directory holding the hand-made trace as `hand.swf`.
fn scratch(name: &str) -> PathBuf {
    let dir = common::scratch(&format!("reserve-{name}"));
    std::fs::write(dir.join("hand.swf"), HAND_TRACE).unwrap();
    dir
}

#[test]
fn json_has_the_papers_keys() {
    let dir = scratch("json");
    let trace = dir.join("hand.swf");
    let trace = trace.to_str().unwrap();
    let args = ["reserve", "--trace", trace, "--criterion", "fifo", "--load", "1.0", "--flex", "long"];
    let out =
        ok(&host_sim(&[&args[..], &["--fix-at", "0.5", "--window", "1d", "--seed", "1", "--json"]].concat()));
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    for key in ["utilisation_mean", "utilisation_sd", "acceptance_rate", "offer_phi_mean", "early_finishes"] {
        assert!(json.get(key).is_some(), "{key} missing: {out}");
    }
    assert_eq!(json["nodes"], 16);
    assert_eq!(json["requests"], 8);
    assert_eq!(json["windows"].as_array().map(Vec::len), Some(1));
    // Same options, same bytes.
    let again =
        ok(&host_sim(&[&args[..], &["--fix-at", "0.5", "--window", "1d", "--seed", "1", "--json"]].concat()));
    assert_eq!(out, again);
    let table = ok(&host_sim(
        &[&args[..], &["--compare-paper", "--offers", "0.5", "--estimates", "poisson80"]].concat(),
    ));
    assert!(table.contains("utilisation"), "{table}");
    assert!(table.contains("46.8 +- 3.3"), "{table}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_sweep_writes_every_figure() {
    let dir = scratch("sweep");
    let trace = dir.join("hand.swf");
    let out_dir = dir.join("figures");
    let out = ok(&host_sim(&[
        "reserve-sweep",
        "--trace",
        trace.to_str().unwrap(),
        "--window",
        "1d",
        "--out",
        out_dir.to_str().unwrap(),
    ]));
    assert!(out.contains("EDF is the best criterion"), "{out}");
    for n in 2..=7 {
        let csv = std::fs::read_to_string(out_dir.join(format!("fig{n}.csv"))).unwrap();
        assert!(csv.lines().count() > 1, "fig{n}.csv is empty");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_options_are_clean_errors() {
    let dir = scratch("errors");
    let trace = dir.join("hand.swf");
    let trace = trace.to_str().unwrap();
    for (option, value, message) in [
        ("--criterion", "sjf", "is not fifo, edf, lff, bjf or shuffle"),
        ("--flex", "huge", "is not none, short, medium or long"),
        ("--fix-at", "0.3", "is not 0, 0.25, 0.5 or 0.75"),
        ("--estimates", "wild", "is not accurate or poisson80"),
        ("--load", "0", "--load: `0` is zero; a load factor is above 0"),
        ("--load", "-1", "--load: `-1` is negative; a load factor is above 0"),
    ] {
        let output = host_sim(&["reserve", "--trace", trace, option, value]);
        assert!(!output.status.success());
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(message) && !stderr.contains("panicked"), "{stderr}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
