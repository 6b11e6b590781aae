//! The `host-sim` command line: `run` (the default), `sweep`, `reserve`,
//! `reserve-sweep`, `tiers`, `tiers-sweep`, `sla`, `sla-sweep`, `criteria`, `compare`,
//! `whatif` and `config`; every subcommand takes `--config FILE`.

use std::process::ExitCode;

use clap::error::{ContextKind, ContextValue};
use clap::{Args, CommandFactory, Parser, Subcommand};

use host_sim::config;
use host_sim::error::{CliError, closed_pipe};
use host_sim::model::ModelCommand;
use host_sim::path_error::PathError;
use host_sim::service_level::cli;
use host_sim::units::Refused;

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

/// Every model's subcommands (each model's own, from the registry in
/// [`host_sim::model`]), then those over all models; `display_order` keeps
/// `--help`'s list in its order.
#[derive(Debug, Subcommand)]
enum Command {
    #[command(flatten)]
    Model(ModelCommand),
    /// Every model on the same trace, with its defaults: one table of shared measures.
    #[command(display_order = 7, allow_negative_numbers = true)]
    Compare(host_sim::compare::cli::CompareArgs),
    /// Scenario files: print one with every option of a subcommand and its default.
    #[command(display_order = 8)]
    Config(ConfigArgs),
    /// The requests of a decision log (any model's) decided again under another
    /// configuration: every option defaults to the log's, and --log writes the new log.
    #[command(display_order = 13, allow_negative_numbers = true, after_help = EXAMPLE_WHATIF)]
    Whatif(host_sim::whatif::WhatifArgs),
}

const EXAMPLE_WHATIF: &str =
    "Example: host-sim whatif out/kth.log --policy best-fit --machines 6 --log out/kth-best-fit.log";

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
        None => host_sim::service_level::cli::run(&cli.run),
        Some(Command::Model(command)) => command.dispatch(),
        Some(Command::Config(args)) => print_defaults(definition, &args),
        Some(Command::Compare(args)) => host_sim::compare::cli::run(&args),
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
    if let Some(message) = typed_refusal(error) {
        eprintln!("host-sim: error: {message}");
        if let Some(origin) = expanded.origin_of(&message) {
            eprintln!("  (set by {}:{}, key `{}`)", origin.file, origin.line, origin.key);
        }
        return ExitCode::FAILURE;
    }
    let message = error.render().to_string();
    eprint!("{message}");
    if let Some(origin) = expanded.origin_of(&message) {
        eprintln!("  (set by {}:{}, key `{}`)", origin.file, origin.line, origin.key);
    }
    ExitCode::from(2)
}

/// A typed option's refusal ([`Refused`]), as `--option: why`: worded and exiting as
/// host-sim's own checks do.
fn typed_refusal(error: &clap::Error) -> Option<String> {
    let refused = std::error::Error::source(error)?.downcast_ref::<Refused>()?;
    let option = match error.get(ContextKind::InvalidArg)? {
        ContextValue::String(arg) => arg.split(' ').next().unwrap_or(arg).to_owned(),
        _ => return None,
    };
    Some(format!("{option}: {refused}"))
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
