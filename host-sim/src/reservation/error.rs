//! The reservation side's error: every way a `reserve` or `reserve-sweep` run can fail,
//! in one enum that the model's modules share (kept apart from the model's front page
//! so that they depend on it, not on the front page).

use crate::error::{ModelError, host_errors};

host_errors! {
    /// Everything that can go wrong on the reservation side.
    ReserveError {
        Empty(crate::workload::EmptyInput),
        Shard(crate::shard::ShardError),
    } {
        #[error("reservation kernel: {0}")]
        Config(String),
    }
}

impl ModelError for ReserveError {
    const LABEL: &'static str = "reservations";
}
