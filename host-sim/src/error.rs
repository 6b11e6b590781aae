//! The one error of the command line ([`CliError`]), whose variants keep each
//! boundary's own error whole: trace reading, durations, levels, the run loop, sweeps,
//! figures, the criteria analysis, and a model's own error ([`ModelError`], one
//! variant for every model). Every message names what was wrong and where (file, line
//! and field for traces). The boundaries' errors live beside their code, so that
//! nothing here is imported back by them; the models' errors share their common
//! variants through `host_errors!`.

use crate::service_level::levels::LevelError;
use crate::service_level::sim::SimError;
use crate::service_level::sweep::SweepError;
use crate::window::DurationError;

/// An error enum with the variants every host boundary shares (a trace, a path, a
/// staged output, a usage error), then its own: first those kept whole (shown as
/// they are, converted by `?` in one step), then any others.
macro_rules! host_errors {
    ($(#[$meta:meta])* $name:ident { $($whole:ident($from:ty),)* } { $($own:tt)* }) => {
        $(#[$meta])*
        #[derive(Debug, thiserror::Error)]
        pub enum $name {
            #[error(transparent)]
            Swf(#[from] $crate::swf::SwfError),
            #[error(transparent)]
            Io(#[from] $crate::path_error::PathError),
            #[error(transparent)]
            Output(#[from] replay::staged::StageError),
            #[error("{0}")]
            Usage(String),
            $(#[error(transparent)] $whole(#[from] $from),)*
            $($own)*
        }
    };
}
pub(crate) use host_errors;

/// A model's own error (`ReserveError`, `TiersError`, `SlaError`), which the command
/// line and `compare` carry whole in one variant.
pub trait ModelError: std::error::Error + Send + Sync + 'static {
    /// The model as `compare` names it before its error: `reservations: ...`.
    const LABEL: &'static str;
}

host_errors! {
    /// Everything the command line can report; `main` prints it and exits non-zero.
    CliError {
        Level(LevelError),
        Sim(SimError),
        Sweep(SweepError),
        Empty(crate::workload::EmptyInput),
        Plot(crate::plot::PlotError),
        Criteria(crate::service_level::criteria::CriteriaError),
        // A model's own error ([`ModelError`]).
        Model(Box<dyn std::error::Error + Send + Sync>),
        Compare(crate::compare::CompareError),
        Optimum(crate::service_level::optimum::OptimumError),
        Shard(crate::shard::ShardError),
    } {
        #[error("--window: {0}")]
        Duration(#[from] DurationError),
    }
}

/// A model's own error in `compare`'s row, after the model's label.
impl<E: ModelError> From<E> for crate::compare::CompareError {
    fn from(error: E) -> Self {
        Self::Model { model: E::LABEL, error: Box::new(error) }
    }
}

impl<E: ModelError> From<E> for CliError {
    fn from(error: E) -> Self {
        Self::Model(Box::new(error))
    }
}

/// Whether `error`, or an error it came from, is a write to a closed pipe.
pub fn closed_pipe(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut current = Some(error);
    while let Some(e) = current {
        if e.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe) {
            return true;
        }
        current = e.source();
    }
    false
}

/// A model's own error as the command line's, kept whole ([`CliError::Model`]); a
/// closed pipe stays quiet.
pub fn model_result<E>(result: Result<(), E>) -> Result<(), CliError>
where
    E: std::error::Error + Into<CliError> + 'static,
{
    match result {
        Err(e) if closed_pipe(&e) => Ok(()),
        other => other.map_err(Into::into),
    }
}
