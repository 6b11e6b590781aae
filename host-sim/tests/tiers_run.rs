//! `host-sim tiers` end to end: the paper's workload under each policy, its log
//! re-verified by `replay verify` and the audit's recomputed figures equal to the
//! host's; the same seed gives the same bytes; the real NASA iPSC trace from
//! `../shared/traces/` (Failure Trace Archive files: `tiers_fta.rs`).

mod common;

use std::path::PathBuf;

use host_sim::tiers::faults::DEFAULT_FAULTS;
use host_sim::tiers::testbed::MIXES;
use host_sim::tiers::{Scenario, log};
use kernel::tiers::{Policy, Tier};
use replay::format::LogReader;
use replay::model::tiers::TiersCounts;

/// The header of a paper-workload log, its input named after the workload.
fn paper_header(scenario: &Scenario) -> replay::format::Header {
    log::header(scenario).with_input("tiers paper workload", 1)
}

fn verified(path: &std::path::Path) -> replay::verify::Report {
    let reader = LogReader::new(std::fs::File::open(path).unwrap()).unwrap();
    replay::verify::verify(reader).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_policy_logs_verify_and_the_audit_agrees_with_the_host() {
    let dir = common::scratch("tiers-policies");
    for policy in Policy::ALL {
        let scenario = Scenario::paper(policy, MIXES[2], 1, DEFAULT_FAULTS);
        let path = dir.join(format!("{}.log", policy.name()));
        let (summary, _) = log::run_logged(&scenario, &paper_header(&scenario), &path).unwrap();
        // The same run again for its fates (a run depends only on its scenario).
        let mut fates = Vec::new();
        scenario.run_observed(&mut |_, _| {}, &mut |f| fates.push(*f)).unwrap();
        let report = verified(&path);
        let Some(&counts) = report.counts::<TiersCounts>() else { panic!("not a tiers log: {report:?}") };
        let violated =
            |tier| fates.iter().filter(|f| f.tier == Some(tier) && f.accepted && f.violated).count();
        assert_eq!(counts.violated_gold as usize, violated(Tier::Gold), "{}", policy.name());
        assert_eq!(counts.violated_silver as usize, violated(Tier::Silver), "{}", policy.name());
        let w = summary.bronze_wait_s;
        assert_eq!(counts.bronze_wait, [w.min, w.q1, w.median, w.q3, w.max], "{}", policy.name());
        assert_eq!(report.accepted, summary.accepted);
        if policy != Policy::NoQos {
            assert_eq!(counts.violated_gold, 0, "{}", policy.name());
        }
        if policy != Policy::QosRes {
            assert_eq!(counts.moves, 0);
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_bytes() {
    let dir = common::scratch("tiers-bytes");
    let bytes = |name: &str, seed| {
        let path = dir.join(name);
        let scenario = Scenario::paper(Policy::QosRes, MIXES[3], seed, DEFAULT_FAULTS);
        log::run_logged(&scenario, &paper_header(&scenario), &path).unwrap();
        std::fs::read(path).unwrap()
    };
    assert_eq!(bytes("a.log", 4), bytes("b.log", 4));
    assert_ne!(bytes("a.log", 4), bytes("c.log", 5));
}

#[test]
fn the_json_line_has_the_issue_keys() {
    let out = common::stdout(&common::host_sim(&[
        "tiers", "--policy", "qos-res", "--mix", "C", "--seed", "1", "--json",
    ]));
    let last = out.lines().last().unwrap();
    let value: serde_json::Value = serde_json::from_str(last).unwrap();
    for key in ["rejected_pct", "violated_pct"] {
        for tier in ["gold", "silver", "bronze", "all"] {
            assert!(value[key][tier].is_number(), "{key}.{tier} in {last}");
        }
    }
    assert!(value["rescheduled_pct"].is_number());
    for key in ["min", "q1", "median", "q3", "max"] {
        assert!(value["bronze_wait_s"][key].is_number(), "bronze_wait_s.{key}");
    }
}

#[test]
fn the_nasa_trace_runs_and_verifies() {
    let trace =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/traces/NASA-iPSC-1993-3.1-cln.swf.gz");
    if !trace.is_file() {
        println!("NOTICE: {} is absent; the real-trace test is skipped", trace.display());
        return;
    }
    let path = common::scratch("tiers-nasa").join("nasa.log");
    let out = common::stdout(&common::host_sim(&[
        "tiers",
        "--trace",
        trace.to_str().unwrap(),
        "--policy",
        "qos",
        "--limit",
        "3000",
        "--log",
        path.to_str().unwrap(),
        "--json",
    ]));
    let value: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    let report = verified(&path);
    assert_eq!(report.accepted, value["accepted"].as_u64().unwrap());
    let Some(&counts) = report.counts::<TiersCounts>() else { panic!("not a tiers log: {report:?}") };
    assert_eq!(counts.violated_gold, 0);
}
