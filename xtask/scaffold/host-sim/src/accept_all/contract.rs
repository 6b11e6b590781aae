//! The accept-all model's side of the host contract ([`crate::model::HostModel`]): its
//! subcommand, its files, and its row of `compare`.

use crate::compare::{CompareError, Row};
use crate::error::CliError;
use crate::files::Files;
use crate::model::{AcceptAll, HostModel};
use crate::workload::Workload;

/// The accept-all model's subcommand.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Every request accepted at once (the recipe's example model): one run over a trace.
    #[command(display_order = 13)]
    AcceptAll(super::cli::RunArgs),
}

impl HostModel for AcceptAll {
    type Command = Command;
    const SAMPLE: &'static [&'static str] = &["accept-all"];

    fn dispatch(command: &Command) -> Result<(), CliError> {
        match command {
            Command::AcceptAll(args) => super::cli::run(args),
        }
    }

    fn files(command: &Command) -> Files {
        match command {
            Command::AcceptAll(args) => {
                Files::default().traces(&args.input).output("--log", args.output.log.as_deref())
            }
        }
    }

    fn compare(workload: &Workload, processors: u32) -> Result<Row, CompareError> {
        let events =
            workload.jobs.iter().map(|job| kernel::accept_all::Event::Submit { t: job.release, job: job.id });
        let summary = super::run(events, &mut |_| {});
        Ok(Row {
            model: "accept_all",
            after: "the recipe's example",
            requests: summary.requests,
            accepted_pct: 100.0 * summary.accepted as f64 / summary.requests.max(1) as f64,
            utilisation_pct: 0.0,
            income: None,
            income_unit: "",
            violations: 0,
            mean_wait_s: 0.0,
            mean_bounded_slowdown: 1.0,
            configuration: "none".to_owned(),
            utilisation_of: format!("{processors} processors"),
        })
    }
}
