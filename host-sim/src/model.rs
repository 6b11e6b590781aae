//! What a model is on the host: [`HostModel`], implemented once per model (in
//! `NAME/contract.rs`): its subcommands over the shared trace input
//! ([`crate::input`]), dispatched; its what-if ([`Whatif`]); and its row of
//! `compare`. The models host-sim knows are one row each of the crate's
//! `for_each_model!`, which makes [`ModelCommand`] (every model's subcommands,
//! flattened into `host-sim`'s own by `main`), its dispatch, [`MODELS`] (which
//! [`compare_all`] iterates) and [`SAMPLES`]. The models are the marker types of
//! [`replay::contract`], one name for each in every crate, used from here; a log's
//! model is found by [`replay::with_model!`].

use crate::compare::{CompareError, Row};
use crate::error::CliError;
use crate::files::Files;
use crate::whatif::Whatif;
use crate::workload::Workload;

/// A model, as the host runs it.
pub trait HostModel: Whatif {
    /// Its subcommands (`run` and `sweep`, `reserve` and `reserve-sweep`, ...), each
    /// with its options.
    type Command: clap::Subcommand;
    /// A run that writes a log, as `host-sim`'s arguments: its subcommand and options,
    /// to which `--trace FILE --log FILE` are added (the determinism test runs it twice,
    /// from two folders, and compares the logs byte for byte).
    const SAMPLE: &'static [&'static str];

    /// One of its subcommands, from its options to its output.
    fn dispatch(command: &Self::Command) -> Result<(), CliError>;
    /// The files one of its subcommands reads and writes, as its options name them.
    fn files(command: &Self::Command) -> Files;
    /// The model on `workload` with its documented defaults, on a machine of
    /// `processors` where it has a pool: one row of the measures every model shares.
    fn compare(workload: &Workload, processors: u32) -> Result<Row, CompareError>;
}

/// A model's row of `compare`.
type CompareRow = fn(&Workload, u32) -> Result<Row, CompareError>;

/// The registry, from the rows of `for_each_model!` (the crate's root): `module`
/// holds the model's `contract.rs`.
macro_rules! models {
    ($($name:literal: $model:ident($module:ident),)*) => {
        $(pub use replay::contract::$model;)*

        /// Every model's subcommands.
        #[derive(Debug, clap::Subcommand)]
        pub enum ModelCommand {
            $(
                #[command(flatten)]
                $model(crate::$module::contract::Command),
            )*
        }

        impl ModelCommand {
            /// The subcommand run by its model.
            pub fn dispatch(&self) -> Result<(), CliError> {
                match self {
                    $(Self::$model(command) => <$model as HostModel>::dispatch(command),)*
                }
            }

            /// The files the subcommand reads and writes.
            pub fn files(&self) -> Files {
                match self {
                    $(Self::$model(command) => <$model as HostModel>::files(command),)*
                }
            }
        }

        /// The models host-sim knows, by name, with their rows of `compare`.
        pub const MODELS: &[(&str, CompareRow)] = &[$(($name, <$model as HostModel>::compare),)*];

        /// Each model's [`HostModel::SAMPLE`], by name.
        pub const SAMPLES: &[(&str, &[&str])] = &[$(($name, <$model as HostModel>::SAMPLE),)*];
    };
}

for_each_model!(models);

/// Every model's row of `compare` on `workload`, by the model's name: a model that
/// cannot run gives its error in its place, and the others still run.
pub fn compare_all(workload: &Workload, processors: u32) -> Vec<(&'static str, Result<Row, CompareError>)> {
    MODELS.iter().map(|&(name, row)| (name, row(workload, processors))).collect()
}
