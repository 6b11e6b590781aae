//! `host-sim sla` and `host-sim sla-sweep` from the command line: the JSON line, the
//! errors that point at a heuristic's character, a trace with its log verified, the
//! sweep's files and printed tables, and the help.

mod common;

use common::{HAND_TRACE, host_sim, stdout};

fn last_json(text: &str) -> serde_json::Value {
    serde_json::from_str(text.lines().last().expect("a last line")).expect("the last line is JSON")
}

#[test]
fn json_has_the_issues_keys_and_the_sets_are_nearly_full() {
    let out = stdout(&host_sim(&[
        "sla",
        "--sets",
        "3",
        "--seed",
        "1",
        "--heuristic",
        "min(TF - 0.8*tD)",
        "--json",
    ]));
    let v = last_json(&out);
    for key in ["cpu_utilisation", "sla_factor", "income", "requests"] {
        assert!(v.get(key).is_some(), "no {key} in {v}");
    }
    for key in ["rigid_sla", "rigid_cpu", "rigid_fair", "asap_sla", "asap_cpu", "asap_fair"] {
        assert!(v["income"][key].as_f64().is_some(), "no income.{key} in {v}");
    }
    let (cpu, sla) = (v["cpu_utilisation"].as_f64().unwrap(), v["sla_factor"].as_f64().unwrap());
    assert!((85.0..100.0).contains(&cpu) && (85.0..100.0).contains(&sla), "{v}");
    let requests = v["requests"].as_u64().unwrap();
    assert!((1_100..1_200).contains(&requests), "{v}");
    // Rigid pays every accepted job: SLA pricing is the mean accepted count.
    let accepted = v["accepted"].as_f64().unwrap();
    assert!((v["income"]["rigid_sla"].as_f64().unwrap() - accepted / 3.0).abs() < 1e-9, "{v}");
    assert_eq!(v["heuristic"], "min(TF - 0.8*tD)");
}

#[test]
fn a_random_order_does_worse_than_min_tf_on_the_same_sets() {
    let run = |h: &str| last_json(&stdout(&host_sim(&["sla", "--sets", "4", "--heuristic", h, "--json"])));
    let (tf, random) = (run("min(TF)"), run("random"));
    assert!(tf["sla_factor"].as_f64() > random["sla_factor"].as_f64(), "{tf} vs {random}");
}

#[test]
fn a_bad_heuristic_is_shown_with_a_caret() {
    let out = host_sim(&["sla", "--sets", "1", "--heuristic", "min(TF - 0.8*tX)"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unknown term `tX`"), "{err}");
    assert!(err.contains("  min(TF - 0.8*tX)\n  "), "{err}");
    let caret = err.lines().find(|l| l.trim() == "^").expect("a caret line");
    assert_eq!(caret.find('^'), Some(2 + 13), "{err}");
    let out = host_sim(&["sla", "--sets", "1", "--heuristic", "min(TF - 0.8125*tD)"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("more than three decimal places"), "{err}");
}

#[test]
fn bad_options_name_themselves() {
    for (args, wanted) in [
        (vec!["sla", "--batch", "soon"], "--batch"),
        (vec!["sla", "--step", "5m"], "--step"),
        (vec!["sla", "--slot", "1m"], "--slot"),
        (vec!["sla", "--limit", "10"], "--limit"),
        (vec!["sla", "--sets", "0"], "--sets"),
    ] {
        let out = host_sim(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && err.contains(wanted), "{args:?}: {err}");
    }
}

/// `--batch` is a typed option: a bad one is refused, exiting with 1, before a trace
/// is read (it used to come after the trace's own errors).
#[test]
fn a_bad_batch_is_refused_before_a_bad_trace() {
    let dir = common::scratch("sla-batch-order");
    let trace = dir.join("bad.swf");
    std::fs::write(&trace, format!("{HAND_TRACE}x\n")).unwrap();
    let out = host_sim(&["sla", "--trace", trace.to_str().unwrap(), "--batch", "soon"]);
    let err = common::stderr_of_failure(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.starts_with("host-sim: error: --batch: `soon` is not a duration"), "{err}");
    assert!(err.contains("(give all, 0, or a duration such as 1h)") && !err.contains("bad.swf"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_trace_runs_online_and_its_log_verifies() {
    let dir = std::env::temp_dir().join(format!("sla-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let trace = dir.join("hand.swf");
    std::fs::write(&trace, HAND_TRACE).unwrap();
    let log = dir.join("hand.log");
    let out = stdout(&host_sim(&[
        "sla",
        "--trace",
        trace.to_str().unwrap(),
        "--heuristic",
        "min(TF - 0.8*tD)",
        "--batch",
        "1h",
        "--log",
        log.to_str().unwrap(),
        "--json",
    ]));
    let v = last_json(&out);
    assert_eq!(v["requests"], 8);
    assert_eq!(v["nodes"], 16);
    assert_eq!(v["batch_ticks"], 3600);
    let reader = replay::format::LogReader::open(&log).unwrap();
    assert!(matches!(reader.header().model, replay::format::Model::Sla(_)));
    let settings: Vec<(&str, &str)> =
        reader.header().settings.iter().map(|s| (s.key.as_str(), s.value.as_str())).collect();
    assert!(settings.contains(&("batch", "3600")), "{settings:?}");
    replay::verify::verify(reader).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_sweep_writes_its_files_and_prints_the_paper_beside_ours() {
    let dir = std::env::temp_dir().join(format!("sla-sweep-cli-{}", std::process::id()));
    let out = stdout(&host_sim(&["sla-sweep", "--sets", "1", "--out", dir.to_str().unwrap(), "--no-plots"]));
    for file in [
        "sla_points.csv",
        "sla_table1.csv",
        "sla_table2.csv",
        "sla_families.csv",
        "sla_fig3.csv",
        "sla_fig4.csv",
        "sla_fig7.csv",
        "sla_fig8.csv",
        "sla.json",
    ] {
        assert!(dir.join(file).exists(), "no {file}");
    }
    assert!(!dir.join("fig4_ts_ncpu.svg").exists(), "--no-plots drew figures");
    assert!(out.contains("Table 1") && out.contains("Table 2"), "{out}");
    // Every row of the paper's tables, with the paper's figure beside ours.
    assert!(out.contains("min(TF + w*tD)") && out.contains("96.1") && out.contains("94.2"), "{out}");
    assert!(out.contains("min(NCPU + w*tL)") && out.contains("385.0"), "{out}");
    assert_eq!(out.matches("[holds]").count() + out.matches("[fails]").count(), 4, "{out}");
    let table1 = std::fs::read_to_string(dir.join("sla_table1.csv")).unwrap();
    assert_eq!(table1.lines().count(), 16);
    let families = std::fs::read_to_string(dir.join("sla_families.csv")).unwrap();
    assert_eq!(families.lines().count(), 1 + 84, "{families}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn help_lists_every_option_with_its_units_and_an_example() {
    let help = stdout(&host_sim(&["sla", "--help"]));
    for option in [
        "--heuristic",
        "--sets",
        "--seed",
        "--trace",
        "--nodes",
        "--limit",
        "--batch",
        "--step",
        "--slot",
        "--log",
        "--json",
    ] {
        assert!(help.contains(option), "no {option} in {help}");
    }
    assert!(help.contains("Examples:") && help.contains("min(TF - 0.8*tD)"), "{help}");
    let help = stdout(&host_sim(&["sla-sweep", "--help"]));
    assert!(help.contains("--out") && help.contains("--no-plots") && help.contains("Example:"), "{help}");
}
