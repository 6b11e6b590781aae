//! The calendar's storage: the free capacity of each of `H` ring positions under a
//! segment tree of minima and maxima, so that a range of any length is changed, or
//! searched for its first or last position above or below a level, in
//! `O(BLOCK + log H)` steps.
//!
//! # Shape
//! The positions are cut into blocks of `BLOCK` consecutive positions (a power of two);
//! the blocks, padded with empty ones to a power of two, are the leaves of a complete
//! binary tree stored in heap order (node `i` has children `2i + 1` and `2i + 2`). Each
//! node keeps the minimum and the maximum of its positions. `BLOCK` is the smallest
//! power of two whose tree fits beside the slots in one more `[u32; H]` (the root is
//! kept apart): 4 for every `H` that is a power of two, so the calendar costs 8 bytes
//! a slot instead of 4. A const generic cannot size an array `H / BLOCK` long on
//! stable Rust; this layout needs none.
//!
//! # Lazy additions
//! Adding `d` to every position under a node changes only that node's minimum and
//! maximum. What the node owes its children is not stored: it is the node's minimum
//! less the smaller of its children's minima (for a leaf, less the smallest of its
//! block's slots), and it is handed down (added to the children) before any change
//! goes below the node. So every stored value is a true value as of the last time its
//! node was written, between 0 and the capacity, and the differences are exact in
//! wrapping `u32` arithmetic. A search reads without handing down: it adds up what the
//! ancestors owe on the way.
//!
//! Two trees that hold the same values may store them differently (an addition may
//! sit at a node or in the slots), so equality compares the values.

/// The slots, the tree over them, and its root.
#[derive(Clone, Debug)]
pub(super) struct Tree<const H: usize> {
    /// Each position's value, less what its ancestors owe it.
    slots: [u32; H],
    /// Minimum and maximum of nodes `1, 2, ...` (the root is `root`), two words each.
    nodes: [u32; H],
    /// The root's minimum and maximum.
    root: (u32, u32),
}

/// A change to a range of positions.
#[derive(Clone, Copy)]
enum Change {
    /// Add this, wrapping (a subtraction is the addition of the negation).
    Add(u32),
    /// Set every position to this.
    Set(u32),
}

/// `(BLOCK, LEAVES)` for a tree over `h` positions: the smallest power-of-two block
/// whose padded leaf count `LEAVES` gives `2 * LEAVES - 2` non-root nodes of two
/// words that fit in `h` words. A single leaf needs no word, so a block of `h`
/// rounded up always fits and the loop ends.
const fn shape(h: usize) -> (usize, usize) {
    let mut block: usize = 1;
    loop {
        let blocks = h.div_ceil(block);
        let leaves = match blocks.checked_next_power_of_two() {
            Some(leaves) => leaves,
            None => usize::MAX,
        };
        if leaves.saturating_mul(4).saturating_sub(4) <= h {
            return (block, leaves);
        }
        block = block.saturating_mul(2);
    }
}

impl<const H: usize> Tree<H> {
    const BLOCK: usize = shape(H).0;
    const LEAVES: usize = shape(H).1;
    /// The positions under the root, padding included.
    const WIDTH: usize = Self::BLOCK.saturating_mul(Self::LEAVES);

    /// Every position holds `value`.
    pub(super) const fn new(value: u32) -> Self {
        Self { slots: [value; H], nodes: [value; H], root: (value, value) }
    }

    /// Every position holds `value` again, in place.
    pub(super) fn fill(&mut self, value: u32) {
        self.slots.fill(value);
        self.nodes.fill(value);
        self.root = (value, value);
    }

    /// The value at `pos`, or `None` past the end.
    pub(super) fn get(&self, pos: usize) -> Option<u32> {
        self.extremes(pos, pos.saturating_add(1)).map(|(min, _)| min)
    }

    /// The smallest and the largest value in `[lo, hi)`; `None` for an empty range.
    pub(super) fn extremes(&self, lo: usize, hi: usize) -> Option<(u32, u32)> {
        let hi = hi.min(H);
        if lo >= hi {
            return None;
        }
        let found = self.extremes_in(0, 0, Self::WIDTH, 0, (lo, hi));
        Some(found)
    }

    /// Adds `delta` (wrapping) to every position in `[lo, hi)`.
    pub(super) fn add(&mut self, lo: usize, hi: usize, delta: u32) {
        self.change(0, 0, Self::WIDTH, (lo, hi.min(H)), Change::Add(delta));
    }

    /// Sets every position in `[lo, hi)` to `value`.
    pub(super) fn set(&mut self, lo: usize, hi: usize, value: u32) {
        self.change(0, 0, Self::WIDTH, (lo, hi.min(H)), Change::Set(value));
    }

    /// The first position in `[lo, hi)` whose value is at least `level`.
    pub(super) fn first_at_least(&self, lo: usize, hi: usize, level: u32) -> Option<usize> {
        self.first_in(0, 0, Self::WIDTH, 0, (lo, hi.min(H)), level)
    }

    /// The last position in `[lo, hi)` whose value is below `level`.
    pub(super) fn last_below(&self, lo: usize, hi: usize, level: u32) -> Option<usize> {
        self.last_in(0, 0, Self::WIDTH, 0, (lo, hi.min(H)), level)
    }

    fn summary(&self, node: usize) -> (u32, u32) {
        let Some(index) = node.checked_sub(1).and_then(|k| k.checked_mul(2)) else {
            return self.root;
        };
        match (self.nodes.get(index), self.nodes.get(index.saturating_add(1))) {
            (Some(&min), Some(&max)) => (min, max),
            // `shape` makes every node fit; this is never reached.
            _ => (0, 0),
        }
    }

    fn write(&mut self, node: usize, (min, max): (u32, u32)) {
        let Some(index) = node.checked_sub(1).and_then(|k| k.checked_mul(2)) else {
            self.root = (min, max);
            return;
        };
        // Not `copy_from_slice`, whose length check is a panic path.
        if let Some(pair) = self.nodes.get_mut(index..index.saturating_add(2)) {
            pair.iter_mut().zip([min, max]).for_each(|(word, value)| *word = value);
        }
    }

    /// The node's children, `2i + 1` and `2i + 2`.
    const fn children(node: usize) -> (usize, usize) {
        let left = node.saturating_mul(2).saturating_add(1);
        (left, left.saturating_add(1))
    }

    /// The slots of the leaf whose block starts at `lo` (empty for padding).
    fn block(&self, lo: usize) -> &[u32] {
        self.slots.get(lo..lo.saturating_add(Self::BLOCK).min(H)).unwrap_or(&[])
    }

    /// What a node owes its children (or a leaf its slots): its stored minimum less
    /// theirs.
    fn owed(&self, node: usize, lo: usize, width: usize) -> u32 {
        let (min, _) = self.summary(node);
        let below = if width <= Self::BLOCK {
            self.block(lo).iter().copied().min()
        } else {
            let (left, right) = Self::children(node);
            Some(self.summary(left).0.min(self.summary(right).0))
        };
        below.map_or(0, |below| min.wrapping_sub(below))
    }

    /// Hands what a node owes down to its children or slots, and leaves its summary
    /// as theirs (the same values).
    fn settle(&mut self, node: usize, lo: usize, width: usize) {
        let owed = self.owed(node, lo, width);
        if owed == 0 {
            return;
        }
        if width <= Self::BLOCK {
            let hi = lo.saturating_add(Self::BLOCK).min(H);
            if let Some(slots) = self.slots.get_mut(lo..hi) {
                slots.iter_mut().for_each(|v| *v = v.wrapping_add(owed));
            }
            return;
        }
        let (left, right) = Self::children(node);
        for child in [left, right] {
            let (min, max) = self.summary(child);
            self.write(child, (min.wrapping_add(owed), max.wrapping_add(owed)));
        }
    }

    /// Recomputes a settled node's summary from its children or slots.
    fn refresh(&mut self, node: usize, lo: usize, width: usize) {
        let summary = if width <= Self::BLOCK {
            let block = self.block(lo);
            match (block.iter().copied().min(), block.iter().copied().max()) {
                (Some(min), Some(max)) => (min, max),
                _ => return,
            }
        } else {
            let (left, right) = Self::children(node);
            let (a, b) = (self.summary(left), self.summary(right));
            (a.0.min(b.0), a.1.max(b.1))
        };
        self.write(node, summary);
    }

    /// Applies `change` to the positions of `range` under `node`, which covers
    /// `[lo, lo + width)` and owes nothing to anything above it.
    fn change(&mut self, node: usize, lo: usize, width: usize, range: (usize, usize), change: Change) {
        let hi = lo.saturating_add(width);
        if hi <= range.0 || range.1 <= lo || range.0 >= range.1 {
            return;
        }
        let (min, max) = self.summary(node);
        if range.0 <= lo && hi <= range.1 {
            // A uniform node takes a setting as an addition.
            let delta = match change {
                Change::Add(delta) => Some(delta),
                Change::Set(value) if min == max => Some(value.wrapping_sub(min)),
                Change::Set(_) => None,
            };
            if let Some(delta) = delta {
                self.write(node, (min.wrapping_add(delta), max.wrapping_add(delta)));
                return;
            }
        }
        self.settle(node, lo, width);
        if width <= Self::BLOCK {
            let (from, to) = (range.0.max(lo), range.1.min(hi).min(H));
            if let Some(slots) = self.slots.get_mut(from..to) {
                for v in slots {
                    *v = match change {
                        Change::Add(delta) => v.wrapping_add(delta),
                        Change::Set(value) => value,
                    };
                }
            }
        } else {
            let (left, right) = Self::children(node);
            let half = width.checked_div(2).unwrap_or(0);
            self.change(left, lo, half, range, change);
            self.change(right, lo.saturating_add(half), half, range, change);
        }
        self.refresh(node, lo, width);
    }

    /// The true minimum and maximum of `range` under `node`, `owed` being what the
    /// node's ancestors owe it. `range` meets the node.
    fn extremes_in(
        &self,
        node: usize,
        lo: usize,
        width: usize,
        owed: u32,
        range: (usize, usize),
    ) -> (u32, u32) {
        let hi = lo.saturating_add(width);
        let (min, max) = self.summary(node);
        if range.0 <= lo && hi <= range.1 {
            return (min.wrapping_add(owed), max.wrapping_add(owed));
        }
        let owed = owed.wrapping_add(self.owed(node, lo, width));
        if width <= Self::BLOCK {
            let (from, to) = (range.0.max(lo), range.1.min(hi).min(H));
            let slots = self.slots.get(from..to).unwrap_or(&[]).iter().map(|v| v.wrapping_add(owed));
            return slots.fold((u32::MAX, 0), |(min, max), v| (min.min(v), max.max(v)));
        }
        let (left, right) = Self::children(node);
        let half = width.checked_div(2).unwrap_or(0);
        let mid = lo.saturating_add(half);
        let parts = [(left, lo, mid), (right, mid, hi)];
        let mut found = (u32::MAX, 0);
        for (child, from, to) in parts {
            if from < range.1 && range.0 < to && from < H {
                let (min, max) = self.extremes_in(child, from, half, owed, range);
                found = (found.0.min(min), found.1.max(max));
            }
        }
        found
    }

    /// The first position of `range` under `node` with a value at least `level`.
    fn first_in(
        &self,
        node: usize,
        lo: usize,
        width: usize,
        owed: u32,
        range: (usize, usize),
        level: u32,
    ) -> Option<usize> {
        let hi = lo.saturating_add(width);
        if hi <= range.0 || range.1 <= lo || self.summary(node).1.wrapping_add(owed) < level {
            return None;
        }
        let owed = owed.wrapping_add(self.owed(node, lo, width));
        if width <= Self::BLOCK {
            let from = range.0.max(lo);
            let slots = self.slots.get(from..range.1.min(hi).min(H)).unwrap_or(&[]);
            return slots.iter().position(|v| v.wrapping_add(owed) >= level).map(|i| from.saturating_add(i));
        }
        let (left, right) = Self::children(node);
        let half = width.checked_div(2).unwrap_or(0);
        self.first_in(left, lo, half, owed, range, level)
            .or_else(|| self.first_in(right, lo.saturating_add(half), half, owed, range, level))
    }

    /// The last position of `range` under `node` with a value below `level`.
    fn last_in(
        &self,
        node: usize,
        lo: usize,
        width: usize,
        owed: u32,
        range: (usize, usize),
        level: u32,
    ) -> Option<usize> {
        let hi = lo.saturating_add(width);
        if hi <= range.0 || range.1 <= lo || self.summary(node).0.wrapping_add(owed) >= level {
            return None;
        }
        let owed = owed.wrapping_add(self.owed(node, lo, width));
        if width <= Self::BLOCK {
            let from = range.0.max(lo);
            let slots = self.slots.get(from..range.1.min(hi).min(H)).unwrap_or(&[]);
            return slots.iter().rposition(|v| v.wrapping_add(owed) < level).map(|i| from.saturating_add(i));
        }
        let (left, right) = Self::children(node);
        let half = width.checked_div(2).unwrap_or(0);
        self.last_in(right, lo.saturating_add(half), half, owed, range, level)
            .or_else(|| self.last_in(left, lo, half, owed, range, level))
    }
}

impl<const H: usize> PartialEq for Tree<H> {
    fn eq(&self, other: &Self) -> bool {
        (0..H).all(|pos| self.get(pos) == other.get(pos))
    }
}

impl<const H: usize> Eq for Tree<H> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes() {
        assert_eq!(shape(1), (1, 1));
        assert_eq!(shape(4), (2, 2));
        assert_eq!(shape(16), (4, 4));
        assert_eq!(shape(2048), (4, 512));
        assert_eq!(shape(65_536), (4, 16_384));
        assert_eq!(shape(48), (8, 8));
    }

    #[test]
    fn lazy_additions_read_back_exactly() {
        let mut t = Tree::<48>::new(10);
        t.add(3, 40, 4u32.wrapping_neg());
        t.add(0, 48, 2u32.wrapping_neg());
        t.set(5, 9, 10);
        t.add(8, 20, 1);
        let want = |p: usize| {
            let mut v: u32 = 10;
            if (3..40).contains(&p) {
                v -= 4;
            }
            v -= 2;
            if (5..9).contains(&p) {
                v = 10;
            }
            if (8..20).contains(&p) {
                v += 1;
            }
            v
        };
        for p in 0..48 {
            assert_eq!(t.get(p), Some(want(p)), "position {p}");
        }
        assert_eq!(t.get(48), None);
        assert_eq!(t.first_at_least(0, 48, 9), Some(5));
        assert_eq!(t.first_at_least(9, 48, 8), Some(40));
        assert_eq!(t.last_below(0, 48, 5), Some(39));
        assert_eq!(t.extremes(0, 48), Some((4, 11)));
        let mut u = Tree::<48>::new(10);
        (0..48).for_each(|p| u.set(p, p + 1, want(p)));
        assert_eq!(t, u);
    }
}
