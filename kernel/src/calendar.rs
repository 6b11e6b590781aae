//! The slot calendar: the free capacity of each of `H` time slots, a ring that moves
//! forward with time.
//!
//! # Slots
//! Time is cut into slots of `slot_ticks` ticks; slot `a` (an absolute [`Slot`] number)
//! covers the ticks `[a * slot_ticks, (a + 1) * slot_ticks)`. The calendar knows only
//! slots; the conversion from ticks is [`SlotLength`], and it rounds outwards: a
//! reservation `[s, e)` occupies the slots `floor(s / len) .. ceil(e / len)`, every
//! slot it overlaps, even partly.
//!
//! # The ring
//! The calendar holds the slots `[base, base + H)`, the *horizon*. Slot `a` lives at
//! ring position `a mod H`. Moving the base forward ([`Calendar::advance_to`]) hands
//! the positions of the slots that fell behind to the slots that enter at the far end,
//! with full capacity. Nothing is ever moved in memory.
//!
//! # Storage
//! The free capacities are cut into blocks of 64 slots, each with its minimum, its
//! maximum, an addition owed to all of its slots and a bit a slot for "one free or
//! more" (`calendar/blocks.rs`), in a second `[u32; H]`: 8 bytes a slot instead of 4.
//! A change touches the slots of the blocks a range covers in part and the summary
//! of each block it covers whole; a search skips every block whose minimum or maximum
//! rules it out. A search for one free (`nodes == 1`) reads the bits instead, and a
//! top level of two bits a block (room somewhere, room everywhere) lets it skip 64
//! blocks at a time (`calendar/blocks/room.rs`). With `b = 64`:
//!
//! # Cost per operation
//! | operation | cost |
//! |---|---|
//! | [`Calendar::earliest`] | `O(b + d / b)` per obstacle met, `d` the slots between obstacles: each step finds the last slot short of room in the candidate's run, then the first slot with room after it |
//! | the same with `nodes == 1` | `O(1 + d / 4096)` word operations per obstacle met |
//! | [`Calendar::earliest_stepped`] | the same, the next candidate rounded up to the progression |
//! | [`Calendar::fits`] | `O(b + n / b)` for `n` slots |
//! | [`Calendar::reserve`], [`Calendar::release`] | `O(b + n / b)`: a check, then one range addition |
//! | [`Calendar::advance_to`] | `O(b + k / b)` for `k` slots passed (a block of equal capacities is set in `O(1)`), `O(H)` at worst |
//! | [`Calendar::free`] | `O(1)` |
//! | `==` | `O(H)`: the values are compared, not their storage |
//!
//! Every operation either does all of its work or none of it: a refused reserve or
//! release leaves every slot as it was.

use core::ops::Range;

use serde::{Deserialize, Serialize};

use crate::types::Tick;

mod blocks;
mod search;

use blocks::Blocks;

/// An absolute slot number: `floor(tick / slot_ticks)`.
pub type Slot = u64;

/// Why the calendar refused an operation.
///
/// Variants are only ever added at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum CalendarError {
    /// Zero nodes, more nodes than the capacity, zero slots, or `from > to`.
    BadRequest,
    /// No slot range of the request lies inside the horizon `[base, base + H)`.
    OutOfHorizon,
    /// Inside the horizon, some slot has fewer free nodes than asked for.
    NoRoom,
    /// A release would raise a slot above the capacity: it was not reserved.
    OverRelease,
}

impl CalendarError {
    /// A short stable name.
    pub const fn name(self) -> &'static str {
        match self {
            Self::BadRequest => "bad_request",
            Self::OutOfHorizon => "out_of_horizon",
            Self::NoRoom => "no_room",
            Self::OverRelease => "over_release",
        }
    }
}

impl core::fmt::Display for CalendarError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// The length of a slot in ticks, and the rounding from ticks to slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SlotLength(Tick);

impl SlotLength {
    /// `None` for a zero length.
    pub const fn new(ticks: Tick) -> Option<Self> {
        if ticks == 0 { None } else { Some(Self(ticks)) }
    }

    pub const fn ticks(self) -> Tick {
        self.0
    }

    /// The slot that contains `t`: `floor(t / len)`.
    pub const fn slot_of(self, t: Tick) -> Slot {
        // The length is never zero (see `new`); `checked_div` only keeps the lint quiet.
        match t.checked_div(self.0) {
            Some(slot) => slot,
            None => 0,
        }
    }

    /// The first slot that starts at or after `t`: `ceil(t / len)`.
    pub const fn slot_at_or_after(self, t: Tick) -> Slot {
        let floor = self.slot_of(t);
        match t.checked_rem(self.0) {
            Some(0) | None => floor,
            // `floor < Tick::MAX / len + 1`, so this cannot saturate for len >= 2.
            Some(_) => floor.saturating_add(1),
        }
    }

    /// The first tick of slot `slot`, if it is a [`Tick`].
    pub const fn start_of(self, slot: Slot) -> Option<Tick> {
        slot.checked_mul(self.0)
    }

    /// Whether `t` is the first tick of a slot.
    pub const fn is_boundary(self, t: Tick) -> bool {
        matches!(t.checked_rem(self.0), Some(0))
    }

    /// The slots `[s, e)` overlaps, as `(first, count)`: `floor(s / len) ..
    /// ceil(e / len)`. An empty interval (`e <= s`) occupies no slot.
    pub const fn span(self, s: Tick, e: Tick) -> (Slot, u64) {
        let first = self.slot_of(s);
        if e <= s {
            return (first, 0);
        }
        (first, self.slot_at_or_after(e).saturating_sub(first))
    }
}

/// The free capacity of the `H` slots of the horizon. See the module documentation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Calendar<const H: usize> {
    /// The free capacity of each ring position.
    free: Blocks<H>,
    /// The first slot of the horizon.
    base: Slot,
    capacity: u32,
}

impl<const H: usize> Calendar<H> {
    /// `H` as a slot count. `usize` is at most 64 bits on every target Rust supports,
    /// so the conversion is exact.
    const HORIZON: u64 = {
        assert!(H > 0, "a calendar needs at least one slot");
        H as u64
    };

    /// A calendar whose horizon starts at slot 0, every slot with `capacity` free.
    pub fn new(capacity: u32) -> Self {
        let _ = Self::HORIZON;
        Self { free: Blocks::new(capacity), base: 0, capacity }
    }

    pub const fn capacity(&self) -> u32 {
        self.capacity
    }

    /// The first slot of the horizon.
    pub const fn base(&self) -> Slot {
        self.base
    }

    /// One past the last slot of the horizon (saturating at `Slot::MAX`).
    pub const fn end(&self) -> Slot {
        self.base.saturating_add(Self::HORIZON)
    }

    /// Every slot free again, the horizon starting at slot 0.
    pub fn reset(&mut self) {
        self.free.fill(self.capacity);
        self.base = 0;
    }

    /// The free capacity of `slot`, or `None` outside the horizon.
    pub fn free(&self, slot: Slot) -> Option<u32> {
        if slot < self.base || slot >= self.end() {
            return None;
        }
        self.free.get(Self::position(slot)?)
    }

    /// Moves the horizon to start at `base`. Slots that fall behind are forgotten and
    /// their ring positions become the new far slots, with full capacity. A base at or
    /// before the current one changes nothing.
    pub fn advance_to(&mut self, base: Slot) {
        if base <= self.base {
            return;
        }
        let passed = base.saturating_sub(self.base).min(Self::HORIZON);
        if let Ok((first, second)) = self.ranges(self.base, passed) {
            self.free.set(first.start, first.end, self.capacity);
            self.free.set(second.start, second.end, self.capacity);
        }
        self.base = base;
    }

    /// Whether the `n` slots from `first` lie in the horizon and each has `nodes` free.
    pub fn fits(&self, first: Slot, n: u64, nodes: u32) -> Result<(), CalendarError> {
        self.check(nodes, n)?;
        let (a, b) = self.ranges(first, n)?;
        if [a, b].into_iter().any(|r| self.free.last_below(r.start, r.end, nodes).is_some()) {
            return Err(CalendarError::NoRoom);
        }
        Ok(())
    }

    /// Takes `nodes` from each of the `n` slots from `first`, or changes nothing.
    pub fn reserve(&mut self, first: Slot, n: u64, nodes: u32) -> Result<(), CalendarError> {
        self.fits(first, n, nodes)?;
        self.apply(first, n, nodes.wrapping_neg())
    }

    /// Gives `nodes` back to each of the `n` slots from `first`, or changes nothing.
    pub fn release(&mut self, first: Slot, n: u64, nodes: u32) -> Result<(), CalendarError> {
        self.check(nodes, n)?;
        let (a, b) = self.ranges(first, n)?;
        // `nodes <= capacity` (see `check`): a slot over `capacity - nodes` would pass
        // the capacity (for a one-node calendar, a slot with room: read from the masks).
        let over_most = self.capacity.saturating_sub(nodes).saturating_add(1);
        let over = |r: &Range<usize>| self.free.first_at_least(r.start, r.end, over_most).is_some();
        if over(&a) || over(&b) {
            return Err(CalendarError::OverRelease);
        }
        self.apply(first, n, nodes)
    }

    /// Adds `delta` (wrapping: a subtraction is the addition of its negation) to the
    /// `n` slots from `first`, checked to stay between 0 and the capacity.
    fn apply(&mut self, first: Slot, n: u64, delta: u32) -> Result<(), CalendarError> {
        let (a, b) = self.ranges(first, n)?;
        self.free.add(a.start, a.end, delta);
        self.free.add(b.start, b.end, delta);
        Ok(())
    }

    /// Whether no slot of the horizon has more free than the capacity: the kernels'
    /// `check_invariants` ask it after every step, in debug builds. `O(64 + H / 64)`.
    #[cfg(debug_assertions)]
    pub(crate) fn within_capacity(&self) -> bool {
        self.capacity.checked_add(1).is_none_or(|over| self.free.first_at_least(0, H, over).is_none())
    }

    fn check(&self, nodes: u32, n: u64) -> Result<(), CalendarError> {
        if nodes == 0 || nodes > self.capacity || n == 0 {
            return Err(CalendarError::BadRequest);
        }
        Ok(())
    }

    /// The ring positions of the `n` slots from `first`, as two ranges: from the
    /// first slot's position to the end of the ring, then from position 0. The second
    /// is empty unless the run wraps. Refused unless all `n` lie in the horizon.
    fn ranges(&self, first: Slot, n: u64) -> Result<(Range<usize>, Range<usize>), CalendarError> {
        let end = first.checked_add(n).ok_or(CalendarError::OutOfHorizon)?;
        if first < self.base || end > self.end() {
            return Err(CalendarError::OutOfHorizon);
        }
        let start = Self::position(first).ok_or(CalendarError::OutOfHorizon)?;
        // `n <= H` here, so it fits a `usize`.
        let n = usize::try_from(n).map_err(|_| CalendarError::OutOfHorizon)?;
        let first_len = n.min(H.saturating_sub(start));
        let first_end = start.saturating_add(first_len);
        Ok((start..first_end, 0..n.saturating_sub(first_len)))
    }

    fn position(slot: Slot) -> Option<usize> {
        usize::try_from(slot.checked_rem(Self::HORIZON)?).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn span_rounds_outwards() {
        let len = SlotLength::new(10).unwrap();
        assert_eq!(len.span(0, 10), (0, 1));
        assert_eq!(len.span(0, 11), (0, 2));
        assert_eq!(len.span(5, 15), (0, 2));
        assert_eq!(len.span(10, 20), (1, 1));
        assert_eq!(len.span(19, 21), (1, 2));
        assert_eq!(len.span(7, 7), (0, 0));
        assert_eq!(len.slot_at_or_after(20), 2);
        assert_eq!(len.slot_at_or_after(21), 3);
        assert_eq!(SlotLength::new(0), None);
    }

    #[test]
    fn earliest_finds_the_first_run_and_wraps_the_ring() {
        let mut c = Calendar::<8>::new(4);
        c.reserve(2, 2, 3).unwrap(); // slots 2, 3 have 1 free
        assert_eq!(c.earliest(0, 7, 2, 2), Ok(0));
        assert_eq!(c.earliest(1, 7, 2, 2), Ok(4));
        assert_eq!(c.earliest(1, 7, 1, 3), Ok(1));
        assert_eq!(c.earliest(0, 7, 2, 7), Err(CalendarError::NoRoom));
        assert_eq!(c.earliest(5, 7, 2, 4), Err(CalendarError::OutOfHorizon));
        c.advance_to(6); // horizon 6..14; positions 0..6 now hold slots 8..14
        assert_eq!(c.free(5), None);
        assert_eq!(c.free(10), Some(4));
        c.reserve(7, 3, 4).unwrap(); // 7, 8, 9 (wraps)
        assert_eq!(c.earliest(6, 13, 1, 2), Ok(10));
        assert_eq!(c.earliest(0, 13, 1, 1), Ok(6));
        assert_eq!(c.release(7, 3, 4), Ok(()));
        assert_eq!(c.release(7, 1, 1), Err(CalendarError::OverRelease));
        assert_eq!(c.reserve(12, 3, 1), Err(CalendarError::OutOfHorizon));
        assert_eq!(c.reserve(6, 1, 5), Err(CalendarError::BadRequest));
        assert_eq!(c.earliest(4, 3, 1, 1), Err(CalendarError::BadRequest));
    }

    #[test]
    fn a_refused_reserve_changes_nothing() {
        let mut c = Calendar::<4>::new(2);
        c.reserve(1, 1, 2).unwrap();
        let before = c.clone();
        assert_eq!(c.reserve(0, 3, 1), Err(CalendarError::NoRoom));
        assert_eq!(c, before);
    }
}
