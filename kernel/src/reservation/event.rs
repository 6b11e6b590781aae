//! What goes into the reservation kernel (events) and what comes out (decisions and
//! outcomes).
//!
//! Every variant is meant for the log: variants are only ever added at the end.

use serde::{Deserialize, Serialize};

use super::request::{RejectReason, Request};
use crate::types::{JobId, Tick};

/// An input to [`ReservationKernel::step`](super::ReservationKernel::step).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Event {
    /// A reservation request arrives at `request.t`.
    Request(Request),
    /// Time passes to `t`: reservations start, fixes happen, overruns are cut.
    Advance { t: Tick },
    /// The host reports that running `job` finished at `t`, at or before the end of its
    /// reservation. The slots after `t` are released at once. A job that is not
    /// reported by the end of its reservation is cut there by the kernel, once an event
    /// comes with a later time (a `Finish` exactly at the end is on time, not a cut).
    Finish { t: Tick, job: JobId },
    /// Forget every reservation and return to time zero: the start of an independent
    /// experiment.
    Reset,
}

impl Event {
    /// The event's time, if it has one.
    pub const fn time(&self) -> Option<Tick> {
        match *self {
            Self::Request(Request { t, .. }) | Self::Advance { t } | Self::Finish { t, .. } => Some(t),
            Self::Reset => None,
        }
    }
}

/// One decision the kernel made while handling an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Decision {
    /// The request is accepted: its reservation is planned to start at `start`. Until
    /// it starts or is fixed it may move inside its window (a `Replan`), never out.
    Accept { job: JobId, start: Tick },
    /// The request is refused, immediately and irrevocably. A rejection for
    /// [`RejectReason::NoRoom`] is followed by up to `OFFERS` `Offer`s.
    Reject { job: JobId, reason: RejectReason },
    /// An alternative for the rejected `job`: the same request with the window
    /// `[ready, deadline]` would be accepted now, starting at `start`. Offers come best
    /// first, by the paper's `ϕ` (see [`super::offers`]). They are separate decisions
    /// so that every record stays small.
    Offer { job: JobId, ready: Tick, deadline: Tick, start: Tick },
    /// A waiting reservation was moved by an admission's re-plan to `start`, inside its
    /// window.
    Replan { job: JobId, start: Tick },
    /// A waiting reservation was frozen in place at `t`; it keeps its start.
    Fix { t: Tick, job: JobId },
    /// A reservation starts at `t`, its planned start.
    Start { t: Tick, job: JobId },
    /// A running reservation ended at `t`: `early` when the host reported a finish
    /// before its end (the rest of its slots were released), `cut` when the job was not
    /// done by the end of its reservation and the kernel ended it there.
    End { t: Tick, job: JobId, early: bool, cut: bool },
}

/// The summary of one [`ReservationKernel::step`](super::ReservationKernel::step).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Outcome {
    /// The request was accepted with this start.
    Accepted { start: Tick },
    /// The request was rejected; a `Reject` and `offers` `Offer` decisions were emitted.
    Rejected { reason: RejectReason, offers: u8 },
    /// Time advanced.
    Advanced,
    /// A `Finish` ended its job.
    Finished,
    /// An `Advance` or `Finish` was refused; nothing changed for a time in the past, and
    /// for a job that is not running only time advanced.
    Refused(RejectReason),
    /// The kernel was reset.
    Reset,
}
