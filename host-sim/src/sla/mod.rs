//! The host side of SLA priority heuristics and pricing on a parallel machine
//! (Yarmolenko and Sakellariou, §3-5): the paper's job sets, SWF traces mapped to
//! requests, the run loop around [`kernel::sla::SlaKernel`], the utilisation and the six
//! incomes, and the sweep of its Tables 1 and 2 and Figures 3, 4, 7, 8 and 9.
//!
//! - [`heuristic`]: `min(TF - 0.8*tD)` and the rest, read exactly, errors with a caret.
//! - [`generator`]: seeded perfect-fit job sets of `64 x 300 h`.
//! - [`mapping`]: SWF jobs into requests (a seeded tightness per job).
//! - [`plan`]: what a run is given (its sets, held or streamed) and gives back.
//! - [`run`]: whole-set and online batches into kernel events, one loop over requests.
//! - [`ledger`]: the requests the loop holds until they are summed, in request order.
//! - [`stream`]: a trace's set read as a stream, in memory that does not grow with it.
//! - [`metrics`]: CPU utilisation, SLA factor, Rigid/ASAP x SLA/CPU/Fair income.
//! - [`log`]: the decision log of a run.
//! - [`sweep`]: every heuristic over a grid of weights, Tables 1 and 2, the findings.
//! - [`figures`]: the paper's figures as SVG.
//! - [`paper`]: the paper's numbers, printed beside ours.
//! - [`cli`]: the `sla` and `sla-sweep` subcommands.

pub mod cli;
pub mod contract;
pub mod figures;
pub mod generator;
pub mod heuristic;
pub mod ledger;
pub mod log;
pub mod mapping;
pub mod metrics;
pub mod paper;
pub mod plan;
pub mod run;
pub mod stream;
pub mod sweep;
pub mod whatif;

use crate::error::{ModelError, host_errors};

host_errors! {
    /// Everything that can go wrong on the sla side.
    SlaError {
        Shard(crate::shard::ShardError),
    } {
        #[error("sla kernel: {0}")]
        Config(String),
    }
}

impl ModelError for SlaError {
    const LABEL: &'static str = "sla";
}
