//! What holds of the kernel after every `step` (see the module documentation,
//! "Invariants"), asserted in debug builds so that the tests and the fuzz targets
//! check it; release builds do not compile it.

use super::kernel::TiersKernel;
use crate::calendar::Slot;

/// Above this many jobs the calendars' counts are checked at the last job only: the
/// count is `O(J^2)`.
const COUNT_ALL: usize = 64;

impl<const R: usize, const H: usize, const J: usize> TiersKernel<R, H, J> {
    /// `O(J + R)`, plus the calendars' counts (see [`COUNT_ALL`]).
    pub(super) fn assert_invariants(&self) {
        let jobs = self.jobs.as_slice();
        debug_assert!(self.jobs.consistent(), "the job table's side arrays are stale");
        debug_assert!(jobs.windows(2).all(|w| w.first().map(|a| a.seq) < w.last().map(|b| b.seq)));
        for j in jobs {
            let r = usize::from(j.resource);
            debug_assert!(self.available(r), "job {}: on resource {r}, absent", j.job);
            debug_assert!(j.seq < self.next_seq, "job {}: numbered ahead", j.job);
            // A waiting job keeps its planned start, inside its window; a running one
            // started by now.
            let inside = j.ready <= j.start && j.start.saturating_add(j.estimate) <= j.deadline;
            debug_assert!(j.running || inside, "job {}: planned outside its window", j.job);
            debug_assert!(!j.running || j.start <= self.now, "job {}: runs before its start", j.job);
            debug_assert!(j.slots > 0, "job {}: holds no slots", j.job);
        }
        for (r, resource) in self.resources.iter().enumerate() {
            let on = jobs.iter().filter(|j| j.running && usize::from(j.resource) == r).count();
            let running = self.running.get(r).copied().unwrap_or(0);
            debug_assert_eq!(usize::try_from(running).ok(), Some(on), "resource {r}: running count");
            debug_assert!(running <= resource.nodes, "resource {r}: more jobs running than nodes");
            let within = self.calendars.get(r).is_some_and(|c| c.within_capacity());
            debug_assert!(within, "resource {r}: a slot has more than its nodes free");
        }
        let checked = if jobs.len() <= COUNT_ALL {
            jobs
        } else {
            jobs.get(jobs.len().saturating_sub(1)..).unwrap_or(&[])
        };
        let present = self.slot.slot_of(self.now);
        for j in checked {
            self.check_count(usize::from(j.resource), j.first_slot.max(present), present);
        }
    }

    /// Resource `r`'s calendar's free nodes at `slot` (from the present's, `present`,
    /// on) are its nodes less the jobs holding it; in the present's slot, a finish may
    /// have left its slot held to its end.
    fn check_count(&self, r: usize, slot: Slot, present: Slot) {
        let (Some(calendar), Some(resource)) = (self.calendars.get(r), self.resources.get(r)) else { return };
        let Some(free) = calendar.free(slot) else { return };
        let holds = |j: &&super::Job| {
            usize::from(j.resource) == r
                && j.first_slot <= slot
                && slot < j.first_slot.saturating_add(j.slots)
        };
        let held = u32::try_from(self.jobs.as_slice().iter().filter(holds).count()).unwrap_or(u32::MAX);
        let expected = resource.nodes.saturating_sub(held);
        if slot == present {
            debug_assert!(
                free <= expected,
                "resource {r}, slot {slot}: {free} free, at most {expected} expected"
            );
        } else {
            debug_assert_eq!(
                free, expected,
                "resource {r}, slot {slot}: the calendar disagrees with the jobs"
            );
        }
    }
}
