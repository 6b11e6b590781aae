//! The host side of SLA priority heuristics and pricing (Yarmolenko and Sakellariou).

pub mod generator;
pub mod metrics;
pub mod paper;
