//! The tiers model's audit: the promises of a tiers log, checked from its records and
//! header alone, without the kernel.
//!
//! - No resource runs more jobs than its nodes at any instant, nor any while absent.
//! - Every placement (`Accept`), move and re-placement keeps the job inside its window
//!   (`max(now, ready) <= start`, `start + estimate <= deadline`, the estimate
//!   recomputed from the header's speeds) and on a resource its tier allows under the
//!   policy; moves only under `qos-res`; Gold is never moved.
//! - A job starts no earlier than planned, on an available resource; an `End` is of a
//!   running job, `late` exactly when past a Gold or Silver deadline.
//! - A leave loses every job on the resource, and only those.
//! - Every violation is recomputed: `Violate { Late }` exactly for the Gold and Silver
//!   jobs not ended by their deadline, at their deadline, once time passed it; under
//!   `qos` and `qos-res` no Gold job is violated.
//! - The counts of [`TiersCounts`] (violations per tier, Bronze waits) come from the
//!   records, for comparison with the host's figures.

use std::collections::HashMap;

use kernel::tiers::{Config, Decision, Event, Group, Request, Resource, Tier, Violation};
use kernel::{JobId, Tick};

mod decision;

/// A broken promise.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("job {job}: {what}")]
pub struct TiersViolation {
    pub job: JobId,
    pub what: String,
}

/// What the audit counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct TiersCounts {
    pub accepted: u64,
    pub rejected: u64,
    pub moves: u64,
    pub replaced: u64,
    pub lost: u64,
    pub violated_gold: u64,
    pub violated_silver: u64,
    pub bronze_dropped: u64,
    /// First start minus submission of the Bronze jobs that started: minimum, first
    /// quartile, median, third quartile, maximum, by nearest rank (`q1` is the value at
    /// rank `ceil(n / 4)`).
    pub bronze_wait: [Tick; 5],
}

#[derive(Clone, Debug)]
struct Job {
    tier: Tier,
    submitted: Tick,
    work: Tick,
    ready: Tick,
    deadline: Tick,
    resource: usize,
    planned: Tick,
    first_start: Option<Tick>,
    running: bool,
    ended: Option<Tick>,
    dropped: bool,
    violated: bool,
}

/// Feeds on one event and its decisions at a time.
#[derive(Debug)]
pub struct TiersAudit {
    config: Config,
    resources: Vec<Resource>,
    jobs: HashMap<JobId, Job>,
    running: Vec<u32>,
    /// Per resource, the jobs placed on it and neither ended nor dropped (see
    /// [`Job::placed_on`]), so that a leave is checked without a scan of every job.
    placed: Vec<u32>,
    available: Vec<bool>,
    counts: TiersCounts,
    bronze_waits: Vec<Tick>,
    last_t: Tick,
    /// Whether a violated Gold job under `qos` or `qos-res` is a broken promise: true
    /// for logs of the host, whose reliable resources never run past an estimate.
    gold_promise: bool,
}

impl Job {
    /// The resource the job holds a place on: placed, not ended, not dropped.
    fn placed_on(&self) -> Option<usize> {
        (self.resource != usize::MAX && self.ended.is_none() && !self.dropped).then_some(self.resource)
    }
}

fn estimate(r: &Resource, work: Tick) -> Tick {
    (u128::from(work) * 1000).div_ceil(u128::from(r.speed_milli.max(1))) as Tick
}

impl TiersAudit {
    pub fn new(config: Config, resources: &[Resource]) -> Self {
        Self {
            config,
            resources: resources.to_vec(),
            jobs: HashMap::new(),
            running: vec![0; resources.len()],
            placed: vec![0; resources.len()],
            available: vec![true; resources.len()],
            counts: TiersCounts::default(),
            bronze_waits: Vec::new(),
            last_t: 0,
            gold_promise: true,
        }
    }

    /// An audit that accepts Gold violations under tiered policies: for inputs whose
    /// finishes may overrun on reliable resources (the fuzz target, seeded tests), where
    /// a late Gold job is the host's doing, not the kernel's.
    pub fn without_gold_promise(mut self) -> Self {
        self.gold_promise = false;
        self
    }

    /// Checks one event with its decisions.
    pub fn step(&mut self, event: &Event, decisions: &[Decision]) -> Result<(), TiersViolation> {
        // A reset has no time: it brings the clock back to 0.
        let now = event.time().unwrap_or(0);
        if let Event::Submit(r) = event {
            self.submit(r);
        }
        let returning = self.return_or_reset(event);
        let leaving = self.accepted_leave(event);
        self.decisions(event, now, leaving, decisions)?;
        if let Some(left) = leaving
            && self.placed.get(left).is_some_and(|&n| n > 0)
        {
            // Only a broken log gets here: the scan names one of the jobs.
            let on_it = self.jobs.iter().find(|(_, j)| j.placed_on() == Some(left));
            return Err(bad(on_it.map_or(0, |(&job, _)| job), "still on a resource that left"));
        }
        // A refused leave or return does not bring the kernel's time forward; nor does
        // an event in its past.
        let advances = match *event {
            Event::Leave { .. } => leaving.is_some(),
            Event::Return { resource, .. } => returning == Some(usize::from(resource)),
            _ => true,
        };
        if advances {
            self.last_t = self.last_t.max(now);
        }
        Ok(())
    }

    /// Records a submitted job (the first submit of an identifier): a Bronze job's
    /// window runs from its submission to the configuration's internal deadline.
    fn submit(&mut self, r: &Request) {
        let (ready, deadline) = if r.tier == Tier::Bronze {
            (r.t, r.t.saturating_add(self.config.bronze_deadline))
        } else {
            (r.ready, r.deadline)
        };
        let job = Job {
            tier: r.tier,
            submitted: r.t,
            work: r.work,
            ready,
            deadline,
            resource: usize::MAX,
            planned: 0,
            first_start: None,
            running: false,
            ended: None,
            dropped: false,
            violated: false,
        };
        self.jobs.entry(r.job).or_insert(job);
    }

    /// Brings back a resource that returns while absent (and says which), or starts
    /// the audit afresh at a reset.
    fn return_or_reset(&mut self, event: &Event) -> Option<usize> {
        let mut returning = None;
        match *event {
            Event::Return { resource, .. } => {
                if let Some(a) = self.available.get_mut(usize::from(resource)).filter(|a| !**a) {
                    *a = true;
                    returning = Some(usize::from(resource));
                }
            }
            Event::Reset => {
                let promise = self.gold_promise;
                *self = Self::new(self.config, &self.resources);
                self.gold_promise = promise;
            }
            _ => {}
        }
        returning
    }

    /// The resource a leave takes away. Only a present low-confidence resource can
    /// leave; other leaves are refused.
    fn accepted_leave(&self, event: &Event) -> Option<usize> {
        match *event {
            Event::Leave { resource, .. } => Some(usize::from(resource)).filter(|&r| {
                self.resources.get(r).is_some_and(|x| x.group == Group::Low)
                    && self.available.get(r).copied().unwrap_or(false)
            }),
            _ => None,
        }
    }

    /// Checks the event's decisions in order. The leave `leaving` takes effect after
    /// the starts and violations that bringing time to it made (the kernel's order),
    /// that is, before the first other decision.
    fn decisions(
        &mut self,
        event: &Event,
        now: Tick,
        leaving: Option<usize>,
        decisions: &[Decision],
    ) -> Result<(), TiersViolation> {
        let mut pending_leave = leaving;
        for d in decisions {
            let advancing =
                matches!(d, Decision::Start { .. } | Decision::Violate { why: Violation::Late, .. });
            if !advancing && let Some(r) = pending_leave.take() {
                self.leave(r);
            }
            self.decision(event, now, d)?;
        }
        if let Some(r) = pending_leave {
            self.leave(r);
        }
        Ok(())
    }

    fn leave(&mut self, r: usize) {
        if let Some(a) = self.available.get_mut(r) {
            *a = false;
        }
        if let Some(c) = self.running.get_mut(r) {
            *c = 0;
        }
    }

    /// At the end of the log: every Gold or Silver job that was not done by its
    /// deadline, with time past it, was violated; the counts.
    pub fn finish(mut self) -> Result<TiersCounts, TiersViolation> {
        let mut ids: Vec<&JobId> = self.jobs.keys().collect();
        ids.sort_unstable();
        for id in ids {
            let j = &self.jobs[id];
            let accepted = j.resource != usize::MAX || j.dropped;
            let overdue = match j.ended {
                Some(end) => end > j.deadline,
                None => !j.dropped && self.last_t > j.deadline,
            };
            if accepted && j.tier.has_deadline() && overdue && !j.violated {
                return Err(bad(*id, "overdue but never violated"));
            }
        }
        let mut waits = std::mem::take(&mut self.bronze_waits);
        waits.sort_unstable();
        let n = waits.len();
        if n > 0 {
            let rank = |k: usize| waits[(n * k).div_ceil(4).max(1) - 1];
            self.counts.bronze_wait = [waits[0], rank(1), rank(2), rank(3), waits[n - 1]];
        }
        Ok(self.counts)
    }
}

fn bad(job: JobId, what: &str) -> TiersViolation {
    TiersViolation { job, what: what.to_owned() }
}

#[cfg(test)]
mod tests {
    use kernel::tiers::{Config, Decision, Event, Group, Policy, Request, Resource, Tier};

    use super::TiersAudit;

    /// A leave must take every job off the resource: lost and then re-placed or dropped
    /// in the same step. The count kept per resource finds a job left behind, and
    /// forgets one re-placed elsewhere.
    #[test]
    fn a_job_left_on_a_resource_that_left_is_found() {
        let desktops = [Resource { group: Group::Low, nodes: 1, speed_milli: 1000 }; 2];
        let bronze = |job| Request { t: 0, job, tier: Tier::Bronze, work: 100, ready: 0, deadline: 0 };
        let placed = |audit: &mut TiersAudit, job, resource| {
            let submit = Event::Submit(bronze(job));
            audit.step(&submit, &[Decision::Accept { job, resource, start: 0 }]).unwrap();
        };
        let leave = Event::Leave { t: 10, resource: 0 };
        let mut audit = TiersAudit::new(Config::new(Policy::QosRes), &desktops);
        placed(&mut audit, 1, 0);
        let left_behind = audit.step(&leave, &[]).unwrap_err();
        assert_eq!((left_behind.job, left_behind.what.as_str()), (1, "still on a resource that left"));
        let mut audit = TiersAudit::new(Config::new(Policy::QosRes), &desktops);
        placed(&mut audit, 1, 0);
        let moved = [
            Decision::Lost { t: 10, job: 1, running: false },
            Decision::Replace { job: 1, resource: 1, start: 10 },
        ];
        audit.step(&leave, &moved).unwrap();
    }
}
