//! The tiers model's plain reference ([`TiersReference`], `no-qos` and `qos`).

pub mod reference;

pub use reference::TiersReference;
