//! The service-level model's subcommands, `run`, `sweep` and `criteria`: their
//! options, and each one from its options to its output.

use std::path::PathBuf;

use clap::Args;
use replay::engine::service_level::{DEFAULT_QUEUE_CAPACITY, MAX_MACHINES, QUEUE_CAPACITIES};

use crate::error::CliError;
use crate::input::TraceArgs;
use crate::output::RunOutputArgs;
use crate::path_error::PathError;
use crate::progress;
use crate::service_level::levels::{self, LevelError};
use crate::service_level::once::Run;
use crate::service_level::record::Files;
use crate::service_level::report::{self, RunSummary};
use crate::service_level::sim::RunConfig;
use crate::service_level::sweep::{self, Mode, SweepConfig, SweepDocument};
use crate::synthetic::{self, DEFAULT_JOBS, SyntheticParams};
use crate::workload::Workload;

mod lists;
use lists::{Policies, parse_policies, parse_policy, parse_prices, parse_seeds, parse_slack};
pub(crate) use lists::{List, WindowTicks, parse_machine_counts, parse_modes, parse_slacks, parse_window};

/// The queue capacities that are compiled in ([`QUEUE_CAPACITIES`]), as every
/// `--queue-capacity` help names them (`tests/help.rs` holds the two alike).
macro_rules! queue_capacities {
    () => {
        "16, 32, 64, 256 or 1024"
    };
}
pub(crate) use queue_capacities;

/// Where the jobs come from, and what every run shares.
#[derive(Clone, Debug, Args)]
pub struct InputArgs {
    /// The trace input (without --trace, the built-in synthetic workload).
    #[command(flatten)]
    pub source: TraceArgs,
    /// Jobs in the synthetic workload.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_JOBS, value_parser = crate::units::whole32)]
    pub jobs: u32,
    /// Seeds the level draw and the synthetic workload.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = crate::units::seed)]
    pub seed: u64,
    #[arg(long, value_name = "N", default_value_t = DEFAULT_QUEUE_CAPACITY, value_parser = queue_capacity,
          help = concat!(
        "Jobs each machine's queue can hold: ", queue_capacities!(), " (the compiled sizes). A job \
         that only a full queue could take is rejected as queue_full"))]
    pub queue_capacity: u32,
    /// Cost per tick of the benefit metric G (up to three decimals).
    #[arg(long, value_name = "NUMBER", default_value = "1", allow_hyphen_values = true, value_parser = crate::units::milli)]
    pub alpha: u64,
    /// Keep only the jobs of the first N windows of `--window` length (the thesis ran
    /// 30 one-week windows); without it, every window.
    #[arg(long, value_name = "N", value_parser = crate::units::count)]
    pub windows: Option<u64>,
}

/// One configuration's machines, levels, windows and policy: `run`'s, and
/// `optimum`'s, which re-makes the run.
#[derive(Clone, Debug, Args)]
pub struct ConfigArgs {
    /// Machines, 1 to 64.
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u16).range(1..=i64::from(MAX_MACHINES)))]
    pub machines: u16,
    /// One service level with this slack factor (default 2; e.g. 1.5).
    #[arg(long, value_name = "NUMBER", conflicts_with = "levels", allow_hyphen_values = true, value_parser = parse_slack)]
    pub slack: Option<u32>,
    /// Several service levels, their slack factors comma-separated, e.g. 1,2,3,4,5 (at
    /// most 32); each job's level is drawn uniformly. Without it, the one level of
    /// --slack.
    #[arg(long, value_name = "LIST", allow_hyphen_values = true, value_parser = parse_slacks)]
    pub levels: Option<List<u32>>,
    /// Prices per tick, whole numbers, one per level, comma-separated (default:
    /// max(1, ceil(21 - sf))).
    #[arg(long, value_name = "LIST", allow_hyphen_values = true, value_parser = parse_prices)]
    pub prices: Option<List<u32>>,
    /// Cut the input into windows of this length, each simulated from an empty system:
    /// a whole number with a unit s, m, h, d or w (`7d`); a bare number is seconds
    /// (ticks); `all` for one window.
    #[arg(long, value_name = "DURATION", default_value = "all", allow_hyphen_values = true, value_parser = parse_window)]
    pub window: WindowTicks,
    /// Which feasible machine takes a job: first-fit (the thesis' rule), best-fit (least
    /// slack left after admission), worst-fit (most slack left), least-loaded (least
    /// remaining work), round-robin (from the machine after the last that admitted).
    /// Ties go to the lowest machine index.
    #[arg(long, value_name = "NAME", default_value = "first-fit", allow_hyphen_values = true, value_parser = parse_policy)]
    pub policy: kernel::service_level::Policy,
}

#[derive(Debug, Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub config: ConfigArgs,
    #[command(flatten)]
    pub output: RunOutputArgs,
    /// Write one CSV row per job here, as each job's fate is final: window, job,
    /// level, submit, p, deadline, outcome (accepted or the reject reason), machine,
    /// start, completion, interruptions (times in ticks from the window's start).
    #[arg(long, value_name = "FILE.csv")]
    pub jobs_out: Option<PathBuf>,
    /// Write the records as a controller that embeds the kernel would send them: a
    /// device record stream (docs/stream-format.md) for `replay import` and `replay
    /// verify`, through FILE.tmp renamed once whole. Its records are the --log's.
    #[arg(long, value_name = "FILE", conflicts_with = "seeds")]
    pub stream_out: Option<PathBuf>,
    /// Run the configuration once per seed, in parallel, and report each metric's
    /// mean, sample standard deviation and Student-t 95% confidence interval across
    /// seeds beside the across-window spread: `A..B` (both included, `1..30` is 30
    /// seeds) or a list `1,5,9`. Replaces --seed; no --log, --jobs-out or --stream-out.
    /// Without it, one run of --seed.
    #[arg(long, value_name = "A..B|LIST", conflicts_with_all = ["log", "jobs_out", "stream_out"],
          allow_hyphen_values = true, value_parser = parse_seeds)]
    pub seeds: Option<List<u64>>,
}

#[derive(Debug, Args)]
pub struct SweepArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Window length: a whole number with a unit s, m, h, d or w; a bare number is
    /// seconds (ticks); `all` for one window.
    #[arg(long, value_name = "DURATION", default_value = "7d", allow_hyphen_values = true, value_parser = parse_window)]
    pub window: WindowTicks,
    /// sf values (single mode) and k values (multi mode); default 1 to 20.
    #[arg(long, value_name = "LIST", allow_hyphen_values = true, value_parser = parse_slacks)]
    pub slacks: Option<List<u32>>,
    /// Machine counts; default 1,2,4,8,16,32,64.
    #[arg(long, value_name = "LIST", allow_hyphen_values = true, value_parser = parse_machine_counts)]
    pub machine_counts: Option<List<u16>>,
    /// Policies compared, one more axis of the grid: any of first-fit, best-fit,
    /// worst-fit, least-loaded, round-robin, comma-separated (see `run --help`).
    #[arg(long, value_name = "LIST", default_value = "first-fit", allow_hyphen_values = true, value_parser = parse_policies)]
    pub policy: Policies,
    /// Modes: single, multi, or both.
    #[arg(long, value_name = "LIST", default_value = "single,multi", allow_hyphen_values = true, value_parser = parse_modes)]
    pub modes: List<Mode>,
    /// Write DIR/sweep.csv, DIR/sweep.json and the SVG figures; without it, print a table.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub plots: crate::plot::PlotArgs,
    #[command(flatten)]
    pub shard: crate::shard::ShardArgs,
}

/// `--queue-capacity` as a number; [`check_queue_capacity`] then says whether it is compiled.
fn queue_capacity(text: &str) -> Result<u32, String> {
    crate::units::whole32(text).map_err(|_| {
        let supported: Vec<String> = QUEUE_CAPACITIES.iter().map(u32::to_string).collect();
        format!(
            "{} is not a queue capacity; choose one of {}",
            replay::echo::echo(text),
            supported.join(", ")
        )
    })
}

pub(crate) fn check_queue_capacity(capacity: u32) -> Result<(), CliError> {
    if QUEUE_CAPACITIES.contains(&capacity) {
        return Ok(());
    }
    let supported: Vec<String> = QUEUE_CAPACITIES.iter().map(u32::to_string).collect();
    Err(CliError::Usage(format!(
        "--queue-capacity {capacity} is not supported; choose one of {}",
        supported.join(", ")
    )))
}

pub(crate) fn parse_alpha(text: &str) -> Result<u64, CliError> {
    crate::units::parse_decimal(text).map_err(|e| CliError::Level(LevelError::Alpha(e)))
}

/// The workload, cut to the first `--windows` windows of `window_ticks` when asked.
pub fn load_windows(input: &InputArgs, window_ticks: Option<u64>) -> Result<Workload, CliError> {
    let mut workload = load(input)?;
    if let Some(count) = input.windows {
        workload.keep_windows(windows_length(window_ticks)?, count);
    }
    Ok(workload)
}

fn load(input: &InputArgs) -> Result<Workload, CliError> {
    let workload = match input.source.read()? {
        None if input.source.limit.is_some() => {
            return Err(CliError::Usage(
                "--limit applies to a trace; the synthetic workload's size is --jobs".into(),
            ));
        }
        None => synthetic::generate(&SyntheticParams::new(input.jobs, input.seed)),
        Some(trace) => trace.workload,
    };
    workload.check_not_empty(input.source.allow_empty)?;
    Ok(workload)
}

fn run_config(args: &RunArgs) -> Result<RunConfig, CliError> {
    config_of(&args.input, &args.config)
}

/// The run configuration of `input` and `args`.
pub fn config_of(input: &InputArgs, args: &ConfigArgs) -> Result<RunConfig, CliError> {
    check_queue_capacity(input.queue_capacity)?;
    let slacks = match (&args.slack, &args.levels) {
        (_, Some(list)) => list.0.clone(),
        (Some(sf), None) => vec![*sf],
        (None, None) => vec![levels::parse_slack("2")?],
    };
    let prices = args.prices.as_ref().map(|p| p.0.as_slice());
    Ok(RunConfig {
        queue_capacity: input.queue_capacity,
        seed: input.seed,
        window_ticks: args.window,
        alpha_milli: input.alpha,
        policy: args.policy,
        ..RunConfig::new(args.machines, levels::build(&slacks, prices).map_err(named("--prices"))?)
    })
}

/// A level option's error, named by its option.
fn named(option: &'static str) -> impl Fn(LevelError) -> CliError {
    move |e| CliError::Usage(format!("{option}: {e}"))
}

/// `host-sim run` (and `host-sim` alone). A trace is streamed: its jobs are run as
/// they are parsed, and never held whole; read once where the outputs allow it
/// ([`crate::service_level::once`]), else twice (`input::Scanned`).
pub fn run(args: &RunArgs) -> Result<(), CliError> {
    let config = run_config(args)?;
    if let Some(seeds) = &args.seeds {
        return replicate(args, &config, seeds);
    }
    let files = Files {
        log: args.output.log.as_deref(),
        jobs_out: args.jobs_out.as_deref(),
        stream_out: args.stream_out.as_deref(),
    };
    // `--windows` without a duration is refused after the trace's errors: two passes.
    let end =
        args.input.windows.map(|count| windows_length(config.window_ticks).map(|l| l.saturating_mul(count)));
    let once =
        Run { source: &args.input.source, windows: args.input.windows, log: args.output.log.as_deref() };
    if let Ok(end) = end.transpose()
        && args.jobs_out.is_none()
        && args.stream_out.is_none()
        && let Some(done) = crate::service_level::once::run(once, &config, end)
    {
        let (workload, report) = done?;
        return print_summary(&workload, &config, &report, &args.output);
    }
    let Some(scanned) = args.input.source.scan()? else {
        let workload = load_windows(&args.input, config.window_ticks)?;
        crate::service_level::sim::check_jobs(&workload.jobs)?;
        let progress = progress::bar(workload.jobs.len() as u64, "jobs");
        let mut jobs = workload.jobs.iter().copied().map(Ok);
        let result = crate::service_level::record::run(&config, &workload, &mut jobs, files, &progress);
        progress.finish_and_clear();
        return print_summary(&workload, &config, &result?, &args.output);
    };
    let mut workload = scanned.workload.clone();
    workload.check_count(scanned.jobs, args.input.source.allow_empty)?;
    let mut end = None;
    if let Some(count) = args.input.windows {
        let length = windows_length(config.window_ticks)?;
        workload.keep_windows(length, count);
        end = Some(length.saturating_mul(count));
    }
    let in_windows = move |job: &Result<_, _>| match (job, end) {
        (Ok(crate::workload::Job { release, .. }), Some(end)) => *release < end,
        _ => true,
    };
    let mut jobs = scanned.jobs()?.take_while(in_windows);
    let progress = progress::bar(scanned.jobs, "jobs");
    let result = crate::service_level::record::run(&config, &workload, &mut jobs, files, &progress);
    progress.finish_and_clear();
    print_summary(&workload, &config, &result?, &args.output)
}

/// `--windows` needs `--window` with a duration: its length.
fn windows_length(window_ticks: Option<u64>) -> Result<u64, CliError> {
    window_ticks
        .ok_or_else(|| CliError::Usage("--windows needs --window with a duration (e.g. --window 7d)".into()))
}

/// A run's summary on standard output, as a table or (`--json`) one JSON object.
pub fn print_summary(
    workload: &Workload,
    config: &RunConfig,
    report: &crate::service_level::sim::RunReport,
    output: &RunOutputArgs,
) -> Result<(), CliError> {
    let log = output.log.as_ref().map(|p| p.display().to_string());
    let summary = RunSummary::new(workload, config, report, log.as_deref());
    let stdout = crate::output::stdout();
    let written = if output.json {
        report::write_json(&config.log_header(workload), &summary, stdout)
    } else {
        report::write_table(&summary, stdout)
    };
    written.map_err(|source| CliError::Io(PathError::stdout(source)))
}

/// `run --seeds`: the workload is read once (a trace) or generated per seed.
fn replicate(args: &RunArgs, config: &RunConfig, seeds: &List<u64>) -> Result<(), CliError> {
    use crate::service_level::replicate;
    let seeds = seeds.0.clone();
    let trace = if args.input.source.trace.is_empty() {
        None
    } else {
        Some(load_windows(&args.input, config.window_ticks)?)
    };
    let workload_for = |seed: u64| match &trace {
        Some(workload) => Ok(workload.clone()),
        None => {
            let input = InputArgs { seed, ..args.input.clone() };
            load_windows(&input, config.window_ticks)
        }
    };
    let progress = progress::bar(0, "runs");
    let result = replicate::run(config, &seeds, workload_for, &progress);
    progress.finish_and_clear();
    let result = result?;
    let stdout = crate::output::stdout();
    let written = if args.output.json {
        let core = replicate::core(trace.as_ref(), &seeds, &workload_for)?;
        crate::summary::write_json(&core, &result, stdout)
    } else {
        replicate::write_table(&result, stdout)
    };
    written.map_err(|source| CliError::Io(PathError::stdout(source)))
}

fn sweep_config(args: &SweepArgs) -> Result<SweepConfig, CliError> {
    check_queue_capacity(args.input.queue_capacity)?;
    let modes = args.modes.0.clone();
    let slacks_milli = match &args.slacks {
        Some(list) => list.0.clone(),
        None => sweep::default_slacks_milli(),
    };
    if modes.contains(&Mode::Multi) {
        lists::check_ks(&slacks_milli)?;
    }
    Ok(SweepConfig {
        modes,
        slacks_milli,
        machine_counts: match &args.machine_counts {
            Some(list) => list.0.clone(),
            None => sweep::default_machine_counts(),
        },
        policies: args.policy.0.clone(),
        queue_capacity: args.input.queue_capacity,
        seed: args.input.seed,
        window_ticks: args.window,
        alpha_milli: args.input.alpha,
    })
}

/// `host-sim sweep`.
pub fn sweep(args: &SweepArgs) -> Result<(), CliError> {
    let config = sweep_config(args)?;
    let points = sweep::grid(&config)?;
    let workload = load_windows(&args.input, config.window_ticks)?;
    let grid = crate::shard::Grid {
        identity: format!("{config:?} {:?}", workload.settings),
        inputs: crate::summary::Core::of_workload("service_level", &workload).inputs,
        out: args.out.as_deref(),
    };
    let progress = progress::bar(0, "runs");
    let rows = crate::shard::rows(&args.shard, &grid, &points, sweep::cost, |mine| {
        sweep::run_points(&config, &workload.jobs, mine, &progress)
    });
    progress.finish_and_clear();
    let Some(rows) = rows? else { return Ok(()) };
    let document = SweepDocument::new(&workload, &config, &rows);
    match &args.out {
        Some(dir) => {
            sweep::write_files(dir, &document)?;
            eprintln!("host-sim: wrote {} rows to {}", rows.len(), dir.join("sweep.{csv,json}").display());
            args.plots.write_figures(dir, || sweep::figures::write(dir, &rows))?;
            Ok(())
        }
        None => report::write_sweep_table(&rows, crate::output::stdout())
            .map_err(|source| CliError::Io(PathError::stdout(source))),
    }
}
