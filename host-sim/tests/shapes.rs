//! Every model on every shape of machine a real trace may describe: more than 1,024
//! nodes, nodes of several processors (`MaxNodes` below `MaxProcs`), 50,000
//! processors, only `MaxNodes` with jobs wider than it, and jobs without a processor
//! count. Each trace is generated here (small in jobs, large in processors); `run`,
//! `reserve`, `tiers` and `sla` each write a log that the replay library verifies, and
//! `compare` gives a row for every model. `cargo test -p host-sim --test shapes --
//! --nocapture` prints the table of requests and accepted per model and shape.

mod common;

use std::fmt::Write as _;
use std::path::Path;

use common::{host_sim, scratch, stdout};

/// One generated trace: its header lines and its jobs.
struct Shape {
    name: &'static str,
    header: &'static str,
    jobs: u32,
    /// The widest job, in processors; sizes are drawn in `1..=widest`.
    widest: u32,
    /// Every `unknown`-th job has -1 in fields 5 and 8 (0: none).
    unknown: u32,
    /// Seconds between submits.
    gap: u64,
    /// The machine every model with a pool must size by the shared rule.
    pool: u32,
}

const SHAPES: [Shape; 5] = [
    Shape {
        name: "nodes-2048",
        header: "; MaxNodes: 2048\n; MaxProcs: 2048\n",
        jobs: 400,
        widest: 2048,
        unknown: 0,
        gap: 120,
        pool: 2048,
    },
    Shape {
        name: "multicore",
        header: "; MaxNodes: 128\n; MaxProcs: 1024\n",
        jobs: 400,
        widest: 1024,
        unknown: 0,
        gap: 120,
        pool: 1024,
    },
    Shape {
        name: "procs-50000",
        header: "; MaxProcs: 50000\n",
        jobs: 300,
        widest: 50_000,
        unknown: 0,
        gap: 300,
        pool: 50_000,
    },
    Shape {
        name: "nodes-only",
        header: "; MaxNodes: 64\n",
        jobs: 300,
        widest: 512,
        unknown: 0,
        gap: 120,
        pool: 512,
    },
    Shape {
        name: "unknown-procs",
        header: "; MaxProcs: 1500\n",
        jobs: 400,
        widest: 1500,
        unknown: 4,
        gap: 120,
        pool: 1500,
    },
];

/// 5,000 submits in 50 minutes: one batch of the SLA model's hour, past 4,096.
const BURST: Shape = Shape {
    name: "sla-burst",
    header: "; MaxProcs: 4096\n",
    jobs: 5000,
    widest: 256,
    unknown: 0,
    gap: 0,
    pool: 4096,
};

/// A small deterministic generator (an LCG), so that every shape is the same file on
/// every run.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
    *state >> 33
}

fn trace_text(shape: &Shape) -> String {
    let mut text = String::from(shape.header);
    let mut state = u64::from(shape.jobs) ^ u64::from(shape.widest);
    for id in 1..=shape.jobs {
        let submit = if shape.gap == 0 { u64::from(id) * 3 / 5 } else { u64::from(id) * shape.gap };
        let run = 60 + next(&mut state) % 3600;
        // Half the jobs narrow, half anywhere up to the widest, so that some are wider
        // than a node and the widest appears.
        let size = if id == 1 {
            u64::from(shape.widest)
        } else if next(&mut state).is_multiple_of(2) {
            1 + next(&mut state) % 8
        } else {
            1 + next(&mut state) % u64::from(shape.widest)
        };
        let size = if shape.unknown > 0 && id.is_multiple_of(shape.unknown) {
            "-1".to_owned()
        } else {
            size.to_string()
        };
        writeln!(text, "{id} {submit} 0 {run} {size} -1 -1 {size} {run} -1 1 1 1 1 1 1 -1 -1").unwrap();
    }
    text
}

fn json(args: &[&str]) -> serde_json::Value {
    let out = stdout(&host_sim(args));
    let line = out.lines().rev().find(|l| l.starts_with('{')).unwrap_or(&out);
    serde_json::from_str(line)
        .or_else(|_| serde_json::from_str(&out))
        .unwrap_or_else(|e| panic!("{e}: {out}"))
}

/// The log at `path` re-made and audited by the replay library: its accepted count.
fn verified(path: &Path) -> u64 {
    let file = std::fs::File::open(path).unwrap();
    let reader = replay::format::LogReader::new(std::io::BufReader::new(file)).unwrap();
    replay::verify::verify(reader).unwrap_or_else(|e| panic!("{}: {e}", path.display())).accepted
}

fn as_u64(value: &serde_json::Value) -> u64 {
    value.as_u64().or_else(|| value.as_f64().map(|f| f as u64)).unwrap_or_else(|| panic!("{value}"))
}

#[test]
fn every_model_runs_and_verifies_on_every_shape() {
    let dir = scratch("shapes");
    let mut table = String::from("shape          model    requests  accepted  log verified\n");
    for shape in &SHAPES {
        let trace = dir.join(format!("{}.swf", shape.name));
        std::fs::write(&trace, trace_text(shape)).unwrap();
        let trace = trace.to_str().unwrap();
        let log = |model: &str| dir.join(format!("{}-{model}.log", shape.name));
        let path = |model: &str| log(model).to_str().unwrap().to_owned();

        let run = json(&["run", "--trace", trace, "--json", "--log", &path("run")]);
        let (requests, accepted) =
            (as_u64(&run["mean"]["jobs_submitted"]), as_u64(&run["mean"]["jobs_accepted"]));
        assert_eq!(verified(&log("run")), accepted, "{}", shape.name);
        writeln!(table, "{:<14} run      {requests:>8}  {accepted:>8}  yes", shape.name).unwrap();

        let reserve = json(&["reserve", "--trace", trace, "--json", "--log", &path("reserve")]);
        assert_eq!(reserve["nodes"], shape.pool, "{}", shape.name);
        // The pool is sized in processors, as the requests are: none is too wide.
        assert!(
            reserve["rejected"].get("too_many_nodes").is_none(),
            "{}: {}",
            shape.name,
            reserve["rejected"]
        );
        let (requests, accepted) = (as_u64(&reserve["requests"]), as_u64(&reserve["accepted"]));
        assert!(accepted > 0, "{}", shape.name);
        assert_eq!(verified(&log("reserve")), accepted, "{}", shape.name);
        writeln!(table, "{:<14} reserve  {requests:>8}  {accepted:>8}  yes", shape.name).unwrap();

        let tiers = json(&["tiers", "--trace", trace, "--json", "--log", &path("tiers")]);
        let (requests, accepted) = (as_u64(&tiers["submitted"]), as_u64(&tiers["accepted"]));
        assert_eq!(requests, u64::from(shape.jobs), "{}: tiers keeps every job, sized or not", shape.name);
        assert_eq!(verified(&log("tiers")), accepted, "{}", shape.name);
        writeln!(table, "{:<14} tiers    {requests:>8}  {accepted:>8}  yes", shape.name).unwrap();

        sla_row(shape, trace, &log("sla"), &mut table);

        let compare = json(&["compare", "--trace", trace, "--json"]);
        let models: Vec<&str> =
            compare["rows"].as_array().unwrap().iter().map(|r| r["model"].as_str().unwrap()).collect();
        assert_eq!(models, ["run", "reserve", "tiers", "sla"], "{}", shape.name);
        assert!(compare.get("errors").is_none(), "{}: {compare}", shape.name);
        assert_eq!(compare["nodes"], shape.pool, "{}", shape.name);
    }
    println!("{table}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `sla` on `shape`: its machine by the shared rule, no request rejected as invalid or
/// for a full batch, a log that verifies; its row of the table, and the log's header.
fn sla_row(shape: &Shape, trace: &str, log: &Path, table: &mut String) -> replay::format::Header {
    let sla = json(&["sla", "--trace", trace, "--json", "--log", log.to_str().unwrap()]);
    assert_eq!(sla["nodes"], shape.pool, "{}", shape.name);
    let rejected = &sla["rejected"];
    assert_eq!((&rejected["batch_full"], &rejected["invalid"]), (&0.into(), &0.into()), "{}", shape.name);
    let (requests, accepted) = (as_u64(&sla["requests"]), as_u64(&sla["accepted"]));
    assert!(accepted > 0, "{}: {sla}", shape.name);
    assert_eq!(verified(log), accepted, "{}", shape.name);
    writeln!(table, "{:<14} sla      {requests:>8}  {accepted:>8}  yes", shape.name).unwrap();
    let file = std::fs::File::open(log).unwrap();
    replay::format::LogReader::new(std::io::BufReader::new(file)).unwrap().header().clone()
}

#[test]
fn an_hour_past_the_smallest_batch_is_decided_whole_by_a_larger_one() {
    let dir = scratch("shapes-burst");
    let trace = dir.join("burst.swf");
    std::fs::write(&trace, trace_text(&BURST)).unwrap();
    let mut table = String::new();
    let header = sla_row(&BURST, trace.to_str().unwrap(), &dir.join("burst-sla.log"), &mut table);
    assert_eq!(header.sla().map(|h| h.batch), Some(16_384), "5,000 requests in one hour");
    println!("{table}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn jobs_without_a_processor_count_are_left_out_by_the_models_with_a_pool() {
    let dir = scratch("shapes-unknown");
    let trace = dir.join("unknown.swf");
    let shape = &SHAPES[4];
    std::fs::write(&trace, trace_text(shape)).unwrap();
    let trace = trace.to_str().unwrap();
    let unknown = u64::from(shape.jobs / shape.unknown);
    let reserve = json(&["reserve", "--trace", trace, "--json"]);
    assert_eq!(reserve["excluded"]["no_processor_count"], unknown);
    let sla = json(&["sla", "--trace", trace, "--json"]);
    assert_eq!(as_u64(&sla["requests"]), u64::from(shape.jobs) - unknown);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_pool_past_every_compiled_size_names_the_capacity_and_the_option() {
    let dir = scratch("shapes-huge");
    let trace = dir.join("huge.swf");
    std::fs::write(&trace, "; MaxProcs: 200000\n1 0 0 600 8 -1 -1 8 600 -1 1 1 1 1 1 1 -1 -1\n").unwrap();
    let trace = trace.to_str().unwrap();
    let stderr = common::stderr_of_failure(&host_sim(&["reserve", "--trace", trace]));
    assert!(
        stderr.contains("200000 nodes") && stderr.contains("262144") && stderr.contains("--nodes"),
        "{stderr}"
    );
    // compare still gives the other models' rows, names the reservation's error in its
    // place and exits non-zero.
    let out = host_sim(&["compare", "--trace", trace]);
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success());
    assert!(table.contains("Lezama") && table.contains("Tomás") && table.contains("Yarmolenko"), "{table}");
    assert!(
        table.contains("reservation: could not run: reservations:") && table.contains("--nodes"),
        "{table}"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("could not run (reservation)"));
    let out = host_sim(&["compare", "--trace", trace, "--json"]);
    assert!(!out.status.success());
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let models: Vec<&str> =
        value["rows"].as_array().unwrap().iter().map(|r| r["model"].as_str().unwrap()).collect();
    assert_eq!(models, ["run", "tiers", "sla"]);
    assert_eq!(value["errors"][0]["model"], "reservation");
    assert!(value["errors"][0]["error"].as_str().unwrap().contains("262144"), "{value}");
    let fits = stdout(&host_sim(&["reserve", "--trace", trace, "--nodes", "131072", "--json"]));
    assert!(fits.contains("\"nodes\":131072"), "{fits}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_trace_without_any_size_is_an_empty_input_for_the_models_that_need_one() {
    let dir = scratch("shapes-unsized");
    let trace = dir.join("unsized.swf");
    std::fs::write(
        &trace,
        "; MaxProcs: 16\n1 0 0 600 -1 -1 -1 -1 900 -1 1 1 1 1 1 1 -1 -1\n2 100 0 1200 0 -1 -1 -1 1800 -1 1 1 1 1 1 1 -1 -1\n",
    )
    .unwrap();
    let trace = trace.to_str().unwrap();
    for model in ["reserve", "sla"] {
        let stderr = common::stderr_of_failure(&host_sim(&[model, "--trace", trace]));
        assert!(
            stderr.contains("no job has a processor count") && stderr.contains("--allow-empty"),
            "{stderr}"
        );
        let allowed = host_sim(&[model, "--trace", trace, "--allow-empty", "--json"]);
        assert!(allowed.status.success(), "{}", String::from_utf8_lossy(&allowed.stderr));
    }
    // The models that use no size run both jobs.
    let tiers = json(&["tiers", "--trace", trace, "--json"]);
    assert_eq!(tiers["submitted"], 2);
    std::fs::remove_dir_all(&dir).unwrap();
}
