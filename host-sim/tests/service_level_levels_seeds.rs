//! Per-level figures of a multi-level run, and replications over seeds (`--seeds`).

mod common;

use common::{host_sim, stderr_of_failure, stdout};

fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&stdout(&host_sim(args))).unwrap()
}

#[test]
fn per_level_figures_add_up_to_the_run_and_are_in_the_table() {
    let args = ["run", "--jobs", "2000", "--machines", "2", "--levels", "1,2,5", "--seed", "4"];
    let value = json(&[&args[..], &["--json"]].concat());
    let levels = value["per_level"].as_array().unwrap();
    assert_eq!(levels.len(), 3);
    let sum = |key: &str| levels.iter().map(|l| l[key].as_f64().unwrap()).sum::<f64>();
    assert_eq!(sum("jobs_submitted"), value["mean"]["jobs_submitted"].as_f64().unwrap());
    assert_eq!(sum("jobs_accepted"), value["mean"]["jobs_accepted"].as_f64().unwrap());
    assert_eq!(sum("tpt"), value["mean"]["tpt"].as_f64().unwrap());
    // Income minus alpha times the submitted work is G.
    let work: f64 = value["mean"]["tpt"].as_f64().unwrap() / value["mean"]["tpt_fraction"].as_f64().unwrap();
    assert!((sum("income") - work - value["mean"]["g"].as_f64().unwrap()).abs() < 1.0);
    // Accepted-weighted per-level MWT is the run's MWT.
    let weighted: f64 =
        levels.iter().map(|l| l["mwt"].as_f64().unwrap() * l["jobs_accepted"].as_f64().unwrap()).sum();
    let mwt = value["mean"]["mwt"].as_f64().unwrap();
    assert!((weighted / sum("jobs_accepted") - mwt).abs() < 1e-6 * mwt.max(1.0));
    // No slack: a level-0 job never waits, and tighter levels are rejected more.
    assert_eq!(levels[0]["mwt"], 0.0);
    assert_eq!(levels[0]["sf"], 1.0);
    assert!(levels[0]["prj"].as_f64().unwrap() > levels[2]["prj"].as_f64().unwrap());
    let table = stdout(&host_sim(&args));
    assert!(table.contains("per level (every window pooled)"), "{table}");
    assert!(table.lines().filter(|l| l.trim_start().starts_with(['0', '1', '2'])).count() >= 3);
    // One level: no per-level table.
    let single = stdout(&host_sim(&["run", "--jobs", "300"]));
    assert!(!single.contains("per level"), "{single}");
}

#[test]
fn seeds_replicate_in_parallel_with_a_t_interval() {
    let base = ["run", "--jobs", "400", "--machines", "2", "--levels", "1,2,3", "--window", "1d"];
    let value = json(&[&base[..], &["--seeds", "1..5", "--json"]].concat());
    // The core names each seed's generated workload as an input, and has no counts.
    assert_eq!(
        (value["model"].as_str(), value["inputs"].as_array().map(Vec::len)),
        (Some("service_level"), Some(5))
    );
    assert!(value.get("counts").is_none());
    assert_eq!(value["seeds"], serde_json::json!([1, 2, 3, 4, 5]));
    assert_eq!(value["t"], 2.776);
    let runs = value["runs"].as_array().unwrap();
    // Each replication is exactly the single run with that seed.
    for run in runs {
        let seed = run["seed"].as_u64().unwrap().to_string();
        let single = json(&[&base[..], &["--seed", &seed, "--json"]].concat());
        assert_eq!(run["mean"], single["mean"], "seed {seed}");
        assert_eq!(run["window_sd"], single["sd"], "seed {seed}");
    }
    let prj: Vec<f64> = runs.iter().map(|r| r["mean"]["prj"].as_f64().unwrap()).collect();
    let mean = prj.iter().sum::<f64>() / 5.0;
    let sd = (prj.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / 4.0).sqrt();
    assert!((value["mean"]["prj"].as_f64().unwrap() - mean).abs() < 1e-9);
    assert!((value["sd"]["prj"].as_f64().unwrap() - sd).abs() < 1e-9);
    assert!(sd > 0.0, "different seeds draw different workloads");
    let half = 2.776 * sd / 5f64.sqrt();
    assert!((value["ci95_low"]["prj"].as_f64().unwrap() - (mean - half)).abs() < 1e-9);
    assert!((value["ci95_high"]["prj"].as_f64().unwrap() - (mean + half)).abs() < 1e-9);
    let table = stdout(&host_sim(&[&base[..], &["--seeds", "3,9"]].concat()));
    assert!(table.contains("95% CI low") && table.contains("across-window sd"), "{table}");
    assert!(table.contains("12.706"), "{table}");
}

#[test]
fn bad_seed_lists_and_a_log_are_refused() {
    let err = stderr_of_failure(&host_sim(&["run", "--jobs", "10", "--seeds", "5..1"]));
    assert!(err.contains("--seeds"), "{err}");
    let err = stderr_of_failure(&host_sim(&["run", "--jobs", "10", "--seeds", "1..3", "--log", "x.log"]));
    assert!(err.contains("--log") && err.contains("--seeds"), "{err}");
}
