//! The `accept-all` subcommand.

use clap::Args;

use kernel::accept_all::Event;

use crate::error::CliError;
use crate::input::TraceArgs;
use crate::output::RunOutputArgs;

/// `host-sim accept-all`.
#[derive(Debug, Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub input: TraceArgs,
    #[command(flatten)]
    pub output: RunOutputArgs,
}

/// Reads the trace and runs every job as one request at its submit time.
pub fn run(args: &RunArgs) -> Result<(), CliError> {
    let traced =
        args.input.read()?.ok_or_else(|| CliError::Usage("accept-all: give --trace FILE".to_owned()))?;
    let workload = traced.workload;
    let mut header = super::header();
    workload.stamp(&mut header);
    let events = workload.jobs.iter().map(|job| Event::Submit { t: job.release, job: job.id });
    super::run_and_print(&header, events, &args.output)
}
