//! The files a subcommand reads and writes, checked before anything is read: an
//! output that is an input or another output is refused
//! ([`replay::staged::distinct`]). Output folders (`--out DIR` of the grids) are not
//! listed: the files in them are each written through a staged file, and a folder
//! that is an input file cannot be created.

use std::path::Path;

use host_sim::error::CliError;
use host_sim::input::TraceArgs;
use replay::staged::{self, paths::Named};

use super::Command;

/// Checks `command`'s file options; `run` is the subcommand `host-sim` alone runs.
pub fn check(command: Option<&Command>, run: &host_sim::service_level::cli::RunArgs) -> Result<(), CliError> {
    let (inputs, outputs): (Vec<Named>, Vec<Named>) = match command {
        None => run_files(run),
        Some(Command::Run(args)) => run_files(args),
        Some(Command::Reserve(args)) => (traces(&args.input.source), log(args.output.log.as_deref())),
        Some(Command::Tiers(args)) => {
            let mut inputs = traces(&args.input);
            inputs.extend(args.availability.as_deref().map(|p| ("--availability", p)));
            (inputs, log(args.output.log.as_deref()))
        }
        Some(Command::Sla(args)) => (traces(&args.input), log(args.output.log.as_deref())),
        Some(Command::Optimum(args)) => {
            (traces(&args.input.source), args.out.as_deref().map(|p| ("--out", p)).into_iter().collect())
        }
        Some(Command::Whatif(args)) => (vec![("LOG", args.input.as_path())], log(args.output.log.as_deref())),
        _ => return Ok(()),
    };
    staged::distinct(&inputs, &outputs).map_err(|clash| CliError::Usage(clash.to_string()))
}

/// `--log`, when given, as the list of outputs it starts.
fn log(path: Option<&Path>) -> Vec<Named<'_>> {
    path.map(|p| ("--log", p)).into_iter().collect()
}

fn traces(source: &TraceArgs) -> Vec<Named<'_>> {
    source.trace.iter().map(|p| ("--trace", p.as_path())).collect()
}

/// `run`'s files: its traces; its log, per-job CSV and record stream.
fn run_files(args: &host_sim::service_level::cli::RunArgs) -> (Vec<Named<'_>>, Vec<Named<'_>>) {
    let mut outputs = log(args.output.log.as_deref());
    outputs.extend(args.jobs_out.as_deref().map(|p| ("--jobs-out", p)));
    outputs.extend(args.stream_out.as_deref().map(|p| ("--stream-out", p)));
    (traces(&args.input.source), outputs)
}
