//! The `host-sim` command line: `run` (the default), `sweep`, `reserve`,
//! `reserve-sweep`, `tiers`, `tiers-sweep`, `sla`, `sla-sweep`, `criteria`, `compare`,
//! `whatif` and `config`; every subcommand takes `--config FILE`.

use std::process::ExitCode;

use clap::{Args, CommandFactory, Parser, Subcommand};

use host_sim::config;
use host_sim::error::{CliError, closed_pipe};
use host_sim::model::{HostModel, Reservation, ServiceLevel, Sla, Tiers};
use host_sim::path_error::PathError;
use host_sim::service_level::cli;
use host_sim::service_level::criteria::cli as criteria_cli;

// The binary's own module: it needs `Command`, which the library does not have.
#[path = "main/files.rs"]
mod files;

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
// `--config FILE` is read by `config::expand` before clap parses; it is declared here,
// global, only so that every `--help` lists it.
#[command(arg = config::option())]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    run: cli::RunArgs,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Simulate one configuration and print its metrics (the default). Each job is one
    /// unit of work on one machine: its processor count is not used (the thesis'
    /// model); `reserve` and `sla` use it, `tiers` does not.
    #[command(allow_negative_numbers = true, after_help = EXAMPLE_RUN)]
    Run(cli::RunArgs),
    /// Run the thesis' grid of configurations in parallel and write CSV and JSON.
    #[command(allow_negative_numbers = true, after_help = EXAMPLE_SWEEP)]
    Sweep(cli::SweepArgs),
    /// Flexible advance reservations (Netto et al. 2007): one configuration.
    #[command(allow_negative_numbers = true, after_help = EXAMPLE_RESERVE)]
    Reserve(host_sim::reservation::cli::ReserveArgs),
    /// Flexible advance reservations: the paper's figures 2-7 as CSV, and its findings.
    #[command(allow_negative_numbers = true, after_help = EXAMPLE_RESERVE_SWEEP)]
    ReserveSweep(host_sim::reservation::cli::ReserveSweepArgs),
    /// The thesis' criteria analysis of a sweep's output (degradations, groups, ranks).
    #[command(after_help = EXAMPLE_CRITERIA)]
    Criteria(criteria_cli::CriteriaArgs),
    /// The exact offline optimum V* of each window (a mixed-integer program, HiGHS) beside
    /// the greedy run's income V: the true competitive factor V/V*.
    #[command(allow_negative_numbers = true, after_help = EXAMPLE_OPTIMUM)]
    Optimum(host_sim::service_level::optimum::cli::OptimumArgs),
    /// The true competitive factor V/V* over the thesis' grid, on sampled weeks of each
    /// trace: CSV, a summary and the cv figures.
    #[command(allow_negative_numbers = true, after_help = EXAMPLE_CV_SWEEP)]
    CvSweep(host_sim::service_level::optimum::grid::CvSweepArgs),
    /// Every model on the same trace, with its defaults: one table of shared measures.
    #[command(allow_negative_numbers = true)]
    Compare(host_sim::compare::cli::CompareArgs),
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
    /// The requests of a decision log (any model's) decided again under another
    /// configuration: every option defaults to the log's, and --log writes the new log.
    #[command(allow_negative_numbers = true, after_help = EXAMPLE_WHATIF)]
    Whatif(host_sim::whatif::WhatifArgs),
}

const EXAMPLE_RUN: &str = "Example: host-sim run --trace ../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz \
--machines 4 --levels 1,2,3,4,5 --seed 7 --policy best-fit --log out/kth.log --jobs-out out/kth-jobs.csv";
const EXAMPLE_SWEEP: &str = "Example: host-sim sweep --trace ../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz \
--policy first-fit,best-fit,worst-fit,least-loaded,round-robin --out out/kth-sweep";
const EXAMPLE_RESERVE: &str = "Example: host-sim reserve --trace ../shared/traces/SDSC-SP2-1998-4.2-cln.swf.gz \
--criterion edf --load 1.25 --flex medium --log out/sdsc-resv.log";
const EXAMPLE_RESERVE_SWEEP: &str =
    "Example: host-sim reserve-sweep --trace ../shared/traces/SDSC-SP2-1998-4.2-cln.swf.gz --out out/netto";
const EXAMPLE_OPTIMUM: &str = "Example: host-sim optimum --trace ../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz \
--window 7d --windows 1 --slack 2 --time-limit 60 --out out/kth-optimum.csv";
const EXAMPLE_CV_SWEEP: &str = "Example: host-sim cv-sweep --trace ../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz \
--trace ../shared/traces/NASA-iPSC-1993-3.1-cln.swf.gz --weeks 4 --time-limit 10 --out out/cv";
const EXAMPLE_CRITERIA: &str = "Example: host-sim criteria out/kth-sweep --machine-counts 1,2,4";
const EXAMPLE_TIERS: &str = "Example: host-sim tiers --policy qos-res --mix C --seed 3 --log out/tiers.log";
const EXAMPLE_WHATIF: &str =
    "Example: host-sim whatif out/kth.log --policy best-fit --machines 6 --log out/kth-best-fit.log";
const EXAMPLE_TIERS_SWEEP: &str = "Example: host-sim tiers-sweep --seeds 1..5 --out out/tiers";

/// `host-sim config`.
#[derive(Debug, Args)]
#[command(after_help = "Example: host-sim config --defaults --command sweep > out/sweep.toml")]
struct ConfigArgs {
    /// Print a scenario file with every option and its default, commented.
    #[arg(long)]
    defaults: bool,
    /// The subcommand whose options the file holds.
    #[arg(long, value_name = "NAME", default_value = "run")]
    command: String,
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
    let cli = match Cli::try_parse_from(&expanded.args) {
        Ok(cli) => cli,
        Err(error) => return refused(&error, &expanded),
    };
    if let Err(error) = replay::staged::interrupt::remove_on_signal() {
        eprintln!("host-sim: error: cannot watch for interrupts: {error}");
        return ExitCode::FAILURE;
    }
    let scenario = expanded.scenario.as_deref();
    let result =
        files::check(cli.command.as_ref(), &cli.run, scenario).and_then(|()| dispatch(cli, &definition));
    report(result, &expanded)
}

fn dispatch(cli: Cli, definition: &clap::Command) -> Result<(), CliError> {
    match cli.command {
        Some(Command::Config(args)) => print_defaults(definition, &args),
        Some(Command::Compare(args)) => host_sim::compare::cli::run(&args),
        Some(Command::Run(args)) => ServiceLevel::run(&args),
        Some(Command::Sweep(args)) => ServiceLevel::sweep(&args),
        Some(Command::Criteria(args)) => criteria_cli::criteria(&args),
        Some(Command::Optimum(args)) => host_sim::service_level::optimum::cli::optimum(&args),
        Some(Command::CvSweep(args)) => host_sim::service_level::optimum::grid::cv_sweep(&args),
        None => ServiceLevel::run(&cli.run),
        Some(Command::Reserve(args)) => Reservation::run(&args),
        Some(Command::ReserveSweep(args)) => Reservation::sweep(&args),
        Some(Command::Tiers(args)) => Tiers::run(&args),
        Some(Command::TiersSweep(args)) => Tiers::sweep(&args),
        Some(Command::Sla(args)) => Sla::run(&args),
        Some(Command::SlaSweep(args)) => Sla::sweep(&args),
        Some(Command::Whatif(args)) => host_sim::whatif::run(&args),
    }
}

fn report(result: Result<(), CliError>, expanded: &config::Expanded) -> ExitCode {
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

/// A command line clap refused (or `--help`, `--version`): printed as clap prints it,
/// with the scenario file's line when the option came from one.
fn refused(error: &clap::Error, expanded: &config::Expanded) -> ExitCode {
    if !error.use_stderr() {
        error.exit();
    }
    let message = error.render().to_string();
    eprint!("{message}");
    if let Some(origin) = expanded.origin_of(&message) {
        eprintln!("  (set by {}:{}, key `{}`)", origin.file, origin.line, origin.key);
    }
    ExitCode::from(2)
}

fn print_defaults(definition: &clap::Command, args: &ConfigArgs) -> Result<(), CliError> {
    if !args.defaults {
        return Err(CliError::Usage("host-sim config: give --defaults (and --command SUBCOMMAND)".into()));
    }
    let text = config::defaults(definition, &args.command).map_err(|e| CliError::Usage(e.to_string()))?;
    host_sim::output::write_stdout(&text).map_err(|source| CliError::Io(PathError::stdout(source)))
}

// The check that every path option of this definition is a path in a scenario; it
// lives beside `config.rs` but needs `Cli`, which only the binary has.
#[cfg(test)]
#[path = "config/definition_tests.rs"]
mod config_definition_tests;
