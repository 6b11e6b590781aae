//! The one error of the command line ([`CliError`]), whose variants keep each
//! boundary's own error whole: trace reading, durations, levels, the run loop, sweeps,
//! figures, the criteria analysis, and each model's own (`ReserveError`, `TiersError`,
//! `SlaError`). Every message names what was wrong and where (file, line and field
//! for traces). The boundaries' errors live beside their code, so that nothing here
//! is imported back by them.

use thiserror::Error;

use crate::path_error::PathError;
use crate::service_level::levels::LevelError;
use crate::service_level::sim::SimError;
use crate::service_level::sweep::SweepError;
use crate::swf::SwfError;
use crate::window::DurationError;

/// Everything the command line can report; `main` prints it and exits non-zero.
#[derive(Debug, Error)]
pub enum CliError {
    #[error(transparent)]
    Swf(#[from] SwfError),
    #[error("--window: {0}")]
    Duration(#[from] DurationError),
    #[error(transparent)]
    Level(#[from] LevelError),
    #[error(transparent)]
    Sim(#[from] SimError),
    #[error(transparent)]
    Sweep(#[from] SweepError),
    #[error(transparent)]
    Io(#[from] PathError),
    #[error(transparent)]
    Output(#[from] replay::staged::StageError),
    #[error(transparent)]
    Empty(#[from] crate::workload::EmptyInput),
    #[error("{0}")]
    Usage(String),
    #[error(transparent)]
    Plot(#[from] crate::plot::PlotError),
    #[error(transparent)]
    Criteria(#[from] crate::service_level::criteria::CriteriaError),
    #[error(transparent)]
    Reservation(#[from] crate::reservation::ReserveError),
    #[error(transparent)]
    Tiers(#[from] crate::tiers::TiersError),
    #[error(transparent)]
    Sla(#[from] crate::sla::SlaError),
    #[error(transparent)]
    Compare(#[from] crate::compare::CompareError),
    #[error(transparent)]
    Optimum(#[from] crate::service_level::optimum::OptimumError),
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

/// A model's own error as the command line's, kept whole (its variant of
/// [`CliError`]); a closed pipe stays quiet.
pub fn model_result<E>(result: Result<(), E>) -> Result<(), CliError>
where
    E: std::error::Error + Into<CliError> + 'static,
{
    match result {
        Err(e) if closed_pipe(&e) => Ok(()),
        other => other.map_err(Into::into),
    }
}
