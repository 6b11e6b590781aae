//! Trace reading ([`SwfError`]) and the one error of the command line ([`CliError`]),
//! whose variants keep each boundary's own error (durations, levels, the run loop,
//! sweeps, figures, the criteria analysis). Every message names what was wrong and
//! where (file, line and field for traces). The boundaries' errors live beside their
//! code, so that nothing here is imported back by them.

use std::io;

use thiserror::Error;

use crate::path_error::PathError;
use crate::service_level::levels::LevelError;
use crate::service_level::sim::SimError;
use crate::service_level::sweep::SweepError;
use crate::window::DurationError;

/// Reading a Standard Workload Format trace.
#[derive(Debug, Error)]
pub enum SwfError {
    #[error("{file}: cannot read the trace: {source}")]
    Io {
        file: String,
        #[source]
        source: io::Error,
    },
    #[error("{file}: cannot decompress the gzip stream: {source}")]
    Gzip {
        file: String,
        #[source]
        source: io::Error,
    },
    #[error("{file}:{line}: the line is not valid UTF-8")]
    NotUtf8 { file: String, line: u64 },
    #[error("{file}:{line}: {found} fields, an SWF job line has exactly 18")]
    FieldCount { file: String, line: u64, found: usize },
    #[error(
        "{file}:{line}: {found} fields, an SWF job line has exactly 18; for a variant with more fields after \
         the standard 18 (such as Alea's 21-field traces), --allow-extra-fields reads the 18 and ignores the rest"
    )]
    ExtraFields { file: String, line: u64, found: usize },
    #[error("{file}:{line}: field {field} ({name}): \"{text}\" is not a number")]
    NotANumber { file: String, line: u64, field: usize, name: &'static str, text: String },
    #[error("{file}:{line}: field {field} ({name}): \"{text}\" is out of range")]
    OutOfRange { file: String, line: u64, field: usize, name: &'static str, text: String },
    #[error(
        "{file}:{line}: field 1 (job number): \"{text}\" is not a job number (a whole number from 0 to 4294967295)"
    )]
    NotAJobNumber { file: String, line: u64, text: String },
    #[error("{file}:{line}: field 1 (job number): job {job} is already on line {first_line}")]
    DuplicateJob { file: String, line: u64, job: u32, first_line: u64 },
}

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

/// A model's own error as the command line's; a closed pipe stays quiet.
pub fn model_result<E: std::error::Error + 'static>(result: Result<(), E>) -> Result<(), CliError> {
    match result {
        Err(e) if closed_pipe(&e) => Ok(()),
        other => other.map_err(|e| CliError::Usage(e.to_string())),
    }
}
