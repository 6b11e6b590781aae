//! The one failure of a named file or stream, which every boundary's error carries as
//! its `Io` variant. It lives apart from [`crate::error`], which imports the
//! boundaries' errors, so that every boundary can import it without a cycle.

use std::io;

use thiserror::Error;

/// A named file or stream (standard output, the kernel's thread) that could not be
/// read or written: the one `Io` failure that every boundary's error carries.
#[derive(Debug, Error)]
#[error("{path}: {source}")]
pub struct PathError {
    pub path: String,
    #[source]
    pub source: io::Error,
}

/// An output that could not be staged, renamed or written, as any other file error.
impl From<replay::staged::StageError> for PathError {
    fn from(e: replay::staged::StageError) -> Self {
        Self { path: e.path.display().to_string(), source: e.source }
    }
}

impl PathError {
    /// Standard output that could not be written, which every subcommand prints to.
    pub fn stdout(source: io::Error) -> Self {
        Self { path: "standard output".to_owned(), source }
    }
}
