//! The tiers kernel: resources in two groups, one slot calendar each, and the accepted
//! jobs, driven one event at a time.

use heapless::Vec;

use super::event::{Decision, Event, Outcome, Request, Violation};
use super::frees::Frees;
use super::job::{Job, admission_scopes};
use super::known::Known;
use super::table::Table;
use super::types::{Config, ConfigError, RejectReason, Resource, Tier};
use crate::calendar::{Calendar, Slot, SlotLength};
use crate::contract;
use crate::types::{JobId, Tick};

/// The tiers kernel: up to `R` resources, `H` calendar slots each, `J` accepted
/// unfinished jobs. See the [module documentation](super).
///
/// Equality compares what the kernel will decide from: the calendars by their free
/// capacities from the present's slot on (a calendar not yet brought to the present
/// reads as if it were), the rest field by field.
#[derive(Clone, Debug)]
pub struct TiersKernel<const R: usize, const H: usize, const J: usize> {
    pub(super) config: Config,
    pub(super) slot: SlotLength,
    pub(super) resources: Vec<Resource, R>,
    pub(super) calendars: [Calendar<H>; R],
    pub(super) available: [bool; R],
    /// Jobs running on each resource (at most its nodes, by construction).
    pub(super) running: [u32; R],
    /// In acceptance order.
    pub(super) jobs: Table<R, J>,
    pub(super) now: Tick,
    pub(super) next_seq: u64,
    /// Before this instant no waiting job can start, unless a node is freed (see
    /// `start.rs`); `None`: unknown.
    pub(super) quiet: Option<Tick>,
    /// Where room was freed lately, for rescheduling's memo (see `frees.rs`).
    pub(super) frees: Frees,
    /// What the searches of each calendar have shown (see `known.rs`).
    pub(super) known: Known<R>,
}

impl<const R: usize, const H: usize, const J: usize> contract::Kernel for TiersKernel<R, H, J> {
    #[cfg(debug_assertions)]
    fn check_invariants(&self) {
        self.assert_invariants();
    }

    const MODEL: &'static str = "tiers";
    type Config = Config;
    type Event = Event;
    type Decision = Decision;
    type Outcome = Outcome;
    const CAPACITIES: &'static [(&'static str, usize)] =
        &[("resources (R)", R), ("calendar slots (H)", H), ("jobs (J)", J)];

    fn config(&self) -> &Config {
        &self.config
    }

    fn dispatch<S: FnMut(Decision) + ?Sized>(&mut self, event: Event, sink: &mut S) -> Outcome {
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
                self.quiet = None;
                self.frees = Frees::new();
                self.known.clear();
                Outcome::Reset
            }
        }
    }
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
            jobs: Table::new(),
            now: 0,
            next_seq: 0,
            quiet: None,
            frees: Frees::new(),
            known: Known::new(),
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
        self.jobs.as_slice()
    }

    pub const fn now(&self) -> Tick {
        self.now
    }

    /// Whether resource `r` is present (not left).
    pub fn available(&self, r: usize) -> bool {
        r < self.resources.len() && self.available.get(r).copied().unwrap_or(false)
    }

    /// The calendar of resource `r`: a calendar is brought to the present only when a
    /// placement or a hold needs a slot past its horizon, so its horizon may start
    /// before the present's slot (the slots in between hold nothing that matters: they
    /// are forgotten when it next moves).
    pub fn calendar(&self, r: usize) -> Option<&Calendar<H>> {
        self.calendars.get(r).filter(|_| r < self.resources.len())
    }

    /// The next instant at which a waiting job is due to start, if any: the host sends
    /// an [`Event::Advance`] then (or an earlier event), so that starts are on time.
    /// It takes `&mut self` to keep its answer: a host asks after every step, and the
    /// answer changes only when a change takes the earliest start away (`waits.rs`).
    pub fn poll_at(&mut self) -> Option<Tick> {
        self.jobs.next_wait_after(self.now)
    }

    /// [`contract::Kernel::step`], callable without the trait in scope.
    pub fn step<S: FnMut(Decision) + ?Sized>(&mut self, event: Event, sink: &mut S) -> Outcome {
        contract::Kernel::step(self, event, sink)
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
        if self.jobs.holds(job) {
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

    fn finish<S: FnMut(Decision) + ?Sized>(&mut self, t: Tick, job: JobId, sink: &mut S) -> Outcome {
        self.advance(t, sink);
        let Some(index) = self.jobs.find(job).filter(|&i| self.jobs.get(i).is_some_and(|j| j.running)) else {
            return Outcome::Refused(RejectReason::NotRunning);
        };
        let Some(done) = self.jobs.remove(index) else {
            return Outcome::Refused(RejectReason::NotRunning);
        };
        if let Some(count) = self.running.get_mut(usize::from(done.resource)) {
            *count = count.saturating_sub(1);
        }
        // A node is free again: a waiting job may start on it.
        self.quiet = None;
        self.release(&done, self.slot.slot_at_or_after(t));
        let late = done.tier.has_deadline() && t > done.deadline;
        sink(Decision::End { t, job, late });
        self.start_due(t, sink);
        Outcome::Finished
    }

    /// Brings the kernel to `t`: due starts, then the deadlines passed before `t`.
    pub(super) fn advance<S: FnMut(Decision) + ?Sized>(&mut self, t: Tick, sink: &mut S) {
        self.start_due(t, sink);
        while let Some(index) = self.jobs.first_late(t) {
            let Some(late) = self.jobs.edit(index, |j| {
                j.violated = true;
                Decision::Violate { t: j.deadline, job: j.job, why: Violation::Late }
            }) else {
                break;
            };
            sink(late);
        }
        // The calendars follow lazily: each is brought to the present only when a use
        // needs a slot past its horizon ([`Self::reach`]).
        self.now = t;
    }

    /// Makes the horizon of resource `r`'s calendar reach slot `end - 1`: when it ends
    /// before, the calendar is brought to the present (the slots before the present's
    /// are forgotten, as many new ones enter free). Every use reads and writes only
    /// slots from the present's on, which a calendar holds the same however far
    /// behind its base is; so a calendar moved only when a use needs a later slot
    /// than it holds reads as if every event had moved it.
    pub(super) fn reach(&mut self, r: usize, end: Slot) {
        if let Some(c) = self.calendars.get_mut(r).filter(|c| r < self.resources.len() && c.end() < end) {
            c.advance_to(self.slot.slot_of(self.now));
        }
    }
}

impl<const R: usize, const H: usize, const J: usize> PartialEq for TiersKernel<R, H, J> {
    fn eq(&self, other: &Self) -> bool {
        let same = self.config == other.config
            && self.slot == other.slot
            && self.resources == other.resources
            && self.available == other.available
            && self.running == other.running
            && self.jobs == other.jobs
            && self.now == other.now
            && self.next_seq == other.next_seq;
        same && (0..R).all(|r| self.present_free(r).eq(other.present_free(r)))
    }
}

impl<const R: usize, const H: usize, const J: usize> Eq for TiersKernel<R, H, J> {}

impl<const R: usize, const H: usize, const J: usize> TiersKernel<R, H, J> {
    /// The free capacity of each slot of resource `r`'s horizon from the present's
    /// slot, as its calendar will hold them once brought to the present: a slot past
    /// the calendar's horizon is free.
    fn present_free(&self, r: usize) -> impl Iterator<Item = Option<u32>> + '_ {
        let base = self.slot.slot_of(self.now);
        let calendar = self.calendars.get(r);
        let span = u64::try_from(H).unwrap_or(u64::MAX);
        (base..base.saturating_add(span)).map(move |slot| {
            calendar.map(|c| if slot < c.end() { c.free(slot).unwrap_or(0) } else { c.capacity() })
        })
    }
}
