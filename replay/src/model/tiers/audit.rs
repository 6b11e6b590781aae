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

use kernel::tiers::{Config, Decision, Event, Group, Policy, Resource, Tier, Violation};
use kernel::{JobId, Tick};

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
    available: Vec<bool>,
    counts: TiersCounts,
    bronze_waits: Vec<Tick>,
    last_t: Tick,
    /// Whether a violated Gold job under `qos` or `qos-res` is a broken promise: true
    /// for logs of the host, whose reliable resources never run past an estimate.
    gold_promise: bool,
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

    fn admission_allows(&self, tier: Tier, group: Group) -> bool {
        self.config.policy == Policy::NoQos
            || matches!(
                (tier, group),
                (Tier::Gold, Group::High) | (Tier::Silver, _) | (Tier::Bronze, Group::Low)
            )
    }

    fn move_allows(&self, tier: Tier, from: Group, to: Group) -> bool {
        self.config.policy == Policy::NoQos
            || matches!(
                (tier, from, to),
                (Tier::Silver, Group::High, _) | (Tier::Silver | Tier::Bronze, Group::Low, Group::Low)
            )
    }

    /// Checks one event with its decisions.
    pub fn step(&mut self, event: &Event, decisions: &[Decision]) -> Result<(), TiersViolation> {
        // A reset has no time: it brings the clock back to 0.
        let now = event.time().unwrap_or(0);
        if let Event::Submit(r) = event {
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
        // A leave takes effect after the starts and violations that bringing time to
        // it made (the kernel's order), that is, before the first other decision.
        // Only a present low-confidence resource can leave; other leaves are refused.
        let mut pending_leave = match *event {
            Event::Leave { resource, .. } => Some(usize::from(resource)).filter(|&r| {
                self.resources.get(r).is_some_and(|x| x.group == Group::Low)
                    && self.available.get(r).copied().unwrap_or(false)
            }),
            _ => None,
        };
        let leaving = pending_leave;
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
        if let Some(left) = leaving
            && let Some((&job, _)) =
                self.jobs.iter().find(|(_, j)| j.resource == left && j.ended.is_none() && !j.dropped)
        {
            return Err(bad(job, "still on a resource that left"));
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

    fn leave(&mut self, r: usize) {
        if let Some(a) = self.available.get_mut(r) {
            *a = false;
        }
        if let Some(c) = self.running.get_mut(r) {
            *c = 0;
        }
    }

    fn placed(
        &self,
        job: JobId,
        j: &Job,
        resource: u8,
        start: Tick,
        now: Tick,
    ) -> Result<(), TiersViolation> {
        let r = self.resources.get(usize::from(resource)).ok_or_else(|| bad(job, "placed on no resource"))?;
        if !self.available.get(usize::from(resource)).copied().unwrap_or(false) {
            return Err(bad(job, "placed on an absent resource"));
        }
        if start < j.ready.max(now) || start.saturating_add(estimate(r, j.work)) > j.deadline {
            return Err(bad(
                job,
                &format!("placed at {start} outside its window [{}, {}]", j.ready, j.deadline),
            ));
        }
        Ok(())
    }

    fn decision(&mut self, event: &Event, now: Tick, d: &Decision) -> Result<(), TiersViolation> {
        let job_id = match *d {
            Decision::Accept { job, .. }
            | Decision::Reject { job, .. }
            | Decision::Move { job, .. }
            | Decision::Start { job, .. }
            | Decision::End { job, .. }
            | Decision::Lost { job, .. }
            | Decision::Replace { job, .. }
            | Decision::Violate { job, .. } => job,
        };
        if let Decision::Reject { .. } = d {
            self.counts.rejected += 1;
            return Ok(());
        }
        let mut j = self.jobs.get(&job_id).cloned().ok_or_else(|| bad(job_id, "never submitted"))?;
        let group_of = |r: usize| self.resources.get(r).map(|x| x.group);
        match *d {
            Decision::Accept { resource, start, .. } => {
                self.placed(job_id, &j, resource, start, now)?;
                let group = group_of(usize::from(resource)).ok_or_else(|| bad(job_id, "no resource"))?;
                if !self.admission_allows(j.tier, group) {
                    return Err(bad(
                        job_id,
                        &format!("a {} job accepted on a {} resource", j.tier.name(), group.name()),
                    ));
                }
                (j.resource, j.planned) = (usize::from(resource), start);
                self.counts.accepted += 1;
            }
            Decision::Move { resource, start, .. } | Decision::Replace { resource, start, .. } => {
                let moving = matches!(d, Decision::Move { .. });
                if moving && (self.config.policy != Policy::QosRes || j.tier == Tier::Gold || j.running) {
                    return Err(bad(job_id, "moved against the rules (policy, Gold or started)"));
                }
                if !moving && self.config.policy != Policy::QosRes && j.tier != Tier::Bronze {
                    return Err(bad(job_id, "re-placed without rescheduling"));
                }
                self.placed(job_id, &j, resource, start, now)?;
                let from = group_of(j.resource).ok_or_else(|| bad(job_id, "moved before it was placed"))?;
                let to = group_of(usize::from(resource)).ok_or_else(|| bad(job_id, "no resource"))?;
                if !self.move_allows(j.tier, from, to) {
                    return Err(bad(
                        job_id,
                        &format!("a {} job moved from {} to {}", j.tier.name(), from.name(), to.name()),
                    ));
                }
                (j.resource, j.planned, j.running) = (usize::from(resource), start, false);
                if moving { self.counts.moves += 1 } else { self.counts.replaced += 1 }
            }
            Decision::Start { t, .. } => {
                let r = j.resource;
                let nodes = self.resources.get(r).map_or(0, |x| x.nodes);
                let busy = self.running.get_mut(r).ok_or_else(|| bad(job_id, "started unplaced"))?;
                if j.running || t < j.planned || *busy >= nodes || !self.available[r] {
                    return Err(bad(
                        job_id,
                        &format!("started at {t}: planned {}, {busy} of {nodes} nodes busy", j.planned),
                    ));
                }
                *busy += 1;
                j.running = true;
                if j.first_start.is_none() {
                    j.first_start = Some(t);
                    if j.tier == Tier::Bronze {
                        self.bronze_waits.push(t - j.submitted);
                    }
                }
            }
            Decision::End { t, late, .. } => {
                if !j.running {
                    return Err(bad(job_id, "ended without running"));
                }
                if late != (j.tier.has_deadline() && t > j.deadline) {
                    return Err(bad(job_id, "ended with a wrong late flag"));
                }
                if late && !j.violated {
                    return Err(bad(job_id, "ended late without a violation"));
                }
                if let Some(c) = self.running.get_mut(j.resource) {
                    *c = c.saturating_sub(1);
                }
                (j.running, j.ended) = (false, Some(t));
            }
            Decision::Lost { running, .. } => {
                let left = match *event {
                    Event::Leave { resource, .. } => usize::from(resource),
                    _ => return Err(bad(job_id, "lost without a leave")),
                };
                if j.resource != left || running != j.running {
                    return Err(bad(job_id, "lost from another resource or in another state"));
                }
                j.running = false;
                self.counts.lost += 1;
            }
            Decision::Violate { t, why, .. } => {
                match why {
                    Violation::Late => {
                        if !j.tier.has_deadline()
                            || j.violated
                            || t != j.deadline
                            || now <= t
                            || j.ended.is_some()
                        {
                            return Err(bad(job_id, "violated late without passing its deadline unfinished"));
                        }
                    }
                    Violation::Lost => {
                        if !matches!(event, Event::Leave { .. }) {
                            return Err(bad(job_id, "dropped without a leave"));
                        }
                        j.dropped = true;
                        j.resource = usize::MAX;
                        if j.tier == Tier::Bronze {
                            self.counts.bronze_dropped += 1;
                        }
                    }
                }
                if j.tier.has_deadline() && !j.violated {
                    if j.tier == Tier::Gold && self.config.policy != Policy::NoQos && self.gold_promise {
                        return Err(bad(job_id, "a Gold job violated under a tiered policy"));
                    }
                    if j.tier == Tier::Gold {
                        self.counts.violated_gold += 1
                    } else {
                        self.counts.violated_silver += 1
                    }
                }
                j.violated = j.violated || j.tier.has_deadline();
            }
            Decision::Reject { .. } => {}
        }
        self.jobs.insert(job_id, j);
        Ok(())
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
