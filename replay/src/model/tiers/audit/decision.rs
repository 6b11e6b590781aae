//! The audit's checks of one tiers decision, a method per kind: placements, moves and
//! re-placements inside their windows and on groups their tier allows, starts on free
//! nodes, ends with the right `late` flag, losses on the leaving resource, and every
//! violation recomputed.

use kernel::tiers::{Decision, Event, Group, Policy, Tier, Violation};
use kernel::{JobId, Tick};

use super::{Job, TiersAudit, TiersViolation, bad, estimate};

impl TiersAudit {
    /// Checks one decision of `event` (whose time is `now`) and updates its job.
    pub(super) fn decision(&mut self, event: &Event, now: Tick, d: &Decision) -> Result<(), TiersViolation> {
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
            // A refusal is final: a job never placed is forgotten, so that the audit
            // holds only the jobs still in play.
            if self
                .jobs
                .get(&job_id)
                .is_some_and(|j| j.resource == usize::MAX && j.first_start.is_none() && !j.dropped)
            {
                self.jobs.remove(&job_id);
            }
            return Ok(());
        }
        // The job is changed on a copy, and kept only when every check passed.
        let mut j = self.jobs.get(&job_id).cloned().ok_or_else(|| bad(job_id, "never submitted"))?;
        match *d {
            Decision::Accept { resource, start, .. } => self.accept(job_id, &mut j, resource, start, now)?,
            Decision::Move { resource, start, .. } => {
                self.replace(job_id, &mut j, true, resource, start, now)?
            }
            Decision::Replace { resource, start, .. } => {
                self.replace(job_id, &mut j, false, resource, start, now)?;
            }
            Decision::Start { t, .. } => self.start(job_id, &mut j, t)?,
            Decision::End { t, late, .. } => self.end(job_id, &mut j, t, late)?,
            Decision::Lost { running, .. } => self.lost(job_id, &mut j, event, running)?,
            Decision::Violate { t, why, .. } => self.violate(job_id, &mut j, event, now, t, why)?,
            Decision::Reject { .. } => {}
        }
        let after = j.placed_on();
        // An ended job is done: its late flag and violation were checked at its end
        // (`end`), which is all `finish` would check of it. So is a dropped one (a
        // `Violate { Lost }`): it holds no place, `finish` finds nothing overdue in it,
        // and its violation was counted when it was dropped. Any later decision of
        // either is refused as of a job never submitted. So both are forgotten, and the
        // audit holds only the jobs still in play.
        let done = j.ended.is_some() || j.dropped;
        let before = if done { self.jobs.remove(&job_id) } else { self.jobs.insert(job_id, j) };
        if let Some(before) = before {
            self.count_placed(before.placed_on(), after);
        }
        Ok(())
    }

    /// Keeps [`TiersAudit::placed`] in step with a job that went from `before` to
    /// `after`.
    fn count_placed(&mut self, before: Option<usize>, after: Option<usize>) {
        if before == after {
            return;
        }
        if let Some(n) = before.and_then(|r| self.placed.get_mut(r)) {
            *n = n.saturating_sub(1);
        }
        if let Some(n) = after.and_then(|r| self.placed.get_mut(r)) {
            *n += 1;
        }
    }

    fn group_of(&self, r: usize) -> Option<Group> {
        self.resources.get(r).map(|x| x.group)
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

    fn accept(
        &mut self,
        id: JobId,
        j: &mut Job,
        resource: u8,
        start: Tick,
        now: Tick,
    ) -> Result<(), TiersViolation> {
        self.placed(id, j, resource, start, now)?;
        let group = self.group_of(usize::from(resource)).ok_or_else(|| bad(id, "no resource"))?;
        if !self.admission_allows(j.tier, group) {
            return Err(bad(id, &format!("a {} job accepted on a {} resource", j.tier.name(), group.name())));
        }
        (j.resource, j.planned) = (usize::from(resource), start);
        self.counts.accepted += 1;
        Ok(())
    }

    /// A `Move` (`moving`) or a `Replace`.
    fn replace(
        &mut self,
        id: JobId,
        j: &mut Job,
        moving: bool,
        resource: u8,
        start: Tick,
        now: Tick,
    ) -> Result<(), TiersViolation> {
        if moving && (self.config.policy != Policy::QosRes || j.tier == Tier::Gold || j.running) {
            return Err(bad(id, "moved against the rules (policy, Gold or started)"));
        }
        if !moving && self.config.policy != Policy::QosRes && j.tier != Tier::Bronze {
            return Err(bad(id, "re-placed without rescheduling"));
        }
        self.placed(id, j, resource, start, now)?;
        let from = self.group_of(j.resource).ok_or_else(|| bad(id, "moved before it was placed"))?;
        let to = self.group_of(usize::from(resource)).ok_or_else(|| bad(id, "no resource"))?;
        if !self.move_allows(j.tier, from, to) {
            return Err(bad(
                id,
                &format!("a {} job moved from {} to {}", j.tier.name(), from.name(), to.name()),
            ));
        }
        (j.resource, j.planned, j.running) = (usize::from(resource), start, false);
        if moving {
            self.counts.moves += 1
        } else {
            self.counts.replaced += 1
        }
        Ok(())
    }

    fn start(&mut self, id: JobId, j: &mut Job, t: Tick) -> Result<(), TiersViolation> {
        let r = j.resource;
        let nodes = self.resources.get(r).map_or(0, |x| x.nodes);
        let busy = self.running.get_mut(r).ok_or_else(|| bad(id, "started unplaced"))?;
        if j.running || t < j.planned || *busy >= nodes || !self.available[r] {
            return Err(bad(
                id,
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
        Ok(())
    }

    fn end(&mut self, id: JobId, j: &mut Job, t: Tick, late: bool) -> Result<(), TiersViolation> {
        if !j.running {
            return Err(bad(id, "ended without running"));
        }
        if late != (j.tier.has_deadline() && t > j.deadline) {
            return Err(bad(id, "ended with a wrong late flag"));
        }
        if late && !j.violated {
            return Err(bad(id, "ended late without a violation"));
        }
        if let Some(c) = self.running.get_mut(j.resource) {
            *c = c.saturating_sub(1);
        }
        (j.running, j.ended) = (false, Some(t));
        Ok(())
    }

    fn lost(&mut self, id: JobId, j: &mut Job, event: &Event, running: bool) -> Result<(), TiersViolation> {
        let left = match *event {
            Event::Leave { resource, .. } => usize::from(resource),
            _ => return Err(bad(id, "lost without a leave")),
        };
        if j.resource != left || running != j.running {
            return Err(bad(id, "lost from another resource or in another state"));
        }
        j.running = false;
        self.counts.lost += 1;
        Ok(())
    }

    fn violate(
        &mut self,
        id: JobId,
        j: &mut Job,
        event: &Event,
        now: Tick,
        t: Tick,
        why: Violation,
    ) -> Result<(), TiersViolation> {
        match why {
            Violation::Late => {
                if !j.tier.has_deadline() || j.violated || t != j.deadline || now <= t || j.ended.is_some() {
                    return Err(bad(id, "violated late without passing its deadline unfinished"));
                }
            }
            Violation::Lost => {
                if !matches!(event, Event::Leave { .. }) {
                    return Err(bad(id, "dropped without a leave"));
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
                return Err(bad(id, "a Gold job violated under a tiered policy"));
            }
            if j.tier == Tier::Gold {
                self.counts.violated_gold += 1
            } else {
                self.counts.violated_silver += 1
            }
        }
        j.violated = j.violated || j.tier.has_deadline();
        Ok(())
    }
}
