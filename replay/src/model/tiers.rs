//! The tiers model's independent checks: [`TiersAudit`] (the promises of a tiers log,
//! from its records alone) and [`TiersReference`] (a plain reference of the kernel
//! under `no-qos` and `qos`).

pub mod audit;
pub mod reference;

pub use audit::{TiersAudit, TiersCounts, TiersViolation};
pub use reference::TiersReference;
