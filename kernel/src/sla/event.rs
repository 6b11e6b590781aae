//! What goes into the SLA kernel (events) and what comes out (decisions, outcomes).
//!
//! Every variant is meant for the log: variants are only ever added at the end.

use serde::{Deserialize, Serialize};

use super::types::{RejectReason, Request};
use crate::types::{JobId, Tick};

/// An input to [`SlaKernel::step`](super::SlaKernel::step).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Event {
    /// A request arrives at `t` and joins the pending batch (no decision unless it is
    /// invalid, late in time or the batch is full).
    Submit { t: Tick, request: Request },
    /// At `t`, the pending batch is sorted by the order and fitted, one request at a
    /// time; the batch is then empty.
    Plan { t: Tick },
    /// A new, empty machine at `t` (which may be earlier than now): every reservation
    /// forgotten, pending requests rejected with [`RejectReason::Dropped`].
    Reset { t: Tick },
}

impl Event {
    pub const fn time(&self) -> Tick {
        match *self {
            Self::Submit { t, .. } | Self::Plan { t } | Self::Reset { t } => t,
        }
    }
}

// Accept and Reject have the reservation model's shape; the types stay the model's
// own, because their discriminants are part of the log format.
/// One decision the kernel made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Decision {
    /// The SLA is accepted: its `NCPU` nodes are reserved for `[start, start + tD)`.
    /// It is never moved.
    Accept { job: JobId, start: Tick },
    /// The SLA is refused, irrevocably.
    Reject { job: JobId, reason: RejectReason },
}

impl Decision {
    pub const fn job(&self) -> JobId {
        match *self {
            Self::Accept { job, .. } | Self::Reject { job, .. } => job,
        }
    }
}

/// The summary of one step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Outcome {
    /// The request joined the pending batch.
    Queued,
    /// The request was rejected at once.
    Rejected(RejectReason),
    /// A batch was fitted: how many of its requests were accepted and rejected.
    Planned { accepted: u32, rejected: u32 },
    /// The machine was reset; `dropped` pending requests were rejected.
    Reset { dropped: u32 },
    /// Nothing changed: the plan's time is earlier than the kernel's.
    Refused(RejectReason),
}
