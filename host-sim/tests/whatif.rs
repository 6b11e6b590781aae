//! `host-sim whatif LOG`: the what-if of the recorded configuration re-makes the log
//! byte for byte, and a what-if with a changed option makes the log a run with that
//! option makes. On the hand trace and the synthetic workload always, and on the
//! shared KTH trace when `../shared/traces` is present.

mod common;

use std::path::{Path, PathBuf};

use common::{HAND_TRACE, host_sim, scratch, stderr_of_failure, stdout};

/// The shared KTH trace, or `None` (with a notice) when the traces are absent.
fn kth() -> Option<String> {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz");
    if !path.is_file() {
        println!("NOTICE: {} is absent; its what-if tests are skipped", path.display());
        return None;
    }
    Some(path.to_str().unwrap().to_owned())
}

/// Runs host-sim with `args` and `--log DIR/NAME`, and returns the log's bytes.
fn logged(dir: &Path, name: &str, args: &[&str]) -> Vec<u8> {
    let log = dir.join(name);
    stdout(&host_sim(&[args, &["--log", log.to_str().unwrap()]].concat()));
    std::fs::read(&log).unwrap()
}

/// A run's log, and the log of its what-if with `changes`.
fn run_and_whatif(dir: &Path, run: &[&str], changes: &[&str]) -> (Vec<u8>, Vec<u8>) {
    let original = logged(dir, "original.log", run);
    let input = dir.join("original.log");
    let whatif = logged(dir, "whatif.log", &[&["whatif", input.to_str().unwrap()], changes].concat());
    (original, whatif)
}

fn assert_same_bytes(what: &str, first: &[u8], second: &[u8]) {
    if let Some(at) = first.iter().zip(second).position(|(a, b)| a != b) {
        panic!("{what}: the logs differ first at byte {at}");
    }
    assert_eq!(first.len(), second.len(), "{what}: the logs differ in length");
}

#[test]
fn the_recorded_configuration_remakes_a_service_level_log() {
    let dir = scratch("whatif-same");
    let trace = dir.join("hand.swf");
    std::fs::write(&trace, HAND_TRACE).unwrap();
    // A second trace of the same jobs, for the merge (one file given twice is refused).
    let copy = dir.join("hand-copy.swf");
    std::fs::write(&copy, HAND_TRACE).unwrap();
    let (trace, copy) = (trace.to_str().unwrap(), copy.to_str().unwrap());
    let runs: [&[&str]; 4] = [
        &["run", "--trace", trace, "--machines", "2", "--levels", "1,2,3", "--seed", "3", "--alpha", "0.5"],
        &[
            "run", "--trace", trace, "--window", "300", "--slack", "1.5", "--prices", "7", "--policy",
            "best-fit",
        ],
        &[
            "run",
            "--jobs",
            "400",
            "--seed",
            "5",
            "--machines",
            "3",
            "--levels",
            "1,4",
            "--queue-capacity",
            "16",
        ],
        &["run", "--trace", trace, "--trace", copy, "--limit", "12", "--window", "250", "--windows", "3"],
    ];
    for run in runs {
        let (original, whatif) = run_and_whatif(&dir, run, &[]);
        assert_same_bytes(&run.join(" "), &original, &whatif);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_changed_option_gives_the_log_of_a_run_with_it() {
    let dir = scratch("whatif-changed");
    let cases: [(&[&str], &[&str], &[&str]); 3] = [
        (
            &["run", "--jobs", "600", "--seed", "2"],
            &["--policy", "worst-fit", "--machines", "3"],
            &["run", "--jobs", "600", "--seed", "2", "--policy", "worst-fit", "--machines", "3"],
        ),
        (
            &["run", "--jobs", "600", "--seed", "2", "--levels", "1,2,3"],
            &["--levels", "2,5"],
            &["run", "--jobs", "600", "--seed", "2", "--levels", "2,5"],
        ),
        (
            &["run", "--jobs", "600", "--levels", "1,3", "--prices", "5,4"],
            &["--prices", "9,2", "--queue-capacity", "16"],
            &["run", "--jobs", "600", "--levels", "1,3", "--prices", "9,2", "--queue-capacity", "16"],
        ),
    ];
    for (run, changes, direct) in cases {
        let (_, whatif) = run_and_whatif(&dir, run, changes);
        let direct_log = logged(&dir, "direct.log", direct);
        let what = format!("whatif {} against {}", changes.join(" "), direct.join(" "));
        assert_same_bytes(&what, &direct_log, &whatif);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn best_fit_on_a_first_fit_kth_log_is_best_fit_run_directly() {
    let Some(kth) = kth() else { return };
    let dir = scratch("whatif-kth");
    let (original, same) = run_and_whatif(&dir, &["run", "--trace", &kth, "--machines", "4"], &[]);
    assert_same_bytes("KTH first fit", &original, &same);
    let (_, best_fit) =
        run_and_whatif(&dir, &["run", "--trace", &kth, "--machines", "4"], &["--policy", "best-fit"]);
    let direct =
        logged(&dir, "direct.log", &["run", "--trace", &kth, "--machines", "4", "--policy", "best-fit"]);
    assert_same_bytes("KTH best fit", &direct, &best_fit);
    assert_ne!(original, direct, "best fit decides differently from first fit on KTH");
    let scenario = dir.join("what-if.toml");
    std::fs::write(&scenario, "command = \"whatif\"\npolicy = \"best-fit\"\nlog = \"scenario.log\"\n")
        .unwrap();
    let input = dir.join("original.log");
    stdout(&host_sim(&["--config", scenario.to_str().unwrap(), input.to_str().unwrap()]));
    assert_same_bytes(
        "KTH best fit by a scenario",
        &direct,
        &std::fs::read(dir.join("scenario.log")).unwrap(),
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_input_log_is_never_the_output_and_a_missing_log_is_named() {
    let dir = scratch("whatif-refused");
    logged(&dir, "a.log", &["run", "--jobs", "50"]);
    let log = dir.join("a.log");
    let log = log.to_str().unwrap();
    let before = std::fs::read(log).unwrap();
    let same = stderr_of_failure(&host_sim(&["whatif", log, "--log", log]));
    assert!(same.contains("--log") && same.contains("is the same file as LOG"), "{same}");
    assert_eq!(std::fs::read(log).unwrap(), before);
    let missing = stderr_of_failure(&host_sim(&["whatif", dir.join("none.log").to_str().unwrap()]));
    assert!(missing.contains("none.log"), "{missing}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn reservation_logs_are_remade_and_changed_like_a_run() {
    let dir = scratch("whatif-reservation");
    let trace = dir.join("hand.swf");
    std::fs::write(&trace, HAND_TRACE).unwrap();
    let trace = trace.to_str().unwrap();
    let base = ["reserve", "--trace", trace, "--slot", "60", "--window", "400"];
    let runs: [&[&str]; 3] = [
        &[],
        &["--criterion", "fifo", "--flex", "long", "--offers", "0.5"],
        &["--estimates", "poisson80", "--fix-at", "0.25", "--load", "1.5"],
    ];
    for run in runs {
        let (original, whatif) = run_and_whatif(&dir, &[&base[..], run].concat(), &[]);
        assert_same_bytes(&run.join(" "), &original, &whatif);
    }
    let changes = ["--criterion", "lff", "--nodes", "12", "--offers", "1", "--fix-at", "0.5"];
    let (_, whatif) = run_and_whatif(&dir, &[&base[..], &["--flex", "medium"]].concat(), &changes);
    let direct = logged(&dir, "direct.log", &[&base[..], &["--flex", "medium"], &changes].concat());
    assert_same_bytes("reserve with the changes", &direct, &whatif);
    let input = dir.join("original.log");
    let refused = stderr_of_failure(&host_sim(&["whatif", input.to_str().unwrap(), "--policy", "best-fit"]));
    assert!(refused.contains("--policy does not apply to a reservation log"), "{refused}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn tiers_logs_are_remade_and_changed_like_a_run() {
    let dir = scratch("whatif-tiers");
    let fta = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/tiers_event_trace.tab");
    let fta = fta.to_str().unwrap();
    let runs: [&[&str]; 3] = [
        &["tiers", "--policy", "qos", "--mix", "B", "--seed", "4"],
        &["tiers", "--policy", "no-qos", "--laxity", "0.5", "--load-pct", "50"],
        &["tiers", "--availability", fta, "--mix", "C"],
    ];
    for run in runs {
        let (original, whatif) = run_and_whatif(&dir, run, &[]);
        assert_same_bytes(&run.join(" "), &original, &whatif);
    }
    let (_, whatif) =
        run_and_whatif(&dir, &["tiers", "--mix", "D"], &["--policy", "no-qos", "--laxity", "2"]);
    let direct = logged(&dir, "direct.log", &["tiers", "--mix", "D", "--policy", "no-qos", "--laxity", "2"]);
    assert_same_bytes("tiers with the changes", &direct, &whatif);
    run_and_whatif(&dir, &["tiers", "--availability", fta], &[]);
    let input = dir.join("original.log");
    let refused = stderr_of_failure(&host_sim(&["whatif", input.to_str().unwrap(), "--policy", "qos"]));
    assert!(refused.contains("not yet for a tiers log with an availability file"), "{refused}");
    let refused = stderr_of_failure(&host_sim(&["whatif", input.to_str().unwrap(), "--machines", "3"]));
    assert!(refused.contains("--machines does not apply to a tiers log"), "{refused}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sla_logs_are_remade_and_changed_like_a_run() {
    let dir = scratch("whatif-sla");
    let trace = dir.join("hand.swf");
    std::fs::write(&trace, HAND_TRACE).unwrap();
    let trace = trace.to_str().unwrap();
    let runs: [&[&str]; 4] = [
        &["sla", "--sets", "5"],
        &["sla", "--sets", "4", "--seed", "3", "--heuristic", "random", "--batch", "0"],
        &["sla", "--trace", trace, "--batch", "10m", "--slot", "60", "--step", "120"],
        &["sla", "--trace", trace, "--batch", "all", "--nodes", "20"],
    ];
    for run in runs {
        let (original, whatif) = run_and_whatif(&dir, run, &[]);
        assert_same_bytes(&run.join(" "), &original, &whatif);
    }
    let base = ["sla", "--trace", trace, "--batch", "0", "--slot", "60", "--step", "60"];
    let changes = ["--heuristic", "max(TF)", "--nodes", "9"];
    let (_, whatif) = run_and_whatif(&dir, &base, &changes);
    let direct = logged(&dir, "direct.log", &[&base[..], &changes].concat());
    assert_same_bytes("sla with the changes", &direct, &whatif);
    let input = dir.join("original.log");
    let refused = stderr_of_failure(&host_sim(&["whatif", input.to_str().unwrap(), "--criterion", "edf"]));
    assert!(refused.contains("--criterion does not apply to an SLA log"), "{refused}");
    std::fs::remove_dir_all(&dir).unwrap();
}
