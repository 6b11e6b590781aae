//! `host-sim whatif LOG`: the requests a decision log recorded, decided again under
//! another configuration, with a new log.
//!
//! Written once for every model: the log is read with replay's reader
//! ([`Recorded::read`]), its header's configuration is the default of every option,
//! and the model the header names ([`replay::with_model!`]) re-runs the requests
//! through [`Whatif`], which each model implements in its own `NAME/whatif.rs`: the
//! log's records turned back into that model's workload (each request as it was
//! submitted, with what the model needs of its later life, such as a run time) and
//! fed to the model's own run loop, whose log is written through the model's own
//! header code and log writer. So the what-if of the recorded configuration re-makes
//! the log byte for byte, and a changed option gives the log a run with that option
//! would have written, or, where the log lacks what that run would need (see each
//! model's file), a refusal naming what is missing.
//!
//! The options ([`Changes`]) are every model's that change a decision; each is
//! optional, and one that the log's model has no use for is refused by name
//! ([`Changes::refuse_except`]).

use std::path::{Path, PathBuf};

use clap::Args;
use kernel::log::Body;
use replay::format::{FormatError, Header, Input, LogReader};

use crate::error::CliError;
use crate::output::RunOutputArgs;
use crate::workload::Workload;

/// `host-sim whatif`.
#[derive(Debug, Args)]
pub struct WhatifArgs {
    /// The decision log whose requests are decided again (any model's).
    #[arg(value_name = "LOG")]
    pub input: PathBuf,
    #[command(flatten)]
    pub changes: Changes,
    #[command(flatten)]
    pub output: RunOutputArgs,
}

/// What may differ from the log's configuration. Every option defaults to the value
/// the log's header recorded.
#[derive(Clone, Debug, Default, Args)]
pub struct Changes {
    /// The policy: service level's machine choice (first-fit, best-fit, worst-fit,
    /// least-loaded, round-robin); tiers' (no-qos, qos, qos-res). Default: the log's.
    #[arg(long, value_name = "NAME")]
    pub policy: Option<String>,
    /// Service level: machines, 1 to 64. Default: the log's.
    #[arg(long, value_name = "N")]
    pub machines: Option<u16>,
    /// Service level: one level with this slack factor (its price by default).
    /// Without it, the log's levels.
    #[arg(long, value_name = "NUMBER", conflicts_with = "levels")]
    pub slack: Option<String>,
    /// Service level: several levels' slack factors, comma-separated, e.g. 1,2,3,4,5.
    /// Default: the log's levels.
    #[arg(long, value_name = "LIST")]
    pub levels: Option<String>,
    /// Service level: prices per tick, one per level, comma-separated (with neither
    /// --slack nor --levels: new prices for the recorded levels). Default: the log's.
    #[arg(long, value_name = "LIST")]
    pub prices: Option<String>,
    #[arg(
        long,
        value_name = "N",
        help = concat!(
            "Service level: jobs each machine's queue can hold: ",
            crate::service_level::cli::queue_capacities!(),
            ". Default: the log's"
        )
    )]
    pub queue_capacity: Option<u32>,
    /// Service level: the level draw's seed (each job's level is drawn again).
    /// Default: the log's.
    #[arg(long, value_name = "N", value_parser = crate::units::seed)]
    pub seed: Option<u64>,
    /// Service level: cost per tick of the benefit metric G (a metric, not a
    /// decision). Default: the log's.
    #[arg(long, value_name = "NUMBER")]
    pub alpha: Option<String>,
    /// Reservation: the waiting queue's order (fifo, edf, lff, bjf, shuffle). Default:
    /// the log's.
    #[arg(long, value_name = "NAME")]
    pub criterion: Option<String>,
    /// Reservation and SLA: the pool's nodes. Default: the log's.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub nodes: Option<u32>,
    #[arg(
        long,
        value_name = "SHARE",
        help = concat!("Reservation: ", crate::reservation::cli::fix_at_help!(), "; default: the log's")
    )]
    pub fix_at: Option<String>,
    /// Reservation: the offer user's bound on phi (a number with up to three
    /// decimals), or `off`. Default: the log's.
    #[arg(long, value_name = "NUMBER|off")]
    pub offers: Option<String>,
    /// Tiers: the laxity threshold of Algorithm 1 (up to three decimals). Default: the
    /// log's.
    #[arg(long, value_name = "NUMBER")]
    pub laxity: Option<String>,
    /// SLA: the priority heuristic, e.g. `min(TF - 0.8*tD)` (its random order is
    /// seeded with the log's seed). Default: the log's.
    #[arg(long, value_name = "EXPR", allow_hyphen_values = true)]
    pub heuristic: Option<String>,
}

impl Changes {
    /// The options given, by their names on the command line.
    pub fn given(&self) -> Vec<&'static str> {
        let flags = [
            ("--policy", self.policy.is_some()),
            ("--machines", self.machines.is_some()),
            ("--slack", self.slack.is_some()),
            ("--levels", self.levels.is_some()),
            ("--prices", self.prices.is_some()),
            ("--queue-capacity", self.queue_capacity.is_some()),
            ("--seed", self.seed.is_some()),
            ("--alpha", self.alpha.is_some()),
            ("--criterion", self.criterion.is_some()),
            ("--nodes", self.nodes.is_some()),
            ("--fix-at", self.fix_at.is_some()),
            ("--offers", self.offers.is_some()),
            ("--laxity", self.laxity.is_some()),
            ("--heuristic", self.heuristic.is_some()),
        ];
        flags.into_iter().filter(|&(_, given)| given).map(|(name, _)| name).collect()
    }

    /// Refuses, by name, the first option given that is not in `known`, which the
    /// model `model` (its label in sentences, with its article: `a tiers`) cannot apply.
    pub fn refuse_except(&self, known: &[&str], model: &str) -> Result<(), CliError> {
        match self.given().into_iter().find(|name| !known.contains(name)) {
            Some(name) => Err(CliError::Usage(format!(
                "whatif: {name} does not apply to {model} log (its options: {})",
                known.join(", ")
            ))),
            None => Ok(()),
        }
    }
}

/// A decision log read whole: where it was, its header, its records in order.
#[derive(Clone, Debug)]
pub struct Recorded {
    pub path: PathBuf,
    pub header: Header,
    pub records: Vec<Body>,
}

impl Recorded {
    /// Reads the log at `path` to its footer once it verifies ([`replay::trust`]); a
    /// damaged, truncated or edited log is an error naming the file (a what-if of part
    /// of the requests, or of requests under another header, would mislead).
    pub fn read(path: &Path) -> Result<Self, CliError> {
        replay::trust::vouch_file(path).map_err(|e| CliError::Usage(e.to_string()))?;
        let named = |e: FormatError| CliError::Usage(format!("{}: {e}", path.display()));
        let mut reader = LogReader::open(path).map_err(named)?;
        let header = reader.header().clone();
        let mut records = Vec::new();
        while let Some(record) = reader.next_record().map_err(named)? {
            records.push(record.body);
        }
        Ok(Self { path: path.to_owned(), header, records })
    }

    /// The input the log recorded, as a workload of `jobs`: its inputs' names and
    /// hashes, and every setting of the header, so that a model's own header code
    /// (which stamps the workload, then sets its own keys) writes them back as they
    /// were. The lines a reader left out are not in a log: none are counted.
    pub fn workload(&self, jobs: Vec<crate::workload::Job>) -> Workload {
        let single = match self.header.inputs.as_slice() {
            [only] => u64::from_str_radix(&only.hash, 16).ok().map(|hash| (only.name.clone(), hash)),
            _ => None,
        };
        let (name, hash, parts): (String, u64, Vec<Input>) = match single {
            Some((name, hash)) => (name, hash, Vec::new()),
            // A merged workload's hash is its parts' hashes in turn, as `merge` makes it.
            None => {
                let mut digest = crate::workload::INPUT_CRC.digest();
                for input in &self.header.inputs {
                    digest.update(&u64::from_str_radix(&input.hash, 16).unwrap_or(0).to_le_bytes());
                }
                (self.header.input_names(), digest.finalize(), self.header.inputs.clone())
            }
        };
        Workload { settings: self.header.settings.clone(), parts, ..Workload::new(name, hash, jobs) }
    }

    /// An error about this log's content, naming the file.
    pub fn error(&self, what: impl std::fmt::Display) -> CliError {
        CliError::Usage(format!("{}: {what}", self.path.display()))
    }
}

/// `host-sim whatif`: the log's requests decided again under `args.changes`.
pub fn run(args: &WhatifArgs) -> Result<(), CliError> {
    let recorded = Recorded::read(&args.input)?;
    replay::with_model!(recorded.header.model, decide(&recorded, &args.changes, &args.output))
}

fn decide<M: Whatif>(recorded: &Recorded, changes: &Changes, output: &RunOutputArgs) -> Result<(), CliError> {
    M::whatif(recorded, changes, output)
}

/// A model's part of the what-if, implemented for its marker type in `NAME/whatif.rs`.
pub trait Whatif {
    /// The requests of `recorded` (a log of this model) through the model's run loop
    /// under the header's configuration with `changes` applied: the summary printed
    /// as the model's run prints it, and the new log written to `output.log`.
    fn whatif(recorded: &Recorded, changes: &Changes, output: &RunOutputArgs) -> Result<(), CliError>;
}
