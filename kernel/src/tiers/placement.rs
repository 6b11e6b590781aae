//! Placement in the calendars: the earliest slot-aligned start of a job inside its
//! window over the available resources of a scope (ties to the lowest index), and
//! holding and giving back a job's slots. Each resource is searched only for a start
//! before the best found so far on the resources before it (ties go to the lower index).

use super::job::{Job, Place, Scope, Scopes};
use super::kernel::TiersKernel;
use super::types::Resource;
use crate::calendar::Slot;
use crate::types::Tick;

/// What a job needs on a resource: its estimate there, the last slot it may start
/// at to end by its deadline, and the slots it holds.
#[derive(Clone, Copy)]
struct Need {
    estimate: Tick,
    last: Slot,
    slots: u64,
}

impl<const R: usize, const H: usize, const J: usize> TiersKernel<R, H, J> {
    /// The earliest placement of `work` in `[max(now, ready), deadline]` on an
    /// available resource of the first scope that has one; ties to the lowest index.
    pub(super) fn place(&mut self, work: Tick, ready: Tick, deadline: Tick, scopes: Scopes) -> Option<Place> {
        // The first slot a start may take is the same on every resource; what the job
        // needs is the same on resources of one speed (every desktop, often).
        let first = self.slot.slot_at_or_after(ready.max(self.now));
        let mut need: Option<(u32, Option<Need>)> = None;
        scopes.into_iter().flatten().find_map(|scope| {
            let mut best: Option<Place> = None;
            for index in 0..self.resources.len() {
                let resource = *self.resources.get(index)?;
                let inside = match scope {
                    Scope::Any => true,
                    Scope::Only(group) => resource.group == group,
                };
                if !inside || !self.available(index) {
                    continue;
                }
                let fit = match need {
                    Some((speed, fit)) if speed == resource.speed_milli => fit,
                    _ => need.insert((resource.speed_milli, self.need(&resource, work, deadline))).1,
                };
                let Some(fit) = fit else { continue };
                // Only a start before the best so far can win (ties go to the lower
                // index), so the search stops short of the best's slot.
                let before = best.map(|b| b.first_slot);
                let found = self.place_on(index, first, fit, before);
                if let Some(place) = found.filter(|p| best.is_none_or(|b| p.start < b.start)) {
                    best = Some(place);
                }
            }
            best
        })
    }

    /// What `work` due by `deadline` needs on `resource`; `None` when it cannot end
    /// by then.
    fn need(&self, resource: &Resource, work: Tick, deadline: Tick) -> Option<Need> {
        let (estimate, slots) = self.run_on(resource, work)?;
        let latest = deadline.checked_sub(estimate)?;
        Some(Need { estimate, last: self.slot.slot_of(latest), slots })
    }

    /// A job of `work` on `resource`: its estimate there and the slots it holds.
    pub(super) fn run_on(&self, resource: &Resource, work: Tick) -> Option<(Tick, u64)> {
        let estimate = resource.estimate(work)?;
        Some((estimate, self.slot.span(0, estimate).1))
    }

    /// The earliest placement on resource `index` from slot `first` of a job that
    /// needs `need`, starting before slot `before` if given.
    fn place_on(&mut self, index: usize, first: Slot, need: Need, before: Option<Slot>) -> Option<Place> {
        let last = match before {
            Some(before) => need.last.min(before.checked_sub(1)?),
            None => need.last,
        };
        if first > last {
            return None;
        }
        self.reach(index, last.saturating_add(need.slots));
        let calendar = self.calendars.get(index)?;
        let n = need.slots;
        // Starts whose run would end in a stretch known to hold none are not tried
        // (see `known.rs`); what this search shows is learnt.
        let from = self.known.skip(index, first, n);
        let found = if from > last { None } else { calendar.earliest(from, last, 1, n).ok() };
        let (low, end) = (first.max(calendar.base()), calendar.end());
        let high =
            found.map_or(last.saturating_add(n).min(end), |slot| slot.saturating_add(n).saturating_sub(1));
        self.known.learn(index, low, n, high);
        let slot = found?;
        Some(Place {
            resource: u8::try_from(index).ok()?,
            start: self.slot.start_of(slot)?,
            estimate: need.estimate,
            first_slot: slot,
            slots: need.slots,
        })
    }

    pub(super) fn hold(&mut self, place: &Place) -> Result<(), ()> {
        self.reach(usize::from(place.resource), place.first_slot.saturating_add(place.slots));
        let calendar = self.calendars.get_mut(usize::from(place.resource)).ok_or(())?;
        calendar.reserve(place.first_slot, place.slots, 1).map_err(|_| ())
    }

    /// Gives back the slots of `job` from `from_slot` on (clipped to the horizon).
    pub(super) fn release(&mut self, job: &Job, from_slot: Slot) {
        // A job's slots lie in the horizon it was held in, which only moves on; the
        // slots before the present's may be released or not, as nothing reads them.
        let Some(calendar) = self.calendars.get_mut(usize::from(job.resource)) else { return };
        let low = job.first_slot.max(from_slot).max(calendar.base());
        let high = job.first_slot.saturating_add(job.slots).min(calendar.end());
        if low < high {
            // Every slot of a job's run is held until released here, so this succeeds.
            let _ = calendar.release(low, high.saturating_sub(low), 1);
            self.frees.log(low, high);
            self.known.forget(usize::from(job.resource));
        }
    }

    /// Gives back `(first, n)` slots of resource `r` (nothing when `n` is 0); the
    /// caller knows they are held.
    pub(super) fn give_back(&mut self, r: u8, (first, n): (Slot, u64)) {
        if let Some(calendar) = self.calendars.get_mut(usize::from(r)).filter(|_| n > 0) {
            let _ = calendar.release(first, n, 1);
            self.known.forget(usize::from(r));
        }
    }
}
