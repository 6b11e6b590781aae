//! JSON lines and readable listings of a log.
