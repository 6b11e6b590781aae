//! The decision log of an `sla` run: sla records under a header whose model is
//! [`Model::Sla`] (the kernel's configuration and the engine's capacities), written
//! through [`crate::record_log`] so that a failed run never leaves a log that looks whole.
//! Runs with and without a log go through the same engine
//! ([`replay::engine::sla::SlaEngine`]), so they decide alike.

use std::path::Path;

use indicatif::ProgressBar;

use kernel::log::Body;
use kernel::sla::Config;
use replay::engine::sla::SlaEngine;
use replay::format::{Header, Model};

use super::SlaError;
use super::plan::{Outcome, Plan, Settle};
use crate::record_log;

/// The header every sla log starts from: the kernel's configuration, the engine's
/// capacities (its batch `batch`) and the seed. The caller adds the inputs and the
/// settings.
pub fn header(config: Config, batch: u32, seed: u64) -> Header {
    let mut header = Header::new(Model::Sla(replay::engine::sla::header_with(config, batch)));
    header.seed = seed;
    header
}

/// The engine of a run: `config`, and the batch capacity `batch`.
pub fn engine(config: Config, batch: u32) -> Result<SlaEngine, SlaError> {
    SlaEngine::with_batch(config, batch).map_err(|e| SlaError::Config(e.to_string()))
}

/// Runs every set of `plan` without a log, handing each request and its start to
/// `settle` ([`Plan::run`]).
pub fn run_plain(plan: &Plan, bar: &ProgressBar, settle: Settle<'_>) -> Result<Outcome, SlaError> {
    let mut engine = engine(plan.config, plan.batch_capacity)?;
    plan.run(&mut engine, &mut |_, _| {}, settle, bar)
}

/// Runs every set of `plan` and writes its header, then every event and its
/// decisions, to `path`.
pub fn run_logged(
    plan: &Plan,
    path: &Path,
    bar: &ProgressBar,
    settle: Settle<'_>,
) -> Result<Outcome, SlaError> {
    record_log::write(path, &plan.header, |record| {
        let mut engine = engine(plan.config, plan.batch_capacity)?;
        let mut observe = |event: &kernel::sla::Event, decisions: &[kernel::sla::Decision]| {
            record(Body::SlaEvent(*event));
            decisions.iter().for_each(|d| record(Body::SlaDecision(*d)));
        };
        plan.run(&mut engine, &mut observe, settle, bar)
    })
}
