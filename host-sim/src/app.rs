//! The `host-sim` command line as a library: its definition ([`Cli`]), the checks of
//! its files before anything is read (`app/files.rs`), its dispatch, and its errors
//! as the user sees them. The binary (`main.rs`) is [`main`]; the Python package
//! (`python/`) runs the same command lines through [`execute`], its standard output
//! captured ([`crate::output::capture`]), so both take the same options with the same
//! defaults and refuse them with the same words.

use std::ffi::OsString;
use std::process::ExitCode;

use clap::error::{ContextKind, ContextValue};
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::config::{self, Expanded, Origin};
use crate::error::{CliError, closed_pipe};
use crate::model::ModelCommand;
use crate::path_error::PathError;
use crate::service_level::cli;
use crate::units::Refused;

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
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    run: cli::RunArgs,
}

/// Every model's subcommands (each model's own, from the registry in
/// [`crate::model`]), then those over all models; `display_order` keeps
/// `--help`'s list in its order.
#[derive(Debug, Subcommand)]
enum Command {
    #[command(flatten)]
    Model(ModelCommand),
    /// Every model on the same trace, with its defaults: one table of shared measures.
    #[command(display_order = 7, allow_negative_numbers = true)]
    Compare(crate::compare::cli::CompareArgs),
    /// Scenario files: print one with every option of a subcommand and its default.
    #[command(display_order = 8)]
    Config(ConfigArgs),
    /// The requests of a decision log (any model's) decided again under another
    /// configuration: every option defaults to the log's, and --log writes the new log.
    #[command(display_order = 13, allow_negative_numbers = true, after_help = EXAMPLE_WHATIF)]
    Whatif(crate::whatif::WhatifArgs),
    /// The parts of a sweep run as shards (`--shard K/N`) joined into the unsplit run's
    /// outputs, byte for byte; a missing, repeated or foreign part is refused.
    #[command(display_order = 14, after_help = EXAMPLE_MERGE)]
    Merge(crate::shard::MergeArgs),
    /// A sweep in shards as a Slurm job array, and their merge as a job that waits for
    /// every task: the sbatch scripts and the command that submits them.
    #[command(display_order = 15, after_help = EXAMPLE_SLURM)]
    Slurm(crate::shard::slurm::SlurmArgs),
}

const EXAMPLE_SLURM: &str = "Example: host-sim slurm --shards 8 --time 1:00:00 --out out/study -- sweep --trace kth.swf, \
     then sh out/study/submit.sh";

const EXAMPLE_MERGE: &str = "Example: host-sim sweep --trace kth.swf --shard 1/2 --out out/s1 (and 2/2 to out/s2), then \
     host-sim merge out/s1 out/s2 --out out/sweep";

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

/// Why a command line did not run, as the user is told: the message, whether it is
/// clap's own wording of a refused command line (`usage`, exit 2) or host-sim's (exit
/// 1), the option it is about where clap names one, and the scenario file's line where
/// that option came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub message: String,
    pub usage: bool,
    pub option: Option<String>,
    pub origin: Option<Box<Origin>>,
}

impl Failure {
    fn new(message: String, usage: bool, option: Option<String>, expanded: &Expanded) -> Self {
        let origin = expanded.origin_of(&message).cloned().map(Box::new);
        // host-sim's own refusals of an option open with it: `--trace x.swf: ...`.
        let named = || message.strip_prefix("--")?.split([' ', ':', '=']).next().map(|o| format!("--{o}"));
        let option = option.or_else(named);
        Self { message, usage, option, origin }
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.message.trim_end())?;
        match &self.origin {
            Some(o) => write!(f, "\n  (set by {}:{}, key `{}`)", o.file, o.line, o.key),
            None => Ok(()),
        }
    }
}

/// Runs the command line `args` (the program's name first) as `host-sim` does, but
/// without watching for interrupts and without exiting: `--help` and `--version` are
/// failures whose message is the text.
pub fn execute(args: Vec<OsString>) -> Result<(), Failure> {
    let definition = Cli::command();
    let (cli, expanded) = match parse(args, &definition) {
        Ok(parsed) => parsed,
        Err(Refusal::Expand(failure)) => return Err(failure),
        Err(Refusal::Clap(error, expanded)) => return Err(clap_failure(&error, &expanded)),
    };
    run(cli, &expanded, &definition)
}

/// The `host-sim` binary.
pub fn main() -> ExitCode {
    let definition = Cli::command();
    let (cli, expanded) = match parse(std::env::args_os().collect(), &definition) {
        Ok(parsed) => parsed,
        Err(Refusal::Expand(failure)) => return report(&failure),
        Err(Refusal::Clap(error, _)) if !error.use_stderr() => error.exit(),
        Err(Refusal::Clap(error, expanded)) => {
            let failure = clap_failure(&error, &expanded);
            return if failure.usage { clap_report(&failure) } else { report(&failure) };
        }
    };
    if let Err(error) = replay::staged::interrupt::remove_on_signal() {
        eprintln!("host-sim: error: cannot watch for interrupts: {error}");
        return ExitCode::FAILURE;
    }
    match run(cli, &expanded, &definition) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => report(&failure),
    }
}

/// Why a command line was not parsed: its scenario file, or clap.
enum Refusal {
    Expand(Failure),
    Clap(clap::Error, Expanded),
}

fn parse(args: Vec<OsString>, definition: &clap::Command) -> Result<(Cli, Expanded), Refusal> {
    let expanded = config::expand(args, definition).map_err(|error| {
        Refusal::Expand(Failure::new(error.to_string(), false, None, &Expanded::default()))
    })?;
    // The definition already built, not a second one as `Cli::try_parse_from` builds.
    let parsed = definition.clone().try_get_matches_from(&expanded.args).and_then(|mut matches| {
        Cli::from_arg_matches_mut(&mut matches).map_err(|error| error.format(&mut Cli::command()))
    });
    match parsed {
        Ok(cli) => Ok((cli, expanded)),
        Err(error) => Err(Refusal::Clap(error, expanded)),
    }
}

fn run(cli: Cli, expanded: &Expanded, definition: &clap::Command) -> Result<(), Failure> {
    crate::shard::set_command_line(&expanded.args);
    let scenario = expanded.scenario.as_deref();
    // The inputs stay held until the dispatch ends.
    let result =
        files::check(cli.command.as_ref(), &cli.run, scenario).and_then(|_held| dispatch(cli, definition));
    match result {
        Ok(()) => Ok(()),
        // A reader that went away (`host-sim ... | head`) is no error.
        Err(error) if closed_pipe(&error) => Ok(()),
        Err(error) => Err(Failure::new(error.to_string(), false, None, expanded)),
    }
}

fn dispatch(cli: Cli, definition: &clap::Command) -> Result<(), CliError> {
    match cli.command {
        None => crate::service_level::cli::run(&cli.run),
        Some(Command::Model(command)) => command.dispatch(),
        Some(Command::Config(args)) => print_defaults(definition, &args),
        Some(Command::Compare(args)) => crate::compare::cli::run(&args),
        Some(Command::Whatif(args)) => crate::whatif::run(&args),
        Some(Command::Merge(args)) => merge(&args, definition),
        Some(Command::Slurm(args)) => slurm(&args),
    }
}

/// `host-sim slurm`: the sweep's command line checked as a shard's, then the scripts.
fn slurm(args: &crate::shard::slurm::SlurmArgs) -> Result<(), CliError> {
    let mut trial: Vec<OsString> = vec!["host-sim".into()];
    trial.extend(args.command.iter().cloned());
    trial.extend(["--shard".into(), format!("1/{}", args.shards).into(), "--out".into(), "shard-1".into()]);
    let refused = |e: clap::Error| {
        CliError::Usage(format!("the sweep after `--` cannot run as a shard: {}", e.render()))
    };
    let parsed = Cli::try_parse_from(&trial).map_err(refused)?;
    if !matches!(parsed.command, Some(Command::Model(_))) {
        return Err(CliError::Usage("give a sweep after `--`, as `-- sweep --trace FILE`".to_owned()));
    }
    crate::shard::slurm::write(args)
}

/// `host-sim merge`: the shards' command line run again, its rows from their parts.
fn merge(args: &crate::shard::MergeArgs, definition: &clap::Command) -> Result<(), CliError> {
    let argv = crate::shard::merge(args).map_err(|e| CliError::Usage(e.to_string()))?;
    let cli = Cli::try_parse_from(&argv).map_err(|e| CliError::Usage(e.render().to_string()))?;
    if matches!(cli.command, Some(Command::Merge(_)) | None) {
        return Err(CliError::Usage("the parts' command line is not a sweep's".to_owned()));
    }
    crate::shard::set_command_line(&argv);
    let _held = files::check(cli.command.as_ref(), &cli.run, None)?;
    dispatch(cli, definition)
}

/// `host-sim: error: ...` and the scenario's line, exit 1.
fn report(failure: &Failure) -> ExitCode {
    eprintln!("host-sim: error: {failure}");
    ExitCode::FAILURE
}

/// A command line clap refused, as clap words it, and the scenario's line: exit 2.
fn clap_report(failure: &Failure) -> ExitCode {
    eprint!("{}", failure.message);
    if let Some(o) = &failure.origin {
        eprintln!("  (set by {}:{}, key `{}`)", o.file, o.line, o.key);
    }
    ExitCode::from(2)
}

/// A command line clap refused (or `--help`, `--version`, whose text is the message): a
/// typed option's refusal ([`Refused`]) worded as host-sim's own checks are
/// (`--option: why`), any other as clap words it.
fn clap_failure(error: &clap::Error, expanded: &Expanded) -> Failure {
    let option = match error.get(ContextKind::InvalidArg) {
        Some(ContextValue::String(arg)) => Some(arg.split([' ', '=']).next().unwrap_or(arg).to_owned()),
        _ => None,
    };
    let refused = std::error::Error::source(error).and_then(|e| e.downcast_ref::<Refused>());
    match (refused, option) {
        (Some(refused), Some(option)) => {
            Failure::new(format!("{option}: {refused}"), false, Some(option), expanded)
        }
        (_, option) => Failure::new(error.render().to_string(), true, option, expanded),
    }
}

fn print_defaults(definition: &clap::Command, args: &ConfigArgs) -> Result<(), CliError> {
    if !args.defaults {
        return Err(CliError::Usage("host-sim config: give --defaults (and --command SUBCOMMAND)".into()));
    }
    let text = config::defaults(definition, &args.command).map_err(|e| CliError::Usage(e.to_string()))?;
    crate::output::write_stdout(&text).map_err(|source| CliError::Io(PathError::stdout(source)))
}

// The check that every path option of this definition is a path in a scenario.
#[cfg(test)]
#[path = "config/definition_tests.rs"]
mod config_definition_tests;
