//! The reservation model's part of `host-sim whatif` ([`crate::whatif`]): not yet.

use crate::error::CliError;
use crate::output::RunOutputArgs;
use crate::whatif::{Changes, Recorded, Whatif, not_yet};

impl Whatif for crate::model::Reservation {
    fn whatif(_recorded: &Recorded, _changes: &Changes, _output: &RunOutputArgs) -> Result<(), CliError> {
        Err(not_yet("reservation"))
    }
}
