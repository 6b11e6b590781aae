//! What holds of the kernel after every `step` (see the module documentation,
//! "Invariants"), asserted in debug builds so that the tests and the fuzz targets
//! check it; release builds do not compile it.

use super::ReservationKernel;
use super::due::earliest_due;
use crate::calendar::Slot;
use crate::types::Tick;

/// Above this many reservations the calendar's count is checked at the new and the
/// last waiting reservation only: the count is `O(n^2)`.
const COUNT_ALL: usize = 64;

impl<const H: usize, const W: usize, const RUN: usize, const OFFERS: usize>
    ReservationKernel<H, W, RUN, OFFERS>
{
    /// `O(W + RUN)`, plus the calendar's count (see [`COUNT_ALL`]).
    pub(super) fn assert_invariants(&self) {
        let (now, nodes) = (self.now, self.config.nodes);
        let waiting = self.plan.waiting();
        for r in waiting {
            debug_assert!(r.nodes > 0 && r.nodes <= nodes && r.estimate > 0, "job {}: bad size", r.job);
            debug_assert!(r.ready <= r.start && r.end() <= r.deadline, "job {}: outside its window", r.job);
            debug_assert!(r.start > now, "job {}: waits past its start", r.job);
            debug_assert!(r.seq < self.next_seq, "job {}: numbered ahead", r.job);
            // Frozen only once its moment has come; a pending fix is still ahead.
            let fix_ahead = r.fixed || r.fix_at >= r.start || r.fix_at > now;
            debug_assert!(fix_ahead && (!r.fixed || r.fix_at <= now), "job {}: fixed out of time", r.job);
        }
        debug_assert!(waiting.windows(2).all(|w| w.first().map(|a| a.seq) < w.last().map(|b| b.seq)));
        let mut busy: u32 = 0;
        for r in self.plan.running() {
            debug_assert!(r.start <= now && now <= r.end, "job {}: runs outside its reservation", r.job);
            if r.end > now {
                busy = busy.saturating_add(r.nodes);
            }
        }
        debug_assert!(busy <= nodes, "{busy} nodes busy of {nodes}");
        debug_assert_eq!(self.due, earliest_due(&self.plan), "the kept due instant is stale");
        let calendar = self.plan.calendar();
        debug_assert!(calendar.within_capacity(), "a slot has more than the pool free");
        debug_assert_eq!(calendar.base(), self.plan.slot().slot_of(now), "the horizon is not at now");
        let count = waiting.len().saturating_add(self.plan.running().len());
        let checked = if count <= COUNT_ALL {
            waiting
        } else {
            waiting.get(waiting.len().saturating_sub(1)..).unwrap_or(&[])
        };
        for slot in checked.iter().map(|r| self.plan.slot().slot_of(r.start)) {
            self.check_count(slot);
        }
        if count <= COUNT_ALL {
            for r in self.plan.running() {
                self.check_count(self.plan.slot().slot_of(r.start).max(calendar.base()));
            }
        }
    }

    /// The calendar's free nodes at `slot` are the pool less what the reservations
    /// that overlap it hold; in the present's slot, an early finish may have left
    /// its slot held to its end.
    fn check_count(&self, slot: Slot) {
        let Some(free) = self.plan.calendar().free(slot) else { return };
        let span = |s: Tick, e: Tick| self.plan.slot().span(s, e);
        let covers = |(first, n): (Slot, u64)| first <= slot && slot < first.saturating_add(n);
        let waiting = self.plan.waiting().iter().filter(|r| covers(span(r.start, r.end()))).map(|r| r.nodes);
        let running = self.plan.running().iter().filter(|r| covers(span(r.start, r.end))).map(|r| r.nodes);
        let held = waiting.chain(running).fold(0u32, u32::saturating_add);
        let expected = self.config.nodes.saturating_sub(held);
        if slot == self.plan.calendar().base() {
            debug_assert!(free <= expected, "slot {slot}: {free} free, at most {expected} expected");
        } else {
            debug_assert_eq!(free, expected, "slot {slot}: the calendar disagrees with the reservations");
        }
    }
}
