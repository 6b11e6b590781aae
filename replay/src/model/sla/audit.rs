//! The SLA model's audit: the promises of an SLA log, checked from its records and
//! header alone, without the kernel.
//!
//! - A submit is answered at once only when it must be: `Invalid` exactly for an
//!   invalid request, `BatchFull` exactly when `B` requests are pending,
//!   `TimeWentBackwards` exactly when it is earlier than the last event; otherwise it
//!   waits for the next plan. Job numbers within a batch are distinct (decisions are
//!   paired with requests by job number).
//! - A plan answers every pending request exactly once, in the order of the header's
//!   heuristic (the sort key recomputed here, ties by submit index); a reset rejects
//!   every pending request with `Dropped`, in submit order.
//! - Every accepted job runs `tD` inside `[TS, TF]`, at a start `TS + k*Δt` no earlier
//!   than its plan, and that start is the first tried start with room (first fit).
//! - No slot ever has more than `m` nodes in use.
//! - A `NoRoom` rejection had no tried start with room given the jobs accepted before
//!   it, and every tried start inside the horizon; a `Horizon` rejection had no start
//!   with room inside the horizon and some past it; a `Late` one had no tried start.
//!
//! The audit also keeps what the host needs to recompute incomes from the records:
//! every job set (the requests between resets) with its accepted jobs and their starts
//! ([`SlaSummary::sets`]); [`SlaAudit::counting`], `replay verify`'s, keeps only the
//! counts, so that its memory does not grow with the log.

use kernel::Tick;
use kernel::sla::{Decision, Event, RejectReason, Request};

use super::plain::{Fit, Usage, first_fit_linear, slots_of, sort_key, valid};
use crate::format::SlaHeader;

/// A broken promise.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{what}")]
pub struct SlaViolation {
    pub what: String,
}

/// Decisions in words: `accept job 3 at 60, reject job 4 (late)`, or `no decision`.
fn words(decisions: &[Decision]) -> String {
    if decisions.is_empty() {
        return "no decision".to_owned();
    }
    let word = |d: &Decision| match *d {
        Decision::Accept { job, start } => format!("accept job {job} at {start}"),
        Decision::Reject { job, reason } => format!("reject job {job} ({reason})"),
    };
    decisions.iter().map(word).collect::<Vec<_>>().join(", ")
}

fn broken(what: impl Into<String>) -> SlaViolation {
    SlaViolation { what: what.into() }
}

/// What the audit counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct SlaCounts {
    /// Submits, answered or not.
    pub requests: u64,
    pub accepted: u64,
    /// Rejections by reason, in [`RejectReason::ALL`]'s order.
    pub rejected: [u64; 7],
    pub plans: u64,
    /// Job sets: runs of submits between resets.
    pub sets: u64,
    /// CPU time accepted, in node-ticks (`sum of NCPU * tD`).
    pub node_ticks: u128,
    /// Requests still pending when the log ended (never answered).
    pub pending_at_end: u64,
}

impl SlaCounts {
    pub fn rejected_for(&self, reason: RejectReason) -> u64 {
        RejectReason::ALL.iter().position(|r| *r == reason).map_or(0, |i| self.rejected[i])
    }

    pub fn rejected_total(&self) -> u64 {
        self.rejected.iter().sum()
    }
}

/// An accepted job: its request and its start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Placement {
    pub request: Request,
    pub start: Tick,
}

/// One job set: every request submitted between two resets (in submit order, answered
/// or not), and the accepted ones with their starts (in decision order).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct SetOutcome {
    pub requested: Vec<Request>,
    pub accepted: Vec<Placement>,
}

/// What an audited log holds: the counts and every job set's outcomes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SlaSummary {
    pub counts: SlaCounts,
    pub sets: Vec<SetOutcome>,
}

/// Feeds on one event and its decisions at a time.
#[derive(Debug)]
pub struct SlaAudit {
    header: SlaHeader,
    now: Tick,
    /// Pending requests with their submit index, in submit order.
    pending: Vec<(Request, u64)>,
    next_index: u64,
    used: Usage,
    counts: SlaCounts,
    sets: Vec<SetOutcome>,
    current: SetOutcome,
    /// Whether the job sets are kept ([`SlaAudit::new`]) or only counted.
    keep_sets: bool,
    /// Requests of the open set.
    open_requests: u64,
}

impl SlaAudit {
    /// An audit that keeps every job set's outcome for [`SlaAudit::finish`].
    pub fn new(header: &SlaHeader) -> Self {
        Self { keep_sets: true, ..Self::counting(header) }
    }

    /// An audit that keeps the counts only ([`SlaSummary::sets`] is left empty).
    pub fn counting(header: &SlaHeader) -> Self {
        Self {
            keep_sets: false,
            open_requests: 0,
            header: *header,
            now: 0,
            pending: Vec::new(),
            next_index: 0,
            used: Usage::default(),
            counts: SlaCounts::default(),
            sets: Vec::new(),
            current: SetOutcome::default(),
        }
    }

    /// Checks one event and the decisions logged for it.
    pub fn step(&mut self, event: &Event, decisions: &[Decision]) -> Result<(), SlaViolation> {
        for d in decisions {
            if let Decision::Reject { reason, .. } = d
                && let Some(i) = RejectReason::ALL.iter().position(|r| r == reason)
            {
                self.counts.rejected[i] += 1;
            }
        }
        match *event {
            Event::Submit { t, request } => self.submit(t, request, decisions),
            Event::Plan { t } if t < self.now => match decisions {
                [] => Ok(()),
                _ => Err(broken(format!("a plan at {t}, before {}, decided something", self.now))),
            },
            Event::Plan { t } => {
                self.bring_to(t);
                self.counts.plans += 1;
                self.plan(decisions)
            }
            Event::Reset { t } => self.reset(t, decisions),
        }
    }

    /// The counts and the job sets, once the log has ended.
    pub fn finish(mut self) -> SlaSummary {
        self.counts.pending_at_end = self.pending.len() as u64;
        self.close_set();
        SlaSummary { counts: self.counts, sets: self.sets }
    }

    fn bring_to(&mut self, t: Tick) {
        self.now = t;
        self.used.forget_before(t / self.header.config.slot_ticks);
    }

    fn close_set(&mut self) {
        let set = std::mem::take(&mut self.current);
        if self.open_requests > 0 {
            self.counts.sets += 1;
            if self.keep_sets {
                self.sets.push(set);
            }
        }
        self.open_requests = 0;
    }

    fn submit(&mut self, t: Tick, request: Request, decisions: &[Decision]) -> Result<(), SlaViolation> {
        self.counts.requests += 1;
        self.open_requests += 1;
        if self.keep_sets {
            self.current.requested.push(request);
        }
        let job = request.job;
        let expected = if t < self.now {
            Some(RejectReason::TimeWentBackwards)
        } else {
            self.bring_to(t);
            if !valid(&request, self.header.config.nodes) {
                Some(RejectReason::Invalid)
            } else if self.pending.len() >= self.header.batch as usize {
                Some(RejectReason::BatchFull)
            } else {
                None
            }
        };
        match (expected, decisions) {
            (None, []) => {
                if self.pending.iter().any(|(r, _)| r.job == job) {
                    return Err(broken(format!("job {job} is submitted twice into one batch")));
                }
                self.pending.push((request, self.next_index));
                self.next_index += 1;
                Ok(())
            }
            (Some(reason), [Decision::Reject { job: j, reason: r }]) if *j == job && *r == reason => Ok(()),
            (Some(reason), _) => Err(broken(format!(
                "job {job}: the submit must be rejected with {reason}, the log has {}",
                words(decisions)
            ))),
            (None, _) => Err(broken(format!(
                "job {job}: a valid submit waits for its plan, the log has {}",
                words(decisions)
            ))),
        }
    }

    fn reset(&mut self, t: Tick, decisions: &[Decision]) -> Result<(), SlaViolation> {
        let expected: Vec<Decision> = self
            .pending
            .iter()
            .map(|(r, _)| Decision::Reject { job: r.job, reason: RejectReason::Dropped })
            .collect();
        if decisions != expected {
            return Err(broken(format!(
                "a reset must drop the pending ({}), the log has {}",
                words(&expected),
                words(decisions)
            )));
        }
        self.pending.clear();
        self.close_set();
        self.used.reset(t / self.header.config.slot_ticks);
        self.next_index = 0;
        self.now = t;
        Ok(())
    }

    /// One plan: every pending request answered once, in key order, each answer right.
    fn plan(&mut self, decisions: &[Decision]) -> Result<(), SlaViolation> {
        if decisions.len() != self.pending.len() {
            return Err(broken(format!(
                "a plan at {} answers {} requests, {} are pending",
                self.now,
                decisions.len(),
                self.pending.len()
            )));
        }
        let pending = std::mem::take(&mut self.pending);
        let config = self.header.config;
        let mut last_key = None;
        for decision in decisions {
            let job = decision.job();
            let Some(&(request, index)) = pending.iter().find(|(r, _)| r.job == job) else {
                return Err(broken(format!(
                    "a plan at {} answers job {job}, which is not pending",
                    self.now
                )));
            };
            let key = (sort_key(&config.order, &request, index, config.ticks_per_hour), index);
            if last_key.is_some_and(|last| last >= key) {
                return Err(broken(format!("job {job} is answered out of the order {}", config.order)));
            }
            last_key = Some(key);
            self.answer(&request, decision)?;
        }
        Ok(())
    }

    fn answer(&mut self, r: &Request, decision: &Decision) -> Result<(), SlaViolation> {
        let config = &self.header.config;
        let job = r.job;
        let fit = first_fit_linear(config, u64::from(self.header.slots), &self.used, r, self.now);
        match (*decision, fit) {
            (Decision::Accept { start, .. }, _) => {
                let in_window = start >= r.ts && start.checked_add(r.td).is_some_and(|end| end <= r.tf);
                if !in_window || start < self.now || !(start - r.ts).is_multiple_of(config.step_ticks) {
                    return Err(broken(format!(
                        "job {job} accepted at {start}: not TS + k*Δt inside [{}, {}] from the plan at {}",
                        r.ts, r.tf, self.now
                    )));
                }
                let slots = slots_of(start, r.td, config.slot_ticks);
                if let Some(busy) = slots.clone().find(|&s| self.used.get(s) + r.ncpu > config.nodes) {
                    return Err(broken(format!(
                        "job {job} accepted at {start}: slot {busy} would have {} of {} nodes in use",
                        self.used.get(busy) + r.ncpu,
                        config.nodes
                    )));
                }
                if fit != Fit::Start(start) {
                    return Err(broken(format!("job {job} accepted at {start}; first fit gives {fit}")));
                }
                let highest = self.used.add(slots, r.ncpu);
                debug_assert!(highest <= config.nodes);
                self.counts.accepted += 1;
                self.counts.node_ticks += u128::from(r.ncpu) * u128::from(r.td);
                if self.keep_sets {
                    self.current.accepted.push(Placement { request: *r, start });
                }
                Ok(())
            }
            (Decision::Reject { reason: RejectReason::NoRoom, .. }, Fit::NoRoom)
            | (Decision::Reject { reason: RejectReason::Horizon, .. }, Fit::Horizon)
            | (Decision::Reject { reason: RejectReason::Late, .. }, Fit::Late) => Ok(()),
            (Decision::Reject { reason, .. }, Fit::Start(s)) => {
                Err(broken(format!("job {job} rejected ({reason}) at its turn, but start {s} had room")))
            }
            (Decision::Reject { reason, .. }, fit) => Err(broken(format!(
                "job {job} rejected with {reason} at a plan; the tried starts give {fit}"
            ))),
        }
    }
}
