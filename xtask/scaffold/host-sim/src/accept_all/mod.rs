//! The accept-all model on the host: every job of a trace is one request at its
//! submit time, decided by [`kernel::accept_all`], counted, and logged when asked.

pub mod cli;
pub mod contract;
mod whatif;

use kernel::accept_all::{AcceptAllKernel, Config, Decision, Event};
use kernel::contract::Kernel;
use kernel::log::Body;
use replay::format::{Header, Model};

use crate::error::CliError;
use crate::output::RunOutputArgs;

/// What a run counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Summary {
    pub requests: u64,
    pub accepted: u64,
    pub rejected: u64,
}

/// The header of a run's log (the caller stamps the input on it).
pub fn header() -> Header {
    Header::new(Model::AcceptAll(replay::engine::accept_all::header(Config {})))
}

/// Decides `events` in order, handing each record to `record`.
pub fn run(events: impl Iterator<Item = Event>, record: &mut dyn FnMut(Body)) -> Summary {
    let mut kernel = AcceptAllKernel::new(Config {});
    let mut summary = Summary::default();
    for event in events {
        record(Body::AcceptAllEvent(event));
        summary.requests += 1;
        kernel.step(event, &mut |decision| {
            match decision {
                Decision::Accept { .. } => summary.accepted += 1,
                Decision::Reject { .. } => summary.rejected += 1,
            }
            record(Body::AcceptAllDecision(decision));
        });
    }
    summary
}

/// Runs `events` under `header`, writing the log where `output` says, and prints the
/// summary.
pub fn run_and_print(
    header: &Header,
    events: impl Iterator<Item = Event> + Send,
    output: &RunOutputArgs,
) -> Result<(), CliError> {
    let summary = match &output.log {
        Some(path) => {
            crate::record_log::write(path, header, |record| Ok::<_, CliError>(run(events, record)))?
        }
        None => run(events, &mut |_| {}),
    };
    let text = if output.json {
        format!("{}\n", serde_json::json!({ "model": "accept_all", "summary": summary }))
    } else {
        let Summary { requests, accepted, rejected } = summary;
        format!("accept-all: {requests} requests, {accepted} accepted, {rejected} rejected late\n")
    };
    crate::output::write_stdout(&text).map_err(|e| CliError::Model(Box::new(e)))
}
