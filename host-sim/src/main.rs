//! The `host-sim` command line: `run` (the default), `sweep`, `reserve`,
//! `reserve-sweep`, `tiers` and `tiers-sweep`.

use std::fs::File;
use std::io::{BufWriter, IsTerminal};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use replay::engine::{DEFAULT_QUEUE_CAPACITY, MAX_MACHINES, QUEUE_CAPACITIES};
use replay::format::LogWriter;

use host_sim::error::{CliError, LevelError, SimError};
use host_sim::levels::{self, parse_milli};
use host_sim::report::{self, RunSummary};
use host_sim::sim::{self, RunConfig};
use host_sim::sweep::{self, Mode, SweepConfig, SweepDocument};
use host_sim::swf::{self, SwfOptions};
use host_sim::synthetic::{self, DEFAULT_JOBS, SyntheticParams};
use host_sim::window::parse_window;
use host_sim::workload::Workload;

/// Admission control for deadline agreements, simulated over job traces.
///
/// With no subcommand, `run` is assumed: `host-sim --trace FILE` is `host-sim run --trace FILE`,
/// and `host-sim` alone runs the built-in synthetic workload.
#[derive(Debug, Parser)]
#[command(name = "host-sim", version, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Simulate one configuration and print its metrics (the default).
    Run(RunArgs),
    /// Run the thesis' grid of configurations in parallel and write CSV and JSON.
    Sweep(SweepArgs),
    /// Flexible advance reservations (Netto et al. 2007): one configuration.
    Reserve(host_sim::reservation::cli::ReserveArgs),
    /// Flexible advance reservations: the paper's figures 2-7 as CSV, and its findings.
    ReserveSweep(host_sim::reservation::cli::ReserveSweepArgs),
    /// Gold, Silver and Bronze SLAs over reliable and volunteer resources (Tomás et al.):
    /// one policy and tier mix.
    Tiers(host_sim::tiers::cli::TiersArgs),
    /// Gold, Silver and Bronze: 3 policies x 4 mixes x seeds, CSV and JSON for Figures
    /// 8-13, and the paper's statements beside ours.
    TiersSweep(host_sim::tiers::cli::TiersSweepArgs),
}

/// Where the jobs come from, and what every run shares.
#[derive(Debug, Args)]
struct InputArgs {
    /// SWF trace, plain or gzipped; without it, the built-in synthetic workload.
    #[arg(long, value_name = "FILE")]
    trace: Option<PathBuf>,
    /// Count malformed trace lines instead of stopping at the first.
    #[arg(long)]
    skip_bad_lines: bool,
    /// Jobs in the synthetic workload.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_JOBS)]
    jobs: u32,
    /// Seeds the level draw and the synthetic workload.
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// Jobs each machine's queue can hold (a compiled size).
    #[arg(long, value_name = "Q", default_value_t = DEFAULT_QUEUE_CAPACITY)]
    queue_capacity: u32,
    /// Cost per tick of the benefit metric G (up to three decimals).
    #[arg(long, value_name = "COST", default_value = "1")]
    alpha: String,
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
    /// Several service levels, e.g. 1,2,3,4,5; each job's level is drawn uniformly.
    #[arg(long, value_name = "SF,SF,...")]
    levels: Option<String>,
    /// Prices per tick, one per level (default: max(1, ceil(21 - sf))).
    #[arg(long, value_name = "U,U,...")]
    prices: Option<String>,
    /// Cut the input into windows of this length (s, m, h, d, w; `all` for none).
    #[arg(long, value_name = "DURATION", default_value = "all")]
    window: String,
    /// Write the decision log here.
    #[arg(long, value_name = "FILE")]
    log: Option<PathBuf>,
    /// Print the metrics as one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Args)]
struct SweepArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Window length (s, m, h, d, w; `all` for none).
    #[arg(long, value_name = "DURATION", default_value = "7d")]
    window: String,
    /// sf values (single mode) and k values (multi mode); default 1 to 20.
    #[arg(long, value_name = "LIST")]
    slacks: Option<String>,
    /// Machine counts; default 1,2,4,8,16,32,64.
    #[arg(long, value_name = "LIST")]
    machine_counts: Option<String>,
    /// Modes: single, multi, or both.
    #[arg(long, value_name = "LIST", default_value = "single,multi")]
    modes: String,
    /// Write DIR/sweep.csv and DIR/sweep.json; without it, print a table.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let command: Vec<String> = std::env::args().skip(1).collect();
    let result = match cli.command {
        Some(Command::Run(args)) => run(&args, &command.join(" ")),
        Some(Command::Sweep(args)) => sweep(&args),
        Some(Command::Reserve(args)) => host_sim::reservation::cli::reserve(&args, &command.join(" "))
            .map_err(|e| CliError::Usage(e.to_string())),
        Some(Command::ReserveSweep(args)) => {
            host_sim::reservation::cli::reserve_sweep(&args).map_err(|e| CliError::Usage(e.to_string()))
        }
        Some(Command::Tiers(args)) => {
            host_sim::tiers::cli::run(&args).map_err(|e| CliError::Usage(e.to_string()))
        }
        Some(Command::TiersSweep(args)) => {
            host_sim::tiers::cli::run_sweep(&args).map_err(|e| CliError::Usage(e.to_string()))
        }
        None => run(&cli.run, &command.join(" ")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("host-sim: error: {error}");
            ExitCode::FAILURE
        }
    }
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

fn load(input: &InputArgs) -> Result<Workload, CliError> {
    match &input.trace {
        Some(path) => {
            let options = SwfOptions { skip_bad_lines: input.skip_bad_lines };
            Ok(swf::read(path, options)?.workload)
        }
        None => Ok(synthetic::generate(&SyntheticParams::new(input.jobs, input.seed))),
    }
}

/// A progress bar on stderr when it is a terminal, hidden otherwise.
fn progress_bar(length: u64, unit: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(length), ProgressDrawTarget::stderr());
    let template =
        format!("{{spinner}} [{{elapsed_precise}}] {{bar:40}} {{pos}}/{{len}} {unit} (eta {{eta}})");
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style);
    }
    bar
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
        ..RunConfig::new(args.machines, levels::build(&slacks, prices.as_deref())?)
    })
}

fn run(args: &RunArgs, command: &str) -> Result<(), CliError> {
    let config = run_config(args)?;
    let workload = load(&args.input)?;
    let progress = progress_bar(workload.jobs.len() as u64, "jobs");
    let result = match &args.log {
        Some(path) => run_logged(&config, &workload, command, path, &progress),
        None => sim::run_with_progress(&config, &workload.jobs, None, &progress).map_err(CliError::from),
    };
    progress.finish_and_clear();
    let report = result?;
    let log = args.log.as_ref().map(|p| p.display().to_string());
    let summary = RunSummary::new(&workload, &config, &report, log.as_deref());
    let stdout = std::io::stdout().lock();
    let written =
        if args.json { report::write_json(&summary, stdout) } else { report::write_table(&summary, stdout) };
    written.map_err(|source| CliError::Io { path: "standard output".to_owned(), source })
}

/// Runs with a decision log written to `PATH.tmp`, renamed to `PATH` once complete,
/// so that a failed run never leaves a log that looks whole.
fn run_logged(
    config: &RunConfig,
    workload: &Workload,
    command: &str,
    path: &Path,
    progress: &ProgressBar,
) -> Result<host_sim::RunReport, CliError> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let io_error = |source| CliError::Io { path: tmp.display().to_string(), source };
    let file = File::create(&tmp).map_err(io_error)?;
    let result = (|| {
        let header = config.log_header(workload, command);
        let mut writer = LogWriter::new(BufWriter::new(file), &header).map_err(SimError::from)?;
        let report = sim::run_with_progress(config, &workload.jobs, Some(&mut writer), progress)?;
        writer.finish().map_err(SimError::from)?;
        Ok::<_, CliError>(report)
    })();
    match result {
        Ok(report) => {
            std::fs::rename(&tmp, path)
                .map_err(|source| CliError::Io { path: path.display().to_string(), source })?;
            Ok(report)
        }
        Err(error) => {
            // The partial log is useless; a failure to remove it changes nothing.
            let _ = std::fs::remove_file(&tmp);
            Err(error)
        }
    }
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
        queue_capacity: args.input.queue_capacity,
        seed: args.input.seed,
        window_ticks: parse_window(&args.window)?,
        alpha_milli: parse_alpha(&args.input.alpha)?,
    })
}

fn sweep(args: &SweepArgs) -> Result<(), CliError> {
    let config = sweep_config(args)?;
    sweep::grid(&config)?;
    let workload = load(&args.input)?;
    let progress = progress_bar(0, "runs");
    let rows = sweep::run(&config, &workload.jobs, &progress);
    progress.finish_and_clear();
    let rows = rows?;
    let document = SweepDocument::new(&workload, &config, &rows);
    match &args.out {
        Some(dir) => {
            sweep::write_files(dir, &document)?;
            eprintln!("host-sim: wrote {} rows to {}", rows.len(), dir.join("sweep.{csv,json}").display());
            Ok(())
        }
        None => report::write_sweep_table(&rows, std::io::stdout().lock())
            .map_err(|source| CliError::Io { path: "standard output".to_owned(), source }),
    }
}
