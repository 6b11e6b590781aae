//! The accept-all model's part of the header: its kernel's configuration, which holds
//! nothing to check.

use kernel::accept_all::Config;
use serde::{Deserialize, Serialize};

use super::{CheckedPart, HeaderError};

/// What rebuilds an accept-all kernel.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AcceptAllHeader {
    pub config: Config,
}

impl CheckedPart for AcceptAllHeader {
    fn check(&self, _: u16) -> Result<(), HeaderError> {
        Ok(())
    }
}
