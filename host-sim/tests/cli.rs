//! The `host-sim` binary end to end: the bare command, JSON keys, byte-identical
//! logs, sweeps, and errors that are clean messages with a non-zero exit.

mod common;

use common::{host_sim, scratch, stderr_of_failure, stdout};

#[test]
fn bare_command_runs_the_synthetic_workload() {
    let out = stdout(&host_sim(&["--jobs", "300"]));
    assert!(out.contains("input      synthetic"), "{out}");
    assert!(out.contains("PRJ, % rejected"), "{out}");
    assert_eq!(out, stdout(&host_sim(&["run", "--jobs", "300"])));
}

#[test]
fn json_has_every_key() {
    let out = stdout(&host_sim(&["run", "--jobs", "300", "--machines", "2", "--levels", "1,2,3", "--json"]));
    let value: serde_json::Value = serde_json::from_str(&out).unwrap();
    for key in [
        "prj",
        "mbsd",
        "mwt",
        "tpt",
        "tpt_fraction",
        "mni",
        "me",
        "g",
        "cv_u",
        "cv_l",
        "greedy_bound",
        "jobs_submitted",
        "jobs_accepted",
    ] {
        assert!(value["mean"][key].is_number(), "mean.{key} missing: {out}");
        assert!(value["sd"][key].is_number(), "sd.{key} missing");
        assert!(value["windows"][0][key].is_number(), "windows[0].{key} missing");
    }
    for key in ["run_time_nonpositive", "negative_submit", "bad_lines"] {
        assert_eq!(value["excluded"][key], 0, "excluded.{key}");
    }
    assert!(value["deepest_queue"].is_u64());
    assert!(value["decisions"].is_u64());
    assert!(value["log"].is_null());
    assert_eq!(value["levels"][2]["price_per_tick"], 18);
}

#[test]
fn the_same_run_logs_the_same_bytes() {
    // The command line is in the header, so both runs use the same log path.
    let dir = scratch("logs");
    let log = dir.join("out.log");
    let path = log.to_str().unwrap();
    let mut logs = Vec::new();
    for _ in 0..2 {
        stdout(&host_sim(&["run", "--jobs", "500", "--levels", "1,2,3", "--seed", "3", "--log", path]));
        logs.push(std::fs::read(&log).unwrap());
    }
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(!logs[0].is_empty());
    assert!(logs[0] == logs[1], "two identical runs wrote different logs");
}

#[test]
fn a_bad_trace_line_is_named_and_fails_cleanly() {
    let dir = scratch("bad");
    let trace = dir.join("trace.swf");
    let good = "1 0 -1 10 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1";
    let bad = "2 5 -1 abc -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1";
    std::fs::write(&trace, format!("; header\n{good}\n{bad}\n")).unwrap();
    let path = trace.to_str().unwrap();
    let err = stderr_of_failure(&host_sim(&["run", "--trace", path]));
    assert_eq!(err.trim(), format!("host-sim: error: {path}:3: field 4 (run time): `abc` is not a number"));
    let out = stdout(&host_sim(&["run", "--trace", path, "--skip-bad-lines", "--json"]));
    std::fs::remove_dir_all(&dir).unwrap();
    let value: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(value["excluded"]["bad_lines"], 1);
    assert_eq!(value["jobs"], 1);
}

#[test]
fn bad_options_are_clear_errors() {
    let err = stderr_of_failure(&host_sim(&["run", "--queue-capacity", "100"]));
    assert!(
        err.contains("--queue-capacity 100 is not supported; choose one of 16, 32, 64, 256, 1024"),
        "{err}"
    );
    let err = stderr_of_failure(&host_sim(&["run", "--slack", "2", "--levels", "1,2"]));
    assert!(err.contains("cannot be used with"), "{err}");
    let err = stderr_of_failure(&host_sim(&["run", "--levels", "1,2", "--prices", "5"]));
    assert!(err.contains("1 prices given for 2 levels"), "{err}");
    let err = stderr_of_failure(&host_sim(&["run", "--window", "7x"]));
    assert!(err.contains("`7x` is not a duration"), "{err}");
    let err = stderr_of_failure(&host_sim(&["run", "--slack", "0.9"]));
    assert!(err.contains("below 1"), "{err}");
    let err = stderr_of_failure(&host_sim(&["run", "--trace", "no/such.swf"]));
    assert!(err.starts_with("host-sim: error: no/such.swf: cannot read the trace"), "{err}");
}

#[test]
fn a_small_sweep_writes_csv_and_json() {
    let dir = scratch("sweep");
    let out_dir = dir.join("out");
    let args = ["sweep", "--jobs", "400", "--window", "1d", "--slacks", "1,2", "--machine-counts", "1,4"];
    let out = out_dir.to_str().unwrap();
    let run = host_sim(&[&args[..], &["--out", out]].concat());
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let csv = std::fs::read_to_string(out_dir.join("sweep.csv")).unwrap();
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("sweep.json")).unwrap()).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 1 + 8, "{csv}");
    assert!(lines[0].starts_with(
        "mode,sf_or_k,machines,policy,windows,windows_empty,deepest_queue,queue_full_rejections,prj_mean,prj_sd"
    ));
    let keys: Vec<String> =
        lines[1..].iter().map(|l| l.split(',').take(3).collect::<Vec<_>>().join(",")).collect();
    assert_eq!(
        keys,
        [
            "single,1,1",
            "single,1,4",
            "single,2,1",
            "single,2,4",
            "multi,1,1",
            "multi,1,4",
            "multi,2,1",
            "multi,2,4"
        ]
    );
    assert_eq!(json["rows"].as_array().map(Vec::len), Some(8));
    assert!(json["rows"][3]["mean"]["cv_l"].is_number());
}
