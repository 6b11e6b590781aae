//! The tiers model's independent checks: [`TiersAudit`] (the promises of a tiers log,
//! from its records alone) and [`TiersReference`] (a plain reference of the kernel
//! under `no-qos` and `qos`); [`harness`], the cases of the `tiers` fuzz target and of
//! `replay/tests/tiers_props.rs`, decoded from bytes, and their one check.

pub mod audit;
pub mod harness;
pub mod reference;

pub use audit::{TiersAudit, TiersCounts, TiersViolation};
pub use reference::TiersReference;
