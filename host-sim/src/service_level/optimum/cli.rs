//! `host-sim optimum` (one configuration, each window's `V*`) and `host-sim cv-sweep`
//! (the grid of [`super::grid`]): their options and each from options to output.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use replay::staged;

use super::capture::CapturedWindow;
use super::plan::limit_millis;
use super::shards::{Split, SplitArgs, write_plan, write_plan_csv};
use super::{Budget, Method, OptimumError, WindowRow, greedy_windows, sample, solve_windows};
use crate::error::CliError;
use crate::path_error::PathError;
use crate::service_level::cli::{ConfigArgs, InputArgs, config_of, load_windows};
use crate::service_level::sim::{RunConfig, WindowReport};
use crate::workload::Workload;

#[derive(Debug, Args)]
pub struct OptimumArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub config: ConfigArgs,
    #[command(flatten)]
    pub solve: SolveArgs,
    /// Solve only N windows, evenly spaced among the simulated ones (window
    /// floor((2i + 1) n / 2N) of n, for i below N); the greedy run still covers all.
    /// Without it, every window is solved.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub sample: Option<u64>,
    #[command(flatten)]
    pub split: SplitArgs,
    /// Write one CSV row per window here (besides the table on standard output); with
    /// --plan, the plan's rows; with --shard, the shard's folder (its part.json).
    /// Without it, only the table.
    #[arg(long, value_name = "FILE.csv")]
    pub out: Option<PathBuf>,
}

/// The solver's budget, shared by `optimum` and `cv-sweep`.
#[derive(Clone, Copy, Debug, Args)]
pub struct SolveArgs {
    /// Seconds the solver may spend on one window; a window it cannot close in that
    /// time is reported as a bracket [best schedule found, proven upper bound].
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    pub time_limit: f64,
    /// How the solver takes a window's clusters (see docs/competitive-factor.md)
    #[arg(long, value_enum, value_name = "NAME", default_value_t = Method::Steps)]
    pub method: Method,
}

impl SolveArgs {
    pub fn budget(&self) -> Result<Budget, CliError> {
        if self.time_limit.is_finite() && self.time_limit > 0.0 {
            Ok(Budget { seconds: self.time_limit, method: self.method })
        } else {
            Err(CliError::Usage(format!(
                "--time-limit {}: give a positive number of seconds",
                self.time_limit
            )))
        }
    }
}

/// Refuses early when the solver is not compiled in.
pub fn require_solver() -> Result<(), CliError> {
    if super::HAS_SOLVER { Ok(()) } else { Err(OptimumError::NoSolver.into()) }
}

/// `host-sim optimum`.
pub fn optimum(args: &OptimumArgs) -> Result<(), CliError> {
    let budget = args.solve.budget()?;
    let config = config_of(&args.input, &args.config)?;
    let workload = load_windows(&args.input, config.window_ticks)?;
    let grid = crate::shard::Grid {
        identity: format!("optimum {:?} {:?} {:?} {:?}", args.input, args.config, args.solve, args.sample),
        inputs: crate::summary::Core::of_workload("service_level", &workload).inputs,
        out: args.out.as_deref(),
    };
    let rows: Vec<WindowRow> = if args.split.shard.merge_parts.is_empty() {
        let Some(rows) = solve(args, &config, &workload, &grid, budget)? else { return Ok(()) };
        rows
    } else {
        crate::shard::read_parts(&args.split.shard.merge_parts, &grid)?
    };
    if let Some(path) = &args.out {
        write_csv(path, &[], &rows.iter().map(|r| (Vec::new(), r)).collect::<Vec<_>>())?;
    }
    write_table(&rows, crate::output::stdout()).map_err(|source| CliError::Io(PathError::stdout(source)))
}

/// The windows this run solves (every one, or its shard's), or `None` when it was a
/// shard (and wrote its part) or a plan (and printed it).
fn solve(
    args: &OptimumArgs,
    config: &RunConfig,
    workload: &Workload,
    grid: &crate::shard::Grid<'_>,
    budget: Budget,
) -> Result<Option<Vec<WindowRow>>, CliError> {
    let seconds = budget.seconds;
    let mut split = Split::new(&args.split);
    if split.solves() {
        require_solver()?;
    }
    if args.split.shard.shard.is_some() && grid.out.is_none() {
        return Err(crate::shard::ShardError::NoOut.into());
    }
    let count = args.sample.map(|n| usize::try_from(n).unwrap_or(usize::MAX));
    let windows = greedy_windows(config, workload, |n| sample(n, count))?;
    let machines = usize::from(config.machines);
    let of = |i: usize| (Vec::new(), windows[i].0.index, machines, &windows[i].1);
    let chosen = split.take(windows.len(), of, limit_millis(seconds));
    if let Some(count) = args.split.plan {
        if let Some(path) = &args.out {
            write_plan_csv(path, &[], &split.plan)?;
        }
        let out = crate::output::stdout();
        write_plan(&split.plan, count, limit_millis(seconds), out)
            .map_err(|e| CliError::Io(PathError::stdout(e)))?;
        return Ok(None);
    }
    let mine: Vec<&(WindowReport, CapturedWindow)> = chosen.iter().map(|&(i, _)| &windows[i]).collect();
    eprintln!("host-sim: solving {} windows, at most {seconds} s each", mine.len());
    let report = |row: &WindowRow| {
        eprintln!(
            "host-sim: window {} ({} jobs): V* {} in {:.2} s",
            row.window,
            row.jobs,
            super::exact::Bracket { best: row.v_star_best, upper: row.v_star_upper }.label(),
            row.solve_seconds
        );
    };
    let rows = solve_windows(&mine, machines, budget, &report)?;
    match args.split.shard.shard {
        Some(shard) => {
            let indices = chosen.into_iter().map(|(_, index)| index);
            crate::shard::write_part(grid, shard, split.seen, indices.zip(rows))?;
            Ok(None)
        }
        None => Ok(Some(rows)),
    }
}

/// The rows as a table: one line per window.
pub fn write_table(rows: &[WindowRow], mut out: impl Write) -> std::io::Result<()> {
    writeln!(
        out,
        "{:>6} {:>6} {:>14} {:>30} {:>15} {:>7} {:>7} {:>7} {:>8} {:>9}",
        "window", "jobs", "V", "V*", "c_V = V/V*", "c_V^u", "c_V^l", "bound", "seconds", "status"
    )?;
    for r in rows {
        let v_star = super::exact::Bracket { best: r.v_star_best, upper: r.v_star_upper }.label();
        let cv = if r.cv_low == r.cv_high {
            format!("{:.4}", r.cv_low)
        } else {
            format!("{:.4}..{:.4}", r.cv_low, r.cv_high)
        };
        writeln!(
            out,
            "{:>6} {:>6} {:>14} {:>30} {:>15} {:>7.4} {:>7.4} {:>7.4} {:>8.2} {:>9}",
            r.window,
            r.jobs,
            r.v,
            v_star,
            cv,
            r.cv_u,
            r.cv_l,
            r.greedy_bound,
            r.solve_seconds,
            match r.status {
                super::exact::Status::Exact => "exact",
                super::exact::Status::Bracketed => "bracketed",
            }
        )?;
    }
    out.flush()
}

/// The CSV of window rows, each after its leading columns (`lead` names them),
/// written by the `csv` crate (a trace's name with a comma is quoted).
pub fn write_csv(path: &Path, lead: &[&str], rows: &[(Vec<String>, &WindowRow)]) -> Result<(), CliError> {
    let named = |source: csv::Error| {
        CliError::Io(PathError { path: path.display().to_string(), source: std::io::Error::from(source) })
    };
    staged::write(path, |file, _| {
        let mut out = csv::Writer::from_writer(file);
        out.write_record(lead.iter().copied().chain(COLUMNS)).map_err(named)?;
        for (leading, r) in rows {
            let status = match r.status {
                super::exact::Status::Exact => "exact",
                super::exact::Status::Bracketed => "bracketed",
            };
            let fields = [
                r.window.to_string(),
                r.start_ticks.to_string(),
                r.jobs.to_string(),
                r.v.to_string(),
                r.v_star_best.to_string(),
                r.v_star_upper.to_string(),
                status.to_owned(),
                format!("{:.6}", r.cv_low),
                format!("{:.6}", r.cv_high),
                format!("{:.6}", r.cv_u),
                format!("{:.6}", r.cv_l),
                format!("{:.6}", r.greedy_bound),
                r.bound_limited.to_string(),
                r.bound_clustered.to_string(),
                r.clusters.to_string(),
                r.clusters_solved.to_string(),
                r.audited.to_string(),
                r.bound_by.name().to_owned(),
                format!("{:.3}", r.solve_seconds),
            ];
            out.write_record(leading.iter().chain(&fields)).map_err(named)?;
        }
        out.flush().map_err(|e| named(e.into()))
    })
}

/// The columns of a window row in the CSV.
pub const COLUMNS: [&str; 19] = [
    "window",
    "start_ticks",
    "jobs",
    "v",
    "v_star_best",
    "v_star_upper",
    "status",
    "cv_low",
    "cv_high",
    "cv_u",
    "cv_l",
    "greedy_bound",
    "bound_limited",
    "bound_clustered",
    "clusters",
    "clusters_solved",
    "audited",
    "bound_by",
    "solve_seconds",
];
