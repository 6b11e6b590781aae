//! The `compare` subcommand: its options and its outputs.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;

use super::{CompareError, Row};
use crate::error::CliError;
use crate::input::TraceArgs;
use crate::path_error::PathError;
use crate::workload::Workload;

/// `host-sim compare`.
#[derive(Debug, Args)]
#[command(
    after_help = "Example: host-sim compare --trace ../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz --out out/cmp"
)]
pub struct CompareArgs {
    /// The trace input (required).
    #[command(flatten)]
    pub source: TraceArgs,
    #[arg(
        long,
        value_name = "N",
        value_parser = clap::value_parser!(u32).range(1..),
        help = concat!(
            "Processors of the machine for the models with a pool (reservations, SLA), each node one processor (",
            crate::input::pool_rule_help!(),
            ")"
        )
    )]
    pub nodes: Option<u32>,
    /// Write DIR/compare.csv, DIR/compare.json and the figures DIR/compare.svg
    /// (accepted), DIR/compare_wait.svg, DIR/compare_slowdown.svg and
    /// DIR/compare_utilisation.svg too.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Print the rows as one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// The models that give each request the job's processor count, with their names in
/// errors: on a trace without one, they cannot run.
const SIZED: [(&str, &str); 2] = [("reservation", "reservations"), ("sla", "sla")];

/// Every model's row, as [`crate::model::compare_all`] gives them, but a model of
/// [`SIZED`] on jobs that have no processor count is not run: its row is the error
/// that says so, not a row of 0 requests.
fn rows_of(workload: &Workload, nodes: u32) -> Vec<(&'static str, Result<Row, CompareError>)> {
    let no_sizes = !workload.jobs.iter().any(|job| job.procs > 0);
    let models = crate::model::MODELS.iter();
    models
        .map(|&(name, row)| match SIZED.iter().find(|sized| sized.0 == name) {
            Some(&(_, model)) if no_sizes => {
                (name, Err(CompareError::NoSizes { model, jobs: workload.jobs.len() }))
            }
            _ => (name, row(workload, nodes)),
        })
        .collect()
}

/// Says on standard error when some jobs, not all, have no processor count: the
/// models of [`SIZED`] leave them out, so their rows count fewer requests.
fn note_unsized(workload: &Workload) {
    let jobs = &workload.jobs;
    let unsized_jobs = jobs.iter().filter(|job| job.procs == 0).count();
    if unsized_jobs > 0 && unsized_jobs < jobs.len() {
        eprintln!(
            "host-sim: {unsized_jobs} of {} usable jobs have no processor count (SWF fields 5 and 8): \
             reservations and sla leave them out, so their rows count fewer requests",
            jobs.len()
        );
    }
}

/// `host-sim compare`: every model on the trace, as a table (or JSON), and with
/// `--out` as CSV, JSON and a figure.
pub fn run(args: &CompareArgs) -> Result<(), CliError> {
    let Some(trace) = args.source.read()? else {
        return Err(CliError::Usage("--trace is required: compare runs every model on a trace".into()));
    };
    trace.workload.check_not_empty(args.source.allow_empty)?;
    let nodes = args.nodes.unwrap_or_else(|| trace.pool_size(&trace.workload.jobs));
    note_unsized(&trace.workload);
    let (mut rows, mut failed) = (Vec::new(), Vec::new());
    for (model, result) in rows_of(&trace.workload, nodes) {
        match result {
            Ok(row) => rows.push(row),
            Err(error) => failed.push((model, error)),
        }
    }
    let core = serde_json::to_value(crate::summary::Core::of_workload("compare", &trace.workload))
        .map_err(|e| CliError::Usage(e.to_string()))?;
    let mut document = serde_json::json!({ "nodes": nodes, "rows": rows });
    if let (Some(document), serde_json::Value::Object(core)) = (document.as_object_mut(), core) {
        document.extend(core);
    }
    // Only when a model failed, so that a run where all ran writes what it always did.
    if !failed.is_empty() {
        let errors =
            failed.iter().map(|(model, e)| serde_json::json!({ "model": model, "error": e.to_string() }));
        document["errors"] = errors.collect();
    }
    if let Some(dir) = &args.out {
        let io = |path: &Path| {
            let path = path.display().to_string();
            move |source| CliError::Io(PathError { path, source })
        };
        std::fs::create_dir_all(dir).map_err(io(dir))?;
        let csv = dir.join("compare.csv");
        let mut text = Vec::new();
        super::write_csv(&rows, &mut text).map_err(io(&csv))?;
        replay::staged::write_all(&csv, &text).map_err(|e| CliError::Io(e.into()))?;
        let json = dir.join("compare.json");
        replay::staged::write_all(&json, format!("{document:#}\n").as_bytes())
            .map_err(|e| CliError::Io(e.into()))?;
        // No model ran: there is nothing to draw, and the errors follow.
        if !rows.is_empty() {
            crate::plot::write_all(
                dir,
                super::charts(&titled(&trace.workload), &rows).into_iter().map(|(n, c)| (n.to_owned(), c)),
            )
            .map_err(|e| CliError::Usage(e.to_string()))?;
        }
    }
    let stdout = crate::output::stdout();
    let written = if args.json {
        let mut out = stdout;
        writeln!(out, "{document}")
    } else {
        let mut out = stdout;
        super::write_table(&rows, &mut out).and_then(|()| {
            failed.iter().try_for_each(|(model, error)| writeln!(out, "{model}: could not run: {error}"))
        })
    };
    written.map_err(|source| CliError::Io(PathError::stdout(source)))?;
    match failed.len() {
        0 => Ok(()),
        _ => Err(CliError::Compare(CompareError::Failed(failed.iter().map(|(m, _)| *m).collect()))),
    }
}

/// The trace as a chart title names it: its file name, and the cut `--limit` made.
fn titled(workload: &crate::workload::Workload) -> String {
    let name = workload.file_name();
    let limit = workload.settings.iter().find(|s| s.key == "limit");
    limit.map_or(name.clone(), |limit| format!("{name} (its first {} jobs)", limit.value))
}
