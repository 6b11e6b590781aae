//! The calendar's storage: the free capacity of each of `H` ring positions, cut into
//! blocks of [`BLOCK`] positions, each block with its minimum, its maximum and an
//! addition owed to all of its positions.
//!
//! A change to a range adds to (or sets) the positions of the blocks it covers in
//! part, one by one, and changes only the three words of each block it covers whole;
//! a search skips every block whose minimum or maximum rules it out, and reads the
//! positions of the others. So an operation on `n` positions costs `O(BLOCK + n /
//! BLOCK)` simple steps, and a search stops at the first block that can answer: a
//! hundred positions are one or two blocks, a week of one-minute slots 158.
//!
//! Why blocks and not a tree of `O(log H)` depth: the kernels' reservations are mostly
//! short (tens of slots), where a block's loop over 64 words, which the compiler
//! vectorises, costs less than a walk down and up a tree; a tree over blocks of 4
//! (this file's first version) made the reservation kernel three times faster on
//! HPC2N's long jobs and twice slower on a generated trace of short ones.
//!
//! # Memory
//! The block words live in a second `[u32; H]` (a const generic cannot size an array
//! `H / BLOCK` long on stable Rust), of which `3 (ceil(H / BLOCK) - 1)` words are
//! used; the first block's words are kept apart, so that any `H >= 1` fits. The
//! calendar costs 8 bytes a slot instead of 4.
//!
//! A position's value is its stored word plus its block's addition, in wrapping `u32`
//! arithmetic; the sum is always between 0 and the capacity. Two stores that hold the
//! same values may split them differently between words and additions, so equality
//! compares the values.

/// Positions per block.
pub(super) const BLOCK: usize = 64;

/// The positions and their blocks.
#[derive(Clone, Debug)]
pub(super) struct Blocks<const H: usize> {
    /// Each position's value, less its block's addition.
    slots: [u32; H],
    /// Minimum, maximum and addition of blocks `1, 2, ...`, three words each.
    words: [u32; H],
    /// The same for block 0.
    first: [u32; 3],
}

/// A block's summary: the true minimum and maximum, and the addition owed to its
/// stored words.
#[derive(Clone, Copy)]
struct Summary {
    min: u32,
    max: u32,
    add: u32,
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
    /// Every position holds `value`: each stored word 0, each block's minimum,
    /// maximum and addition `value`.
    pub(super) const fn new(value: u32) -> Self {
        Self { slots: [0; H], words: [value; H], first: [value; 3] }
    }

    /// Every position holds `value` again, in place.
    pub(super) fn fill(&mut self, value: u32) {
        self.slots.fill(0);
        self.words.fill(value);
        self.first = [value; 3];
    }

    /// The value at `pos`, or `None` past the end.
    pub(super) fn get(&self, pos: usize) -> Option<u32> {
        let add = self.summary(pos.checked_div(BLOCK)?).add;
        Some(self.slots.get(pos)?.wrapping_add(add))
    }

    /// The smallest and the largest value in `[lo, hi)`; `None` for an empty range.
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

    /// Adds `delta` (wrapping) to every position in `[lo, hi)`.
    pub(super) fn add(&mut self, lo: usize, hi: usize, delta: u32) {
        self.change(lo, hi, Change::Add(delta));
    }

    /// Sets every position in `[lo, hi)` to `value`.
    pub(super) fn set(&mut self, lo: usize, hi: usize, value: u32) {
        self.change(lo, hi, Change::Set(value));
    }

    /// The first position in `[lo, hi)` whose value is at least `level`.
    pub(super) fn first_at_least(&self, lo: usize, hi: usize, level: u32) -> Option<usize> {
        Self::pieces(lo, hi).find_map(|(block, from, to)| {
            let s = self.summary(block);
            if s.max < level {
                return None;
            }
            let slots = self.slots.get(from..to)?;
            let at = slots.iter().position(|v| v.wrapping_add(s.add) >= level)?;
            Some(from.saturating_add(at))
        })
    }

    /// The last position in `[lo, hi)` whose value is below `level`.
    pub(super) fn last_below(&self, lo: usize, hi: usize, level: u32) -> Option<usize> {
        Self::pieces(lo, hi).rev().find_map(|(block, from, to)| {
            let s = self.summary(block);
            if s.min >= level {
                return None;
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
        let words = match block.checked_sub(1).and_then(|b| b.checked_mul(3)) {
            None => Some(&self.first[..]),
            Some(i) => self.words.get(i..i.saturating_add(3)),
        };
        match words {
            Some(&[min, max, add]) => Summary { min, max, add },
            // Every block's words fit (see the module documentation); never reached.
            _ => Summary { min: 0, max: 0, add: 0 },
        }
    }

    fn write(&mut self, block: usize, s: Summary) {
        let words = match block.checked_sub(1).and_then(|b| b.checked_mul(3)) {
            None => Some(&mut self.first[..]),
            Some(i) => self.words.get_mut(i..i.saturating_add(3)),
        };
        if let Some([min, max, add]) = words {
            (*min, *max, *add) = (s.min, s.max, s.add);
        }
    }

    fn change(&mut self, lo: usize, hi: usize, change: Change) {
        for (block, from, to) in Self::pieces(lo, hi) {
            let mut s = self.summary(block);
            if matches!(change, Change::Set(value) if s.min == value && s.max == value) {
                // Every position already holds the value.
                continue;
            }
            let whole = to.saturating_sub(from) == BLOCK;
            let delta = match change {
                Change::Add(delta) => Some(delta),
                // A uniform block takes a setting as an addition.
                Change::Set(value) if s.min == s.max => Some(value.wrapping_sub(s.min)),
                Change::Set(_) => None,
            };
            if let (true, Some(delta)) = (whole, delta) {
                s = Summary {
                    min: s.min.wrapping_add(delta),
                    max: s.max.wrapping_add(delta),
                    add: s.add.wrapping_add(delta),
                };
                self.write(block, s);
                continue;
            }
            self.change_part(block, s, (from, to), change);
        }
    }

    /// `change` to the positions `[from, to)` of `block`, whose summary is `s`, one
    /// by one; then the block's new extremes.
    fn change_part(&mut self, block: usize, s: Summary, (from, to): (usize, usize), change: Change) {
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
        self.write(block, Summary { min, max, add: s.add });
    }
}

impl<const H: usize> Blocks<H> {
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
mod tests {
    use super::*;

    #[test]
    fn additions_and_settings_read_back_exactly() {
        let mut t = Blocks::<200>::new(10);
        t.add(3, 140, 4u32.wrapping_neg());
        t.add(0, 200, 2u32.wrapping_neg());
        t.set(5, 90, 10);
        t.add(80, 150, 1);
        let want = |p: usize| {
            let mut v: u32 = 10;
            if (3..140).contains(&p) {
                v -= 4;
            }
            v -= 2;
            if (5..90).contains(&p) {
                v = 10;
            }
            if (80..150).contains(&p) {
                v += 1;
            }
            v
        };
        for p in 0..200 {
            assert_eq!(t.get(p), Some(want(p)), "position {p}");
        }
        assert_eq!(t.get(200), None);
        assert_eq!(t.first_at_least(0, 200, 9), Some(5));
        assert_eq!(t.first_at_least(90, 200, 8), Some(140));
        assert_eq!(t.last_below(0, 200, 5), Some(4));
        assert_eq!(t.last_below(0, 200, 6), Some(139));
        assert_eq!(t.extremes(0, 200), Some((4, 11)));
        assert_eq!(t.extremes(7, 7), None);
        let mut u = Blocks::<200>::new(10);
        (0..200).for_each(|p| u.set(p, p + 1, want(p)));
        assert_eq!(t, u);
    }

    /// Many random additions and settings, each followed by reads of every block's
    /// extremes and of random ranges, against a plain array: the summaries found
    /// without a scan are the scanned ones.
    #[test]
    fn summaries_follow_random_changes() {
        const N: usize = 300;
        let (capacity, mut seed) = (6u32, 0x9e37_79b9_7f4a_7c15u64);
        let mut next = |below: usize| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) as usize % below
        };
        let (mut t, mut model) = (Blocks::<N>::new(capacity), [capacity; N]);
        for _ in 0..4_000 {
            let lo = next(N);
            let long = next(4) == 0;
            let hi = (lo + 1 + next(if long { N } else { 5 })).min(N);
            let range = &mut model[lo..hi];
            match next(3) {
                0 => {
                    let value = next(capacity as usize + 1) as u32;
                    range.fill(value);
                    t.set(lo, hi, value);
                }
                1 if range.iter().all(|&v| v > 0) => {
                    range.iter_mut().for_each(|v| *v -= 1);
                    t.add(lo, hi, 1u32.wrapping_neg());
                }
                _ if range.iter().all(|&v| v < capacity) => {
                    range.iter_mut().for_each(|v| *v += 1);
                    t.add(lo, hi, 1);
                }
                _ => {}
            }
            for b in (0..N).step_by(BLOCK) {
                let end = (b + BLOCK).min(N);
                let want = model[b..end].iter().fold((u32::MAX, 0), |(a, c), &v| (a.min(v), c.max(v)));
                assert_eq!(t.extremes(b, end), Some(want), "block at {b}");
            }
            let (a, b) = (next(N), next(N));
            let (a, b) = (a.min(b), a.max(b) + 1);
            let want = model[a..b].iter().fold((u32::MAX, 0), |(x, y), &v| (x.min(v), y.max(v)));
            assert_eq!(t.extremes(a, b), Some(want));
            let level = next(capacity as usize + 1) as u32;
            assert_eq!(
                t.first_at_least(a, b, level),
                model[a..b].iter().position(|&v| v >= level).map(|p| a + p)
            );
            assert_eq!(
                t.last_below(a, b, level),
                model[a..b].iter().rposition(|&v| v < level).map(|p| a + p)
            );
        }
    }

    #[test]
    fn a_single_slot_fits() {
        let mut t = Blocks::<1>::new(3);
        t.add(0, 1, 1u32.wrapping_neg());
        assert_eq!(t.get(0), Some(2));
        assert_eq!(t.last_below(0, 1, 3), Some(0));
    }
}
