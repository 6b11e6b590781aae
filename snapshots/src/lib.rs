//! Snapshot tests live in tests/.
