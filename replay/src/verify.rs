//! Re-verification of a log.
