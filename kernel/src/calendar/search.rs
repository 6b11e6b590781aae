//! The calendar's searches: the earliest start of a run of `n` slots with `nodes`
//! free, at any slot ([`Calendar::earliest`]) or on a progression of every `step`-th
//! slot ([`Calendar::earliest_stepped`]), each a single pass over the ring.

use super::{Calendar, CalendarError, Slot};

impl<const H: usize> Calendar<H> {
    /// The earliest slot `a` in `[from, to]` such that the `n` slots `a .. a + n` lie in
    /// the horizon and each has at least `nodes` free. Starts before the horizon are not
    /// considered; starts whose run would end past it neither.
    pub fn earliest(&self, from: Slot, to: Slot, nodes: u32, n: u64) -> Result<Slot, CalendarError> {
        self.check(nodes, n)?;
        if from > to {
            return Err(CalendarError::BadRequest);
        }
        let from = from.max(self.base);
        let last = self.end().checked_sub(n).ok_or(CalendarError::OutOfHorizon)?.min(to);
        if from > last {
            return Err(CalendarError::OutOfHorizon);
        }
        // `from <= last` and `last + n <= end`, so the scan stays inside the horizon.
        let scan = last.saturating_sub(from).saturating_add(n);
        let (first, second) = self.ranges(from, scan)?;
        let slots =
            self.free.get(first).into_iter().flatten().chain(self.free.get(second).into_iter().flatten());
        let mut run: u64 = 0;
        for (slot, &free) in (from..).zip(slots) {
            if free < nodes {
                run = 0;
                continue;
            }
            run = run.saturating_add(1);
            if run >= n {
                // `slot + 1 >= n` because the run of `n` slots ends at `slot`.
                return Ok(slot.saturating_add(1).saturating_sub(n));
            }
        }
        Err(CalendarError::NoRoom)
    }

    /// The earliest slot `a = from + k * step` (`k >= 0`) with `a <= to` such that the
    /// `n` slots `a .. a + n` lie in the horizon and each has at least `nodes` free:
    /// [`Calendar::earliest`] restricted to every `step`-th start. Starts of the
    /// progression before the horizon are skipped, starts whose run would end past it
    /// are not considered. `OutOfHorizon` when no start of the progression in `[from,
    /// to]` has its run inside the horizon, `NoRoom` when some has and none fits.
    ///
    /// Each candidate's run is read from its last slot backwards; a slot short of
    /// `nodes` rules out every candidate up to it, and the slots read after it are
    /// known to be free enough, so no slot is read twice: `O(min(to - from + n, H))`.
    pub fn earliest_stepped(
        &self,
        from: Slot,
        to: Slot,
        step: u64,
        nodes: u32,
        n: u64,
    ) -> Result<Slot, CalendarError> {
        self.check(nodes, n)?;
        if from > to || step == 0 {
            return Err(CalendarError::BadRequest);
        }
        let mut start = if from >= self.base {
            from
        } else {
            let gap = self.base.saturating_sub(from);
            let behind = match (gap.checked_div(step), gap.checked_rem(step)) {
                (Some(q), Some(0)) => q,
                (Some(q), _) => q.saturating_add(1),
                (None, _) => return Err(CalendarError::BadRequest),
            };
            behind.checked_mul(step).and_then(|d| from.checked_add(d)).ok_or(CalendarError::OutOfHorizon)?
        };
        let last = self.end().checked_sub(n).ok_or(CalendarError::OutOfHorizon)?.min(to);
        if start > last {
            return Err(CalendarError::OutOfHorizon);
        }
        // The slots `[good_from, good_to)` are known to have `nodes` free.
        let (mut good_from, mut good_to) = (0, 0);
        loop {
            // `start <= last` and `last + n <= end`, so the run is inside the horizon.
            let run_end = start.saturating_add(n);
            let low = if good_from <= start && start < good_to { good_to } else { start };
            match self.last_short(low, run_end, nodes) {
                None => return Ok(start),
                Some(short) => {
                    (good_from, good_to) = (short.saturating_add(1), run_end);
                    // The first start of the progression past `short`.
                    let skip = short.saturating_sub(start).checked_div(step).unwrap_or(0).saturating_add(1);
                    start = match skip.checked_mul(step).and_then(|d| start.checked_add(d)) {
                        Some(next) if next <= last => next,
                        _ => return Err(CalendarError::NoRoom),
                    };
                }
            }
        }
    }

    /// The last slot in `[low, high)` with fewer than `nodes` free, reading from the
    /// end. The range must lie in the horizon; slots outside it count as short.
    fn last_short(&self, low: Slot, high: Slot, nodes: u32) -> Option<Slot> {
        let mut slot = high;
        while slot > low {
            slot = slot.saturating_sub(1);
            let free = Self::position(slot).and_then(|p| self.free.get(p)).copied().unwrap_or(0);
            if free < nodes {
                return Some(slot);
            }
        }
        None
    }
}
