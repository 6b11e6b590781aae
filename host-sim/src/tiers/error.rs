//! The tiers side's error: every way a `tiers` or `tiers-sweep` run can fail, in one
//! enum that the model's modules share (kept apart from the model's front page so that
//! they depend on it, not on the front page).

use std::io;

use thiserror::Error;

use crate::error::SwfError;

/// Everything that can go wrong on the tiers side.
#[derive(Debug, Error)]
pub enum TiersError {
    #[error(transparent)]
    Swf(#[from] SwfError),
    #[error("{path}: {source}")]
    Io {
        path: String,
        #[source]
        source: io::Error,
    },
    #[error("{file}:{line}: {field}: {why}")]
    Fta { file: String, line: usize, field: String, why: String },
    #[error("tiers kernel: {0}")]
    Config(String),
    #[error("{0}")]
    Usage(String),
}
