//! What a model is on the host: [`HostModel`], implemented once per model (in
//! `NAME/contract.rs`): its one-configuration and grid subcommands over the shared
//! trace input ([`crate::input`]), and its row of `compare`. `main` dispatches the
//! subcommands through it and [`compare_all`] iterates it; [`MODELS`] is the one
//! list of the models host-sim knows. The models are the marker types of
//! [`replay::contract`], one name for each in every crate.

pub use replay::contract::{Reservation, ServiceLevel, Sla, Tiers};

use crate::compare::{CompareError, Row};
use crate::error::CliError;
use crate::workload::Workload;

/// A model, as the host runs it.
pub trait HostModel {
    /// The options of its one-configuration subcommand (`run`, `reserve`, `tiers`,
    /// `sla`).
    type RunArgs;
    /// The options of its grid subcommand (`sweep`, `reserve-sweep`, `tiers-sweep`,
    /// `sla-sweep`).
    type SweepArgs;

    /// One configuration, from its options to its output.
    fn run(args: &Self::RunArgs) -> Result<(), CliError>;
    /// The model's grid, from its options to its files and figures.
    fn sweep(args: &Self::SweepArgs) -> Result<(), CliError>;
    /// The model on `workload` with its documented defaults, on a machine of
    /// `processors` where it has a pool: one row of the measures every model shares.
    fn compare(workload: &Workload, processors: u32) -> Result<Row, CompareError>;
}

/// A model's row of `compare`.
type CompareRow = fn(&Workload, u32) -> Result<Row, CompareError>;

/// The models host-sim knows, in the order `compare` shows them.
pub const MODELS: [(&str, CompareRow); 4] = [
    ("service_level", ServiceLevel::compare),
    ("reservation", Reservation::compare),
    ("tiers", Tiers::compare),
    ("sla", Sla::compare),
];

/// Every model's row of `compare` on `workload`, by the model's name: a model that
/// cannot run gives its error in its place, and the others still run.
pub fn compare_all(workload: &Workload, processors: u32) -> Vec<(&'static str, Result<Row, CompareError>)> {
    MODELS.iter().map(|&(name, row)| (name, row(workload, processors))).collect()
}
