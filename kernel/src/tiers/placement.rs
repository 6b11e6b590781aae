//! Placement in the calendars: the earliest slot-aligned start of a job inside its
//! window over the available resources of a scope (ties to the lowest index), and
//! holding and giving back a job's slots.

use super::job::{Job, Place, Scope, Scopes};
use super::kernel::TiersKernel;
use super::types::Resource;
use crate::calendar::Slot;
use crate::types::Tick;

impl<const R: usize, const H: usize, const J: usize> TiersKernel<R, H, J> {
    /// The earliest placement of `work` in `[max(now, ready), deadline]` on an
    /// available resource of the first scope that has one; ties to the lowest index.
    pub(super) fn place(&mut self, work: Tick, ready: Tick, deadline: Tick, scopes: Scopes) -> Option<Place> {
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
                // Only a start before the best so far can win (ties go to the lower
                // index), so the search stops short of the best's slot.
                let before = best.map(|b| b.first_slot);
                let found = self.place_on(index, &resource, work, (ready, deadline), before);
                if let Some(place) = found.filter(|p| best.is_none_or(|b| p.start < b.start)) {
                    best = Some(place);
                }
            }
            best
        })
    }

    /// The earliest placement on resource `index` in the window, starting before slot
    /// `before` if given.
    fn place_on(
        &mut self,
        index: usize,
        resource: &Resource,
        work: Tick,
        (ready, deadline): (Tick, Tick),
        before: Option<Slot>,
    ) -> Option<Place> {
        let estimate = resource.estimate(work)?;
        let latest = deadline.checked_sub(estimate)?;
        let first = self.slot.slot_at_or_after(ready.max(self.now));
        let mut last = self.slot.slot_of(latest);
        if let Some(before) = before {
            last = last.min(before.checked_sub(1)?);
        }
        if first > last {
            return None;
        }
        let (_, slots) = self.slot.span(0, estimate);
        self.reach(index, last.saturating_add(slots));
        let slot = self.calendars.get(index)?.earliest(first, last, 1, slots).ok()?;
        Some(Place {
            resource: u8::try_from(index).ok()?,
            start: self.slot.start_of(slot)?,
            estimate,
            first_slot: slot,
            slots,
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
        }
    }

    /// Gives back `(first, n)` slots of resource `r` (nothing when `n` is 0); the
    /// caller knows they are held.
    pub(super) fn give_back(&mut self, r: u8, (first, n): (Slot, u64)) {
        if let Some(calendar) = self.calendars.get_mut(usize::from(r)).filter(|_| n > 0) {
            let _ = calendar.release(first, n, 1);
        }
    }
}
