//! The tiers kernel: resources in two groups, one slot calendar each, and the accepted
//! jobs, driven one event at a time.

use heapless::Vec;

use super::event::{Decision, Event, Outcome, Request, Violation};
use super::types::{Config, ConfigError, Group, Policy, RejectReason, Resource, Tier};
use crate::calendar::{Calendar, Slot, SlotLength};
use crate::panic_free;
use crate::types::{JobId, Tick};

/// An accepted job that has not finished, been dropped or been lost for good.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    pub job: JobId,
    /// Acceptance number: ties in every order end in it.
    pub seq: u64,
    pub tier: Tier,
    /// Run time on a resource of speed 1000.
    pub work: Tick,
    pub submitted: Tick,
    /// The window `[ready, deadline]` (for Bronze, submission and internal deadline).
    pub ready: Tick,
    pub deadline: Tick,
    pub resource: u8,
    /// The planned start while waiting; the actual start once running.
    pub start: Tick,
    /// The estimated run time on `resource`.
    pub estimate: Tick,
    /// The calendar slots held on `resource`: `first_slot .. first_slot + slots`.
    pub first_slot: Slot,
    pub slots: u64,
    pub running: bool,
    /// A `Violate` was emitted for it.
    pub violated: bool,
    /// How many times rescheduling moved it.
    pub moves: u16,
}

/// Where a job can go: the groups tried, in order; `None` is the end of the list.
type Scopes = [Option<Scope>; 2];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scope {
    Any,
    Only(Group),
}

/// A placement found in the calendars.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Place {
    resource: u8,
    start: Tick,
    estimate: Tick,
    first_slot: Slot,
    slots: u64,
}

/// The tiers kernel: up to `R` resources, `H` calendar slots each, `J` accepted
/// unfinished jobs. See the [module documentation](super).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TiersKernel<const R: usize, const H: usize, const J: usize> {
    config: Config,
    slot: SlotLength,
    resources: Vec<Resource, R>,
    calendars: [Calendar<H>; R],
    available: [bool; R],
    /// Jobs running on each resource (at most its nodes, by construction).
    running: [u32; R],
    /// In acceptance order.
    jobs: Vec<Job, J>,
    now: Tick,
    next_seq: u64,
}

impl<const R: usize, const H: usize, const J: usize> TiersKernel<R, H, J> {
    /// A kernel at time zero, every resource available and free.
    pub fn new(config: Config, resources: &[Resource]) -> Result<Self, ConfigError> {
        const {
            assert!(R > 0 && R <= 255, "resources are numbered by a u8");
            assert!(H > 0, "a calendar needs at least one slot");
            assert!(J > 0, "the job table needs room for one job");
        };
        let Some(slot) = SlotLength::new(config.slot_ticks) else {
            return Err(ConfigError::ZeroSlotLength);
        };
        let count_error = ConfigError::ResourceCount { given: resources.len(), capacity: R };
        if resources.is_empty() {
            return Err(count_error);
        }
        let mut list = Vec::new();
        for (index, resource) in resources.iter().enumerate() {
            if resource.nodes == 0 || resource.speed_milli == 0 {
                return Err(ConfigError::BadResource { index });
            }
            list.push(*resource).map_err(|_| count_error)?;
        }
        let calendars = core::array::from_fn(|i| Calendar::new(resources.get(i).map_or(1, |r| r.nodes)));
        Ok(Self {
            config,
            slot,
            resources: list,
            calendars,
            available: [true; R],
            running: [0; R],
            jobs: Vec::new(),
            now: 0,
            next_seq: 0,
        })
    }

    pub const fn config(&self) -> &Config {
        &self.config
    }

    pub fn resources(&self) -> &[Resource] {
        &self.resources
    }

    /// The accepted, unfinished jobs, in acceptance order.
    pub fn jobs(&self) -> &[Job] {
        &self.jobs
    }

    pub const fn now(&self) -> Tick {
        self.now
    }

    /// Whether resource `r` is present (not left).
    pub fn available(&self, r: usize) -> bool {
        r < self.resources.len() && self.available.get(r).copied().unwrap_or(false)
    }

    /// The calendar of resource `r`.
    pub fn calendar(&self, r: usize) -> Option<&Calendar<H>> {
        self.calendars.get(r).filter(|_| r < self.resources.len())
    }

    /// The next instant at which a waiting job is due to start, if any: the host sends
    /// an [`Event::Advance`] then (or an earlier event), so that starts are on time.
    pub fn poll_at(&self) -> Option<Tick> {
        self.jobs.iter().filter(|j| !j.running && j.start > self.now).map(|j| j.start).min()
    }

    /// Handles one event, hands every decision to `sink` in order, and summarises.
    pub fn step<S: FnMut(Decision) + ?Sized>(&mut self, event: Event, sink: &mut S) -> Outcome {
        if event.time().is_some_and(|t| t < self.now) {
            if let Event::Submit(request) = event {
                sink(Decision::Reject { job: request.job, reason: RejectReason::TimeWentBackwards });
                return Outcome::Rejected(RejectReason::TimeWentBackwards);
            }
            return Outcome::Refused(RejectReason::TimeWentBackwards);
        }
        match event {
            Event::Submit(request) => self.submit(request, sink),
            Event::Advance { t } => {
                self.advance(t, sink);
                Outcome::Advanced
            }
            Event::Finish { t, job } => self.finish(t, job, sink),
            Event::Leave { t, resource } => self.leave(t, resource, sink),
            Event::Return { t, resource } => self.back(t, resource, sink),
            Event::Reset => {
                let resources = self.resources.clone();
                for (i, c) in self.calendars.iter_mut().enumerate() {
                    *c = Calendar::new(resources.get(i).map_or(1, |r| r.nodes));
                }
                self.available = [true; R];
                self.running = [0; R];
                self.jobs.clear();
                self.now = 0;
                self.next_seq = 0;
                Outcome::Reset
            }
        }
    }

    fn submit<S: FnMut(Decision) + ?Sized>(&mut self, request: Request, sink: &mut S) -> Outcome {
        let job = request.job;
        self.advance(request.t, sink);
        let reject = |reason, sink: &mut S| {
            sink(Decision::Reject { job, reason });
            Outcome::Rejected(reason)
        };
        let (ready, deadline) = match self.window(&request) {
            Ok(window) => window,
            Err(reason) => return reject(reason, sink),
        };
        if self.jobs.iter().any(|j| j.job == job) {
            return reject(RejectReason::DuplicateJob, sink);
        }
        if self.jobs.is_full() {
            return reject(RejectReason::TableFull, sink);
        }
        let scopes = admission_scopes(self.config.policy, request.tier);
        let mut moved = false;
        let place = match self.place(request.work, ready, deadline, scopes) {
            Some(place) => Some(place),
            None if self.config.policy.reschedules() => {
                let found = self.reschedule(&request, ready, deadline, sink);
                moved = found.is_some();
                found
            }
            None => None,
        };
        let Some(place) = place else { return reject(RejectReason::NoRoom, sink) };
        if !moved && self.hold(&place).is_err() {
            // `place` came from the calendar a moment ago, so this does not happen.
            return reject(RejectReason::NoRoom, sink);
        }
        let entry = Job {
            job,
            seq: self.next_seq,
            tier: request.tier,
            work: request.work,
            submitted: request.t,
            ready,
            deadline,
            resource: place.resource,
            start: place.start,
            estimate: place.estimate,
            first_slot: place.first_slot,
            slots: place.slots,
            running: false,
            violated: false,
            moves: 0,
        };
        if self.jobs.push(entry).is_err() {
            return reject(RejectReason::TableFull, sink);
        }
        self.next_seq = self.next_seq.saturating_add(1);
        sink(Decision::Accept { job, resource: place.resource, start: place.start });
        self.start_due(self.now, sink);
        Outcome::Accepted { resource: place.resource, start: place.start, moved }
    }

    /// The request's window, checked.
    fn window(&self, request: &Request) -> Result<(Tick, Tick), RejectReason> {
        if request.work == 0 {
            return Err(RejectReason::BadRequest);
        }
        let (ready, deadline) = if request.tier == Tier::Bronze {
            let end = request.t.checked_add(self.config.bronze_deadline).ok_or(RejectReason::Overflow)?;
            (request.t, end)
        } else {
            (request.ready, request.deadline)
        };
        if deadline < ready {
            return Err(RejectReason::BadRequest);
        }
        if deadline <= ready.max(self.now) {
            return Err(RejectReason::WindowPassed);
        }
        Ok((ready, deadline))
    }

    /// The earliest placement of `work` in `[max(now, ready), deadline]` on an
    /// available resource of the first scope that has one; ties to the lowest index.
    fn place(&self, work: Tick, ready: Tick, deadline: Tick, scopes: Scopes) -> Option<Place> {
        scopes.into_iter().flatten().find_map(|scope| {
            let mut best: Option<Place> = None;
            for (index, resource) in self.resources.iter().enumerate() {
                let inside = match scope {
                    Scope::Any => true,
                    Scope::Only(group) => resource.group == group,
                };
                if !inside || !self.available(index) {
                    continue;
                }
                let found = self.place_on(index, resource, work, ready, deadline);
                if let Some(place) = found.filter(|p| best.is_none_or(|b| p.start < b.start)) {
                    best = Some(place);
                }
            }
            best
        })
    }

    fn place_on(
        &self,
        index: usize,
        resource: &Resource,
        work: Tick,
        ready: Tick,
        deadline: Tick,
    ) -> Option<Place> {
        let estimate = resource.estimate(work)?;
        let latest = deadline.checked_sub(estimate)?;
        let first = self.slot.slot_at_or_after(ready.max(self.now));
        let last = self.slot.slot_of(latest);
        if first > last {
            return None;
        }
        let (_, slots) = self.slot.span(0, estimate);
        let slot = self.calendars.get(index)?.earliest(first, last, 1, slots).ok()?;
        Some(Place {
            resource: u8::try_from(index).ok()?,
            start: self.slot.start_of(slot)?,
            estimate,
            first_slot: slot,
            slots,
        })
    }

    fn hold(&mut self, place: &Place) -> Result<(), ()> {
        let calendar = self.calendars.get_mut(usize::from(place.resource)).ok_or(())?;
        calendar.reserve(place.first_slot, place.slots, 1).map_err(|_| ())
    }

    /// Gives back the slots of `job` from `from_slot` on (clipped to the horizon).
    fn release(&mut self, job: &Job, from_slot: Slot) {
        let Some(calendar) = self.calendars.get_mut(usize::from(job.resource)) else { return };
        let low = job.first_slot.max(from_slot).max(calendar.base());
        let high = job.first_slot.saturating_add(job.slots).min(calendar.end());
        if low < high {
            // Every slot of a job's run is held until released here, so this succeeds.
            let _ = calendar.release(low, high.saturating_sub(low), 1);
        }
    }

    /// Algorithm 1: make room for the new job by moving one waiting job whose slots lie
    /// in the new job's window, largest laxity first. On success the candidate has
    /// moved (a `Move` was emitted) and the new job's slots are held.
    fn reschedule<S: FnMut(Decision) + ?Sized>(
        &mut self,
        request: &Request,
        ready: Tick,
        deadline: Tick,
        sink: &mut S,
    ) -> Option<Place> {
        let mut candidates: Vec<(u64, u64, u16), J> = Vec::new();
        let scopes = admission_scopes(self.config.policy, request.tier);
        let from = ready.max(self.now);
        for (index, j) in self.jobs.iter().enumerate() {
            let group = self.resources.get(usize::from(j.resource))?.group;
            let end = j.start.saturating_add(j.estimate);
            let eligible = !j.running
                && j.tier != Tier::Gold
                && j.tier.rank() <= request.tier.rank()
                && scopes.iter().flatten().any(|s| *s == Scope::Any || *s == Scope::Only(group))
                && j.start >= from
                && end <= deadline;
            let lax = laxity_milli(j);
            if eligible && lax > self.config.laxity_threshold_milli {
                let _ = candidates.push((lax, j.seq, u16::try_from(index).ok()?));
            }
        }
        // Highest laxity first, ties by submission order: distinct keys (a job's `seq`
        // is unique), so the one sorted order.
        panic_free::sort_by_key(&mut candidates, |&(lax, seq, _)| (core::cmp::Reverse(lax), seq));
        candidates
            .iter()
            .find_map(|&(_, _, index)| self.try_move(usize::from(index), request, deadline, sink))
    }

    /// Lines 12-17 of Algorithm 1 for one candidate; undoes everything on failure.
    fn try_move<S: FnMut(Decision) + ?Sized>(
        &mut self,
        index: usize,
        request: &Request,
        deadline: Tick,
        sink: &mut S,
    ) -> Option<Place> {
        let old = *self.jobs.get(index)?;
        let resource = *self.resources.get(usize::from(old.resource))?;
        let estimate = resource.estimate(request.work)?;
        let (_, slots) = self.slot.span(0, estimate);
        if slots > old.slots || old.start.checked_add(estimate)? > deadline {
            return None;
        }
        let new =
            Place { resource: old.resource, start: old.start, estimate, first_slot: old.first_slot, slots };
        self.release(&old, old.first_slot);
        if self.hold(&new).is_err() {
            let _ = self.hold(&as_place(&old));
            return None;
        }
        let scopes = move_scopes(self.config.policy, old.tier, resource.group);
        let Some(gap) = self.place(old.work, old.ready, old.deadline, scopes) else {
            self.release(&job_at(&old, &new), new.first_slot);
            let _ = self.hold(&as_place(&old));
            return None;
        };
        let _ = self.hold(&gap);
        let moved = self.jobs.get_mut(index)?;
        set_place(moved, &gap);
        moved.moves = moved.moves.saturating_add(1);
        sink(Decision::Move { job: old.job, resource: gap.resource, start: gap.start, for_job: request.job });
        Some(new)
    }

    fn finish<S: FnMut(Decision) + ?Sized>(&mut self, t: Tick, job: JobId, sink: &mut S) -> Outcome {
        self.advance(t, sink);
        let Some(index) = self.jobs.iter().position(|j| j.job == job && j.running) else {
            return Outcome::Refused(RejectReason::NotRunning);
        };
        let Some(done) = panic_free::remove(&mut self.jobs, index) else {
            return Outcome::Refused(RejectReason::NotRunning);
        };
        if let Some(count) = self.running.get_mut(usize::from(done.resource)) {
            *count = count.saturating_sub(1);
        }
        self.release(&done, self.slot.slot_at_or_after(t));
        let late = done.tier.has_deadline() && t > done.deadline;
        sink(Decision::End { t, job, late });
        self.start_due(t, sink);
        Outcome::Finished
    }

    fn leave<S: FnMut(Decision) + ?Sized>(&mut self, t: Tick, resource: u8, sink: &mut S) -> Outcome {
        let r = usize::from(resource);
        let Some(group) = self.resources.get(r).map(|x| x.group) else {
            return Outcome::Refused(RejectReason::UnknownResource);
        };
        if group == Group::High || !self.available(r) {
            return Outcome::Refused(RejectReason::BadAvailability);
        }
        self.advance(t, sink);
        if let Some(a) = self.available.get_mut(r) {
            *a = false;
        }
        if let Some(count) = self.running.get_mut(r) {
            *count = 0;
        }
        while let Some(index) = self.jobs.iter().position(|j| j.resource == resource) {
            self.lose(index, t, group, sink);
        }
        self.start_due(t, sink);
        Outcome::Availability
    }

    /// A job whose resource left: re-placed if the policy allows, else dropped.
    fn lose<S: FnMut(Decision) + ?Sized>(&mut self, index: usize, t: Tick, group: Group, sink: &mut S) {
        let Some(old) = self.jobs.get(index).copied() else { return };
        sink(Decision::Lost { t, job: old.job, running: old.running });
        self.release(&old, old.first_slot);
        let replace = self.config.policy.reschedules() || old.tier == Tier::Bronze;
        let scopes = move_scopes(self.config.policy, old.tier, group);
        let found = if replace { self.place(old.work, old.ready, old.deadline, scopes) } else { None };
        if let Some(place) = found.filter(|p| self.hold(p).is_ok()) {
            if let Some(j) = self.jobs.get_mut(index) {
                set_place(j, &place);
                j.running = false;
            }
            sink(Decision::Replace { job: old.job, resource: place.resource, start: place.start });
        } else {
            let _ = panic_free::remove(&mut self.jobs, index);
            sink(Decision::Violate { t, job: old.job, why: Violation::Lost });
        }
    }

    fn back<S: FnMut(Decision) + ?Sized>(&mut self, t: Tick, resource: u8, sink: &mut S) -> Outcome {
        let r = usize::from(resource);
        if r >= self.resources.len() {
            return Outcome::Refused(RejectReason::UnknownResource);
        }
        if self.available(r) {
            return Outcome::Refused(RejectReason::BadAvailability);
        }
        self.advance(t, sink);
        if let Some(a) = self.available.get_mut(r) {
            *a = true;
        }
        self.start_due(t, sink);
        Outcome::Availability
    }

    /// Brings the kernel to `t`: due starts, then the deadlines passed before `t`.
    fn advance<S: FnMut(Decision) + ?Sized>(&mut self, t: Tick, sink: &mut S) {
        self.start_due(t, sink);
        while let Some(index) = self.next_violation(t) {
            if let Some(j) = self.jobs.get_mut(index) {
                j.violated = true;
                sink(Decision::Violate { t: j.deadline, job: j.job, why: Violation::Late });
            }
        }
        self.now = t;
        let base = self.slot.slot_of(t);
        self.calendars.iter_mut().for_each(|c| c.advance_to(base));
    }

    fn next_violation(&self, t: Tick) -> Option<usize> {
        let due = self
            .jobs
            .iter()
            .enumerate()
            .filter(|(_, j)| j.tier.has_deadline() && !j.violated && j.deadline < t);
        due.min_by_key(|(_, j)| (j.deadline, j.seq)).map(|(index, _)| index)
    }

    /// Starts, in (planned start, acceptance) order, every waiting job whose planned
    /// start is at or before `t` and whose resource has a free node. A job starts at
    /// its planned start, or now if it was waiting for its resource.
    fn start_due<S: FnMut(Decision) + ?Sized>(&mut self, t: Tick, sink: &mut S) {
        loop {
            let due = self.jobs.iter().enumerate().filter(|(_, j)| {
                let r = usize::from(j.resource);
                let nodes = self.resources.get(r).map_or(0, |x| x.nodes);
                let busy = self.running.get(r).copied().unwrap_or(u32::MAX);
                !j.running && j.start <= t && self.available(r) && busy < nodes
            });
            let Some(index) = due.min_by_key(|(_, j)| (j.start, j.seq)).map(|(index, _)| index) else {
                return;
            };
            let now = self.now;
            let Some(j) = self.jobs.get_mut(index) else { return };
            j.running = true;
            j.start = j.start.max(now);
            let (job, at, r) = (j.job, j.start, usize::from(j.resource));
            if let Some(count) = self.running.get_mut(r) {
                *count = count.saturating_add(1);
            }
            sink(Decision::Start { t: at, job });
        }
    }
}

/// Eq. 1 in thousandths: `(window - estimate) * 1000 / estimate`, saturating.
pub fn laxity_milli(job: &Job) -> u64 {
    let window = job.deadline.saturating_sub(job.ready);
    let spare = window.saturating_sub(job.estimate);
    spare.saturating_mul(1000).checked_div(job.estimate).unwrap_or(u64::MAX)
}

/// Where a new SLA may be placed (the paper's Figure 3, steps 1, 2-3 and 5).
const fn admission_scopes(policy: Policy, tier: Tier) -> Scopes {
    if !policy.tiered() {
        return [Some(Scope::Any), None];
    }
    match tier {
        Tier::Gold => [Some(Scope::Only(Group::High)), None],
        Tier::Silver => [Some(Scope::Only(Group::High)), Some(Scope::Only(Group::Low))],
        Tier::Bronze => [Some(Scope::Only(Group::Low)), None],
    }
}

/// Where an accepted job on a resource of `group` may be moved or re-placed (Figure 3,
/// steps 4a-4c and 6): Gold never; Silver from high-confidence to high- or
/// low-confidence, from low-confidence only to low-confidence; Bronze only among
/// low-confidence ones. Without tiers, anywhere.
const fn move_scopes(policy: Policy, tier: Tier, group: Group) -> Scopes {
    if !policy.tiered() {
        return [Some(Scope::Any), None];
    }
    match (tier, group) {
        (Tier::Gold, _) => [None, None],
        (Tier::Silver, Group::High) => [Some(Scope::Only(Group::High)), Some(Scope::Only(Group::Low))],
        (Tier::Silver, Group::Low) | (Tier::Bronze, _) => [Some(Scope::Only(Group::Low)), None],
    }
}

fn as_place(job: &Job) -> Place {
    Place {
        resource: job.resource,
        start: job.start,
        estimate: job.estimate,
        first_slot: job.first_slot,
        slots: job.slots,
    }
}

/// `job` as if it held `place` (to release the new job's trial slots).
fn job_at(job: &Job, place: &Place) -> Job {
    let mut j = *job;
    set_place(&mut j, place);
    j
}

fn set_place(job: &mut Job, place: &Place) {
    job.resource = place.resource;
    job.start = place.start;
    job.estimate = place.estimate;
    job.first_slot = place.first_slot;
    job.slots = place.slots;
}
