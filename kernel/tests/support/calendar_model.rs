//! A plain model of the slot calendar, shared by `calendar.rs` and the
//! `calendar` fuzz target (which includes this file by path): one `u32` per absolute
//! slot, no ring, every query answered by brute force.

use kernel::calendar::{CalendarError, Slot};

/// The plain model: absolute slots, no ring.
pub struct CalendarModel {
    pub free: Vec<u32>,
    pub base: Slot,
    pub capacity: u32,
    /// Slots in the calendar being modelled (its `H`).
    pub horizon: u64,
}

impl CalendarModel {
    /// `span` slots from 0, all free, for a calendar of `horizon` slots.
    pub fn new(capacity: u32, horizon: usize, span: usize) -> Self {
        Self { free: vec![capacity; span], base: 0, capacity, horizon: horizon as u64 }
    }

    pub fn end(&self) -> Slot {
        self.base + self.horizon
    }

    pub fn free(&self, slot: Slot) -> Option<u32> {
        (slot >= self.base && slot < self.end()).then(|| self.free[slot as usize])
    }

    fn bad(&self, nodes: u32, n: u64) -> bool {
        nodes == 0 || nodes > self.capacity || n == 0
    }

    fn inside(&self, first: Slot, n: u64) -> bool {
        first >= self.base && first + n <= self.end()
    }

    pub fn earliest(&self, from: Slot, to: Slot, nodes: u32, n: u64) -> Result<Slot, CalendarError> {
        if self.bad(nodes, n) || from > to {
            return Err(CalendarError::BadRequest);
        }
        let lo = from.max(self.base);
        if self.end() < n || lo > to.min(self.end() - n) {
            return Err(CalendarError::OutOfHorizon);
        }
        let hi = to.min(self.end() - n);
        (lo..=hi).find(|&s| (s..s + n).all(|a| self.free[a as usize] >= nodes)).ok_or(CalendarError::NoRoom)
    }

    /// Every `step`-th start from `from`, brute force: the progression's starts in
    /// `[from, to]` whose run lies in the horizon, the first that fits.
    #[allow(dead_code)] // The calendar fuzz target does not search by steps.
    pub fn earliest_stepped(
        &self,
        from: Slot,
        to: Slot,
        step: u64,
        nodes: u32,
        n: u64,
    ) -> Result<Slot, CalendarError> {
        if self.bad(nodes, n) || from > to || step == 0 {
            return Err(CalendarError::BadRequest);
        }
        let inside: Vec<Slot> =
            (0..).map(|k| from + k * step).take_while(|&s| s <= to).filter(|&s| self.inside(s, n)).collect();
        if inside.is_empty() {
            return Err(CalendarError::OutOfHorizon);
        }
        inside
            .into_iter()
            .find(|&s| (s..s + n).all(|a| self.free[a as usize] >= nodes))
            .ok_or(CalendarError::NoRoom)
    }

    pub fn reserve(&mut self, first: Slot, n: u64, nodes: u32) -> Result<(), CalendarError> {
        if self.bad(nodes, n) {
            return Err(CalendarError::BadRequest);
        }
        if !self.inside(first, n) {
            return Err(CalendarError::OutOfHorizon);
        }
        if (first..first + n).any(|a| self.free[a as usize] < nodes) {
            return Err(CalendarError::NoRoom);
        }
        (first..first + n).for_each(|a| self.free[a as usize] -= nodes);
        Ok(())
    }

    pub fn release(&mut self, first: Slot, n: u64, nodes: u32) -> Result<(), CalendarError> {
        if self.bad(nodes, n) {
            return Err(CalendarError::BadRequest);
        }
        if !self.inside(first, n) {
            return Err(CalendarError::OutOfHorizon);
        }
        if (first..first + n).any(|a| self.capacity - self.free[a as usize] < nodes) {
            return Err(CalendarError::OverRelease);
        }
        (first..first + n).for_each(|a| self.free[a as usize] += nodes);
        Ok(())
    }
}
