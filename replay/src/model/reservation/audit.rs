//! [`ReservationAudit`]: a reservation log's promises, checked from its records alone.
//!
//! The audit knows the pool's size and nothing of calendars, criteria or plans. From
//! each `Request` it takes the window: it opens at the request's time for a relaxed
//! request and at `max(t, Tr)` otherwise, and closes at `D`. Then:
//!
//! - an `Accept` or `Reject` answers the request of its event; an `Accept` names a job
//!   that is not waiting or running already;
//! - every planned start (`Accept`, `Replan`, `Offer`) places `[start, start + Te)`
//!   inside its window; a fixed reservation is never re-planned;
//! - a reservation starts at its last planned start, inside its window;
//! - it ends (`End`) at or after its start, no later than `start + Te` and its
//!   deadline; `cut` only at `start + Te`, `early` only before it;
//! - no instant has more than `m` nodes in use: at every `Reset` and at the end of the
//!   log, a sweep over the executed intervals `[start, end)` (ends before starts at
//!   the same instant, since intervals are half open) keeps a running sum of nodes.
//!   Instants, not slots: this is the physical promise, and it does not depend on the
//!   slot length the kernel plans with (a slot-level check would be stricter than the
//!   promise, since the kernel rounds reservations out to whole slots);
//! - at the end of the log, no reservation is still waiting or running (a `Reset`
//!   forgets them: the experiment was ended on purpose).

use std::collections::BTreeMap;

use kernel::reservation::{Decision, Event, Request, RequestKind};
use kernel::{JobId, Tick};

/// What a reservation log broke.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReservationViolation {
    #[error("job {job}: {what}")]
    Unexpected { job: JobId, what: &'static str },
    #[error("job {job}: [{start}, {end}) is not inside its window [{ready}, {deadline}]")]
    OutsideWindow { job: JobId, start: Tick, end: Tick, ready: Tick, deadline: Tick },
    #[error("job {job} started at {t}, its planned start is {planned}")]
    NotAtPlannedStart { job: JobId, t: Tick, planned: Tick },
    #[error("job {job} was re-planned after it was fixed")]
    FixedMoved { job: JobId },
    #[error(
        "job {job} started at {start} and ended at {end}: its estimate is {estimate}, its deadline {deadline}"
    )]
    Overran { job: JobId, start: Tick, end: Tick, estimate: Tick, deadline: Tick },
    #[error(
        "job {job} ended at {t} with early = {early}, cut = {cut}; its reservation ends at {reserved_end}"
    )]
    EndFlags { job: JobId, t: Tick, early: bool, cut: bool, reserved_end: Tick },
    #[error("{used} nodes in use at t = {t}, the pool has {nodes}")]
    Overcommit { t: Tick, used: u64, nodes: u32 },
    #[error(
        "reservations still waiting or running at the end of the log: jobs {}",
        .0.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
    )]
    Unfinished(Vec<JobId>),
}

/// An accepted reservation, as the records describe it.
#[derive(Clone, Copy, Debug)]
struct Held {
    nodes: u32,
    estimate: Tick,
    ready: Tick,
    deadline: Tick,
    /// The planned start while waiting; the actual start once running.
    start: Tick,
    fixed: bool,
}

/// Checks a reservation log event by event; see the module documentation.
#[derive(Clone, Debug)]
pub struct ReservationAudit {
    nodes: u32,
    waiting: BTreeMap<JobId, Held>,
    running: BTreeMap<JobId, Held>,
    /// Executed intervals `[start, end)` and their nodes since the last Reset.
    intervals: Vec<(Tick, Tick, u32)>,
}

type Result<T> = std::result::Result<T, ReservationViolation>;

/// The window `(ready, deadline)` the records promise a request.
pub fn window(request: &Request) -> (Tick, Tick) {
    let ready = match request.kind {
        RequestKind::RelaxedStart => request.t,
        RequestKind::Strict | RequestKind::Flexible => request.t.max(request.ready),
    };
    (ready, request.deadline)
}

impl ReservationAudit {
    /// An audit of a pool of `nodes` nodes.
    pub fn new(nodes: u32) -> Self {
        Self { nodes, waiting: BTreeMap::new(), running: BTreeMap::new(), intervals: Vec::new() }
    }

    /// Checks one event and the decisions it caused.
    pub fn step(&mut self, event: &Event, decisions: &[Decision]) -> Result<()> {
        let request = match *event {
            Event::Request(request) => Some(request),
            Event::Reset => {
                self.sweep()?;
                self.waiting.clear();
                self.running.clear();
                None
            }
            Event::Advance { .. } | Event::Finish { .. } => None,
        };
        decisions.iter().try_for_each(|d| self.decision(d, request.as_ref()))
    }

    /// The checks at the end of the log.
    pub fn finish(mut self) -> Result<()> {
        self.sweep()?;
        let left: Vec<JobId> = self.waiting.keys().chain(self.running.keys()).copied().collect();
        if left.is_empty() { Ok(()) } else { Err(ReservationViolation::Unfinished(left)) }
    }

    fn decision(&mut self, decision: &Decision, request: Option<&Request>) -> Result<()> {
        let answers = |job: JobId| request.filter(|r| r.job == job).copied();
        match *decision {
            Decision::Accept { job, start } => {
                let request = answers(job).ok_or(unexpected(job, "accepted, but not the job requested"))?;
                if self.waiting.contains_key(&job) || self.running.contains_key(&job) {
                    return Err(unexpected(job, "accepted while already waiting or running"));
                }
                let (ready, deadline) = window(&request);
                let held = held_inside(job, &request, ready, deadline, start)?;
                self.waiting.insert(job, held);
            }
            Decision::Reject { job, .. } => {
                answers(job).ok_or(unexpected(job, "rejected, but not the job requested"))?;
            }
            Decision::Offer { job, ready, deadline, start } => {
                let request = answers(job).ok_or(unexpected(job, "offered, but not the job requested"))?;
                held_inside(job, &request, ready, deadline, start)?;
            }
            Decision::Replan { job, start } => {
                let held = self.waiting.get_mut(&job).ok_or(unexpected(job, "re-planned but not waiting"))?;
                if held.fixed {
                    return Err(ReservationViolation::FixedMoved { job });
                }
                inside(job, held, start)?;
                held.start = start;
            }
            Decision::Fix { job, .. } => {
                self.waiting.get_mut(&job).ok_or(unexpected(job, "fixed but not waiting"))?.fixed = true;
            }
            Decision::Start { t, job } => {
                let held = self.waiting.remove(&job).ok_or(unexpected(job, "started but not waiting"))?;
                if t != held.start {
                    return Err(ReservationViolation::NotAtPlannedStart { job, t, planned: held.start });
                }
                inside(job, &held, t)?;
                self.running.insert(job, held);
            }
            Decision::End { t, job, early, cut } => {
                let held = self.running.remove(&job).ok_or(unexpected(job, "ended but not running"))?;
                self.end(job, &held, t, early, cut)?;
            }
        }
        Ok(())
    }

    fn end(&mut self, job: JobId, held: &Held, t: Tick, early: bool, cut: bool) -> Result<()> {
        let reserved_end = held.start.saturating_add(held.estimate);
        if t < held.start || t > reserved_end || t > held.deadline {
            let (start, estimate, deadline) = (held.start, held.estimate, held.deadline);
            return Err(ReservationViolation::Overran { job, start, end: t, estimate, deadline });
        }
        if (cut && (early || t != reserved_end)) || (early && t >= reserved_end) {
            return Err(ReservationViolation::EndFlags { job, t, early, cut, reserved_end });
        }
        self.intervals.push((held.start, t, held.nodes));
        Ok(())
    }

    /// No instant of the executed intervals since the last Reset over `m` nodes.
    /// Running reservations count until the end of their reservation.
    fn sweep(&mut self) -> Result<()> {
        let running = self.running.values().map(|h| (h.start, h.start.saturating_add(h.estimate), h.nodes));
        let mut points: Vec<(Tick, bool, u32)> = Vec::with_capacity(2 * self.intervals.len());
        for (start, end, nodes) in self.intervals.drain(..).chain(running) {
            if start < end {
                // `false` sorts first: at one instant, ends before starts.
                points.push((start, true, nodes));
                points.push((end, false, nodes));
            }
        }
        points.sort_unstable();
        let mut used = 0u64;
        for (t, starts, nodes) in points {
            if starts {
                used += u64::from(nodes);
                if used > u64::from(self.nodes) {
                    return Err(ReservationViolation::Overcommit { t, used, nodes: self.nodes });
                }
            } else {
                used -= u64::from(nodes);
            }
        }
        Ok(())
    }
}

fn unexpected(job: JobId, what: &'static str) -> ReservationViolation {
    ReservationViolation::Unexpected { job, what }
}

/// `request`'s nodes and estimate held from `start` in the window `[ready, deadline]`
/// (not fixed), once checked to lie inside that window.
fn held_inside(job: JobId, request: &Request, ready: Tick, deadline: Tick, start: Tick) -> Result<Held> {
    let held =
        Held { nodes: request.nodes, estimate: request.estimate, ready, deadline, start, fixed: false };
    inside(job, &held, start)?;
    Ok(held)
}

/// `[start, start + Te)` inside `held`'s window.
fn inside(job: JobId, held: &Held, start: Tick) -> Result<()> {
    let end = start.checked_add(held.estimate);
    match end {
        Some(end) if start >= held.ready && end <= held.deadline => Ok(()),
        _ => Err(ReservationViolation::OutsideWindow {
            job,
            start,
            end: end.unwrap_or(Tick::MAX),
            ready: held.ready,
            deadline: held.deadline,
        }),
    }
}
