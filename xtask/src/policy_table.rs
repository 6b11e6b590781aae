//! `cargo xtask policy-table`: which machine-choice policy wins which metric, the
//! Markdown table the docs show, made from the sweeps rather than by hand.
//!
//! 1. For each trace (every shared trace by default), `host-sim sweep` with the five
//!    policies on the thesis grid (`sf` 1..20 and `k` 1..20, 7-day windows, seed 1,
//!    the defaults) on 2, 4, ..., 64 machines, into `target/xtask/policy-table/NAME/`;
//!    or, with `--sweeps`, sweep results already written.
//! 2. Per metric (PRJ, MWT, MBSD lower is better; G, `c_V^l`, ME higher is better), each
//!    configuration (mode, `sf` or `k`, machines) is *contested* unless every policy has
//!    the same mean; one machine always ties, as every policy then decides alike.
//! 3. The tie rule, exact: means are compared as the `f64` the sweep computed.
//!    `sweep.csv` prints each as the shortest decimal that reads back to the same `f64`,
//!    so reading the file loses nothing and no rounding decides a tie. In a contested
//!    configuration the policy with the best mean has a *sole win*; two or more sharing
//!    the best mean each have a *tied win*.
//! 4. A cell `WF 72+20/140 (LL 31+22)`: worst fit had 72 sole and 20 tied wins in the
//!    140 contested configurations; least loaded is the runner-up. Policies rank by sole
//!    wins, then tied wins, then their order in the sweep.
//!
//! `--check FILE` fails unless FILE (a Markdown file showing the table) holds the
//! header and every computed row as a line of its own, so one trace's row is checked
//! without sweeping the others.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::cmd::{self, Result};

/// The options of `cargo xtask policy-table`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Traces to sweep, comma-separated: names in ../shared/traces (with or without
    /// .swf.gz) or paths; every shared trace by default.
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    traces: Vec<String>,
    /// Tally sweeps already written instead, comma-separated: each a sweep.csv or the
    /// folder holding one (the row is named after the folder).
    #[arg(long, value_name = "PATHS", value_delimiter = ',', conflicts_with = "traces")]
    sweeps: Vec<PathBuf>,
    /// Also write the table to FILE.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Fail unless FILE shows the table's header and every computed row, each as a line.
    #[arg(long, value_name = "FILE")]
    check: Option<PathBuf>,
}

/// The policies swept, in the order the tally breaks its last ties.
const POLICIES: &str = "first-fit,best-fit,worst-fit,least-loaded,round-robin";
/// The machine counts swept: one machine is left out, as every policy ties there.
const MACHINE_COUNTS: &str = "2,4,8,16,32,64";

/// Whether a metric is better lower or higher.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Better {
    Lower,
    Higher,
}

/// The table's columns: heading, `sweep.csv` key (its `KEY_mean` column), direction.
const METRICS: [(&str, &str, Better); 6] = [
    ("PRJ", "prj", Better::Lower),
    ("MWT", "mwt", Better::Lower),
    ("MBSD", "mbsd", Better::Lower),
    ("G", "g", Better::Higher),
    ("c_V^l", "cv_l", Better::Higher),
    ("ME", "me", Better::Higher),
];

pub fn policy_table(args: &Args) -> Result {
    let named = if args.sweeps.is_empty() {
        let Some(paths) = traces(&args.traces)? else { return Ok(()) };
        // The same build as every other step's, so none rebuilds host-sim differently.
        crate::toolchain::build_release_tools("policy-table: build release tools")?;
        run_sweeps(&paths)?
    } else {
        existing(&args.sweeps)
    };
    let table = read_and_render(named)?;
    print!("{table}");
    if let Some(out) = &args.out {
        std::fs::write(out, &table).map_err(|e| format!("{}: cannot write: {e}", out.display()))?;
    }
    match &args.check {
        Some(file) => check(file, &table),
        None => Ok(()),
    }
}

/// A step for `verify`, after its release build: the smallest trace's row (NASA's, a
/// sweep of about 10 s on 2 cores) computed and checked against the row `shown` holds.
pub(crate) fn verify_step(shown: &Path) -> Result {
    let Some(shared) = cmd::shared_traces("policy-table")? else { return Ok(()) };
    let paths: Vec<PathBuf> = shared.into_iter().filter(|p| trace_label(p) == VERIFY_TRACE).collect();
    if paths.is_empty() {
        return Err(format!("policy-table: {VERIFY_TRACE} is not among the shared traces"));
    }
    let table = read_and_render(run_sweeps(&paths)?)?;
    check(shown, &table)
}

/// The trace `verify_step` sweeps.
const VERIFY_TRACE: &str = "NASA-iPSC-1993-3.1-cln";

/// The traces asked for, or every shared trace; `None` when the shared traces are absent
/// (outside CI: `shared_traces` says so).
fn traces(asked: &[String]) -> Result<Option<Vec<PathBuf>>> {
    if asked.is_empty() {
        return cmd::shared_traces("policy-table");
    }
    asked.iter().map(|t| trace_path(t)).collect::<Result<Vec<_>>>().map(Some)
}

/// Runs each trace's sweep with the release host-sim, into target/xtask/policy-table/.
fn run_sweeps(paths: &[PathBuf]) -> Result<Vec<(String, PathBuf)>> {
    let mut named = Vec::new();
    for path in paths {
        let label = trace_label(path);
        let out = cmd::target_dir().join("xtask/policy-table").join(&label);
        let mut sweep = Command::new(cmd::host_sim_bin());
        sweep.current_dir(cmd::root()).arg("sweep").arg("--trace").arg(path);
        sweep
            .args(["--policy", POLICIES, "--machine-counts", MACHINE_COUNTS, "--no-plots", "--out"])
            .arg(&out);
        cmd::run(&format!("policy-table: sweep {label}"), &mut sweep)?;
        named.push((label, out.join("sweep.csv")));
    }
    Ok(named)
}

/// Reads each named `sweep.csv` and renders the table.
fn read_and_render(named: Vec<(String, PathBuf)>) -> Result<String> {
    let mut sweeps = Vec::new();
    for (label, csv) in named {
        let text =
            std::fs::read_to_string(&csv).map_err(|e| format!("{}: cannot read: {e}", csv.display()))?;
        sweeps.push((label, parse(&csv.display().to_string(), &text)?));
    }
    Ok(render(&sweeps))
}

/// A trace given by name (looked up in ../shared/traces) or by path.
fn trace_path(trace: &str) -> Result<PathBuf> {
    let given = PathBuf::from(trace);
    if given.is_file() {
        return Ok(given);
    }
    let shared = cmd::root().join("../shared/traces");
    [trace.to_owned(), format!("{trace}.swf.gz"), format!("{trace}.swf")]
        .into_iter()
        .map(|name| shared.join(name))
        .find(|p| p.is_file())
        .ok_or_else(|| format!("--traces: no trace `{trace}`, as a path or in {}", shared.display()))
}

/// A trace's row name: its file name without `.gz` and `.swf`.
fn trace_label(path: &Path) -> String {
    let name = path.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let name = name.strip_suffix(".gz").unwrap_or(&name);
    name.strip_suffix(".swf").unwrap_or(name).to_owned()
}

/// Sweeps already written: a `sweep.csv` or its folder, named after the folder.
fn existing(sweeps: &[PathBuf]) -> Vec<(String, PathBuf)> {
    sweeps
        .iter()
        .map(|given| {
            let csv = if given.is_dir() { given.join("sweep.csv") } else { given.clone() };
            let folder = csv.parent().and_then(Path::file_name);
            let label =
                folder.map_or_else(|| csv.display().to_string(), |f| f.to_string_lossy().into_owned());
            (label, csv)
        })
        .collect()
}

/// One sweep's means: the policies in the file's order, and per configuration (in the
/// file's order) each policy's mean of each metric of `METRICS`.
#[derive(Debug, PartialEq)]
struct Sweep {
    policies: Vec<String>,
    means: Vec<Vec<[f64; METRICS.len()]>>,
}

/// The header's column of `name`.
fn column(file: &str, header: &csv::StringRecord, name: &str) -> Result<usize> {
    header.iter().position(|h| h == name).ok_or_else(|| format!("{file}: line 1: no column `{name}`"))
}

/// Reads a `sweep.csv` (with the `csv` crate, as host-sim wrote it).
fn parse(file: &str, text: &str) -> Result<Sweep> {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header = reader.headers().map_err(|e| format!("{file}: {e}"))?.clone();
    let mode = column(file, &header, "mode")?;
    let slack = column(file, &header, "sf_or_k")?;
    let machines = column(file, &header, "machines")?;
    let policy = column(file, &header, "policy")?;
    let mut metric_columns = [0; METRICS.len()];
    for (slot, (_, key, _)) in metric_columns.iter_mut().zip(METRICS) {
        *slot = column(file, &header, &format!("{key}_mean"))?;
    }
    let mut policies: Vec<String> = Vec::new();
    let mut configurations: HashMap<String, usize> = HashMap::new();
    let mut rows: Vec<Vec<Option<[f64; METRICS.len()]>>> = Vec::new();
    for record in reader.records() {
        // A row of another length is the csv crate's error, which names its line.
        let fields = record.map_err(|e| format!("{file}: {e}"))?;
        let at = format!("{file}: line {}", fields.position().map_or(0, csv::Position::line));
        let field = |i: usize| fields.get(i).unwrap_or("");
        let name = field(policy);
        let p = policies.iter().position(|q| q == name).unwrap_or_else(|| {
            policies.push(name.to_owned());
            policies.len() - 1
        });
        let key =
            format!("{}, {} {}, {} machines", field(mode), &header[slack], field(slack), field(machines));
        let next = rows.len();
        let c = *configurations.entry(key.clone()).or_insert(next);
        if c == rows.len() {
            rows.push(Vec::new());
        }
        rows[c].resize(policies.len(), None);
        if rows[c][p].is_some() {
            return Err(format!("{at}: a second row for {name} at {key}"));
        }
        let mut means = [0.0; METRICS.len()];
        for (mean, &col) in means.iter_mut().zip(&metric_columns) {
            *mean = field(col).parse::<f64>().ok().filter(|v| v.is_finite()).ok_or_else(|| {
                format!("{at}: field {}: `{}` is not a finite number", &header[col], field(col))
            })?;
        }
        rows[c][p] = Some(means);
    }
    complete(file, &policies, &configurations, rows)
}

/// The rows, once every configuration has a row of every policy.
fn complete(
    file: &str,
    policies: &[String],
    configurations: &HashMap<String, usize>,
    rows: Vec<Vec<Option<[f64; METRICS.len()]>>>,
) -> Result<Sweep> {
    if policies.len() < 2 {
        return Err(format!("{file}: {} polic(ies); a comparison needs two or more", policies.len()));
    }
    let mut means = Vec::with_capacity(rows.len());
    for (c, mut row) in rows.into_iter().enumerate() {
        row.resize(policies.len(), None);
        if let Some(p) = row.iter().position(Option::is_none) {
            let key = configurations.iter().find(|(_, i)| **i == c).map_or("?", |(k, _)| k.as_str());
            return Err(format!("{file}: no row for {} at {key}", policies[p]));
        }
        means.push(row.into_iter().flatten().collect());
    }
    Ok(Sweep { policies: policies.to_vec(), means })
}

/// One metric's wins: sole and tied wins per policy, and the contested configurations.
#[derive(Debug, PartialEq, Eq)]
struct Tally {
    sole: Vec<u32>,
    tied: Vec<u32>,
    contested: u32,
}

fn tally(sweep: &Sweep, metric: usize, better: Better) -> Tally {
    let n = sweep.policies.len();
    let mut result = Tally { sole: vec![0; n], tied: vec![0; n], contested: 0 };
    for configuration in &sweep.means {
        let values: Vec<f64> = configuration.iter().map(|m| m[metric]).collect();
        let best = values.iter().copied().fold(values[0], |a, b| match better {
            Better::Lower => a.min(b),
            Better::Higher => a.max(b),
        });
        // Exact equality on purpose: the tie rule compares the computed means.
        let winners: Vec<usize> = (0..n).filter(|&p| values[p] == best).collect();
        if winners.len() == n {
            continue;
        }
        result.contested += 1;
        let counts = if winners.len() == 1 { &mut result.sole } else { &mut result.tied };
        for p in winners {
            counts[p] += 1;
        }
    }
    result
}

/// A policy's short name in the table.
fn short(policy: &str) -> &str {
    match policy {
        "first-fit" => "FF",
        "best-fit" => "BF",
        "worst-fit" => "WF",
        "least-loaded" => "LL",
        "round-robin" => "RR",
        other => other,
    }
}

/// `WF 72+20/140 (LL 31+22)`, or `all tie` when no configuration is contested.
fn cell(policies: &[String], tally: &Tally) -> String {
    if tally.contested == 0 {
        return "all tie".to_owned();
    }
    let mut order: Vec<usize> = (0..policies.len()).collect();
    order.sort_by_key(|&p| (std::cmp::Reverse((tally.sole[p], tally.tied[p])), p));
    let win = |p: usize| format!("{} {}+{}", short(&policies[p]), tally.sole[p], tally.tied[p]);
    format!("{}/{} ({})", win(order[0]), tally.contested, win(order[1]))
}

/// The Markdown table: a header, then one row per sweep.
fn render(sweeps: &[(String, Sweep)]) -> String {
    let mut table = String::from("| trace |");
    for (heading, _, _) in METRICS {
        let _ = write!(table, " {heading} |");
    }
    table.push_str("\n|---|");
    table.push_str(&"---|".repeat(METRICS.len()));
    table.push('\n');
    for (label, sweep) in sweeps {
        let _ = write!(table, "| {label} |");
        for (metric, (_, _, better)) in METRICS.iter().enumerate() {
            let _ = write!(table, " {} |", cell(&sweep.policies, &tally(sweep, metric, *better)));
        }
        table.push('\n');
    }
    table
}

/// Every line of `table` must be a line of `file`; a row that differs is shown beside
/// the file's row of the same trace.
fn check(file: &Path, table: &str) -> Result {
    let shown = std::fs::read_to_string(file).map_err(|e| format!("{}: cannot read: {e}", file.display()))?;
    let problems = differences(&file.display().to_string(), &shown, table);
    if problems.is_empty() {
        println!("==> policy-table: {} shows every computed row", file.display());
        Ok(())
    } else {
        Err(format!("policy-table --check:\n{}", problems.join("\n")))
    }
}

fn differences(file: &str, shown: &str, table: &str) -> Vec<String> {
    let lines: Vec<&str> = shown.lines().collect();
    let mut problems = Vec::new();
    for computed in table.lines().filter(|row| !lines.contains(row)) {
        let first_cell = computed.split(" |").next().unwrap_or(computed);
        let label = format!("{first_cell} |");
        match lines.iter().position(|l| l.starts_with(&label)) {
            Some(i) => problems.push(format!(
                "{file}: line {}: the row differs from the sweep's\n  shown:    {}\n  computed: {computed}",
                i + 1,
                lines[i]
            )),
            None => problems.push(format!("{file}: no line `{computed}`")),
        }
    }
    problems
}

#[cfg(test)]
#[path = "policy_table/tests.rs"]
mod tests;
