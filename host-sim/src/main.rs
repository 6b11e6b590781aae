//! The `host-sim` command line: `run` (the default), `sweep`, `reserve`,
//! `reserve-sweep`, `tiers`, `tiers-sweep`, `sla`, `sla-sweep`, `criteria`, `compare`
//! and `config`; every subcommand takes `--config FILE`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, CommandFactory, Parser, Subcommand};
use replay::engine::service_level::{DEFAULT_QUEUE_CAPACITY, MAX_MACHINES, QUEUE_CAPACITIES};

use host_sim::config;
use host_sim::error::CliError;
use host_sim::progress;
use host_sim::service_level::levels;
use host_sim::service_level::levels::LevelError;
use host_sim::service_level::report::{self, RunSummary};
use host_sim::service_level::sim::RunConfig;
use host_sim::service_level::sweep::{self, Mode, SweepConfig, SweepDocument};
use host_sim::swf::{self, SwfOptions};
use host_sim::synthetic::{self, DEFAULT_JOBS, SyntheticParams};
use host_sim::units::parse_milli;
use host_sim::window::parse_window;
use host_sim::workload::Workload;

/// Admission control for deadline agreements, simulated over job traces.
///
/// With no subcommand, `run` is assumed: `host-sim --trace FILE` is `host-sim run --trace FILE`,
/// and `host-sim` alone runs the built-in synthetic workload.
///
/// Time is counted in ticks: one tick is one second (SWF submit and run times, rounded
/// to whole seconds, and the synthetic workload's times). Durations such as `--window`
/// take a unit (s, m, h, d, w); a bare number is seconds.
#[derive(Debug, Parser)]
#[command(name = "host-sim", version, args_conflicts_with_subcommands = true, allow_negative_numbers = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Simulate one configuration and print its metrics (the default). Each job is one
    /// unit of work on one machine: its processor count is not used (the thesis'
    /// model); `reserve` and `tiers` use it.
    #[command(allow_negative_numbers = true, after_help = EXAMPLE_RUN)]
    Run(RunArgs),
    /// Run the thesis' grid of configurations in parallel and write CSV and JSON.
    #[command(allow_negative_numbers = true, after_help = EXAMPLE_SWEEP)]
    Sweep(SweepArgs),
    /// Flexible advance reservations (Netto et al. 2007): one configuration.
    #[command(allow_negative_numbers = true, after_help = EXAMPLE_RESERVE)]
    Reserve(host_sim::reservation::cli::ReserveArgs),
    /// Flexible advance reservations: the paper's figures 2-7 as CSV, and its findings.
    #[command(allow_negative_numbers = true, after_help = EXAMPLE_RESERVE_SWEEP)]
    ReserveSweep(host_sim::reservation::cli::ReserveSweepArgs),
    /// The thesis' criteria analysis of a sweep's output (degradations, groups, ranks).
    #[command(after_help = EXAMPLE_CRITERIA)]
    Criteria(CriteriaArgs),
    /// Every model on the same trace, with its defaults: one table of shared measures.
    #[command(allow_negative_numbers = true)]
    Compare(CompareArgs),
    /// Scenario files: print one with every option of a subcommand and its default.
    Config(ConfigArgs),
    /// Gold, Silver and Bronze SLAs over reliable and volunteer resources (Tomás et al.):
    /// one policy and tier mix.
    #[command(allow_negative_numbers = true, after_help = EXAMPLE_TIERS)]
    Tiers(host_sim::tiers::cli::TiersArgs),
    /// Gold, Silver and Bronze: 3 policies x 4 mixes x seeds, CSV and JSON for Figures
    /// 8-13, and the paper's statements beside ours.
    #[command(allow_negative_numbers = true, after_help = EXAMPLE_TIERS_SWEEP)]
    TiersSweep(host_sim::tiers::cli::TiersSweepArgs),
    /// SLA priority heuristics and pricing on a parallel machine (Yarmolenko and
    /// Sakellariou): one heuristic on the paper's generated job sets or a trace.
    #[command(allow_negative_numbers = true)]
    Sla(host_sim::sla::cli::SlaArgs),
    /// SLA priority heuristics: every heuristic of the paper's Tables 1 and 2 (and all
    /// pairs of terms) over a grid of weights, the tables beside the paper's, its
    /// figures and findings.
    #[command(allow_negative_numbers = true)]
    SlaSweep(host_sim::sla::cli::SlaSweepArgs),
}

const EXAMPLE_RUN: &str = "Example: host-sim run --trace ../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz \
--machines 4 --levels 1,2,3,4,5 --seed 7 --policy best-fit --log out/kth.log --jobs-out out/kth-jobs.csv";
const EXAMPLE_SWEEP: &str = "Example: host-sim sweep --trace ../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz \
--policy first-fit,best-fit,worst-fit,least-loaded,round-robin --out out/kth-sweep";
const EXAMPLE_RESERVE: &str = "Example: host-sim reserve --trace ../shared/traces/SDSC-SP2-1998-4.2-cln.swf.gz \
--criterion edf --load 1.25 --flex medium --log out/sdsc-resv.log";
const EXAMPLE_RESERVE_SWEEP: &str =
    "Example: host-sim reserve-sweep --trace ../shared/traces/SDSC-SP2-1998-4.2-cln.swf.gz --out out/netto";
const EXAMPLE_CRITERIA: &str = "Example: host-sim criteria out/kth-sweep --machine-counts 1,2,4";
const EXAMPLE_TIERS: &str = "Example: host-sim tiers --policy qos-res --mix C --seed 3 --log out/tiers.log";
const EXAMPLE_TIERS_SWEEP: &str = "Example: host-sim tiers-sweep --seeds 5 --out out/tiers";

/// `host-sim compare`.
#[derive(Debug, Args)]
#[command(
    after_help = "Example: host-sim compare --trace ../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz --out out/cmp"
)]
struct CompareArgs {
    /// SWF trace, plain or gzipped.
    #[arg(long, value_name = "FILE")]
    trace: PathBuf,
    /// Count malformed trace lines instead of stopping at the first.
    #[arg(long)]
    skip_bad_lines: bool,
    /// Nodes of the pool for the models with one (default: the trace's MaxNodes, else
    /// MaxProcs, else 128).
    #[arg(long, value_name = "M", value_parser = clap::value_parser!(u32).range(1..))]
    nodes: Option<u32>,
    /// Write DIR/compare.csv, DIR/compare.json and the figure DIR/compare.svg too.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Print the rows as one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

/// `host-sim config`.
#[derive(Debug, Args)]
#[command(after_help = "Example: host-sim config --defaults --command sweep > out/sweep.toml")]
struct ConfigArgs {
    /// Print a scenario file with every option and its default, commented.
    #[arg(long)]
    defaults: bool,
    /// The subcommand whose options the file holds.
    #[arg(long, value_name = "SUBCOMMAND", default_value = "run")]
    command: String,
}

#[derive(Debug, Args)]
struct CriteriaArgs {
    /// The directory `host-sim sweep --out` wrote (its sweep.csv is read).
    #[arg(value_name = "SWEEP_DIR")]
    sweep_dir: PathBuf,
    /// Machine counts analysed (the best of each metric is taken over them); `all` for
    /// every count in the sweep.
    #[arg(long, value_name = "LIST", default_value = "1,2,4")]
    machine_counts: String,
    /// Write criteria.csv and the figures here instead of SWEEP_DIR.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    #[command(flatten)]
    plots: host_sim::plot::PlotArgs,
}

/// Where the jobs come from, and what every run shares.
#[derive(Clone, Debug, Args)]
struct InputArgs {
    /// SWF trace, plain or gzipped; without it, the built-in synthetic workload. Give
    /// it several times to merge traces on their relative submit times (each starts
    /// at 0; ties by trace order, then line; jobs renumbered 1, 2, ...).
    #[arg(long, value_name = "FILE")]
    trace: Vec<PathBuf>,
    /// Count malformed trace lines instead of stopping at the first.
    #[arg(long)]
    skip_bad_lines: bool,
    /// Read job lines with more than the 18 standard SWF fields (Alea's 21-field
    /// variant): the first 18 are read, the rest ignored.
    #[arg(long)]
    allow_extra_fields: bool,
    /// Jobs in the synthetic workload.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_JOBS)]
    jobs: u32,
    /// Seeds the level draw and the synthetic workload.
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// Jobs each machine's queue can hold: 16, 64, 256 or 1024 (the compiled sizes). A
    /// job that only a full queue could take is rejected as queue_full.
    #[arg(long, value_name = "Q", default_value_t = DEFAULT_QUEUE_CAPACITY)]
    queue_capacity: u32,
    /// Cost per tick of the benefit metric G (up to three decimals).
    #[arg(long, value_name = "COST", default_value = "1")]
    alpha: String,
    /// Exit 0 when the input has no usable job (otherwise that is an error).
    #[arg(long)]
    allow_empty: bool,
    /// Keep only the jobs of the first N windows of `--window` length (the thesis ran
    /// 30 one-week windows).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    windows: Option<u64>,
}

#[derive(Debug, Args)]
struct RunArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Machines, 1 to 64.
    #[arg(long, value_name = "M", default_value_t = 1,
          value_parser = clap::value_parser!(u16).range(1..=i64::from(MAX_MACHINES)))]
    machines: u16,
    /// One service level with this slack factor (default 2; e.g. 1.5).
    #[arg(long, value_name = "SF", conflicts_with = "levels")]
    slack: Option<String>,
    /// Several service levels, e.g. 1,2,3,4,5 (at most 32); each job's level is drawn
    /// uniformly.
    #[arg(long, value_name = "SF,SF,...")]
    levels: Option<String>,
    /// Prices per tick, one per level (default: max(1, ceil(21 - sf))).
    #[arg(long, value_name = "U,U,...")]
    prices: Option<String>,
    /// Cut the input into windows of this length, each simulated from an empty system:
    /// a whole number with a unit s, m, h, d or w (`7d`); a bare number is seconds
    /// (ticks); `all` for one window.
    #[arg(long, value_name = "DURATION", default_value = "all")]
    window: String,
    /// Which feasible machine takes a job: first-fit (the thesis' rule), best-fit (least
    /// slack left after admission), worst-fit (most slack left), least-loaded (least
    /// remaining work), round-robin (from the machine after the last that admitted).
    /// Ties go to the lowest machine index. Written into the log header.
    #[arg(long, value_name = "POLICY", default_value = "first-fit")]
    policy: String,
    /// Write the decision log here.
    #[arg(long, value_name = "FILE")]
    log: Option<PathBuf>,
    /// Write one CSV row per job here, as each job's fate is final: window, job,
    /// level, submit, p, deadline, outcome (accepted or the reject reason), machine,
    /// start, completion, interruptions (times in ticks from the window's start).
    #[arg(long, value_name = "FILE.csv")]
    jobs_out: Option<PathBuf>,
    /// Print the metrics as one JSON object instead of a table.
    #[arg(long)]
    json: bool,
    /// Run the configuration once per seed, in parallel, and report each metric's
    /// mean, sample standard deviation and Student-t 95% confidence interval across
    /// seeds beside the across-window spread: `A..B` (both included, `1..30` is 30
    /// seeds) or a list `1,5,9`. Replaces --seed; no --log or --jobs-out.
    #[arg(long, value_name = "A..B|LIST", conflicts_with_all = ["log", "jobs_out"])]
    seeds: Option<String>,
}

#[derive(Debug, Args)]
struct SweepArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Window length: a whole number with a unit s, m, h, d or w; a bare number is
    /// seconds (ticks); `all` for one window.
    #[arg(long, value_name = "DURATION", default_value = "7d")]
    window: String,
    /// sf values (single mode) and k values (multi mode); default 1 to 20.
    #[arg(long, value_name = "LIST")]
    slacks: Option<String>,
    /// Machine counts; default 1,2,4,8,16,32,64.
    #[arg(long, value_name = "LIST")]
    machine_counts: Option<String>,
    /// Policies compared, one more axis of the grid: any of first-fit, best-fit,
    /// worst-fit, least-loaded, round-robin, comma-separated (see `run --help`).
    #[arg(long, value_name = "LIST", default_value = "first-fit")]
    policy: String,
    /// Modes: single, multi, or both.
    #[arg(long, value_name = "LIST", default_value = "single,multi")]
    modes: String,
    /// Write DIR/sweep.csv, DIR/sweep.json and the SVG figures; without it, print a table.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    #[command(flatten)]
    plots: host_sim::plot::PlotArgs,
}

fn main() -> ExitCode {
    let definition = Cli::command();
    let expanded = match config::expand(std::env::args_os().collect(), &definition) {
        Ok(expanded) => expanded,
        Err(error) => {
            eprintln!("host-sim: error: {error}");
            return ExitCode::FAILURE;
        }
    };
    let cli = Cli::parse_from(&expanded.args);
    let result = match cli.command {
        Some(Command::Config(args)) => print_defaults(&definition, &args),
        Some(Command::Compare(args)) => compare(&args),
        Some(Command::Run(args)) => run(&args),
        Some(Command::Sweep(args)) => sweep(&args),
        Some(Command::Reserve(args)) => model_result(host_sim::reservation::cli::reserve(&args)),
        Some(Command::ReserveSweep(args)) => model_result(host_sim::reservation::cli::reserve_sweep(&args)),
        Some(Command::Criteria(args)) => criteria(&args),
        None => run(&cli.run),
        Some(Command::Tiers(args)) => model_result(host_sim::tiers::cli::run(&args)),
        Some(Command::TiersSweep(args)) => model_result(host_sim::tiers::cli::run_sweep(&args)),
        Some(Command::Sla(args)) => model_result(host_sim::sla::cli::run(&args)),
        Some(Command::SlaSweep(args)) => model_result(host_sim::sla::cli::run_sweep(&args)),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A reader that went away (`host-sim ... | head`) is no error.
        Err(error) if closed_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            let message = error.to_string();
            eprintln!("host-sim: error: {message}");
            if let Some(origin) = expanded.origin_of(&message) {
                eprintln!("  (set by {}:{}, key `{}`)", origin.file, origin.line, origin.key);
            }
            ExitCode::FAILURE
        }
    }
}

/// Whether `error`, or an error it came from, is a write to a closed pipe.
fn closed_pipe(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut current = Some(error);
    while let Some(e) = current {
        if e.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe) {
            return true;
        }
        current = e.source();
    }
    false
}

/// A model's own error as the command line's; a closed pipe stays quiet.
fn model_result<E: std::error::Error + 'static>(result: Result<(), E>) -> Result<(), CliError> {
    match result {
        Err(e) if closed_pipe(&e) => Ok(()),
        other => other.map_err(|e| CliError::Usage(e.to_string())),
    }
}

fn compare(args: &CompareArgs) -> Result<(), CliError> {
    let options = SwfOptions { skip_bad_lines: args.skip_bad_lines, allow_extra_fields: false };
    let trace = swf::read(&args.trace, options)?;
    trace.workload.check_not_empty(false)?;
    let header_nodes = trace.max_nodes.or(trace.max_procs).and_then(|n| u32::try_from(n).ok());
    let nodes = args.nodes.or(header_nodes).unwrap_or(128);
    let rows =
        host_sim::compare::compare(&trace.workload, nodes).map_err(|e| CliError::Usage(e.to_string()))?;
    let document = serde_json::json!({
        "trace": trace.workload.file_name(),
        "input_hash": trace.workload.hash_hex(),
        "nodes": nodes,
        "rows": rows,
    });
    if let Some(dir) = &args.out {
        let io = |path: &Path| {
            let path = path.display().to_string();
            move |source| CliError::Io { path, source }
        };
        std::fs::create_dir_all(dir).map_err(io(dir))?;
        let csv = dir.join("compare.csv");
        let mut text = Vec::new();
        host_sim::compare::write_csv(&rows, &mut text).map_err(io(&csv))?;
        std::fs::write(&csv, text).map_err(io(&csv))?;
        let json = dir.join("compare.json");
        std::fs::write(&json, format!("{document:#}\n")).map_err(io(&json))?;
        host_sim::compare::chart(&trace.workload.file_name(), &rows)
            .to_svg()
            .and_then(|svg| host_sim::plot::write_svg(&dir.join("compare.svg"), &svg))
            .map_err(|e| CliError::Usage(e.to_string()))?;
    }
    let stdout = std::io::stdout().lock();
    let written = if args.json {
        let mut out = stdout;
        writeln!(out, "{document}")
    } else {
        host_sim::compare::write_table(&rows, stdout)
    };
    written.map_err(|source| CliError::Io { path: "standard output".to_owned(), source })
}

fn print_defaults(definition: &clap::Command, args: &ConfigArgs) -> Result<(), CliError> {
    if !args.defaults {
        return Err(CliError::Usage("host-sim config: give --defaults (and --command SUBCOMMAND)".into()));
    }
    let text = config::defaults(definition, &args.command)
        .ok_or_else(|| CliError::Usage(format!("--command: `{}` is not a subcommand", args.command)))?;
    host_sim::output::write_stdout(&text)
        .map_err(|source| CliError::Io { path: "standard output".to_owned(), source })
}

fn check_queue_capacity(capacity: u32) -> Result<(), CliError> {
    if QUEUE_CAPACITIES.contains(&capacity) {
        return Ok(());
    }
    let supported: Vec<String> = QUEUE_CAPACITIES.iter().map(u32::to_string).collect();
    Err(CliError::Usage(format!(
        "--queue-capacity {capacity} is not supported; choose one of {}",
        supported.join(", ")
    )))
}

fn parse_alpha(text: &str) -> Result<u64, CliError> {
    parse_milli(text).ok_or_else(|| CliError::Level(LevelError::Decimal(text.to_owned())))
}

/// The workload, cut to the first `--windows` windows of `window_ticks` when asked.
fn load_windows(input: &InputArgs, window_ticks: Option<u64>) -> Result<Workload, CliError> {
    let mut workload = load(input)?;
    if let Some(count) = input.windows {
        let Some(length) = window_ticks else {
            return Err(CliError::Usage(
                "--windows needs --window with a duration (e.g. --window 7d)".into(),
            ));
        };
        workload.keep_windows(length, count);
    }
    Ok(workload)
}

fn load(input: &InputArgs) -> Result<Workload, CliError> {
    let options =
        SwfOptions { skip_bad_lines: input.skip_bad_lines, allow_extra_fields: input.allow_extra_fields };
    let workload = if input.trace.is_empty() {
        synthetic::generate(&SyntheticParams::new(input.jobs, input.seed))
    } else {
        swf::read_merged(&input.trace, options)?
    };
    workload.check_not_empty(input.allow_empty)?;
    Ok(workload)
}

fn run_config(args: &RunArgs) -> Result<RunConfig, CliError> {
    check_queue_capacity(args.input.queue_capacity)?;
    let slacks = match (&args.slack, &args.levels) {
        (_, Some(list)) => levels::parse_slack_list(list)?,
        (Some(sf), None) => vec![levels::parse_slack(sf)?],
        (None, None) => vec![levels::parse_slack("2")?],
    };
    let prices = args.prices.as_deref().map(levels::parse_prices).transpose()?;
    Ok(RunConfig {
        queue_capacity: args.input.queue_capacity,
        seed: args.input.seed,
        window_ticks: parse_window(&args.window)?,
        alpha_milli: parse_alpha(&args.input.alpha)?,
        policy: host_sim::service_level::policy::parse(&args.policy)
            .map_err(|e| CliError::Usage(format!("--policy: {e}")))?,
        ..RunConfig::new(args.machines, levels::build(&slacks, prices.as_deref())?)
    })
}

fn run(args: &RunArgs) -> Result<(), CliError> {
    let config = run_config(args)?;
    if let Some(seeds) = &args.seeds {
        return replicate(args, &config, seeds);
    }
    let workload = load_windows(&args.input, config.window_ticks)?;
    let progress = progress::bar(workload.jobs.len() as u64, "jobs");
    let result = host_sim::service_level::record::run(
        &config,
        &workload,
        args.log.as_deref(),
        args.jobs_out.as_deref(),
        &progress,
    );
    progress.finish_and_clear();
    let report = result?;
    let log = args.log.as_ref().map(|p| p.display().to_string());
    let summary = RunSummary::new(&workload, &config, &report, log.as_deref());
    let stdout = std::io::stdout().lock();
    let written =
        if args.json { report::write_json(&summary, stdout) } else { report::write_table(&summary, stdout) };
    written.map_err(|source| CliError::Io { path: "standard output".to_owned(), source })
}

/// `run --seeds`: the workload is read once (a trace) or generated per seed.
fn replicate(args: &RunArgs, config: &RunConfig, seeds: &str) -> Result<(), CliError> {
    use host_sim::service_level::replicate;
    let seeds = replicate::parse_seeds(seeds).map_err(|e| CliError::Usage(format!("--seeds: {e}")))?;
    let trace = if args.input.trace.is_empty() {
        None
    } else {
        Some(load_windows(&args.input, config.window_ticks)?)
    };
    let workload_for = |seed: u64| match &trace {
        Some(workload) => Ok(workload.clone()),
        None => {
            let input = InputArgs { seed, trace: Vec::new(), ..args.input.clone() };
            load_windows(&input, config.window_ticks)
        }
    };
    let progress = progress::bar(0, "runs");
    let result = replicate::run(config, &seeds, workload_for, &progress);
    progress.finish_and_clear();
    let result = result?;
    let stdout = std::io::stdout().lock();
    let written = if args.json {
        let mut out = stdout;
        serde_json::to_writer_pretty(&mut out, &result)
            .map_err(std::io::Error::from)
            .and_then(|()| writeln!(out))
    } else {
        replicate::write_table(&result, stdout)
    };
    written.map_err(|source| CliError::Io { path: "standard output".to_owned(), source })
}

fn parse_modes(text: &str) -> Result<Vec<Mode>, CliError> {
    text.split(',')
        .map(|m| match m.trim() {
            "single" => Ok(Mode::Single),
            "multi" => Ok(Mode::Multi),
            other => {
                Err(CliError::Usage(format!("--modes: \"{other}\" is not a mode; use single, multi or both")))
            }
        })
        .collect()
}

fn parse_machine_counts(text: &str) -> Result<Vec<u16>, CliError> {
    text.split(',')
        .map(|m| {
            m.trim().parse::<u16>().ok().filter(|&m| (1..=MAX_MACHINES).contains(&m)).ok_or_else(|| {
                CliError::Level(LevelError::Whole {
                    text: m.to_owned(),
                    min: 1,
                    max: u64::from(MAX_MACHINES),
                })
            })
        })
        .collect()
}

fn sweep_config(args: &SweepArgs) -> Result<SweepConfig, CliError> {
    check_queue_capacity(args.input.queue_capacity)?;
    Ok(SweepConfig {
        modes: parse_modes(&args.modes)?,
        slacks_milli: match &args.slacks {
            Some(list) => levels::parse_slack_list(list)?,
            None => sweep::default_slacks_milli(),
        },
        machine_counts: match &args.machine_counts {
            Some(list) => parse_machine_counts(list)?,
            None => sweep::default_machine_counts(),
        },
        policies: host_sim::service_level::policy::parse_list(&args.policy)
            .map_err(|e| CliError::Usage(format!("--policy: {e}")))?,
        queue_capacity: args.input.queue_capacity,
        seed: args.input.seed,
        window_ticks: parse_window(&args.window)?,
        alpha_milli: parse_alpha(&args.input.alpha)?,
    })
}

fn sweep(args: &SweepArgs) -> Result<(), CliError> {
    let config = sweep_config(args)?;
    sweep::grid(&config)?;
    let workload = load_windows(&args.input, config.window_ticks)?;
    let progress = progress::bar(0, "runs");
    let rows = sweep::run(&config, &workload.jobs, &progress);
    progress.finish_and_clear();
    let rows = rows?;
    let document = SweepDocument::new(&workload, &config, &rows);
    match &args.out {
        Some(dir) => {
            sweep::write_files(dir, &document)?;
            eprintln!("host-sim: wrote {} rows to {}", rows.len(), dir.join("sweep.{csv,json}").display());
            if args.plots.enabled() {
                let figures = sweep::figures::write(dir, &rows)?;
                eprintln!("host-sim: wrote {} figures to {}", figures.len(), dir.join("*.svg").display());
            }
            Ok(())
        }
        None => report::write_sweep_table(&rows, std::io::stdout().lock())
            .map_err(|source| CliError::Io { path: "standard output".to_owned(), source }),
    }
}

fn criteria(args: &CriteriaArgs) -> Result<(), CliError> {
    use host_sim::service_level::criteria;
    let counts = match args.machine_counts.trim() {
        "all" => Vec::new(),
        list => parse_machine_counts(list)?,
    };
    let configs = criteria::read_sweep(&args.sweep_dir)?;
    let analyses = criteria::analyse(&configs, &counts);
    if analyses.is_empty() {
        return Err(CliError::Usage(format!(
            "{}: no configuration on machine counts {}",
            args.sweep_dir.join("sweep.csv").display(),
            args.machine_counts
        )));
    }
    std::io::stdout()
        .lock()
        .write_all(criteria::report(&analyses).as_bytes())
        .map_err(|source| CliError::Io { path: "standard output".to_owned(), source })?;
    let out = args.out.as_deref().unwrap_or(&args.sweep_dir);
    std::fs::create_dir_all(out)
        .map_err(|source| CliError::Io { path: out.display().to_string(), source })?;
    criteria::write_csv(&out.join("criteria.csv"), &analyses)?;
    if args.plots.enabled() {
        let figures = criteria::figures::write(out, &analyses)?;
        eprintln!("host-sim: wrote criteria.csv and {} figures to {}", figures.len(), out.display());
    }
    Ok(())
}
