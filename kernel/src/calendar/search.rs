//! The calendar's searches: the earliest start of a run of `n` slots with `nodes`
//! free, at any slot ([`Calendar::earliest`]) or on a progression of every `step`-th
//! slot ([`Calendar::earliest_stepped`]). Each is a walk from obstacle to obstacle:
//! the last slot short of room in a candidate's run, then the first slot with room
//! after it, each found a block at a time (see `blocks.rs`), so the cost grows with
//! the number of obstacles met, and with the slots between them only by one word per
//! 64.

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
        // `a <= last` and `last + n <= end`, so every run read is inside the horizon.
        let mut a = from;
        if nodes == 1 && n <= 64 {
            match self.earliest_one(from, last, n) {
                Ok(found) => return found.ok_or(CalendarError::NoRoom),
                // The rest wraps the ring: the general walk takes it from there.
                Err(at) => a = at,
            }
        }
        loop {
            let Some(short) = self.last_short(a, a.saturating_add(n), nodes) else {
                return Ok(a);
            };
            // Every start up to `short` meets it; the next candidate is the first slot
            // after it with room.
            a = self
                .first_room(short.saturating_add(1), last.saturating_add(1), nodes)
                .ok_or(CalendarError::NoRoom)?;
        }
    }

    /// The earliest slot `a = from + k * step` (`k >= 0`) with `a <= to` such that the
    /// `n` slots `a .. a + n` lie in the horizon and each has at least `nodes` free:
    /// [`Calendar::earliest`] restricted to every `step`-th start. Starts of the
    /// progression before the horizon are skipped, starts whose run would end past it
    /// are not considered. `OutOfHorizon` when no start of the progression in `[from,
    /// to]` has its run inside the horizon, `NoRoom` when some has and none fits.
    ///
    /// A slot short of `nodes` in a candidate's run rules out every candidate up to
    /// it and up to the first slot with room after it: `O(log H)` per obstacle met.
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
        loop {
            // `start <= last` and `last + n <= end`, so the run is inside the horizon.
            let Some(short) = self.last_short(start, start.saturating_add(n), nodes) else {
                return Ok(start);
            };
            // Every start up to `short` meets it, every start before the first slot
            // with room after it too: the next candidate is the first start of the
            // progression at or after that slot.
            let room = self.first_room(short.saturating_add(1), last.saturating_add(1), nodes);
            let gap = room.ok_or(CalendarError::NoRoom)?.saturating_sub(start);
            let skip = match (gap.checked_div(step), gap.checked_rem(step)) {
                (Some(q), Some(0)) => q,
                (Some(q), _) => q.saturating_add(1),
                (None, _) => return Err(CalendarError::NoRoom),
            };
            start = match skip.checked_mul(step).and_then(|d| start.checked_add(d)) {
                Some(next) if next <= last => next,
                _ => return Err(CalendarError::NoRoom),
            };
        }
    }

    /// [`Calendar::earliest`] of a run of `n <= 64` slots with one free, read 128
    /// slots at a time from the room masks: `Ok` the answer (`None`: no room), or
    /// `Err` the candidate from which the slots read would wrap the ring.
    fn earliest_one(&self, from: Slot, last: Slot, n: u64) -> Result<Option<Slot>, Slot> {
        let mut a = from;
        loop {
            let bits = Self::position(a).and_then(|p| self.free.room_window(p)).ok_or(a)?;
            // The candidates `a ..= a + span - 1` whose runs lie in the bits read.
            let span = last.saturating_sub(a).min(128u64.saturating_sub(n)).saturating_add(1);
            let starts = runs(bits, n) & low_bits(span);
            if starts != 0 {
                return Ok(Some(a.saturating_add(u64::from(starts.trailing_zeros()))));
            }
            let next = a.saturating_add(span);
            if next > last {
                return Ok(None);
            }
            // A start needs room at its own slot.
            match self.first_room(next, last.saturating_add(1), 1) {
                Some(room) => a = room,
                None => return Ok(None),
            }
        }
    }

    /// The last slot in `[low, high)` with fewer than `nodes` free. The range must lie
    /// in the horizon; were it not, its last slot would count as short.
    fn last_short(&self, low: Slot, high: Slot, nodes: u32) -> Option<Slot> {
        let Ok((first, second)) = self.ranges(low, high.saturating_sub(low)) else {
            return Some(high.saturating_sub(1));
        };
        // The second range holds the later slots, those after the first range's.
        let after = u64::try_from(first.len()).ok()?;
        let later = self.free.last_below(second.start, second.end, nodes);
        let later =
            later.and_then(|p| u64::try_from(p).ok()).map(|p| low.saturating_add(after).saturating_add(p));
        later.or_else(|| {
            let p = self.free.last_below(first.start, first.end, nodes)?;
            Some(low.saturating_add(u64::try_from(p.checked_sub(first.start)?).ok()?))
        })
    }

    /// The first slot in `[low, high)` with at least `nodes` free, under the same
    /// terms as [`Self::last_short`].
    fn first_room(&self, low: Slot, high: Slot, nodes: u32) -> Option<Slot> {
        let (first, second) = self.ranges(low, high.checked_sub(low)?).ok()?;
        let after = u64::try_from(first.len()).ok()?;
        if let Some(p) = self.free.first_at_least(first.start, first.end, nodes) {
            return Some(low.saturating_add(u64::try_from(p.checked_sub(first.start)?).ok()?));
        }
        let p = self.free.first_at_least(second.start, second.end, nodes)?;
        Some(low.saturating_add(after).saturating_add(u64::try_from(p).ok()?))
    }
}

/// Bit `k` set when bits `k .. k + n` of `bits` are all set (`1 <= n <= 64`).
#[inline]
fn runs(bits: u128, n: u64) -> u128 {
    let (mut starts, mut have) = (bits, 1u32);
    let n = u32::try_from(n).unwrap_or(64).min(64);
    while have < n {
        // Runs of `have` at `k` and at `k + step` make a run of `have + step` at `k`;
        // `step < 64`, so the shift is exact.
        let step = have.min(n.saturating_sub(have));
        starts &= starts.wrapping_shr(step);
        have = have.saturating_add(step);
    }
    starts
}

/// The lowest `k` bits (all of them from 128 on).
#[inline]
fn low_bits(k: u64) -> u128 {
    u32::try_from(k).ok().and_then(|k| 1u128.checked_shl(k)).map_or(u128::MAX, |bit| bit.wrapping_sub(1))
}
