//! The calendar's storage: the free capacity of each of `H` ring positions, cut into
//! blocks of [`BLOCK`] positions, each block with its minimum, its maximum, an
//! addition owed to all of its positions, and its *room mask*: a bit per position,
//! set when the position has at least one free (its value is 1 or more).
//!
//! A change to a range adds to (or sets) the positions of the blocks it covers in
//! part, one by one, and changes only the summary of each block it covers whole;
//! a search skips every block whose minimum or maximum rules it out, and reads the
//! positions of the others. So an operation on `n` positions costs `O(BLOCK + n /
//! BLOCK)` simple steps, and a search stops at the first block that can answer: a
//! hundred positions are one or two blocks, a week of one-minute slots 158.
//!
//! A search for one free (the tiers kernel's every search, and the reservation
//! kernel's for one-node jobs) reads a block's room mask instead of its positions:
//! one word operation a block. The mask is kept by every change: from the changed
//! positions, or, for a block changed whole, from its new extremes (all set when the
//! minimum is at least 1, all clear when the maximum is 0; only a block holding both
//! 0 and more is read again).
//!
//! Why blocks and not a tree of `O(log H)` depth: the kernels' reservations are mostly
//! short (tens of slots), where a block's loop over 64 words, which the compiler
//! vectorises, costs less than a walk down and up a tree; a tree over blocks of 4
//! (this file's first version) made the reservation kernel three times faster on
//! HPC2N's long jobs and twice slower on a generated trace of short ones.
//!
//! # Memory
//! The block words live in a second `[u32; H]` (a const generic cannot size an array
//! `H / BLOCK` long on stable Rust), of which `5 (ceil(H / BLOCK) - 1)` words are
//! used (minimum, maximum, addition, and the room mask's two halves); the first
//! block's words are kept apart, so that any `H >= 1` fits. The calendar costs 8
//! bytes a slot instead of 4.
//!
//! A position's value is its stored word plus its block's addition, in wrapping `u32`
//! arithmetic; the sum is always between 0 and the capacity. Two stores that hold the
//! same values may split them differently between words and additions, so equality
//! compares the values. The room bits of positions past `H` (in the last block) are
//! never read.

mod room;
mod whole;

use room::{span, uniform_room};

/// Positions per block.
pub(super) const BLOCK: usize = 64;

/// Words of a block's summary: minimum, maximum, addition, room mask (low, high).
const WORDS: usize = 5;

/// The positions and their blocks.
#[derive(Clone, Debug)]
pub(super) struct Blocks<const H: usize> {
    /// Each position's value, less its block's addition.
    slots: [u32; H],
    /// The summaries of blocks `1, 2, ...`, [`WORDS`] words each.
    words: [u32; H],
    /// The same for block 0, then the top level's words of blocks `0 .. 64` (see
    /// `room.rs`; those of the later blocks are at the end of `words`).
    first: [u32; WORDS + 4],
}

/// A block's summary: the true minimum and maximum, the addition owed to its
/// stored words, and the room mask (bit `k`: position `k` of the block holds 1 or
/// more).
#[derive(Clone, Copy)]
struct Summary {
    min: u32,
    max: u32,
    add: u32,
    room: u64,
}

/// A change to a range of positions.
#[derive(Clone, Copy)]
enum Change {
    /// Add this, wrapping (a subtraction is the addition of the negation).
    Add(u32),
    /// Set every position to this.
    Set(u32),
}

impl<const H: usize> Blocks<H> {
    /// Every position holds `value`.
    pub(super) fn new(value: u32) -> Self {
        let mut blocks = Self { slots: [0; H], words: [0; H], first: [0; WORDS + 4] };
        blocks.fill(value);
        blocks
    }

    /// Every position holds `value` again, in place: each stored word 0, each
    /// block's minimum, maximum and addition `value`.
    pub(super) fn fill(&mut self, value: u32) {
        self.slots.fill(0);
        let s = Summary { min: value, max: value, add: value, room: uniform_room(value) };
        for block in 0..H.div_ceil(BLOCK) {
            self.write(block, s);
            self.mark(block, s);
        }
    }

    /// The value at `pos`, or `None` past the end.
    pub(super) fn get(&self, pos: usize) -> Option<u32> {
        let add = self.summary(pos.checked_div(BLOCK)?).add;
        Some(self.slots.get(pos)?.wrapping_add(add))
    }

    /// The smallest and the largest value in `[lo, hi)`; `None` for an empty range
    /// (the tests' view of the summaries).
    #[cfg(test)]
    pub(super) fn extremes(&self, lo: usize, hi: usize) -> Option<(u32, u32)> {
        let mut found: Option<(u32, u32)> = None;
        for (block, from, to) in Self::pieces(lo, hi) {
            let s = self.summary(block);
            let (min, max) = if to.saturating_sub(from) == BLOCK {
                (s.min, s.max)
            } else {
                let values = self.slots.get(from..to).unwrap_or(&[]).iter().map(|v| v.wrapping_add(s.add));
                values.fold((u32::MAX, 0), |(a, b), v| (a.min(v), b.max(v)))
            };
            found = Some(found.map_or((min, max), |(a, b)| (a.min(min), b.max(max))));
        }
        found
    }

    // The calendar asks for two ranges at a time, the second empty unless its run
    // wraps the ring: the four entry points below are inlined, so that an empty range
    // costs a comparison.

    /// Adds `delta` (wrapping) to every position in `[lo, hi)`.
    #[inline]
    pub(super) fn add(&mut self, lo: usize, hi: usize, delta: u32) {
        if lo < hi {
            self.change(lo, hi, Change::Add(delta));
        }
    }

    /// Sets every position in `[lo, hi)` to `value`.
    #[inline]
    pub(super) fn set(&mut self, lo: usize, hi: usize, value: u32) {
        if lo < hi {
            self.change(lo, hi, Change::Set(value));
        }
    }

    /// The first position in `[lo, hi)` whose value is at least `level`.
    #[inline]
    pub(super) fn first_at_least(&self, lo: usize, hi: usize, level: u32) -> Option<usize> {
        match level {
            _ if lo >= hi => None,
            1 => self.first_room(lo, hi),
            _ => self.first_at_least_scan(lo, hi, level),
        }
    }

    /// [`Self::first_at_least`] from the blocks' positions.
    fn first_at_least_scan(&self, lo: usize, hi: usize, level: u32) -> Option<usize> {
        Self::pieces(lo, hi).find_map(|(block, from, to)| {
            let s = self.summary(block);
            if s.max < level {
                return None;
            }
            if s.min >= level {
                return Some(from);
            }
            let slots = self.slots.get(from..to)?;
            let at = slots.iter().position(|v| v.wrapping_add(s.add) >= level)?;
            Some(from.saturating_add(at))
        })
    }

    /// The last position in `[lo, hi)` whose value is below `level`.
    #[inline]
    pub(super) fn last_below(&self, lo: usize, hi: usize, level: u32) -> Option<usize> {
        match level {
            _ if lo >= hi => None,
            1 => self.last_full(lo, hi),
            _ => self.last_below_scan(lo, hi, level),
        }
    }

    /// [`Self::last_below`] from the blocks' positions.
    fn last_below_scan(&self, lo: usize, hi: usize, level: u32) -> Option<usize> {
        Self::pieces(lo, hi).rev().find_map(|(block, from, to)| {
            let s = self.summary(block);
            if s.min >= level {
                return None;
            }
            if s.max < level {
                return Some(to.saturating_sub(1));
            }
            let slots = self.slots.get(from..to)?;
            let at = slots.iter().rposition(|v| v.wrapping_add(s.add) < level)?;
            Some(from.saturating_add(at))
        })
    }

    /// The blocks that `[lo, hi)` (clipped to `H`) meets, each with the part of the
    /// range inside it: `(block, from, to)`.
    fn pieces(lo: usize, hi: usize) -> impl DoubleEndedIterator<Item = (usize, usize, usize)> {
        let hi = hi.min(H);
        let blocks = if lo < hi {
            lo.checked_div(BLOCK).unwrap_or(0)
                ..hi.saturating_sub(1).checked_div(BLOCK).unwrap_or(0).saturating_add(1)
        } else {
            0..0
        };
        blocks.map(move |block| {
            let start = block.saturating_mul(BLOCK);
            (block, start.max(lo), start.saturating_add(BLOCK).min(hi))
        })
    }

    fn summary(&self, block: usize) -> Summary {
        let words = match block.checked_sub(1).and_then(|b| b.checked_mul(WORDS)) {
            None => self.first.get(..WORDS),
            Some(i) => self.words.get(i..i.saturating_add(WORDS)),
        };
        match words {
            Some(&[min, max, add, low, high]) => {
                Summary { min, max, add, room: u64::from(low) | u64::from(high) << 32 }
            }
            // Every block's words fit (see the module documentation); never reached.
            _ => Summary { min: 0, max: 0, add: 0, room: 0 },
        }
    }

    fn write(&mut self, block: usize, s: Summary) {
        let words = match block.checked_sub(1).and_then(|b| b.checked_mul(WORDS)) {
            None => self.first.get_mut(..WORDS),
            Some(i) => self.words.get_mut(i..i.saturating_add(WORDS)),
        };
        if let Some([min, max, add, low, high]) = words {
            // The mask's halves: the truncations are the point.
            #[allow(clippy::cast_possible_truncation)]
            let (l, h) = (s.room as u32, (s.room >> 32) as u32);
            (*min, *max, *add, *low, *high) = (s.min, s.max, s.add, l, h);
        }
    }

    /// Writes `s` over `block`'s summary `was`, and marks the top level when its two
    /// bits change (room somewhere, room everywhere).
    fn rewrite(&mut self, block: usize, was: Summary, s: Summary) {
        self.write(block, s);
        if (was.max >= 1, was.min >= 1) != (s.max >= 1, s.min >= 1) {
            self.mark(block, s);
        }
    }

    fn change(&mut self, lo: usize, hi: usize, change: Change) {
        let (first, last) = (lo / BLOCK, hi.min(H).saturating_sub(1) / BLOCK);
        if let (Change::Add(delta), true) = (change, lo < hi && last >= first.saturating_add(2)) {
            // The blocks between the first and the last are whole: one pass over their
            // summaries (the longest reservations are mostly such blocks).
            let (head, tail) = (first.saturating_add(1), last.saturating_sub(1));
            let edges = Self::pieces(lo, hi).filter(|&(block, _, _)| block < head || block > tail);
            edges.for_each(|(block, from, to)| self.change_block(block, (from, to), change));
            self.add_whole(head, tail, delta);
            return;
        }
        for (block, from, to) in Self::pieces(lo, hi) {
            self.change_block(block, (from, to), change);
        }
    }

    /// `change` to the positions `[from, to)` of `block`.
    fn change_block(&mut self, block: usize, (from, to): (usize, usize), change: Change) {
        let s = self.summary(block);
        if matches!(change, Change::Set(value) if s.min == value && s.max == value) {
            // Every position already holds the value.
            return;
        }
        let whole = to.saturating_sub(from) == BLOCK;
        let delta = match change {
            Change::Add(delta) => Some(delta),
            // A uniform block takes a setting as an addition.
            Change::Set(value) if s.min == s.max => Some(value.wrapping_sub(s.min)),
            Change::Set(_) => None,
        };
        if let (true, Some(delta)) = (whole, delta) {
            let (min, max, add) =
                (s.min.wrapping_add(delta), s.max.wrapping_add(delta), s.add.wrapping_add(delta));
            let room = match (min >= 1, max >= 1) {
                (true, _) => u64::MAX,
                (_, false) => 0,
                // Both 0 and more: the positions say which.
                _ => self.room_of(block, (from, to), add),
            };
            self.rewrite(block, s, Summary { min, max, add, room });
            return;
        }
        self.change_part(block, s, (from, to), change);
    }

    /// `change` to the positions `[from, to)` of `block`, whose summary is `s`, one
    /// by one; then the block's new extremes and room mask.
    fn change_part(&mut self, block: usize, s: Summary, (from, to): (usize, usize), change: Change) {
        if self.change_binary(block, s, (from, to), change) {
            return;
        }
        let start = block.saturating_mul(BLOCK);
        let all = start..start.saturating_add(BLOCK).min(H);
        let full = from == all.start && to == all.end;
        // The extremes of the changed positions before the change (unless the
        // change covers the block), then after it.
        let add = s.add;
        let scan = |slots: &[u32]| {
            slots.iter().fold((u32::MAX, 0), |(a, b), v| {
                let v = v.wrapping_add(add);
                (a.min(v), b.max(v))
            })
        };
        let before = match self.slots.get(from..to) {
            Some(slots) if !full => scan(slots),
            _ => (s.min, s.max),
        };
        if let Some(slots) = self.slots.get_mut(from..to) {
            match change {
                Change::Add(delta) => slots.iter_mut().for_each(|v| *v = v.wrapping_add(delta)),
                Change::Set(value) => slots.fill(value.wrapping_sub(s.add)),
            }
        }
        // Every value stays between 0 and the capacity, so a shift keeps the order.
        let after = match change {
            Change::Add(delta) => (before.0.wrapping_add(delta), before.1.wrapping_add(delta)),
            Change::Set(value) => (value, value),
        };
        let (min, max) = if full {
            after
        } else {
            // The block's extremes without a scan when they follow: a new value
            // past the old extreme, or an old extreme that the changed positions
            // did not reach (so it lies among the others, unchanged).
            // An unchanged neighbour holding the old extreme proves it too.
            let near = |level: u32| self.near(all.clone(), from, to, s.add, level);
            let max = (after.1 >= s.max || before.1 < s.max || near(s.max)).then(|| after.1.max(s.max));
            let min = (after.0 <= s.min || before.0 > s.min || near(s.min)).then(|| after.0.min(s.min));
            match (min, max) {
                (Some(min), Some(max)) => (min, max),
                _ => scan(self.slots.get(all).unwrap_or(&[])),
            }
        };
        let changed = span(from.saturating_sub(start), to.saturating_sub(start));
        let bits = match after {
            (1.., _) => changed,
            (_, 0) => 0,
            _ => self.room_of(block, (from, to), s.add),
        };
        let room = (s.room & !changed) | bits;
        self.rewrite(block, s, Summary { min, max, add: s.add, room });
    }

    /// Whether one of the few positions of `all` just outside `[from, to)` holds
    /// `level` (with the block's addition `add`).
    fn near(&self, all: core::ops::Range<usize>, from: usize, to: usize, add: u32, level: u32) -> bool {
        const NEAR: usize = 4;
        let after = to..to.saturating_add(NEAR).min(all.end);
        let before = from.saturating_sub(NEAR).max(all.start)..from;
        [after, before]
            .into_iter()
            .any(|r| self.slots.get(r).unwrap_or(&[]).iter().any(|v| v.wrapping_add(add) == level))
    }
}

impl<const H: usize> PartialEq for Blocks<H> {
    fn eq(&self, other: &Self) -> bool {
        (0..H).all(|pos| self.get(pos) == other.get(pos))
    }
}

impl<const H: usize> Eq for Blocks<H> {}

#[cfg(test)]
mod tests;
