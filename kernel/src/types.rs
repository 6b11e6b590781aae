//! The scalar vocabulary shared by every other module: ticks and identifiers.

use serde::{Deserialize, Serialize};

/// Time, as a whole number of ticks since the start of the run (seconds for SWF traces).
pub type Tick = u64;

/// A job's identifier, chosen by the caller (the SWF job number on traces).
pub type JobId = u32;

/// A machine's index, `0..machines`.
pub type MachineId = u16;

/// A service level's index into the configured level table.
pub type LevelId = u8;

/// Why a submit was rejected, or why an event was refused.
///
/// Variants are only ever added at the end: the discriminant is part of the log format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum RejectReason {
    /// The admission test failed on every machine.
    NoFeasibleMachine,
    /// At least one machine would have passed the test but its queue is at capacity,
    /// and no machine both passed and had room.
    QueueFull,
    /// The request asks for zero processing time.
    ZeroProcessingTime,
    /// The request names a service level that is not in the table.
    UnknownLevel,
    /// The event's time is earlier than the kernel's current time.
    TimeWentBackwards,
    /// The deadline `r + ceil(sf * p)` does not fit in a [`Tick`].
    Overflow,
}

impl RejectReason {
    /// A short stable name, used by the JSON export and readable listings.
    pub const fn name(self) -> &'static str {
        match self {
            Self::NoFeasibleMachine => "no_feasible_machine",
            Self::QueueFull => "queue_full",
            Self::ZeroProcessingTime => "zero_processing_time",
            Self::UnknownLevel => "unknown_level",
            Self::TimeWentBackwards => "time_went_backwards",
            Self::Overflow => "overflow",
        }
    }
}

impl core::fmt::Display for RejectReason {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}
