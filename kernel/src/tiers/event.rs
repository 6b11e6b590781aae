//! What goes into the tiers kernel (events) and what comes out (decisions, outcomes).
//!
//! Every variant is meant for the log: variants are only ever added at the end.

use serde::{Deserialize, Serialize};

use super::types::{RejectReason, Tier};
use crate::types::{JobId, Tick};

/// An SLA with its job. For Gold and Silver the window is `[ready, deadline]` (the
/// paper's `tS` and `tD`); for Bronze both are ignored and the window is `[t, t +
/// bronze_deadline]`. `work` is the run time on a resource of speed 1000.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Request {
    pub t: Tick,
    pub job: JobId,
    pub tier: Tier,
    pub work: Tick,
    pub ready: Tick,
    pub deadline: Tick,
}

/// An input to [`TiersKernel::step`](super::TiersKernel::step).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Event {
    /// An SLA is submitted at `request.t`.
    Submit(Request),
    /// Time passes to `t`: due jobs start, passed deadlines are violated.
    Advance { t: Tick },
    /// The host reports that running `job` finished at `t`.
    Finish { t: Tick, job: JobId },
    /// Low-confidence resource `resource` left at `t`: its jobs are lost.
    Leave { t: Tick, resource: u8 },
    /// Resource `resource` is back at `t`, with every node free.
    Return { t: Tick, resource: u8 },
    /// Forget every job, every resource available, time zero.
    Reset,
}

impl Event {
    pub const fn time(&self) -> Option<Tick> {
        match *self {
            Self::Submit(Request { t, .. })
            | Self::Advance { t }
            | Self::Finish { t, .. }
            | Self::Leave { t, .. }
            | Self::Return { t, .. } => Some(t),
            Self::Reset => None,
        }
    }
}

/// Why an accepted SLA was violated.
///
/// Variants are only ever added at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Violation {
    /// The deadline passed before the job finished (it keeps running to its end).
    Late,
    /// Its resource left and the job could not be re-placed: it is dropped. For
    /// Bronze this is a loss, not a violation (Bronze has no deadline).
    Lost,
}

/// One decision the kernel made while handling an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Decision {
    /// The SLA is accepted: its job is planned on `resource` from `start`.
    Accept { job: JobId, resource: u8, start: Tick },
    /// The SLA is refused, immediately and irrevocably.
    Reject { job: JobId, reason: RejectReason },
    /// Rescheduling (Algorithm 1): waiting `job` moved to `resource` at `start` to make
    /// room for `for_job`, whose `Accept` follows.
    Move { job: JobId, resource: u8, start: Tick, for_job: JobId },
    /// `job` starts on its resource at `t` (its planned start, or later when the
    /// resource was still busy).
    Start { t: Tick, job: JobId },
    /// Running `job` finished at `t`; `late` when past its deadline (Gold, Silver).
    End { t: Tick, job: JobId, late: bool },
    /// `job`'s resource left at `t`; `running` when it had started.
    Lost { t: Tick, job: JobId, running: bool },
    /// A lost job is planned again on `resource` from `start`.
    Replace { job: JobId, resource: u8, start: Tick },
    /// An accepted job is violated (see [`Violation`]) at `t`.
    Violate { t: Tick, job: JobId, why: Violation },
}

/// The summary of one step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Outcome {
    Accepted {
        resource: u8,
        start: Tick,
        moved: bool,
    },
    Rejected(RejectReason),
    Advanced,
    Finished,
    /// A leave or a return was handled.
    Availability,
    /// Nothing changed except that time was brought forward (unless it went backwards).
    Refused(RejectReason),
    Reset,
}
