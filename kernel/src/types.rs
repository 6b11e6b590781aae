//! The scalar vocabulary every model shares: time in ticks and job identifiers.

/// Time, as a whole number of ticks since the start of the run (seconds for SWF traces).
pub type Tick = u64;

/// A job's identifier, chosen by the caller (the SWF job number on traces).
pub type JobId = u32;
