//! A trace's set read as a stream against the same trace held whole and mapped at
//! once (as `sla` ran a trace before it streamed): the same header, outcome, requests
//! summed in the same order, and log bytes, on seeded traces a little out of order;
//! and a trace out of order past the look-ahead refused by line.

use std::path::{Path, PathBuf};

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::sla::cli::{self, RunArgs};
use crate::sla::plan::{Outcome, Plan, Sets};
use crate::sla::run::{self, Input};
use crate::sla::{log, mapping};
use crate::swf::LOOKAHEAD;

/// A job line: number, submit time, run time, allocated processors (0: none); every
/// other field `-1`.
fn line(id: u32, submit: i64, run: i64, procs: u32) -> String {
    let mut fields =
        vec![id.to_string(), submit.to_string(), "-1".into(), run.to_string(), procs.to_string()];
    fields.resize(18, "-1".into());
    fields.join(" ")
}

fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("host-sim-sla-stream-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `jobs` seeded jobs over about two days, in bursts, on a machine of 40 processors
/// (the widest job, as its header says) that the runs give 32 (`--nodes 32`): some
/// wider than that, some without processors, and every twentieth line swapped
/// with the one before it (out of order within the look-ahead).
fn trace(path: &Path, seed: u64, jobs: u32) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut submit = 0_i64;
    let mut lines = vec!["; MaxProcs: 40".to_owned()];
    for id in 1..=jobs {
        submit +=
            if rng.random_range(0..10) == 0 { rng.random_range(600..7200) } else { rng.random_range(0..90) };
        let procs = if id % 37 == 0 { 0 } else { rng.random_range(1..=40) };
        lines.push(line(id, submit, rng.random_range(60..30_000), procs));
    }
    for at in (21..lines.len()).step_by(20) {
        lines.swap(at - 1, at);
    }
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
}

fn args(extra: &[&str]) -> RunArgs {
    use clap::Parser;
    #[derive(Parser)]
    struct Wrap {
        #[command(flatten)]
        args: RunArgs,
    }
    Wrap::parse_from(std::iter::once("sla").chain(extra.iter().copied())).args
}

/// The plan of `args` with the trace read whole and mapped at once, checked against
/// what the streamed plan found of it.
fn whole_plan(args: &RunArgs, streamed: &Plan) -> Plan {
    let trace = args.input.read().unwrap().unwrap();
    let jobs = &trace.workload.jobs;
    let nodes = args.nodes.unwrap_or_else(|| trace.pool_size(jobs));
    let mapped = mapping::map(jobs, nodes, args.seed);
    let Sets::Trace(set) = &streamed.sets else { panic!("a trace is streamed") };
    assert_eq!(set.survey.largest, run::largest_batch(&mapped.requests, streamed.batch));
    assert_eq!(set.survey.requests, mapped.requests.len() as u64);
    assert_eq!(set.survey.left_out, mapped.unknown_procs);
    assert_eq!(nodes, streamed.config.nodes);
    let mut header = streamed.header.clone();
    trace.workload.stamp(&mut header);
    assert_eq!(header, streamed.header, "the first pass stamps what a whole read does");
    let capacity = cli::trace_capacity(&mapped.requests, nodes);
    Plan {
        sets: Sets::Held(vec![Input { requests: mapped.requests, capacity }]),
        config: streamed.config,
        batch: streamed.batch,
        batch_capacity: streamed.batch_capacity,
        header,
        source: trace.workload.name.clone(),
        left_out: mapped.unknown_procs,
    }
}

/// `plan` run with its log at `path`: its outcome and every request as summed.
fn run_logged(plan: &Plan, path: &Path) -> (Outcome, Vec<(u32, Option<u64>)>) {
    let mut settled = Vec::new();
    let bar = indicatif::ProgressBar::hidden();
    let outcome = log::run_logged(plan, path, &bar, &mut |_, r, start| settled.push((r.job, start))).unwrap();
    (outcome, settled)
}

fn same_run(dir: &Path, name: &str, extra: &[&str]) {
    let args = args(extra);
    let streamed = cli::plan(&args).unwrap();
    let whole = whole_plan(&args, &streamed);
    let (a, b) = (dir.join(format!("{name}-streamed.log")), dir.join(format!("{name}-whole.log")));
    let (streamed_outcome, streamed_settled) = run_logged(&streamed, &a);
    let (whole_outcome, whole_settled) = run_logged(&whole, &b);
    assert_eq!(streamed_outcome.sets, whole_outcome.sets, "{name}");
    assert_eq!(streamed_outcome.mean, whole_outcome.mean, "{name}");
    assert_eq!(streamed_settled, whole_settled, "{name}: requests summed in the same order");
    assert!(std::fs::read(&a).unwrap() == std::fs::read(&b).unwrap(), "{name}: the logs differ");
    let summary = &streamed_outcome.mean;
    assert!(summary.accepted > 0 && summary.accepted < summary.requests, "{name}: {summary:?}");
}

#[test]
fn a_streamed_trace_runs_as_the_trace_held_whole() {
    let dir = folder("same");
    let (t1, t2) = (dir.join("a.swf"), dir.join("b.swf"));
    trace(&t1, 1, 1200);
    trace(&t2, 2, 500);
    let (t1, t2) = (t1.display().to_string(), t2.display().to_string());
    same_run(&dir, "hour", &["--trace", &t1, "--nodes", "32"]);
    let alone = ["--trace", &t1, "--nodes", "32", "--batch", "0", "--heuristic", "random", "--seed", "4"];
    same_run(&dir, "alone", &alone);
    let all = ["--trace", &t1, "--nodes", "32", "--batch", "all", "--heuristic", "max(TS + 0.72*NCPU)"];
    same_run(&dir, "all", &all);
    let limited = ["--trace", &t1, "--limit", "700", "--nodes", "16", "--batch", "20m", "--slot", "1m"];
    same_run(&dir, "limit", &limited);
    let merged = ["--trace", &t1, "--trace", &t2, "--nodes", "32", "--seed", "9", "--step", "12m"];
    same_run(&dir, "merged", &merged);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_survey_counts_batches_one_interval_at_a_time() {
    let dir = folder("survey");
    let path = dir.join("t.swf");
    trace(&path, 3, 800);
    let args = args(&["--trace", &path.display().to_string(), "--nodes", "32"]);
    let scanned = args.input.scan().unwrap().unwrap();
    let requests = mapping::map(&args.input.read().unwrap().unwrap().workload.jobs, 32, 1).requests;
    for batch in [run::Batch::Whole, run::Batch::Every(0), run::Batch::Every(600), run::Batch::Every(86_400)]
    {
        let survey = super::Survey::of(scanned.jobs().unwrap(), 1, batch).unwrap();
        assert_eq!(survey.largest, run::largest_batch(&requests, batch), "{batch:?}");
        let terms: Vec<_> = requests.iter().map(|r| r.terms).collect();
        assert_eq!(survey.price.k().to_bits(), crate::sla::metrics::price_k(&terms).to_bits());
        assert_eq!(survey.widest, 40);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_trace_out_of_order_past_the_look_ahead_is_refused_by_line() {
    let dir = folder("order");
    let count = u32::try_from(LOOKAHEAD).unwrap() + 2;
    let mut lines: Vec<String> = (1..=count).map(|k| line(k, 100 + i64::from(k), 50, 1)).collect();
    lines.push(line(count + 1, 100, 50, 1));
    let path = dir.join("late.swf");
    std::fs::write(&path, lines.join("\n")).unwrap();
    let error = cli::plan(&args(&["--trace", &path.display().to_string()])).unwrap_err().to_string();
    let expected = format!("{}:{}: field 2 (submit time): 100 is before", path.display(), count + 1);
    assert!(error.starts_with(&expected), "{error}");
    assert!(error.contains(&format!("a look-ahead of {LOOKAHEAD} jobs")), "{error}");
    std::fs::remove_dir_all(&dir).unwrap();
}
