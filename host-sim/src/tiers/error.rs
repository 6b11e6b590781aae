//! The tiers side's error: every way a `tiers` or `tiers-sweep` run can fail, in one
//! enum that the model's modules share (kept apart from the model's front page so that
//! they depend on it, not on the front page).

use crate::error::{ModelError, host_errors};

host_errors! {
    /// Everything that can go wrong on the tiers side.
    TiersError {
        Shard(crate::shard::ShardError),
    } {
        #[error("{file}:{line}: {field}: {why}")]
        Fta { file: String, line: usize, field: String, why: String },
        /// An FTA file wrong as a whole (no event line).
        #[error("{file}: {why}")]
        FtaFile { file: String, why: String },
        #[error("tiers kernel: {0}")]
        Config(String),
    }
}

impl ModelError for TiersError {
    const LABEL: &'static str = "tiers";
}

/// An input with no usable job, as `tiers` words it: a usage error.
impl From<crate::workload::EmptyInput> for TiersError {
    fn from(error: crate::workload::EmptyInput) -> Self {
        Self::Usage(error.to_string())
    }
}
