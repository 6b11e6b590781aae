//! The decision log of a `tiers` run. Not written yet: the tiers records are not in
//! the log format; `--log` is refused with a reason.

use std::path::Path;

use super::metrics::Summary;
use super::run::RunOutput;
use super::{Scenario, TiersError};

pub fn run_logged(_scenario: &Scenario, path: &Path) -> Result<(Summary, RunOutput), TiersError> {
    Err(TiersError::Usage(format!("{}: tiers logs are not written yet", path.display())))
}
