//! The service-level model's identifiers and reject reasons.

use serde::{Deserialize, Serialize};

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
    /// The deadline `r + ceil(sf * p)` does not fit in a [`Tick`](crate::Tick).
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
