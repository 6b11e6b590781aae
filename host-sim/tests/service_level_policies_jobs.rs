//! `--policy` in `run`, `sweep` and scenario files, and `run --jobs-out`: the per-job
//! table streamed from the run loop equals the one `replay export --format csv`
//! makes from the run's log.

mod common;

use common::{host_sim, scratch, stderr_of_failure, stdout};
use replay::format::LogReader;

const POLICIES: [&str; 5] = ["first-fit", "best-fit", "worst-fit", "least-loaded", "round-robin"];

#[test]
fn each_policy_is_in_the_summary_and_the_log_header_and_decides_differently() {
    let dir = scratch("policy-header");
    let mut accepted = Vec::new();
    for (index, policy) in POLICIES.iter().enumerate() {
        let log = dir.join(format!("{policy}.log"));
        let args = ["run", "--jobs", "800", "--machines", "4", "--levels", "1,2,3", "--policy", policy];
        let out = stdout(&host_sim(&[&args[..], &["--json", "--log", log.to_str().unwrap()]].concat()));
        let value: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(value["policy"], *policy);
        accepted.push(value["mean"]["jobs_accepted"].as_f64().unwrap());
        let reader = LogReader::open(&log).unwrap();
        assert_eq!(
            reader.header().service_level().unwrap().policy,
            kernel::service_level::Policy::ALL[index]
        );
        let report = replay::verify::verify(reader).unwrap();
        assert_eq!(report.accepted as f64, accepted[index]);
    }
    std::fs::remove_dir_all(&dir).unwrap();
    // Not all five accept the same number of jobs on this workload.
    assert!(accepted.iter().any(|a| *a != accepted[0]), "{accepted:?}");
}

#[test]
fn an_unknown_policy_is_refused_by_name() {
    let err = stderr_of_failure(&host_sim(&["run", "--jobs", "10", "--policy", "best"]));
    assert!(
        err.contains(
            "--policy: policy `best` is not one of first-fit, best-fit, worst-fit, least-loaded, round-robin"
        ),
        "{err}"
    );
    let err = stderr_of_failure(&host_sim(&["sweep", "--jobs", "10", "--policy", "first-fit,nope"]));
    assert!(err.contains("policy `nope`"), "{err}");
}

#[test]
fn sweep_takes_policies_as_an_axis() {
    let dir = scratch("policy-sweep");
    let out = dir.join("sweep");
    let args = [
        "sweep",
        "--jobs",
        "400",
        "--window",
        "all",
        "--modes",
        "single",
        "--slacks",
        "1,2",
        "--machine-counts",
        "2,4",
        "--policy",
        "first-fit,best-fit,worst-fit,least-loaded,round-robin",
        "--out",
        out.to_str().unwrap(),
    ];
    let output = host_sim(&args);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let csv = std::fs::read_to_string(out.join("sweep.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert!(lines[0].starts_with("mode,sf_or_k,machines,policy,windows,"), "{}", lines[0]);
    assert_eq!(lines.len(), 1 + 2 * 2 * 5);
    let policies: Vec<&str> = lines[1..6].iter().map(|l| l.split(',').nth(3).unwrap()).collect();
    assert_eq!(policies, POLICIES);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("sweep.json")).unwrap()).unwrap();
    assert_eq!(json["rows"][1]["policy"], "best-fit");
    assert!(out.join("single_prj.svg").exists());
    assert!(out.join("single_prj_round-robin.svg").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_scenario_file_sets_the_policy() {
    let dir = scratch("policy-config");
    let file = dir.join("run.toml");
    std::fs::write(&file, "command = \"run\"\njobs = 300\nmachines = 3\npolicy = \"round-robin\"\n").unwrap();
    let out = stdout(&host_sim(&["--config", file.to_str().unwrap(), "--json"]));
    let value: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(value["policy"], "round-robin");
    std::fs::write(&file, "command = \"sweep\"\njobs = 300\nmodes = \"single\"\nslacks = \"2\"\nmachine-counts = \"2\"\nwindow = \"all\"\npolicy = [\"least-loaded\", \"worst-fit\"]\n").unwrap();
    let out = stdout(&host_sim(&["--config", file.to_str().unwrap()]));
    assert!(out.contains("least-loaded") && out.contains("worst-fit"), "{out}");
    std::fs::write(&file, "command = \"run\"\npolicy = \"fastest\"\n").unwrap();
    let err = stderr_of_failure(&host_sim(&["--config", file.to_str().unwrap()]));
    assert!(err.contains("run.toml:2, key `policy`"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn jobs_out_equals_the_export_of_the_log_and_agrees_with_the_summary() {
    let dir = scratch("jobs-out");
    let (log, jobs) = (dir.join("run.log"), dir.join("jobs.csv"));
    let out = stdout(&host_sim(&[
        "run",
        "--jobs",
        "1500",
        "--machines",
        "3",
        "--levels",
        "1,2,3,4",
        "--window",
        "2d",
        "--policy",
        "best-fit",
        "--json",
        "--log",
        log.to_str().unwrap(),
        "--jobs-out",
        jobs.to_str().unwrap(),
    ]));
    let summary: serde_json::Value = serde_json::from_str(&out).unwrap();
    let streamed = std::fs::read_to_string(&jobs).unwrap();
    assert!(!dir.join("jobs.csv.tmp").exists());
    let mut exported = Vec::new();
    replay::jobs::export_csv(LogReader::open(&log).unwrap(), &mut exported).unwrap();
    assert_eq!(streamed, String::from_utf8(exported).unwrap());

    // And the rows say what the summary says, job by job.
    let mut rows = streamed.lines();
    assert_eq!(rows.next(), Some(replay::jobs::JOB_COLUMNS.join(",").as_str()));
    let (mut accepted, mut no_feasible, mut interruptions, mut windows) = (0u64, 0u64, 0u64, 0u64);
    let mut seen = std::collections::HashSet::new();
    for row in rows {
        let f: Vec<&str> = row.split(',').collect();
        assert_eq!(f.len(), 16, "{row}");
        assert!(seen.insert(f[2].to_owned()), "job {} twice", f[2]);
        windows = windows.max(f[0].parse::<u64>().unwrap() + 1);
        let n = |i: usize| f[i].parse::<u64>().unwrap();
        match (f[9], f[10]) {
            ("accepted", "") => {
                accepted += 1;
                interruptions += n(15);
                assert_eq!(n(14), n(15) + 1, "{row}");
                // Ran for at least p between its start and finish, met its deadline, all
                // at or after its window's start.
                assert!(n(11) >= n(4) && n(12) >= n(11) + n(6) && n(12) <= n(8), "{row}");
                assert!(n(4) >= n(1), "{row}");
            }
            ("rejected", "no_feasible_machine") => no_feasible += 1,
            other => panic!("unexpected outcome {other:?}: {row}"),
        }
    }
    assert_eq!(seen.len(), 1500);
    assert_eq!(windows, summary["windows_simulated"].as_u64().unwrap());
    assert_eq!(no_feasible, summary["rejections"]["no_feasible_machine"].as_u64().unwrap());
    let per_window_accepted: f64 =
        summary["windows"].as_array().unwrap().iter().map(|w| w["jobs_accepted"].as_f64().unwrap()).sum();
    assert_eq!(accepted as f64, per_window_accepted);
    let mni_weighted: f64 = summary["windows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["mni"].as_f64().unwrap() * w["jobs_accepted"].as_f64().unwrap())
        .sum();
    assert!((interruptions as f64 - mni_weighted).abs() < 1e-6, "{interruptions} vs {mni_weighted}");
    assert!(interruptions > 0 && no_feasible > 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(target_os = "linux")]
#[test]
fn a_jobs_out_that_cannot_be_written_is_named() {
    // /dev/full accepts the file but fails every write with "no space left".
    let dir = scratch("jobs-full");
    let jobs = dir.join("jobs.csv");
    let tmp = dir.join("jobs.csv.tmp");
    std::os::unix::fs::symlink("/dev/full", &tmp).unwrap();
    let err = stderr_of_failure(&host_sim(&["run", "--jobs", "3000", "--jobs-out", jobs.to_str().unwrap()]));
    assert!(err.contains("jobs.csv") && !err.contains("decision log"), "{err}");
    assert!(!jobs.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
