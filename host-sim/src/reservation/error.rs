//! The reservation side's error: every way a `reserve` or `reserve-sweep` run can fail,
//! in one enum that the model's modules share (kept apart from the model's front page
//! so that they depend on it, not on the front page).

use thiserror::Error;

use crate::path_error::PathError;
use crate::swf::SwfError;

// Its input and output variants are the same as the other models' and `CliError`'s:
// each model's error keeps its own, so that `?` converts into it in one step.
/// Everything that can go wrong on the reservation side.
#[derive(Debug, Error)]
pub enum ReserveError {
    #[error(transparent)]
    Swf(#[from] SwfError),
    #[error(transparent)]
    Io(#[from] PathError),
    #[error(transparent)]
    Output(#[from] replay::staged::StageError),
    #[error(transparent)]
    Empty(#[from] crate::workload::EmptyInput),
    #[error("reservation kernel: {0}")]
    Config(String),
    #[error("{0}")]
    Usage(String),
}
