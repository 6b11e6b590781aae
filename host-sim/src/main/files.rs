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
    let (mut inputs, mut outputs): (Vec<Named>, Vec<Named>) = (Vec::new(), Vec::new());
    let run = match command {
        None => Some(run),
        Some(Command::Run(args)) => Some(args),
        _ => None,
    };
    if let Some(args) = run {
        inputs = traces(&args.input.source);
        outputs.extend(log(args.output.log.as_deref()));
        outputs.extend(args.jobs_out.as_deref().map(|p| ("--jobs-out", p)));
    }
    match command {
        Some(Command::Reserve(args)) => {
            inputs = traces(&args.input.source);
            outputs.extend(log(args.output.log.as_deref()));
        }
        Some(Command::Tiers(args)) => {
            inputs = traces(&args.input);
            inputs.extend(args.availability.as_deref().map(|p| ("--availability", p)));
            outputs.extend(log(args.output.log.as_deref()));
        }
        Some(Command::Sla(args)) => {
            inputs = traces(&args.input);
            outputs.extend(log(args.output.log.as_deref()));
        }
        _ => {}
    }
    staged::distinct(&inputs, &outputs).map_err(|clash| CliError::Usage(clash.to_string()))
}

fn log(path: Option<&Path>) -> Option<Named<'_>> {
    path.map(|p| ("--log", p))
}

fn traces(source: &TraceArgs) -> Vec<Named<'_>> {
    source.trace.iter().map(|p| ("--trace", p.as_path())).collect()
}
