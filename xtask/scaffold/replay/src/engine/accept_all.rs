//! The accept-all kernel for host use: it has no capacity, so every header rebuilds
//! the one kernel.

use kernel::accept_all::{AcceptAllKernel, Config};

use crate::format::model::accept_all::AcceptAllHeader;

/// The header part of a kernel of `config`.
pub fn header(config: Config) -> AcceptAllHeader {
    AcceptAllHeader { config }
}

/// The kernel a header rebuilds.
pub fn from_header(header: &AcceptAllHeader) -> AcceptAllKernel {
    AcceptAllKernel::new(header.config)
}
