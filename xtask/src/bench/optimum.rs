//! `cargo xtask bench --optimum`: the competitive-factor sample solved by both of
//! `host-sim optimum`'s methods, side by side in one run. The sample is `cv-sweep`'s
//! `--weeks 1` (the middle one-week window of each trace at each grid point: single
//! mode sf 1..20, multi mode k 1..5), on every shared trace or those named, on one and
//! four machines. Trace after trace, each method's `cv-sweep` runs in turn (the order
//! alternating between traces) into `<target>/xtask/bench/optimum/<method>/<trace>/`.
//!
//! Of the windows a solver was needed for (`clusters_solved > 0`), the report gives
//! per method and machine count: how many, how many exact, how many bracketed, and the
//! median, largest and total solve time; `optimum.csv` beside it holds each window's
//! time and status under both methods. A window's solve time is its wall time on one
//! core (each window is solved on one thread).

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use super::context::{Context, median, progress, trace_name};
use crate::cmd::{Result, run};

/// The methods compared, as `--method` names them: the one before the steps first.
const METHODS: [&str; 2] = ["whole", "steps"];

/// What the benchmark runs on.
pub struct Sample<'a> {
    /// Shared traces by name (`KTH-SP2-1996-2.1-cln`); every one when empty.
    pub traces: &'a [String],
    pub machines: &'a [u16],
    pub time_limit: f64,
}

/// One window's result under one method.
#[derive(Clone, Debug)]
struct Solved {
    seconds: f64,
    exact: bool,
}

/// A window of the sample: trace, mode, sf or k, machines, window index.
type Key = (String, String, String, u16, u64);

pub fn optimum(sample: &Sample) -> Result {
    if !crate::toolchain::optimum()? {
        return Err("bench --optimum needs host-sim's solver: install cmake, a C++ compiler and libclang (see docs/competitive-factor.md)".into());
    }
    let ctx = Context::new()?;
    let traces: Vec<&Path> = if sample.traces.is_empty() {
        ctx.traces.iter().map(|t| t.as_path()).collect()
    } else {
        sample.traces.iter().map(|name| ctx.trace(name)).collect::<Result<_>>()?
    };
    let machines: Vec<String> = sample.machines.iter().map(u16::to_string).collect();
    let mut results: BTreeMap<Key, [Option<Solved>; 2]> = BTreeMap::new();
    for (t, trace) in traces.iter().enumerate() {
        let order = if t % 2 == 0 { [0, 1] } else { [1, 0] };
        for m in order {
            let out = ctx.out.join("optimum").join(METHODS[m]).join(trace_name(trace));
            progress(&format!("optimum: {} by {}", trace_name(trace), METHODS[m]));
            let mut cv = Command::new(ctx.host_sim());
            cv.arg("cv-sweep").arg("--trace").arg(trace).args(["--weeks", "1", "--no-plots"]);
            cv.args(["--machine-counts", &machines.join(","), "--method", METHODS[m]]);
            cv.arg("--time-limit").arg(sample.time_limit.to_string()).arg("--out").arg(&out);
            run(&format!("bench: optimum {} by {}", trace_name(trace), METHODS[m]), &mut cv)?;
            for (key, solved) in read(&out.join("cv.csv"))? {
                results.entry(key).or_default()[m] = Some(solved);
            }
        }
    }
    write_csv(&ctx.out.join("optimum/optimum.csv"), &results)?;
    println!("\n{}", table(&results, sample));
    Ok(())
}

/// The windows of `cv.csv` that needed the solver.
fn read(path: &Path) -> Result<Vec<(Key, Solved)>> {
    let why = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let mut reader = csv::Reader::from_path(path).map_err(|e| why(&e))?;
    let headers = reader.headers().map_err(|e| why(&e))?.clone();
    let column =
        |name: &str| headers.iter().position(|h| h == name).ok_or_else(|| why(&format!("no column {name}")));
    let [trace, mode, x, machines, window, status, solved, seconds] =
        ["trace", "mode", "sf_or_k", "machines", "window", "status", "clusters_solved", "solve_seconds"]
            .map(column);
    let (trace, mode, x, machines, window) = (trace?, mode?, x?, machines?, window?);
    let (status, solved, seconds) = (status?, solved?, seconds?);
    let mut rows = Vec::new();
    for (line, record) in reader.records().enumerate() {
        let record = record.map_err(|e| why(&e))?;
        let field = |i: usize| record.get(i).unwrap_or_default();
        let number = |i: usize| field(i).parse::<f64>().map_err(|e| why(&format!("row {}: {e}", line + 2)));
        if number(solved)? == 0.0 {
            continue;
        }
        let key = (
            field(trace).to_owned(),
            field(mode).to_owned(),
            field(x).to_owned(),
            number(machines)? as u16,
            number(window)? as u64,
        );
        rows.push((key, Solved { seconds: number(seconds)?, exact: field(status) == "exact" }));
    }
    Ok(rows)
}

fn write_csv(path: &Path, results: &BTreeMap<Key, [Option<Solved>; 2]>) -> Result {
    let why = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let mut writer = csv::Writer::from_path(path).map_err(|e| why(&e))?;
    let head = ["trace", "mode", "sf_or_k", "machines", "window"];
    let tail = METHODS.iter().flat_map(|m| [format!("{m}_seconds"), format!("{m}_status")]);
    writer.write_record(head.iter().map(|h| h.to_string()).chain(tail)).map_err(|e| why(&e))?;
    for ((trace, mode, x, machines, window), both) in results {
        let mut row = vec![trace.clone(), mode.clone(), x.clone(), machines.to_string(), window.to_string()];
        for solved in both {
            match solved {
                Some(s) => row.extend([format!("{:.3}", s.seconds), status(s).to_owned()]),
                None => row.extend([String::new(), String::new()]),
            }
        }
        writer.write_record(&row).map_err(|e| why(&e))?;
    }
    writer.flush().map_err(|e| why(&e))
}

fn status(solved: &Solved) -> &'static str {
    if solved.exact { "exact" } else { "bracketed" }
}

/// The Markdown table: per machine count and method, the windows the solver got.
fn table(results: &BTreeMap<Key, [Option<Solved>; 2]>, sample: &Sample) -> String {
    let mut out = format!(
        "Windows that needed the solver, time limit {} s per window\n\n\
         | machines | method | windows | exact | bracketed | median s | largest s | total s |\n\
         |---:|---|---:|---:|---:|---:|---:|---:|\n",
        sample.time_limit
    );
    for &m in sample.machines {
        for (i, method) in METHODS.iter().enumerate() {
            let solved: Vec<&Solved> =
                results.iter().filter(|(k, _)| k.3 == m).filter_map(|(_, both)| both[i].as_ref()).collect();
            let seconds: Vec<f64> = solved.iter().map(|s| s.seconds).collect();
            let exact = solved.iter().filter(|s| s.exact).count();
            out.push_str(&format!(
                "| {m} | {method} | {} | {exact} | {} | {:.2} | {:.2} | {:.1} |\n",
                solved.len(),
                solved.len() - exact,
                median(seconds.clone()).unwrap_or(0.0),
                seconds.iter().copied().fold(0.0, f64::max),
                seconds.iter().sum::<f64>()
            ));
        }
    }
    out
}
