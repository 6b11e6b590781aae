//! `host-sim cv-sweep`: the true competitive factor over the thesis' grid.
//!
//! Each `--trace` is a trace of its own (not merged). For each, each mode (`single`:
//! one level of slack factor `sf`; `multi`: the thesis' set of `k` levels `1..k`), each
//! `sf` or `k` and each machine count, the greedy run covers the whole trace in
//! `--window` windows (as `sweep` runs it, so its `c_V^u` and `c_V^l` are the sweep's),
//! and the optimum is solved on `--weeks` of its windows, evenly spaced
//! ([`super::sample`]): the same windows of a trace for every configuration.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use clap::Args;
use kernel::service_level::SLACK_ONE_MILLI;
use rayon::prelude::*;

use super::capture::CapturedWindow;
use super::cli::{SolveArgs, require_solver, write_csv};
use super::plan::limit_millis;
use super::shards::{Split, SplitArgs};
use super::{GridRow, LEAD, Point, WindowRow, greedy_windows, sample, solve_window};
use crate::error::CliError;
use crate::input::TraceArgs;
use crate::service_level::cli::{InputArgs, List, WindowTicks, check_queue_capacity};
use crate::service_level::cli::{parse_machine_counts, parse_modes, parse_slacks, parse_window};
use crate::service_level::levels::{single, thesis_set};
use crate::service_level::sim::{RunConfig, WindowReport};
use crate::service_level::sweep::Mode;
use crate::units::Refused;
use crate::units::format_milli;

// The shared input options, said as cv-sweep reads them: each trace on its own, and
// never the synthetic workload.
#[derive(Debug, Args)]
#[command(mut_arg("trace", |a| a.help(
    "SWF trace, plain or gzipped. Give it several times for several traces: each is run \
     and solved on its own (not merged). Without it, cv-sweep refuses to run",
)))]
#[command(mut_arg("jobs", |a| a.help("Not used: cv-sweep reads only traces")))]
#[command(mut_arg("seed", |a| a.help("Seeds the level draw of multi mode")))]
pub struct CvSweepArgs {
    /// Traces, each `--trace` run on its own; `--seed`, `--queue-capacity` and `--alpha`
    /// as `run`'s.
    #[command(flatten)]
    pub input: InputArgs,
    /// Window length: a whole number with a unit s, m, h, d or w; a bare number is
    /// seconds (ticks); `all` for one window.
    #[arg(long, value_name = "DURATION", default_value = "7d", allow_hyphen_values = true, value_parser = parse_window)]
    pub window: WindowTicks,
    /// Windows solved per trace, evenly spaced among its simulated windows.
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = clap::value_parser!(u64).range(1..))]
    pub weeks: u64,
    /// Slack factors of single mode.
    #[arg(
        long,
        value_name = "LIST",
        default_value = "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20",
        allow_hyphen_values = true,
        value_parser = parse_slacks
    )]
    pub slacks: List<u32>,
    /// Level counts k of multi mode (levels 1..k).
    #[arg(long, value_name = "LIST", default_value = "1,2,3,4,5", allow_hyphen_values = true, value_parser = parse_ks)]
    pub ks: List<u32>,
    /// Machine counts.
    #[arg(long, value_name = "LIST", default_value = "1,4", allow_hyphen_values = true, value_parser = parse_machine_counts)]
    pub machine_counts: List<u16>,
    /// Modes: single, multi, or both.
    #[arg(long, value_name = "LIST", default_value = "single,multi", allow_hyphen_values = true, value_parser = parse_modes)]
    pub modes: List<Mode>,
    #[command(flatten)]
    pub solve: SolveArgs,
    #[command(flatten)]
    pub split: SplitArgs,
    /// Write DIR/cv.csv (one row per window), DIR/cv-summary.csv and the cv figures
    /// (with --shard, only the shard's part.json; with --plan, only plan.csv).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    #[command(flatten)]
    pub plots: crate::plot::PlotArgs,
}

/// The grid's configurations, parsed once.
#[derive(Debug)]
struct Grid {
    configs: Vec<(Mode, u32)>,
    machine_counts: Vec<u16>,
    weeks: usize,
    window_ticks: Option<u64>,
    alpha_milli: u64,
}

/// `host-sim cv-sweep`: trace after trace, the files rewritten with every row so far
/// after each, so that a long grid stopped part way keeps the traces it finished.
pub fn cv_sweep(args: &CvSweepArgs) -> Result<(), CliError> {
    let budget = args.solve.budget()?;
    let grid = grid_of(args)?;
    if !args.split.shard.merge_parts.is_empty() {
        return merge(args, &grid);
    }
    let mut split = Split::new(&args.split);
    if split.solves() {
        require_solver()?;
    }
    let limit = limit_millis(budget.seconds);
    let (mut rows, mut indices, mut inputs) = (Vec::new(), Vec::new(), Vec::new());
    for path in &args.input.source.trace {
        let (work, input) = trace_work(&grid, &trace_input(args, path), path)?;
        inputs.extend(input);
        let of = |i: usize| {
            let (point, report, window) = &work[i];
            (point.lead(), report.index, usize::from(point.machines), window)
        };
        let chosen = split.take(work.len(), of, limit);
        rows.extend(solve_all(&chosen.iter().map(|&(i, _)| &work[i]).collect::<Vec<_>>(), budget)?);
        indices.extend(chosen.into_iter().map(|(_, index)| index));
        if args.split.shard.shard.is_none() && split.solves() {
            write_outputs(&args.out, &rows, args.plots)?;
        }
    }
    let identity = crate::shard::Grid { identity: identity(args, &grid), inputs, out: Some(&args.out) };
    if let Some(count) = args.split.plan {
        return write_plan(&args.out, &split, count, limit);
    }
    if let Some(shard) = args.split.shard.shard {
        return Ok(crate::shard::write_part(&identity, shard, split.seen, indices.into_iter().zip(rows))?);
    }
    super::figures::write_markdown(&rows, crate::output::stdout())
        .map_err(|source| CliError::Io(crate::path_error::PathError::stdout(source)))
}

/// The grid of `args`, checked.
fn grid_of(args: &CvSweepArgs) -> Result<Grid, CliError> {
    check_queue_capacity(args.input.queue_capacity)?;
    if args.input.source.trace.is_empty() {
        return Err(CliError::Usage("cv-sweep needs at least one --trace".into()));
    }
    let mut configs: Vec<(Mode, u32)> = Vec::new();
    for &mode in &args.modes.0 {
        let xs = match mode {
            Mode::Single => args.slacks.0.clone(),
            Mode::Multi => args.ks.0.clone(),
        };
        configs.extend(xs.into_iter().map(|x| (mode, x)));
    }
    Ok(Grid {
        configs,
        machine_counts: args.machine_counts.0.clone(),
        weeks: usize::try_from(args.weeks).unwrap_or(usize::MAX),
        window_ticks: args.window,
        alpha_milli: args.input.alpha,
    })
}

/// What the rows of a cv grid depend on besides its traces' content.
fn identity(args: &CvSweepArgs, grid: &Grid) -> String {
    format!("cv-sweep {grid:?} {:?} {:?}", args.input, args.solve)
}

/// The input options of one of cv-sweep's traces.
fn trace_input(args: &CvSweepArgs, path: &Path) -> InputArgs {
    InputArgs {
        source: TraceArgs { trace: vec![path.to_path_buf()], ..args.input.source.clone() },
        ..args.input.clone()
    }
}

/// The shards' parts joined: the outputs the unsplit run writes, from their rows.
fn merge(args: &CvSweepArgs, grid: &Grid) -> Result<(), CliError> {
    let mut inputs = Vec::new();
    for path in &args.input.source.trace {
        let workload = crate::service_level::cli::load_windows(&trace_input(args, path), grid.window_ticks)?;
        inputs.extend(crate::summary::Core::of_workload("service_level", &workload).inputs);
    }
    let identity = crate::shard::Grid { identity: identity(args, grid), inputs, out: Some(&args.out) };
    let rows: Vec<GridRow> = crate::shard::read_parts(&args.split.shard.merge_parts, &identity)?;
    write_outputs(&args.out, &rows, args.plots)?;
    super::figures::write_markdown(&rows, crate::output::stdout())
        .map_err(|source| CliError::Io(crate::path_error::PathError::stdout(source)))
}

/// `--plan N`: each shard's expected time on standard output, each window's in
/// `DIR/plan.csv`.
fn write_plan(dir: &Path, split: &Split, count: u32, limit: u64) -> Result<(), CliError> {
    std::fs::create_dir_all(dir).map_err(|source| {
        CliError::Io(crate::path_error::PathError { path: dir.display().to_string(), source })
    })?;
    super::shards::write_plan_csv(&dir.join("plan.csv"), &LEAD, &split.plan)?;
    super::shards::write_plan(&split.plan, count, limit, crate::output::stdout())
        .map_err(|source| CliError::Io(crate::path_error::PathError::stdout(source)))
}

/// A trace's windows to solve: each with its grid point and the greedy run's report.
type Work = Vec<(Point, WindowReport, CapturedWindow)>;

/// One trace's greedy runs, every configuration, and the sampled windows of each,
/// and the trace by content.
fn trace_work(
    grid: &Grid,
    input: &InputArgs,
    path: &Path,
) -> Result<(Work, Vec<crate::summary::InputRef>), CliError> {
    let workload = crate::service_level::cli::load_windows(input, grid.window_ticks)?;
    let inputs = crate::summary::Core::of_workload("service_level", &workload).inputs;
    let trace =
        path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
    let points: Vec<Point> = grid
        .configs
        .iter()
        .flat_map(|&(mode, x_milli)| {
            grid.machine_counts.iter().map(move |&machines| (mode, x_milli, machines))
        })
        .map(|(mode, x_milli, machines)| Point { trace: trace.clone(), mode, x_milli, machines })
        .collect();
    let runs: Vec<Result<Vec<_>, CliError>> = points
        .par_iter()
        .map(|point| {
            let levels = match point.mode {
                Mode::Single => single(point.x_milli),
                Mode::Multi => thesis_set(point.x_milli / SLACK_ONE_MILLI),
            };
            let config = RunConfig {
                queue_capacity: input.queue_capacity,
                seed: input.seed,
                window_ticks: grid.window_ticks,
                alpha_milli: grid.alpha_milli,
                ..RunConfig::new(point.machines, levels)
            };
            let windows = greedy_windows(&config, &workload, |n| sample(n, Some(grid.weeks)))?;
            Ok(windows.into_iter().map(|(r, w)| (point.clone(), r, w)).collect())
        })
        .collect();
    let mut work = Vec::new();
    for run in runs {
        work.extend(run?);
    }
    eprintln!("host-sim: {trace}: {} windows", work.len());
    Ok((work, inputs))
}

fn parse_ks(text: &str) -> Result<List<u32>, Refused> {
    let mut ks = Vec::new();
    for item in crate::units::items(text).map_err(Refused::of)? {
        let k = item.parse::<u32>().ok().filter(|k| (1..=32).contains(k)).ok_or_else(|| {
            Refused(format!("{} is not a whole number from 1 to 32", replay::echo::echo(item)))
        })?;
        if ks.contains(&(k * SLACK_ONE_MILLI)) {
            return Err(Refused(format!("{k} is given twice")));
        }
        ks.push(k * SLACK_ONE_MILLI);
    }
    Ok(List(ks))
}

/// Every window solved, in parallel, with a line on standard error as each is done.
fn solve_all(
    work: &[&(Point, WindowReport, CapturedWindow)],
    budget: super::Budget,
) -> Result<Vec<GridRow>, CliError> {
    let done = AtomicU64::new(0);
    let total = work.len();
    work.par_iter()
        .map(|(point, report, window)| {
            let row = solve_window(report, window, usize::from(point.machines), budget)?;
            let n = done.fetch_add(1, Ordering::Relaxed) + 1;
            eprintln!(
                "host-sim: [{n}/{total}] {} {} {} m{} window {}: {:?} {:.2} s",
                point.trace,
                point.mode.name(),
                format_milli(u64::from(point.x_milli)),
                point.machines,
                row.window,
                row.status,
                row.solve_seconds
            );
            Ok(GridRow { point: point.clone(), row })
        })
        .collect()
}

fn write_outputs(dir: &Path, rows: &[GridRow], plots: crate::plot::PlotArgs) -> Result<(), CliError> {
    std::fs::create_dir_all(dir).map_err(|source| {
        CliError::Io(crate::path_error::PathError { path: dir.display().to_string(), source })
    })?;
    let table: Vec<(Vec<String>, &WindowRow)> = rows.iter().map(|r| (r.point.lead(), &r.row)).collect();
    write_csv(&dir.join("cv.csv"), &LEAD, &table)?;
    super::figures::write_summary(&dir.join("cv-summary.csv"), rows)?;
    eprintln!("host-sim: wrote {} rows to {}", rows.len(), dir.join("cv.csv").display());
    plots.write_figures(dir, || super::figures::write(dir, rows))?;
    Ok(())
}
