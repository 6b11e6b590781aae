//! The independent check of `optimum`'s V*: small real windows (one-day windows of
//! KTH and NASA, one and two machines) solved again by another formulation and
//! another solver, and the two must agree on every window the first proved exact.
//!
//! The second formulation has no time intervals: a binary `x_ji` per job and machine,
//! `sum_i x_ji <= 1`, and for each machine Horn's condition, which a set of jobs meets
//! exactly when one preemptive machine can finish them all on time: for every release
//! `a` and deadline `b > a`, the work of the chosen jobs released at or after `a` and
//! due by `b` is at most `b - a`. It is solved by microlp (pure Rust branch and bound,
//! through good_lp), not HiGHS; its choice is checked by exact EDF and summed in
//! integers.
#![cfg(feature = "optimum")]

use std::path::{Path, PathBuf};

use clap::Parser;
use good_lp::{Expression, ProblemVariables, Solution, SolverModel, Variable, constraint, microlp, variable};
use host_sim::service_level::cli::{InputArgs, load_windows};
use host_sim::service_level::levels::{single, thesis_set};
use host_sim::service_level::optimum::exact::{Status, edf_feasible};
use host_sim::service_level::optimum::{Budget, Method, greedy_windows, optimum, sample};
use host_sim::service_level::sim::RunConfig;
use replay::model::service_level::OfflineJob;

#[derive(Parser)]
struct Input {
    #[command(flatten)]
    input: InputArgs,
}

fn trace(name: &str) -> Option<PathBuf> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/traces").join(name);
    path.is_file().then_some(path).or_else(|| {
        println!("NOTICE: {name} is absent; its windows are not checked");
        None
    })
}

/// The most jobs of a window the second solver takes, per machine count.
fn small(jobs: usize, machines: usize) -> bool {
    jobs <= if machines == 1 { 40 } else { 16 }
}

/// The largest income of `jobs` on `machines` machines by Horn's condition and microlp.
fn horn(jobs: &[OfflineJob], machines: usize) -> u128 {
    let unit = jobs.iter().fold(0u64, |g, j| gcd(g, j.income)).max(1);
    let mut vars = ProblemVariables::new();
    let x: Vec<Vec<Variable>> =
        jobs.iter().map(|_| (0..machines).map(|_| vars.add(variable().binary())).collect()).collect();
    let objective: Expression =
        jobs.iter().zip(&x).flat_map(|(j, xs)| xs.iter().map(move |&v| (j.income / unit) as f64 * v)).sum();
    let mut model = vars.maximise(objective).using(microlp);
    for xs in &x {
        model = model.with(constraint!(xs.iter().copied().sum::<Expression>() <= 1.0));
    }
    let by_machine: Vec<Vec<Variable>> = (0..machines).map(|i| x.iter().map(|xs| xs[i]).collect()).collect();
    for a in jobs.iter().map(|j| j.release) {
        for b in jobs.iter().map(|j| j.deadline).filter(|&b| b > a) {
            let inside: Vec<usize> =
                (0..jobs.len()).filter(|&j| jobs[j].release >= a && jobs[j].deadline <= b).collect();
            for on in &by_machine {
                let work: Expression = inside.iter().map(|&j| jobs[j].p as f64 * on[j]).sum();
                model = model.with(constraint!(work <= (b - a) as f64));
            }
        }
    }
    let solution = model.solve().expect("microlp solves a bounded binary program");
    (0..machines)
        .map(|i| {
            let set: Vec<OfflineJob> =
                (0..jobs.len()).filter(|&j| solution.value(x[j][i]) > 0.5).map(|j| jobs[j]).collect();
            assert!(edf_feasible(&set), "microlp's machine {i} misses a deadline");
            set.iter().map(|j| u128::from(j.income)).sum::<u128>()
        })
        .sum()
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

#[test]
fn a_second_formulation_and_solver_agree_on_small_real_windows() {
    let mut checked = 0;
    for name in ["KTH-SP2-1996-2.1-cln.swf.gz", "NASA-iPSC-1993-3.1-cln.swf.gz"] {
        let Some(path) = trace(name) else { continue };
        let args = Input::parse_from(["check", "--trace", &path.display().to_string()]).input;
        let workload = load_windows(&args, Some(86_400)).unwrap();
        for (levels, machines) in
            [(single(2000), 1), (single(4000), 1), (thesis_set(3), 1), (single(2000), 2)]
        {
            let config = RunConfig { window_ticks: Some(86_400), ..RunConfig::new(machines, levels) };
            let windows = greedy_windows(&config, &workload, |n| sample(n, Some(12))).unwrap();
            let m = usize::from(machines);
            for (report, window) in windows.iter().filter(|(_, w)| small(w.jobs.len(), m)) {
                let second = horn(&window.jobs, m);
                // Both methods: the steps (the default) and the whole model alone.
                for method in [Method::Steps, Method::Whole] {
                    let budget = Budget { seconds: 60.0, method };
                    let found = optimum(&window.jobs, &window.completed, m, budget).unwrap();
                    if found.bracket.status() != Status::Exact {
                        continue;
                    }
                    let at = format!("{name}, window {}, {m} machines, {method:?}", report.index);
                    assert_eq!(found.bracket.best, second, "{at}");
                    checked += 1;
                }
            }
        }
    }
    println!("{checked} windows agree");
    assert!(
        checked >= 40 || trace("KTH-SP2-1996-2.1-cln.swf.gz").is_none(),
        "only {checked} windows checked"
    );
}
