//! A reservation request, the reasons one is refused, and the records the kernel keeps
//! of accepted ones while they wait and while they run.

use serde::{Deserialize, Serialize};

use crate::types::{JobId, Tick};

/// The three time requirements of the paper's section 2.
///
/// Variants are only ever added at the end: the discriminant is part of the log format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum RequestKind {
    /// Strict start and completion: `deadline - ready == estimate`, one possible start.
    Strict,
    /// Relaxed start, strict completion: only the deadline counts. The request's
    /// `ready` is not read; the window opens at the request's time.
    RelaxedStart,
    /// A flexible interval: `deadline - ready > estimate`.
    Flexible,
}

/// A request for `nodes` nodes during `estimate` ticks inside `[ready, deadline]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Request {
    /// When the request arrives.
    pub t: Tick,
    pub job: JobId,
    /// `R`, in `1..=m`.
    pub nodes: u32,
    /// `Te`, the estimated run time; the reservation lasts exactly this long.
    pub estimate: Tick,
    /// `Tr`, the earliest start (not read for [`RequestKind::RelaxedStart`]).
    pub ready: Tick,
    /// `D`, by which the reservation must end.
    pub deadline: Tick,
    pub kind: RequestKind,
    /// Orders the waiting queue under [`Criterion::Shuffle`](super::Criterion::Shuffle);
    /// drawn by the host from its seeded generator, since the kernel has none.
    pub shuffle_key: u32,
}

/// Why a request was rejected, or why an event was refused.
///
/// Variants are only ever added at the end: the discriminant is part of the log format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum RejectReason {
    /// The event's time is earlier than the kernel's current time.
    TimeWentBackwards,
    /// The request asks for zero nodes.
    ZeroNodes,
    /// The request asks for more nodes than the pool has.
    TooManyNodes,
    /// The request's estimate is zero.
    ZeroEstimate,
    /// `deadline < ready + estimate`: the window cannot hold the job.
    WindowTooShort,
    /// The window's length does not match the kind: a strict request with room to
    /// spare, or a flexible one without.
    KindMismatch,
    /// The latest start, `deadline - estimate`, is already in the past.
    WindowPassed,
    /// A job with this identifier is already waiting or running.
    DuplicateJob,
    /// The waiting queue is at capacity.
    QueueFull,
    /// No start in the window has its whole reservation inside the calendar's horizon.
    BeyondHorizon,
    /// No plan places every accepted reservation and this one (the paper's rejection).
    NoRoom,
    /// A `Finish` names a job that is not running.
    NotRunning,
}

impl RejectReason {
    /// Every reason, in the order of their discriminants.
    pub const ALL: [Self; 12] = [
        Self::TimeWentBackwards,
        Self::ZeroNodes,
        Self::TooManyNodes,
        Self::ZeroEstimate,
        Self::WindowTooShort,
        Self::KindMismatch,
        Self::WindowPassed,
        Self::DuplicateJob,
        Self::QueueFull,
        Self::BeyondHorizon,
        Self::NoRoom,
        Self::NotRunning,
    ];

    /// A short stable name, for exports and readable listings.
    pub const fn name(self) -> &'static str {
        match self {
            Self::TimeWentBackwards => "time_went_backwards",
            Self::ZeroNodes => "zero_nodes",
            Self::TooManyNodes => "too_many_nodes",
            Self::ZeroEstimate => "zero_estimate",
            Self::WindowTooShort => "window_too_short",
            Self::KindMismatch => "kind_mismatch",
            Self::WindowPassed => "window_passed",
            Self::DuplicateJob => "duplicate_job",
            Self::QueueFull => "queue_full",
            Self::BeyondHorizon => "beyond_horizon",
            Self::NoRoom => "no_room",
            Self::NotRunning => "not_running",
        }
    }
}

impl core::fmt::Display for RejectReason {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

impl Request {
    /// The request's window `(ready, deadline)` after the checks that need no state:
    /// nodes against the pool of `pool` nodes, the estimate, and the window against the
    /// kind. A relaxed request's window opens at `t`.
    pub fn window(&self, pool: u32) -> Result<(Tick, Tick), RejectReason> {
        if self.nodes == 0 {
            return Err(RejectReason::ZeroNodes);
        }
        if self.nodes > pool {
            return Err(RejectReason::TooManyNodes);
        }
        if self.estimate == 0 {
            return Err(RejectReason::ZeroEstimate);
        }
        let ready = match self.kind {
            RequestKind::RelaxedStart => self.t,
            RequestKind::Strict | RequestKind::Flexible => self.ready,
        };
        let room = self.deadline.checked_sub(ready).ok_or(RejectReason::WindowTooShort)?;
        let fits = match self.kind {
            RequestKind::Strict => room == self.estimate,
            RequestKind::Flexible => room > self.estimate,
            RequestKind::RelaxedStart => true,
        };
        if room < self.estimate {
            return Err(RejectReason::WindowTooShort);
        }
        if !fits {
            return Err(RejectReason::KindMismatch);
        }
        Ok((ready, self.deadline))
    }
}

// A request's fields again, plus its plan: the kernel stores this, not the request,
// so that the waiting queue holds one flat record per job.
/// An accepted reservation that has not started: it may still be moved inside its
/// window, unless it is fixed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Reservation {
    pub job: JobId,
    /// The acceptance number: FIFO order, and the last tie-breaker of every criterion.
    pub seq: u64,
    pub nodes: u32,
    pub estimate: Tick,
    /// The window's opening (the request's time for a relaxed request).
    pub ready: Tick,
    pub deadline: Tick,
    pub kind: RequestKind,
    pub shuffle_key: u32,
    /// The planned start; the reservation is `[start, start + estimate)`.
    pub start: Tick,
    /// When the reservation is frozen in place (`Tick::MAX`: never before it starts).
    pub fix_at: Tick,
    /// Frozen: re-planning leaves it where it is.
    pub fixed: bool,
}

impl Reservation {
    /// One past the last tick of the reservation.
    pub const fn end(&self) -> Tick {
        self.start.saturating_add(self.estimate)
    }

    /// The earliest start a plan made at `now` may give it: `max(ready, now)`.
    pub const fn earliest_start(&self, now: Tick) -> Tick {
        if self.ready > now { self.ready } else { now }
    }

    /// The latest start that still meets the deadline.
    pub const fn latest_start(&self) -> Tick {
        self.deadline.saturating_sub(self.estimate)
    }

    /// The paper's flexibility `Δ = D - max(Tr, now) - Te`, in ticks, zero when none
    /// is left. The paper writes `T^s` for advance reservations; the start a plan has
    /// not made yet cannot order that plan, so this reads it as the ready time, which
    /// also makes both of the paper's cases one formula (a relaxed request's ready
    /// time is its arrival, never after `now`).
    pub const fn flexibility(&self, now: Tick) -> Tick {
        self.deadline.saturating_sub(self.earliest_start(now)).saturating_sub(self.estimate)
    }
}

/// A reservation that has started: fixed, until it ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Running {
    pub job: JobId,
    pub nodes: u32,
    pub start: Tick,
    /// The end of the reservation, `start + estimate`: the job is cut there.
    pub end: Tick,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(kind: RequestKind, ready: Tick, deadline: Tick, estimate: Tick) -> Request {
        Request { t: 10, job: 1, nodes: 2, estimate, ready, deadline, kind, shuffle_key: 0 }
    }

    #[test]
    fn windows_are_checked_against_their_kind() {
        use RejectReason::{KindMismatch, WindowTooShort};
        use RequestKind::{Flexible, RelaxedStart, Strict};
        assert_eq!(request(Strict, 20, 30, 10).window(4), Ok((20, 30)));
        assert_eq!(request(Strict, 20, 31, 10).window(4), Err(KindMismatch));
        assert_eq!(request(Strict, 20, 29, 10).window(4), Err(WindowTooShort));
        assert_eq!(request(Flexible, 20, 31, 10).window(4), Ok((20, 31)));
        assert_eq!(request(Flexible, 20, 30, 10).window(4), Err(KindMismatch));
        assert_eq!(request(Flexible, 20, 19, 1).window(4), Err(WindowTooShort));
        // A relaxed request's window opens at its time, 10; its `ready` is not read.
        assert_eq!(request(RelaxedStart, 99, 20, 10).window(4), Ok((10, 20)));
        assert_eq!(request(RelaxedStart, 0, 19, 10).window(4), Err(WindowTooShort));
        assert_eq!(request(Strict, 20, 30, 10).window(1), Err(RejectReason::TooManyNodes));
        assert_eq!(request(Strict, 20, 30, 0).window(4), Err(RejectReason::ZeroEstimate));
    }

    #[test]
    fn every_reason_is_listed_in_discriminant_order() {
        use RejectReason::*;
        for (index, reason) in RejectReason::ALL.into_iter().enumerate() {
            assert_eq!(reason as usize, index, "{reason}");
            // A reason added to the enum stops this match compiling: a reminder to list it in `ALL`.
            match reason {
                TimeWentBackwards | ZeroNodes | TooManyNodes | ZeroEstimate | WindowTooShort
                | KindMismatch | WindowPassed | DuplicateJob | QueueFull | BeyondHorizon | NoRoom
                | NotRunning => {}
            }
        }
    }
}
