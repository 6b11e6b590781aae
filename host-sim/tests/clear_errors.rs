//! Nonsense refused and errors that say what and where: each case a user met, run
//! through the binary. Each message names its source: the option, the scenario file's
//! line and key, or the trace's line and header field.

mod common;

use common::{HAND_TRACE, host_sim, scratch, stderr_of_failure};

fn refused(args: &[&str], expected: &[&str]) {
    let err = stderr_of_failure(&host_sim(args));
    for part in expected {
        assert!(err.contains(part), "{args:?}: expected {part:?} in: {err}");
    }
}

#[test]
fn numbers_say_why_they_are_refused_and_name_the_option() {
    refused(&["run", "--jobs", "10", "--alpha", "-1"], &["--alpha: `-1` is negative"]);
    refused(
        &["run", "--jobs", "10", "--alpha", "0.0001"],
        &["--alpha: `0.0001` has more than three decimals"],
    );
    refused(&["run", "--jobs", "10", "--seeds", "5..1"], &["--seeds: `5..1` runs backwards", "(1..5)"]);
    refused(&["run", "--jobs", "10", "--seeds", "1,2,1"], &["--seeds: seed 1 is given twice"]);
    refused(&["run", "--jobs", "10", "--slack", "-2"], &["--slack: slack factor `-2` is below 1"]);
    refused(
        &["sla-sweep", "--step", "0", "--out", "unused"],
        &["--step: `0` is zero: give at least one second"],
    );
    refused(&["tiers", "--up-mean", "0"], &["'--up-mean <SECONDS>'", "0 is not in 1.."]);
    refused(&["tiers", "--laxity", "nan"], &["--laxity: `nan` is not a number"]);
}

#[test]
fn a_grid_axis_given_twice_is_refused() {
    let out = scratch("twice").join("sweep").display().to_string();
    refused(
        &["sweep", "--jobs", "10", "--machine-counts", "2,2", "--out", &out],
        &["--machine-counts: 2 is given twice"],
    );
    refused(
        &["sweep", "--jobs", "10", "--slacks", "2,1.5,2.0", "--out", &out],
        &["--slacks: slack factor `2.0` is given twice (first as `2`)"],
    );
}

#[test]
fn a_slot_longer_than_the_window_is_refused() {
    let dir = scratch("slot-window");
    let trace = dir.join("hand.swf");
    std::fs::write(&trace, HAND_TRACE).unwrap();
    let trace = trace.to_str().unwrap();
    refused(
        &["reserve", "--trace", trace, "--window", "1h", "--slot", "2h"],
        &["--slot 7200 s is longer than --window 3600 s"],
    );
}

#[test]
fn two_infinite_weights_are_refused() {
    refused(
        &["sla", "--heuristic", "min(TF + inf*tD - inf*NCPU)"],
        &["--heuristic", "at most one infinite weight"],
    );
}

#[test]
fn scenario_values_are_named_with_their_file_line_and_key() {
    let dir = scratch("scenario");
    let nan = dir.join("nan.toml");
    std::fs::write(&nan, "jobs = 10\nalpha = nan\n").unwrap();
    let nan = nan.display().to_string();
    refused(
        &["run", "--config", &nan],
        &["--alpha: `NaN` is not a number", &format!("set by {nan}:2, key `alpha`")],
    );
    let empty = dir.join("empty.toml");
    std::fs::write(&empty, "trace = []\n").unwrap();
    let empty = empty.display().to_string();
    refused(&["run", "--config", &empty], &[&format!("{empty}:1: key `trace`: is an empty list")]);
    let up = dir.join("up.toml");
    std::fs::write(&up, "up-mean = 0\n").unwrap();
    let up = up.display().to_string();
    refused(&["tiers", "--config", &up], &[&format!("{up}:1: key `up-mean`"), "0 is not in 1.."]);
}

#[test]
fn a_machine_size_in_the_header_that_is_no_size_names_the_header_field() {
    let dir = scratch("header");
    for (name, line, expected) in [
        ("procs.swf", "; MaxProcs: -5", "header field MaxProcs: `-5` is not a machine size"),
        ("nodes.swf", "; MaxNodes: 0", "header field MaxNodes: `0` is not a machine size"),
    ] {
        let trace = dir.join(name);
        std::fs::write(&trace, format!("; Version: 2.2\n{line}\n{HAND_TRACE}")).unwrap();
        let path = trace.to_str().unwrap();
        for model in ["run", "reserve", "sla", "tiers", "compare"] {
            refused(&[model, "--trace", path], &[&format!("{name}:2: {expected}")]);
        }
    }
}

#[test]
fn negative_values_reach_their_parsers_and_lists_refuse_repeats() {
    refused(&["run", "--jobs", "10", "--window", "-1d"], &["--window: `-1d` is negative"]);
    refused(&["reserve", "--slot", "-1m"], &["--slot", "`-1m` is negative"]);
    refused(&["sla", "--sets", "1", "--step", "-6m"], &["--step: `-6m` is negative"]);
    refused(&["run", "--jobs", "10", "--seeds", "-1..3"], &["--seeds: `-1` is negative"]);
    refused(&["run", "--jobs", "10", "--levels", "2,2,2"], &["--levels: slack factor `2` is given twice"]);
    refused(&["run", "--jobs", "10", "--levels", "1,,2"], &["--levels: item 2 of `1,,2` is empty"]);
    refused(&["sweep", "--jobs", "10", "--modes", "single,single"], &["--modes: single is given twice"]);
    refused(&["run", "--jobs", "10", "--seeds", "0..18446744073709551615"], &["at most 100000"]);
    refused(
        &["sla", "--sets", "1", "--slot", "2d"],
        &["--slot", "generated sets are whole six-minute slots"],
    );
}

#[test]
fn criteria_refuses_a_bad_row_by_file_line_and_column() {
    let header = "mode,sf_or_k,machines,policy,windows,g_mean,prj_mean,prj_sd,mwt_mean,mbsd_mean,cv_l_mean\n";
    let good = "single,1,1,first-fit,30,1,50,0,1,1,1\n";
    for (name, row, expected) in [
        ("policy", "single,2,1,firstfit,30,1,50,0,1,1,1", "field policy: `firstfit` is not a policy"),
        ("machines", "single,2,0,first-fit,30,1,50,0,1,1,1", "field machines: `0` is not a machine count"),
        ("prj", "single,2,1,first-fit,30,1,250,0,1,1,1", "field prj_mean: `250` is not a percentage"),
        (
            "sd",
            "single,2,1,first-fit,30,1,50,-1,1,1,1",
            "field prj_sd: `-1` is not a finite standard deviation",
        ),
        (
            "windows",
            "single,2,1,first-fit,0,1,50,0,1,1,1",
            "field windows: `0` is not a whole number of windows",
        ),
    ] {
        let dir = scratch(&format!("criteria-{name}"));
        std::fs::write(dir.join("sweep.csv"), format!("{header}{good}{row}\n")).unwrap();
        let path = dir.display().to_string();
        refused(&["criteria", &path, "--no-plots"], &[&format!("sweep.csv, line 3, {expected}")]);
        assert!(!dir.join("criteria.csv").exists(), "{name}: nothing written");
    }
}
