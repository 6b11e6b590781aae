//! What goes into the kernel (events) and what comes out (decisions and outcomes).
//!
//! Every variant is part of the log format: variants are only ever added at the end.

use serde::{Deserialize, Serialize};

use super::types::{LevelId, MachineId, RejectReason};
use crate::types::{JobId, Tick};

/// An input to [`ServiceLevelKernel::step`](super::ServiceLevelKernel::step).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Event {
    /// A job asks for `p` ticks of processing on service level `level`, at time `t`.
    Submit { t: Tick, job: JobId, p: Tick, level: LevelId },
    /// Time passes to `t` with no new request; `Tick::MAX` runs every queue dry.
    Advance { t: Tick },
    /// Forget every queued job and return to time zero: the start of an independent
    /// experiment (one window of a trace). Callers drain the queues first.
    Reset,
}

impl Event {
    /// The event's time, if it has one.
    pub const fn time(&self) -> Option<Tick> {
        match *self {
            Self::Submit { t, .. } | Self::Advance { t } => Some(t),
            Self::Reset => None,
        }
    }
}

/// One decision the kernel made while handling an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Decision {
    /// The job is admitted on `machine` and will complete by `deadline`.
    /// `preempted` names the job displaced from the head of the queue when that job
    /// had already received processing (the thesis' interruption count).
    Accept { job: JobId, machine: MachineId, deadline: Tick, preempted: Option<JobId> },
    /// The job is refused, immediately and irrevocably.
    Reject { job: JobId, reason: RejectReason },
    /// `job` starts, or resumes, running on `machine` at `t`.
    Start { t: Tick, job: JobId, machine: MachineId },
    /// `job` stops running on `machine` at `t` because a job with an earlier deadline
    /// took the head of the queue. Every `Start` is closed by a `Preempt` or a `Complete`.
    Preempt { t: Tick, job: JobId, machine: MachineId },
    /// `job` finishes its processing on `machine` at `t`.
    Complete { t: Tick, job: JobId, machine: MachineId },
}

/// The summary of one [`ServiceLevelKernel::step`](super::ServiceLevelKernel::step).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Outcome {
    /// The submitted job was admitted on this machine.
    Accepted { machine: MachineId },
    /// The submitted job was rejected, and a `Reject` decision was emitted.
    Rejected(RejectReason),
    /// Time advanced.
    Advanced,
    /// An `Advance` was refused (its time is in the past); nothing changed.
    Refused(RejectReason),
    /// The kernel was reset.
    Reset,
}
